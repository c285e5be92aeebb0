//! `gcperf summary`: one row (or JSON object) per input file.

use super::{num, opt, opt_count, Format, Output, Table};
use crate::analyze::gc::GcSummary;
use crate::analyze::perf::{PerfOptions, PerfSummary};
use crate::analyze::slo::{self, Objective, Verdict};
use crate::error::escape;
use crate::load::{Input, Loaded, LoadedPerf};
use serde::Serialize;
use serde_json::Value;

/// One file's summary, as the JSON contract names it.
#[derive(Debug, Clone, Serialize)]
pub struct FileSummary {
    pub file: String,
    pub kind: &'static str,
    pub format: &'static str,
    pub lines: u64,
    pub skipped_lines: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc: Option<GcSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perf: Option<PerfSummary>,
    /// The verdicts of `--slo`, when objectives were given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slo: Vec<Verdict>,
}

impl FileSummary {
    pub fn gc(l: &Loaded, gc: GcSummary) -> Self {
        FileSummary {
            file: l.label.clone(),
            kind: l.kind(),
            format: l.format.as_str(),
            lines: l.log.lines,
            skipped_lines: l.log.skipped_lines,
            gc: Some(gc),
            perf: None,
            slo: Vec::new(),
        }
    }

    /// Analyse any input.
    pub fn of(i: &Input, o: &PerfOptions) -> polars::prelude::PolarsResult<Self> {
        Self::of_target(i, o, None)
    }

    /// Analyse any input; a GC log's pauses are counted against `pause_target_ms`, else
    /// against the target its log states (JRockit's deterministic GC).
    pub fn of_target(
        i: &Input,
        o: &PerfOptions,
        pause_target_ms: Option<f64>,
    ) -> polars::prelude::PolarsResult<Self> {
        Ok(match i {
            Input::Gc(l) => {
                let interval_s = o.interval_ms.map(|ms| ms as f64 / 1000.0);
                FileSummary::gc(l, gc_summary_interval(l, pause_target_ms, interval_s)?)
            }
            Input::Perf(l) => FileSummary {
                file: l.label.clone(),
                kind: i.kind(),
                format: l.format.as_str(),
                lines: l.log.lines,
                skipped_lines: l.log.skipped_lines,
                gc: None,
                perf: Some(crate::analyze::perf::summary(&l.frame, o)?),
                slo: Vec::new(),
            },
        })
    }

    /// Judge the run against `objectives` (with `per_op`, each operation too).
    pub fn judge(&mut self, objectives: &[Objective], per_op: bool) {
        self.slo = slo::evaluate(objectives, self.gc.as_ref(), self.perf.as_ref(), per_op);
    }
}

/// A GC log's summary with its pause-target figures (`target`, else the log's own) and the
/// interval of the per-interval figures (allocation rates, GC overhead), seconds; None:
/// chosen from the span.
pub fn gc_summary_interval(
    l: &Loaded,
    target: Option<f64>,
    interval_s: Option<f64>,
) -> polars::prelude::PolarsResult<GcSummary> {
    let target = target.or_else(|| slo::meta_pause_target(&l.log.meta));
    let o = crate::analyze::diag::DiagOptions {
        interval_s,
        pause_target_ms: target,
        meta: l.log.meta.clone(),
    };
    // Side by side (see `summary_and_diag`): the summary reads the pauses in place (it once
    // copied them, 70 MB for a 2 GB log, and so ran alone).
    let (mut g, diag) = crate::analyze::gc::summary_and_diag(&l.frame, &o)?;
    if let Some(t) = target {
        slo::apply_pause_target(&mut g, &l.frame, t)?;
    }
    // Pauses the log holds and the rows do not (metronome's heartbeats): the time outside
    // the pauses is unknown.
    if l.log.uncounted().is_some() {
        g.throughput_pct = None;
    }
    g.diag = Some(diag);
    Ok(g)
}

/// A file's outcome: its summary, or the error that stopped it.
#[derive(Debug, Clone)]
pub enum Outcome {
    Ok(Box<FileSummary>),
    Failed { file: String, error: String },
}

