//! `gcperf compare`: runs side by side, as every table of the source documents compares runs
//! (DetGC vs non-DetGC vs IncGC; before vs after an optimisation; 72 JVM option sets).
//!
//! One column per run. Performance runs: requests, throughput, shares over thresholds,
//! percentiles, error share, then the latency-band table (seed 003's before/after table).
//! GC runs: pauses, total and longest pause, p99, throughput, full collections (seed 002).
//! Mixed kinds get one section each. CSV/TSV hold every section in one table
//! (`section,metric,<run>...`) at full precision; text and Markdown round for reading.

use super::summary::FileSummary;
use super::{num, opt, Format, Output, Table};
use crate::analyze::compare::{delta, spread, Spread};
use serde::Serialize;

/// One run: a file's figures under the label it is compared by.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    pub label: String,
    #[serde(flatten)]
    pub summary: FileSummary,
}

/// A metric row: name, decimals for reading (None: an integer count), and its value per run.
struct Metric {
    name: String,
    digits: Option<usize>,
    values: Vec<Option<f64>>,
}

fn perf_metrics(runs: &[&Run]) -> Vec<Metric> {
    // Borrowed: a summary holds its sketch and per-operation rows.
    let perf: Vec<_> = runs.iter().map(|r| r.summary.perf.as_ref()).collect();
    let m = |name: &str,
             digits: Option<usize>,
             f: &dyn Fn(&crate::analyze::perf::PerfSummary) -> Option<f64>| Metric {
        name: name.to_string(),
        digits,
        values: perf.iter().map(|s| s.and_then(f)).collect(),
    };
    let mut out = vec![
        m("requests", None, &|s| Some(s.requests as f64)),
        m("errors", None, &|s| Some(s.errors as f64)),
        m("error_pct", Some(4), &|s| s.error_pct),
        m("span_s", Some(3), &|s| s.span_s),
        m("throughput_per_s", Some(3), &|s| s.throughput_per_s),
        m("total_ms_mean", Some(3), &|s| s.total_ms_mean),
        m("total_ms_p50", Some(3), &|s| s.total_ms_p50),
        m("total_ms_p90", Some(3), &|s| s.total_ms_p90),
        m("total_ms_p95", Some(3), &|s| s.total_ms_p95),
        m("total_ms_p99", Some(3), &|s| s.total_ms_p99),
        m("total_ms_max", Some(3), &|s| s.total_ms_max),
        m("db_share_pct", Some(2), &|s| s.db_share_pct),
    ];
    // Thresholds as the first run has them (every run is analysed with the same --over).
    let over: Vec<f64> = perf
        .iter()
        .flatten()
        .next()
        .map(|s| s.over.iter().map(|o| o.ms).collect())
        .unwrap_or_default();
    for (i, ms) in over.iter().enumerate() {
        out.push(m(
            &format!("over_{}ms_pct", num(*ms, None)),
            Some(4),
            &|s| s.over.get(i).and_then(|o| o.share_pct),
        ));
    }
    out
}

/// Band rows: the share of each run's requests per latency band, and the counts.
fn band_metrics(runs: &[&Run]) -> (Vec<Metric>, Vec<Metric>) {
    let labels: Vec<String> = runs
        .iter()
        .find_map(|r| r.summary.perf.as_ref())
        .map(|p| p.bands.iter().map(|b| b.label.clone()).collect())
        .unwrap_or_default();
    let per = |f: &dyn Fn(&crate::analyze::Band) -> Option<f64>, digits| {
        labels
            .iter()
            .enumerate()
            .map(|(i, l)| Metric {
                name: l.clone(),
                digits,
                values: runs
                    .iter()
                    .map(|r| r.summary.perf.as_ref().and_then(|p| f(p.bands.get(i)?)))
                    .collect(),
            })
            .collect::<Vec<_>>()
    };
    (
        per(&|b| b.share_pct, Some(4)),
        per(&|b| Some(b.count as f64), None),
    )
}

