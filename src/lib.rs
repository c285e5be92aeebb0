//! gcperf: JVM garbage-collection logs and application performance logs into numbers, tables
//! and charts.
//!
//! Data flows one way: `input` (files, gzip, detection) → `parse` (one parser per log family,
//! typed records in `model`) → `columns` (the rows' builders) → `frame` (polars DataFrames) →
//! `analyze` (polars lazy queries) →
//! `report` (tables, CSV, JSON). `cli` defines the command line; `commands` runs each command
//! through them.

pub mod analyze;
pub mod cli;
pub mod columns;
pub mod commands;
pub mod error;
pub mod frame;
pub mod input;
pub mod load;
pub mod model;
pub mod output;
pub mod parse;
pub mod render;
pub mod report;

/// Every GC fixture (`fixtures/<family>/` of every registered family), parsed in one piece,
/// with its path and frame.
#[cfg(test)]
pub(crate) fn gc_fixture_logs() -> Vec<(std::path::PathBuf, model::GcLog, frame::GcFrame)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    for &fam in parse::family::GC_FAMILIES {
        for e in std::fs::read_dir(dir.join(fam.as_str())).unwrap() {
            let path = e.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let Some(input::Detected::Gc(format)) = input::detect(&bytes) else {
                continue;
            };
            let log = parse::parse_one(format, &bytes);
            let f = columns::gc_frame(format, &log).unwrap();
            out.push((path, log, f));
        }
    }
    out
}

/// Tests' generated inputs: xorshift64, `next(m)` a number below `m` (`m` > 0), the same
/// sequence for the same seed.
#[cfg(test)]
pub(crate) fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut x = seed.max(1);
    move |m| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    }
}
