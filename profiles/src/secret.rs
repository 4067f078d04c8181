//! Client secrets: in the OS keychain, else in `credentials.yaml` (0600).

use crate::files::{read_secret_yaml as read_yaml, write_yaml};
use crate::keychain::Entry;
use crate::{Error, Store};
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

impl Store {
    fn keychain_entry(&self, profile: &str) -> Result<Entry, String> {
        if !self.uses_keychain() {
            return Err("turned off by RUCKUS_KEYCHAIN=off".to_owned());
        }
        Entry::new(profile)
    }

    /// Stores the secret of `profile`: in the keychain, else in the secrets file. Returns where,
    /// and why not the keychain when it was not.
    pub fn store_secret(
        &self,
        profile: &str,
        secret: &str,
    ) -> Result<(SecretPlace, Option<String>), Error> {
        let why = match self.keychain_entry(profile).and_then(|e| e.set(secret)) {
            Ok(()) => return Ok((SecretPlace::Keychain, None)),
            Err(why) => why,
        };
        let path = self.secrets_path();
        let mut file: SecretsFile = read_yaml(&path)?;
        file.secrets.insert(profile.to_owned(), secret.to_owned());
        write_yaml(&path, &file)?;
        Ok((SecretPlace::File, Some(why)))
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

    /// Removes the secret of `profile` from the keychain and the file; whether one was there.
    pub fn remove_secret(&self, profile: &str) -> Result<bool, Error> {
        let mut removed = self.keychain_entry(profile).is_ok_and(|e| e.delete());
        let path = self.secrets_path();
        let mut file: SecretsFile = read_yaml(&path)?;
        if file.secrets.remove(profile).is_some() {
            removed = true;
            write_yaml(&path, &file)?;
        }
        Ok(removed)
    }
}
