//! The options commands share, read and checked: output settings, durations and times, the
//! time window, band edges, percentiles, the performance-log figures' options and the
//! objectives (`--slo`, `--pause-target`).

use super::batch::Step;
use crate::analyze;
use crate::cli::{
    ColorWhen, Common, CsvOpts, PauseTargetOpt, PerfOpts, SloOpts, TerminalOpts, Window,
};
use crate::error::Error;
use crate::load::Input;
use crate::report::summary::FileSummary;
use crate::report::{Format, Output};
use anyhow::Context;

/// `--chart FILE`: a PNG file's name.
pub(super) fn png_chart(p: Option<&std::path::Path>) -> anyhow::Result<()> {
    if let Some(p) = p.filter(|p| !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))) {
        anyhow::bail!(
            "--chart {}: the chart is a PNG file: name it FILE.png",
            p.display()
        );
    }
    Ok(())
}

/// The output settings of the common options, for a command whose only CSV is its output
/// in `--format csv|tsv`: the CSV options with another format are refused, not ignored.
pub(super) fn output(c: &Common) -> anyhow::Result<Output> {
    output_or(c.format, &c.csv, Format::Table)
}

/// `output`, for `format` as given and `default` without it.
pub(super) fn output_or(
    format: Option<Format>,
    c: &CsvOpts,
    default: Format,
) -> anyhow::Result<Output> {
    let written = format.unwrap_or(default);
    if !matches!(written, Format::Csv | Format::Tsv) {
        let given = [
            (c.sep.is_some(), "--sep"),
            (c.decimal_comma, "--decimal-comma"),
            (c.excel, "--excel"),
        ];
        if let Some((_, name)) = given.iter().find(|(on, _)| *on) {
            anyhow::bail!(
                "{name} is for CSV and TSV output (--format csv or tsv), not {}",
                written.name()
            );
        }
    }
    output_writing_csv(format, c, default)
}

/// The output settings (`default` without `--format`), for a command that writes CSV files
/// whatever its `--format` (the report's tables).
pub(super) fn output_writing_csv(
    format: Option<Format>,
    c: &CsvOpts,
    default: Format,
) -> anyhow::Result<Output> {
    if c.decimal_comma && c.sep == Some(',') {
        anyhow::bail!("--decimal-comma writes 12,5: pick another --sep than ','");
    }
    Ok(Output {
        format: format.unwrap_or(default),
        sep: c.sep,
        decimal_comma: c.decimal_comma,
        bom: c.excel,
    })
}

