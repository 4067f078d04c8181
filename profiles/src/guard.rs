//! The store is its user's alone, as ssh requires of its keys: the directory is made 0700 and
//! its files 0600 whatever the umask, and a directory or file that another user can write (or
//! that another user owns) is refused: whoever can replace `config.yaml` can send the client id
//! and secret to a server of their choosing. Writes of the store hold its lock (`.lock` in the
//! directory), so that two at once do not lose one another's changes.

use std::fs::{File, Metadata};
use std::path::Path;

use crate::Error;

/// Name of the lock file in the store's directory.
const LOCK: &str = ".lock";

/// Refuses `path` (whose metadata is `meta`) when another user owns it or may write it.
#[cfg(unix)]
pub(crate) fn check(path: &Path, meta: &Metadata) -> Result<(), Error> {
    use std::os::unix::fs::MetadataExt;
    let user = rustix::process::geteuid().as_raw();
    let problem = if meta.uid() != user {
        format!("is owned by user {}, not by you (user {user})", meta.uid())
    } else if meta.mode() & 0o022 != 0 {
        format!(
            "can be written by other users (mode {:o})",
            meta.mode() & 0o777
        )
    } else {
        return Ok(());
    };
    Err(Error::Unsafe {
        path: path.to_owned(),
        problem,
    })
}

#[cfg(not(unix))]
pub(crate) fn check(_path: &Path, _meta: &Metadata) -> Result<(), Error> {
    Ok(())
}

/// Checks the store's directory if there is one: `false` when there is none.
pub(crate) fn check_dir(dir: &Path) -> Result<bool, Error> {
    match std::fs::metadata(dir) {
        Ok(meta) => check(dir, &meta).map(|()| true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(Error::Io {
            path: dir.to_owned(),
            source,
        }),
    }
}

/// Makes the store's directory (0700, its missing parents too) unless it is there; checks it.
pub(crate) fn make_dir(dir: &Path) -> Result<(), Error> {
    if check_dir(dir)? {
        return Ok(());
    }
    let io = |source| Error::Io {
        path: dir.to_owned(),
        source,
    };
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        builder.mode(0o700);
        builder.create(dir).map_err(io)?;
        // The umask may have taken bits away (never added: the mode asks for no more).
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io)?;
    }
    #[cfg(not(unix))]
    builder.create(dir).map_err(io)?;
    check_dir(dir).map(drop)
}

/// The store's lock, held until the file returned is dropped; the directory is made first.
pub(crate) fn lock(dir: &Path) -> Result<File, Error> {
    make_dir(dir)?;
    let path = dir.join(LOCK);
    let io = |source| Error::Io {
        path: path.clone(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(&path).map_err(io)?;
    check(&path, &file.metadata().map_err(io)?)?;
    fs4::FileExt::lock(&file).map_err(io)?;
    Ok(file)
}
