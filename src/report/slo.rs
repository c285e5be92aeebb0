//! The verdicts of `--slo` as a table after a command's output: text and Markdown under an
//! `Objectives` heading, CSV/TSV as a second table after one blank line. JSON carries them in
//! each run's object (`slo`), so nothing is added there.

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

/// The verdict table as it follows the command's output (empty without verdicts or in JSON).
pub fn render(runs: &[(&str, &[Verdict])], out: Output) -> String {
    let n: usize = runs.iter().map(|(_, v)| v.len()).sum();
    if n == 0 || out.format == Format::Json {
        return String::new();
    }
    let failed: usize = runs
        .iter()
        .map(|(_, v)| v.iter().filter(|v| !v.pass).count())
        .sum();
    let mut t = table(runs);
    if matches!(out.format, Format::Table | Format::Markdown) {
        // People read "none" where the run has no such figure (CSV keeps the cell empty).
        let value = t.headers.iter().position(|h| h == "value");
        for row in &mut t.rows {
            if let Some(c) = value.and_then(|i| row.get_mut(i)) {
                if c.is_empty() {
                    *c = "none".into();
                }
            }
        }
    }
    let body = out.writer().write(&t);
    match out.format {
        Format::Table => format!("\nObjectives: {} of {n} met\n\n{body}", n - failed),
        Format::Markdown => format!("\n### Objectives: {} of {n} met\n\n{body}", n - failed),
        _ => format!("\n{body}"),
    }
}
