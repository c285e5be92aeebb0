//! `gcperf export`: the normalised records as Parquet, for engines that take fleet-scale data
//! (Spark, Trino, DuckDB). Three tables, three schemas: GC records (pauses, collections,
//! concurrent phases, safepoints), performance-log requests, and the inputs themselves (one
//! row each, those without records included). Into a folder each table goes in a folder of
//! its own (`gc/`, `perf/`, `files/`), each export's file a part with a name no other
//! export takes: many exporters (hosts, Spark tasks) write into one dataset, and a plain
//! folder read of a table is that table. `--tag`s are constant columns after `file`;
//! `--partition-by TAG` makes Hive-style folders (`gc/host=web01/`) instead.
//!
//! The exported schemas are a contract: `GC_COLUMNS`, `PERF_COLUMNS` and `FILES_COLUMNS`
//! below are the one place that states each column's name, type, unit and meaning; the frames
//! written are checked against them, and the README's tables are tested to match them.
//!
//! Types are chosen for SQL engines, not for the in-memory frames: signed 64-bit integers
//! (Spark and Trino have no unsigned types), strings, doubles, booleans and a timestamp
//! without time zone (Parquet `TIMESTAMP(MILLIS, isAdjustedToUTC=false)`). Files are written
//! with zstd compression, in row groups of `ROW_GROUP` rows, to temporary names renamed into
//! place together once all are complete: a failed export leaves no file of its own behind.

use crate::frame::{self, PerfFrame};
use crate::load::{Input, Loaded, LoadedPerf};
use anyhow::Context as _;
use polars::io::parquet::write::BatchedWriter;
use polars::prelude::*;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Rows per Parquet row group (polars' default): small inputs are gathered into one group,
/// large ones cut, and memory holds the loaded frames plus about one group per output.
pub const ROW_GROUP: usize = 512 * 512;

/// A column's type in the Parquet file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// UTF-8 string (Parquet `BYTE_ARRAY`/`STRING`).
    Str,
    /// 64-bit float (`DOUBLE`).
    F64,
    /// Signed 64-bit integer (`INT64`).
    I64,
    /// `BOOLEAN`.
    Bool,
    /// Milliseconds, no time zone (`TIMESTAMP(MILLIS, isAdjustedToUTC=false)`).
    Timestamp,
    /// Milliseconds, an instant (`TIMESTAMP(MILLIS, isAdjustedToUTC=true)`).
    Instant,
}

impl Ty {
    pub fn dtype(self) -> DataType {
        match self {
            Ty::Str => DataType::String,
            Ty::F64 => DataType::Float64,
            Ty::I64 => DataType::Int64,
            Ty::Bool => DataType::Boolean,
            Ty::Timestamp => DataType::Datetime(TimeUnit::Milliseconds, None),
            Ty::Instant => DataType::Datetime(TimeUnit::Milliseconds, Some(TimeZone::UTC)),
        }
    }

    /// The type as SQL engines show it (DuckDB's names).
    pub fn sql(self) -> &'static str {
        match self {
            Ty::Str => "VARCHAR",
            Ty::F64 => "DOUBLE",
            Ty::I64 => "BIGINT",
            Ty::Bool => "BOOLEAN",
            Ty::Timestamp => "TIMESTAMP",
            Ty::Instant => "TIMESTAMP WITH TIME ZONE",
        }
    }
}

/// One exported column: what the README's schema tables list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportColumn {
    pub name: &'static str,
    pub ty: Ty,
    /// Empty for none (strings, flags).
    pub unit: &'static str,
    /// What the value is, and when it is null.
    pub meaning: &'static str,
}

const fn c(name: &'static str, ty: Ty, unit: &'static str, meaning: &'static str) -> ExportColumn {
    ExportColumn {
        name,
        ty,
        unit,
        meaning,
    }
}

pub const FILE: &str = "file";
pub const FORMAT: &str = "format";
pub const OPERATION: &str = "operation";
/// GC: when the event started, as a timestamp.
pub const START_TIME: &str = "start_time";
/// Perf: when the request ended, as a timestamp.
pub const END_TIME: &str = "end_time";
/// GC: `start_time` as an instant (UTC), where the log's clock (or `--tz`) says its zone.
pub const START_UTC: &str = "start_utc";
/// Perf: `end_time` as an instant.
pub const END_UTC: &str = "end_utc";
/// GC: JVM uptime at the event's start. The same values as the frame's `start_s`; not the
/// frame's `t_s`, which falls back to seconds since the first dated event for the charts.
pub const UPTIME_T_S: &str = "t_s";

/// `gc.parquet`: one row per GC record, in file order, files in argument order.
pub const GC_COLUMNS: &[ExportColumn] = &[
    c(FILE, Ty::Str, "", "the input file, as given on the command line or found in a folder given (for a `--join`/`--rotated` set, its first part in time order)"),
    c(FORMAT, Ty::Str, "", "the log's family as `gcperf --help` lists them (`hotspot`, `unified`, `jrockit`...)"),
    c(frame::gc::RECORD, Ty::Str, "", "`pause` (stop-the-world GC pause), `collection` (a JRockit collection whose pauses are itemised as `pause` rows), `concurrent` (concurrent phase, not a pause), `safepoint` (safepoint stop, not a GC pause), `stall` (one thread waiting for the collector: ZGC `Allocation Stall`, `Relocation Stall`; not a pause), `nested` (a collection run inside another's stop, e.g. CMS's scavenge before remark: its time is part of that `pause` row's, never a pause of its own)"),
    c(frame::gc::KIND, Ty::Str, "", "`young`, `mixed`, `old`, `full`, `initial-mark`, `remark`, `cleanup` or `other`"),
    c(frame::gc::COLLECTOR, Ty::Str, "", "collector or generation as the log names it (`PSYoungGen`, `G1`, `ParNew`...); null when the log does not say"),
    c(frame::gc::CAUSE, Ty::Str, "", "GC cause (`Allocation Failure`, `System.gc()`...); null when the log does not say"),
    c(frame::gc::NAME, Ty::Str, "", "event or phase name as the log writes it (`Pause Young (Normal)`, `CMS-concurrent-mark`...); null when none"),
    c(frame::gc::GC_ID, Ty::I64, "", "collection number where the log has one (`GC(3)`, `[OC#3]`, PrintGCID `#3:`); for a JRockit collection with itemised pauses and no number in the log, one counted from the log's start, shared by the collection and its pauses; null otherwise"),
    c(frame::gc::IN_COLLECTION, Ty::Bool, "", "true for a `pause` itemised under a `collection` row with the same `gc_id`"),
    c(START_TIME, Ty::Timestamp, "ms", "event start, local time as written in the log, no zone; null when the log has no date stamps"),
    c(frame::gc::WALL_MS, Ty::I64, "ms", "`start_time` as milliseconds since 1970-01-01 00:00 of that local clock"),
    c(START_UTC, Ty::Instant, "ms", "`start_time` as an instant (UTC): by the offset its own stamp carries (HotSpot `+0200`, unified `[time]`; `[utctime]` writes `+0000`), so a log across a DST change is right on both sides of it; a stamp without one by the log's zone (`[timemillis]` is UTC) or by `--tz` (a log that writes no offset; a tz-database zone's DST changes followed stamp by stamp); null when nothing says the zone"),
    c(UPTIME_T_S, Ty::F64, "s", "event start, JVM uptime as written in the log; null when the log has no uptime stamps"),
    c(frame::gc::DURATION_MS, Ty::F64, "ms", "duration (of a `collection`: the sum of its pauses)"),
    c(frame::gc::HEAP_BEFORE_KB, Ty::I64, "KiB", "heap occupancy before; null when not logged"),
    c(frame::gc::HEAP_AFTER_KB, Ty::I64, "KiB", "heap occupancy after; null when not logged"),
    c(frame::gc::HEAP_TOTAL_KB, Ty::I64, "KiB", "heap capacity; null when not logged"),
    c(frame::gc::LINE, Ty::I64, "", "1-based line where the record starts (joined sets count on across parts)"),
];

