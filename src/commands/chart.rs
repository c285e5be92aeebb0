//! `gcperf chart`: the PNG charts of each input, into a folder.

use super::batch::{each_input, inputs, Step};
use super::options::{
    check_bands, check_latency_bands, check_percentiles, duration_s, gc_window, given_or,
    in_window, interval_ms, output, pause_target_ms, window_text, KindOptions,
};
use super::{listing, print};
use crate::analyze;
use crate::cli::ChartArgs;
use crate::render::charts::{self, ChartSettings};
use anyhow::Context;
use std::path::PathBuf;

pub(super) fn run(a: ChartArgs) -> anyhow::Result<i32> {
    check_bands(&a.pause_bands)?;
    check_latency_bands(&a.latency_bands, "--latency-bands")?;
    let skip_s = duration_s(&a.window.skip)?;
    let win = gc_window(&a.window)?;
    let popts = analyze::perf::PerfOptions {
        bands: given_or(&a.latency_bands, &analyze::perf::DEFAULT_BANDS),
        skip_s,
        from_ms: win.wall_ms().0,
        to_ms: win.wall_ms().1,
        ..analyze::perf::PerfOptions::default()
    };
    let kinds = if a.kind.is_empty() {
        charts::ChartKind::defaults()
    } else {
        a.kind.clone()
    };
    drawn_on(&a, &kinds)?;
    let percentiles = given_or(&a.percentiles, &[50, 95]);
    check_percentiles(&percentiles)?;
    let objectives = analyze::slo::parse(&a.slo)?;
    if !a.slo.is_empty() && objectives.is_empty() {
        anyhow::bail!("--slo: no objective given");
    }
    // Only objectives on a drawn percentile can be drawn; any other would be accepted and
    // then ignored.
    for o in &objectives {
        if analyze::compare::percentile_limits(std::slice::from_ref(o), &percentiles).is_empty() {
            let drawn: Vec<String> = percentiles.iter().map(|p| format!("p{p}")).collect();
            anyhow::bail!(
                "--slo {}: the load curve draws objectives on its percentiles ({}) only",
                o.text,
                drawn.join(", ")
            );
        }
    }
    let settings = ChartSettings {
        kinds,
        percentiles,
        objectives,
        size: a.size,
        log_y: a.log_y,
        gc_bands: a.pause_bands.clone(),
        perf: popts,
        interval_ms: a.interval.as_deref().map(interval_ms).transpose()?,
        window: window_text(&a.window, skip_s),
        pause_target_ms: a.pause_target.as_deref().map(pause_target_ms).transpose()?,
        gc_window: win.clone(),
    };
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let kind_names: Vec<&str> = settings.kinds.iter().map(|k| k.name()).collect();
    let inputs = inputs(&a.common)?;
    let stems = inputs.stems();
    let out = output(&a.common)?;
    let mut written: Vec<PathBuf> = Vec::new();
    // A chart that could not be written (a full disk): an output error, exit 2.
    let unwritten = std::sync::atomic::AtomicBool::new(false);
    let tally = each_input(
        &inputs,
        a.common.read.quiet,
        &|i, _, r| {
            in_window(&win, r, |l| {
                let stem = stems.get(i).map_or("log", String::as_str);
                let stem = crate::report::batch::part_stem(stem, &l);
                let p = |chart: &str| a.out.join(format!("{stem}-{chart}.png"));
                match charts::charts_for(&l, &settings, &p) {
                    Ok(paths) if paths.is_empty() => Step::left_out(Some(format!(
                        "gcperf: {}: no chart of --kind {} applies to a {}",
                        l.label(),
                        kind_names.join(","),
                        if l.gc().is_some() {
                            "GC log"
                        } else {
                            "performance log"
                        }
                    ))),
                    Ok(paths) => Step::output(paths),
                    Err(e) => {
                        if e.unwritten() {
                            unwritten.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                        Step {
                            usage: e.settings(),
                            ..Step::left_out(Some(format!("gcperf: {e}")))
                        }
                    }
                }
            })
        },
        &mut |_, paths: Vec<PathBuf>| written.extend(paths),
    );
    // An option for the charts of one kind of log, where no log of that kind was read.
    let given = |on: bool, name: &'static str| on.then_some(name);
    KindOptions {
        gc: vec![
            given(!a.pause_bands.is_empty(), "--pause-bands"),
            given(a.pause_target.is_some(), "--pause-target"),
        ],
        perf: vec![
            given(!a.latency_bands.is_empty(), "--latency-bands"),
            given(!a.percentiles.is_empty(), "--percentiles"),
            given(!a.slo.is_empty(), "--slo"),
            given(a.interval.is_some(), "--interval"),
        ],
    }
    .check(&tally, &a.access)?;
    print(&listing(&written, out))?;
    if unwritten.into_inner() {
        return Ok(2);
    }
    Ok(tally.exit_code(a.common.read.strict))
}

/// An option drawn on some charts only is refused unless `kinds` has one of them: given with
/// none of them, it would be accepted and ignored.
fn drawn_on(a: &ChartArgs, kinds: &[charts::ChartKind]) -> anyhow::Result<()> {
    use charts::ChartKind as K;
    let options: [(bool, &str, &[K]); 7] = [
        (!a.slo.is_empty(), "--slo", &[K::LoadCurve]),
        (!a.percentiles.is_empty(), "--percentiles", &[K::LoadCurve]),
        (
            !a.pause_bands.is_empty(),
            "--pause-bands",
            &[K::PauseHistogram],
        ),
        (a.pause_target.is_some(), "--pause-target", &[K::Pauses]),
        (
            !a.latency_bands.is_empty(),
            "--latency-bands",
            &[K::LatencyHistogram],
        ),
        (
            a.interval.is_some(),
            "--interval",
            &[K::Timeline, K::LoadCurve],
        ),
        (
            a.log_y,
            "--log-y",
            &[K::Pauses, K::PauseHistogram, K::LatencyHistogram],
        ),
    ];
    for (_, name, on) in options.iter().filter(|o| o.0) {
        if !on.iter().any(|k| kinds.contains(k)) {
            let names: Vec<&str> = on.iter().map(|k| k.name()).collect();
            anyhow::bail!(
                "{name} is drawn on the {} chart: add --kind {}",
                names.join(" or "),
                names[0]
            );
        }
    }
    Ok(())
}
