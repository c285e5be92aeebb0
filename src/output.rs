//! Files out: each written whole under its name or not at all (a full disk, a failed
//! drawing, an interrupt), through a hidden temporary file beside it that is renamed into
//! place. The temporary files being written are known (`Pending`), so that an interrupted
//! run removes them (`remove_on_signal`).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The temporary files being written now.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// `PENDING`, locked: a thread that panicked holding it left the list whole.
fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A temporary file being written: removed if the process is interrupted before the file
/// is renamed into place or removed (and the value dropped).
#[derive(Debug)]
pub struct Pending(PathBuf);

impl Pending {
    /// The temporary file `path` is written through (hidden, beside it, this process's),
    /// known before it is created.
    pub fn beside(path: &Path) -> Pending {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        pending().push(tmp.clone());
        Pending(tmp)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut p = pending();
        if let Some(i) = p.iter().rposition(|t| *t == self.0) {
            p.swap_remove(i);
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove the temporary files being written, then die of the
/// signal as without this (a shell sees 130 for Ctrl-C). A thread waits for the signals;
/// nothing else changes.
pub fn remove_on_signal() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            // Held to the end: no file is registered, or renamed into place, after this.
            let pending = pending();
            pending.iter().map(std::fs::remove_file).for_each(drop);
            let _ = signal_hook::low_level::emulate_default_handler(sig);
            std::process::exit(128 + sig);
        }
    });
}

/// `bytes` written to `path`, whole or not at all.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let tmp = Pending::beside(path);
    std::fs::write(tmp.path(), bytes)
        .and_then(|()| std::fs::rename(tmp.path(), path))
        .inspect_err(|_| drop(std::fs::remove_file(tmp.path())))
}

/// Whether a file can be written at `path` (its folder exists and takes files), found
/// without touching `path` itself.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let tmp = Pending::beside(path);
    std::fs::File::create(tmp.path())?;
    std::fs::remove_file(tmp.path())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that cannot be written whole leaves nothing under its name, and no temporary
    /// file beside it; one that can replaces what was there.
    #[test]
    fn written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.png");
        write(&p, b"one").unwrap();
        write(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let missing = dir.path().join("no/such/dir/b.png");
        assert!(write(&missing, b"x").is_err());
        assert!(check_writable(&missing).is_err());
        check_writable(&dir.path().join("c.png")).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a.png"]);
    }
}
