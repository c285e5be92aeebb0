//! `gcperf gc`: each GC log's breakdown per pause kind, bands, causes and findings, or with
//! `--events` every record as CSV, TSV or JSON Lines, streamed.

use super::batch::{each_input, failed, inputs, wrong_kind, Step};
use super::options::{check_bands, gc_window, in_window, interval_ms, output, slo_rows, Slo};
use super::print;
use crate::analyze;
use crate::cli::GcArgs;
use crate::load::{Input, Loaded};
use crate::report::gc::{self as gcreport, GcReport};
use crate::report::summary::{self, FileSummary};
use crate::report::Format;
use std::io::Write;

pub(super) fn run(a: GcArgs) -> anyhow::Result<i32> {
    super::options::set_tags(&a.tags)?;
    check_bands(&a.pause_bands)?;
    let slo = Slo::read(&a.slo, Some(&a.target), &[analyze::slo::LogKind::Gc])?;
    let interval_s = a
        .interval
        .as_deref()
        .map(interval_ms)
        .transpose()?
        .map(|ms| ms as f64 / 1000.0);
    if a.events && interval_s.is_some() {
        anyhow::bail!("--interval is for the breakdown's rates, not --events");
    }
    // Every event is CSV unless another format is asked for.
    let out = match a.events {
        true => super::options::output_or(a.common.format, &a.common.csv, Format::Csv)?,
        false => output(&a.common)?,
    };
    super::options::terminal(&a.term, out.format);
    if a.by.is_some() && out.format.is_json() {
        anyhow::bail!("--by picks one table; JSON holds them all");
    }
    let inputs = inputs(&a.common)?;
    let win = gc_window(&a.window)?;
    if a.events {
        // Every event as CSV (TSV with --format tsv, a JSON object a line with jsonl); each
        // input's rows printed as soon as it is done (and those before it), one header. A
        // JSON array or Markdown of millions of rows is not offered, and not quietly turned
        // into CSV either.
        if out.format == Format::Table {
            anyhow::bail!(
                "--events prints CSV (or TSV with --format tsv), not a text table: every record \
                 is a row; for one on a terminal, pipe the CSV through `column -ts,`"
            );
        }
        if a.by.is_some() {
            anyhow::bail!("--by picks a breakdown table; --events prints every record");
        }
        match out.format {
            Format::Json => anyhow::bail!(
                "--events prints CSV, TSV or JSON Lines (--format jsonl: an object a record), \
                 not one JSON array; for typed columns, `gcperf export` writes Parquet"
            ),
            Format::Markdown => {
                anyhow::bail!("--events prints CSV, TSV or JSON Lines, not markdown")
            }
            _ => {}
        }
        let d = out.delimited();
        let rows = d.as_ref().map_or(
            gcreport::EventRows::JsonLines,
            gcreport::EventRows::Delimited,
        );
        let (mut first, mut closed, mut failure) = (true, false, None::<anyhow::Error>);
        // Each input's rows written as they are made, straight to stdout (held as one text
        // first, a 210 MB log's rows took 2.2 GB).
        let tally = each_input(
            &inputs,
            a.common.read.quiet,
            &|_, _, r| {
                in_window(&win, r, |l| match l.gc() {
                    Some(_) => Step::output(l),
                    None => wrong_kind(&l),
                })
            },
            &mut |_, l: Input| {
                let Some(g) = l.gc() else { return };
                if closed || failure.is_some() {
                    return;
                }
                let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
                let bom = first && out.bom && d.is_some();
                let r = (|| -> Result<(), gcreport::EventsError> {
                    if bom {
                        w.write_all("\u{feff}".as_bytes())?;
                    }
                    gcreport::write_events(g, a.all_records, &rows, first, &mut w)?;
                    w.flush()?;
                    Ok(())
                })();
                first = false;
                match r {
                    Ok(()) => {}
                    // A closed pipe (`| head`) is not an error worth a message.
                    Err(gcreport::EventsError::Io(e))
                        if e.kind() == std::io::ErrorKind::BrokenPipe =>
                    {
                        closed = true;
                    }
                    Err(gcreport::EventsError::Io(e)) => {
                        failure = Some(anyhow::Error::new(e).context(format!(
                            "{} (the events of {})",
                            super::STDOUT_FAILED,
                            g.label
                        )))
                    }
                    Err(e) => {
                        failure = Some(
                            anyhow::Error::new(e)
                                .context(format!("{}: writing its events", g.label)),
                        )
                    }
                }
            },
        );
        return failure.map_or(Ok(tally.exit_code(a.common.read.strict)), Err);
    }
    let mut reports: Vec<GcReport> = Vec::new();
    let mut lines = super::JsonLines::new(out.format, true);
    let tally = each_input(
        &inputs,
        a.common.read.quiet,
        &|_, _, r| {
            in_window(&win, r, |l| match l.gc() {
                Some(g) => match gc_report(g, &a.pause_bands, slo.pause_target_ms, interval_s) {
                    Ok(mut rep) => {
                        rep.summary.judge(&slo.objectives, false);
                        Step::output(rep)
                    }
                    Err(e) => failed(&l, e),
                },
                None => wrong_kind(&l),
            })
        },
        &mut |_, rep| {
            lines.write(|| &rep);
            reports.push(rep)
        },
    );
    let streamed = lines.finish()?;
    let verdicts = slo_rows(reports.iter().map(|r| &r.summary));
    let failed = slo.check_judged(&verdicts, tally.produced > 0)?;
    let said = slo.said(&verdicts, out, tally.produced > 0)?;
    if !streamed {
        print(&out.finish(gcreport::render(&reports, out, a.by) + &said))?;
    }
    Ok(tally.exit_code_slo(a.common.read.strict, failed))
}

fn gc_report(
    l: &Loaded,
    edges: &[f64],
    pause_target_ms: Option<f64>,
    interval_s: Option<f64>,
) -> anyhow::Result<GcReport> {
    // The breakdown, bands and heap beside the summary: after it, one after the other, they
    // kept one core busy on a 1.7 M-row CMS log (the tail after the streaming 0.21 -> 0.13 s,
    // the peak 4 MB higher).
    let f = &l.frame;
    let (sum, (by_kind, (bands, heap))) = rayon::join(
        || summary::gc_summary_interval(l, pause_target_ms, interval_s),
        || {
            rayon::join(
                || analyze::gc::breakdown(f),
                || rayon::join(|| analyze::gc::bands(f, edges), || analyze::gc::heap(f)),
            )
        },
    );
    Ok(GcReport {
        summary: FileSummary::gc(l, sum?),
        by_kind: by_kind?,
        bands: bands?,
        heap: heap?,
        meta: l.log.meta.clone(),
    })
}
