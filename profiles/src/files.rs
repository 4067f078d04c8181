//! The store's YAML files: read within bounds (a missing file is empty), written whole or not
//! at all, readable by the owner only.
//!
//! A read refuses what is not a regular file (a FIFO would block it), a file over
//! [`MAX_BYTES`] or nested deeper than [`MAX_DEPTH`], and a file or directory another user
//! could have changed (`guard.rs`). A write goes to a temporary file in the same directory
//! (0600), synced, then renamed over the old file: a reader sees the old file or the new one,
//! and a writer killed on the way leaves the old one (and a stray `.<name>.*.tmp`).

use std::io::{Read, Write};
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{Error, guard};

/// Largest file read: the store's files hold a few lines per profile.
pub(crate) const MAX_BYTES: u64 = 1024 * 1024;

/// Deepest nesting read: the store's files nest three levels.
pub(crate) const MAX_DEPTH: usize = 16;

fn malformed(path: &Path, problem: impl Into<String>) -> Error {
    Error::Malformed {
        path: path.to_owned(),
        problem: problem.into(),
    }
}

/// The text of the file at `path` within the bounds, or `None` when there is none.
fn read_bounded(path: &Path) -> Result<Option<String>, Error> {
    let io = |source| Error::Io {
        path: path.to_owned(),
        source,
    };
    if let Some(dir) = path.parent() {
        if !guard::check_dir(dir)? {
            return Ok(None);
        }
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Opening a FIFO for reading waits for a writer: not with this flag.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        rustix::fs::OFlags::NONBLOCK.bits() as i32,
    );
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(malformed(path, "not a regular file"));
    }
    guard::check(path, &meta)?;
    if meta.len() > MAX_BYTES {
        return Err(malformed(path, format!("larger than {MAX_BYTES} bytes")));
    }
    let mut text = String::new();
    file.take(MAX_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    if text.len() as u64 > MAX_BYTES {
        return Err(malformed(path, format!("larger than {MAX_BYTES} bytes")));
    }
    if crate::depth::deepest(&text) > MAX_DEPTH {
        return Err(malformed(
            path,
            format!("nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    Ok(Some(text))
}

/// The file at `path`, or the default when there is none.
pub(crate) fn read_yaml<T: DeserializeOwned + Default>(path: &Path) -> Result<T, Error> {
    match read_bounded(path)? {
        Some(text) => serde_yaml::from_str(&text).map_err(|e| malformed(path, e.to_string())),
        None => Ok(T::default()),
    }
}

/// As [`read_yaml`], for a file that holds secrets: a parse error says where, never what it read
/// (serde_yaml's messages can quote the offending value).
pub(crate) fn read_secret_yaml<T: DeserializeOwned + Default>(path: &Path) -> Result<T, Error> {
    let Some(text) = read_bounded(path)? else {
        return Ok(T::default());
    };
    serde_yaml::from_str(&text).map_err(|e| {
        let at = e
            .location()
            .map(|l| format!(" (line {}, column {})", l.line(), l.column()))
            .unwrap_or_default();
        malformed(
            path,
            format!("not a secrets file of the expected shape{at}"),
        )
    })
}

/// Writes `value` to `path` as YAML, readable by its owner only, whole or not at all. The
/// caller holds the store's lock (`guard::lock`), which made the directory.
pub(crate) fn write_yaml<T: Serialize>(path: &Path, value: &T) -> Result<(), Error> {
    let text = serde_yaml::to_string(value).map_err(|e| malformed(path, e.to_string()))?;
    write_atomic(path, text.as_bytes()).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    // 0600 from creation on Unix (tempfile's default), whatever the umask.
    let mut file = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    // The rename itself survives a crash once the directory is synced.
    #[cfg(unix)]
    std::fs::File::open(dir)?.sync_all()?;
    Ok(())
}