fn gc_metrics(runs: &[&Run]) -> Vec<Metric> {
    let gc: Vec<_> = runs.iter().map(|r| r.summary.gc.as_ref()).collect();
    let m = |name: &str,
             digits: Option<usize>,
             f: &dyn Fn(&crate::analyze::gc::GcSummary) -> Option<f64>| Metric {
        name: name.to_string(),
        digits,
        values: gc.iter().map(|s| s.and_then(f)).collect(),
    };
    let mut out = vec![
        m("collections", None, &|s| Some(s.collections as f64)),
        m("pauses", None, &|s| Some(s.pauses as f64)),
        m("pause_total_ms", Some(3), &|s| s.pause_total_ms),
        m("pause_max_ms", Some(3), &|s| s.pause_max_ms),
        m("pause_mean_ms", Some(3), &|s| s.pause_mean_ms),
        m("pause_p95_ms", Some(3), &|s| s.pause_p95_ms),
        m("pause_p99_ms", Some(3), &|s| s.pause_p99_ms),
        m("throughput_pct", Some(3), &|s| s.throughput_pct),
        m("full_collections", None, &|s| {
            Some(s.full_collections as f64)
        }),
        m("span_s", Some(3), &|s| s.span_s),
        m("restarts", None, &|s| Some(s.restarts as f64)),
    ];
    // The pause target, where a run has one (JRockit DetGC, `--pause-target`).
    if gc.iter().flatten().any(|s| s.pause_target_ms.is_some()) {
        out.push(m("pause_target_ms", Some(3), &|s| s.pause_target_ms));
        out.push(m("pauses_over_target", None, &|s| {
            s.pauses_over_target.map(|v| v as f64)
        }));
        out.push(m("pauses_over_target_pct", Some(4), &|s| {
            s.pauses_over_target_pct
        }));
    }
    // Thread stalls (ZGC), where a run has any: apart from the pauses, as in the summary.
    if gc.iter().flatten().any(|s| s.stalls.stalls > 0) {
        out.push(m("stalls", None, &|s| Some(s.stalls.stalls as f64)));
        out.push(m("stall_total_ms", Some(3), &|s| {
            Some(s.stalls.stall_total_ms)
        }));
        out.push(m("stall_max_ms", Some(3), &|s| s.stalls.stall_max_ms));
    }
    out
}

/// A value for a cell: counts as integers; other figures rounded for people, exact for
/// machines (the shortest text that reads back as the same number).
fn cell(v: Option<f64>, digits: Option<usize>, exact: bool) -> String {
    match (v, digits) {
        (None, _) => String::new(),
        // A count; a mean of counts (`--group`) may be fractional.
        (Some(v), None) if v.fract() == 0.0 => num(v, Some(0)),
        (Some(v), d) => num(v, (!exact).then_some(d.unwrap_or(1))),
    }
}

/// One column of the comparison: a run, or the repeats of one configuration (`--group`),
/// whose figures are the mean over the repeats with the min–max range.
#[derive(Debug, Clone)]
pub struct Group {
    pub label: String,
    pub runs: Vec<Run>,
}

/// How the runs are shown beyond their figures.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// The ranking and how many runs of how many are shown (`--sort`, `--top`), said in the
    /// headings of the text and Markdown tables.
    pub note: Option<String>,
    /// The columns are groups of repeats: `mean (min–max)`, `_min`/`_max` rows, JSON spreads.
    pub grouped: bool,
    /// The column every other's change is against (`--baseline`); kept
    /// here because `--sort`/`--top` may move it or leave it out. None: no deltas.
    pub baseline: Option<Group>,
}

/// Rank the columns by `sort` (stable; those without the figure last) and keep the first
/// `top`: by the mean of the figure over each group's repeats. Returns what the headings say
/// about it, counting groups (`grouped`) or runs: `72 runs, lowest pause_total_ms first`,
/// `the 20 lowest pause_total_ms of 72 runs`, `the first 20 of 72 runs`.
pub fn rank_groups(
    groups: &mut Vec<Group>,
    sort: Option<&crate::analyze::compare::SortKey>,
    top: Option<usize>,
    grouped: bool,
) -> Option<String> {
    let values: Vec<Option<f64>> = match sort {
        Some(k) => groups
            .iter()
            .map(|g| {
                let v: Vec<Option<f64>> = g
                    .runs
                    .iter()
                    .map(|r| k.value(r.summary.gc.as_ref(), r.summary.perf.as_ref()))
                    .collect();
                spread(&v).map(|s| s.mean)
            })
            .collect(),
        None => Vec::new(),
    };
    let words = if grouped {
        ("group", "groups")
    } else {
        ("run", "runs")
    };
    rank_by(groups, &values, sort, top, words)
}

