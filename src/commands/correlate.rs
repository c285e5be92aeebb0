//! `gcperf correlate`: one GC log and the performance logs of the same run on one clock, the
//! table of slow requests over pauses, and its chart.

use super::batch::{load_noted, note, notes, progress, Tally};
use super::options::{duration_s, interval_ms, log_time, output_or, window_order};
use super::print;
use crate::cli::CorrelateArgs;
use crate::input;
use crate::load::{Input, Loaded};
use crate::render::charts;
use crate::report::Format;
use anyhow::Context;
use std::path::PathBuf;

/// What a listed file is, by the family detected in its head (None: not readable, or no
/// family's).
fn head_kind(p: &std::path::Path) -> Option<input::Detected> {
    let mut r = input::open(p).ok()?;
    let mut head = Vec::new();
    r.append(&mut head, input::DETECT_PROBE).ok()?;
    input::detect(&head)
}

/// `gcperf correlate`: the GC log and the performance logs loaded (bad inputs noted and left
/// out), put on one clock and joined; the table and the chart.
pub(super) fn run(a: CorrelateArgs) -> anyhow::Result<i32> {
    use crate::analyze::correlate as cor;
    if !a.over.is_finite() || a.over < 0.0 {
        anyhow::bail!("--over takes non-negative milliseconds, e.g. 50");
    }
    let tz_min =
        a.tz.as_deref()
            .map(|t| {
                crate::parse::zone::parse_zone(t)
                    .ok_or_else(|| anyhow::anyhow!("bad --tz {t:?}: use e.g. +0300, -05:00 or Z"))
            })
            .transpose()?;
    super::options::png_chart(a.chart.as_deref())?;
    let (from_ms, to_ms) = (
        a.window.from.as_deref().map(log_time).transpose()?,
        a.window.to.as_deref().map(log_time).transpose()?,
    );
    window_order(
        &a.window,
        matches!((from_ms, to_ms), (Some(f), Some(t)) if f > t),
    )?;
    let opts = cor::Options {
        over_ms: a.over,
        gc_start_ms: a.gc_start.as_deref().map(log_time).transpose()?,
        tz_min,
        safepoints: a.safepoints,
        stalls: a.stalls,
        skip_s: duration_s(&a.window.skip)?,
        from_ms,
        to_ms,
    };
    let interval = a.interval.as_deref().map(interval_ms).transpose()?;
    let out = output_or(Some(a.format), &a.csv, Format::Table)?;
    let mut tally = Tally::default();
    // Load a group of files: the inputs, their stderr lines, their counts.
    let load = |files: &[PathBuf]| -> (Vec<Input>, Vec<String>, Tally) {
        let (mut got, mut lines, mut t) = (Vec::new(), Vec::new(), Tally::default());
        for (r, notes, counts) in load_noted(files, a.quiet) {
            lines.extend(notes);
            t.add(counts);
            got.extend(r.ok());
        }
        (got, lines, t)
    };
    let (mut gc_paths, mut perf_paths) = (a.gc.clone(), a.perf.clone());
    if let Some(list) = &a.files_from {
        let given: Vec<PathBuf> = a.gc.iter().chain(&a.perf).cloned().collect();
        let (listed, too_long) = super::batch::files_from(list, a.null, &given)?;
        notes(&too_long);
        tally.left_out += too_long.len();
        // Each to its side by what its head holds; what is neither goes with the performance
        // logs, whose loading says what it is and leaves it out.
        for p in input::expand(&listed).files {
            match head_kind(&p) {
                Some(input::Detected::Gc(_)) => gc_paths.push(p),
                _ => perf_paths.push(p),
            }
        }
    }
    super::batch::stdin_once(&[gc_paths.as_slice(), &perf_paths].concat())?;
    let gx = input::expand(&gc_paths);
    let px = input::expand(&perf_paths);
    notes(gx.skipped.iter().chain(&px.skipped));
    tally.left_out += gx.skipped.len() + px.skipped.len();
    // The GC log is read beside the performance logs (each parse is parallel too, but a
    // stream's reader thread and its merging steps leave a core idle).
    let bar = progress(1 + px.files.len(), a.quiet);
    let (gc_loaded, perf_loaded) = std::thread::scope(|sc| {
        let g = sc.spawn(|| {
            let r = (!gx.files.is_empty()).then(|| load(&gx.files));
            bar.inc(1);
            r
        });
        let p: Vec<_> = px
            .files
            .iter()
            .map(|f| {
                let r = load(std::slice::from_ref(f));
                bar.inc(1);
                r
            })
            .collect();
        (g.join(), p)
    });
    bar.finish_and_clear();
    let gc_loaded = gc_loaded.map_err(|_| anyhow::anyhow!("reading the GC log failed"))?;
    let (mut gc, mut perfs): (Option<Loaded>, Vec<crate::load::LoadedPerf>) = (None, Vec::new());
    // The GC log's inputs, then the performance logs': each kept on its side or left out.
    let sides = gc_loaded.into_iter().map(|g| (true, g));
    for (gc_side, (inputs, lines, t)) in sides.chain(perf_loaded.into_iter().map(|p| (false, p))) {
        lines.iter().for_each(|l| note(l));
        tally.add(t);
        for i in inputs {
            let why = match (gc_side, i) {
                (true, Input::Gc(l)) if gc.is_none() => {
                    gc = Some(l);
                    continue;
                }
                (false, Input::Perf(l)) => {
                    perfs.push(l);
                    continue;
                }
                (true, i) => format!(
                    "{}: not the GC log (a {} log, or a second part)",
                    i.label(),
                    i.kind()
                ),
                (false, i) => format!("{}: a GC log given to --perf", i.label()),
            };
            note(&format!("gcperf: {why}: left out"));
            tally.left_out += 1;
        }
    }
    let Some(gc) = gc else {
        eprintln!("gcperf: no GC log could be read: nothing to correlate");
        return Ok(1);
    };
    if perfs.is_empty() {
        eprintln!("gcperf: no performance log could be read: nothing to correlate");
        return Ok(1);
    }
    let side = cor::GcSide {
        frame: &gc.frame,
        clock: gc.format.clock(),
        zone: gc.zone,
    };
    let sides: Vec<cor::PerfSide> = perfs
        .iter()
        .map(|p| cor::PerfSide {
            frame: &p.frame,
            utc: p.utc(),
        })
        .collect();
    let prepared = match cor::prepare(&side, &sides, &opts) {
        Ok(p) => p,
        Err(e @ cor::CorrelateError::NeedGcStart) => anyhow::bail!("{}: {e}", gc.label),
        Err(cor::CorrelateError::Polars(e)) => anyhow::bail!("{}: analysis failed: {e}", gc.label),
        Err(e) => {
            note(&format!(
                "gcperf: {}",
                crate::report::correlate::error_text(&e)
            ));
            return Ok(1);
        }
    };
    let labels: Vec<String> = perfs.iter().map(|p| p.label.clone()).collect();
    let c = cor::correlate(&prepared, &gc.label, &labels)
        .map_err(|e| anyhow::anyhow!("{}: analysis failed: {e}", gc.label))?;
    if let Some(path) = &a.chart {
        // A chart that cannot be written is exit 2 with the file named, before the table.
        crate::output::check_writable(path)
            .with_context(|| format!("cannot write the chart {}", path.display()))?;
    }
    super::options::access_used(&a.access)?;
    print(&out.finish(crate::report::correlate::render(
        std::slice::from_ref(&c),
        out,
    )))?;
    if let Some(path) = &a.chart {
        let data = cor::chart_data(&prepared, a.size.width as usize, interval)
            .map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
        let perf_names: Vec<_> = perfs.iter().map(|p| charts::file_name(&p.path)).collect();
        let title = format!(
            "{} + {}",
            charts::file_name(&gc.path),
            perf_names.join(", ")
        );
        crate::render::correlate::chart(path, &title, &data, a.size)
            .map_err(|e| anyhow::anyhow!("cannot write the chart {e}"))?;
    }
    tally.produced = 1;
    Ok(tally.exit_code(a.strict))
}
