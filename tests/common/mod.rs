//! Shared by the integration tests that read `../shared/corpus/`.

use std::path::{Path, PathBuf};

/// The corpus of real GC logs beside the project. In CI (`CI=true`) a missing corpus fails the
/// test; elsewhere the test is skipped with a message.
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
