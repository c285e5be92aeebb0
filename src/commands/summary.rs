//! `gcperf summary`: one row per input, GC and performance logs alike, with the verdicts of
//! `--slo`.

use super::batch::{each_input, failed, inputs, Step};
use super::options::{gc_window, output, perf_options, slo_rows, windowed, KindOptions, Slo, BOTH};
use super::print;
use crate::analyze;
use crate::cli::SummaryArgs;
use crate::report::summary::{self, FileSummary, Outcome};

pub(super) fn run(a: SummaryArgs) -> anyhow::Result<i32> {
    super::options::set_tags(&a.tags)?;
    let slo = Slo::read(&a.slo, Some(&a.target), &BOTH)?;
    let mut opts = perf_options(&a.perf)?;
    analyze::slo::add_over(&slo.objectives, &mut opts.over);
    let sort = super::options::sort_key(a.sort.as_deref(), &mut opts.over)?;
    let out = output(&a.common)?;
    super::options::terminal(&a.term, out.format);
    let win = gc_window(&a.perf.window)?;
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut lines = super::JsonLines::new(out.format, sort.is_none() && a.top.is_none());
    // Each input is summarised as it is loaded and dropped: a folder of any size needs the
    // memory of one log per core.
    let tally = each_input(
        &inputs(&a.common)?,
        a.common.read.quiet,
        &|_, p, r| {
            let mut said = Vec::new();
            match windowed(&win, r, false, &mut said) {
                Err(why) => Step::left_out(Some(format!("gcperf: {why}"))),
                Ok(Ok(l)) => match FileSummary::of_target(&l, &opts, slo.pause_target_ms) {
                    Ok(mut s) => {
                        s.judge(&slo.objectives, false);
                        Step::output(Outcome::Ok(Box::new(s)))
                    }
                    Err(e) => Step {
                        value: Some(Outcome::Failed {
                            file: l.label().to_string(),
                            error: format!("analysis failed: {e}"),
                        }),
                        ..failed(&l, &e)
                    },
                },
                Ok(Err(e)) => Step {
                    value: Some(Outcome::Failed {
                        file: crate::load::name_of(p),
                        error: crate::report::batch::error_text(&e),
                    }),
                    ..Step::none()
                },
            }
            .said_first(said)
        },
        &mut |_, o| {
            lines.write(|| summary::json_value(&o));
            outcomes.push(o)
        },
    );
    let streamed = lines.finish()?;
    let ok: Vec<&FileSummary> = outcomes.iter().filter_map(Outcome::summary).collect();
    let verdicts = slo_rows(ok.iter().copied());
    let failed = slo.check_judged(&verdicts, tally.produced > 0)?;
    KindOptions::of(&a.perf, Some(&a.target)).check(&tally, &a.perf.access)?;
    // The summary's GC columns show the allocation rates over each interval.
    super::options::interval_used(&a.perf, out.format, tally.gc_read > 0)?;
    let said = slo.said(&verdicts, out, tally.produced > 0)?;
    // Ranked and cut after every run is judged: objectives hold for the runs not shown too.
    let values: Vec<Option<f64>> = outcomes
        .iter()
        .map(|o| {
            let (k, s) = (sort.as_ref()?, o.summary()?);
            k.value(s.gc.as_ref(), s.perf.as_ref())
        })
        .collect();
    let top = a.top.map(|n| n as usize);
    let note = crate::report::compare::rank_by(
        &mut outcomes,
        &values,
        sort.as_ref(),
        top,
        ("log", "logs"),
    );
    let heading = match (note, out.format) {
        (Some(n), crate::report::Format::Table) => format!("{n}\n\n"),
        (Some(n), crate::report::Format::Markdown) => format!("_{n}_\n\n"),
        _ => String::new(),
    };
    if !streamed {
        print(&out.finish(heading + &summary::render(&outcomes, out) + &said))?;
    }
    Ok(tally.exit_code_slo(a.common.read.strict, failed))
}