/// `items` in the order of their `values` by `sort` (stable; those without one last), the
/// first `top` kept; the note as `rank_groups`', counting `one` or `many`.
pub fn rank_by<T>(
    items: &mut Vec<T>,
    values: &[Option<f64>],
    sort: Option<&crate::analyze::compare::SortKey>,
    top: Option<usize>,
    (one, many): (&str, &str),
) -> Option<String> {
    let n = items.len();
    if let Some(k) = sort {
        let order = crate::analyze::compare::ranking(values, k.descending);
        let mut taken: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
        items.extend(
            order
                .iter()
                .filter_map(|&i| taken.get_mut(i).and_then(Option::take)),
        );
    }
    let shown = top.unwrap_or(n).min(n);
    items.truncate(shown);
    let word = |n: usize| if n == 1 { one } else { many };
    match (sort, shown < n) {
        (Some(k), true) => Some(format!(
            "the {shown} {} {} of {n} {many}",
            k.first_word(),
            k.figure
        )),
        (Some(k), false) => Some(format!(
            "{n} {}, {} {} first",
            word(n),
            k.first_word(),
            k.figure
        )),
        (None, true) => Some(format!("the first {shown} of {n} {many}")),
        (None, false) => None,
    }
}

/// A figure over the columns: each column's spread over its repeats (a run alone: mean = min
/// = max), and the baseline's mean.
struct Row {
    name: String,
    digits: Option<usize>,
    cells: Vec<Option<Spread>>,
    base: Option<f64>,
}

impl Row {
    fn delta(&self, col: usize) -> Option<(f64, Option<f64>)> {
        delta(
            self.base,
            self.cells.get(col).copied().flatten().map(|s| s.mean),
        )
    }
}

/// The rows `f` makes, over every repeat of every column at once (so that every column has
/// the same rows), split back into columns.
fn rows(cols: &[&Group], base: Option<&Group>, f: &dyn Fn(&[&Run]) -> Vec<Metric>) -> Vec<Row> {
    let mut flat: Vec<&Run> = cols.iter().flat_map(|g| g.runs.iter()).collect();
    let nb = flat.len();
    if let Some(b) = base {
        flat.extend(b.runs.iter());
    }
    f(&flat)
        .into_iter()
        .map(|m| {
            let mut at = 0;
            let cells = cols
                .iter()
                .map(|g| {
                    let n = g.runs.len();
                    let s = spread(m.values.get(at..at + n).unwrap_or(&[]));
                    at += n;
                    s
                })
                .collect();
            let base = base
                .and_then(|_| spread(m.values.get(nb..).unwrap_or(&[])))
                .map(|s| s.mean);
            Row {
                name: m.name,
                digits: m.digits,
                cells,
                base,
            }
        })
        .collect()
}

/// The rows of a section: its figures, band shares or band counts.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    Perf,
    BandPct,
    BandCount,
    Gc,
}

impl Section {
    fn name(self) -> &'static str {
        match self {
            Section::Perf => "perf",
            Section::BandPct => "band_pct",
            Section::BandCount => "band_count",
            Section::Gc => "gc",
        }
    }
    fn metrics(self, runs: &[&Run]) -> Vec<Metric> {
        match self {
            Section::Perf => perf_metrics(runs),
            Section::BandPct => band_metrics(runs).0,
            Section::BandCount => band_metrics(runs).1,
            Section::Gc => gc_metrics(runs),
        }
    }
    /// Deltas are shown for the figures, not for every latency band.
    fn deltas(self) -> bool {
        matches!(self, Section::Perf | Section::Gc)
    }
    fn rows(self, cols: &[&Group], view: &View) -> Vec<Row> {
        rows(cols, view.baseline.as_ref(), &|r| self.metrics(r))
    }
}

/// A mean, with its range for groups (text and Markdown).
fn spread_cell(s: Option<Spread>, digits: Option<usize>, grouped: bool) -> String {
    match s {
        None => String::new(),
        Some(s) if grouped => format!(
            "{} ({}–{})",
            cell(Some(s.mean), digits, false),
            cell(Some(s.min), digits, false),
            cell(Some(s.max), digits, false)
        ),
        Some(s) => cell(Some(s.mean), digits, false),
    }
}

/// A change with its sign: `+12.500`, `-3`.
fn signed(v: f64, digits: Option<usize>) -> String {
    format!(
        "{}{}",
        if v > 0.0 { "+" } else { "" },
        cell(Some(v), digits, false)
    )
}

/// `+20.500 (+25.00%)`: a column's change against the baseline (text and Markdown).
fn delta_cell(d: Option<(f64, Option<f64>)>, digits: Option<usize>) -> String {
    match d {
        None => String::new(),
        Some((abs, None)) => signed(abs, digits),
        Some((abs, Some(pct))) => format!("{} ({}%)", signed(abs, digits), signed(pct, Some(2))),
    }
}

