//! `gcperf perf`: each performance log's requests per operation, band, threshold, interval or
//! error message.

use super::batch::{each_input, failed, inputs, wrong_kind, Step};
use super::options::{gc_window, output, perf_options, slo_rows, Slo, NO_REQUESTS_IN_WINDOW};
use super::print;
use crate::analyze;
use crate::cli::PerfArgs;
use crate::report::summary::FileSummary;

pub(super) fn run(a: PerfArgs) -> anyhow::Result<i32> {
    super::options::set_tags(&a.tags)?;
    let slo = Slo::read(&a.slo, None, &[analyze::slo::LogKind::Perf])?;
    if gc_window(&a.perf.window)?.has_uptime() {
        anyhow::bail!(
            "--from/--to: performance logs have no uptime: give a time, e.g. 2012-09-21T12:00:00"
        );
    }
    let per_op = a.by == Some(crate::report::perf::By::Op);
    let by = a.by.unwrap_or(crate::report::perf::By::Op);
    let mut opts = perf_options(&a.perf)?;
    analyze::slo::add_over(&slo.objectives, &mut opts.over);
    if by == crate::report::perf::By::Interval && opts.interval_ms.is_none() {
        anyhow::bail!("--by interval needs --interval, e.g. --interval 1m");
    }
    let out = output(&a.common)?;
    // JSON holds every table: a --by that picks one would be ignored (`--by op` also judges
    // objectives per operation, which JSON carries).
    if a.by.is_some_and(|b| b != crate::report::perf::By::Op) && out.format.is_json() {
        anyhow::bail!(
            "--by picks one table; JSON holds them all: leave out --by, or give another --format"
        );
    }
    super::options::terminal(&a.term, out.format);
    let mut reports: Vec<FileSummary> = Vec::new();
    let mut lines = super::JsonLines::new(out.format, true);
    let tally = each_input(
        &inputs(&a.common)?,
        a.common.read.quiet,
        &|_, _, r| match r {
            Ok(l) if l.perf().is_some() => {
                // The window is the analyses' (`opts`); said when it leaves no request.
                let empty = |p: &&crate::load::LoadedPerf| {
                    analyze::perf::window_leaves_none(&p.frame.df, &opts).unwrap_or(false)
                };
                let said = (l.perf().filter(empty))
                    .map(|p| format!("gcperf: {}{}", p.label, NO_REQUESTS_IN_WINDOW));
                match FileSummary::of(&l, &opts) {
                    Ok(mut s) => {
                        s.judge(&slo.objectives, per_op);
                        Step::output(s)
                    }
                    Err(e) => failed(&l, e),
                }
                .said_first(said.into_iter().collect())
            }
            Ok(l) => wrong_kind(&l),
            Err(_) => Step::none(),
        },
        &mut |_, s| {
            lines.write(|| &s);
            reports.push(s)
        },
    );
    let streamed = lines.finish()?;
    let verdicts = slo_rows(reports.iter());
    let failed = slo.check_judged(&verdicts, tally.produced > 0)?;
    super::options::access_used(&a.perf.access)?;
    let said = slo.said(&verdicts, out, tally.produced > 0)?;
    if !streamed {
        print(&out.finish(crate::report::perf::render(&reports, out, a.by) + &said))?;
    }
    Ok(tally.exit_code_slo(a.common.read.strict, failed))
}
