//! `gcperf perf`: per file the request figures, the latency bands (one column per file when
//! several are given, as the source documents compare runs), the shares over thresholds and
//! the per-operation Java/DB split.

use super::summary::FileSummary;
use super::{num, opt, opt_count, Format, Output, Table, TableWriter, Text};
use crate::analyze::slo::OP_FIELDS;

/// Which table `--format csv|tsv` prints (text shows all; JSON holds all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    Op,
    Band,
    Over,
    Interval,
    Error,
}

/// The failed requests by message: one row per file and message, most frequent first, with
/// its share of the errors and of all requests and the operations it failed in. People's
/// formats write a missing message `(no message)`; CSV leaves it empty.
pub fn error_table(files: &[FileSummary], digits: Option<usize>, with_file: bool) -> Table {
    let mut h = Vec::new();
    if with_file {
        h.push("file");
    }
    h.extend([
        "message",
        "count",
        "errors_pct",
        "requests_pct",
        "operations",
    ]);
    let mut t = Table::new(&h).numeric_from(h.len() - 4);
    t.numeric[h.len() - 1] = false;
    for f in files {
        let Some(p) = &f.perf else { continue };
        for e in &p.error_messages {
            let mut row = Vec::with_capacity(h.len());
            if with_file {
                row.push(f.file.clone());
            }
            let message = match (&e.message[..], digits) {
                ("", Some(_)) => "(no message)".to_string(),
                (m, _) => m.to_string(),
            };
            let ops: Vec<String> = e
                .operations
                .iter()
                .map(|o| format!("{} {}", o.operation, o.count))
                .collect();
            row.extend([
                message,
                e.count.to_string(),
                num(e.errors_pct, digits),
                num(e.requests_pct, digits.map(|d| d.max(4))),
                ops.join(", "),
            ]);
            t.push(row);
        }
    }
    t
}

/// One row per file and operation, every figure (CSV, TSV, operations.csv); the columns
/// of the first version come first, in their order, the others after them.
pub fn ops_table(files: &[FileSummary], digits: Option<usize>) -> Table {
    let header: Vec<&str> = ["file", "operation"]
        .into_iter()
        .chain(OP_FIELDS.map(|f| f.0))
        .collect();
    let mut t = Table::new(&header).numeric_from(2);
    for f in files {
        let Some(p) = &f.perf else { continue };
        for o in &p.operations {
            let cells = OP_FIELDS.iter().map(|(key, get)| match *key {
                "count" | "errors" | "db_calls_sum" => opt_count(get(o).map(|v| v as u64)),
                "error_pct" => opt(get(o), digits.map(|d| d.max(4))),
                _ => opt(get(o), digits),
            });
            t.push(
                [f.file.clone(), o.name.clone()]
                    .into_iter()
                    .chain(cells)
                    .collect(),
            );
        }
    }
    t
}

/// The per-operation table people read (text and Markdown), as load-test reports lay it out:
/// count, errors, error %, throughput, min, mean, p50, p90, p95, p99, max (ms of the whole
/// request), then the Java and DB means and the DB share where the log has the split (the
/// semicolon log; JMeter and The Grinder do not, and get no empty columns for it). With
/// `with_file`, a first column names the file.
pub fn ops_people_table(files: &[FileSummary], with_file: bool) -> Table {
    let perf = || files.iter().filter_map(|f| f.perf.as_ref().map(|p| (f, p)));
    let split = perf().any(|(_, p)| p.operations.iter().any(|o| o.db_ms_sum.is_some()));
    let mut h: Vec<&str> = Vec::new();
    if with_file {
        h.push("file");
    }
    h.extend([
        "operation",
        "count",
        "errors",
        "error_pct",
        "per_s",
        "min_ms",
        "mean_ms",
        "p50_ms",
        "p90_ms",
        "p95_ms",
        "p99_ms",
        "max_ms",
    ]);
    if split {
        h.extend(["java_mean_ms", "db_mean_ms", "db_share_pct"]);
    }
    let mut t = Table::new(&h).numeric_from(if with_file { 2 } else { 1 });
    let d = Some(3);
    for (f, p) in perf() {
        for o in &p.operations {
            let mut row = Vec::with_capacity(h.len());
            if with_file {
                row.push(f.file.clone());
            }
            row.extend([
                o.name.clone(),
                o.count.to_string(),
                o.errors.to_string(),
                num(o.error_pct, Some(2)),
                opt(o.throughput_per_s, d),
                num(o.total_ms_min, d),
                num(o.total_ms_mean, d),
                num(o.total_ms_p50, d),
                num(o.total_ms_p90, d),
                num(o.total_ms_p95, d),
                num(o.total_ms_p99, d),
                num(o.total_ms_max, d),
            ]);
            if split {
                row.extend([
                    opt(o.java_ms_mean, d),
                    opt(o.db_ms_mean, d),
                    opt(o.db_share_pct, Some(2)),
                ]);
            }
            t.push(row);
        }
    }
    t
}

fn long_band_table(files: &[FileSummary], digits: Option<usize>) -> Table {
    let bands = files
        .iter()
        .filter_map(|f| Some((&f.file, &f.perf.as_ref()?.bands[..])));
    super::band_table("requests", bands, digits)
}

fn over_table(files: &[FileSummary], digits: Option<usize>) -> Table {
    let mut t = Table::new(&["file", "over_ms", "requests", "share_pct"]).numeric_from(1);
    for f in files {
        let Some(p) = &f.perf else { continue };
        for o in &p.over {
            t.push(vec![
                f.file.clone(),
                num(o.ms, None),
                o.count.to_string(),
                opt(o.share_pct, digits),
            ]);
        }
    }
    t
}