/// Whether stderr's lines are coloured (`terminal`).
static ERR_COLOR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Text tables for this command's stdout: fit to the terminal's width unless `--wide` (a pipe
/// or file gets every column), FAIL in red where colour is on; and colour for stderr's lines.
/// Colour `auto` is on where the stream is a terminal and `NO_COLOR` is unset or empty.
pub(super) fn terminal(t: &TerminalOpts, format: Format) {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let on = |tty: bool| match t.color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => tty && !no_color,
    };
    let out_tty = std::io::stdout().is_terminal();
    let width = (format == Format::Table && !t.wide && out_tty)
        .then(|| terminal_size::terminal_size_of(std::io::stdout()))
        .flatten()
        .map(|(w, _)| usize::from(w.0));
    crate::report::set_terminal(width, format == Format::Table && on(out_tty));
    ERR_COLOR.store(
        on(std::io::stderr().is_terminal()),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// `--sort FIGURE[:asc|:desc]` read; an `over_<N>ms_pct` figure adds N to the thresholds
/// counted (`over`).
pub(super) fn sort_key(
    sort: Option<&str>,
    over: &mut Vec<f64>,
) -> anyhow::Result<Option<analyze::compare::SortKey>> {
    let key = sort
        .map(analyze::compare::SortKey::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!(e))?;
    if let Some(k) = &key {
        analyze::slo::add_over(std::slice::from_ref(k.objective()), over);
    }
    Ok(key)
}

/// `60s`, `2m`, `1h`, `500ms`, `90` (seconds) → seconds.
pub(super) fn duration_s(s: &str) -> anyhow::Result<f64> {
    let t = s.trim();
    let (num, mult) = unit(t, &[("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)]);
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v * mult),
        _ => anyhow::bail!("bad duration {s:?}: use e.g. 60s, 2m, 1h, 500ms"),
    }
}

/// `t` without the first of `units` it ends with, and that unit's scale (a bare figure's: 1).
fn unit<'a>(t: &'a str, units: &[(&str, f64)]) -> (&'a str, f64) {
    units
        .iter()
        .find_map(|&(u, m)| Some((t.strip_suffix(u)?, m)))
        .unwrap_or((t, 1.0))
}

/// A time on the log's own clock, as its lines write it: ms since the epoch of that wall
/// clock. A zone (`Z`, `+05:00`) is refused, not dropped: the windows compare with the
/// clock the log writes, whose zone many logs do not say, so the time given would be read
/// as the log's and the window be off by the difference.
pub(super) fn log_time(s: &str) -> anyhow::Result<i64> {
    let b = s.trim().as_bytes();
    match crate::parse::num::iso_datetime_prefix(b) {
        Some((ms, n)) if n == b.len() && !has_zone(b) => Ok(ms),
        Some((_, n)) if n == b.len() => anyhow::bail!(
            "bad time {s:?}: give it without a zone, as the log writes its times (the windows are read on the log's own clock)"
        ),
        _ => {
            anyhow::bail!("bad time {s:?}: use e.g. 2012-09-21T12:00:00 or 2012-09-21 12:00:00.000")
        }
    }
}

/// Whether a whole ISO stamp (`iso_datetime_prefix`'s) ends with a zone: anything after its
/// seconds and their fraction.
fn has_zone(b: &[u8]) -> bool {
    let mut i = 19;
    if matches!(b.get(i), Some(b'.' | b',')) {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    i < b.len()
}

pub(super) fn interval_ms(s: &str) -> anyhow::Result<i64> {
    let ms = (duration_s(s)? * 1000.0).round();
    if ms < 1.0 {
        anyhow::bail!("--interval must be at least 1ms, e.g. 1m, 30s");
    }
    Ok(ms as i64)
}

/// `--pause-target`: `30ms`, `0.03s`, `30` (ms) → ms.
pub(super) fn pause_target_ms(t: &str) -> anyhow::Result<f64> {
    let t = t.trim();
    let (n, mult) = unit(t, &[("ms", 1.0), ("s", 1000.0)]);
    match n.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(crate::report::clean(v * mult)),
        _ => anyhow::bail!("bad --pause-target {t:?}: use e.g. 30ms or 0.03s"),
    }
}

/// `--skip`, `--from`, `--to` read: a bound is a log time, else an uptime.
pub(super) fn gc_window(w: &Window) -> anyhow::Result<analyze::window::GcWindow> {
    use analyze::window::Bound;
    let bound = |flag: &str, s: &str| -> anyhow::Result<Bound> {
        // A stamp is a time, never an uptime: its errors are the time's.
        if crate::parse::num::iso_datetime_prefix(s.trim().as_bytes()).is_some() {
            return Ok(Bound::Wall(
                log_time(s).map_err(|e| anyhow::anyhow!("{flag}: {e}"))?,
            ));
        }
        match duration_s(s) {
            Ok(v) => Ok(Bound::Uptime(v)),
            Err(_) => anyhow::bail!(
                "bad {flag} {s:?}: give a time (2012-09-21T12:00:00, 2012-09-21 12:00:00.000) or, for GC logs, an uptime (10s, 2m, 90)"
            ),
        }
    };
    let from = w.from.as_deref().map(|s| bound("--from", s)).transpose()?;
    let to = w.to.as_deref().map(|s| bound("--to", s)).transpose()?;
    let reversed = match (from, to) {
        (Some(Bound::Wall(f)), Some(Bound::Wall(t))) => f > t,
        (Some(Bound::Uptime(f)), Some(Bound::Uptime(t))) => f > t,
        _ => false,
    };
    window_order(w, reversed)?;
    Ok(analyze::window::GcWindow {
        skip_s: duration_s(&w.skip)?,
        from,
        to,
    })
}

/// `--from` after `--to` is a usage error, not an empty window.
pub(super) fn window_order(w: &Window, reversed: bool) -> anyhow::Result<()> {
    if let (true, Some(f), Some(t)) = (reversed, &w.from, &w.to) {
        anyhow::bail!(
            "--from {} is after --to {}: no record can be in that window",
            f.trim(),
            t.trim()
        );
    }
    Ok(())
}

/// An input inside the window (`analyze::window::apply_input`); `Err`: why the window cannot
/// apply to it (it is left out). That the window leaves it no record goes to `said`, for its
/// step's notes: written from the worker, the line came among other inputs' lines in any
/// order.
pub(super) fn windowed(
    w: &analyze::window::GcWindow,
    r: Result<Input, Error>,
    perf_too: bool,
    said: &mut Vec<String>,
) -> Result<Result<Input, Error>, String> {
    match r {
        Ok(l) => match analyze::window::apply_input(w, l, perf_too)? {
            Input::Gc(l) if l.frame.height() == 0 => {
                // Every record outside the window: said, not a row of zeros without a word.
                said.push(format!(
                    "gcperf: {}: no GC records in the time window (--skip, --from, --to)",
                    l.label
                ));
                Ok(Ok(Input::Gc(l)))
            }
            Input::Perf(l) if perf_window_empty(w, &l, perf_too) => {
                said.push(format!("gcperf: {}{}", l.label, NO_REQUESTS_IN_WINDOW));
                Ok(Ok(Input::Perf(l)))
            }
            l => Ok(Ok(l)),
        },
        Err(e) => Ok(Err(e)),
    }
}

/// `work`'s step for an input inside the window; nothing from one that could not be read
/// (its error is already said), and the step that leaves out one the window cannot apply to.
pub(super) fn in_window<T>(
    w: &analyze::window::GcWindow,
    r: Result<Input, Error>,
    work: impl FnOnce(Input) -> Step<T>,
) -> Step<T> {
    let mut said = Vec::new();
    match windowed(w, r, false, &mut said) {
        Ok(Ok(l)) => work(l),
        Ok(Err(_)) => Step::none(),
        Err(why) => Step::left_out(Some(format!("gcperf: {why}"))),
    }
    .said_first(said)
}

/// Said after a performance log's name when the window leaves none of its requests.
pub(super) const NO_REQUESTS_IN_WINDOW: &str =
    ": no requests in the time window (--skip, --from, --to)";

/// A performance log with no request in the window: its frame cut to the window (`perf_too`)
/// is empty, or the analyses' warm-up and bounds would keep none of it.
pub(super) fn perf_window_empty(
    w: &analyze::window::GcWindow,
    l: &crate::load::LoadedPerf,
    perf_too: bool,
) -> bool {
    if w.is_all() {
        return false;
    }
    if perf_too {
        return l.frame.df.height() == 0;
    }
    let (from_ms, to_ms) = w.wall_ms();
    let o = analyze::perf::PerfOptions {
        skip_s: w.skip_s,
        from_ms,
        to_ms,
        ..Default::default()
    };
    analyze::perf::window_leaves_none(&l.frame.df, &o).unwrap_or(false)
}

/// What the charts say about the records `--skip`, `--from` and `--to` leave out.
pub(super) fn window_text(w: &Window, skip_s: f64) -> String {
    let parts = [
        (skip_s > 0.0).then(|| format!("first {} left out", w.skip.trim())),
        w.from.as_ref().map(|f| format!("from {}", f.trim())),
        w.to.as_ref().map(|t| format!("to {}", t.trim())),
    ];
    parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
}

pub(super) fn perf_options(o: &PerfOpts) -> anyhow::Result<analyze::perf::PerfOptions> {
    check_latency_bands(&o.latency_bands, "--latency-bands")?;
    if o.over.iter().any(|v| !v.is_finite() || *v < 0.0) {
        anyhow::bail!("--over takes non-negative milliseconds, e.g. 50,150");
    }
    let skip_s = duration_s(&o.window.skip)?;
    // An uptime bound is for GC logs; a performance log is left out under it.
    let (from_ms, to_ms) = gc_window(&o.window)?.wall_ms();
    Ok(analyze::perf::PerfOptions {
        bands: given_or(&o.latency_bands, &analyze::perf::DEFAULT_BANDS),
        over: given_or(&o.over, &analyze::perf::DEFAULT_OVER),
        skip_s,
        from_ms,
        to_ms,
        interval_ms: o.interval.as_deref().map(interval_ms).transpose()?,
    })
}

pub(super) fn check_latency_bands(b: &[f64], flag: &str) -> anyhow::Result<()> {
    if b.iter().any(|v| !v.is_finite() || *v < 0.0) || b.windows(2).any(|w| w[0] >= w[1]) {
        anyhow::bail!("{flag} must be non-negative and strictly ascending, e.g. 0,50,200,1000");
    }
    Ok(())
}

pub(super) fn check_bands(edges: &[f64]) -> anyhow::Result<()> {
    if edges.iter().any(|v| !v.is_finite() || *v <= 0.0) || edges.windows(2).any(|w| w[0] >= w[1]) {
        anyhow::bail!("--pause-bands must be positive and strictly ascending, e.g. 10,50,100");
    }
    Ok(())
}

/// `--percentiles`: each one the summary has.
pub(super) fn check_percentiles(p: &[u32]) -> anyhow::Result<()> {
    if let Some(p) = p
        .iter()
        .find(|p| !analyze::compare::PERCENTILES.contains(p))
    {
        anyhow::bail!("--percentiles {p}: use any of 50, 90, 95, 99");
    }
    if p.is_empty() {
        anyhow::bail!("--percentiles: give one or more of 50, 90, 95, 99");
    }
    Ok(())
}

/// `--slo` and `--pause-target` read, for a command judging logs of `kinds`.
pub(super) struct Slo {
    pub(super) objectives: Vec<analyze::slo::Objective>,
    pub(super) pause_target_ms: Option<f64>,
    /// `--slo-out`.
    out: Option<std::path::PathBuf>,
}

impl Slo {
    pub(super) fn read(
        o: &SloOpts,
        target: Option<&PauseTargetOpt>,
        kinds: &[analyze::slo::LogKind],
    ) -> anyhow::Result<Slo> {
        let objectives = analyze::slo::parse(&o.slo)?;
        // `--slo ''` or `--slo ,` given and nothing to judge: an error, not a silent pass.
        if !o.slo.is_empty() && objectives.is_empty() {
            anyhow::bail!("--slo: no objective given: write METRIC OP VALUE, e.g. p95<=50ms");
        }
        for ob in &objectives {
            if !ob.kinds().iter().any(|k| kinds.contains(k)) {
                anyhow::bail!(
                    "--slo {:?}: {} is not a figure of the logs this command reads ({})",
                    ob.text,
                    ob.metric,
                    if kinds == [analyze::slo::LogKind::Gc] {
                        "GC logs"
                    } else {
                        "performance logs"
                    }
                );
            }
        }
        let pause_target_ms = target
            .and_then(|t| t.pause_target.as_deref())
            .map(pause_target_ms)
            .transpose()?;
        Ok(Slo {
            objectives,
            pause_target_ms,
            out: o.slo_out.clone(),
        })
    }

    /// Every objective must have been judged on some run: one no input has the figure for is
    /// an error naming it (exit 2), never a silent pass. Returns whether any failed.
    pub(super) fn check_judged(
        &self,
        runs: &[(&str, &[analyze::slo::Verdict])],
        produced: bool,
    ) -> anyhow::Result<bool> {
        if !produced {
            return Ok(false);
        }
        for o in &self.objectives {
            let judged = |(_, vs): &(&str, &[analyze::slo::Verdict])| {
                vs.iter().any(|v| v.objective == o.text)
            };
            if !runs.iter().any(judged) {
                anyhow::bail!(
                    "--slo {:?}: no input has the figure {} (it is a figure of {} logs)",
                    o.text,
                    o.metric,
                    if o.kinds() == [analyze::slo::LogKind::Gc] {
                        "GC"
                    } else {
                        "performance"
                    }
                );
            }
        }
        Ok(runs.iter().any(|(_, vs)| vs.iter().any(|v| !v.pass)))
    }

    /// The verdicts said: a line each on stderr, the table to `--slo-out` where given (CSV,
    /// or TSV with `--format tsv`); returns what follows the command's output on stdout (the
    /// table, in text and Markdown). Where no input gave output (`produced` false: exit 1),
    /// `--slo-out` is neither written nor replaced: its table would be empty, saying nothing
    /// (the inputs' errors are on stderr), and would lose an earlier run's verdicts.
    pub(super) fn said(
        &self,
        runs: &[(&str, &[analyze::slo::Verdict])],
        out: Output,
        produced: bool,
    ) -> anyhow::Result<String> {
        if let Some(path) = self.out.as_ref().filter(|_| produced) {
            let format = match out.format {
                Format::Tsv => Format::Tsv,
                _ => Format::Csv,
            };
            let file = Output { format, ..out };
            let body = file.finish(file.writer().write(&crate::report::slo::table(runs)));
            crate::output::write(path, body)
                .with_context(|| format!("cannot write the verdicts to {}", path.display()))?;
        }
        let color = ERR_COLOR.load(std::sync::atomic::Ordering::Relaxed);
        for l in crate::report::slo::lines(runs) {
            // The line escaped as every note is, the mark coloured after.
            let l = crate::error::escape(&l).into_owned();
            let l = match (color, l.strip_prefix('✗'), l.strip_prefix('✓')) {
                (true, Some(rest), _) => format!("{}{rest}", crate::report::red("✗")),
                (true, _, Some(rest)) => format!("{}{rest}", crate::report::green("✓")),
                _ => l,
            };
            eprintln!("gcperf: {l}");
        }
        Ok(crate::report::slo::render(runs, out))
    }
}

pub(super) const BOTH: [analyze::slo::LogKind; 2] =
    [analyze::slo::LogKind::Gc, analyze::slo::LogKind::Perf];

/// Each run's verdicts under its name, for the verdict table.
pub(super) fn slo_rows<'a>(
    runs: impl Iterator<Item = &'a FileSummary>,
) -> Vec<(&'a str, &'a [analyze::slo::Verdict])> {
    runs.map(|s| (s.file.as_str(), s.slo.as_slice())).collect()
}

/// The access-log rules the command line gives, set for the process before any log is read.
pub(super) fn set_access_rules(a: &crate::cli::AccessOpts) {
    let mut r = crate::parse::access::Rules::DEFAULT;
    r.keep_ids = a.keep_ids;
    if let Some(s) = a.error_status {
        r.error_status = s;
    }
    // The first setting in the process; a command runs once per process.
    crate::parse::access::set_rules(r);
    if let Some(f) = &a.log_format {
        f.clone().register();
    }
}

/// An access-log option given where no access log was read is refused, never ignored.
pub(super) fn access_used(a: &crate::cli::AccessOpts) -> anyhow::Result<()> {
    let given = [
        a.keep_ids.then_some("--keep-ids"),
        a.error_status.map(|_| "--error-status"),
        a.log_format.as_ref().map(|_| "--log-format"),
    ];
    refuse_unused(given, crate::parse::access::consulted(), "access logs")
}

/// A list option as given, or its default where not given (empty: the option has no clap
/// default, so that one given where it cannot apply is told apart and refused).
pub(super) fn given_or<T: Clone>(v: &[T], default: &[T]) -> Vec<T> {
    match v.is_empty() {
        true => default.to_vec(),
        false => v.to_vec(),
    }
}

/// Options for one kind of input (`what`: "GC logs", "access logs"), each named where given:
/// refused (exit 2) when no input of that kind was `read`, never accepted and ignored.
pub(super) fn refuse_unused<'a>(
    given: impl IntoIterator<Item = Option<&'a str>>,
    read: bool,
    what: &str,
) -> anyhow::Result<()> {
    if let Some(o) = given.into_iter().flatten().next().filter(|_| !read) {
        anyhow::bail!("{o} applies to {what}, and no input was read as one");
    }
    Ok(())
}

