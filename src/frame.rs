//! Records → polars DataFrames. Every schema lives here, so that analyses, exports and charts
//! agree on column names and types.

use crate::model::{GcEvent, GcLog};
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
    /// The event's time on one axis: `start_s` where the log has it (after a JVM restart, the
    /// runs laid end to end: a later run's uptime plus the earlier runs' last ends), else
    /// wall-clock seconds relative to the first event.
    pub const T_S: &str = "t_s";
    /// Which JVM run the event belongs to (u32, 0 first): a run starts where the uptime goes
    /// back, the JVM having restarted within one file or between rotated parts.
    pub const RUN: &str = "run";
    pub const DURATION_MS: &str = "duration_ms";
    pub const HEAP_BEFORE_KB: &str = "heap_before_kb";
    pub const HEAP_AFTER_KB: &str = "heap_after_kb";
    pub const HEAP_TOTAL_KB: &str = "heap_total_kb";
    pub const GC_ID: &str = "gc_id";
    pub const IN_COLLECTION: &str = "in_collection";
    pub const LINE: &str = "line";
}

/// A restart is an uptime this much (seconds) below the latest start seen so far, and below
/// half of it: the JVM's clock began at 0 again. Smaller steps back are threads printing out
/// of order, or a long collection printed after the short ones inside it.
const RESTART_BACK_S: f64 = 1.0;

/// The JVM run of each event (see `gc::RUN`). Events are taken in line order. An uptime that
/// goes back starts a new run only when the next event with an uptime is back there too: one
/// event printed late (a JRockit old collection after the nursery collections inside it) or
/// one damaged stamp is not a restart.
pub fn runs(ev: &[GcEvent]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..ev.len()).collect();
    order.sort_by_key(|&i| ev[i].line);
    let timed: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| ev[i].uptime_s.is_some())
        .collect();
    let mut run_of = vec![0u32; ev.len()];
    let mut run = 0u32;
    let mut latest = f64::NEG_INFINITY;
    let mut next_timed = 0usize;
    for &i in &order {
        if let Some(u) = ev[i].uptime_s {
            next_timed += 1;
            let back = |v: f64| v < latest - RESTART_BACK_S && v < latest / 2.0;
            if back(u) {
                let confirmed = timed
                    .get(next_timed)
                    .and_then(|&j| ev[j].uptime_s)
                    .is_none_or(back);
                if confirmed {
                    run += 1;
                    latest = u;
                }
            }
            latest = latest.max(u);
        }
        run_of[i] = run;
    }
    run_of
}

/// A duration in ms as the log wrote it, without the noise of converting from seconds
/// (`0.0050319 secs` * 1000 is 5.031899999999999): rounded to a nanosecond, far below the
/// 0.1 µs the finest log writes. An integer over a power of ten is correctly rounded, so the
/// result prints as `5.0319`.
fn round_ms(ms: f64) -> f64 {
    let r = (ms * 1e6).round() / 1e6;
    if r.is_finite() {
        r
    } else {
        ms
    }
}

