//! `gcperf report`: a folder of runs in, a report folder out. Every log gets its charts;
//! `summary.csv` has a row per input (an unreadable one included, with its error),
//! `operations.csv` a row per file and operation, `index.html` ranks the runs and
//! `runs/<stem>.html` shows each (`report::page`); the pages open from disk and fetch
//! nothing.
//!
//! Inputs are processed one at a time per core, each dropped once its figures and charts are
//! done, so a folder of any size needs the memory of a core's worth of logs. `ordered` does
//! that for every command that reads inputs one by one.

use super::page;
use super::perf::ops_table;
use super::summary::{self, FileSummary, Outcome};
use super::{Format, Output};
use crate::error::{escape_path, Error};
use crate::load::{self, Input};
use crate::render::charts::{charts_for, ChartKind, ChartSettings};
use std::path::{Path, PathBuf};

/// What became of one input.
#[derive(Debug)]
pub struct Entry {
    pub outcome: Outcome,
    /// The anchor and chart-file stem of this input on the page.
    pub stem: String,
    /// Charts written, relative to the report folder (`charts/<stem>-<chart>.png`).
    pub charts: Vec<String>,
    /// Why charts are missing, when drawing failed (the figures still stand), and whether
    /// it was their files that could not be written (an output error: exit 2).
    pub chart_error: Option<String>,
    pub charts_unwritten: bool,
    /// Lines not understood, and the first few of them (line number, text).
    pub skipped: u64,
    pub bad: Vec<(u64, String)>,
    /// What else was left out, one message each (damaged gzip, parts not joined).
    pub notes: Vec<String>,
    /// What the figures rest on, nothing left out (`report::summary::said_notes`).
    pub said: Vec<String>,
    /// The wall-clock span of a log that has one: how `report` pairs GC and performance
    /// logs of the same run (`report::correlate::pairs`).
    pub span: Option<Span>,
    /// The figures only the report's pages show.
    pub extras: Extras,
    /// The charts' size in pixels, for the pages to reserve their room.
    pub chart_size: (u32, u32),
}

impl Entry {
    /// An input that gives no figures: `error` says why.
    fn failed(
        file: String,
        error: String,
        stem: &str,
        notes: Vec<String>,
        settings: &Settings,
    ) -> Entry {
        Entry {
            outcome: Outcome::Failed { file, error },
            stem: stem.to_string(),
            charts: Vec::new(),
            chart_error: None,
            charts_unwritten: false,
            skipped: 0,
            bad: Vec::new(),
            notes,
            said: Vec::new(),
            span: None,
            extras: Extras::default(),
            chart_size: (settings.charts.size.width, settings.charts.size.height),
        }
    }

    /// Something of this input was not reported: the input, some of its lines or parts, or
    /// its charts (`--strict` exits 4).
    pub fn incomplete(&self) -> bool {
        matches!(self.outcome, Outcome::Failed { .. })
            || self.skipped > 0
            || !self.notes.is_empty()
            || self.chart_error.is_some()
    }
}

/// What a run's page shows beyond its summary.
#[derive(Debug, Default)]
pub struct Extras {
    /// A performance run's APDEX.
    pub apdex: Option<crate::analyze::perf::Apdex>,
    /// A performance run's figures per interval.
    pub over_time: Option<crate::analyze::perf::OverTime>,
    /// A GC run's largest heap after a collection, KiB: the footprint its live data needed.
    pub heap_after_max_kb: Option<f64>,
}

/// What `report` draws and reckons: the charts, and APDEX's thresholds.
pub struct Settings {
    pub charts: ChartSettings,
    /// APDEX's satisfied and tolerated thresholds, ms.
    pub apdex_ms: (f64, f64),
}

/// Most error messages a run's over-time table counts per interval.
const OVER_TIME_MESSAGES: usize = 4;

/// Fewest values a report's histogram is drawn of: fewer read better in the run's table.
const HISTOGRAM_MIN: u64 = 20;

/// Whether a chart says something of a run that its page's tables do not: a heap chart
/// needs heap figures, a histogram `HISTOGRAM_MIN` values, the operations chart a Java/DB
/// split or two operations. (`chart` draws what it is asked for; a report of 1,000 logs drew
/// 2,458 charts, a third of them empty or of a handful of values.)
/// `--pause-bands` given: the histogram is what was asked for, drawn whatever its count.
fn applies(k: ChartKind, s: &FileSummary, x: &Extras, c: &ChartSettings) -> bool {
    let pauses = s.gc.as_ref().map_or(0, |g| g.pauses);
    let perf = s.perf.as_ref();
    match k {
        ChartKind::Heap => x.heap_after_max_kb.is_some(),
        ChartKind::PauseHistogram => {
            pauses > 0 && (pauses >= HISTOGRAM_MIN || !c.gc_bands.is_empty())
        }
        ChartKind::LatencyHistogram => perf.is_some_and(|p| p.requests >= HISTOGRAM_MIN),
        ChartKind::Split => perf.is_some_and(|p| p.java_ms_sum.is_some() || p.operations.len() > 1),
        ChartKind::Pauses | ChartKind::Timeline | ChartKind::LoadCurve => true,
    }
}