/// `perf.parquet`: one row per request, in file order, files in argument order.
pub const PERF_COLUMNS: &[ExportColumn] = &[
    c(FILE, Ty::Str, "", "the input file, as given on the command line or found in a folder given"),
    c(FORMAT, Ty::Str, "", "the log's family as `gcperf --help` lists them (`jmeter-jtl`, `k6-csv`, `access-iis`...), or with `--log-format` `access-apache`, `access-tomcat`, `access-nginx` or `access-regex`"),
    c(OPERATION, Ty::Str, "", "operation name, JMeter label, or `test <n>` for The Grinder"),
    c(END_TIME, Ty::Timestamp, "ms", "when the request ended: local time as written (semicolon log), or the JMeter/Grinder epoch stamp (start + elapsed, or the stamp itself where a JMeter log's stamps are ends) as UTC; no zone; null for a request stamped before 1990 or after 2099 (no time: JMeter before 5.5 stamps a request that failed with an exception 1970-01-01)"),
    c(frame::perf::END_MS, Ty::I64, "ms", "`end_time` as milliseconds since 1970-01-01 00:00 of that clock"),
    c(END_UTC, Ty::Instant, "ms", "`end_time` as an instant (UTC): epoch stamps (JMeter, Grinder, k6...) as they are, local stamps (semicolon log, access logs) by `--tz`; null when the zone is unknown"),
    c(frame::perf::TOTAL_MS, Ty::F64, "ms", "whole request"),
    c(frame::perf::JAVA_MS, Ty::F64, "ms", "time in Java; null where the log has no Java/DB split (JMeter, Grinder)"),
    c(frame::perf::DB_MS, Ty::F64, "ms", "time in the database; null where the log has no split"),
    c(frame::perf::DB_CALLS, Ty::I64, "", "database calls; null where the log does not count them"),
    c(frame::perf::OK, Ty::Bool, "", "false when the request failed (`e-...`, JMeter `success=false`, Grinder errors > 0)"),
    c(frame::perf::INCONSISTENT, Ty::Bool, "", "Java + DB differs from the total (semicolon log): kept, but flagged"),
    c(frame::perf::LINE, Ty::I64, "", "1-based line where the record starts"),
];

/// `files/`: one row per input, in argument order, those without records included.
pub const FILES_COLUMNS: &[ExportColumn] = &[
    c(FILE, Ty::Str, "", "the input, as the `gc` and `perf` rows name it"),
    c(FORMAT, Ty::Str, "", "its format (as `format` of the `gc` and `perf` rows); null when it could not be read or recognised"),
    c("kind", Ty::Str, "", "`gc` or `perf`; null when it could not be read or recognised"),
    c("lines", Ty::I64, "", "lines read; null when it could not be read or recognised"),
    c("skipped_lines", Ty::I64, "", "lines not understood (skipped); null as `lines`"),
    c("records", Ty::I64, "", "its rows in `gc` or `perf` (those in the time window given); 0 when it has none"),
    c("pauses", Ty::I64, "", "GC logs: its `pause` rows; null for performance logs and inputs not read"),
    c("requests", Ty::I64, "", "performance logs: its rows; null for GC logs and inputs not read"),
    c("error", Ty::Str, "", "why it has no records (not readable, not recognised...); null when it was read"),
];

/// The three tables, each with its own folder (or file) and schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Records {
    Gc,
    Perf,
    Files,
}

impl Records {
    pub fn as_str(self) -> &'static str {
        match self {
            Records::Gc => "gc",
            Records::Perf => "perf",
            Records::Files => "files",
        }
    }

    pub fn columns(self) -> &'static [ExportColumn] {
        match self {
            Records::Gc => GC_COLUMNS,
            Records::Perf => PERF_COLUMNS,
            Records::Files => FILES_COLUMNS,
        }
    }

    /// The schema the rows are written with: `tags` as string columns after `file` (none: the
    /// schema the rows are made in).
    pub fn schema_tagged(self, tags: &[(String, String)]) -> Schema {
        let mut f: Vec<Field> = self
            .columns()
            .iter()
            .map(|c| Field::new(c.name.into(), c.ty.dtype()))
            .collect();
        for (k, (key, _)) in tags.iter().enumerate() {
            f.insert(1 + k, Field::new(key.as_str().into(), DataType::String));
        }
        f.into_iter().collect()
    }
}

/// `df` (a table's rows) with the `tags` as constant columns after `file`.
fn tagged(mut df: DataFrame, tags: &[(String, String)]) -> PolarsResult<DataFrame> {
    let n = df.height();
    for (k, (key, value)) in tags.iter().enumerate() {
        let col = Column::new_scalar(
            key.as_str().into(),
            Scalar::from(PlSmallStr::from(value.as_str())),
            n,
        );
        df.insert_column(1 + k, col)?;
    }
    Ok(df)
}

fn ts(name: &str) -> Expr {
    col(name).cast(Ty::Timestamp.dtype())
}

fn i64_(name: &str) -> Expr {
    col(name).cast(DataType::Int64)
}

/// `--tz`: the zone of a log's local stamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tz {
    /// Minutes east of UTC, all year.
    Offset(i32),
    /// A zone of the tz database, its offset changing with its rules.
    Named(chrono_tz::Tz),
}