fn kind_columns(groups: &[Group], perf: bool) -> Vec<&Group> {
    let of_kind = |r: &Run| match perf {
        true => r.summary.perf.is_some(),
        false => r.summary.gc.is_some(),
    };
    groups
        .iter()
        .filter(|g| g.runs.iter().any(of_kind))
        .collect()
}

/// An object with its keys in the order given (serde_json's map sorts them).
struct Ordered<V>(Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// JSON `delta`: `<figure>_delta` and `<figure>_delta_pct` (null when the baseline's figure
/// is 0) per figure the column and the baseline both have.
#[derive(Serialize)]
struct JsonDelta {
    baseline: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    perf: Option<Ordered<Option<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gc: Option<Ordered<Option<f64>>>,
}

#[derive(Serialize)]
struct JsonRun<'a> {
    #[serde(flatten)]
    run: &'a Run,
    #[serde(skip_serializing_if = "Option::is_none")]
    delta: Option<JsonDelta>,
}

#[derive(Serialize)]
struct JsonSpread {
    mean: f64,
    min: f64,
    max: f64,
    /// Repeats that have the figure.
    runs: usize,
}

#[derive(Serialize)]
struct JsonGroup<'a> {
    label: &'a str,
    /// Repeats in the group.
    runs: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    perf: Option<Ordered<JsonSpread>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gc: Option<Ordered<JsonSpread>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    delta: Option<JsonDelta>,
    /// The repeats' pauses and requests each as one distribution (their sketches merged).
    pooled: Pooled,
    /// Each repeat's own figures, as a run of `compare` without groups has them.
    repeats: &'a [Run],
}

/// Percentiles over all of a group's pauses (or requests) together, not means of its
/// repeats' percentiles: read from their sketches merged (`analyze::sketch`), each within
/// `alpha` (relative) of the exact percentile over every value. Null where no repeat has
/// the values.
#[derive(Serialize)]
struct Pooled {
    alpha: f64,
    pauses: Option<u64>,
    pause_p50_ms: Option<f64>,
    pause_p95_ms: Option<f64>,
    pause_p99_ms: Option<f64>,
    requests: Option<u64>,
    total_ms_p50: Option<f64>,
    total_ms_p90: Option<f64>,
    total_ms_p95: Option<f64>,
    total_ms_p99: Option<f64>,
}

impl Pooled {
    fn of(runs: &[Run]) -> Pooled {
        use crate::analyze::sketch::{Sketch, ALPHA};
        // A repeat without the values (no pauses, no requests) has no sketch and adds none.
        let gc = super::summary::pooled(runs.iter().map(|r| &r.summary), true);
        let perf = super::summary::pooled(runs.iter().map(|r| &r.summary), false);
        let q = |s: &Option<Sketch>, p: f64| s.as_ref().and_then(|s| s.quantile(p));
        Pooled {
            alpha: ALPHA,
            pauses: gc.as_ref().map(Sketch::len),
            pause_p50_ms: q(&gc, 0.50),
            pause_p95_ms: q(&gc, 0.95),
            pause_p99_ms: q(&gc, 0.99),
            requests: perf.as_ref().map(Sketch::len),
            total_ms_p50: q(&perf, 0.50),
            total_ms_p90: q(&perf, 0.90),
            total_ms_p95: q(&perf, 0.95),
            total_ms_p99: q(&perf, 0.99),
        }
    }
}

fn json_delta(perf: &[Row], gc: &[Row], col: usize, view: &View) -> Option<JsonDelta> {
    let b = view.baseline.as_ref()?;
    let of = |rows: &[Row]| {
        let v: Vec<(String, Option<f64>)> = rows
            .iter()
            .filter_map(|r| r.delta(col).map(|d| (r, d)))
            .flat_map(|(r, (abs, pct))| {
                [
                    (format!("{}_delta", r.name), Some(abs)),
                    (format!("{}_delta_pct", r.name), pct),
                ]
            })
            .collect();
        (!v.is_empty()).then_some(Ordered(v))
    };
    Some(JsonDelta {
        baseline: b.label.clone(),
        perf: of(perf),
        gc: of(gc),
    })
}