/// The extras of a loaded input (`Extras`).
fn extras(
    input: &Input,
    s: &FileSummary,
    settings: &Settings,
) -> polars::prelude::PolarsResult<Extras> {
    use crate::analyze::perf;
    use polars::prelude::*;
    let o = &settings.charts.perf;
    match input {
        Input::Gc(l) => {
            let max = l
                .frame
                .df
                .column(crate::frame::gc::HEAP_AFTER_KB)?
                .cast(&DataType::Float64)?
                .f64()?
                .max();
            Ok(Extras {
                heap_after_max_kb: max.filter(|v| v.is_finite()),
                ..Extras::default()
            })
        }
        Input::Perf(l) => {
            let (t, f) = settings.apdex_ms;
            let apdex = perf::apdex(&l.frame, o, t, f)?;
            let Some(p) = &s.perf else {
                return Ok(Extras::default());
            };
            let span_ms = p.span_s.map_or(0, |v| (v * 1000.0) as i64);
            let messages: Vec<String> = p
                .error_messages
                .iter()
                .take(OVER_TIME_MESSAGES)
                .map(|m| m.message.clone())
                .collect();
            let over_time = match (p.requests, perf::table_interval_ms(span_ms)) {
                (1.., Some(iv)) => Some(perf::over_time(&l.frame, o, iv, &messages)?),
                _ => None,
            };
            Ok(Extras {
                apdex: Some(apdex),
                over_time,
                heap_after_max_kb: None,
            })
        }
    }
}

/// Where an input is on the wall clock, and how to read it again.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// First and last time, epoch ms as the log writes it (local taken as UTC; UTC for epoch
    /// stamps).
    pub first_ms: i64,
    pub last_ms: i64,
    pub gc: bool,
    /// Epoch stamps (JMeter, Grinder): UTC, not the host's local time.
    pub utc: bool,
    /// The files read, and which part of them (see `Input::part`).
    pub group: Vec<PathBuf>,
    pub part: u32,
}

/// The span of a loaded input, where its times are wall-clock ones.
fn span_of(input: &Input, group: &[PathBuf]) -> Option<Span> {
    use polars::prelude::*;
    let (col, gc, utc) = match input {
        Input::Gc(l) => (
            l.frame.df.column(crate::frame::gc::WALL_MS).ok()?,
            true,
            false,
        ),
        Input::Perf(l) => (
            l.frame.df.column(crate::frame::perf::END_MS).ok()?,
            false,
            l.utc(),
        ),
    };
    let c = col.i64().ok()?;
    Some(Span {
        first_ms: c.min()?,
        last_ms: c.max()?,
        gc,
        utc,
        group: group.to_vec(),
        part: input.part(),
    })
}

/// How an input with neither GC nor performance records is named (the start of its error).
pub const UNRECOGNISED: &str = "no GC or performance records found";

/// The error of an input, without the file name (the row names the file).
pub fn error_text(e: &Error) -> String {
    let s = e.to_string();
    let rest = e
        .path()
        .and_then(|p| s.strip_prefix(&format!("{}: ", escape_path(p))));
    rest.map_or_else(|| s.clone(), str::to_string)
}

/// Load one input: a file (several inputs when it changes log family mid-way), or the parts
/// of a rotated or joined set. Parts that cannot be joined are left out and returned beside
/// it.
pub fn load_group(group: &[PathBuf]) -> (Result<Vec<Input>, Error>, Vec<Error>) {
    match group {
        [one] => (load::load_file(one), Vec::new()),
        _ => {
            let (l, errors) = load::load_joined(group);
            let r = l.map(|l| vec![l]).ok_or_else(|| Error::NothingRecognised {
                path: group.first().cloned().unwrap_or_default(),
            });
            (r, errors)
        }
    }
}

/// The chart-file stem of an input: its file's, and `-part2` etc. for the parts of a file
/// that changes family.
pub fn part_stem(stem: &str, input: &Input) -> String {
    match input.part() {
        0 | 1 => stem.to_string(),
        n => format!("{stem}-part{n}"),
    }
}

