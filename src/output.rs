//! Files out: each written whole under its name or not at all (a full disk, a failed
//! drawing, an interrupt), through a hidden temporary file beside it that is renamed into
//! place; the files of one output (an export's tables) renamed together once all are whole,
//! or none (`Staged`, `commit`). The temporary files being written are known (`Pending`), so
//! that an interrupted run removes them (`remove_on_signal`).

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

/// A file written under a temporary name, moved into place with the other files of its set
/// once all are whole (`commit`); dropped before that, its temporary file is removed.
#[derive(Debug)]
pub struct Staged {
    tmp: Pending,
    path: PathBuf,
    committed: bool,
}

impl Staged {
    /// A file to become `path`, written through the temporary file `tmp()` (`Pending::beside`).
    pub fn new(path: &Path) -> Staged {
        Staged {
            tmp: Pending::beside(path),
            path: path.to_path_buf(),
            committed: false,
        }
    }
    /// The temporary file to write.
    pub fn tmp(&self) -> &Path {
        self.tmp.path()
    }
    /// The name it is to have.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(self.tmp.path());
        }
    }
}

/// Files that form one output (an export's tables) moved into place all, or none: where one
/// cannot be, those moved before it are taken back (a file they replaced put back, else the new
/// one removed) and every temporary file is removed. The error names the file that could not
/// be put in place.
pub fn commit(files: Vec<Staged>) -> std::io::Result<()> {
    // Each file moved so far, and the link that keeps the file it replaced.
    let mut moved: Vec<(&Staged, Option<PathBuf>)> = Vec::new();
    let mut failed = None;
    for f in &files {
        // The file replaced kept under a second name until every file is in place (a hard
        // link: the name never goes missing). Where links cannot be made the new file is
        // still moved, and taking it back removes it.
        let old = f.path.is_file().then(|| {
            let name = f.path.file_name().unwrap_or_default().to_string_lossy();
            f.path
                .with_file_name(format!(".{name}.{}.old", std::process::id()))
        });
        let old = old.filter(|o| std::fs::hard_link(&f.path, o).is_ok());
        match std::fs::rename(f.tmp.path(), &f.path) {
            Ok(()) => moved.push((f, old)),
            Err(e) => {
                if let Some(o) = old {
                    let _ = std::fs::remove_file(o);
                }
                failed = Some(std::io::Error::new(
                    e.kind(),
                    format!("cannot write {}: {e}", f.path.display()),
                ));
                break;
            }
        }
    }
    let Some(e) = failed else {
        for (_, old) in moved {
            if let Some(o) = old {
                let _ = std::fs::remove_file(o);
            }
        }
        files.into_iter().for_each(|mut f| f.committed = true);
        return Ok(());
    };
    for (f, old) in moved.into_iter().rev() {
        match old {
            Some(o) => drop(std::fs::rename(o, &f.path)),
            None => drop(std::fs::remove_file(&f.path)),
        }
    }
    Err(e)
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

    /// A set of files goes in whole or not at all: the second cannot be put in place (a
    /// folder holds its name), so the first, which replaced a file, is taken back and the old
    /// file is there again; no temporary file stays. A set that can goes in whole.
    #[test]
    fn committed_all_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.parquet"), dir.path().join("b.parquet"));
        std::fs::write(&a, "old").unwrap();
        std::fs::create_dir(&b).unwrap();
        let staged = [&a, &b].map(|p| {
            let s = Staged::new(p);
            std::fs::write(s.tmp(), "new").unwrap();
            s
        });
        let e = commit(staged.into()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("cannot write {}: ", b.display())),
            "{e}"
        );
        assert_eq!(std::fs::read(&a).unwrap(), b"old");
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["a.parquet", "b.parquet"]);
        std::fs::remove_dir(&b).unwrap();
        let staged = [&a, &b].map(|p| {
            let s = Staged::new(p);
            std::fs::write(s.tmp(), "new").unwrap();
            s
        });
        commit(staged.into()).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"new");
        assert_eq!(std::fs::read(&b).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
