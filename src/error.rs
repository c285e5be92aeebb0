//! Library errors. The CLI adds context with anyhow; each message names the file, with control
//! characters escaped (a file name or log line must not drive the terminal).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", shown(path))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: no GC or performance records found", shown(path))]
    NothingRecognised { path: PathBuf },
    /// Compressed data damaged or cut short before any record could be read: the damage is
    /// the reason, not "nothing found" alone.
    #[error(
        "{}: no GC or performance records found: {}",
        shown(path),
        escape(damage)
    )]
    CutBeforeRecords { path: PathBuf, damage: String },
    /// A file with no line of a supported log in its head: the rest is not read.
    #[error(
        "{}: no GC or performance records found in its first {mib} MiB: not read further",
        shown(path)
    )]
    NothingInHead { path: PathBuf, mib: usize },
    /// A log of a known family whose every record line was skipped: says how many and the
    /// first, so that "nothing found" is never a riddle.
    #[error(
        "{}: no GC or performance records found: {skipped} of {lines} lines not understood (line {first_line}: {})",
        shown(path),
        escape(first)
    )]
    AllSkipped {
        path: PathBuf,
        skipped: u64,
        lines: u64,
        first_line: u64,
        first: String,
    },
    #[error("{}: analysis failed: {source}", shown(path))]
    Polars {
        path: PathBuf,
        #[source]
        source: polars::error::PolarsError,
    },
    /// A FIFO, socket or device: never opened (a FIFO would wait for a writer forever).
    #[error("{}: {kind}, not a regular file: skipped", shown(path))]
    NotRegular { path: PathBuf, kind: &'static str },
    /// A compression or archive format gcperf does not read (`xz-compressed`, `a 7z archive`),
    /// or a known file that holds no log gcperf reads (a load tool's statistics).
    #[error("{}: {what}: not supported; {hint}", shown(path))]
    Unsupported {
        path: PathBuf,
        what: &'static str,
        hint: &'static str,
    },
    /// An access log whose lines do not say the request's time, or not its unit: read only
    /// with `--log-format`.
    #[error("{}: {what}", shown(path))]
    NeedsLogFormat { path: PathBuf, what: &'static str },
    /// A GC log of a known family with no record gcperf counts, only records it leaves
    /// out by design (`model::META_UNCOUNTED` says which).
    #[error("{}: no pauses read: {}", shown(path), escape(what))]
    Uncounted { path: PathBuf, what: String },
    /// A zip archive or member that cannot be read.
    #[error("{}: {}", shown(path), escape(message))]
    Archive { path: PathBuf, message: String },
    #[error("{}", escape(.0))]
    Usage(String),
    /// Something of gcperf's own failed (a thread of it stopped): a bug, said as one.
    #[error("{}: {what} (a bug in gcperf)", shown(path))]
    Internal { path: PathBuf, what: String },
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// `map_err(Error::io(path))`: an I/O error reading `path`.
    pub fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + Copy + '_ {
        move |source| Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// `map_err(Error::polars(path))`: an analysis of `path`'s records failed.
    pub fn polars(path: &Path) -> impl Fn(polars::error::PolarsError) -> Error + Copy + '_ {
        move |source| Error::Polars {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The file the error is about (none: a usage error).
    pub fn path(&self) -> Option<&Path> {
        match self {
            Error::Io { path, .. }
            | Error::NothingRecognised { path }
            | Error::CutBeforeRecords { path, .. }
            | Error::NothingInHead { path, .. }
            | Error::AllSkipped { path, .. }
            | Error::Polars { path, .. }
            | Error::NotRegular { path, .. }
            | Error::Unsupported { path, .. }
            | Error::NeedsLogFormat { path, .. }
            | Error::Uncounted { path, .. }
            | Error::Archive { path, .. }
            | Error::Internal { path, .. } => Some(path),
            Error::Usage(_) => None,
        }
    }

    /// Nothing found in `path`: with what was skipped, when lines were.
    pub fn nothing_in(
        path: &Path,
        skipped: u64,
        lines: u64,
        bad: &[crate::model::BadLine],
    ) -> Self {
        match bad.first() {
            Some(b) if skipped > 0 => {
                // A line's first 80 characters say enough of it here.
                let mut first: String = b.text.chars().take(80).collect();
                if first.len() < b.text.len() {
                    first.push('…');
                }
                Error::AllSkipped {
                    path: path.to_path_buf(),
                    skipped,
                    lines,
                    first_line: b.line,
                    first,
                }
            }
            _ => Error::NothingRecognised {
                path: path.to_path_buf(),
            },
        }
    }
}

/// `s` safe to print on a terminal: control characters shown as escapes (`\x1b`, `\0`, `\r`,
/// `\t`, `\n`, `\x7f`, `\u{9b}`), and the invisible bidirectional-text controls too; all other
/// text, non-ASCII included, as it is.
pub fn escape(s: &str) -> Cow<'_, str> {
    let needs = |c: char| c.is_control() || is_bidi_control(c);
    if !s.chars().any(needs) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\t' | '\r' | '\n' => out.extend(c.escape_default()),
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if needs(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// How an error names its input: standard input by `--stdin-name` where given
/// (`load::name_of`), any other path escaped.
fn shown(p: &Path) -> String {
    crate::load::name_of(p)
}

/// A path as `escape` prints text (not UTF-8: lossily).
pub fn escape_path(p: &Path) -> String {
    escape(&p.to_string_lossy()).into_owned()
}

/// Characters that reorder the text shown around them (`U+202E` makes `gol.exe` read `exe.log`).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_other_text_kept() {
        assert_eq!(
            escape("\x1b[31mred\x1b[0m\0\r\t\n\x7f"),
            "\\x1b[31mred\\x1b[0m\\0\\r\\t\\n\\x7f"
        );
        // C1 controls (U+009B is an 8-bit CSI) and a right-to-left override.
        assert_eq!(escape("a\u{9b}b\u{202e}c"), "a\\u{9b}b\\u{202e}c");
        // Valid non-ASCII UTF-8 stays.
        assert_eq!(escape("Müller – 東京 ✓"), "Müller – 東京 ✓");
        assert!(matches!(escape("plain.log"), Cow::Borrowed(_)));
        let e = Error::NothingRecognised {
            path: PathBuf::from("evil\x1b]0;title\x07.log"),
        };
        assert_eq!(
            e.to_string(),
            "evil\\x1b]0;title\\x07.log: no GC or performance records found"
        );
    }
}
