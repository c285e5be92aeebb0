//! One input file, read, detected, parsed and framed: what every command starts from.

use crate::error::{Error, Result};
use crate::frame;
use crate::input::{self, Detected};
use crate::model::{GcFormat, GcLog};
use crate::parse;
use polars::prelude::DataFrame;
use std::path::{Path, PathBuf};

pub struct Loaded {
    pub path: PathBuf,
    pub format: GcFormat,
    pub log: GcLog,
    pub frame: DataFrame,
}

impl Loaded {
    pub fn kind(&self) -> &'static str {
        "gc"
    }
}

/// Parse a buffer of a known GC format.
pub fn parse_gc(format: GcFormat, buf: &[u8]) -> GcLog {
    match format {
        GcFormat::Jrockit => parse::jrockit::parse(buf),
        GcFormat::Hotspot => parse::hotspot::parse(buf),
        GcFormat::Unified => parse::unified::parse(buf),
    }
}

/// Read, detect and parse one file. A file that cannot be read, or holds nothing recognisable,
/// is an error naming the file.
pub fn load(path: &Path) -> Result<Loaded> {
    let buf = input::read(path)?;
    load_bytes(path, &buf)
}

pub fn load_bytes(path: &Path, buf: &[u8]) -> Result<Loaded> {
    let nothing = || Error::NothingRecognised {
        path: path.to_path_buf(),
    };
    let Some(Detected::Gc(format)) = input::detect(buf) else {
        return Err(nothing());
    };
    let log = parse_gc(format, buf);
    if log.events.is_empty() {
        return Err(nothing());
    }
    let frame = frame::gc_frame(&log).map_err(|source| Error::Polars {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Loaded {
        path: path.to_path_buf(),
        format,
        log,
        frame,
    })
}
