//! Standard output of every command, written in one place: `--out FILE` sends it to a temporary
//! file beside FILE that takes FILE's place only when the command succeeds (a failed command
//! leaves FILE as it was), and a reader that went away (`ruckus schema | head -1`) is noted so
//! that the command ends quietly with the status a closed pipe conventionally gives.

use crate::exit::{Exit, Failure};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

/// `--out`: the temporary file being written and the file it will replace.
struct Pending {
    file: tempfile::NamedTempFile,
    target: PathBuf,
}

static FILE: Mutex<Option<Pending>> = Mutex::new(None);
/// Standard output was closed by its reader.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Where a command's output goes: standard output, or the `--out` file.
pub(crate) struct Out;

/// The output of the command (cheap: take one for each write).
pub(crate) fn stdout() -> Out {
    Out
}

/// Whether the output goes to a file rather than standard output.
pub(crate) fn to_file() -> bool {
    FILE.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .is_some()
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        noted(with_sink(|w| w.write(buf)))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        noted(with_sink(|w| w.write_all(buf)))
    }

    fn flush(&mut self) -> io::Result<()> {
        noted(with_sink(|w| w.flush()))
    }
}

fn with_sink<T>(f: impl FnOnce(&mut dyn Write) -> io::Result<T>) -> io::Result<T> {
    let mut file = FILE.lock().unwrap_or_else(PoisonError::into_inner);
    match file.as_mut() {
        Some(p) => f(p.file.as_file_mut()),
        None => f(&mut io::stdout().lock()),
    }
}

/// Notes a closed standard output in passing.
fn noted<T>(result: io::Result<T>) -> io::Result<T> {
    if let Err(e) = &result
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        CLOSED.store(true, Ordering::Relaxed);
    }
    result
}

/// Whether standard output's reader went away during the command.
pub(crate) fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// `--out FILE`: output goes to a temporary file in FILE's directory from now on.
pub(crate) fn into_file(target: &str) -> Result<(), Failure> {
    let target = PathBuf::from(target);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file = tempfile::Builder::new()
        .prefix(".ruckus-out-")
        .tempfile_in(&dir)
        .map_err(|e| Failure::usage(format!("--out {}: {e}", target.display())))?;
    *FILE.lock().unwrap_or_else(PoisonError::into_inner) = Some(Pending { file, target });
    Ok(())
}

/// The command succeeded: the `--out` file, written and synced, takes its name.
pub(crate) fn commit() -> Result<(), Failure> {
    let pending = FILE.lock().unwrap_or_else(PoisonError::into_inner).take();
    let Some(Pending { mut file, target }) = pending else {
        return Ok(());
    };
    let failed = |e: &dyn std::fmt::Display| {
        Failure::new(Exit::Other, format!("--out {}: {e}", target.display()))
    };
    file.flush().map_err(|e| failed(&e))?;
    file.as_file().sync_all().map_err(|e| failed(&e))?;
    file.persist(&target).map_err(|e| failed(&e.error))?;
    Ok(())
}

/// The command failed: the temporary `--out` file goes, the file it would replace stays.
pub(crate) fn discard() {
    drop(FILE.lock().unwrap_or_else(PoisonError::into_inner).take());
}

/// Writes `text` and a new line.
pub(crate) fn line(text: impl std::fmt::Display) -> Result<(), Failure> {
    writeln!(stdout(), "{text}").map_err(crate::call::io)
}
