//! `gcperf compare`: runs side by side, as every table of the source documents compares runs
//! (DetGC vs non-DetGC vs IncGC; before vs after an optimisation; 72 JVM option sets).
//!
//! One column per run. Performance runs: requests, throughput, shares over thresholds,
//! percentiles, error share, then the latency-band table (seed 003's before/after table).
//! GC runs: pauses, total and longest pause, p99, throughput, full collections (seed 002).
//! Mixed kinds get one section each. CSV/TSV hold every section in one table
//! (`section,metric,<run>...`) at full precision; text and Markdown round for reading.

use super::summary::FileSummary;
use super::{num, Format, Output, Table};
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
    let p = |r: &&Run| r.summary.perf.clone();
    let perf: Vec<_> = runs.iter().map(p).collect();
    let m = |name: &str,
             digits: Option<usize>,
             f: &dyn Fn(&crate::analyze::perf::PerfSummary) -> Option<f64>| Metric {
        name: name.to_string(),
        digits,
        values: perf.iter().map(|s| s.as_ref().and_then(f)).collect(),
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
            &|s| s.over.get(i).map(|o| o.share_pct),
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
    let per = |f: &dyn Fn(&crate::analyze::perf::PerfBand) -> f64, digits| {
        labels
            .iter()
            .enumerate()
            .map(|(i, l)| Metric {
                name: l.clone(),
                digits,
                values: runs
                    .iter()
                    .map(|r| r.summary.perf.as_ref().and_then(|p| p.bands.get(i)).map(f))
                    .collect(),
            })
            .collect::<Vec<_>>()
    };
    (
        per(&|b| b.share_pct, Some(4)),
        per(&|b| b.count as f64, None),
    )
}

fn gc_metrics(runs: &[&Run]) -> Vec<Metric> {
    let gc: Vec<_> = runs.iter().map(|r| r.summary.gc.clone()).collect();
    let m = |name: &str,
             digits: Option<usize>,
             f: &dyn Fn(&crate::analyze::gc::GcSummary) -> Option<f64>| Metric {
        name: name.to_string(),
        digits,
        values: gc.iter().map(|s| s.as_ref().and_then(f)).collect(),
    };
    let mut out = vec![
        m("collections", None, &|s| Some(s.collections as f64)),
        m("pauses", None, &|s| Some(s.pauses as f64)),
        m("pause_total_ms", Some(3), &|s| Some(s.pause_total_ms)),
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
    out
}

/// A value for a cell: counts as integers; other figures rounded for people, exact for
/// machines (the shortest text that reads back as the same number).
fn cell(v: Option<f64>, digits: Option<usize>, exact: bool) -> String {
    match (v, digits) {
        (None, _) => String::new(),
        (Some(v), None) => num(v, Some(0)),
        (Some(v), Some(d)) => num(v, (!exact).then_some(d)),
    }
}

fn section_table(
    first: &str,
    runs: &[&Run],
    metrics: &[Metric],
    exact: bool,
    section: Option<&str>,
) -> Table {
    let mut headers: Vec<String> = Vec::new();
    if section.is_some() {
        headers.push("section".into());
    }
    headers.push(first.into());
    headers.extend(runs.iter().map(|r| r.label.clone()));
    let h: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut t = Table::new(&h).numeric_from(headers.len() - runs.len());
    for m in metrics {
        let mut row: Vec<String> = section.iter().map(|s| s.to_string()).collect();
        row.push(m.name.clone());
        row.extend(m.values.iter().map(|v| cell(*v, m.digits, exact)));
        t.push(row);
    }
    t
}

/// How the runs are shown beyond their figures.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// The ranking and how many runs of how many are shown (`--sort`, `--top`), said in the
    /// headings of the text and Markdown tables.
    pub note: Option<String>,
}

/// Rank `runs` by `sort` (stable; runs without the figure last) and keep the first `top`.
/// Returns what the headings say about it: `72 runs, lowest pause_total_ms first`, `the 20
/// lowest pause_total_ms of 72 runs`, `the first 20 of 72 runs`.
pub fn rank(
    runs: &mut Vec<Run>,
    sort: Option<&crate::analyze::compare::SortKey>,
    top: Option<usize>,
) -> Option<String> {
    let n = runs.len();
    if let Some(k) = sort {
        let values: Vec<Option<f64>> = runs
            .iter()
            .map(|r| k.value(r.summary.gc.as_ref(), r.summary.perf.as_ref()))
            .collect();
        let order = crate::analyze::compare::ranking(&values, k.descending);
        let mut taken: Vec<Option<Run>> = std::mem::take(runs).into_iter().map(Some).collect();
        runs.extend(
            order
                .iter()
                .filter_map(|&i| taken.get_mut(i).and_then(Option::take)),
        );
    }
    let shown = top.unwrap_or(n).min(n);
    runs.truncate(shown);
    let runs_word = |n: usize| if n == 1 { "run" } else { "runs" };
    match (sort, shown < n) {
        (Some(k), true) => Some(format!(
            "the {shown} {} {} of {n} runs",
            k.first_word(),
            k.figure
        )),
        (Some(k), false) => Some(format!(
            "{n} {}, {} {} first",
            runs_word(n),
            k.first_word(),
            k.figure
        )),
        (None, true) => Some(format!("the first {shown} of {n} runs")),
        (None, false) => None,
    }
}

