//! `gcperf report`: a folder of runs in, a report folder out. Every log gets its charts;
//! `summary.csv` has a row per input (an unreadable one included, with its error),
//! `operations.csv` a row per file and operation, `index.html` shows the summary table and
//! every chart, and opens from disk with no network and no JavaScript.
//!
//! Inputs are processed one at a time per core, each dropped once its figures and charts are
//! done, so a folder of any size needs the memory of a core's worth of logs. `ordered` does
//! that for every command that reads inputs one by one.

use super::perf::ops_table;
use super::summary::{self, FileSummary, Outcome};
use super::{html_escape, num, Format, Html, Output, TableWriter};
use crate::error::{escape, Error};
use crate::load::{self, Input};
use crate::render::charts::{charts_for, ChartSettings};
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
    /// The wall-clock span of a log that has one: how `report` pairs GC and performance
    /// logs of the same run (`report::correlate::pairs`).
    pub span: Option<Span>,
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

impl Entry {
    /// Something of this input was not reported: the input, some of its lines or parts, or
    /// its charts (`--strict` exits 4).
    pub fn incomplete(&self) -> bool {
        matches!(self.outcome, Outcome::Failed { .. })
            || self.skipped > 0
            || !self.notes.is_empty()
            || self.chart_error.is_some()
    }
}

/// The error of an input, without the file name (the row names the file).
/// How an input with neither GC nor performance records is named (the start of its error).
pub const UNRECOGNISED: &str = "no GC or performance records found";

pub fn error_text(e: &Error) -> String {
    match e {
        Error::Io { source, .. } => source.to_string(),
        Error::NothingRecognised { .. } => UNRECOGNISED.into(),
        Error::NothingInHead { mib, .. } => {
            format!("{UNRECOGNISED} in its first {mib} MiB: not read further")
        }
        Error::AllSkipped {
            skipped,
            lines,
            first_line,
            first,
            ..
        } => format!(
            "no GC or performance records found: {skipped} of {lines} lines not understood (line {first_line}: {})",
            escape(first)
        ),
        Error::Polars { source, .. } => format!("analysis failed: {source}"),
        Error::NotRegular { kind, .. } => format!("{kind}, not a regular file: skipped"),
        Error::Unsupported { what, hint, .. } => format!("{what}: not supported; {hint}"),
        Error::NeedsLogFormat { what, .. } => (*what).to_string(),
        Error::Uncounted { what, .. } => format!("no pauses read: {}", escape(what)),
        Error::Archive { message, .. } => escape(message).into_owned(),
        Error::Usage(s) => escape(s).into_owned(),
        Error::Internal { what, .. } => format!("{what} (a bug in gcperf)"),
    }
}

