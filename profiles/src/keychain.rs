//! The OS keychain, where the system has one this crate supports (Linux's kernel keyring,
//! macOS's keychain, Windows' credential manager); elsewhere every operation says there is none.

/// The keychain service name secrets are stored under (the account is the profile's name).
#[cfg(any(target_os = "linux", target_os = "macos", windows))]
const SERVICE: &str = "ruckus-one-cli";

/// What the store asks of a keychain entry (the OS's, or a test's).
pub(crate) trait Keychain {
    /// Stores `secret`.
    fn set(&self, secret: &str) -> Result<(), String>;
    /// The secret stored, if it can be read.
    fn get(&self) -> Option<String>;
    /// Deletes the secret: whether there was one.
    fn delete(&self) -> bool;
}

impl Keychain for Entry {
    fn set(&self, secret: &str) -> Result<(), String> {
        Entry::set(self, secret)
    }

    fn get(&self) -> Option<String> {
        Entry::get(self)
    }

    fn delete(&self) -> bool {
        Entry::delete(self)
    }
}

/// One profile's entry in the keychain.
pub(crate) struct Entry {
    #[cfg(any(target_os = "linux", target_os = "macos", windows))]
    inner: keyring::Entry,
}

impl Entry {
    #[cfg(any(target_os = "linux", target_os = "macos", windows))]
    pub(crate) fn new(profile: &str) -> Result<Entry, String> {
        let inner = keyring::Entry::new(SERVICE, profile).map_err(|e| e.to_string())?;
        Ok(Entry { inner })
    }

    #[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
    pub(crate) fn new(_profile: &str) -> Result<Entry, String> {
        Err("no OS keychain support on this system".to_owned())
    }

    #[cfg(any(target_os = "linux", target_os = "macos", windows))]
    pub(crate) fn set(&self, secret: &str) -> Result<(), String> {
        self.inner.set_password(secret).map_err(|e| e.to_string())
    }

    #[cfg(any(target_os = "linux", target_os = "macos", windows))]
    pub(crate) fn get(&self) -> Option<String> {
        self.inner.get_password().ok()
    }

    #[cfg(any(target_os = "linux", target_os = "macos", windows))]
    pub(crate) fn delete(&self) -> bool {
        self.inner.delete_credential().is_ok()
    }

    #[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
    pub(crate) fn set(&self, _secret: &str) -> Result<(), String> {
        Err("no OS keychain support on this system".to_owned())
    }

    #[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
    pub(crate) fn get(&self) -> Option<String> {
        None
    }

    #[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
    pub(crate) fn delete(&self) -> bool {
        false
    }
}