/// Run `work(i)` for every `i` in `0..n`, at most `workers` at a time, and hand each result to
/// `emit` in index order as soon as those before it are done: output and messages keep the
/// argument order while every input is dropped as soon as its own work is done. Plain
/// threads, not rayon tasks: a rayon worker waiting inside a log's parallel parse would steal
/// the next input and hold several logs in memory at once; here at most `workers` are in
/// flight, each parsed on the rayon pool.
pub fn ordered<T: Send>(
    n: usize,
    workers: usize,
    work: &(dyn Fn(usize) -> T + Sync),
    emit: &mut (dyn FnMut(usize, T) + Send),
) {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    // The next index to emit, results done out of turn, and the sink.
    let state = Mutex::new((0usize, BTreeMap::new(), emit));
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1).min(n.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let t = work(i);
                let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
                let (turn, waiting, emit) = &mut *s;
                waiting.insert(i, t);
                while let Some(t) = waiting.remove(turn) {
                    emit(*turn, t);
                    *turn += 1;
                }
            });
        }
    });
}

/// Read one input (a file, or the parts of a rotated set), work out its figures, draw its
/// charts into `dir/charts`, and let it go. A file that changes log family gives an entry
/// per part.
pub fn process(group: &[PathBuf], stem: &str, dir: &Path, settings: &Settings) -> Vec<Entry> {
    let file = group.first().map(|p| load::name_of(p)).unwrap_or_default();
    let failed = |error: String, notes: Vec<String>| {
        Entry::failed(file.clone(), error, stem, notes, settings)
    };
    let (loaded, part_errors) = load_group(group);
    let notes: Vec<String> = part_errors
        .iter()
        .map(|e| format!("{e} (left out of the joined log)"))
        .collect();
    match loaded {
        Ok(inputs) => {
            let mut out = Vec::with_capacity(inputs.len());
            for (k, input) in inputs.into_iter().enumerate() {
                let notes = if k == 0 { notes.clone() } else { Vec::new() };
                let stem = part_stem(stem, &input);
                let span = span_of(&input, group);
                let said = super::summary::said_notes(&input);
                // `--skip/--from/--to` on a GC log: the figures and charts of its window.
                let input = match crate::analyze::window::apply_input(
                    &settings.charts.gc_window,
                    input,
                    false,
                ) {
                    Ok(i) => i,
                    Err(e) => {
                        out.push(failed(e, notes));
                        continue;
                    }
                };
                let mut e = process_input(input, &stem, dir, settings, notes);
                e.span = span;
                e.said = said;
                out.push(e);
            }
            out
        }
        Err(e) => vec![failed(error_text(&e), notes)],
    }
}

/// One loaded input's figures and charts.
fn process_input(
    input: Input,
    stem: &str,
    dir: &Path,
    settings: &Settings,
    mut notes: Vec<String>,
) -> Entry {
    let file = crate::error::escape(input.label()).into_owned();
    notes.extend(
        input
            .warnings()
            .iter()
            .map(|w| format!("{}: {w}", input.label())),
    );
    let mut entry = Entry {
        skipped: input.skipped_lines(),
        bad: input
            .bad()
            .iter()
            .map(|b| (b.line, b.text.clone()))
            .collect(),
        ..Entry::failed(file.clone(), String::new(), stem, notes, settings)
    };
    let c = &settings.charts;
    let analysed = FileSummary::of_target(&input, &c.perf, c.pause_target_ms)
        .and_then(|s| extras(&input, &s, settings).map(|x| (s, x)));
    entry.outcome = match analysed {
        Ok((s, x)) => {
            entry.extras = x;
            Outcome::Ok(Box::new(s))
        }
        Err(e) => Outcome::Failed {
            file,
            error: format!("analysis failed: {e}"),
        },
    };
    if let Outcome::Ok(s) = &entry.outcome {
        let charts = dir.join("charts");
        let path_for = |chart: &str| charts.join(format!("{stem}-{chart}.png"));
        let c = ChartSettings {
            kinds: c
                .kinds
                .iter()
                .copied()
                .filter(|&k| applies(k, s, &entry.extras, c))
                .collect(),
            ..c.clone()
        };
        match charts_for(&input, &c, &path_for) {
            Ok(written) => {
                entry.charts = written
                    .iter()
                    .filter_map(|p| p.file_name())
                    .map(|n| format!("charts/{}", n.to_string_lossy()))
                    .collect();
            }
            Err(e) => {
                entry.charts_unwritten = e.unwritten();
                entry.chart_error = Some(e.to_string());
            }
        }
    }
    entry
}