impl Tz {
    /// `+0200`, `-05:00`, `Z`, `UTC`, or a tz-database name (`Europe/Paris`).
    pub fn parse(s: &str) -> Option<Tz> {
        crate::parse::zone::parse_zone(s)
            .map(Tz::Offset)
            .or_else(|| s.trim().parse::<chrono_tz::Tz>().ok().map(Tz::Named))
    }
}

/// How a log's wall-clock stamps (local time as written, `wall_ms`/`end_ms`) become instants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToUtc {
    /// Nothing says the zone: no instants.
    Unknown,
    /// Less this many minutes.
    Offset(i32),
    /// Through the zone's rules, stamp by stamp (the earlier of a repeated hour's two).
    Zone(chrono_tz::Tz),
}

impl ToUtc {
    /// A GC log's rule for the rows whose stamp carries no offset of its own (a row with one,
    /// `gc::UTC_OFFSET_QH`, is put on UTC by it: see `gc_rows`): the offset the log's stamps
    /// carry (`Loaded::zone`, read from the head of what was read), where it has one, else
    /// `tz`. A zone given with `--tz` takes the place of the log's offset when it has that
    /// offset at the log's first stamp.
    pub fn of_gc(l: &Loaded, tz: Option<Tz>) -> ToUtc {
        use crate::parse::zone::Zone;
        match (l.zone, tz) {
            (Zone::Offset(z), Some(Tz::Named(t))) => {
                let first = first_i64(&l.frame.df, frame::gc::WALL_MS);
                match first.and_then(|ms| offset_at(t, ms)) {
                    Some(o) if o == z => ToUtc::Zone(t),
                    _ => ToUtc::Offset(z),
                }
            }
            (Zone::Offset(z), _) => ToUtc::Offset(z),
            (Zone::Local, tz) => ToUtc::local(tz),
        }
    }

    /// Stamps in local time: in `tz`.
    fn local(tz: Option<Tz>) -> ToUtc {
        match tz {
            Some(Tz::Offset(o)) => ToUtc::Offset(o),
            Some(Tz::Named(t)) => ToUtc::Zone(t),
            None => ToUtc::Unknown,
        }
    }

    /// A performance log's: epoch stamps are UTC; local ones are in `tz`.
    pub fn of_perf(l: &LoadedPerf, tz: Option<Tz>) -> ToUtc {
        if l.utc() {
            ToUtc::Offset(0)
        } else {
            ToUtc::local(tz)
        }
    }

    /// The instants of `df`'s wall-clock column `name`; where `offsets` names a column of
    /// offsets (quarter hours east, `gc::UTC_OFFSET_QH`), a row that has one is put on UTC by
    /// it, and only the others by this rule.
    fn column(
        self,
        df: &DataFrame,
        name: &str,
        offsets: Option<&str>,
        out: &str,
    ) -> PolarsResult<Expr> {
        let wall = df.column(name)?.cast(&DataType::Int64)?;
        let wall = wall.i64()?;
        let own = offsets
            .map(|q| df.column(q)?.cast(&DataType::Int8))
            .transpose()?;
        // A log whose stamps write no offset goes by the rule alone; one that keeps one offset
        // (a scalar) by that offset; one of several row by row, the rule only for the rows
        // without one (a zone's rule looked up for every row, then dropped, was most of it).
        let (rule, own) = match own.filter(|q| q.null_count() < q.len()) {
            Some(Column::Scalar(s)) => match s.scalar().value().extract::<i8>() {
                Some(q) => (ToUtc::Offset(i32::from(q) * 15), None),
                None => (self, None),
            },
            o => (self, o),
        };
        let by_rule = |ms: i64| match rule {
            ToUtc::Unknown => None,
            ToUtc::Offset(m) => Some(ms - i64::from(m) * 60_000),
            ToUtc::Zone(t) => Some(ms - i64::from(offset_at(t, ms)?) * 60_000),
        };
        let utc: Int64Chunked = match (own, rule) {
            (Some(q), _) => wall
                .iter()
                .zip(q.i8()?.iter())
                .map(|(w, q)| match q {
                    Some(q) => Some(w? - i64::from(q) * QUARTER_HOUR_MS),
                    None => by_rule(w?),
                })
                .collect(),
            (None, ToUtc::Unknown) => Int64Chunked::full_null(out.into(), wall.len()),
            (None, ToUtc::Offset(m)) => wall.apply_values(|ms| ms - i64::from(m) * 60_000),
            (None, ToUtc::Zone(_)) => wall.iter().map(|w| by_rule(w?)).collect(),
        };
        let utc = utc.into_datetime(TimeUnit::Milliseconds, Some(TimeZone::UTC));
        Ok(lit(utc.into_series()).alias(out))
    }
}

/// A quarter hour, ms: the unit of `gc::UTC_OFFSET_QH`.
const QUARTER_HOUR_MS: i64 = 15 * 60_000;

/// The zone's offset, minutes, at the local time `ms` (milliseconds since 1970 of the local
/// clock); a repeated hour's earlier offset; None in a skipped hour or out of range.
fn offset_at(t: chrono_tz::Tz, ms: i64) -> Option<i32> {
    use chrono::{Offset, TimeZone};
    let local = chrono::DateTime::from_timestamp_millis(ms)?.naive_utc();
    let at = t.from_local_datetime(&local).earliest()?;
    Some(at.offset().fix().local_minus_utc() / 60)
}

/// The first non-null value of an integer column.
fn first_i64(df: &DataFrame, name: &str) -> Option<i64> {
    let c = df.column(name).ok()?.cast(&DataType::Int64).ok()?;
    let v = c.i64().ok()?.iter().flatten().next();
    v
}

/// `len` rows of a GC log from `offset`, in the exported schema.
pub fn gc_rows(l: &Loaded, utc: ToUtc, offset: usize, len: usize) -> PolarsResult<DataFrame> {
    use frame::gc::*;
    let part = l.frame.df.slice(offset as i64, len);
    let start_utc = utc.column(&part, WALL_MS, Some(UTC_OFFSET_QH), START_UTC)?;
    // The frame holds codes and ids; the file holds the names, none as null.
    let text = |c: &str| -> PolarsResult<Expr> {
        Ok(lit(l.frame.decoded(&part, c)?.into_series()).alias(c))
    };
    let names: Vec<Expr> = [RECORD, KIND, COLLECTOR, CAUSE, NAME]
        .into_iter()
        .map(text)
        .collect::<PolarsResult<_>>()?;
    let df = part
        .lazy()
        .with_columns(names)
        .select([
            lit(l.label.as_str()).alias(FILE),
            lit(l.format.as_str()).alias(FORMAT),
            col(RECORD),
            col(KIND),
            col(COLLECTOR),
            col(CAUSE),
            col(NAME),
            i64_(GC_ID),
            col(IN_COLLECTION),
            ts(WALL_MS).alias(START_TIME),
            col(WALL_MS),
            start_utc,
            col(START_S).alias(UPTIME_T_S),
            col(DURATION_MS),
            i64_(HEAP_BEFORE_KB),
            i64_(HEAP_AFTER_KB),
            i64_(HEAP_TOTAL_KB),
            i64_(LINE),
        ])
        .collect()?;
    checked(df, Records::Gc)
}

