//! Records → polars DataFrames. Every schema lives here, so that analyses, exports and charts
//! agree on column names and types.

use crate::model::GcLog;
use polars::prelude::*;

/// Columns of the GC event frame, one row per record (pause, collection, concurrent phase,
/// safepoint).
pub mod gc {
    /// "pause" | "collection" | "concurrent" | "safepoint"
    pub const RECORD: &str = "record";
    /// "young" | "mixed" | "old" | "full" | "initial-mark" | "remark" | "cleanup" | "other"
    pub const KIND: &str = "kind";
    pub const COLLECTOR: &str = "collector";
    pub const CAUSE: &str = "cause";
    pub const NAME: &str = "name";
    /// Start, seconds since JVM start (null where the log has no uptime stamps).
    pub const START_S: &str = "start_s";
    /// Start, wall clock, milliseconds since the epoch (null where the log has no date stamps).
    pub const WALL_MS: &str = "wall_ms";
    /// The event's time on one axis: `start_s` where the log has it, else wall-clock seconds
    /// relative to the first event.
    pub const T_S: &str = "t_s";
    pub const DURATION_MS: &str = "duration_ms";
    pub const HEAP_BEFORE_KB: &str = "heap_before_kb";
    pub const HEAP_AFTER_KB: &str = "heap_after_kb";
    pub const HEAP_TOTAL_KB: &str = "heap_total_kb";
    pub const GC_ID: &str = "gc_id";
    pub const IN_COLLECTION: &str = "in_collection";
    pub const LINE: &str = "line";
}

/// One row per event of the log.
pub fn gc_frame(log: &GcLog) -> PolarsResult<DataFrame> {
    let ev = &log.events;
    let n = ev.len();
    let s = |i: u32| log.strings.get(i);
    let have_uptime = ev.iter().any(|e| e.uptime_s.is_some());
    let wall0 = ev.iter().filter_map(|e| e.wall_ms).min();
    let t: Vec<Option<f64>> = ev
        .iter()
        .map(|e| {
            if have_uptime {
                e.uptime_s
            } else {
                match (e.wall_ms, wall0) {
                    (Some(w), Some(w0)) => Some((w - w0) as f64 / 1000.0),
                    _ => None,
                }
            }
        })
        .collect();
    DataFrame::new(
        n,
        vec![
            Column::new(
                gc::RECORD.into(),
                ev.iter().map(|e| e.record.as_str()).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::KIND.into(),
                ev.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::COLLECTOR.into(),
                ev.iter().map(|e| s(e.collector)).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::CAUSE.into(),
                ev.iter().map(|e| s(e.cause)).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::NAME.into(),
                ev.iter().map(|e| s(e.name)).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::START_S.into(),
                ev.iter().map(|e| e.uptime_s).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::WALL_MS.into(),
                ev.iter().map(|e| e.wall_ms).collect::<Vec<_>>(),
            ),
            Column::new(gc::T_S.into(), t),
            Column::new(
                gc::DURATION_MS.into(),
                ev.iter().map(|e| e.duration_ms).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::HEAP_BEFORE_KB.into(),
                ev.iter().map(|e| e.heap_before_kb).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::HEAP_AFTER_KB.into(),
                ev.iter().map(|e| e.heap_after_kb).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::HEAP_TOTAL_KB.into(),
                ev.iter().map(|e| e.heap_total_kb).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::GC_ID.into(),
                ev.iter().map(|e| e.gc_id).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::IN_COLLECTION.into(),
                ev.iter().map(|e| e.in_collection).collect::<Vec<_>>(),
            ),
            Column::new(
                gc::LINE.into(),
                ev.iter().map(|e| e.line).collect::<Vec<_>>(),
            ),
        ],
    )
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
    pub const DB_CALLS: &str = "db_calls";
    pub const OPERATION: &str = "operation";
    pub const OK: &str = "ok";
    pub const INCONSISTENT: &str = "inconsistent";
    pub const LINE: &str = "line";
}

/// One row per record of a performance log.
pub fn perf_frame(log: &crate::model::PerfLog) -> PolarsResult<DataFrame> {
    let r = &log.records;
    DataFrame::new(
        r.len(),
        vec![
            Column::new(
                perf::END_MS.into(),
                r.iter().map(|e| e.end_ms).collect::<Vec<_>>(),
            ),
            Column::new(
                perf::TOTAL_MS.into(),
                r.iter().map(|e| e.total_ms).collect::<Vec<_>>(),
            ),
            Column::new(
                perf::JAVA_MS.into(),
                r.iter().map(|e| e.java_ms).collect::<Vec<_>>(),
            ),
            Column::new(
                perf::DB_MS.into(),
                r.iter().map(|e| e.db_ms).collect::<Vec<_>>(),
            ),
            Column::new(
                perf::DB_CALLS.into(),
                r.iter().map(|e| e.db_calls).collect::<Vec<_>>(),
            ),
            Column::new(
                perf::OPERATION.into(),
                r.iter()
                    .map(|e| log.strings.get(e.operation))
                    .collect::<Vec<_>>(),
            ),
            Column::new(perf::OK.into(), r.iter().map(|e| e.ok).collect::<Vec<_>>()),
            Column::new(
                perf::INCONSISTENT.into(),
                r.iter().map(|e| e.inconsistent).collect::<Vec<_>>(),
            ),
            Column::new(
                perf::LINE.into(),
                r.iter().map(|e| e.line).collect::<Vec<_>>(),
            ),
        ],
    )
}