/// Write `summary.csv`, `operations.csv`, `index.html` and a page per run into `dir`;
/// returns the paths of the files at its top. `pairs`: the correlated GC and performance
/// logs.
pub fn write(
    dir: &Path,
    entries: &[Entry],
    pairs: &[super::correlate::Pair],
    out: Output,
) -> std::io::Result<Vec<PathBuf>> {
    let csv = Output {
        format: Format::Csv,
        ..out
    };
    let mut written = Vec::new();
    let mut write_csv = |name: &str, t: &super::Table| {
        let path = dir.join(name);
        crate::output::write(&path, csv.finish(csv.writer().write(t)))?;
        written.push(path);
        std::io::Result::Ok(())
    };
    let outcomes: Vec<&Outcome> = entries.iter().map(|e| &e.outcome).collect();
    write_csv("summary.csv", &summary::table(&outcomes, Format::Csv))?;
    let perf: Vec<FileSummary> = ok(entries).filter(|s| s.perf.is_some()).cloned().collect();
    write_csv("operations.csv", &ops_table(&perf, None))?;
    // The verdicts of --slo: slo.csv, and tables on the pages.
    let verdicts = verdicts(entries);
    if !verdicts.is_empty() {
        write_csv("slo.csv", &super::slo::table(&verdicts))?;
    }
    let runs = dir.join(page::RUNS);
    std::fs::create_dir_all(&runs)?;
    let by_slo = entries
        .iter()
        .any(|e| matches!(&e.outcome, Outcome::Ok(s) if !s.slo.is_empty()));
    for gc in [true, false] {
        let ranked = page::ranked(entries, gc, by_slo);
        let n = ranked.len();
        for (i, (e, s)) in ranked.into_iter().enumerate() {
            let mine: Vec<&super::correlate::Pair> = pairs
                .iter()
                .filter(|p| p.gc_stem == e.stem || p.perf_stem == e.stem)
                .collect();
            let html = page::run(e, s, Some((i, n, page::ranked_by(gc, by_slo))), &mine);
            crate::output::write(&runs.join(format!("{}.html", e.stem)), html)?;
        }
    }
    let index = dir.join("index.html");
    crate::output::write(&index, page::index(entries, pairs, &intro(entries)))?;
    written.push(index);
    Ok(written)
}

/// Each reported run's `--slo` verdicts, for runs that have some.
fn verdicts(entries: &[Entry]) -> Vec<(&str, &[crate::analyze::slo::Verdict])> {
    ok(entries)
        .filter(|s| !s.slo.is_empty())
        .map(|s| (s.file.as_str(), s.slo.as_slice()))
        .collect()
}

fn ok(entries: &[Entry]) -> impl Iterator<Item = &FileSummary> {
    entries.iter().filter_map(|e| e.outcome.summary())
}

/// The index's opening paragraph: what was read.
fn intro(entries: &[Entry]) -> String {
    let (mut gc, mut perf, mut failed, mut unknown) = (0, 0, 0, 0);
    for e in entries {
        match &e.outcome {
            Outcome::Ok(s) if s.kind == "gc" => gc += 1,
            Outcome::Ok(_) => perf += 1,
            // Read, but neither kind: not a GC or performance log (not "not readable").
            Outcome::Failed { error, .. } if error.starts_with(UNRECOGNISED) => unknown += 1,
            Outcome::Failed { .. } => failed += 1,
        }
    }
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let mut others = Vec::new();
    if unknown > 0 {
        others.push(format!(
            "{unknown} not a GC or performance log{}",
            s(unknown)
        ));
    }
    if failed > 0 || unknown == 0 {
        others.push(format!("{failed} not readable"));
    }
    format!(
        "<p>{} input{}: {gc} GC log{}, {perf} performance log{}, {}. \
         Made by gcperf {}. Every figure of every run also in <a href=\"summary.csv\">summary.csv</a> and \
         <a href=\"operations.csv\">operations.csv</a>.</p>\n",
        entries.len(),
        s(entries.len()),
        s(gc),
        s(perf),
        others.join(", "),
        env!("CARGO_PKG_VERSION"),
    ) + &super::page::tags_line()
}

#[cfg(test)]
mod tests {
    use crate::report::{Html, Table, TableWriter};

    #[test]
    fn html_tables_escape_markup() {
        let mut t = Table::new(&["file", "n"]).numeric_from(1);
        t.push(vec!["<a&b>\"x\".log".into(), "3".into()]);
        assert_eq!(
            Html.write(&t),
            "<table>\n<thead><tr><th>file</th><th class=\"n\">n</th></tr></thead>\n<tbody>\n\
             <tr><td>&lt;a&amp;b&gt;&quot;x&quot;.log</td><td class=\"n\">3</td></tr>\n</tbody>\n</table>\n"
        );
    }
}
