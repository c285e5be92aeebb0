//! `gcperf gc`: breakdown per pause kind and collector, pause-duration bands, heap figures,
//! and every pause as a CSV row (`--events`).

use super::{num, num_into, opt, push_u64, with_unit, Format, Output, Table};
use crate::analyze::gc::{HeapSummary, KindRow};
use crate::analyze::Band;
use crate::frame::gc as c;
use crate::frame::{GcFrame, IdReader, Num, UCol};
use crate::load::Loaded;
use crate::model::{Kind, Record};
use crate::parse::num::push_wall_ms;
use crate::report::summary::FileSummary;
use polars::prelude::*;
use rayon::prelude::*;
use serde::Serialize;

/// `summary`'s object for the file, with the breakdowns added.
#[derive(Debug, Clone, Serialize)]
pub struct GcReport {
    #[serde(flatten)]
    pub summary: FileSummary,
    pub by_kind: Vec<KindRow>,
    pub bands: Vec<Band>,
    pub heap: HeapSummary,
    pub meta: Vec<(String, String)>,
}

/// Which table `--format csv|tsv` prints (text shows all; JSON holds all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    Kind,
    Band,
    /// Pause time per GC cause.
    Cause,
    /// The findings, with their evidence.
    Finding,
}

fn diag_of(r: &GcReport) -> Option<&crate::analyze::diag::GcDiag> {
    r.summary.gc.as_ref().and_then(|g| g.diag.as_ref())
}

/// A report of `summary` alone (no breakdowns): for the cause and finding tables of a
/// summarised file (`report`'s page).
pub fn of_summary(s: &FileSummary) -> GcReport {
    GcReport {
        summary: s.clone(),
        by_kind: Vec::new(),
        bands: Vec::new(),
        heap: HeapSummary::default(),
        meta: Vec::new(),
    }
}

pub fn cause_table(reports: &[GcReport], digits: Option<usize>) -> Table {
    let mut t = Table::new(&[
        "file",
        "cause",
        "count",
        "pause_total_ms",
        "collection_pause_mean_ms",
        "collection_pause_max_ms",
        "share_pct",
    ])
    .numeric_from(2);
    for r in reports {
        for c in diag_of(r).map(|d| d.causes.as_slice()).unwrap_or_default() {
            t.push(vec![
                r.summary.file.clone(),
                c.cause.clone().unwrap_or_else(|| "-".into()),
                c.count.to_string(),
                opt(c.pause_total_ms, digits),
                opt(c.collection_pause_mean_ms, digits),
                opt(c.collection_pause_max_ms, digits),
                opt(c.share_pct, digits),
            ]);
        }
    }
    t
}

pub fn finding_table(reports: &[GcReport], digits: Option<usize>) -> Table {
    let mut t =
        Table::new(&["file", "finding", "count", "total_ms", "first_lines"]).numeric_from(2);
    t.numeric[4] = false;
    for r in reports {
        for f in diag_of(r)
            .map(|d| d.findings.as_slice())
            .unwrap_or_default()
        {
            let lines: Vec<String> = f.first_lines.iter().map(u64::to_string).collect();
            t.push(vec![
                r.summary.file.clone(),
                f.id.to_string(),
                f.count.to_string(),
                num(f.total_ms, digits),
                lines.join(" "),
            ]);
        }
    }
    t
}

/// The allocation, promotion and live-set figures as text lines.
pub fn diag_text(d: &crate::analyze::diag::GcDiag) -> String {
    let kb = |v: Option<f64>| crate::report::size_kb(v, "");
    let rate = |v: Option<f64>| crate::report::size_kb(v, "/s");
    // A log without the figures says so in words rather than a row of dashes.
    let mut s = match d.allocated_kb {
        None => "allocation: - (the log has no occupancy before and after two collections)\n"
            .to_string(),
        Some(a) => format!(
            "allocation: {} in total, {} mean; {}\n",
            kb(Some(a as f64)),
            rate(d.alloc_rate_kb_per_s),
            // No interval (a log without a time span): no per-interval figures, and no lone
            // unit where its length would be.
            match d.alloc_interval_s {
                Some(i) => format!(
                    "per {} s interval p50 {}, p95 {}, max {}",
                    num(i, None),
                    rate(d.alloc_rate_p50_kb_per_s),
                    rate(d.alloc_rate_p95_kb_per_s),
                    rate(d.alloc_rate_max_kb_per_s),
                ),
                None => "per interval –".to_string(),
            }
        ),
    };
    s.push_str(&match d.promoted_kb {
        None => "promotion: - (no young collection with young-generation figures)\n".to_string(),
        Some(p) => format!(
            "promotion: {} in total, {} (young collections with young-generation figures)\n",
            kb(Some(p as f64)),
            rate(d.promotion_rate_kb_per_s),
        ),
    });
    s.push_str(&format!(
        "live set: {} full/old collections, last {}, trend {}\n",
        d.live_set_collections,
        kb(d.live_set_kb.map(|v| v as f64)),
        crate::report::size_kb(d.live_set_slope_kb_per_h, "/h"),
    ));
    s
}