/// Load one input: a file (several inputs when it changes log family mid-way), or the parts
/// of a rotated or joined set. Parts that cannot be joined are left out and returned beside
/// it.
pub fn load_group(group: &[PathBuf]) -> (Result<Vec<Input>, Error>, Vec<Error>) {
    match group {
        [one] => (load::load_file(one), Vec::new()),
        _ => {
            let (l, errors) = load::load_joined(group);
            let r = l
                .map(|l| vec![Input::Gc(l)])
                .ok_or_else(|| Error::NothingRecognised {
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
pub fn process(group: &[PathBuf], stem: &str, dir: &Path, settings: &ChartSettings) -> Vec<Entry> {
    let file = group
        .first()
        .map(|p| crate::error::escape_path(p))
        .unwrap_or_default();
    let failed = |error: String, notes: Vec<String>| Entry {
        outcome: Outcome::Failed {
            file: file.clone(),
            error,
        },
        stem: stem.to_string(),
        charts: Vec::new(),
        chart_error: None,
        charts_unwritten: false,
        skipped: 0,
        bad: Vec::new(),
        notes,
        span: None,
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
                // `--skip/--from/--to` on a GC log: the figures and charts of its window.
                let input =
                    match crate::analyze::window::apply_input(&settings.gc_window, input, false) {
                        Ok(i) => i,
                        Err(e) => {
                            out.push(failed(e, notes));
                            continue;
                        }
                    };
                let mut e = process_input(input, &stem, dir, settings, notes);
                e.span = span;
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
    settings: &ChartSettings,
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
        outcome: Outcome::Failed {
            file: file.clone(),
            error: String::new(),
        },
        stem: stem.to_string(),
        charts: Vec::new(),
        chart_error: None,
        charts_unwritten: false,
        skipped: input.skipped_lines(),
        bad: input
            .bad()
            .iter()
            .map(|b| (b.line, b.text.clone()))
            .collect(),
        notes,
        span: None,
    };
    entry.outcome = match FileSummary::of_target(&input, &settings.perf, settings.pause_target_ms) {
        Ok(s) => Outcome::Ok(Box::new(s)),
        Err(e) => Outcome::Failed {
            file,
            error: format!("analysis failed: {e}"),
        },
    };
    if let Outcome::Ok(_) = entry.outcome {
        let charts = dir.join("charts");
        let path_for = |chart: &str| charts.join(format!("{stem}-{chart}.png"));
        match charts_for(&input, settings, &path_for) {
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

/// Process every input, `workers` at a time (see `ordered`), results in input order. `done`
/// is called after each input (for a progress bar).
pub fn process_all(
    groups: &[Vec<PathBuf>],
    stems: &[String],
    dir: &Path,
    settings: &ChartSettings,
    workers: usize,
    done: &(dyn Fn() + Sync),
) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(groups.len());
    ordered(
        groups.len().min(stems.len()),
        workers,
        &|i| {
            let e = process(&groups[i], &stems[i], dir, settings);
            done();
            e
        },
        &mut |_, e| entries.extend(e),
    );
    entries
}

/// Write `summary.csv`, `operations.csv` and `index.html` into `dir`; returns their paths.
/// `pairs`: the HTML sections of the correlated GC and performance logs.
pub fn write(
    dir: &Path,
    entries: &[Entry],
    pairs: &[String],
    out: Output,
) -> std::io::Result<Vec<PathBuf>> {
    let csv = Output {
        format: Format::Csv,
        ..out
    };
    let outcomes: Vec<&Outcome> = entries.iter().map(|e| &e.outcome).collect();
    let summary_csv = dir.join("summary.csv");
    crate::output::write(
        &summary_csv,
        csv.finish(csv.writer().write(&summary::table(&outcomes, Format::Csv))),
    )?;
    let perf: Vec<FileSummary> = ok(entries).filter(|s| s.perf.is_some()).cloned().collect();
    let ops_csv = dir.join("operations.csv");
    crate::output::write(
        &ops_csv,
        csv.finish(csv.writer().write(&ops_table(&perf, None))),
    )?;
    let mut written = vec![summary_csv, ops_csv];
    // The verdicts of --slo: slo.csv, and a table on the page.
    let verdicts = verdicts(entries);
    if !verdicts.is_empty() {
        let slo_csv = dir.join("slo.csv");
        crate::output::write(
            &slo_csv,
            csv.finish(csv.writer().write(&super::slo::table(&verdicts))),
        )?;
        written.push(slo_csv);
    }
    let index = dir.join("index.html");
    crate::output::write(&index, index_html(entries, &outcomes, pairs))?;
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
    entries.iter().filter_map(|e| match &e.outcome {
        Outcome::Ok(s) => Some(s.as_ref()),
        Outcome::Failed { .. } => None,
    })
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;color:#222;max-width:1700px}\
table{border-collapse:collapse;margin:1em 0;font-size:14px}\
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;white-space:nowrap}\
th{background:#f3f3f3}td.n,th.n{text-align:right}\
.error{color:#b00020}.muted{color:#666}\
img{max-width:100%;height:auto;border:1px solid #ddd;margin:.5em 0}\
section{margin-top:2.5em}nav li{margin:.2em 0}.wide{overflow-x:auto}";

fn index_html(entries: &[Entry], outcomes: &[&Outcome], pairs: &[String]) -> String {
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
    let mut others = Vec::new();
    if unknown > 0 {
        others.push(format!(
            "{unknown} not a GC or performance log{}",
            if unknown == 1 { "" } else { "s" }
        ));
    }
    if failed > 0 || unknown == 0 {
        others.push(format!("{failed} not readable"));
    }
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<title>gcperf report</title>\n");
    h.push_str(&format!("<style>{STYLE}</style>\n</head>\n<body>\n"));
    h.push_str("<h1>gcperf report</h1>\n");
    h.push_str(&format!(
        "<p>{} input{}: {gc} GC log{}, {perf} performance log{}, {}. \
         Made by gcperf {}. Figures also in <a href=\"summary.csv\">summary.csv</a> and \
         <a href=\"operations.csv\">operations.csv</a>.</p>\n",
        entries.len(),
        if entries.len() == 1 { "" } else { "s" },
        if gc == 1 { "" } else { "s" },
        if perf == 1 { "" } else { "s" },
        others.join(", "),
        env!("CARGO_PKG_VERSION"),
    ));
    h.push_str("<h2>Summary</h2>\n");
    // Many columns: the table scrolls on its own rather than widening the page.
    h.push_str("<div class=\"wide\">\n");
    h.push_str(&Html.write(&summary::table(outcomes, Format::Table)));
    h.push_str("</div>\n");
    let v = verdicts(entries);
    if !v.is_empty() {
        let failed = v
            .iter()
            .flat_map(|(_, v)| v.iter())
            .filter(|v| !v.pass)
            .count();
        let n: usize = v.iter().map(|(_, v)| v.len()).sum();
        h.push_str(&format!(
            "<h2>Objectives: {} of {n} met</h2>\n<p>Also in <a href=\"slo.csv\">slo.csv</a>.</p>\n",
            n - failed
        ));
        h.push_str(&Html.write(&super::slo::table(&v)));
    }
    h.push_str("<nav><h2>Files</h2>\n<ul>\n");
    for e in entries {
        let (file, note) = match &e.outcome {
            Outcome::Ok(s) => (s.file.as_str(), format!("{} ({})", s.kind, s.format)),
            Outcome::Failed { file, error } => (file.as_str(), format!("error: {error}")),
        };
        h.push_str(&format!(
            "<li><a href=\"#{}\">{}</a> <span class=\"muted\">{}</span></li>\n",
            html_escape(&e.stem),
            html_escape(file),
            html_escape(&note)
        ));
    }
    h.push_str("</ul></nav>\n");
    if !pairs.is_empty() {
        h.push_str("<section id=\"correlate\">\n<h2>GC pauses on the latency timeline</h2>\n");
        for p in pairs {
            h.push_str(p);
        }
        h.push_str("</section>\n");
    }
    for e in entries {
        h.push_str(&format!("<section id=\"{}\">\n", html_escape(&e.stem)));
        match &e.outcome {
            Outcome::Failed { file, error } => {
                h.push_str(&format!("<h2>{}</h2>\n", html_escape(file)));
                h.push_str(&format!(
                    "<p class=\"error\">Not reported: {}</p>\n",
                    html_escape(error)
                ));
            }
            Outcome::Ok(s) => {
                h.push_str(&format!("<h2>{}</h2>\n", html_escape(&s.file)));
                h.push_str(&format!(
                    "<p class=\"muted\">{} log, {} format; {} lines, {} not understood</p>\n",
                    s.kind, s.format, s.lines, s.skipped_lines
                ));
                if !e.bad.is_empty() {
                    h.push_str("<p class=\"muted\">First lines not understood: ");
                    let items: Vec<String> = e
                        .bad
                        .iter()
                        .take(3)
                        .map(|(n, t)| format!("line {n}: <code>{}</code>", html_escape(t)))
                        .collect();
                    h.push_str(&items.join("; "));
                    h.push_str("</p>\n");
                }
                if let Some(p) = &s.perf {
                    let t = super::perf::ops_people_table(std::slice::from_ref(s.as_ref()), false);
                    h.push_str(&format!(
                        "<p>{} requests, {} errors; p95 {} ms, max {} ms</p>\n",
                        p.requests,
                        p.errors,
                        p.total_ms_p95.map(|v| num(v, Some(1))).unwrap_or_default(),
                        p.total_ms_max.map(|v| num(v, Some(1))).unwrap_or_default(),
                    ));
                    h.push_str("<div class=\"wide\">\n");
                    h.push_str(&Html.write(&t));
                    h.push_str("</div>\n");
                }
                if let Some(d) = s.gc.as_ref().and_then(|g| g.diag.as_ref()) {
                    // Allocation, promotion, live set; pause time per cause; findings.
                    use crate::report::gc as g;
                    h.push_str("<p>");
                    let text = g::diag_text(d);
                    let lines: Vec<String> = text.lines().map(html_escape).collect();
                    h.push_str(&lines.join("<br>\n"));
                    h.push_str("</p>\n");
                    let one = std::slice::from_ref(&**s);
                    let r = [g::of_summary(&one[0])];
                    let mut c = g::cause_table(&r, Some(3));
                    if !c.rows.is_empty() {
                        g::drop_first_column(&mut c);
                        h.push_str("<h3 class=\"diag\">Pause time per cause</h3>\n");
                        h.push_str(&Html.write(&c));
                    }
                    let mut f = g::finding_table(&r, Some(3));
                    if f.rows.is_empty() {
                        h.push_str("<p>Findings: none.</p>\n");
                    } else {
                        g::drop_first_column(&mut f);
                        h.push_str("<h3 class=\"diag\">Findings</h3>\n");
                        h.push_str(&Html.write(&f));
                    }
                }
                if let Some(err) = &e.chart_error {
                    h.push_str(&format!(
                        "<p class=\"error\">Charts not drawn: {}</p>\n",
                        html_escape(err)
                    ));
                }
                for c in &e.charts {
                    h.push_str(&format!(
                        "<p><img src=\"{}\" alt=\"{}\"></p>\n",
                        html_escape(c),
                        html_escape(c.trim_start_matches("charts/").trim_end_matches(".png"))
                    ));
                }
            }
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Table;

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
