//! Where the store is: its directory and whether the OS keychain is used.

use std::path::{Path, PathBuf};

/// The profile store: a config directory and, unless turned off, the OS keychain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    dir: PathBuf,
    keychain: bool,
}

impl Store {
    /// The store the environment names: the directory `RUCKUS_CONFIG_DIR`, else
    /// `$XDG_CONFIG_HOME/ruckus`, else `~/.config/ruckus`; the keychain unless
    /// `RUCKUS_KEYCHAIN=off`.
    pub fn from_env() -> Store {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let dir = match (var("RUCKUS_CONFIG_DIR"), var("XDG_CONFIG_HOME")) {
            (Some(dir), _) => PathBuf::from(dir),
            (None, Some(config)) => PathBuf::from(config).join("ruckus"),
            (None, None) => {
                let home = var("HOME").or_else(|| var("USERPROFILE"));
                PathBuf::from(home.unwrap_or_default())
                    .join(".config")
                    .join("ruckus")
            }
        };
        let keychain = std::env::var("RUCKUS_KEYCHAIN").map_or(true, |v| v != "off");
        Store { dir, keychain }
    }

    /// A store in `dir`, using the keychain.
    pub fn at(dir: impl Into<PathBuf>) -> Store {
        Store {
            dir: dir.into(),
            keychain: true,
        }
    }

    /// The same store with secrets kept in its file only.
    pub fn without_keychain(mut self) -> Store {
        self.keychain = false;
        self
    }

    /// The directory holding `config.yaml` and `credentials.yaml` (not created until a write).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The profiles file, `config.yaml`.
    pub fn config_path(&self) -> PathBuf {
        self.dir.join("config.yaml")
    }

    /// The secrets file used where there is no keychain, `credentials.yaml`.
    pub fn secrets_path(&self) -> PathBuf {
        self.dir.join("credentials.yaml")
    }

    /// Whether secrets may go to the keychain.
    pub(crate) fn uses_keychain(&self) -> bool {
        self.keychain
    }
}
