//! `gcperf compare`: runs (or groups of repeats) side by side, with deltas against a
//! baseline, ranking, and the comparison or load-curve chart.

use super::batch::{each_input, failed, inputs, Inputs, Step};
use super::options::{
    check_percentiles, gc_window, in_window, output, perf_options, KindOptions, Slo, BOTH,
};
use super::print;
use crate::analyze;
use crate::cli::CompareArgs;
use crate::input;
use crate::report::summary::FileSummary;
use anyhow::Context;
use std::path::{Path, PathBuf};

pub(super) fn run(a: CompareArgs) -> anyhow::Result<i32> {
    use crate::report::compare::{self, Run};
    let slo = Slo::read(&a.slo, Some(&a.target), &BOTH)?;
    let mut opts = perf_options(&a.perf)?;
    analyze::slo::add_over(&slo.objectives, &mut opts.over);
    check_percentiles(&a.percentiles)?;
    let sort = super::options::sort_key(a.sort.as_deref(), &mut opts.over)?;
    super::options::png_chart(a.chart.as_deref())?;
    let out = output(&a.common)?;
    super::options::terminal(&a.term, out.format);
    // --group: each file of a group is one repeat, its own input.
    let specs = a
        .group
        .iter()
        .map(|g| parse_group(g))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!(e))?;
    let mut labels = std::collections::HashSet::new();
    if let Some((l, _)) = specs.iter().find(|s| !labels.insert(&s.0)) {
        anyhow::bail!("--group {l}: the label is given twice");
    }
    let (inputs, group_of) = if specs.is_empty() {
        (inputs(&a.common)?, Vec::new())
    } else {
        let mut all = Inputs::default();
        let mut group_of = Vec::new();
        for (gi, (_, files)) in specs.iter().enumerate() {
            let x = input::expand(files);
            group_of.extend(std::iter::repeat_n(gi, x.files.len()));
            all.groups.extend(x.files.into_iter().map(|f| vec![f]));
            all.skipped.extend(x.skipped);
        }
        (all, group_of)
    };
    let labels = compare::labels(&inputs.names(), &a.labels).map_err(|e| anyhow::anyhow!(e))?;
    // Unreadable files are reported; the other runs keep their labels.
    let mut runs: Vec<(usize, Run)> = Vec::new();
    let win = gc_window(&a.perf.window)?;
    let tally = each_input(
        &inputs,
        a.common.read.quiet,
        &|i, _, r| {
            in_window(&win, r, |l| {
                let mut summary = match FileSummary::of_target(&l, &opts, slo.pause_target_ms) {
                    Ok(s) => s,
                    Err(e) => return failed(&l, e),
                };
                summary.judge(&slo.objectives, false);
                let label = labels.get(i).cloned().unwrap_or_default();
                // A repeat is named by its group and file.
                let label = match group_of.get(i).and_then(|&g| specs.get(g)) {
                    Some((g, _)) => format!("{g}: {label}"),
                    None => label,
                };
                // The parts of a file that changes family: one run each.
                let label = match l.part() {
                    0 => label,
                    n => format!("{label} (part {n})"),
                };
                Step::output((i, Run { label, summary }))
            })
        },
        &mut |_, run| runs.push(run),
    );
    let failed = slo.check_judged(
        &super::options::slo_rows(runs.iter().map(|r| &r.1.summary)),
        tally.produced > 0,
    )?;
    let grouped = !specs.is_empty();
    let mut groups: Vec<compare::Group> = if grouped {
        let mut g: Vec<compare::Group> = specs
            .iter()
            .map(|(l, _)| compare::Group {
                label: l.clone(),
                runs: Vec::new(),
            })
            .collect();
        for (i, r) in std::mem::take(&mut runs) {
            if let Some(g) = group_of.get(i).and_then(|&gi| g.get_mut(gi)) {
                g.runs.push(r);
            }
        }
        // A group none of whose files could be read is left out (its files are reported).
        g.retain(|g| !g.runs.is_empty());
        g
    } else {
        runs.drain(..)
            .map(|(_, r)| compare::Group {
                label: r.label.clone(),
                runs: vec![r],
            })
            .collect()
    };
    // Changes are shown when asked for: against a run chosen by its order, a row per figure
    // doubled the table of 72 runs and meant nothing.
    let baseline = a
        .baseline
        .as_ref()
        .map(|b| {
            groups
                .iter()
                .find(|g| g.label == *b)
                .cloned()
                .ok_or_else(|| {
                    let labels: Vec<&str> = groups.iter().map(|g| g.label.as_str()).collect();
                    anyhow::anyhow!(
                        "--baseline {b:?}: no run or group has that label (labels: {})",
                        labels.join(", ")
                    )
                })
        })
        .transpose()?;
    let note = compare::rank_groups(
        &mut groups,
        sort.as_ref(),
        a.top.map(|n| n as usize),
        grouped,
    );
    let runs: Vec<Run> = groups.iter().flat_map(|g| g.runs.iter().cloned()).collect();
    let verdicts: Vec<(&str, &[analyze::slo::Verdict])> = runs
        .iter()
        .map(|r| (r.label.as_str(), r.summary.slo.as_slice()))
        .collect();
    let chart = a.chart.as_ref().filter(|_| !runs.is_empty());
    if let Some(path) = chart {
        // A chart that cannot be written is exit 2 with the file named, before any table is
        // printed (plotters only says so at the end, and in its own words).
        crate::output::check_writable(path)
            .with_context(|| format!("cannot write the chart {}", path.display()))?;
    }
    let view = compare::View {
        note: note.clone(),
        grouped,
        baseline,
    };
    let mut kinds = KindOptions::of(&a.perf, Some(&a.target));
    kinds.perf.push(a.load_curve.then_some("--load-curve"));
    kinds.check(&tally, &a.perf.access)?;
    // The comparison's tables show no per-interval figure: one is used where it ranks or
    // judges the runs.
    let ranked_by_interval = (sort.iter().map(|k| k.objective()))
        .chain(&slo.objectives)
        .any(|o| super::options::interval_figure(&o.metric));
    super::options::interval_used(&a.perf, out.format, tally.gc_read > 0 && ranked_by_interval)?;
    print(&out.finish(
        compare::render_groups(&groups, out, &view)
            + &slo.said(&verdicts, out, tally.produced > 0)?,
    ))?;
    if let Some(path) = chart {
        if a.load_curve {
            load_curve_chart(path, &runs, &a.percentiles, &slo.objectives, a.size)?;
        } else {
            // The GC runs' rows need their room at the text size `--size` gives: the chart
            // grows taller for them (text shrunk to fit would not be read), and says so.
            let gc_runs = runs.iter().filter(|r| r.summary.gc.is_some()).count();
            let perf = runs.iter().any(|r| r.summary.perf.is_some());
            let drawn = crate::render::compare::grown_size(a.size, gc_runs, perf);
            if drawn != a.size {
                super::batch::note(&format!(
                    "gcperf: --chart {}: drawn {}x{}, taller than --size {}x{}: the rows of its \
                     {gc_runs} GC run{} need the room at that size's text",
                    path.display(),
                    drawn.width,
                    drawn.height,
                    a.size.width,
                    a.size.height,
                    if gc_runs == 1 { "" } else { "s" }
                ));
            }
            let chart_opts = crate::render::compare::ChartOptions {
                log_y: a.log_y,
                sort,
                note,
            };
            crate::render::compare::compare(path, &runs, a.size, &chart_opts)
                .map_err(|e| anyhow::anyhow!("cannot write the chart {e}"))?;
        }
    }
    Ok(tally.exit_code_slo(a.common.read.strict, failed))
}