fn interval_table(files: &[FileSummary], digits: Option<usize>) -> Table {
    let mut t = Table::new(&[
        "file",
        "start",
        "requests",
        "errors",
        "covered_s",
        "throughput_per_s",
        "total_ms_mean",
        "total_ms_p99",
        "total_ms_max",
    ])
    .numeric_from(2);
    for f in files {
        let Some(rows) = f.perf.as_ref().and_then(|p| p.intervals.as_ref()) else {
            continue;
        };
        for r in rows {
            t.push(vec![
                f.file.clone(),
                r.start.clone(),
                r.requests.to_string(),
                r.errors.to_string(),
                num(r.covered_s, None),
                opt(r.throughput_per_s, digits),
                opt(r.total_ms_mean, digits),
                opt(r.total_ms_p99, digits),
                opt(r.total_ms_max, digits),
            ]);
        }
    }
    t
}

/// The band table as the seeds print it: one row per band, a share column per file.
fn wide_band_table(files: &[FileSummary]) -> Table {
    let perf: Vec<&FileSummary> = files.iter().filter(|f| f.perf.is_some()).collect();
    let mut headers = vec!["band_ms".to_string()];
    headers.extend(perf.iter().map(|f| format!("{} %", short(&f.file))));
    let mut t = Table::new(&headers).numeric_from(1);
    let Some(first) = perf.first().and_then(|f| f.perf.as_ref()) else {
        return t;
    };
    for (i, b) in first.bands.iter().enumerate() {
        let mut row = vec![b.label.clone()];
        for f in &perf {
            // A band none of a run's requests fell in is a known 0 %, as every other table
            // and format prints it; only a run without requests has no share (`–`).
            let share = f.perf.as_ref().and_then(|p| p.bands.get(i)?.share_pct);
            row.push(opt(share, Some(4)));
        }
        t.push(row);
    }
    t
}

/// A path's file name (the path itself where it has none).
pub(super) fn short(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
}

/// `by`: the one table to write (None: each format's default; text shows everything). JSON
/// holds it all whatever `by` is (the command refuses `--by` with it).
pub fn render(files: &[FileSummary], out: Output, by: Option<By>) -> String {
    match out.format {
        Format::Json | Format::Jsonl => super::json_rows(files, out.format),
        // No input of the kind: no table (not a header with nothing under it).
        _ if !files.iter().any(|f| f.perf.is_some())
            && out.format != Format::Csv
            && out.format != Format::Tsv =>
        {
            String::new()
        }
        Format::Table if by.is_none() => {
            let mut out = String::new();
            for f in files {
                let Some(p) = &f.perf else { continue };
                let one = std::slice::from_ref(f);
                // An empty value is no figure, never a unit alone (`( %)`, ` s`).
                let unit = crate::report::with_unit;
                out.push_str(&format!(
                    "{} ({}): {} requests, {} errors ({}), {} inconsistent; {} to {}, {}, {}\n",
                    f.file,
                    f.format,
                    p.requests,
                    p.errors,
                    unit(p.error_pct, 4, " %"),
                    p.inconsistent,
                    p.first.as_deref().unwrap_or(crate::report::NO_FIGURE),
                    p.last.as_deref().unwrap_or(crate::report::NO_FIGURE),
                    unit(p.span_s, 3, " s"),
                    unit(p.throughput_per_s, 3, " req/s"),
                ));
                // A log without a Java/DB split (JMeter, Grinder) has no DB share: said by
                // leaving it out, not by a lone `%`.
                let db = p
                    .db_share_pct
                    .map(|v| format!("; DB share {} %", num(v, Some(2))))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "total ms: mean {}, p50 {}, p90 {}, p95 {}, p99 {}, max {}{db}\n",
                    unit(p.total_ms_mean, 3, ""),
                    unit(p.total_ms_p50, 3, ""),
                    unit(p.total_ms_p90, 3, ""),
                    unit(p.total_ms_p95, 3, ""),
                    unit(p.total_ms_p99, 3, ""),
                    unit(p.total_ms_max, 3, ""),
                ));
                for o in &p.over {
                    out.push_str(&format!(
                        "over {} ms: {} ({})\n",
                        num(o.ms, None),
                        o.count,
                        unit(o.share_pct, 4, " %")
                    ));
                }
                out.push('\n');
                if !p.operations.is_empty() {
                    out.push_str(&Text.write(&ops_people_table(one, false)));
                    out.push('\n');
                }
                if !p.error_messages.is_empty() {
                    out.push_str("errors by message\n");
                    out.push_str(&Text.write(&error_table(one, Some(2), false)));
                    out.push('\n');
                }
                if p.intervals.is_some() {
                    super::push_file_table(&mut out, interval_table(one, Some(3)));
                }
            }
            if files.iter().any(|f| f.perf.is_some()) {
                out.push_str(&Text.write(&wide_band_table(files)));
            }
            out
        }
        // CSV, TSV, Markdown, and text with --by: that table alone, each row naming its file,
        // as in a spreadsheet (people's formats rounded).
        _ => {
            let text = out.format == Format::Table;
            let people = text || out.format == Format::Markdown;
            let t = match by.unwrap_or(By::Op) {
                By::Op if people => ops_people_table(files, true),
                By::Op => ops_table(files, None),
                By::Band => long_band_table(files, text.then_some(4)),
                By::Over => over_table(files, text.then_some(4)),
                By::Interval => interval_table(files, text.then_some(3)),
                By::Error => error_table(files, people.then_some(2), true),
            };
            match text {
                true => Text.write(&t),
                false => out.writer().write(&t),
            }
        }
    }
}