impl Outcome {
    /// The summary, where the input was read.
    pub fn summary(&self) -> Option<&FileSummary> {
        match self {
            Outcome::Ok(s) => Some(s),
            Outcome::Failed { .. } => None,
        }
    }
}

/// The performance figures of the spreadsheet columns (see `columns`).
const PERF_COLUMNS: [&str; 17] = [
    "requests",
    "errors",
    "error_pct",
    "inconsistent",
    "first",
    "last",
    "throughput_per_s",
    "total_ms_mean",
    "total_ms_p50",
    "total_ms_p90",
    "total_ms_p95",
    "total_ms_p99",
    "total_ms_max",
    "total_ms_sum",
    "java_ms_sum",
    "db_ms_sum",
    "db_share_pct",
];

/// The columns shown to people in the text table (all columns go to CSV/TSV/JSON).
const TEXT_GC: [&str; 7] = [
    "collections",
    "pauses",
    "pause_total_ms",
    "pause_max_ms",
    "pause_p95_ms",
    "full_collections",
    "throughput_pct",
];
const TEXT_PERF: [&str; 6] = [
    "requests",
    "error_pct",
    "throughput_per_s",
    "total_ms_p95",
    "total_ms_max",
    "db_share_pct",
];

/// Which optional GC columns people see: the pause target's, the stalls', the longest time to
/// safepoint (each where some run has it).
#[derive(Debug, Clone, Copy, Default)]
struct Shown {
    target: bool,
    stalls: bool,
    ttsp: bool,
}

/// Stable, unit-suffixed columns for spreadsheets: the file, the GC figures, the
/// performance figures (one `over_<ms>ms_pct` per threshold), the error. A GC log leaves the
/// performance columns empty and the other way round. The GC figures are those `--slo`
/// names (`slo::GC_KEYS`, `slo::DIAG_KEYS`) but the concurrent phases, then the findings.
/// The text table shows fewer (`TEXT_GC`, `TEXT_PERF`, and the optional ones of `Shown`).
fn columns(over: &[f64], gc: bool, perf: bool, text: bool, shown: Shown) -> Vec<String> {
    let mut c = vec!["file".to_string(), "kind".into(), "format".into()];
    if !text {
        c.extend(["lines", "skipped_lines"].map(String::from));
    }
    if gc {
        if text {
            c.extend(TEXT_GC.iter().map(|s| s.to_string()));
        } else {
            let figures = slo::GC_KEYS.iter().filter(|&&k| k != "concurrent_phases");
            let all = figures.chain(&slo::DIAG_KEYS).chain(&["findings"]);
            c.extend(all.map(|s| s.to_string()));
        }
        // People see the pause target where a run has one.
        if text && shown.target {
            c.extend(["pause_target_ms", "pauses_over_target"].map(String::from));
        }
        // Stalls and safepoint reaches are not pauses: their own columns, where a run has them.
        if text && shown.stalls {
            c.extend(["stalls", "stall_total_ms"].map(String::from));
        }
        if text && shown.ttsp {
            c.push("ttsp_max_ms".into());
        }
    }
    if perf {
        let p: &[&str] = if text { &TEXT_PERF } else { &PERF_COLUMNS };
        c.extend(p.iter().map(|s| s.to_string()));
        if text && !gc {
            c.push("span_s".into());
        }
        c.extend(
            over.iter()
                .map(|ms| format!("over_{}ms_pct", num(*ms, None))),
        );
    }
    c.push("error".into());
    c
}

/// Every column name of the spreadsheet summary (its `over_<N>ms_pct` columns aside).
pub fn all_columns() -> Vec<String> {
    columns(&[], true, true, false, Shown::default())
}