fn json(groups: &[Group], view: &View, format: Format) -> String {
    let cols: Vec<&Group> = groups.iter().collect();
    let perf = Section::Perf.rows(&cols, view);
    let gc = Section::Gc.rows(&cols, view);
    if !view.grouped {
        let v: Vec<JsonRun> = groups
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                Some(JsonRun {
                    run: g.runs.first()?,
                    delta: json_delta(&perf, &gc, i, view),
                })
            })
            .collect();
        return super::json_rows(&v, format);
    }
    let spreads = |rows: &[Row], i: usize| {
        let v: Vec<(String, JsonSpread)> = rows
            .iter()
            .filter_map(|r| {
                let s = r.cells.get(i).copied().flatten()?;
                Some((
                    r.name.clone(),
                    JsonSpread {
                        mean: s.mean,
                        min: s.min,
                        max: s.max,
                        runs: s.n,
                    },
                ))
            })
            .collect();
        (!v.is_empty()).then_some(Ordered(v))
    };
    let v: Vec<JsonGroup> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| JsonGroup {
            label: &g.label,
            runs: g.runs.len(),
            perf: spreads(&perf, i),
            gc: spreads(&gc, i),
            delta: json_delta(&perf, &gc, i, view),
            pooled: Pooled::of(&g.runs),
            repeats: &g.runs,
        })
        .collect();
    super::json_rows(&v, format)
}

/// Columns of runs or of groups of repeats (`view.grouped`).
pub fn render_groups(groups: &[Group], out: Output, view: &View) -> String {
    let perf = kind_columns(groups, true);
    let gc = kind_columns(groups, false);
    match out.format {
        Format::Json | Format::Jsonl => json(groups, view, out.format),
        Format::Csv | Format::Tsv => {
            // One table: a section column, so that a spreadsheet gets everything at once. The
            // run columns are those of the section's kind; with both kinds, every run.
            let all: Vec<&Group> = match (perf.is_empty(), gc.is_empty()) {
                (true, _) => gc.clone(),
                (_, true) => perf.clone(),
                _ => groups.iter().collect(),
            };
            let mut sections = Vec::new();
            if !perf.is_empty() {
                sections.extend([Section::Perf, Section::BandPct, Section::BandCount]);
            }
            if !gc.is_empty() {
                sections.push(Section::Gc);
            }
            let mut headers = vec!["section".to_string(), "metric".into()];
            headers.extend(all.iter().map(|g| g.label.clone()));
            let mut t = Table::new(&headers).numeric_from(2);
            let mut deltas: Vec<Vec<String>> = Vec::new();
            for sec in sections {
                let rows = sec.rows(&all, view);
                let name = sec.name();
                if view.grouped {
                    let mut row = vec![name.to_string(), "repeats".into()];
                    row.extend(all.iter().map(|g| g.runs.len().to_string()));
                    t.push(row);
                }
                for r in &rows {
                    let line = |suffix: &str, f: &dyn Fn(&Spread) -> f64| {
                        let mut row = vec![name.to_string(), format!("{}{suffix}", r.name)];
                        row.extend(
                            r.cells
                                .iter()
                                .map(|s| cell(s.as_ref().map(f), r.digits, true)),
                        );
                        row
                    };
                    t.push(line("", &|s| s.mean));
                    if view.grouped {
                        t.push(line("_min", &|s| s.min));
                        t.push(line("_max", &|s| s.max));
                    }
                    if view.baseline.is_some() && sec.deltas() {
                        // In their own section after the figures: `perf_delta`, `gc_delta`.
                        let sec = format!("{name}_delta");
                        let mut abs = vec![sec.clone(), format!("{}_delta", r.name)];
                        let mut pct = vec![sec, format!("{}_delta_pct", r.name)];
                        for i in 0..all.len() {
                            let d = r.delta(i);
                            abs.push(cell(d.map(|d| d.0), r.digits, true));
                            pct.push(opt(d.and_then(|d| d.1), None));
                        }
                        deltas.push(abs);
                        deltas.push(pct);
                    }
                }
            }
            t.rows.extend(deltas);
            out.writer().write(&t)
        }
        Format::Table | Format::Markdown => {
            let md = out.format == Format::Markdown;
            let w = out.writer();
            let mut s = String::new();
            let heading = |s: &mut String, title: &str| {
                let bands = title == BANDS;
                let title = match &view.note {
                    Some(n) => format!("{title} ({n})"),
                    None => title.to_string(),
                };
                super::push_heading(s, &title, md);
                // What the cells are, under the heading.
                let mut notes: Vec<String> = Vec::new();
                if view.grouped {
                    notes.push("mean (min–max) over the repeats".into());
                }
                if let Some(b) = view.baseline.as_ref().filter(|_| !bands) {
                    notes.push(format!("_delta: change against {}", b.label));
                }
                if !notes.is_empty() {
                    s.push_str(&notes.join("; "));
                    s.push_str("\n\n");
                }
            };
            let table = |first: &str, cols: &[&Group], sec: Section| {
                let mut headers = vec![first.to_string()];
                headers.extend(cols.iter().map(|g| g.label.clone()));
                let mut t = Table::new(&headers).numeric_from(1);
                if view.grouped {
                    let mut row = vec!["repeats".to_string()];
                    row.extend(cols.iter().map(|g| g.runs.len().to_string()));
                    t.push(row);
                }
                for r in sec.rows(cols, view) {
                    let mut row = vec![r.name.clone()];
                    for c in &r.cells {
                        row.push(spread_cell(*c, r.digits, view.grouped));
                    }
                    t.push(row);
                    if view.baseline.is_some() && sec.deltas() {
                        let mut row = vec![format!("{}_delta", r.name)];
                        // Blank under the baseline itself.
                        row.extend(cols.iter().enumerate().map(|(i, g)| match &view.baseline {
                            Some(b) if b.label == g.label => String::new(),
                            _ => delta_cell(r.delta(i), r.digits),
                        }));
                        t.push(row);
                    }
                }
                // Runs across that do not fit the terminal are runs as rows: a table of 72 runs
                // was 1,489 characters wide, and cut to fit it would show three of them.
                let too_wide = |width: usize| {
                    super::Text
                        .fit(&t, 0, false)
                        .lines()
                        .any(|l| l.chars().count() > width)
                };
                match super::text_width() {
                    Some(width) if !md && too_wide(width) => w.write(&t.transposed("run")),
                    _ => w.write(&t),
                }
            };
            if !perf.is_empty() {
                heading(&mut s, "Performance logs");
                s.push_str(&table("metric", &perf, Section::Perf));
                heading(&mut s, BANDS);
                s.push_str(&table("band_ms", &perf, Section::BandPct));
            }
            if !gc.is_empty() {
                heading(&mut s, "GC logs");
                s.push_str(&table("metric", &gc, Section::Gc));
            }
            s
        }
    }
}