/// The options of GC logs and of performance logs a command was given (each by name where
/// given), refused where no input of their kind was read (`refuse_unused`).
#[derive(Default)]
pub(super) struct KindOptions<'a> {
    pub(super) gc: Vec<Option<&'a str>>,
    pub(super) perf: Vec<Option<&'a str>>,
}

impl<'a> KindOptions<'a> {
    /// The performance-log figures' options given (`--latency-bands`, `--over`) and the GC
    /// logs' (`--pause-target`).
    pub(super) fn of(p: &'a PerfOpts, target: Option<&'a PauseTargetOpt>) -> Self {
        KindOptions {
            gc: vec![target
                .and_then(|t| t.pause_target.as_ref())
                .map(|_| "--pause-target")],
            perf: vec![
                (!p.latency_bands.is_empty()).then_some("--latency-bands"),
                (!p.over.is_empty()).then_some("--over"),
            ],
        }
    }

    /// Refused: the options of a kind no input was read as (`tally`'s counts); the access
    /// logs' too.
    pub(super) fn check(
        &self,
        tally: &super::batch::Tally,
        access: &crate::cli::AccessOpts,
    ) -> anyhow::Result<()> {
        refuse_unused(self.gc.iter().copied(), tally.gc_read > 0, "GC logs")?;
        refuse_unused(
            self.perf.iter().copied(),
            tally.perf_read > 0,
            "performance logs",
        )?;
        access_used(access)
    }
}

