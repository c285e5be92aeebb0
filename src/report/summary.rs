//! `gcperf summary`: one row (or JSON object) per input file.

use super::{num, opt, Format, Table};
use crate::analyze::gc::GcSummary;
use crate::load::Loaded;
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
    pub gc: GcSummary,
}

impl FileSummary {
    pub fn new(l: &Loaded, gc: GcSummary) -> Self {
        FileSummary {
            file: l.label.clone(),
            kind: l.kind(),
            format: l.format.as_str(),
            lines: l.log.lines,
            skipped_lines: l.log.skipped_lines,
            gc,
        }
    }
}

/// A file's outcome: its summary, or the error that stopped it.
pub enum Outcome {
    Ok(Box<FileSummary>),
    Failed { file: String, error: String },
}

/// Stable, unit-suffixed columns for spreadsheets.
const COLUMNS: [&str; 20] = [
    "file",
    "kind",
    "format",
    "lines",
    "skipped_lines",
    "collections",
    "pauses",
    "pause_total_ms",
    "pause_max_ms",
    "pause_mean_ms",
    "pause_p50_ms",
    "pause_p95_ms",
    "pause_p99_ms",
    "full_collections",
    "safepoint_pauses",
    "safepoint_total_ms",
    "span_s",
    "throughput_pct",
    "heap_max_kb",
    "error",
];

/// The columns shown to people in the text table (all columns go to CSV/TSV/JSON).
const TEXT_COLUMNS: [&str; 11] = [
    "file",
    "format",
    "collections",
    "pauses",
    "pause_total_ms",
    "pause_max_ms",
    "pause_p95_ms",
    "full_collections",
    "span_s",
    "throughput_pct",
    "error",
];

fn row(o: &Outcome, digits: Option<usize>) -> Vec<String> {
    match o {
        Outcome::Failed { file, error } => {
            let mut r = vec![String::new(); COLUMNS.len()];
            r[0] = file.clone();
            r[COLUMNS.len() - 1] = error.clone();
            r
        }
        Outcome::Ok(s) => {
            let g = &s.gc;
            vec![
                s.file.clone(),
                s.kind.to_string(),
                s.format.to_string(),
                s.lines.to_string(),
                s.skipped_lines.to_string(),
                g.collections.to_string(),
                g.pauses.to_string(),
                num(g.pause_total_ms, digits),
                opt(g.pause_max_ms, digits),
                opt(g.pause_mean_ms, digits),
                opt(g.pause_p50_ms, digits),
                opt(g.pause_p95_ms, digits),
                opt(g.pause_p99_ms, digits),
                g.full_collections.to_string(),
                g.safepoint_pauses.to_string(),
                num(g.safepoint_total_ms, digits),
                opt(g.span_s, digits),
                opt(g.throughput_pct, digits),
                g.heap_max_kb.map(|v| v.to_string()).unwrap_or_default(),
                String::new(),
            ]
        }
    }
}

pub fn render(outcomes: &[Outcome], format: Format) -> String {
    match format {
        Format::Json => {
            let v: Vec<Value> = outcomes
                .iter()
                .map(|o| match o {
                    Outcome::Ok(s) => serde_json::to_value(s).unwrap_or(Value::Null),
                    Outcome::Failed { file, error } => {
                        serde_json::json!({ "file": file, "error": error })
                    }
                })
                .collect();
            let mut s = serde_json::to_string_pretty(&v).unwrap_or_else(|_| "[]".into());
            s.push('\n');
            s
        }
        Format::Table => {
            let idx: Vec<usize> = TEXT_COLUMNS
                .iter()
                .filter_map(|c| COLUMNS.iter().position(|k| k == c))
                .collect();
            let mut t = Table::new(&TEXT_COLUMNS).numeric_from(2);
            t.numeric[TEXT_COLUMNS.len() - 1] = false;
            for o in outcomes {
                let r = row(o, Some(3));
                t.push(idx.iter().map(|&i| r[i].clone()).collect());
            }
            format.writer().write(&t)
        }
        Format::Csv | Format::Tsv => {
            let mut t = Table::new(&COLUMNS);
            for o in outcomes {
                t.push(row(o, None));
            }
            format.writer().write(&t)
        }
    }
}
