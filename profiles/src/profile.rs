//! Named profiles in `config.yaml`.

use crate::files::{read_yaml, write_yaml};
use crate::{Error, Store, guard};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One named profile: who the application token is and where it calls. Holds no secret.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[non_exhaustive]
pub struct Profile {
    /// The application's OAuth 2.0 client id; its secret is kept apart (keychain or
    /// `credentials.yaml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The tenant that owns the application token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_tenant: Option<String>,
    /// `na`, `eu` or `asia`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The delegated tenant to act for by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant: Option<String>,
    /// Overrides the region's host (a proxy, a simulator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct ConfigFile {
    #[serde(default)]
    profiles: BTreeMap<String, Profile>,
}

impl Store {
    /// The profile called `name`, if stored.
    pub fn profile(&self, name: &str) -> Result<Option<Profile>, Error> {
        let file: ConfigFile = read_yaml(&self.config_path())?;
        Ok(file.profiles.get(name).cloned())
    }

    /// Stores `profile` as `name`, replacing one of that name.
    pub fn save_profile(&self, name: &str, profile: &Profile) -> Result<(), Error> {
        let _lock = guard::lock(self.dir())?;
        let path = self.config_path();
        let mut file: ConfigFile = read_yaml(&path)?;
        file.profiles.insert(name.to_owned(), profile.clone());
        write_yaml(&path, &file)
    }

    /// Removes the profile called `name`; whether there was one.
    pub fn remove_profile(&self, name: &str) -> Result<bool, Error> {
        let _lock = guard::lock(self.dir())?;
        let path = self.config_path();
        let mut file: ConfigFile = read_yaml(&path)?;
        let had = file.profiles.remove(name).is_some();
        if had {
            write_yaml(&path, &file)?;
        }
        Ok(had)
    }
}