fn kind_table(reports: &[GcReport], digits: Option<usize>) -> Table {
    let mut t = Table::new(&[
        "file",
        "kind",
        "collector",
        "count",
        "sum_ms",
        "mean_ms",
        "p95_ms",
        "max_ms",
    ])
    .numeric_from(3);
    for r in reports {
        for k in &r.by_kind {
            t.push(vec![
                r.summary.file.clone(),
                k.kind.clone(),
                k.collector.clone(),
                k.count.to_string(),
                num(k.sum_ms, digits),
                num(k.mean_ms, digits),
                num(k.p95_ms, digits),
                num(k.max_ms, digits),
            ]);
        }
    }
    t
}

/// The table `by` picks.
fn by_table(reports: &[GcReport], by: By, digits: Option<usize>) -> Table {
    match by {
        By::Kind => kind_table(reports, digits),
        By::Band => {
            let bands = reports.iter().map(|r| (&r.summary.file, &r.bands[..]));
            super::band_table("pauses", bands, digits)
        }
        By::Cause => cause_table(reports, digits),
        By::Finding => finding_table(reports, digits),
    }
}

/// The reports in `out`'s format: JSON holds every table; CSV, TSV and Markdown the one `by`
/// picks (by kind when none is); the text format every table per log, or the one picked.
pub fn render(reports: &[GcReport], out: Output, by: Option<By>) -> String {
    match out.format {
        Format::Json | Format::Jsonl => super::json_rows(reports, out.format),
        Format::Csv | Format::Tsv | Format::Markdown => {
            out.writer()
                .write(&by_table(reports, by.unwrap_or(By::Kind), None))
        }
        Format::Table => {
            let mut out = String::new();
            for r in reports {
                let Some(g) = &r.summary.gc else { continue };
                out.push_str(&format!(
                    "{} ({}): {} collections, {} pauses, {} paused in total, longest {}, throughput {}\n",
                    r.summary.file,
                    r.summary.format,
                    g.collections,
                    g.pauses,
                    // No figure rather than a lone unit.
                    with_unit(g.pause_total_ms, 3, " ms"),
                    with_unit(g.pause_max_ms, 3, " ms"),
                    with_unit(g.throughput_pct, 3, " %"),
                ));
                if let (Some(t), Some(n)) = (g.pause_target_ms, g.pauses_over_target) {
                    out.push_str(&format!(
                        "pause target {} ms: {n} pauses over it ({} %)\n",
                        num(t, None),
                        opt(g.pauses_over_target_pct, Some(4)),
                    ));
                }
                let st = &g.stalls;
                if st.stalls > 0 {
                    // Thread stalls are not pauses: the other threads ran on.
                    out.push_str(&format!(
                        "stalls (threads waiting for the collector, not pauses): {}, {} ms in total, longest {} ms\n",
                        st.stalls,
                        num(st.stall_total_ms, Some(3)),
                        opt(st.stall_max_ms, Some(3)),
                    ));
                }
                if g.safepoint_pauses > 0 {
                    out.push_str(&format!(
                        "safepoints: {}, {} ms stopped in total{}\n",
                        g.safepoint_pauses,
                        num(g.safepoint_total_ms, Some(3)),
                        st.ttsp_max_ms
                            .map(|t| format!(", longest time to safepoint {} ms", num(t, Some(3))))
                            .unwrap_or_default(),
                    ));
                }
                let h = &r.heap;
                let kb = |v: Option<u64>| crate::report::size_kb(v.map(|v| v as f64), "");
                out.push_str(&format!(
                    "heap: capacity up to {}, before GC up to {}, after GC up to {} (mean {}), after full GC up to {}\n",
                    kb(h.capacity_max_kb),
                    kb(h.before_max_kb),
                    kb(h.after_max_kb),
                    crate::report::size_kb(h.after_mean_kb, ""),
                    kb(h.after_full_max_kb),
                ));
                if let Some(d) = diag_of(r) {
                    out.push_str(&diag_text(d));
                }
                out.push('\n');
                let table = |by| by_table(std::slice::from_ref(r), by, Some(3));
                if let Some(by) = by {
                    super::push_file_table(&mut out, table(by));
                    continue;
                }
                super::push_file_table(&mut out, table(By::Kind));
                super::push_file_table(&mut out, table(By::Band));
                let c = table(By::Cause);
                if !c.rows.is_empty() {
                    super::push_file_table(&mut out, c);
                }
                let f = table(By::Finding);
                if f.rows.is_empty() {
                    out.push_str("findings: none\n\n");
                } else {
                    super::push_file_table(&mut out, f);
                }
            }
            out
        }
    }
}