/// Every value of a row by column name.
fn cells(o: &Outcome, digits: Option<usize>) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, val: String| v.push((k.to_string(), val));
    let fig = |v: Option<f64>| opt(v, digits);
    match o {
        Outcome::Failed { file, error } => {
            put("file", file.clone());
            put("error", error.clone());
        }
        Outcome::Ok(s) => {
            put("file", s.file.clone());
            put("kind", s.kind.to_string());
            put("format", s.format.to_string());
            put("lines", s.lines.to_string());
            put("skipped_lines", s.skipped_lines.to_string());
            if let Some(g) = &s.gc {
                put("collections", g.collections.to_string());
                put("pauses", g.pauses.to_string());
                put("pause_total_ms", fig(g.pause_total_ms));
                put("pause_max_ms", fig(g.pause_max_ms));
                put("pause_mean_ms", fig(g.pause_mean_ms));
                put("pause_p50_ms", fig(g.pause_p50_ms));
                put("pause_p95_ms", fig(g.pause_p95_ms));
                put("pause_p99_ms", fig(g.pause_p99_ms));
                put("full_collections", g.full_collections.to_string());
                put("safepoint_pauses", g.safepoint_pauses.to_string());
                put("safepoint_total_ms", num(g.safepoint_total_ms, digits));
                put("restarts", g.restarts.to_string());
                put("span_s", fig(g.span_s));
                put("throughput_pct", fig(g.throughput_pct));
                put("heap_max_kb", opt_count(g.heap_max_kb));
                put("pause_target_ms", fig(g.pause_target_ms));
                put("pauses_over_target", opt_count(g.pauses_over_target));
                put(
                    "pauses_over_target_pct",
                    opt(g.pauses_over_target_pct, digits.map(|d| d.max(4))),
                );
                put("stalls", g.stalls.stalls.to_string());
                put("stall_total_ms", num(g.stalls.stall_total_ms, digits));
                put("stall_max_ms", fig(g.stalls.stall_max_ms));
                put("ttsp_max_ms", fig(g.stalls.ttsp_max_ms));
                if let Some(d) = &g.diag {
                    put("allocated_kb", opt_count(d.allocated_kb));
                    put("alloc_rate_kb_per_s", fig(d.alloc_rate_kb_per_s));
                    put("alloc_rate_p50_kb_per_s", fig(d.alloc_rate_p50_kb_per_s));
                    put("alloc_rate_p95_kb_per_s", fig(d.alloc_rate_p95_kb_per_s));
                    put("alloc_rate_max_kb_per_s", fig(d.alloc_rate_max_kb_per_s));
                    put("alloc_interval_s", fig(d.alloc_interval_s));
                    put("promoted_kb", opt_count(d.promoted_kb));
                    put("promotion_rate_kb_per_s", fig(d.promotion_rate_kb_per_s));
                    put("live_set_collections", d.live_set_collections.to_string());
                    put("live_set_kb", opt_count(d.live_set_kb));
                    put("live_set_slope_kb_per_h", fig(d.live_set_slope_kb_per_h));
                    put("findings", findings_text(&d.findings));
                }
            }
            if let Some(p) = &s.perf {
                put("requests", p.requests.to_string());
                put("errors", p.errors.to_string());
                // Shares keep full precision in CSV: 0.0001 % must survive.
                put("error_pct", opt(p.error_pct, digits.map(|d| d.max(4))));
                put("inconsistent", p.inconsistent.to_string());
                put("first", p.first.clone().unwrap_or_default());
                put("last", p.last.clone().unwrap_or_default());
                put("span_s", fig(p.span_s));
                put("throughput_per_s", fig(p.throughput_per_s));
                put("total_ms_mean", fig(p.total_ms_mean));
                put("total_ms_p50", fig(p.total_ms_p50));
                put("total_ms_p90", fig(p.total_ms_p90));
                put("total_ms_p95", fig(p.total_ms_p95));
                put("total_ms_p99", fig(p.total_ms_p99));
                put("total_ms_max", fig(p.total_ms_max));
                put("total_ms_sum", num(p.total_ms_sum, digits));
                put("java_ms_sum", fig(p.java_ms_sum));
                put("db_ms_sum", fig(p.db_ms_sum));
                put("db_share_pct", fig(p.db_share_pct));
                for o in &p.over {
                    put(
                        &format!("over_{}ms_pct", num(o.ms, None)),
                        opt(o.share_pct, digits.map(|d| d.max(4))),
                    );
                }
            }
        }
    }
    v
}

