//! Library errors. The CLI adds context with anyhow; each message names the file.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: no GC or performance records found")]
    NothingRecognised { path: PathBuf },
    #[error("{path}: analysis failed: {source}")]
    Polars {
        path: PathBuf,
        #[source]
        source: polars::error::PolarsError,
    },
    #[error("{0}")]
    Usage(String),
}

pub type Result<T> = std::result::Result<T, Error>;
