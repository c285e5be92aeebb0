//! `gcperf report`: a report folder for a folder of runs. Its inputs go through
//! `report::batch::ordered` as `batch::each_input`'s do, but not through `each_input`: a window
//! error is a row of `summary.csv`, not a note; the inputs' messages come after the report is
//! written and the runs are paired, in the report's words (no JVM-restart note).

use super::batch::{inputs, note, notes, progress, Tally};
use super::options::{check_bands, gc_window, perf_options, window_text, Slo, BOTH};
use super::{listing, print};
use crate::analyze;
use crate::cli::ReportArgs;
use crate::error::escape_path;
use crate::render::charts::{self, ChartSettings};
use anyhow::Context;

pub(super) fn run(a: ReportArgs) -> anyhow::Result<i32> {
    super::options::set_tags(&a.tags)?;
    use crate::report::batch;
    check_bands(&a.pause_bands)?;
    let slo = Slo::read(&a.slo, Some(&a.target), &BOTH)?;
    let mut perf = perf_options(&a.perf)?;
    analyze::slo::add_over(&slo.objectives, &mut perf.over);
    let charts = ChartSettings {
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
    let settings = batch::Settings {
        charts,
        apdex_ms: a.apdex,
    };
    let out = super::options::output_writing_csv(
        a.common.format,
        &a.common.csv,
        crate::report::Format::Table,
    )?;
    prepare_out(&a.out, a.force)?;
    std::fs::create_dir_all(a.out.join("charts"))
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let inputs = inputs(&a.common)?;
    notes(&inputs.skipped);
    let stems = inputs.stems();
    let groups = &inputs.groups;
    let bar = progress(groups.len(), a.common.read.quiet);
    // One input per core at a time, each read, analysed, drawn and dropped; results keep
    // the argument order.
    let mut entries = Vec::with_capacity(groups.len());
    batch::ordered(
        groups.len(),
        rayon::current_num_threads(),
        &|i| {
            let e = batch::process(&groups[i], &stems[i], &a.out, &settings);
            bar.inc(1);
            e
        },
        &mut |_, e| entries.extend(e),
    );
    bar.finish_and_clear();
    for e in &mut entries {
        if let crate::report::summary::Outcome::Ok(s) = &mut e.outcome {
            s.judge(&slo.objectives, false);
        }
    }
    let verdicts = super::options::slo_rows(entries.iter().filter_map(|e| e.outcome.summary()));
    let reported_any = entries.iter().any(|e| e.outcome.summary().is_some());
    let slo_failed = slo.check_judged(&verdicts, reported_any)?;
    // The page shows the verdicts; stderr and `--slo-out` say them as every command does.
    slo.said(&verdicts, out, reported_any)?;
    // GC and performance logs of the same run: their correlation too.
    let (pairs, pair_notes) = crate::report::correlate::pairs(&entries, &a.out, &settings.charts);
    notes(&pair_notes);
    let written = batch::write(&a.out, &entries, &pairs, out)
        .with_context(|| format!("cannot write the report into {}", a.out.display()))?;
    let mut reported = 0;
    for e in &entries {
        notes(&e.notes);
        if !a.common.read.quiet {
            e.said.iter().for_each(|n| note(n));
        }
        match &e.outcome {
            crate::report::summary::Outcome::Failed { file, error } => {
                note(&format!("gcperf: {file}: {error}"))
            }
            crate::report::summary::Outcome::Ok(s) => {
                reported += 1;
                if !a.common.read.quiet && e.skipped > 0 {
                    let bad = e.bad.iter().map(|(n, t)| (*n, t.as_str()));
                    super::batch::skipped_note(&s.file, e.skipped, s.lines, bad)
                        .iter()
                        .for_each(|l| note(l));
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
        ..Tally::default()
    };
    // Charts that could not be written (a full disk): an output error.
    if entries.iter().any(|e| e.charts_unwritten) {
        return Ok(2);
    }
    Ok(tally.exit_code_slo(a.common.read.strict, slo_failed))
}

/// The files a report writes at the top of its folder; `charts/` holds its PNGs, `runs/`
/// its runs' pages.
const REPORT_FILES: [&str; 4] = ["index.html", "summary.csv", "operations.csv", "slo.csv"];
/// A report's folders, and the kind of file each holds.
const REPORT_DIRS: [(&str, &str); 2] = [("charts", "png"), (crate::report::page::RUNS, "html")];

/// Make `dir` ready for a report. A missing or empty folder is used as it is. One holding an
/// earlier report (its `index.html` is gcperf's) has that report's files removed, so that
/// none of its charts is left beside the new ones. One holding anything else is refused
/// (exit 2) unless `force`: then those files stay, and only an earlier report's go.
fn prepare_out(dir: &std::path::Path, force: bool) -> anyhow::Result<()> {
    let Ok(listing) = std::fs::read_dir(dir) else {
        // Missing (made next), or not a folder (the making says so).
        return Ok(());
    };
    let earlier = std::fs::read_to_string(dir.join("index.html")).is_ok_and(|h| {
        h.contains(&format!(
            "<title>{}</title>",
            crate::report::page::INDEX_TITLE
        ))
    });
    // A report's folder holds only the files of its kind.
    let only = |sub: &str, ext: &str| {
        std::fs::read_dir(dir.join(sub)).is_ok_and(|d| {
            d.flatten()
                .all(|e| e.path().extension().is_some_and(|x| x == ext))
        })
    };
    let mut others: Vec<String> = Vec::new();
    for e in listing.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let ours = earlier
            && (REPORT_FILES.contains(&name.as_str())
                || REPORT_DIRS
                    .iter()
                    .any(|&(sub, ext)| name == sub && only(sub, ext)));
        if !ours {
            others.push(name);
        }
    }
    others.sort();
    if !others.is_empty() && !force {
        let shown: Vec<&str> = others.iter().take(3).map(String::as_str).collect();
        anyhow::bail!(
            "--out {}: holds {}{} and is not an earlier gcperf report: give a new or empty folder, or --force to write beside them",
            escape_path(dir),
            shown.join(", "),
            if others.len() > 3 {
                format!(" and {} more", others.len() - 3)
            } else {
                String::new()
            }
        );
    }
    if earlier {
        let gone = |p: &std::path::Path| match std::fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
        for f in REPORT_FILES {
            gone(&dir.join(f)).with_context(|| format!("cannot replace {}", dir.display()))?;
        }
        for (sub, ext) in REPORT_DIRS {
            let sub = dir.join(sub);
            for e in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
                if e.path().extension().is_some_and(|x| x == ext) {
                    gone(&e.path()).with_context(|| format!("cannot replace {}", sub.display()))?;
                }
            }
        }
    }
    Ok(())
}