/// `--group LABEL=FILE,FILE...`: the label and the files; a one-line error for a spec
/// without `=`, an empty label or no file.
fn parse_group(spec: &str) -> Result<(String, Vec<PathBuf>), String> {
    let Some((label, files)) = spec.split_once('=') else {
        return Err(format!(
            "--group {spec:?}: write LABEL=FILE,FILE... (no '=' in it)"
        ));
    };
    let label = label.trim();
    if label.is_empty() {
        return Err(format!("--group {spec:?}: the label before '=' is empty"));
    }
    let files: Vec<PathBuf> = files
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        return Err(format!("--group {label}: no files after '='"));
    }
    Ok((label.to_string(), files))
}

/// `compare --load-curve`: each performance run a point, percentiles against throughput.
fn load_curve_chart(
    path: &Path,
    runs: &[crate::report::compare::Run],
    pcts: &[u32],
    objectives: &[analyze::slo::Objective],
    size: crate::render::Size,
) -> anyhow::Result<()> {
    use crate::render::load_curve::{self as lc, LoadPoint};
    let points: Vec<LoadPoint> = runs
        .iter()
        .filter_map(|r| {
            let p = r.summary.perf.as_ref()?;
            Some(LoadPoint {
                throughput: p.throughput_per_s?,
                values: pcts
                    .iter()
                    .map(|&q| analyze::compare::percentile(p, q))
                    .collect(),
            })
        })
        .collect();
    // Performance runs were read (`--load-curve` is refused otherwise), yet none has a
    // throughput to place it by: an empty chart would say nothing.
    if points.is_empty() {
        anyhow::bail!(
            "--load-curve: no performance run has a throughput (requests over a span) to draw"
        );
    }
    let (series, limits) = lc::series_of(objectives, pcts);
    let title = format!(
        "load curve: {} against throughput, {} runs",
        series.join(", "),
        points.len()
    );
    let curve = lc::Curve {
        title: &title,
        x_desc: "throughput (requests/s over the run's span)",
        series: &series,
        points: &points,
        limits: &limits,
        connect: true,
    };
    lc::load_curve(path, &curve, size).map_err(|e| anyhow::anyhow!("cannot write the chart {e}"))
}