/// One row per event of the log.
pub fn gc_frame(log: &GcLog) -> PolarsResult<DataFrame> {
    let ev = &log.events;
    let n = ev.len();
    let s = |i: u32| log.strings.get(i);
    let have_uptime = ev.iter().any(|e| e.uptime_s.is_some());
    let wall0 = ev.iter().filter_map(|e| e.wall_ms).min();
    let run = runs(ev);
    // Runs laid end to end on the time axis: each starts where the one before ended.
    let n_runs = run.iter().max().map_or(1, |&r| r as usize + 1);
    let mut run_end = vec![f64::NEG_INFINITY; n_runs];
    for (e, &r) in ev.iter().zip(&run) {
        if let Some(u) = e.uptime_s {
            let end = u + e.duration_ms / 1000.0;
            run_end[r as usize] = run_end[r as usize].max(end);
        }
    }
    let mut offset = vec![0.0f64; n_runs];
    for r in 1..n_runs {
        let prev = if run_end[r - 1].is_finite() {
            run_end[r - 1]
        } else {
            0.0
        };
        offset[r] = offset[r - 1] + prev;
    }
    let t: Vec<Option<f64>> = ev
        .iter()
        .zip(&run)
        .map(|(e, &r)| {
            if have_uptime {
                e.uptime_s.map(|u| u + offset[r as usize])
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
            Column::new(gc::RUN.into(), run),
            Column::new(
                gc::DURATION_MS.into(),
                ev.iter()
                    .map(|e| round_ms(e.duration_ms))
                    .collect::<Vec<_>>(),
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

/// A column that may hold nulls: values, plus validity only from the first null on (a
/// semicolon log has none, so its columns cost no validity at all), turned into a polars
/// column without copying when every value is present.
#[derive(Debug, Default)]
struct OptCol<T> {
    values: Vec<T>,
    valid: Option<Vec<bool>>,
}

impl<T: Copy + Default> OptCol<T> {
    fn with_capacity(n: usize) -> Self {
        OptCol {
            values: Vec::with_capacity(n),
            valid: None,
        }
    }

    fn push(&mut self, v: Option<T>) {
        match (&mut self.valid, v) {
            (None, Some(_)) => {}
            (Some(valid), _) => valid.push(v.is_some()),
            (None, None) => {
                let mut valid = Vec::with_capacity(self.values.capacity());
                valid.resize(self.values.len(), true);
                valid.push(false);
                self.valid = Some(valid);
            }
        }
        self.values.push(v.unwrap_or_default());
    }
}

macro_rules! opt_column {
    ($name:expr, $col:expr, $ca:ty) => {{
        let OptCol { values, valid } = $col;
        match valid {
            None => <$ca>::from_vec($name.into(), values).into_column(),
            Some(valid) => <$ca>::from_iter_options(
                $name.into(),
                values.into_iter().zip(valid).map(|(v, ok)| ok.then_some(v)),
            )
            .into_column(),
        }
    }};
}

/// Builds a perf frame column by column, from records appended in batches (a large log is
/// parsed block by block and each block's records dropped once appended, so a log never
/// exists twice in memory).
#[derive(Debug, Default)]
pub struct PerfColumns {
    end_ms: Vec<i64>,
    total: Vec<f64>,
    java: OptCol<f64>,
    db: OptCol<f64>,
    calls: OptCol<u64>,
    op: Vec<u32>,
    ok: Vec<bool>,
    inconsistent: Vec<bool>,
    line: Vec<u32>,
}

impl PerfColumns {
    pub fn with_capacity(n: usize) -> Self {
        PerfColumns {
            end_ms: Vec::with_capacity(n),
            total: Vec::with_capacity(n),
            java: OptCol::with_capacity(n),
            db: OptCol::with_capacity(n),
            calls: OptCol::with_capacity(n),
            op: Vec::with_capacity(n),
            ok: Vec::with_capacity(n),
            inconsistent: Vec::with_capacity(n),
            line: Vec::with_capacity(n),
        }
    }

    pub fn len(&self) -> usize {
        self.end_ms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.end_ms.is_empty()
    }

    /// Append a record, its operation given as an id of the log being built and its line
    /// moved on by `line_offset` (the lines of the blocks before it).
    pub fn push(&mut self, r: &crate::model::PerfRecord, op: u32, line_offset: u64) {
        self.end_ms.push(r.end_ms);
        self.total.push(r.total_ms);
        self.java.push(r.java_ms);
        self.db.push(r.db_ms);
        self.calls.push(r.db_calls.map(u64::from));
        self.op.push(op);
        self.ok.push(r.ok);
        self.inconsistent.push(r.inconsistent);
        self.line
            .push(u32::try_from(r.line + line_offset).unwrap_or(u32::MAX));
    }

    pub fn finish(self, operations: Vec<String>) -> PolarsResult<PerfFrame> {
        Ok(PerfFrame {
            df: self.into_df()?,
            operations,
        })
    }

    /// The columns as a frame (one chunk per column; frames of blocks are stacked).
    pub fn into_df(self) -> PolarsResult<DataFrame> {
        let n = self.end_ms.len();
        DataFrame::new(
            n,
            vec![
                Int64Chunked::from_vec(perf::END_MS.into(), self.end_ms).into_column(),
                Float64Chunked::from_vec(perf::TOTAL_MS.into(), self.total).into_column(),
                opt_column!(perf::JAVA_MS, self.java, Float64Chunked),
                opt_column!(perf::DB_MS, self.db, Float64Chunked),
                opt_column!(perf::DB_CALLS, self.calls, UInt64Chunked),
                UInt32Chunked::from_vec(perf::OPERATION_ID.into(), self.op).into_column(),
                BooleanChunked::from_slice(perf::OK.into(), &self.ok).into_column(),
                BooleanChunked::from_slice(perf::INCONSISTENT.into(), &self.inconsistent)
                    .into_column(),
                UInt32Chunked::from_vec(perf::LINE.into(), self.line).into_column(),
            ],
        )
    }
}

/// One row per record of a performance log parsed in one piece.
pub fn perf_frame(log: &crate::model::PerfLog) -> PolarsResult<PerfFrame> {
    let mut c = PerfColumns::with_capacity(log.records.len());
    for r in &log.records {
        c.push(r, r.operation, 0);
    }
    c.finish(log.strings.list().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_from_seconds_have_no_float_noise() {
        let log = crate::parse::hotspot::parse(
            b"0.206: [GC pause (G1 Evacuation Pause) (young), 0.0050319 secs]\n\
              0.220: [GC cleanup 41408K->41408K(128M), 0.0014223 secs]\n",
        );
        let df = gc_frame(&log).unwrap();
        let d = df.column(gc::DURATION_MS).unwrap().f64().unwrap().clone();
        assert_eq!(d.get(0).map(|v| v.to_string()), Some("5.0319".to_string()));
        assert_eq!(d.get(1).map(|v| v.to_string()), Some("1.4223".to_string()));
    }
}