/// `write_events` failed: a frame column was not as expected, or the output could not be
/// written.
#[derive(Debug, thiserror::Error)]
pub enum EventsError {
    #[error(transparent)]
    Polars(#[from] PolarsError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The columns of `gc --events`, in order.
pub const EVENT_HEADERS: [&str; 15] = [
    "file",
    "record",
    "start_s",
    "wall_time",
    "duration_ms",
    "kind",
    "collector",
    "cause",
    "name",
    "heap_before_kb",
    "heap_after_kb",
    "heap_total_kb",
    "gc_id",
    "line",
    // Last, so that the columns before keep their places: a safepoint's time to safepoint
    // (part of its duration).
    "ttsp_ms",
];

/// Rows of the frame cast and made into text at a time: the casts (heap figures held as u32,
/// ids as i8) of the whole frame at once, and the rows held as a table of strings, were 10x a
/// 210 MB log at the peak (2.2 GB); a slice's are a few MB, its text ~1.6 MB (one a thread in
/// flight: 65536-row slices added 13-16 MB to the peak).
const EVENTS_SLICE: usize = 1 << 14;

/// How `write_events` writes a row: delimited cells under a header row, or a JSON object a
/// line keyed by `EVENT_HEADERS` (a cell left empty in CSV is null).
pub enum EventRows<'a> {
    Delimited(&'a crate::report::Delimited),
    JsonLines,
}

impl EventRows<'_> {
    /// Where a cell of column `key` begins.
    fn key(&self, out: &mut Vec<u8>, key: &str) {
        match self {
            EventRows::Delimited(d) => d.push_sep(out),
            EventRows::JsonLines => {
                out.extend_from_slice(b",\"");
                out.extend_from_slice(key.as_bytes());
                out.extend_from_slice(b"\":");
            }
        }
    }

    fn text(&self, out: &mut Vec<u8>, key: &str, s: &str) {
        self.key(out, key);
        match self {
            EventRows::Delimited(d) => d.push_cell(out, s),
            EventRows::JsonLines if s.is_empty() => out.extend_from_slice(b"null"),
            EventRows::JsonLines => crate::report::push_json_str(out, s),
        }
    }

    /// A number (`write` appends its text, or nothing where there is none).
    fn number(&self, out: &mut Vec<u8>, key: &str, write: impl FnOnce(&mut Vec<u8>)) {
        self.key(out, key);
        match self {
            EventRows::Delimited(d) => d.push_number(out, write),
            EventRows::JsonLines => {
                let at = out.len();
                write(out);
                if out.len() == at {
                    out.extend_from_slice(b"null");
                }
            }
        }
    }
}

/// Every pause (and safepoint, stall, concurrent phase with `all_records`) as a CSV or TSV
/// row, or a JSON object a line, in log order, straight to `w` (CSV's header row first when
/// `header`).
pub fn write_events(
    l: &Loaded,
    all_records: bool,
    rows: &EventRows,
    header: bool,
    w: &mut dyn std::io::Write,
) -> Result<(), EventsError> {
    let tags = crate::report::tags::get();
    if let (true, EventRows::Delimited(d)) = (header, rows) {
        let mut h: Vec<&str> = EVENT_HEADERS.to_vec();
        for (k, (key, _)) in tags.iter().enumerate() {
            h.insert(1 + k, key);
        }
        d.write_row(&h, w)?;
    }
    let f = &l.frame;
    let n = f.df.height();
    let pause = lit(Record::Pause.code());
    // A frame of one record (a scalar column: most logs without `all_records`' other
    // records) is all pauses or none, and not filtered: polars compares a scalar through an
    // array of nulls, whose first zeroes its global 8 MiB buffer (2,200 page faults, 4 ms of
    // a small log's 9).
    let one_record = match f.df.column(c::RECORD) {
        Ok(Column::Scalar(s)) => {
            Some(s.scalar().value().extract::<u8>() == Some(Record::Pause.code()))
        }
        _ => None,
    };
    // The file's cell, and the tags' after it, are the same on every row: quoted once.
    let mut file = Vec::new();
    match rows {
        EventRows::Delimited(d) => d.push_cell(&mut file, &l.label),
        EventRows::JsonLines => {
            file.extend_from_slice(b"{\"file\":");
            crate::report::push_json_str(&mut file, &l.label);
        }
    }
    for (k, v) in &tags {
        rows.text(&mut file, k, v);
    }
    // Slices made into text side by side (a slice's rows, ~100 bytes each, on each thread),
    // written in order: one thread made 2.9 M rows in 1.3 s.
    let per_round = rayon::current_num_threads().max(1);
    let offsets: Vec<usize> = (0..n).step_by(EVENTS_SLICE).collect();
    for round in offsets.chunks(per_round) {
        let texts: Vec<PolarsResult<Vec<u8>>> = round
            .par_iter()
            .map(|&off| {
                let slice = f.df.slice(off as i64, EVENTS_SLICE);
                let df = match (all_records, one_record) {
                    (true, _) | (false, Some(true)) => slice,
                    (false, Some(false)) => slice.clear(),
                    // One chunk a column, read in place below (polars' filter leaves a chunk
                    // a thread).
                    (false, None) => {
                        let mut df = slice
                            .lazy()
                            .filter(col(c::RECORD).eq(pause.clone()))
                            .collect()?;
                        df.rechunk_mut();
                        df
                    }
                };
                let mut out = Vec::with_capacity(df.height() * 128);
                event_rows(f, &df, rows, &file, &mut out)?;
                Ok(out)
            })
            .collect();
        for t in texts {
            w.write_all(&t?)?;
        }
    }
    Ok(())
}

/// The rows of `df` (a slice of `f`'s frame) appended to `out`, each after `file` (its
/// cells, and the tags'), as `write_row` writes rows or as JSON objects.
fn event_rows(
    f: &GcFrame,
    df: &DataFrame,
    rows: &EventRows,
    file: &[u8],
    out: &mut Vec<u8>,
) -> PolarsResult<()> {
    // Read as the frame holds them, a scalar as its value: cast or spread out by polars, a
    // null scalar is an array of nulls, whose first zeroes polars' global 8 MiB buffer
    // (2,200 page faults, 4 ms of a small log's 9).
    let code = |n: &str| Num::<Int8Type>::cast(df.column(n)?);
    let (rec, kind) = (code(c::RECORD)?, code(c::KIND)?);
    let id = |n: &str| IdReader::of(df.column(n)?);
    let (coll, cause, name) = (id(c::COLLECTOR)?, id(c::CAUSE)?, id(c::NAME)?);
    let record_name = |v: Option<i8>| {
        v.and_then(|v| u8::try_from(v).ok())
            .and_then(Record::from_code)
            .map_or("", Record::as_str)
    };
    let kind_name = |v: Option<i8>| {
        v.and_then(|v| u8::try_from(v).ok())
            .and_then(Kind::from_code)
            .map_or("", Kind::as_str)
    };
    let f64s = |n: &str| Num::<Float64Type>::cast(df.column(n)?);
    let (start, dur, ttsp) = (f64s(c::START_S)?, f64s(c::DURATION_MS)?, f64s(c::TTSP_MS)?);
    let wall = Num::<Int64Type>::cast(df.column(c::WALL_MS)?)?;
    let u = |n: &str| UCol::of(df.column(n)?);
    let (hb, ha, ht, gc_id, line) = (
        u(c::HEAP_BEFORE_KB)?,
        u(c::HEAP_AFTER_KB)?,
        u(c::HEAP_TOTAL_KB)?,
        u(c::GC_ID)?,
        u(c::LINE)?,
    );
    let num = |out: &mut Vec<u8>, key: &str, v: Option<f64>| {
        rows.number(out, key, |o| {
            if let Some(v) = v {
                num_into(o, v);
            }
        });
    };
    let int = |out: &mut Vec<u8>, key: &str, v: Option<u64>| {
        rows.number(out, key, |o| {
            if let Some(v) = v {
                push_u64(o, v);
            }
        });
    };
    let h = |i: usize| EVENT_HEADERS[i];
    let mut cell = Vec::new();
    for i in 0..df.height() {
        out.extend_from_slice(file);
        rows.text(out, h(1), record_name(rec.get(i)));
        num(out, h(2), start.get(i));
        cell.clear();
        if let Some(w) = wall.get(i) {
            push_wall_ms(&mut cell, w);
        }
        // chrono's text or ASCII.
        rows.text(out, h(3), std::str::from_utf8(&cell).unwrap_or_default());
        num(out, h(4), dur.get(i));
        rows.text(out, h(5), kind_name(kind.get(i)));
        for (k, id) in [&coll, &cause, &name].into_iter().enumerate() {
            rows.text(out, h(6 + k), f.string(id.get(i)));
        }
        for (k, v) in [&hb, &ha, &ht, &gc_id, &line].into_iter().enumerate() {
            int(out, h(9 + k), v.get(i));
        }
        num(out, h(14), ttsp.get(i));
        if let EventRows::JsonLines = rows {
            out.push(b'}');
        }
        out.push(b'\n');
    }
    Ok(())
}
