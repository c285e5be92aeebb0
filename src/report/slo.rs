//! The verdicts of `--slo`: a line each on stderr (`✓`/`✗`), and a table after a text or
//! Markdown output under an `Objectives` heading. CSV/TSV keep stdout to their one table (the
//! verdicts' goes to `--slo-out`); JSON carries them in each run's object (`slo`).

use super::{opt, Format, Output, Table};
use crate::analyze::slo::Verdict;

/// One row per objective and run (and operation): the figure read, its value, the limit, the
/// verdict. Values at full precision (what was judged).
pub fn table(runs: &[(&str, &[Verdict])]) -> Table {
    let per_op = runs
        .iter()
        .any(|(_, v)| v.iter().any(|v| v.operation.is_some()));
    let mut h = vec!["file"];
    if per_op {
        h.push("operation");
    }
    h.extend([
        "objective",
        "metric",
        "value",
        "op",
        "limit",
        "unit",
        "verdict",
    ]);
    let mut t = Table::new(&h);
    let first = h.len() - 5;
    t.numeric[first] = true;
    t.numeric[first + 2] = true;
    for (file, verdicts) in runs {
        for v in verdicts.iter() {
            let mut row = vec![file.to_string()];
            if per_op {
                row.push(v.operation.clone().unwrap_or_default());
            }
            row.extend([
                v.objective.clone(),
                v.metric.clone(),
                opt(v.value, None),
                v.op.as_str().to_string(),
                super::num(v.limit, None),
                v.unit.to_string(),
                if v.pass { "pass" } else { "FAIL" }.to_string(),
            ]);
            t.push(row);
        }
    }
    t
}

/// Verdict lines for stderr shown at most; failures come first.
const LINES_SHOWN: usize = 20;

/// The verdicts as lines for stderr, as a load tool's thresholds are said (`✓ run:
/// p95<=50ms (total_ms_p95 43.2 ms)`, `✗ ...`): failures first, at most `LINES_SHOWN`, then
/// how many more.
pub fn lines(runs: &[(&str, &[Verdict])]) -> Vec<String> {
    let mut all: Vec<(&str, &Verdict)> = runs
        .iter()
        .flat_map(|(run, vs)| vs.iter().map(move |v| (*run, v)))
        .collect();
    all.sort_by_key(|(_, v)| v.pass);
    let figure = |v: &Verdict| match v.value {
        Some(x) => format!("{} {} {}", v.metric, super::num(x, None), v.unit)
            .trim_end()
            .to_string(),
        None => format!("no {}", v.metric),
    };
    let mut out: Vec<String> = all
        .iter()
        .take(LINES_SHOWN)
        .map(|(run, v)| {
            let op = v
                .operation
                .as_ref()
                .map(|o| format!(" [{o}]"))
                .unwrap_or_default();
            let mark = if v.pass { "✓" } else { "✗" };
            let verdict = if v.pass { "" } else { ": FAIL" };
            format!("{mark} {run}{op}: {} ({}){verdict}", v.objective, figure(v))
        })
        .collect();
    if all.len() > LINES_SHOWN {
        let failed = all.iter().filter(|(_, v)| !v.pass).count();
        let shown_failed = failed.min(LINES_SHOWN);
        out.push(format!(
            "... and {} more verdicts ({} failed)",
            all.len() - LINES_SHOWN,
            failed - shown_failed
        ));
    }
    out
}

/// The verdict table as it follows a text or Markdown output (empty without verdicts, and
/// for the other formats).
pub fn render(runs: &[(&str, &[Verdict])], out: Output) -> String {
    let n: usize = runs.iter().map(|(_, v)| v.len()).sum();
    if n == 0 || !matches!(out.format, Format::Table | Format::Markdown) {
        return String::new();
    }
    let failed: usize = runs
        .iter()
        .map(|(_, v)| v.iter().filter(|v| !v.pass).count())
        .sum();
    let mut t = table(runs);
    // People read "none" where the run has no such figure (CSV keeps the cell empty).
    if let Some(i) = t.headers.iter().position(|h| h == "value") {
        for c in t.rows.iter_mut().filter_map(|r| r.get_mut(i)) {
            if c.is_empty() {
                *c = "none".into();
            }
        }
    }
    let body = out.writer().write(&t);
    let md = out.format == Format::Markdown;
    let hashes = if md { "### " } else { "" };
    format!("\n{hashes}Objectives: {} of {n} met\n\n{body}", n - failed)
}