/// Many runs' pauses (`gc`) or request times as one distribution: their sketches merged
/// (`analyze::sketch`); None where no run has such values.
pub fn pooled<'a>(
    runs: impl IntoIterator<Item = &'a FileSummary>,
    gc: bool,
) -> Option<crate::analyze::sketch::Sketch> {
    crate::analyze::sketch::Sketch::merge_all(runs.into_iter().filter_map(|s| match gc {
        true => s.gc.as_ref()?.pause_ms_sketch.as_ref(),
        false => s.perf.as_ref()?.total_ms_sketch.as_ref(),
    }))
}

/// An input's object in JSON and JSON Lines: its summary, or its file and error
/// (schema/summary.schema.json).
pub fn json_value(o: &Outcome) -> Value {
    match o {
        Outcome::Ok(s) => serde_json::to_value(s).unwrap_or(Value::Null),
        Outcome::Failed { file, error } => serde_json::json!({ "file": file, "error": error }),
    }
}

pub fn render(outcomes: &[Outcome], out: Output) -> String {
    let format = out.format;
    if format.is_json() {
        let v: Vec<Value> = outcomes.iter().map(json_value).collect();
        return super::json_rows(&v, format);
    }
    if matches!(format, Format::Table | Format::Markdown) {
        return people_tables(outcomes, out);
    }
    out.writer().write(&table(outcomes, format))
}

/// Text and Markdown: GC logs and performance logs have few columns in common, so a mix gets
/// a table per kind (under a heading each, as `compare` prints them) and the inputs that could
/// not be read a table of their own; one kind gets one table. Nothing at all for no input,
/// and no `error` column where no input has an error.
fn people_tables(outcomes: &[Outcome], out: Output) -> String {
    if outcomes.is_empty() {
        return String::new();
    }
    let is = |gc: bool| move |o: &&Outcome| matches!(o, Outcome::Ok(s) if s.gc.is_some() == gc && (s.gc.is_some() || s.perf.is_some()));
    let gc: Vec<&Outcome> = outcomes.iter().filter(is(true)).collect();
    let perf: Vec<&Outcome> = outcomes.iter().filter(is(false)).collect();
    let w = out.writer();
    let write = |t: Table| w.write(&drop_empty_error(t));
    let mut failed = Table::new(&["file", "error"]);
    for o in outcomes {
        if let Outcome::Failed { file, error } = o {
            failed.push(vec![file.clone(), error.clone()]);
        }
    }
    // Nothing read: the files and their errors, not empty GC columns.
    if gc.is_empty() && perf.is_empty() && failed.rows.len() == outcomes.len() {
        return w.write(&failed);
    }
    if gc.is_empty() || perf.is_empty() {
        return write(table(outcomes, out.format));
    }
    let md = out.format == Format::Markdown;
    let mut s = String::new();
    let mut section = |title: &str, body: String| {
        super::push_heading(&mut s, title, md);
        s.push_str(&body);
    };
    section("GC logs", write(table(&gc, out.format)));
    section("Performance logs", write(table(&perf, out.format)));
    if !failed.rows.is_empty() {
        section("Not read", w.write(&failed));
    }
    s
}

/// The table without its last column when that is an `error` column with nothing in it.
fn drop_empty_error(mut t: Table) -> Table {
    let last = t.headers.len().saturating_sub(1);
    let empty = t
        .rows
        .iter()
        .all(|r| r.get(last).is_none_or(String::is_empty));
    if t.headers.last().is_some_and(|h| h == "error") && empty {
        t.headers.pop();
        t.numeric.pop();
        t.rows.iter_mut().for_each(|r| r.truncate(last));
    }
    t
}