pub fn render(runs: &[Run], out: Output, view: &View) -> String {
    let perf: Vec<&Run> = runs.iter().filter(|r| r.summary.perf.is_some()).collect();
    let gc: Vec<&Run> = runs.iter().filter(|r| r.summary.gc.is_some()).collect();
    match out.format {
        Format::Json => super::json(runs),
        Format::Csv | Format::Tsv => {
            // One table: a section column, so that a spreadsheet gets everything at once. The
            // run columns are those of the section's kind; with both kinds, every run.
            let all: Vec<&Run> = if perf.is_empty() || gc.is_empty() {
                if perf.is_empty() {
                    gc.clone()
                } else {
                    perf.clone()
                }
            } else {
                runs.iter().collect()
            };
            let mut rows: Vec<Metric> = Vec::new();
            let mut sections: Vec<&str> = Vec::new();
            if !perf.is_empty() {
                let m = perf_metrics(&all);
                sections.extend(std::iter::repeat_n("perf", m.len()));
                rows.extend(m);
                let (share, count) = band_metrics(&all);
                sections.extend(std::iter::repeat_n("band_pct", share.len()));
                rows.extend(share);
                sections.extend(std::iter::repeat_n("band_count", count.len()));
                rows.extend(count);
            }
            if !gc.is_empty() {
                let m = gc_metrics(&all);
                sections.extend(std::iter::repeat_n("gc", m.len()));
                rows.extend(m);
            }
            let mut t = section_table("metric", &all, &[], true, Some(""));
            for (s, m) in sections.iter().zip(&rows) {
                let mut row = vec![s.to_string(), m.name.clone()];
                row.extend(m.values.iter().map(|v| cell(*v, m.digits, true)));
                t.push(row);
            }
            out.writer().write(&t)
        }
        Format::Table | Format::Markdown => {
            let md = out.format == Format::Markdown;
            let w = out.writer();
            let mut s = String::new();
            let heading = |s: &mut String, title: &str| {
                if !s.is_empty() {
                    s.push('\n');
                }
                let title = match &view.note {
                    Some(n) => format!("{title} ({n})"),
                    None => title.to_string(),
                };
                s.push_str(&if md {
                    format!("### {title}\n\n")
                } else {
                    format!("{title}\n\n")
                });
            };
            if !perf.is_empty() {
                heading(&mut s, "Performance logs");
                s.push_str(&w.write(&section_table(
                    "metric",
                    &perf,
                    &perf_metrics(&perf),
                    false,
                    None,
                )));
                heading(&mut s, "Latency bands: share of requests, %");
                let (share, _) = band_metrics(&perf);
                let mut t = section_table("band_ms", &perf, &share, false, None);
                // "–" where a run has no request in the band, as the source tables write it.
                for row in &mut t.rows {
                    for c in row.iter_mut().skip(1) {
                        if c.parse::<f64>().is_ok_and(|v| v == 0.0) {
                            *c = "–".into();
                        }
                    }
                }
                s.push_str(&w.write(&t));
            }
            if !gc.is_empty() {
                heading(&mut s, "GC logs");
                s.push_str(&w.write(&section_table("metric", &gc, &gc_metrics(&gc), false, None)));
            }
            s
        }
    }
}

/// Labels for the runs: as given, else each file's name (its path where names repeat).
pub fn labels(files: &[String], given: &[String]) -> Result<Vec<String>, String> {
    if !given.is_empty() {
        if given.len() != files.len() {
            return Err(format!(
                "--labels names {} runs but {} files were given",
                given.len(),
                files.len()
            ));
        }
        return Ok(given.to_vec());
    }
    let name = |f: &String| {
        std::path::Path::new(f)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| f.clone())
    };
    let names: Vec<String> = files.iter().map(name).collect();
    Ok(files
        .iter()
        .zip(&names)
        .map(|(f, n)| {
            if names.iter().filter(|m| *m == n).count() > 1 {
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
