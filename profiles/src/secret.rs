//! Client secrets: in the OS keychain, else in `credentials.yaml` (0600).

use crate::files::{read_secret_yaml as read_yaml, write_yaml};
use crate::keychain::{Entry, Keychain};
use crate::{Error, Store, guard};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a secret was found or put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretPlace {
    /// The OS keychain, service `ruckus-one-cli`, account the profile's name.
    Keychain,
    /// `credentials.yaml` in the store directory (0600), used when the keychain is off or
    /// fails.
    File,
}

/// `credentials.yaml`. No `Debug`: it holds secrets.
#[derive(Default, Serialize, Deserialize)]
struct SecretsFile {
    #[serde(default)]
    secrets: BTreeMap<String, String>,
}

/// Puts `secret` in `keychain` and reads it back: a keychain that takes a secret and cannot give
/// it back is unavailable, and keeps no copy of it (nor does one that failed half way: Linux's
/// keyring adds the key to the session before it fails to link it to the persistent keyring).
pub(crate) fn put(keychain: &impl Keychain, secret: &str) -> Result<(), String> {
    let problem = match keychain.set(secret) {
        Ok(()) if keychain.get().as_deref() == Some(secret) => return Ok(()),
        Ok(()) => "the secret written could not be read back".to_owned(),
        Err(why) => why,
    };
    remove_every_copy(keychain);
    Err(problem)
}

/// Deletes the keychain's entry until there is none (a few times at most): whether one was.
pub(crate) fn remove_every_copy(keychain: &impl Keychain) -> bool {
    let mut removed = false;
    for _ in 0..4 {
        if !keychain.delete() {
            break;
        }
        removed = true;
    }
    removed
}

impl Store {
    fn keychain_entry(&self, profile: &str) -> Result<Entry, String> {
        if !self.uses_keychain() {
            return Err("turned off by RUCKUS_KEYCHAIN=off".to_owned());
        }
        Entry::new(profile)
    }

    /// Stores the secret of `profile`: in the keychain when it takes it and gives it back, else
    /// in the secrets file (a copy in the other place is removed). Returns where, and why not
    /// the keychain when it was not.
    pub fn store_secret(
        &self,
        profile: &str,
        secret: &str,
    ) -> Result<(SecretPlace, Option<String>), Error> {
        let kept = self.keychain_entry(profile).and_then(|e| put(&e, secret));
        let _lock = guard::lock(self.dir())?;
        let path = self.secrets_path();
        let mut file: SecretsFile = read_yaml(&path)?;
        match kept {
            Ok(()) => {
                if file.secrets.remove(profile).is_some() {
                    write_yaml(&path, &file)?;
                }
                Ok((SecretPlace::Keychain, None))
            }
            Err(why) => {
                file.secrets.insert(profile.to_owned(), secret.to_owned());
                write_yaml(&path, &file)?;
                Ok((SecretPlace::File, Some(why)))
            }
        }
    }

    /// The stored secret of `profile` and where it was: the keychain first, then the file.
    pub fn secret(&self, profile: &str) -> Result<Option<(String, SecretPlace)>, Error> {
        if let Some(secret) = self.keychain_entry(profile).ok().and_then(|e| e.get()) {
            return Ok(Some((secret, SecretPlace::Keychain)));
        }
        let mut file: SecretsFile = read_yaml(&self.secrets_path())?;
        Ok(file
            .secrets
            .remove(profile)
            .map(|secret| (secret, SecretPlace::File)))
    }

    /// Removes every copy of the secret of `profile`, from the keychain and the file; whether
    /// there was one.
    pub fn remove_secret(&self, profile: &str) -> Result<bool, Error> {
        let mut removed = self
            .keychain_entry(profile)
            .is_ok_and(|e| remove_every_copy(&e));
        if !guard::check_dir(self.dir())? {
            return Ok(removed);
        }
        let _lock = guard::lock(self.dir())?;
        let path = self.secrets_path();
        let mut file: SecretsFile = read_yaml(&path)?;
        if file.secrets.remove(profile).is_some() {
            removed = true;
            write_yaml(&path, &file)?;
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A keychain as Linux's keyring behaves when its persistent keyring is out of reach: the
    /// write adds the key, then fails (`fails`); or one that takes the key and gives back
    /// nothing (`forgets`).
    #[derive(Default)]
    struct Keyring {
        keys: RefCell<Vec<String>>,
        fails: bool,
        forgets: bool,
    }

    impl Keychain for Keyring {
        fn set(&self, secret: &str) -> Result<(), String> {
            self.keys.borrow_mut().push(secret.to_owned());
            if self.fails {
                return Err("cannot link to the persistent keyring".to_owned());
            }
            Ok(())
        }

        fn get(&self) -> Option<String> {
            if self.forgets {
                return None;
            }
            self.keys.borrow().last().cloned()
        }

        fn delete(&self) -> bool {
            self.keys.borrow_mut().pop().is_some()
        }
    }

    #[test]
    fn a_secret_read_back_is_kept() {
        let keyring = Keyring::default();
        assert_eq!(put(&keyring, "s3cr3t"), Ok(()));
        assert_eq!(keyring.keys.borrow().len(), 1);
    }

    #[test]
    fn a_failed_write_leaves_no_copy() {
        let keyring = Keyring {
            fails: true,
            ..Keyring::default()
        };
        let why = put(&keyring, "s3cr3t").expect_err("unavailable");
        assert!(why.contains("persistent keyring"), "{why}");
        assert!(!why.contains("s3cr3t"));
        assert!(keyring.keys.borrow().is_empty());
    }

    #[test]
    fn a_secret_not_read_back_is_not_left_there() {
        let keyring = Keyring {
            forgets: true,
            ..Keyring::default()
        };
        let why = put(&keyring, "s3cr3t").expect_err("unavailable");
        assert!(why.contains("could not be read back"), "{why}");
        assert!(keyring.keys.borrow().is_empty());
    }

    #[test]
    fn every_copy_is_removed() {
        let keyring = Keyring::default();
        keyring.set("old").unwrap();
        keyring.set("new").unwrap();
        assert!(remove_every_copy(&keyring));
        assert!(keyring.keys.borrow().is_empty());
        assert!(!remove_every_copy(&keyring));
    }
}