/// `len` rows of a performance log from `offset`, in the exported schema.
pub fn perf_rows(l: &LoadedPerf, utc: ToUtc, offset: usize, len: usize) -> PolarsResult<DataFrame> {
    use frame::perf::*;
    let PerfFrame { df, operations } = &l.frame;
    let part = df.slice(offset as i64, len);
    let end_utc = utc.column(&part, END_MS, None, END_UTC)?;
    let names =
        StringChunked::from_iter_values(OPERATION.into(), operations.iter().map(String::as_str));
    // The frame holds ids into `operations`; the file holds the names.
    let op = names.take(part.column(OPERATION_ID)?.u32()?)?;
    let df = part
        .lazy()
        .with_column(lit(op.into_series()).alias(OPERATION))
        .select([
            lit(l.label.as_str()).alias(FILE),
            lit(l.format.as_str()).alias(FORMAT),
            col(OPERATION),
            ts(END_MS).alias(END_TIME),
            col(END_MS),
            end_utc,
            col(TOTAL_MS),
            col(JAVA_MS),
            col(DB_MS),
            i64_(DB_CALLS),
            col(OK),
            col(INCONSISTENT),
            i64_(LINE),
        ])
        .collect()?;
    checked(df, Records::Perf)
}

/// The frame, if its columns are exactly the schema's (names, order, types), with every
/// double `clean`ed: Parquet readers print the f64 as it is, and a start worked out as end
/// minus duration (`2.1310000000000002`) would show its noise there.
fn checked(mut df: DataFrame, r: Records) -> PolarsResult<DataFrame> {
    let want = r.schema_tagged(&[]);
    if **df.schema() != want {
        polars_bail!(SchemaMismatch: "{} export frame {:?} is not the schema {:?}", r.as_str(), df.schema(), want);
    }
    for c in r.columns().iter().filter(|c| c.ty == Ty::F64) {
        df.try_apply(c.name, |col| {
            Ok(col.f64()?.apply_values(super::clean).into_series())
        })?;
    }
    Ok(df)
}

/// A polars result with context, as anyhow's (both crates' context traits are in scope).
fn ctx<T>(r: PolarsResult<T>, what: impl FnOnce() -> String) -> anyhow::Result<T> {
    anyhow::Context::with_context(r, what)
}

/// One Parquet file being written: rows gathered into row groups of `ROW_GROUP`, written to a
/// temporary file that `finish` hands over whole, to be moved into place with the export's
/// other files (`output::commit`). Dropped before that (an error on the way), its temporary
/// file is removed: no half-written file stays behind.
struct Sink {
    // Before `file`: the writer closes the file before the temporary file is removed.
    writer: BatchedWriter<File>,
    file: crate::output::Staged,
    pending: Vec<DataFrame>,
    pending_rows: usize,
    rows: u64,
}

impl Sink {
    fn create(path: &Path, r: Records, tags: &[(String, String)]) -> anyhow::Result<Sink> {
        let file = crate::output::Staged::new(path);
        let f = File::create(file.tmp()).with_context(|| {
            format!(
                "cannot write {} (through the temporary file {})",
                path.display(),
                file.tmp().display()
            )
        })?;
        let meta = KeyValueMetadata::from_static(vec![
            ("gcperf.records".into(), r.as_str().into()),
            ("gcperf.schema_version".into(), "1".into()),
            ("gcperf.version".into(), env!("CARGO_PKG_VERSION").into()),
        ]);
        let w = ParquetWriter::new(f)
            .with_compression(ParquetCompression::Zstd(None))
            .with_statistics(StatisticsOptions::full())
            .with_key_value_metadata(Some(meta))
            .batched(&r.schema_tagged(tags));
        let writer = ctx(w, || format!("cannot write {}", path.display()))?;
        Ok(Sink {
            writer,
            file,
            pending: Vec::new(),
            pending_rows: 0,
            rows: 0,
        })
    }

    fn push(&mut self, df: DataFrame) -> anyhow::Result<()> {
        self.rows += df.height() as u64;
        self.pending_rows += df.height();
        self.pending.push(df);
        if self.pending_rows >= ROW_GROUP {
            self.flush(false)?;
        }
        Ok(())
    }

    /// Write full row groups from the pending rows (all of them when `all`).
    fn flush(&mut self, all: bool) -> anyhow::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut it = std::mem::take(&mut self.pending).into_iter();
        let mut df = it.next().unwrap_or_default();
        for d in it {
            df.vstack_mut_owned(d)?;
        }
        let n = df.height();
        let mut off = 0;
        while n - off >= ROW_GROUP || (all && off < n) {
            let k = (n - off).min(ROW_GROUP);
            let mut group = df.slice(off as i64, k);
            group.rechunk_mut_par();
            ctx(self.writer.write_batch(&group), || {
                format!("cannot write {}", self.file.path().display())
            })?;
            off += k;
        }
        self.pending_rows = n - off;
        if off < n {
            self.pending.push(df.slice(off as i64, n - off));
        }
        Ok(())
    }

    /// The rows written and the file, whole under its temporary name.
    fn finish(mut self) -> anyhow::Result<(u64, crate::output::Staged)> {
        self.flush(true)?;
        let Sink {
            writer, file, rows, ..
        } = self;
        let finished = writer.finish();
        // Closed before the file is moved or, on an error, removed.
        drop(writer);
        ctx(finished, || {
            format!("cannot write {}", file.path().display())
        })?;
        Ok((rows, file))
    }
}

/// Where each table goes, and a note for stderr when the rule needs saying.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targets {
    pub gc: Option<PathBuf>,
    pub perf: Option<PathBuf>,
    /// The files table: into a folder only.
    pub files: Option<PathBuf>,
    pub note: Option<String>,
}