const BANDS: &str = "Latency bands: share of requests, %";

/// Labels for the runs: as given (each once: a label names a column and the baseline), else
/// each file's name (its path where names repeat).
pub fn labels(files: &[String], given: &[String]) -> Result<Vec<String>, String> {
    if !given.is_empty() {
        if given.len() != files.len() {
            return Err(format!(
                "--labels names {} runs but {} files were given",
                given.len(),
                files.len()
            ));
        }
        // A label names one column, and the run `--baseline` picks.
        let mut seen = std::collections::HashSet::new();
        if let Some(l) = given.iter().find(|l| !seen.insert(l.as_str())) {
            return Err(format!("--labels {l}: the label is given twice"));
        }
        return Ok(given.to_vec());
    }
    let names: Vec<String> = files.iter().map(|f| super::perf::short(f)).collect();
    // How many files have each name: counted for each file, quadratic in the files.
    let mut count: std::collections::HashMap<&str, usize> = Default::default();
    for n in &names {
        *count.entry(n).or_default() += 1;
    }
    Ok(files
        .iter()
        .zip(&names)
        .map(|(f, n)| {
            if count.get(n.as_str()).copied().unwrap_or(0) > 1 {
                f.clone()
            } else {
                n.clone()
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_names_unless_they_repeat() {
        let files = vec!["a/gc.log".to_string(), "b/gc.log".into(), "c/x.log".into()];
        assert_eq!(
            labels(&files, &[]).unwrap(),
            vec!["a/gc.log", "b/gc.log", "x.log"]
        );
        assert_eq!(
            labels(&files[..2], &["before".into(), "after".into()]).unwrap(),
            vec!["before", "after"]
        );
        assert!(labels(&files, &["one".into()]).is_err());
    }

    #[test]
    fn cells_round_for_people_and_stay_exact_for_machines() {
        assert_eq!(cell(Some(2.0 / 3.0), Some(3), false), "0.667");
        // Exact: 12 significant digits (report::clean), not the f64's 16.
        assert_eq!(cell(Some(2.0 / 3.0), Some(3), true), "0.666666666667");
        assert_eq!(cell(Some(42.0), None, true), "42");
        assert_eq!(cell(None, Some(3), true), "");
    }
}
