//! Files out: each written whole under its name or not at all (a full disk, a failed
//! drawing), through a hidden temporary file beside it that is renamed into place.

use std::path::{Path, PathBuf};

/// The temporary file `path` is written through: hidden, beside it, this process's.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// `bytes` written to `path`, whole or not at all.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let tmp = temporary(path);
    let done = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}

/// Whether a file can be written at `path` (its folder exists and takes files), found
/// without touching `path` itself.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let tmp = temporary(path);
    std::fs::File::create(&tmp)?;
    std::fs::remove_file(&tmp)
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