/// `--interval` in a command writing a row or column per log (`summary`, `compare`): the
/// performance logs' per-interval series has no place there and is in JSON only; otherwise
/// it sets the GC logs' allocation-rate intervals, which the output shows where `gc_shown`.
/// Given where neither applies, it is refused, saying where it does.
pub(super) fn interval_used(p: &PerfOpts, format: Format, gc_shown: bool) -> anyhow::Result<()> {
    if p.interval.is_some() && !format.is_json() && !gc_shown {
        anyhow::bail!(
            "--interval: {} output has a row or column per log, with no per-interval series: \
             the series is in --format json (a table of it: `gcperf perf --by interval`); \
             here --interval would set only GC logs' allocation-rate figures, and none is shown",
            format.name()
        );
    }
    Ok(())
}

/// Whether an objective or ranking `metric` is a GC log's per-interval figure (its
/// allocation rates' percentiles, and their interval), which `--interval` sets.
pub(super) fn interval_figure(metric: &str) -> bool {
    metric.starts_with("alloc_rate_") && metric != "alloc_rate_kb_per_s"
        || metric == "alloc_interval_s"
}

/// `--tag`s, each name once: a name given twice would be two columns of one name (and one
/// JSON field, the last value kept).
pub(super) fn tags(t: &crate::cli::TagOpts) -> anyhow::Result<&[(String, String)]> {
    let mut seen = std::collections::HashSet::new();
    if let Some((k, _)) = t.tags.iter().find(|(k, _)| !seen.insert(k.as_str())) {
        anyhow::bail!("--tag {k}: the tag name is given twice");
    }
    Ok(&t.tags)
}

/// The `--tag`s of every table and JSON object this command writes (`report::tags`).
pub(super) fn set_tags(t: &crate::cli::TagOpts) -> anyhow::Result<()> {
    crate::report::tags::set(tags(t)?);
    Ok(())
}