/// How `export` writes: the tags, and the one that makes folders.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExportOptions {
    pub tags: Vec<(String, String)>,
    /// A tag's key: its value names a Hive-style folder (`host=web01`) under each table's,
    /// and it is not a column of the files.
    pub partition_by: Option<String>,
    /// `--tz`: the zone of local stamps (`ToUtc`).
    pub tz: Option<Tz>,
}

impl ExportOptions {
    /// The tags written as columns (all but the partitioning one).
    fn columns(&self) -> Vec<(String, String)> {
        self.tags
            .iter()
            .filter(|(k, _)| Some(k) != self.partition_by.as_ref())
            .cloned()
            .collect()
    }

    /// The Hive-style folder of the partitioning tag (`host=web01`), if any.
    pub(crate) fn partition(&self) -> Result<Option<String>, String> {
        let Some(key) = &self.partition_by else {
            return Ok(None);
        };
        let Some((_, v)) = self.tags.iter().find(|(k, _)| k == key) else {
            return Err(format!(
                "--partition-by {key}: no --tag {key}=VALUE given to take the folder's name from"
            ));
        };
        Ok(Some(format!("{key}={}", hive_escape(v))))
    }
}

/// A value as Hive writes it in a folder name: characters other than letters, digits and
/// `-_.` as `%XX` (so `/`, `=` and `%` cannot make other folders or keys); empty as Hive's
/// `__HIVE_DEFAULT_PARTITION__`.
fn hive_escape(v: &str) -> String {
    if v.is_empty() {
        return "__HIVE_DEFAULT_PARTITION__".into();
    }
    v.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A part name no other export takes: the time, the process, and 64 random bits
/// (`part-20261205T101500-4242-9f3c2a1b7d6e5f40.parquet`), so that exporters writing into
/// one folder at once never write over each other.
fn part_name() -> String {
    use std::hash::BuildHasher;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let pid = std::process::id();
    let random = std::collections::hash_map::RandomState::new().hash_one((pid, now.as_nanos()));
    let stamp = chrono::DateTime::from_timestamp(now.as_secs() as i64, 0)
        .map(|t| t.format("%Y%m%dT%H%M%S").to_string())
        .unwrap_or_default();
    format!("part-{stamp}-{pid}-{random:016x}.parquet")
}

/// The output rule. `--out` is a folder when it is an existing folder or does not end in
/// `.parquet`: then `DIR/gc/`, `DIR/perf/` and `DIR/files/` (with the partition's folder
/// under each) each get one new part. Otherwise it is a file: all records of one kind go to
/// it; with both kinds, `<stem>-gc.parquet` and `<stem>-perf.parquet` next to it (the two
/// schemas cannot share a file); no files table, no partitions.
pub fn targets(out: &Path, gc: bool, perf: bool, o: &ExportOptions) -> Result<Targets, String> {
    let is_file = !out.is_dir()
        && out
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("parquet"));
    if !is_file {
        let part = o.partition()?;
        let name = part_name();
        let at = |table: &str| {
            let mut d = out.join(table);
            if let Some(p) = &part {
                d.push(p);
            }
            d.join(&name)
        };
        return Ok(Targets {
            gc: gc.then(|| at("gc")),
            perf: perf.then(|| at("perf")),
            files: Some(at("files")),
            note: None,
        });
    }
    if let Some(k) = &o.partition_by {
        return Err(format!(
            "--partition-by {k} makes folders: give --out a folder, not {}",
            out.display()
        ));
    }
    if gc && perf {
        let stem = out
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (g, p) = (
            out.with_file_name(format!("{stem}-gc.parquet")),
            out.with_file_name(format!("{stem}-perf.parquet")),
        );
        let note = format!(
            "GC and performance records have different schemas: written to {} and {} instead of {}",
            g.display(),
            p.display(),
            out.display()
        );
        return Ok(Targets {
            gc: Some(g),
            perf: Some(p),
            files: None,
            note: Some(note),
        });
    }
    Ok(Targets {
        gc: gc.then(|| out.to_path_buf()),
        perf: perf.then(|| out.to_path_buf()),
        files: None,
        note: None,
    })
}

/// One file written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub records: Records,
    pub path: PathBuf,
    pub rows: u64,
}

/// What `export` did: the files written (GC, perf, files), and notes for stderr.
#[derive(Debug, Default)]
pub struct Exported {
    pub written: Vec<Written>,
    pub notes: Vec<String>,
}

/// An input as `export` has it: loaded, or why not (its name and error).
pub enum Item<'a> {
    Loaded(&'a Input),
    Failed { file: String, error: String },
}

