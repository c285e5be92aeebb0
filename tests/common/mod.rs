//! Shared by the integration tests that read `../shared/corpus/`.

use std::path::{Path, PathBuf};

/// The corpus of real GC logs beside the project. In CI (`CI=true`) a missing corpus fails the
/// test; elsewhere the test is skipped with a message.
#[allow(dead_code)]
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.join("gcviewer-reference.csv").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "corpus missing at {}: CI must have ../shared/corpus",
            dir.display()
        );
    }
    eprintln!("skipping: no corpus at {}", dir.display());
    None
}

/// A family's folders under `root`: `<name>/` and its variants, `<name>-<variant>/` (a GC
/// family's fixtures in `fixtures/`, its logs in the corpus's `gc/`).
#[allow(dead_code)]
pub fn family_dirs(root: &Path, name: &str) -> Vec<PathBuf> {
    let variant = format!("{name}-");
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n == name || n.starts_with(&variant))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A GC log loaded as the commands load it: one input, of a GC family (else the reason).
#[allow(dead_code)]
pub fn load(path: &Path) -> Result<gcperf::load::Loaded, String> {
    match gcperf::load::load_any(path) {
        Ok(gcperf::load::Input::Gc(l)) => Ok(l),
        Ok(_) => Err(format!("{}: not a GC log", path.display())),
        Err(e) => Err(e.to_string()),
    }
}
