//! `gcperf report`: a report folder for a folder of runs. Its inputs go through
//! `report::batch`'s loop, not `batch::each_input`: a window error is a row of `summary.csv`,
//! not a note; the inputs' messages come after the report is written and the runs are paired,
//! in the report's words (no JVM-restart note).

use super::batch::{inputs, note, progress, Tally};
use super::options::{check_bands, gc_window, output, perf_options, window_text, Slo, BOTH};
use super::{listing, print};
use crate::analyze;
use crate::cli::ReportArgs;
use crate::error::escape_path;
use crate::render::charts::{self, ChartSettings};
use anyhow::Context;

pub(super) fn run(a: ReportArgs) -> anyhow::Result<i32> {
    use crate::report::batch;
    check_bands(&a.pause_bands)?;
    let slo = Slo::read(&a.slo, Some(&a.target), &BOTH)?;
    let mut perf = perf_options(&a.perf)?;
    analyze::slo::add_over(&slo.objectives, &mut perf.over);
    let settings = ChartSettings {
        kinds: charts::ChartKind::defaults(),
        percentiles: vec![50, 95],
        objectives: Vec::new(),
        size: a.size,
        log_y: a.log_y,
        gc_bands: a.pause_bands.clone(),
        interval_ms: perf.interval_ms.take(),
        window: window_text(&a.perf.window, perf.skip_s),
        pause_target_ms: slo.pause_target_ms,
        gc_window: gc_window(&a.perf.window)?,
        perf,
    };
    let out = output(&a.common)?;
    std::fs::create_dir_all(a.out.join("charts"))
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let inputs = inputs(&a.common);
    for s in &inputs.skipped {
        note(&format!("gcperf: {s}"));
    }
    let stems = inputs.stems();
    let groups = &inputs.groups;
    let bar = progress(groups.len(), a.common.quiet);
    // One input per core at a time, each read, analysed, drawn and dropped; results keep
    // the argument order.
    let mut entries = batch::process_all(
        groups,
        &stems,
        &a.out,
        &settings,
        rayon::current_num_threads(),
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    for e in &mut entries {
        if let crate::report::summary::Outcome::Ok(s) = &mut e.outcome {
            s.judge(&slo.objectives, false);
        }
    }
    let judged = entries.iter().filter_map(|e| match &e.outcome {
        crate::report::summary::Outcome::Ok(s) => Some((s.file.as_str(), s.slo.as_slice())),
        crate::report::summary::Outcome::Failed { .. } => None,
    });
    let reported_any = entries
        .iter()
        .any(|e| matches!(e.outcome, crate::report::summary::Outcome::Ok(_)));
    let slo_failed = slo.check_judged(judged.clone(), reported_any)?;
    // The page shows the verdicts; stderr and `--slo-out` say them as every command does.
    let verdicts: Vec<_> = judged.collect();
    slo.said(&verdicts, out)?;
    // GC and performance logs of the same run: their correlation too.
    let (pairs, pair_notes) = crate::report::correlate::pairs(&entries, &a.out, &settings);
    for n in &pair_notes {
        note(&format!("gcperf: {n}"));
    }
    let written = batch::write(&a.out, &entries, &pairs, out)
        .with_context(|| format!("cannot write the report into {}", a.out.display()))?;
    let mut reported = 0;
    for e in &entries {
        for n in &e.notes {
            note(&format!("gcperf: {n}"));
        }
        match &e.outcome {
            crate::report::summary::Outcome::Failed { file, error } => {
                note(&format!("gcperf: {file}: {error}"))
            }
            crate::report::summary::Outcome::Ok(s) => {
                reported += 1;
                if !a.common.quiet && e.skipped > 0 {
                    note(&format!(
                        "gcperf: {}: {} of {} lines not understood (skipped)",
                        s.file, e.skipped, s.lines
                    ));
                    for (n, t) in e.bad.iter().take(3) {
                        note(&format!("  line {n}: {t}"));
                    }
                }
                if let Some(err) = &e.chart_error {
                    note(&format!("gcperf: {}: charts not drawn: {err}", s.file));
                }
            }
        }
    }
    super::options::access_used(&a.perf.access)?;
    print(&listing(&written, out))?;
    eprintln!(
        "gcperf: reported {reported} of {} inputs into {}",
        entries.len(),
        escape_path(&a.out)
    );
    let tally = Tally {
        produced: reported,
        left_out: inputs.skipped.len()
            + entries
                .iter()
                .filter(|e| e.incomplete() && e.skipped == 0)
                .count(),
        skipped_lines: entries.iter().map(|e| e.skipped).sum(),
    };
    // Charts that could not be written (a full disk): an output error.
    if entries.iter().any(|e| e.charts_unwritten) {
        return Ok(2);
    }
    Ok(tally.exit_code_slo(a.common.strict, slo_failed))
}