/// The summary as a table: people's columns rounded (text, Markdown, HTML), or every column
/// at full precision (CSV, TSV).
pub fn table<O: std::borrow::Borrow<Outcome>>(outcomes: &[O], format: Format) -> Table {
    let ok = || outcomes.iter().filter_map(|o| o.borrow().summary());
    // Markdown is for people too: the text table's columns and rounding.
    let text = matches!(format, Format::Table | Format::Markdown);
    let any_perf = ok().any(|s| s.perf.is_some());
    // Spreadsheets get every GC column always (stable layout); perf columns when a perf log
    // is among the inputs.
    let any_gc = !text || ok().any(|s| s.gc.is_some()) || !any_perf;
    let over: Vec<f64> = ok()
        .find_map(|s| {
            s.perf
                .as_ref()
                .map(|p| p.over.iter().map(|o| o.ms).collect())
        })
        .unwrap_or_default();
    let any = |f: &dyn Fn(&GcSummary) -> bool| ok().any(|s| s.gc.as_ref().is_some_and(f));
    let shown = Shown {
        target: any(&|g| g.pause_target_ms.is_some()),
        stalls: any(&|g| g.stalls.stalls > 0),
        ttsp: any(&|g| g.stalls.ttsp_max_ms.is_some()),
    };
    let cols = columns(&over, any_gc, any_perf, text, shown);
    let mut t = Table::new(&cols);
    if text {
        t = t.numeric_from(3);
        t.numeric[cols.len() - 1] = false;
    }
    for o in outcomes.iter().map(std::borrow::Borrow::borrow) {
        let c = cells(o, text.then_some(3));
        let cell = |k: &String| c.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone());
        t.push(cols.iter().map(|k| cell(k).unwrap_or_default()).collect());
    }
    t
}

/// The findings in one cell: `id:count` joined by spaces (`explicit-gc:2 full-gc:1`).
pub fn findings_text(f: &[crate::analyze::diag::Finding]) -> String {
    let v: Vec<String> = f.iter().map(|x| format!("{}:{}", x.id, x.count)).collect();
    v.join(" ")
}

/// What an input's figures rest on, said on stderr though nothing is left out (no `--strict`
/// failure): where the JVM restarted in a GC log, how a JMeter log's stamps were read.
pub fn said_notes(input: &Input) -> Vec<String> {
    let restart = input.gc().and_then(restart_note);
    restart
        .into_iter()
        .chain(input.perf().and_then(stamps_note))
        .collect()
}

/// Where the JVM restarted within a GC log (its uptime went back to 0), if it did.
fn restart_note(g: &Loaded) -> Option<String> {
    let starts = crate::analyze::gc::run_starts(&g.frame).ok()?;
    if starts.is_empty() {
        return None;
    }
    let at: Vec<String> = starts
        .iter()
        .take(3)
        .map(|(line, up)| match up {
            Some(u) => format!("line {line}, uptime {} s", num(*u, Some(3))),
            None => format!("line {line}"),
        })
        .collect();
    let more = if starts.len() > 3 { ", ..." } else { "" };
    Some(format!(
        "gcperf: {}: the JVM restarted {} time{} ({}{more}): span and throughput are per run, summed",
        escape(&g.label),
        starts.len(),
        if starts.len() == 1 { "" } else { "s" },
        at.join("; ")
    ))
}

/// A JMeter log read with its stamps as the requests' ends (`model::StampOrder::ends`): what
/// the threads' requests showed. A note, not a warning: nothing is left out.
fn stamps_note(p: &LoadedPerf) -> Option<String> {
    let o = p.log.stamps;
    o.ends().then(|| {
        format!(
            "gcperf: {}: timeStamp read as each request's end, not its start: read as starts, \
             {} of the {} requests that follow another on their thread would begin before it \
             ended; read as ends, {} (JMeter before 2006 stamps ends, as later ones do with \
             sampleresult.timestamp.start=false)",
            escape(&p.label),
            o.overlap_as_starts,
            o.pairs,
            o.overlap_as_ends
        )
    })
}
