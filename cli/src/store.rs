//! Where settings and secrets are kept: named profiles in `config.yaml` under the config
//! directory (`RUCKUS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/ruckus`, else `~/.config/ruckus`),
//! secrets in the OS keychain, or, where there is none, in `credentials.yaml` beside it. Both
//! files are written with mode 0600.

use crate::exit::Failure;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The keychain service name secrets are stored under (the account is the profile's name).
const KEYCHAIN_SERVICE: &str = "ruckus-one-cli";

/// One named profile: who the application token is and where it calls.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Profile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The tenant that owns the application token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_tenant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The delegated tenant to act for by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct ConfigFile {
    #[serde(default)]
    profiles: BTreeMap<String, Profile>,
}

#[derive(Default, Serialize, Deserialize)]
struct SecretsFile {
    #[serde(default)]
    secrets: BTreeMap<String, String>,
}

/// Where a secret was found or put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretPlace {
    Keychain,
    File,
}

pub fn config_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RUCKUS_CONFIG_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CONFIG_HOME") {
        return PathBuf::from(dir).join("ruckus");
    }
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"));
    PathBuf::from(home.unwrap_or_default())
        .join(".config")
        .join("ruckus")
}

pub fn config_path() -> PathBuf {
    config_dir().join("config.yaml")
}

pub fn secrets_path() -> PathBuf {
    config_dir().join("credentials.yaml")
}

fn read_yaml<T: for<'de> Deserialize<'de> + Default>(path: &PathBuf) -> Result<T, Failure> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_yaml::from_str(&text)
            .map_err(|e| Failure::usage(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
        Err(e) => Err(Failure::other(format!("{}: {e}", path.display()))),
    }
}

/// Writes `text` to `path` readable by its owner only (0600 from creation on Unix).
fn write_private(path: &PathBuf, text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let fail = |e: std::io::Error| Failure::other(format!("{}: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let file = options.open(path).map_err(fail)?;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(fail)?;
        let mut file = file;
        file.write_all(text.as_bytes()).map_err(fail)
    }
    #[cfg(not(unix))]
    {
        let mut file = options.open(path).map_err(fail)?;
        file.write_all(text.as_bytes()).map_err(fail)
    }
}

pub fn profile(name: &str) -> Result<Option<Profile>, Failure> {
    let file: ConfigFile = read_yaml(&config_path())?;
    Ok(file.profiles.get(name).cloned())
}

pub fn save_profile(name: &str, profile: &Profile) -> Result<(), Failure> {
    let path = config_path();
    let mut file: ConfigFile = read_yaml(&path)?;
    file.profiles.insert(name.to_owned(), profile.clone());
    let text = serde_yaml::to_string(&file).map_err(|e| Failure::other(e.to_string()))?;
    write_private(&path, &text)
}

pub fn remove_profile(name: &str) -> Result<bool, Failure> {
    let path = config_path();
    let mut file: ConfigFile = read_yaml(&path)?;
    let had = file.profiles.remove(name).is_some();
    if had {
        let text = serde_yaml::to_string(&file).map_err(|e| Failure::other(e.to_string()))?;
        write_private(&path, &text)?;
    }
    Ok(had)
}

/// The OS keychain, unless `RUCKUS_KEYCHAIN=off` (or there is none on this system).
fn keychain_entry(profile: &str) -> Result<keyring::Entry, String> {
    if std::env::var("RUCKUS_KEYCHAIN").is_ok_and(|v| v == "off") {
        return Err("turned off by RUCKUS_KEYCHAIN=off".to_owned());
    }
    keyring::Entry::new(KEYCHAIN_SERVICE, profile).map_err(|e| e.to_string())
}

/// Stores the secret of `profile`: in the keychain, else in the secrets file (0600). Returns
/// where, and why not the keychain.
pub fn store_secret(profile: &str, secret: &str) -> Result<(SecretPlace, Option<String>), Failure> {
    let why = match keychain_entry(profile)
        .and_then(|e| e.set_password(secret).map_err(|e| e.to_string()))
    {
        Ok(()) => return Ok((SecretPlace::Keychain, None)),
        Err(why) => why,
    };
    let path = secrets_path();
    let mut file: SecretsFile = read_yaml(&path)?;
    file.secrets.insert(profile.to_owned(), secret.to_owned());
    let text = serde_yaml::to_string(&file).map_err(|e| Failure::other(e.to_string()))?;
    write_private(&path, &text)?;
    Ok((SecretPlace::File, Some(why)))
}

/// The stored secret of `profile` and where it was.
pub fn secret(profile: &str) -> Result<Option<(String, SecretPlace)>, Failure> {
    if let Ok(entry) = keychain_entry(profile)
        && let Ok(s) = entry.get_password()
    {
        return Ok(Some((s, SecretPlace::Keychain)));
    }
    let file: SecretsFile = read_yaml(&secrets_path())?;
    Ok(file
        .secrets
        .get(profile)
        .map(|s| (s.clone(), SecretPlace::File)))
}

/// Removes the secret of `profile` from the keychain and the file; whether one was there.
pub fn remove_secret(profile: &str) -> Result<bool, Failure> {
    let mut removed = keychain_entry(profile).is_ok_and(|e| e.delete_credential().is_ok());
    let path = secrets_path();
    let mut file: SecretsFile = read_yaml(&path)?;
    if file.secrets.remove(profile).is_some() {
        removed = true;
        let text = serde_yaml::to_string(&file).map_err(|e| Failure::other(e.to_string()))?;
        write_private(&path, &text)?;
    }
    Ok(removed)
}
