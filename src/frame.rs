//! The frames analyses read: a GC log's and a performance log's records as polars DataFrames
//! (built by `columns`). Every schema lives here, so that analyses, exports and charts agree
//! on column names and types.

use crate::model::{Kind, Record};
use polars::prelude::*;

/// Columns of the GC event frame, one row per record (pause, collection, concurrent phase,
/// safepoint). Names are not stored per row: `record` and `kind` are codes, `collector`,
/// `cause` and `name` ids into `GcFrame::strings`, so a row is a few dozen bytes.
pub mod gc {
    /// `Record::code()` (Int8: polars' UInt8 is a build feature this crate does not enable;
    /// the codes are 0..=5): 0 pause, 1 collection, 2 concurrent, 3 safepoint, 4 stall,
    /// 5 nested.
    pub const RECORD: &str = "record";
    /// `Kind::code()` (Int8, 0..=7): young, mixed, old, full, initial-mark, remark, cleanup,
    /// other.
    pub const KIND: &str = "kind";
    /// Id into `GcFrame::strings` (0 = the log does not say): Int8 while the log's ids are
    /// below 128, else UInt32; read it cast to UInt32.
    pub const COLLECTOR: &str = "collector";
    /// As `COLLECTOR`.
    pub const CAUSE: &str = "cause";
    /// As `COLLECTOR`.
    pub const NAME: &str = "name";
    /// Start, seconds since JVM start (null where the log has no uptime stamps).
    pub const START_S: &str = "start_s";
    /// Start, wall clock, milliseconds since the epoch (null where the log has no date stamps).
    pub const WALL_MS: &str = "wall_ms";
    /// The event's time on one axis: `start_s` where the log has it (after a JVM restart, the
    /// runs laid end to end: a later run's uptime plus the earlier runs' last ends), else
    /// wall-clock seconds relative to the first event.
    pub const T_S: &str = "t_s";
    /// Which JVM run the event belongs to (u32, 0 first): a run starts where the uptime goes
    /// back, the JVM having restarted within one file or between rotated parts.
    pub const RUN: &str = "run";
    pub const DURATION_MS: &str = "duration_ms";
    /// A safepoint's time to safepoint, ms, part of its `duration_ms` (`GcEvent::ttsp_ms`);
    /// null for other records and where the log does not say.
    pub const TTSP_MS: &str = "ttsp_ms";
    pub const HEAP_BEFORE_KB: &str = "heap_before_kb";
    pub const HEAP_AFTER_KB: &str = "heap_after_kb";
    pub const HEAP_TOTAL_KB: &str = "heap_total_kb";
    /// Young-generation occupancy before / after, K (null where the log has no young figures).
    pub const YOUNG_BEFORE_KB: &str = "young_before_kb";
    pub const YOUNG_AFTER_KB: &str = "young_after_kb";
    /// K promoted as the log states it (JRockit R28), null elsewhere.
    pub const PROMOTED_KB: &str = "promoted_kb";
    /// `model::FLAG_*` bits (Int8; a scalar 0 when no row has any).
    pub const FLAGS: &str = "flags";
    /// The collection's number where the log has one; where it has none, the number the
    /// JRockit parser gave a collection with itemised pauses (their link to it); else null.
    pub const GC_ID: &str = "gc_id";
    pub const IN_COLLECTION: &str = "in_collection";
    /// 1-based line (u32, capped at u32::MAX as `perf::LINE`).
    pub const LINE: &str = "line";
}

/// A GC log's records as a frame, with the strings its id columns point into.
#[derive(Debug, Clone, Default)]
pub struct GcFrame {
    pub df: DataFrame,
    /// By id; `strings[0]` is `""`, "none".
    pub strings: Vec<String>,
}

impl GcFrame {
    /// The string of an id of the `collector`, `cause` or `name` column (`""` for none, or
    /// for an id the frame does not have).
    pub fn string(&self, id: u32) -> &str {
        self.strings
            .get(id as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    pub fn height(&self) -> usize {
        self.df.height()
    }

    /// Column `name` of `df` (this frame, or a slice or filter of it) as text: `record` and
    /// `kind` codes as their names, `collector`, `cause` and `name` ids as their strings, and
    /// none (`""`) as null.
    pub fn decoded(&self, df: &DataFrame, name: &str) -> PolarsResult<StringChunked> {
        let table: StringChunked = match name {
            gc::RECORD => names(name, Record::ALL.iter().map(|r| r.as_str())),
            gc::KIND => names(name, Kind::ALL.iter().map(|k| k.as_str())),
            gc::COLLECTOR | gc::CAUSE | gc::NAME => {
                names(name, self.strings.iter().map(String::as_str))
            }
            _ => polars_bail!(ColumnNotFound: "{name} is not a code or id column"),
        };
        // Cast first: the codes are Int8, and a scalar column is materialised in the copy.
        let idx = df.column(name)?.cast(&DataType::UInt32)?;
        let mut out = table.take(idx.u32()?)?;
        out.rename(name.into());
        Ok(out)
    }
}

/// A lookup column for `take`: each name, `""` as null.
fn names<'a>(name: &str, it: impl Iterator<Item = &'a str>) -> StringChunked {
    StringChunked::from_iter_options(name.into(), it.map(|s| (!s.is_empty()).then_some(s)))
}

/// Columns of the performance frame, one row per request / operation.
pub mod perf {
    /// When the operation ended, milliseconds since the epoch (local time taken as UTC for
    /// logs that write local dates).
    pub const END_MS: &str = "end_ms";
    pub const TOTAL_MS: &str = "total_ms";
    /// Null where the source has no Java/DB split (JMeter, The Grinder).
    pub const JAVA_MS: &str = "java_ms";
    pub const DB_MS: &str = "db_ms";
    /// u64: summed as stored (polars sums a u32 column as u32, and a cast would copy it).
    pub const DB_CALLS: &str = "db_calls";
    /// Index into `PerfFrame::operations` (u32): names are few and rows many, so the frame
    /// holds 4 bytes per row instead of a string.
    pub const OPERATION_ID: &str = "operation_id";
    pub const OK: &str = "ok";
    pub const INCONSISTENT: &str = "inconsistent";
    /// 1-based line number (u32: a log of 4G lines could not be held as a frame anyway; larger
    /// numbers are capped at u32::MAX rather than wrapped).
    pub const LINE: &str = "line";
    /// A failed request's message (u32, null for the others): an index into
    /// `PerfFrame::operations`, which holds the log's messages beside its operation names.
    pub const ERROR_ID: &str = "error_id";
}

/// A performance log's records as a frame, with the operation names the frame's
/// `operation_id` column points into.
#[derive(Debug, Clone)]
pub struct PerfFrame {
    pub df: DataFrame,
    pub operations: Vec<String>,
}

impl PerfFrame {
    pub fn operation(&self, id: u32) -> &str {
        self.operations
            .get(id as usize)
            .map(String::as_str)
            .unwrap_or("")
    }
}