/// The files table's rows, one per item.
fn files_rows(items: &[Item<'_>]) -> PolarsResult<DataFrame> {
    let (mut file, mut format, mut kind) = (Vec::new(), Vec::new(), Vec::new());
    let (mut lines, mut skipped, mut records) = (Vec::new(), Vec::new(), Vec::new());
    let (mut pauses, mut requests, mut error) = (Vec::new(), Vec::new(), Vec::new());
    for it in items {
        let (name, input, why) = match it {
            Item::Loaded(i) => (i.label(), Some(*i), None),
            Item::Failed { file, error } => (file.as_str(), None, Some(error.clone())),
        };
        file.push(name.to_string());
        format.push(input.map(|i| i.format().to_string()));
        kind.push(input.map(|i| i.kind().to_string()));
        lines.push(input.map(|i| i.lines() as i64));
        skipped.push(input.map(|i| i.skipped_lines() as i64));
        let (n, p, r) = match input {
            Some(Input::Gc(l)) => {
                let n = l.frame.df.height() as i64;
                let rec = l
                    .frame
                    .df
                    .column(frame::gc::RECORD)?
                    .cast(&DataType::Int32)?;
                let code = i32::from(crate::model::Record::Pause.code());
                let p = rec.i32()?.iter().filter(|v| *v == Some(code)).count();
                (n, Some(p as i64), None)
            }
            Some(Input::Perf(l)) => {
                let n = l.frame.df.height() as i64;
                (n, None, Some(n))
            }
            None => (0, None, None),
        };
        records.push(n);
        pauses.push(p);
        requests.push(r);
        error.push(why);
    }
    let df = DataFrame::new(
        items.len(),
        vec![
            Column::new(FILE.into(), file),
            Column::new(FORMAT.into(), format),
            Column::new("kind".into(), kind),
            Column::new("lines".into(), lines),
            Column::new("skipped_lines".into(), skipped),
            Column::new("records".into(), records),
            Column::new("pauses".into(), pauses),
            Column::new("requests".into(), requests),
            Column::new("error".into(), error),
        ],
    )?;
    checked(df, Records::Files)
}

/// Write one table into a new file for `path` (None: no file), whole under its temporary
/// name: `fill` pushes its rows.
fn write_table(
    path: Option<&PathBuf>,
    records: Records,
    tags: &[(String, String)],
    fill: impl FnOnce(&mut Sink) -> anyhow::Result<()>,
) -> anyhow::Result<Option<(Written, crate::output::Staged)>> {
    let Some(path) = path else { return Ok(None) };
    let mut sink = Sink::create(path, records, tags)?;
    fill(&mut sink)?;
    let (rows, file) = sink.finish()?;
    let written = Written {
        records,
        path: path.clone(),
        rows,
    };
    Ok(Some((written, file)))
}

/// The folders `dir` and those above it that do not exist yet, deepest first.
fn missing_dirs(dir: &Path) -> Vec<PathBuf> {
    dir.ancestors()
        .filter(|d| !d.as_os_str().is_empty())
        .take_while(|d| std::fs::symlink_metadata(d).is_err())
        .map(Path::to_path_buf)
        .collect()
}

/// Write the records of `items` (in their order) under `out` by the rule of `targets`: GC and
/// performance records where there are some (a table with no rows gets no file), and into a
/// folder the files table, every item a row. The tables are written side by side, and put in
/// place together once all are whole: on an error no file of this export stays, nor any
/// folder it made.
pub fn export(items: &[Item<'_>], out: &Path, o: &ExportOptions) -> anyhow::Result<Exported> {
    let mut made = Vec::new();
    let r = export_into(items, out, o, &mut made);
    if r.is_err() {
        // Deepest first; a folder something else wrote into meanwhile is not empty and stays.
        made.iter().for_each(|d| drop(std::fs::remove_dir(d)));
    }
    r
}

/// `export`, saying the folders it makes in `made`, deepest first.
fn export_into(
    items: &[Item<'_>],
    out: &Path,
    o: &ExportOptions,
    made: &mut Vec<PathBuf>,
) -> anyhow::Result<Exported> {
    let inputs: Vec<&Input> = items
        .iter()
        .filter_map(|i| match i {
            Item::Loaded(i) => Some(*i),
            Item::Failed { .. } => None,
        })
        .collect();
    let gcs: Vec<&Loaded> = inputs.iter().filter_map(|i| i.gc()).collect();
    let perfs: Vec<&LoadedPerf> = inputs.iter().filter_map(|i| i.perf()).collect();
    let has_gc = gcs.iter().any(|l| l.frame.df.height() > 0);
    let has_perf = perfs.iter().any(|l| l.frame.df.height() > 0);
    let mut t = targets(out, has_gc, has_perf, o).map_err(|e| anyhow::anyhow!(e))?;
    // No input at all (an empty folder): no table, not an empty one.
    if items.is_empty() {
        t.files = None;
    }
    let mut notes: Vec<String> = t.note.iter().cloned().collect();
    for dir in [&t.gc, &t.perf, &t.files]
        .into_iter()
        .flatten()
        .filter_map(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty())
    {
        let missing = missing_dirs(dir);
        let made_now = std::fs::create_dir_all(dir);
        // Before the folders made for the tables before: deeper or beside them, never above.
        made.splice(0..0, missing);
        made_now.with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // An earlier gcperf's files (one per kind at the top) would be read with the tables by a
    // recursive read of the folder.
    if out.is_dir() {
        for old in ["gc.parquet", "perf.parquet"] {
            let p = out.join(old);
            if p.exists() {
                notes.push(format!(
                    "{} is of an earlier gcperf's layout (the tables are now folders: gc/, perf/, files/); left as it is",
                    p.display()
                ));
            }
        }
    }
    let tags = o.columns();
    let tags = tags.as_slice();
    // A log's rows a row group at a time, tagged, into the sink.
    let slices = |sink: &mut Sink,
                  height: usize,
                  label: &str,
                  rows: &dyn Fn(usize) -> PolarsResult<DataFrame>|
     -> anyhow::Result<()> {
        for off in (0..height).step_by(ROW_GROUP) {
            let df = ctx(rows(off).and_then(|d| tagged(d, tags)), || {
                format!("{label}: export failed")
            })?;
            sink.push(df)?;
        }
        Ok(())
    };
    let write_gc = || {
        write_table(t.gc.as_ref(), Records::Gc, tags, |sink| {
            gcs.iter().try_for_each(|l| {
                let utc = ToUtc::of_gc(l, o.tz);
                slices(sink, l.frame.df.height(), &l.label, &|off| {
                    gc_rows(l, utc, off, ROW_GROUP)
                })
            })
        })
    };
    let write_perf = || {
        write_table(t.perf.as_ref(), Records::Perf, tags, |sink| {
            perfs.iter().try_for_each(|l| {
                let utc = ToUtc::of_perf(l, o.tz);
                slices(sink, l.frame.df.height(), &l.label, &|off| {
                    perf_rows(l, utc, off, ROW_GROUP)
                })
            })
        })
    };
    let write_files = || {
        write_table(t.files.as_ref(), Records::Files, tags, |sink| {
            slices(sink, 1, "the files table", &|_| files_rows(items))
        })
    };
    let (g, (p, f)) = rayon::join(write_gc, || rayon::join(write_perf, write_files));
    let (written, files): (Vec<Written>, Vec<_>) = [g?, p?, f?].into_iter().flatten().unzip();
    crate::output::commit(files)?;
    Ok(Exported { written, notes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_any;

    fn fixture(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(rel)
    }

    fn read(p: &Path) -> DataFrame {
        ParquetReader::new(File::open(p).unwrap()).finish().unwrap()
    }

    fn dtypes(df: &DataFrame) -> Vec<(String, DataType)> {
        df.schema()
            .iter()
            .map(|(n, t)| (n.to_string(), t.clone()))
            .collect()
    }

    fn want(r: Records) -> Vec<(String, DataType)> {
        r.columns()
            .iter()
            .map(|c| (c.name.to_string(), c.ty.dtype()))
            .collect()
    }

    #[test]
    fn gc_fixture_round_trips_with_its_schema_and_values() {
        let p = fixture("hotspot/jdk8-parallel-datestamps.log");
        let input = load_any(&p).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("gc-only.parquet");
        let e = export(&[Item::Loaded(&input)], &out, &ExportOptions::default()).unwrap();
        assert_eq!(
            e.written,
            vec![Written {
                records: Records::Gc,
                path: out.clone(),
                rows: 9
            }]
        );
        assert!(e.notes.is_empty());
        let df = read(&out);
        assert_eq!(dtypes(&df), want(Records::Gc));
        // 5 collections (3 young, 2 full) and 4 safepoint lines.
        assert_eq!(df.height(), 9);
        let rec = df.column("record").unwrap().str().unwrap();
        assert_eq!(rec.get(0), Some("pause"));
        // Line 4: `2016-01-11T10:15:02.114+0100: 1.210: [GC (Allocation Failure)
        // [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0123450 secs]`.
        let f = |c: &str| df.column(c).unwrap().f64().unwrap().get(0);
        let i = |c: &str| df.column(c).unwrap().i64().unwrap().get(0);
        let s = |c: &str| {
            df.column(c)
                .unwrap()
                .str()
                .unwrap()
                .get(0)
                .map(String::from)
        };
        assert_eq!(s("file"), Some(p.display().to_string()));
        assert_eq!(s("format").as_deref(), Some("hotspot"));
        assert_eq!(s("kind").as_deref(), Some("young"));
        assert_eq!(s("collector").as_deref(), Some("PSYoungGen"));
        assert_eq!(s("cause").as_deref(), Some("Allocation Failure"));
        assert_eq!(s("name").as_deref(), Some("GC"));
        // Row 2, a safepoint line: no collector, no cause (null, not "").
        let sp = df.get_row(1).unwrap().0;
        assert_eq!(sp[2], AnyValue::String("safepoint"));
        assert_eq!((sp[4].is_null(), sp[5].is_null()), (true, true));
        assert_eq!(f("duration_ms"), Some(12.345));
        assert_eq!(f("t_s"), Some(1.21));
        assert_eq!(i("heap_before_kb"), Some(65536));
        assert_eq!(i("heap_after_kb"), Some(12456));
        assert_eq!(i("heap_total_kb"), Some(251392));
        assert_eq!(i("line"), Some(4));
        // 2016-01-11 10:15:02.114 local, the +0100 not applied.
        let wall = i("wall_ms").unwrap();
        assert_eq!(wall, 1_452_507_302_114);
        let t = df.column("start_time").unwrap();
        assert_eq!(
            t.get(0).unwrap(),
            AnyValue::Datetime(wall, TimeUnit::Milliseconds, None)
        );
        // Pause durations add up as `gcperf summary` says: 283.801 ms.
        let pauses = df
            .clone()
            .lazy()
            .filter(col("record").eq(lit("pause")))
            .select([col("duration_ms").sum()])
            .collect()
            .unwrap();
        let total = pauses.column("duration_ms").unwrap().f64().unwrap().get(0);
        assert!((total.unwrap() - 283.801).abs() < 1e-9);
    }

    #[test]
    fn perf_fixture_has_operation_names_and_end_times() {
        let p = fixture("perf/soap-before.log");
        let input = load_any(&p).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let e = export(
            &[Item::Loaded(&input)],
            dir.path(),
            &ExportOptions::default(),
        )
        .unwrap();
        // perf/ and files/, no gc/.
        assert_eq!(e.written.len(), 2);
        let out = e.written[0].path.clone();
        assert_eq!(out.parent(), Some(dir.path().join("perf").as_path()));
        // 481 lines, the last one cut short.
        assert_eq!(e.written[0].rows, 480);
        assert!(!dir.path().join("gc").exists());
        let df = read(&out);
        assert_eq!(dtypes(&df), want(Records::Perf));
        assert_eq!(df.height(), 480);
        // Line 2: `[D02D...];2012-09-21 12:00:05.410;561;43;518;4;loadCustomersList;`
        let g = |c: &str| df.column(c).unwrap().get(1).unwrap().into_static();
        assert_eq!(
            g("operation"),
            AnyValue::StringOwned("loadCustomersList".into())
        );
        assert_eq!(g("total_ms"), AnyValue::Float64(561.0));
        assert_eq!(g("java_ms"), AnyValue::Float64(43.0));
        assert_eq!(g("db_ms"), AnyValue::Float64(518.0));
        assert_eq!(g("db_calls"), AnyValue::Int64(4));
        assert_eq!(g("ok"), AnyValue::Boolean(true));
        assert_eq!(g("line"), AnyValue::Int64(2));
        assert_eq!(g("format"), AnyValue::StringOwned("perf-csv".into()));
        // 2012-09-21 12:00:05.410 as written.
        let end = 1_348_228_805_410;
        assert_eq!(g("end_ms"), AnyValue::Int64(end));
        assert_eq!(
            g("end_time"),
            AnyValue::Datetime(end, TimeUnit::Milliseconds, None)
        );
        // Every operation name of the log, none empty.
        let ops = df.column("operation").unwrap().str().unwrap();
        assert_eq!(ops.null_count(), 0);
        assert!(ops.iter().all(|o| o.is_some_and(|o| !o.is_empty())));
    }

    #[test]
    fn jmeter_rows_have_no_java_db_split() {
        let input = load_any(&fixture("perf/jmeter-daytrader.jtl")).unwrap();
        let df = perf_rows(input.perf().unwrap(), ToUtc::Unknown, 0, ROW_GROUP).unwrap();
        assert_eq!(df.height(), 200);
        // `1348221842468,75,Buy,...`: ends at timeStamp + elapsed.
        let r = df.get_row(0).unwrap().0;
        assert_eq!(r[2], AnyValue::String("Buy"));
        assert_eq!(r[4], AnyValue::Int64(1_348_221_842_468 + 75));
        // Not told its clock here: no instant.
        assert_eq!(r[5], AnyValue::Null);
        assert_eq!(r[6], AnyValue::Float64(75.0));
        assert_eq!(df.column("java_ms").unwrap().null_count(), 200);
        assert_eq!(df.column("db_calls").unwrap().null_count(), 200);
    }

    #[test]
    fn mixed_kinds_to_one_file_name_become_two_files() {
        let gc = load_any(&fixture("hotspot/jdk142-parnew-cms-incremental.log")).unwrap();
        let perf = load_any(&fixture("perf/soap-after.log")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("sub").join("fleet.parquet");
        let items = [Item::Loaded(&perf), Item::Loaded(&gc)];
        let e = export(&items, &out, &ExportOptions::default()).unwrap();
        let paths: Vec<PathBuf> = e.written.iter().map(|w| w.path.clone()).collect();
        assert_eq!(
            paths,
            vec![
                dir.path().join("sub/fleet-gc.parquet"),
                dir.path().join("sub/fleet-perf.parquet")
            ]
        );
        assert_eq!(e.notes.len(), 1);
        assert!(!out.exists());
        assert_eq!(read(&paths[1]).height(), 520);
        // 5 pauses and 4 concurrent phases, no dates: start_time and wall_ms null, t_s set;
        // no causes: null, not "".
        let g = read(&paths[0]);
        assert_eq!(g.height(), 9);
        for c in ["start_time", "wall_ms", "start_utc", "cause"] {
            assert_eq!(g.column(c).unwrap().null_count(), 9, "{c}");
        }
        assert_eq!(g.column("t_s").unwrap().null_count(), 0);
        // Line 5: `2.131: [CMS-concurrent-mark: 0.020/0.023 secs]`: 23 ms of wall time, so it
        // started at 2.108 (line 4 marks the start).
        let r = g.get_row(3).unwrap().0;
        assert_eq!(r[2], AnyValue::String("concurrent"));
        assert_eq!(r[6], AnyValue::String("CMS-concurrent-mark"));
        assert_eq!(r[13], AnyValue::Float64(23.0));
        assert_eq!(r[12], AnyValue::Float64(2.108));
        // No temporary files left.
        let names: Vec<String> = std::fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn many_inputs_are_gathered_into_row_groups_in_order() {
        // Enough copies of one log to pass a row group: rows stay in input order.
        let input = load_any(&fixture("perf/jmeter-daytrader.jtl")).unwrap();
        let n = ROW_GROUP / 200 + 2;
        let items: Vec<Item> = std::iter::repeat_n(&input, n).map(Item::Loaded).collect();
        let dir = tempfile::tempdir().unwrap();
        let e = export(&items, dir.path(), &ExportOptions::default()).unwrap();
        assert_eq!(e.written[0].rows, (n * 200) as u64);
        assert_eq!(e.written[1].rows, n as u64, "a files row per input");
        let df = read(&e.written[0].path);
        assert_eq!(df.height(), n * 200);
        let line = df.column("line").unwrap().i64().unwrap();
        assert_eq!(line.get(0), Some(2));
        assert_eq!(line.get(199), Some(201));
        assert_eq!(line.get(200), Some(2));
        assert_eq!(line.get(n * 200 - 1), Some(201));
    }

    /// The doubles of every fixture's export are the values as the logs write them: no float
    /// noise (`2.1079999999999997` for a start worked out as end minus duration), since
    /// Parquet readers print the f64 as it is.
    #[test]
    fn exported_doubles_of_every_fixture_carry_no_float_noise() {
        let dirs: Vec<PathBuf> = ["hotspot", "jrockit", "unified", "perf"]
            .iter()
            .map(|d| fixture(d))
            .collect();
        let files = crate::input::expand(&dirs).files;
        let inputs: Vec<Input> = files.iter().filter_map(|p| load_any(p).ok()).collect();
        assert!(inputs.len() > 15, "{}", inputs.len());
        let items: Vec<Item> = inputs.iter().map(Item::Loaded).collect();
        let dir = tempfile::tempdir().unwrap();
        let e = export(&items, dir.path(), &ExportOptions::default()).unwrap();
        assert_eq!(e.written.len(), 3);
        let (mut checked, mut noisy) = (0, Vec::new());
        for w in e.written.iter().filter(|w| w.records != Records::Files) {
            let df = read(&w.path);
            let file = df.column(FILE).unwrap().str().unwrap();
            let line = df.column(frame::gc::LINE).unwrap().i64().unwrap();
            for c in w.records.columns().iter().filter(|c| c.ty == Ty::F64) {
                let col = df.column(c.name).unwrap().f64().unwrap();
                for (i, v) in col.iter().enumerate() {
                    let Some(v) = v else { continue };
                    checked += 1;
                    if super::super::clean(v) != v {
                        let f = file.get(i).unwrap_or("");
                        let f = f.rsplit('/').next().unwrap_or(f);
                        noisy.push(format!("{f}:{} {}={v}", line.get(i).unwrap_or(0), c.name));
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        assert!(noisy.is_empty(), "{} noisy: {noisy:#?}", noisy.len());
    }

    #[test]
    fn out_rule_folder_or_file() {
        let d = Path::new("no-such-dir/x");
        let none = ExportOptions::default();
        let t = targets(d, true, false, &none).unwrap();
        let (g, f) = (t.gc.unwrap(), t.files.unwrap());
        assert_eq!((t.perf, t.note), (None, None));
        assert_eq!(g.parent(), Some(d.join("gc").as_path()));
        assert_eq!(f.parent(), Some(d.join("files").as_path()));
        // One part name for the export's tables; another export's differs.
        assert_eq!(g.file_name(), f.file_name());
        let name = g.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("part-") && name.ends_with(".parquet"),
            "{name}"
        );
        let again = targets(d, true, false, &none).unwrap().gc.unwrap();
        assert_ne!(again, g);
        // Partitioned by a tag: its folder under each table's, escaped as Hive does.
        let o = ExportOptions {
            tags: vec![("host".into(), "web 01/a=b".into())],
            partition_by: Some("host".into()),
            ..ExportOptions::default()
        };
        let p = targets(d, true, true, &o).unwrap();
        assert_eq!(
            p.perf.unwrap().parent(),
            Some(d.join("perf/host=web%2001%2Fa%3Db").as_path())
        );
        assert!(
            o.columns().is_empty(),
            "the partition's tag is not a column"
        );
        let f = Path::new("no-such-dir/all.parquet");
        assert!(
            targets(f, true, false, &o).is_err(),
            "no partitions into a file"
        );
        assert_eq!(
            targets(f, false, true, &none).unwrap().perf,
            Some(f.to_path_buf())
        );
        assert_eq!(targets(f, false, true, &none).unwrap().gc, None);
        let both = targets(f, true, true, &none).unwrap();
        assert_eq!(both.gc, Some(PathBuf::from("no-such-dir/all-gc.parquet")));
        assert_eq!(
            both.perf,
            Some(PathBuf::from("no-such-dir/all-perf.parquet"))
        );
        assert!(both.note.is_some() && both.files.is_none());
    }

    /// The README's schema tables are these constants, row for row.
    #[test]
    fn readme_documents_the_schema() {
        let readme =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
                .unwrap();
        for r in [Records::Gc, Records::Perf, Records::Files] {
            let rows: Vec<String> = r.columns().iter().map(readme_row).collect();
            let table = rows.join("\n");
            assert!(
                readme.contains(&table),
                "README.md should hold the {} schema table:\n{table}",
                r.as_str()
            );
        }
    }

    fn readme_row(c: &ExportColumn) -> String {
        format!(
            "| `{}` | {} | {} | {} |",
            c.name,
            c.ty.sql(),
            c.unit,
            c.meaning
        )
    }

    /// Prints the README tables (`cargo test --release print_schema -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn print_schema() {
        for r in [Records::Gc, Records::Perf] {
            println!("{}:", r.as_str());
            for c in r.columns() {
                println!("{}", readme_row(c));
            }
        }
    }
}
