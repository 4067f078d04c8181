//! The store's YAML files: read (a missing file is empty) and written readable by the owner only.

use crate::Error;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;

/// The file at `path`, or the default when there is none.
pub(crate) fn read_yaml<T: DeserializeOwned + Default>(path: &Path) -> Result<T, Error> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_yaml::from_str(&text).map_err(|e| Error::Malformed {
            path: path.to_owned(),
            problem: e.to_string(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
        Err(source) => Err(Error::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

/// As [`read_yaml`], for a file that holds secrets: a parse error says where, never what it read
/// (serde_yaml's messages can quote the offending value).
pub(crate) fn read_secret_yaml<T: DeserializeOwned + Default>(path: &Path) -> Result<T, Error> {
    read_yaml(path).map_err(|e| match e {
        Error::Malformed { path, .. } => {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let at = serde_yaml::from_str::<T>(&text)
                .err()
                .and_then(|e| e.location())
                .map(|l| format!(" (line {}, column {})", l.line(), l.column()))
                .unwrap_or_default();
            Error::Malformed {
                path,
                problem: format!("not a secrets file of the expected shape{at}"),
            }
        }
        other => other,
    })
}

/// Writes `value` to `path` as YAML, readable by its owner only (0600 from creation on Unix).
pub(crate) fn write_yaml<T: Serialize>(path: &Path, value: &T) -> Result<(), Error> {
    let text = serde_yaml::to_string(value).map_err(|e| Error::Malformed {
        path: path.to_owned(),
        problem: e.to_string(),
    })?;
    write_private(path, &text).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let mut file = options.open(path)?;
        // A file made before with wider permissions is narrowed too.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        file.write_all(text.as_bytes())
    }
    #[cfg(not(unix))]
    {
        let mut file = options.open(path)?;
        file.write_all(text.as_bytes())
    }
}
