//! The command line: argument definitions and the commands. `main.rs` only calls `run`.

use crate::analyze;
use crate::error::{escape, escape_path, Error};
use crate::input;
use crate::load::{self, Input, Loaded};
use crate::render::charts::{self, ChartSettings};
use crate::report::gc::{self as gcreport, By, GcReport};
use crate::report::summary::{self, FileSummary, Outcome};
use crate::report::{Format, Output};
use anyhow::Context;
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "gcperf",
    version,
    about = "JVM GC logs (JRockit, HotSpot, unified logging) and performance logs (semicolon log, \
             JMeter JTL, Grinder) into numbers, tables and charts",
    long_about = "JVM GC logs and application performance logs into numbers, tables and charts.\n\n\
                  GC logs: JRockit -Xverbose:memory,gcpause logs (R26-R28), HotSpot -verbose:gc logs (JDK 1.3-8, \
                  PrintGCDetails, Serial/Parallel/CMS/G1) and JDK 9+ unified logging (-Xlog:gc*). \
                  Performance logs: the semicolon log (`[id];date;total;java;db;calls;operation[;e-error]`), \
                  JMeter JTL (CSV) and The Grinder's data logs. The format is \
                  detected from content; files may be gzip-compressed or zip archives; folders are read \
                  recursively; `-` reads standard input.\n\nExit codes: 0 ok; 1 nothing readable or recognisable; 2 usage or \
                  output error (a malformed --slo objective, or one no input has the figure for, included); \
                  3 an --slo objective failed; 4 with --strict when any line was skipped or any input left \
                  out. When several apply: 2, then 1, then 3, then 4 (a failed objective is reported even \
                  when lines were skipped).",
    after_help = EXAMPLES,
    after_long_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// One example per command, under the command list of `gcperf --help`.
const EXAMPLES: &str = "Examples:
  gcperf summary logs/                         one row per log, GC and performance logs
  gcperf gc --pause-bands 10,50,100 gc.log     pauses per kind and per duration band
  gcperf perf --by error run.log               requests per operation; errors by message
  gcperf chart -o charts/ gc.log run.jtl       PNG charts of each log
  gcperf compare before.log after.log          runs side by side, one column each
  gcperf report -o report/ logs/               charts, summary.csv, operations.csv, index.html
  gcperf export -o parquet/ logs/              the records as gc.parquet and perf.parquet
  gcperf correlate --gc gc.log --perf run.log  GC pauses on the requests' timeline
  gcperf completions bash > gcperf.bash        a shell's completions (also zsh, fish, powershell)
  gcperf man | man -l -                        the manual page";

#[derive(Subcommand, Debug)]
pub enum Command {
    /// One row per log file: pauses, totals, percentiles, throughput, heap.
    Summary(SummaryArgs),
    /// GC breakdown per pause kind and collector, pause-duration bands, every pause as CSV.
    Gc(GcArgs),
    /// PNG charts for each log. GC logs: pauses over time, heap over time, pause-duration
    /// histogram. Performance logs: throughput and response times over time (timeline),
    /// requests per response-time band (latency-histogram), Java vs DB time per operation
    /// (split), and with --kind load-curve each interval's percentiles against its throughput.
    Chart(ChartArgs),
    /// Performance logs (semicolon perf log, JMeter JTL, Grinder): requests, errors, latency
    /// percentiles and bands, shares over thresholds, throughput, Java vs DB per operation.
    Perf(PerfArgs),
    /// Runs side by side, one column per file: requests, throughput, shares over thresholds,
    /// percentiles and latency bands for performance logs; pauses, totals, longest pause and
    /// throughput for GC logs.
    #[command(mut_arg("paths", |a| a.required_unless_present("group")))]
    Compare(CompareArgs),
    /// A report folder for a folder of runs: every log's charts, summary.csv (a row per
    /// input, errors included), operations.csv and an index.html showing it all.
    Report(ReportArgs),
    /// The normalised records as Parquet for SQL engines (Spark, Trino, DuckDB): GC records
    /// (gc.parquet) and performance-log requests (perf.parquet), schemas in the README.
    Export(ExportArgs),
    /// GC pauses on the latency timeline: a GC log and the performance logs of the same run on
    /// one clock; how many slow requests overlap a pause, how much of their time was GC, and
    /// the p99 with GC time taken out.
    Correlate(CorrelateArgs),
    /// A shell's completion script on stdout (bash, zsh, fish, powershell, elvish).
    ///
    /// `gcperf completions bash > /etc/bash_completion.d/gcperf` (or `source <(gcperf
    /// completions bash)` in ~/.bashrc), `gcperf completions zsh > ~/.zfunc/_gcperf`, `gcperf
    /// completions fish > ~/.config/fish/completions/gcperf.fish`, `gcperf completions
    /// powershell >> $PROFILE`.
    Completions(CompletionsArgs),
    /// The manual page (troff) on stdout.
    ///
    /// `gcperf man > /usr/local/share/man/man1/gcperf.1`, or read it at once: `gcperf man |
    /// man -l -`.
    Man,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct CorrelateArgs {
    /// The run's GC log; several files are read as one log (the parts of a rotated set, put
    /// in time order).
    #[arg(long, required = true, num_args = 1..)]
    pub gc: Vec<PathBuf>,
    /// The run's performance logs (semicolon log, JMeter JTL, Grinder), their requests taken
    /// together.
    #[arg(long, required = true, num_args = 1..)]
    pub perf: Vec<PathBuf>,
    /// Response-time threshold in ms: requests taking longer are the slow ones.
    #[arg(long, default_value_t = 50.0)]
    pub over: f64,
    /// The JVM's start in host local time (`2012-09-21 10:00:00`), for a GC log without date
    /// stamps: its pauses are placed at start + uptime.
    #[arg(long, value_name = "TIME")]
    pub gc_start: Option<String>,
    /// The host's UTC offset (`+0300`, `-05:00`, `Z`): JMeter and Grinder epoch stamps (and
    /// UTC-stamped GC logs) are moved to the host's clock with it. Default: the GC log's own
    /// offset where its stamps have one.
    #[arg(long, allow_hyphen_values = true, value_name = "OFFSET")]
    pub tz: Option<String>,
    /// Also correlate safepoint stops (`Total time for which application threads were
    /// stopped`, unified `safepoint`), as their own category, never mixed into GC pauses.
    #[arg(long)]
    pub safepoints: bool,
    /// Also correlate thread stalls (ZGC `Allocation Stall`, `Relocation Stall`), as their
    /// own category, never mixed into GC pauses (a stall stops one thread: a request over
    /// it may not be the stalled one).
    #[arg(long)]
    pub stalls: bool,
    #[command(flatten)]
    pub window: Window,
    /// Output format. csv and tsv have a header row, full precision and no thousands
    /// separators; here one table, a row for all requests, per pause kind and per operation.
    #[arg(long, short, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Do not report lines that were not understood on stderr, and show no progress bar (one
    /// is drawn on stderr only when it is a terminal).
    #[arg(long, short)]
    pub quiet: bool,
    /// CSV field separator, e.g. ';' (default ',', or ';' with --decimal-comma).
    #[arg(long, value_parser = parse_sep)]
    pub sep: Option<char>,
    /// Write decimal numbers with a comma (12,5) in CSV/TSV, for spreadsheet locales that
    /// need it; the CSV separator becomes ';'.
    #[arg(long)]
    pub decimal_comma: bool,
    /// Start CSV/TSV output with a UTF-8 byte order mark, so that Excel reads it as UTF-8.
    #[arg(long)]
    pub excel: bool,
    /// Exit with code 4 instead of 0 when any line was skipped or any input (or part of one)
    /// was left out: unreadable, unrecognised, not a regular file, damaged, or not of the
    /// command's kind.
    #[arg(long)]
    pub strict: bool,
    /// Also draw the two-hour chart with the GC pauses under it and the slow requests that
    /// overlap one highlighted, as one PNG.
    #[arg(long, value_name = "FILE.png")]
    pub chart: Option<PathBuf>,
    /// Chart size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1600x900", requires = "chart")]
    pub size: crate::render::Size,
    /// Length of the intervals (`30s`, `1m`, `1h`) of the chart; by default chosen from the
    /// span.
    #[arg(long, requires = "chart")]
    pub interval: Option<String>,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    /// The report folder (created if missing): index.html, summary.csv, operations.csv,
    /// charts/.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Chart size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1600x900")]
    pub size: crate::render::Size,
    /// Logarithmic y axis for pauses and histograms (the interesting bars are often tiny).
    #[arg(long)]
    pub log_y: bool,
    /// Pause-duration band edges in ms, ascending: `10,50,100` gives 0-10, 10-50, 50-100,
    /// >100 (the GC band table and the pause histogram).
    #[arg(long = "pause-bands", value_delimiter = ',', default_values_t = analyze::gc::DEFAULT_BANDS.to_vec())]
    pub pause_bands: Vec<f64>,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    /// Names for the runs, one per file in the order given: `--labels before,after`
    /// (default: the file names).
    #[arg(long, value_delimiter = ',')]
    pub labels: Vec<String>,
    /// Repeats of one configuration as one column: `--group base=r1.log,r2.log --group
    /// opt=r3.log,r4.log` (instead of FILES; folders are read recursively). Each figure is the
    /// mean over the group's repeats with the range (a percentile too: the mean of the repeats'
    /// p95s, as repeated runs are averaged, not the p95 of all their requests pooled):
    /// `mean (min–max)` in text and Markdown,
    /// extra `<figure>_min`/`<figure>_max` rows (and a `repeats` row) in CSV/TSV, and in JSON
    /// one object per group: `perf`/`gc` map each figure to `{"mean","min","max","runs"}`
    /// (runs: the repeats that have it), `repeats` holds each repeat's own figures. --sort
    /// ranks the groups by their means; --chart draws each repeat.
    #[arg(long, value_name = "LABEL=FILE,FILE...", conflicts_with_all = ["paths", "labels"])]
    pub group: Vec<String>,
    /// The run (or group) whose figures the others' changes are against, by its label
    /// (default: the first given). Every figure of a performance or GC run gets its change:
    /// a `<figure>_delta` row in text and Markdown (`+20.500 (+25.00%)`), `<figure>_delta`
    /// and `<figure>_delta_pct` rows in the `perf_delta`/`gc_delta` sections of CSV/TSV, and
    /// a `delta` object in JSON (`baseline`, and `perf`/`gc` with the same keys; the % is
    /// null where the baseline's figure is 0). With one run, no deltas.
    #[arg(long, value_name = "LABEL")]
    pub baseline: Option<String>,
    /// Also draw the comparison as one PNG: throughput and mean response time per operation
    /// and the share per latency band for performance runs, total and longest GC pause for GC
    /// runs (the table still goes to stdout).
    #[arg(long, value_name = "FILE.png")]
    pub chart: Option<PathBuf>,
    /// Chart size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1600x900", requires = "chart")]
    pub size: crate::render::Size,
    /// Logarithmic value axes in the chart: the band shares (a share of 0.0001 % is a visible
    /// bar) and the GC runs' pause times (one run of 244 s of pauses no longer flattens the
    /// others).
    #[arg(long, requires = "chart")]
    pub log_y: bool,
    /// Rank the runs by a figure, in the table and the chart: `--sort pause_total_ms` or
    /// `pause_total_ms:asc` (lowest first), `--sort throughput_pct:desc` (highest first).
    /// FIGURE is named as in --slo (a key of the gc or perf object of `summary --format json`,
    /// over_<N>ms_pct, or p50, p90, p95, p99, max, mean); runs without it come last. Default:
    /// the order given.
    #[arg(long, value_name = "FIGURE[:asc|:desc]")]
    pub sort: Option<String>,
    /// Only the first N runs (with --sort the N lowest or highest), in the table and the
    /// chart; the headings and the chart's title say how many of how many are shown.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub top: Option<u64>,
    /// Draw the load curve as the chart instead: each --percentiles of the request's total
    /// time against throughput, one point per performance run (runs at increasing load),
    /// --slo objectives on those percentiles as dashed lines, points over them ringed red.
    #[arg(long, requires = "chart")]
    pub load_curve: bool,
    /// The percentiles of the load curve: any of 50, 90, 95, 99.
    #[arg(long, value_delimiter = ',', default_values_t = vec![50u32, 95], requires = "load_curve")]
    pub percentiles: Vec<u32>,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Log files or folders (read recursively; gzip and zip recognised by content), `-` for
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// A folder (gets gc.parquet and perf.parquet), or a FILE.parquet: one kind of records goes
    /// to it; both kinds go to FILE-gc.parquet and FILE-perf.parquet beside it.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Do not report lines that were not understood on stderr, and show no progress bar (one
    /// is drawn on stderr only when it is a terminal).
    #[arg(long, short)]
    pub quiet: bool,
    /// Read all the files given as one log (the parts of a rotated set, in any order: they are
    /// put in time order).
    #[arg(long, conflicts_with = "rotated")]
    pub join: bool,
    /// Join the files of each JVM rotation set (`gc.log.0`, `gc.log.1`, ... `gc.log.N.current`,
    /// gzipped or not) into one log each; other files stay on their own.
    #[arg(long)]
    pub rotated: bool,
    /// Exit with code 4 instead of 0 when any line was skipped or any input (or part of one)
    /// was left out: unreadable, unrecognised, not a regular file, damaged, or not of the
    /// command's kind.
    #[arg(long)]
    pub strict: bool,
    /// Only the records in the window (GC records by their start, requests by their end).
    #[command(flatten)]
    pub window: Window,
}

#[derive(Args, Debug)]
pub struct ChartArgs {
    #[command(flatten)]
    pub common: Common,
    /// Folder for the PNG files, named `<file stem>-<chart>.png` (created if missing).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Chart size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1600x900")]
    pub size: crate::render::Size,
    /// Logarithmic y axis for pauses and histograms (the interesting bars are often tiny).
    #[arg(long)]
    pub log_y: bool,
    /// Pause-duration band edges in ms, ascending: `10,50,100` gives 0-10, 10-50, 50-100,
    /// >100 (the GC band table and the pause histogram).
    #[arg(long = "pause-bands", alias = "bands", value_delimiter = ',', default_values_t = analyze::gc::DEFAULT_BANDS.to_vec())]
    pub pause_bands: Vec<f64>,
    /// A pause target (`30ms`, `0.03s`; plain numbers are ms), over the one the log states
    /// (JRockit deterministic GC): drawn on the pause chart.
    #[arg(long, value_name = "TIME")]
    pub pause_target: Option<String>,
    /// Response-time band edges in ms for performance logs, ascending; a leading 0 adds a
    /// band for exactly 0 ms. A time t falls in a-b when a < t <= b.
    #[arg(long = "latency-bands", value_delimiter = ',', default_values_t = analyze::perf::DEFAULT_BANDS.to_vec())]
    pub latency_bands: Vec<f64>,
    /// Length of the intervals (`30s`, `1m`, `1h`) of the timeline and the load curve; by
    /// default chosen from the log's span: a round length from 1s to 1h giving 60 to 300
    /// points, longer for sparse logs.
    #[arg(long)]
    pub interval: Option<String>,
    /// The charts to draw, by name, of those that apply to each log: pauses, heap,
    /// pause-histogram (GC logs); timeline, latency-histogram, split, load-curve (performance
    /// logs: the load curve is each interval's --percentiles against its throughput). Default:
    /// all but load-curve.
    #[arg(long, value_delimiter = ',', value_name = "KIND")]
    pub kind: Vec<crate::render::charts::ChartKind>,
    /// The load curve's percentiles: any of 50, 90, 95, 99.
    #[arg(long, value_delimiter = ',', default_values_t = vec![50u32, 95])]
    pub percentiles: Vec<u32>,
    /// Objectives on the load curve's percentiles (`p95<=50ms,p50<=25ms`, as `summary
    /// --slo` reads them), drawn as dashed lines with the intervals over them ringed red. A
    /// chart gives no verdict: `summary --slo` does.
    #[arg(long, value_delimiter = ',', value_name = "EXPR")]
    pub slo: Vec<String>,
    #[command(flatten)]
    pub window: Window,
}

/// Which records count: the requests of a performance log, the records of a GC log.
#[derive(Args, Debug, Clone)]
pub struct Window {
    /// Warm-up to leave out from the start of each log: `60s`, `2m`, `1h`, `500ms` (plain
    /// numbers are seconds). GC logs: the records starting less than that after the first.
    #[arg(long, default_value = "0")]
    pub skip: String,
    /// Only requests ending at or after this time (log time, `2012-09-21T12:00:00` or
    /// `2012-09-21 12:00:00.000`). GC logs: the records starting at or after it, given as a
    /// time (their date stamps) or as an uptime (`10s`, `2m`, `90`: seconds since JVM start);
    /// a log without that clock is left out, saying so.
    #[arg(long)]
    pub from: Option<String>,
    /// Only requests ending before this time (GC logs: records starting before it; a time or
    /// an uptime, as --from).
    #[arg(long)]
    pub to: Option<String>,
}

/// `--skip`, `--from`, `--to` read: a bound is a log time, else an uptime.
fn gc_window(w: &Window) -> anyhow::Result<analyze::window::GcWindow> {
    use analyze::window::Bound;
    let bound = |flag: &str, s: &str| -> anyhow::Result<Bound> {
        if let Ok(ms) = log_time(s) {
            return Ok(Bound::Wall(ms));
        }
        match duration_s(s) {
            Ok(v) => Ok(Bound::Uptime(v)),
            Err(_) => anyhow::bail!(
                "bad {flag} {s:?}: give a time (2012-09-21T12:00:00, 2012-09-21 12:00:00.000) or, for GC logs, an uptime (10s, 2m, 90)"
            ),
        }
    };
    Ok(analyze::window::GcWindow {
        skip_s: duration_s(&w.skip)?,
        from: w.from.as_deref().map(|s| bound("--from", s)).transpose()?,
        to: w.to.as_deref().map(|s| bound("--to", s)).transpose()?,
    })
}

/// An input inside the window (`analyze::window::apply_input`); `Err`: the step that leaves it
/// out, saying why.
fn windowed<T>(
    w: &analyze::window::GcWindow,
    r: Result<Input, Error>,
    perf_too: bool,
) -> Result<Result<Input, Error>, Step<T>> {
    match r {
        Ok(l) => match analyze::window::apply_input(w, l, perf_too) {
            Ok(Input::Gc(l)) if l.frame.height() == 0 => {
                // Every record outside the window: said, not a row of zeros without a word.
                note(&format!(
                    "gcperf: {}: no GC records in the time window (--skip, --from, --to)",
                    l.label
                ));
                Ok(Ok(Input::Gc(l)))
            }
            Ok(Input::Perf(l)) if perf_window_empty(w, &l, perf_too) => {
                note(&format!("gcperf: {}{}", l.label, NO_REQUESTS_IN_WINDOW));
                Ok(Ok(Input::Perf(l)))
            }
            Ok(l) => Ok(Ok(l)),
            Err(e) => Err(Step::left_out(Some(format!("gcperf: {e}")))),
        },
        Err(e) => Ok(Err(e)),
    }
}

/// Said after a performance log's name when the window leaves none of its requests.
const NO_REQUESTS_IN_WINDOW: &str = ": no requests in the time window (--skip, --from, --to)";

/// A performance log with no request in the window: its frame cut to the window (`perf_too`)
/// is empty, or the analyses' warm-up and bounds would keep none of it.
fn perf_window_empty(
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

/// The paths a command wrote, one a line, or in `--format`: a `path` column (CSV, TSV,
/// Markdown) or a JSON array.
fn listing(paths: &[PathBuf], out: Output) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    match out.format {
        Format::Table => names.iter().map(|n| format!("{n}\n")).collect(),
        Format::Json => crate::report::json(&names),
        Format::Csv | Format::Tsv | Format::Markdown => {
            let mut t = crate::report::Table::new(&["path"]);
            for n in names {
                t.push(vec![n]);
            }
            out.finish(out.writer().write(&t))
        }
    }
}

/// Objectives and the pause target.
#[derive(Args, Debug, Clone, Default)]
pub struct SloOpts {
    /// Objectives, each METRIC OP VALUE[unit]: `p95<=50ms,p50<=25ms,error_pct<1`. METRIC: a
    /// key of the gc or perf object of `summary --format json` (pause_max_ms, total_ms_p95,
    /// throughput_pct, throughput_per_s...), over_<N>ms_pct for any N (N is added to --over),
    /// or p50, p90, p95, p99, max, mean (the request's total time for performance logs, the
    /// pause duration for GC logs). OP: <, <=, >, >= or == (== compares the figure as printed
    /// at full precision: for counts, errors==0). Units ms or s on times, % on shares, both
    /// optional (ms and % by default). Each objective is judged on every run that has its
    /// figure (a verdict row: value, limit, pass/FAIL; `slo` in JSON); a run without the
    /// value (no requests, no pause target) fails it. Exit code 3 when any fails (3 also
    /// where --strict would give 4); 2 when one is malformed or no input has its figure.
    #[arg(long, value_delimiter = ',', value_name = "EXPR")]
    pub slo: Vec<String>,
    /// A pause target (`30ms`, `0.03s`; plain numbers are ms), over the one the log states
    /// (JRockit deterministic GC): the GC pauses longer than it are counted
    /// (pause_target_ms, pauses_over_target, pauses_over_target_pct). Default: the target the
    /// log states (JRockit `Deterministic GC target pause time: 30 ms`, `-XpauseTarget`).
    #[arg(long, value_name = "TIME")]
    pub pause_target: Option<String>,
}

/// `--pause-target`: `30ms`, `0.03s`, `30` (ms) → ms.
fn pause_target_ms(t: &str) -> anyhow::Result<f64> {
    let t = t.trim();
    let (n, mult) = if let Some(v) = t.strip_suffix("ms") {
        (v, 1.0)
    } else if let Some(v) = t.strip_suffix('s') {
        (v, 1000.0)
    } else {
        (t, 1.0)
    };
    match n.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(crate::report::clean(v * mult)),
        _ => anyhow::bail!("bad --pause-target {t:?}: use e.g. 30ms or 0.03s"),
    }
}

/// `--slo` and `--pause-target` read, for a command judging logs of `kinds`.
struct Slo {
    objectives: Vec<analyze::slo::Objective>,
    pause_target_ms: Option<f64>,
}

impl Slo {
    fn read(o: &SloOpts, kinds: &[analyze::slo::LogKind]) -> anyhow::Result<Slo> {
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
        let pause_target_ms = o.pause_target.as_deref().map(pause_target_ms).transpose()?;
        Ok(Slo {
            objectives,
            pause_target_ms,
        })
    }

    /// Every objective must have been judged on some run: one no input has the figure for is
    /// an error naming it (exit 2), never a silent pass.
    fn check_judged<'a>(
        &self,
        verdicts: impl IntoIterator<Item = &'a analyze::slo::Verdict> + Clone,
        produced: bool,
    ) -> anyhow::Result<bool> {
        if !produced {
            return Ok(false);
        }
        for o in &self.objectives {
            if !verdicts.clone().into_iter().any(|v| v.objective == o.text) {
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
        Ok(crate::report::slo::any_failed(verdicts))
    }
}

#[derive(Args, Debug)]
pub struct Common {
    /// Log files or folders (read recursively; gzip and zip recognised by content), `-` for
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format. csv and tsv have a header row, full precision and no thousands separators.
    #[arg(long, short, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Do not report lines that were not understood on stderr, and show no progress bar (one
    /// is drawn on stderr only when it is a terminal).
    #[arg(long, short)]
    pub quiet: bool,
    /// CSV field separator, e.g. ';' (default ',', or ';' with --decimal-comma).
    #[arg(long, value_parser = parse_sep)]
    pub sep: Option<char>,
    /// Write decimal numbers with a comma (12,5) in CSV/TSV, for spreadsheet locales that
    /// need it; the CSV separator becomes ';'.
    #[arg(long)]
    pub decimal_comma: bool,
    /// Start CSV/TSV output with a UTF-8 byte order mark, so that Excel reads it as UTF-8.
    #[arg(long)]
    pub excel: bool,
    /// Read all the files given as one log (the parts of a rotated set, in any order: they are
    /// put in time order).
    #[arg(long, conflicts_with = "rotated")]
    pub join: bool,
    /// Join the files of each JVM rotation set (`gc.log.0`, `gc.log.1`, ... `gc.log.N.current`,
    /// gzipped or not) into one log each; other files stay on their own.
    #[arg(long)]
    pub rotated: bool,
    /// Exit with code 4 instead of 0 when any line was skipped or any input (or part of one)
    /// was left out: unreadable, unrecognised, not a regular file, damaged, or not of the
    /// command's kind.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Args, Debug)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
}

/// Options of the performance-log figures.
#[derive(Args, Debug, Clone)]
pub struct PerfOpts {
    /// Response-time band edges in ms for performance logs, ascending; a leading 0 adds a
    /// band for exactly 0 ms. A time t falls in a-b when a < t <= b.
    #[arg(long = "latency-bands", alias = "bands", value_delimiter = ',', default_values_t = analyze::perf::DEFAULT_BANDS.to_vec())]
    pub latency_bands: Vec<f64>,
    /// Response-time thresholds in ms: the count and share of requests taking longer than
    /// each (`50,150`).
    #[arg(long, value_delimiter = ',', default_values_t = analyze::perf::DEFAULT_OVER.to_vec())]
    pub over: Vec<f64>,
    #[command(flatten)]
    pub window: Window,
    /// Length of the intervals (`30s`, `1m`, `1h`) of the per-interval series (requests,
    /// throughput, mean, p99, max), aligned on the clock.
    #[arg(long)]
    pub interval: Option<String>,
}

#[derive(Args, Debug)]
pub struct PerfArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    /// For csv/tsv/markdown: one row per operation (op, the default: count, errors, error %,
    /// throughput, min, mean, p50, p90, p95, p99, max, Java and DB means, DB share), per
    /// latency band (band), per threshold (over), per interval (interval; needs --interval)
    /// or per error message (error: the `e-` text, JMeter's response code/message, The
    /// Grinder's error count, with counts and the operations they failed in). Text shows all.
    /// `--by op` given explicitly also judges each --slo objective per operation where
    /// operations have its figure (count, errors, error_pct, throughput_per_s,
    /// total_ms_min/mean/p50/p90/p95/p99/max, mean, p50, p90, p95, p99, max, java_ms_mean,
    /// db_ms_mean, db_share_pct...).
    #[arg(long, value_enum)]
    pub by: Option<crate::report::perf::By>,
}

#[derive(Args, Debug)]
pub struct GcArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub slo: SloOpts,
    /// Pause-duration band edges in ms, ascending: `10,50,100` gives 0-10, 10-50, 50-100,
    /// >100 (the GC band table and the pause histogram).
    #[arg(long = "pause-bands", alias = "bands", value_delimiter = ',', default_values_t = analyze::gc::DEFAULT_BANDS.to_vec())]
    pub pause_bands: Vec<f64>,
    /// For csv/tsv/markdown: one row per pause kind and collector (kind, the default), per
    /// duration band (band), the pause time per GC cause (cause) or the findings with their
    /// evidence (finding). Text shows them all; JSON holds them all.
    #[arg(long, value_enum, default_value_t = By::Kind)]
    pub by: By,
    /// Length of the intervals (`30s`, `1m`, `1h`) of the per-interval figures (allocation
    /// rate p50/p95/max, GC overhead over 5 %); by default chosen from the span.
    #[arg(long)]
    pub interval: Option<String>,
    /// Print every pause as a CSV row (file, start, duration, kind, collector, cause, heap...)
    /// instead of the breakdown.
    #[arg(long)]
    pub events: bool,
    /// With --events: also concurrent phases, safepoints, stalls and collection records.
    #[arg(long, requires = "events")]
    pub all_records: bool,
    #[command(flatten)]
    pub window: Window,
}

/// Run the command; returns the process exit code.
pub fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Summary(a) => run_summary(a),
        Command::Gc(a) => run_gc(a),
        Command::Chart(a) => run_chart(a),
        Command::Perf(a) => run_perf(a),
        Command::Compare(a) => run_compare(a),
        Command::Export(a) => run_export(a),
        Command::Report(a) => run_report(a),
        Command::Correlate(a) => run_correlate(a),
        Command::Completions(a) => {
            let mut out = Vec::new();
            clap_complete::generate(a.shell, &mut Cli::command(), "gcperf", &mut out);
            print(&String::from_utf8_lossy(&out))?;
            Ok(0)
        }
        Command::Man => {
            let mut out = Vec::new();
            man_page(&mut out)?;
            print(&String::from_utf8_lossy(&out))?;
            Ok(0)
        }
    }
}

/// The manual page: the top-level page (its SUBCOMMANDS section lists every command) and a
/// section per command with that command's options, in one troff document.
fn man_page(out: &mut Vec<u8>) -> anyhow::Result<()> {
    let cmd = Cli::command();
    clap_mangen::Man::new(cmd.clone()).render(out)?;
    for sub in cmd.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = sub.get_name();
        out.extend_from_slice(format!(".SH \"GCPERF {}\"\n", name.to_uppercase()).as_bytes());
        let sub = sub.clone().bin_name(format!("gcperf {name}"));
        let man = clap_mangen::Man::new(sub);
        man.render_synopsis_section(out)?;
        man.render_description_section(out)?;
        man.render_options_section(out)?;
    }
    Ok(())
}

/// The inputs of a command: each file on its own, all as one log (`--join`), or rotation sets
/// (`--rotated`); and what was left out before reading (not a regular file).
struct Inputs {
    groups: Vec<Vec<PathBuf>>,
    skipped: Vec<String>,
}

fn inputs(c: &Common) -> Inputs {
    let x = input::expand(&c.paths);
    let groups = if c.join {
        vec![x.files]
    } else if c.rotated {
        load::group_rotated(&x.files)
    } else {
        x.files.into_iter().map(|f| vec![f]).collect()
    };
    Inputs {
        groups: groups.into_iter().filter(|g| !g.is_empty()).collect(),
        skipped: x.skipped,
    }
}

impl Inputs {
    /// How output names each input: its (first) path, control characters escaped.
    fn names(&self) -> Vec<String> {
        self.groups.iter().map(|g| escape_path(&g[0])).collect()
    }
    /// Chart-file stems, one per input (`-` is `stdin`).
    fn stems(&self) -> Vec<String> {
        let stdin = PathBuf::from("stdin");
        charts::unique_stems(self.groups.iter().map(|g| {
            if input::is_stdin(&g[0]) {
                stdin.as_path()
            } else {
                g[0].as_path()
            }
        }))
    }
}

/// How a command's inputs went, for the exit code.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    /// Inputs that gave output (a summary row with figures, a table, charts).
    produced: usize,
    /// Inputs or parts of inputs left out: unreadable, unrecognised, not a regular file,
    /// damaged, not of the command's kind, charts not drawn.
    left_out: usize,
    /// Lines skipped in the inputs read.
    skipped_lines: u64,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.produced += o.produced;
        self.left_out += o.left_out;
        self.skipped_lines += o.skipped_lines;
    }
    /// 1 when no input gave output; 4 with `--strict` when anything was skipped or left out;
    /// else 0.
    fn exit_code(&self, strict: bool) -> i32 {
        self.exit_code_slo(strict, false)
    }
    /// As `exit_code`, and 3 when an objective failed (before `--strict`'s 4).
    fn exit_code_slo(&self, strict: bool, slo_failed: bool) -> i32 {
        if self.produced == 0 {
            1
        } else if slo_failed {
            3
        } else if strict && (self.left_out > 0 || self.skipped_lines > 0) {
            4
        } else {
            0
        }
    }
}

/// A progress bar over `n` inputs on stderr, drawn only when stderr is a terminal and `-q`
/// was not given (a pipe or a file gets no bar, so nothing but the messages reaches it).
fn progress(n: usize, quiet: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} {bar:40} {pos}/{len} files, {elapsed} ({eta} left) {msg}",
    ) {
        b.set_style(style);
    }
    // A single big log takes seconds with no input finished: the spinner and the clock move.
    b.enable_steady_tick(std::time::Duration::from_millis(200));
    b
}

/// One line on stderr, control characters escaped whatever it quotes.
fn note(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", escape(line));
}

/// What a command made of one input.
struct Step<T> {
    value: Option<T>,
    /// The input gave output.
    produced: bool,
    /// The command left it out (a performance log given to `gc`, charts not drawn).
    left_out: bool,
    /// Lines for stderr, after the input's own.
    notes: Vec<String>,
}

impl<T> Step<T> {
    fn output(v: T) -> Self {
        Step {
            value: Some(v),
            produced: true,
            left_out: false,
            notes: Vec::new(),
        }
    }
    /// Nothing from this input (its load error is already counted and reported).
    fn none() -> Self {
        Step {
            value: None,
            produced: false,
            left_out: false,
            notes: Vec::new(),
        }
    }
    /// Left out by the command, saying why (if anything).
    fn left_out(note: Option<String>) -> Self {
        Step {
            value: None,
            produced: false,
            left_out: true,
            notes: note.into_iter().collect(),
        }
    }
}

/// The stderr lines of a loaded input: parts left out of a joined log, the error, damage,
/// lines not understood (unless `quiet`).
fn input_notes(r: &Result<Input, Error>, parts: &[Error], quiet: bool) -> Vec<String> {
    let mut out: Vec<String> = parts
        .iter()
        .map(|e| format!("gcperf: {e} (left out of the joined log)"))
        .collect();
    match r {
        Err(e) => out.push(format!("gcperf: {e}")),
        Ok(l) => {
            for w in l.warnings() {
                out.push(format!("gcperf: {}: {w}", l.label()));
            }
            if let Some(g) = l.gc().filter(|_| !quiet) {
                if let Some(note) = restart_note(g) {
                    out.push(note);
                }
            }
            if !quiet && l.skipped_lines() > 0 {
                out.push(format!(
                    "gcperf: {}: {} of {} lines not understood (skipped)",
                    l.label(),
                    l.skipped_lines(),
                    l.lines()
                ));
                for b in l.bad().iter().take(3) {
                    out.push(format!("  line {}: {}", b.line, escape(&b.text)));
                }
            }
        }
    }
    out
}

/// Where the JVM restarted within a GC log (its uptime went back to 0), if it did.
fn restart_note(g: &Loaded) -> Option<String> {
    let starts = analyze::gc::run_starts(&g.frame).ok()?;
    if starts.is_empty() {
        return None;
    }
    let at: Vec<String> = starts
        .iter()
        .take(3)
        .map(|(line, up)| match up {
            Some(u) => format!("line {line}, uptime {} s", crate::report::num(*u, Some(3))),
            None => format!("line {line}"),
        })
        .collect();
    let more = if starts.len() > 3 { ", ..." } else { "" };
    Some(format!(
        "gcperf: {}: the JVM restarted {} time{} ({}{more}): span and throughput are per run, summed",
        escape(&g.label),
        starts.len(),
        if starts.len() == 1 { "" } else { "s" },
        at.join("; ")
    ))
}

/// A command's work on input `i` (its first path, and the input or why it could not be read).
type Work<'a, T> = dyn Fn(usize, &Path, Result<Input, Error>) -> Step<T> + Sync + 'a;

/// Load every input, at most one per core in flight, give it to `work` and drop it. Results
/// reach `emit`, and every input's stderr lines reach stderr, in argument order, each as soon
/// as the inputs before it are done. A bad input is reported and the batch goes on.
fn each_input<T: Send>(
    inputs: &Inputs,
    quiet: bool,
    work: &Work<'_, T>,
    emit: &mut (dyn FnMut(usize, T) + Send),
) -> Tally {
    let mut tally = Tally {
        left_out: inputs.skipped.len(),
        ..Tally::default()
    };
    for s in &inputs.skipped {
        note(&format!("gcperf: {s}"));
    }
    let groups = &inputs.groups;
    let bar = progress(groups.len(), quiet);
    crate::report::batch::ordered(
        groups.len(),
        rayon::current_num_threads(),
        &|i| {
            let g = &groups[i];
            let (r, parts) = crate::report::batch::load_group(g);
            // A file that changes family mid-way is several inputs, each worked on in turn.
            let each: Vec<Result<Input, Error>> = match r {
                Ok(v) => v.into_iter().map(Ok).collect(),
                Err(e) => vec![Err(e)],
            };
            let mut values = Vec::with_capacity(each.len());
            let mut lines = Vec::new();
            let mut t = Tally::default();
            for (k, r) in each.into_iter().enumerate() {
                let joined: &[Error] = if k == 0 { &parts } else { &[] };
                lines.extend(input_notes(&r, joined, quiet));
                t.add(Tally {
                    produced: 0,
                    left_out: joined.len() + r.as_ref().map_or(1, |l| l.warnings().len()),
                    skipped_lines: r.as_ref().map_or(0, |l| l.skipped_lines()),
                });
                let step = work(i, &g[0], r);
                t.produced += usize::from(step.produced);
                t.left_out += usize::from(step.left_out);
                lines.extend(step.notes);
                values.extend(step.value);
            }
            (values, lines, t)
        },
        &mut |i, (values, lines, t)| {
            // The bar is taken off while the lines are printed, then drawn again under them.
            bar.suspend(|| {
                for l in &lines {
                    note(l);
                }
            });
            bar.inc(1);
            tally.add(t);
            for v in values {
                emit(i, v);
            }
        },
    );
    bar.finish_and_clear();
    tally
}

fn print(s: &str) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

/// A GC-only command's step for a performance log: noted on stderr and left out.
fn not_gc<T>(i: &Input) -> Step<T> {
    Step::left_out(Some(format!(
        "gcperf: {}: a performance log; see `gcperf perf` (left out here)",
        i.label()
    )))
}

/// A performance-log command's step for a GC log: noted on stderr and left out.
fn not_perf<T>(i: &Input) -> Step<T> {
    Step::left_out(Some(format!(
        "gcperf: {}: a GC log; see `gcperf gc` (left out here)",
        i.label()
    )))
}

/// An analysis that failed for one input: named on stderr, the batch goes on.
fn failed<T>(i: &Input, e: impl std::fmt::Display) -> Step<T> {
    Step::left_out(Some(format!("gcperf: {}: analysis failed: {e}", i.label())))
}

fn parse_sep(s: &str) -> Result<char, String> {
    match s {
        "\\t" | "tab" | "\t" => Ok('\t'),
        _ => {
            let mut c = s.chars();
            match (c.next(), c.next()) {
                (Some(ch), None) if ch != '"' && ch != '\n' && ch != '\r' => Ok(ch),
                _ => Err(format!("{s:?}: give one character, e.g. ';' or tab")),
            }
        }
    }
}

/// The output settings of the common options.
fn output(c: &Common) -> anyhow::Result<Output> {
    if c.decimal_comma && c.sep == Some(',') {
        anyhow::bail!("--decimal-comma writes 12,5: pick another --sep than ','");
    }
    Ok(Output {
        format: c.format,
        sep: c.sep,
        decimal_comma: c.decimal_comma,
        bom: c.excel,
    })
}

/// `60s`, `2m`, `1h`, `500ms`, `90` (seconds) → seconds.
fn duration_s(s: &str) -> anyhow::Result<f64> {
    let t = s.trim();
    let (num, mult) = if let Some(v) = t.strip_suffix("ms") {
        (v, 0.001)
    } else if let Some(v) = t.strip_suffix('s') {
        (v, 1.0)
    } else if let Some(v) = t.strip_suffix('m') {
        (v, 60.0)
    } else if let Some(v) = t.strip_suffix('h') {
        (v, 3600.0)
    } else {
        (t, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v * mult),
        _ => anyhow::bail!("bad duration {s:?}: use e.g. 60s, 2m, 1h, 500ms"),
    }
}

fn log_time(s: &str) -> anyhow::Result<i64> {
    let b = s.trim().as_bytes();
    match crate::parse::num::iso_datetime_prefix(b) {
        Some((ms, n)) if n == b.len() => Ok(ms),
        _ => {
            anyhow::bail!("bad time {s:?}: use e.g. 2012-09-21T12:00:00 or 2012-09-21 12:00:00.000")
        }
    }
}

fn check_latency_bands(b: &[f64], flag: &str) -> anyhow::Result<()> {
    if b.iter().any(|v| !v.is_finite() || *v < 0.0) || b.windows(2).any(|w| w[0] >= w[1]) {
        anyhow::bail!("{flag} must be non-negative and strictly ascending, e.g. 0,50,200,1000");
    }
    Ok(())
}

fn perf_options(o: &PerfOpts) -> anyhow::Result<analyze::perf::PerfOptions> {
    check_latency_bands(&o.latency_bands, "--latency-bands")?;
    if o.over.iter().any(|v| !v.is_finite() || *v < 0.0) {
        anyhow::bail!("--over takes non-negative milliseconds, e.g. 50,150");
    }
    Ok(analyze::perf::PerfOptions {
        bands: o.latency_bands.clone(),
        over: o.over.clone(),
        skip_s: duration_s(&o.window.skip)?,
        // An uptime bound is for GC logs; a performance log is left out under it.
        from_ms: gc_window(&o.window)?.wall_ms().0,
        to_ms: gc_window(&o.window)?.wall_ms().1,
        interval_ms: o.interval.as_deref().map(interval_ms).transpose()?,
    })
}

/// What the charts say about the records `--skip`, `--from` and `--to` leave out.
fn window_text(w: &Window, skip_s: f64) -> String {
    let mut parts = Vec::new();
    if skip_s > 0.0 {
        parts.push(format!("first {} left out", w.skip.trim()));
    }
    if let Some(f) = &w.from {
        parts.push(format!("from {}", f.trim()));
    }
    if let Some(t) = &w.to {
        parts.push(format!("to {}", t.trim()));
    }
    parts.join(", ")
}

fn interval_ms(s: &str) -> anyhow::Result<i64> {
    let ms = (duration_s(s)? * 1000.0).round();
    if ms < 1.0 {
        anyhow::bail!("--interval must be at least 1ms, e.g. 1m, 30s");
    }
    Ok(ms as i64)
}

fn run_perf(a: PerfArgs) -> anyhow::Result<i32> {
    if a.slo.pause_target.is_some() {
        anyhow::bail!("--pause-target counts GC pauses: see `gcperf gc` or `gcperf summary`");
    }
    let slo = Slo::read(&a.slo, &[analyze::slo::LogKind::Perf])?;
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
    let mut reports: Vec<FileSummary> = Vec::new();
    let tally = each_input(
        &inputs(&a.common),
        a.common.quiet,
        &|_, _, r| match r {
            Ok(l) if l.perf().is_some() => {
                // The window is the analyses' (`opts`); said when it leaves no request.
                let empty = |p: &&crate::load::LoadedPerf| {
                    analyze::perf::window_leaves_none(&p.frame.df, &opts).unwrap_or(false)
                };
                if let Some(p) = l.perf().filter(empty) {
                    note(&format!("gcperf: {}{}", p.label, NO_REQUESTS_IN_WINDOW));
                }
                match FileSummary::of(&l, &opts) {
                    Ok(mut s) => {
                        s.judge(&slo.objectives, per_op);
                        Step::output(s)
                    }
                    Err(e) => failed(&l, e),
                }
            }
            Ok(l) => not_perf(&l),
            Err(_) => Step::none(),
        },
        &mut |_, s| reports.push(s),
    );
    let failed = slo.check_judged(reports.iter().flat_map(|s| &s.slo), tally.produced > 0)?;
    let verdicts = slo_rows(reports.iter());
    print(&out.finish(
        crate::report::perf::render(&reports, out, by)
            + &crate::report::slo::render(&verdicts, out),
    ))?;
    Ok(tally.exit_code_slo(a.common.strict, failed))
}

fn run_report(a: ReportArgs) -> anyhow::Result<i32> {
    use crate::report::batch;
    check_bands(&a.pause_bands)?;
    let slo = Slo::read(&a.slo, &BOTH)?;
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
        crate::report::summary::Outcome::Ok(s) => Some(s.slo.iter()),
        crate::report::summary::Outcome::Failed { .. } => None,
    });
    let reported_any = entries
        .iter()
        .any(|e| matches!(e.outcome, crate::report::summary::Outcome::Ok(_)));
    let slo_failed = slo.check_judged(judged.flatten(), reported_any)?;
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
    Ok(tally.exit_code_slo(a.common.strict, slo_failed))
}

/// `--percentiles`: each one the summary has.
fn check_percentiles(p: &[u32]) -> anyhow::Result<()> {
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

fn run_compare(a: CompareArgs) -> anyhow::Result<i32> {
    use crate::report::compare::{self, Run};
    let slo = Slo::read(&a.slo, &BOTH)?;
    let mut opts = perf_options(&a.perf)?;
    analyze::slo::add_over(&slo.objectives, &mut opts.over);
    check_percentiles(&a.percentiles)?;
    let sort = a
        .sort
        .as_deref()
        .map(analyze::compare::SortKey::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!(e))?;
    if let Some(k) = &sort {
        analyze::slo::add_over(std::slice::from_ref(k.objective()), &mut opts.over);
    }
    if let Some(p) = &a.chart {
        if !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            anyhow::bail!(
                "--chart {}: the chart is a PNG file: name it FILE.png",
                p.display()
            );
        }
    }
    let out = output(&a.common)?;
    // --group: each file of a group is one repeat, its own input.
    let specs = a
        .group
        .iter()
        .map(|g| parse_group(g))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!(e))?;
    if let Some((l, _)) = specs
        .iter()
        .enumerate()
        .find_map(|(i, s)| specs[..i].iter().find(|t| t.0 == s.0))
    {
        anyhow::bail!("--group {l}: the label is given twice");
    }
    let (inputs, group_of) = if specs.is_empty() {
        (inputs(&a.common), Vec::new())
    } else {
        let mut all = Inputs {
            groups: Vec::new(),
            skipped: Vec::new(),
        };
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
        a.common.quiet,
        &|i, _, r| match windowed(&win, r, false) {
            Err(step) => step,
            Ok(r) => match r {
                Ok(l) => match FileSummary::of_target(&l, &opts, slo.pause_target_ms) {
                    Ok(mut summary) => {
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
                    }
                    Err(e) => failed(&l, e),
                },
                Err(_) => Step::none(),
            },
        },
        &mut |_, run| runs.push(run),
    );
    let failed = slo.check_judged(
        runs.iter().flat_map(|r| &r.1.summary.slo),
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
    let baseline = match &a.baseline {
        Some(b) => Some(
            groups
                .iter()
                .find(|g| g.label == *b)
                .cloned()
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--baseline {b:?}: no run or group has that label (labels: {})",
                        groups
                            .iter()
                            .map(|g| g.label.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?,
        ),
        None => groups.first().filter(|_| groups.len() > 1).cloned(),
    };
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
        std::fs::File::create(path)
            .with_context(|| format!("cannot write the chart {}", path.display()))?;
    }
    let view = compare::View {
        note: note.clone(),
        grouped,
        baseline,
    };
    print(&out.finish(
        compare::render_groups(&groups, out, &view) + &crate::report::slo::render(&verdicts, out),
    ))?;
    if let Some(path) = chart {
        let chart_opts = crate::render::compare::ChartOptions {
            log_y: a.log_y,
            sort,
            note,
        };
        if a.load_curve {
            load_curve_chart(path, &runs, &a.percentiles, &slo.objectives, a.size)?;
            return Ok(tally.exit_code_slo(a.common.strict, failed));
        }
        crate::render::compare::compare(path, &runs, a.size, &chart_opts)
            .map_err(|e| anyhow::anyhow!("cannot write the chart {e}"))?;
    }
    Ok(tally.exit_code_slo(a.common.strict, failed))
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
    let perf: Vec<&analyze::perf::PerfSummary> = runs
        .iter()
        .filter_map(|r| r.summary.perf.as_ref())
        .collect();
    let points: Vec<LoadPoint> = perf
        .iter()
        .filter_map(|p| {
            Some(LoadPoint {
                throughput: p.throughput_per_s?,
                values: pcts
                    .iter()
                    .map(|&q| analyze::compare::percentile(p, q))
                    .collect(),
            })
        })
        .collect();
    let limits: Vec<lc::Limit> = analyze::compare::percentile_limits(objectives, pcts)
        .into_iter()
        .map(|(series, ms, text)| lc::Limit { series, ms, text })
        .collect();
    let series: Vec<String> = pcts.iter().map(|p| format!("p{p}")).collect();
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

fn run_summary(a: SummaryArgs) -> anyhow::Result<i32> {
    let slo = Slo::read(&a.slo, &BOTH)?;
    let mut opts = perf_options(&a.perf)?;
    analyze::slo::add_over(&slo.objectives, &mut opts.over);
    let out = output(&a.common)?;
    let win = gc_window(&a.perf.window)?;
    let mut outcomes: Vec<Outcome> = Vec::new();
    // Each input is summarised as it is loaded and dropped: a folder of any size needs the
    // memory of one log per core.
    let tally = each_input(
        &inputs(&a.common),
        a.common.quiet,
        &|_, p, r| match windowed(&win, r, false) {
            Err(step) => step,
            Ok(r) => match r {
                Ok(l) => match FileSummary::of_target(&l, &opts, slo.pause_target_ms) {
                    Ok(mut s) => {
                        s.judge(&slo.objectives, false);
                        Step::output(Outcome::Ok(Box::new(s)))
                    }
                    Err(e) => {
                        let mut s = failed(&l, &e);
                        s.value = Some(Outcome::Failed {
                            file: l.label().to_string(),
                            error: format!("analysis failed: {e}"),
                        });
                        s
                    }
                },
                Err(e) => Step {
                    value: Some(Outcome::Failed {
                        file: escape_path(p),
                        error: crate::report::batch::error_text(&e),
                    }),
                    ..Step::none()
                },
            },
        },
        &mut |_, o| outcomes.push(o),
    );
    let ok: Vec<&FileSummary> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Ok(s) => Some(&**s),
            Outcome::Failed { .. } => None,
        })
        .collect();
    let failed = slo.check_judged(ok.iter().flat_map(|s| &s.slo), tally.produced > 0)?;
    let verdicts = slo_rows(ok.iter().copied());
    print(
        &out.finish(summary::render(&outcomes, out) + &crate::report::slo::render(&verdicts, out)),
    )?;
    Ok(tally.exit_code_slo(a.common.strict, failed))
}

const BOTH: [analyze::slo::LogKind; 2] = [analyze::slo::LogKind::Gc, analyze::slo::LogKind::Perf];

/// Each run's verdicts under its name, for the verdict table.
fn slo_rows<'a>(
    runs: impl Iterator<Item = &'a FileSummary>,
) -> Vec<(&'a str, &'a [analyze::slo::Verdict])> {
    runs.map(|s| (s.file.as_str(), s.slo.as_slice())).collect()
}

fn check_bands(edges: &[f64]) -> anyhow::Result<()> {
    if edges.iter().any(|v| !v.is_finite() || *v <= 0.0) || edges.windows(2).any(|w| w[0] >= w[1]) {
        anyhow::bail!("--pause-bands must be positive and strictly ascending, e.g. 10,50,100");
    }
    Ok(())
}

fn run_chart(a: ChartArgs) -> anyhow::Result<i32> {
    check_bands(&a.pause_bands)?;
    check_latency_bands(&a.latency_bands, "--latency-bands")?;
    let skip_s = duration_s(&a.window.skip)?;
    let popts = analyze::perf::PerfOptions {
        bands: a.latency_bands.clone(),
        skip_s,
        from_ms: gc_window(&a.window)?.wall_ms().0,
        to_ms: gc_window(&a.window)?.wall_ms().1,
        ..analyze::perf::PerfOptions::default()
    };
    let kinds = if a.kind.is_empty() {
        charts::ChartKind::defaults()
    } else {
        a.kind.clone()
    };
    check_percentiles(&a.percentiles)?;
    let objectives = analyze::slo::parse(&a.slo)?;
    if !a.slo.is_empty() && !kinds.contains(&charts::ChartKind::LoadCurve) {
        anyhow::bail!("--slo is drawn on the load curve: add --kind load-curve");
    }
    if !a.slo.is_empty() && objectives.is_empty() {
        anyhow::bail!("--slo: no objective given");
    }
    // Only objectives on a drawn percentile can be drawn; any other would be accepted and
    // then ignored.
    for o in &objectives {
        if analyze::compare::percentile_limits(std::slice::from_ref(o), &a.percentiles).is_empty() {
            anyhow::bail!(
                "--slo {}: the load curve draws objectives on its percentiles ({}) only",
                o.text,
                a.percentiles
                    .iter()
                    .map(|p| format!("p{p}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let settings = ChartSettings {
        kinds,
        percentiles: a.percentiles.clone(),
        objectives,
        size: a.size,
        log_y: a.log_y,
        gc_bands: a.pause_bands.clone(),
        perf: popts,
        interval_ms: a.interval.as_deref().map(interval_ms).transpose()?,
        window: window_text(&a.window, skip_s),
        pause_target_ms: a.pause_target.as_deref().map(pause_target_ms).transpose()?,
        gc_window: gc_window(&a.window)?,
    };
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let inputs = inputs(&a.common);
    let stems = inputs.stems();
    let out = output(&a.common)?;
    let win = gc_window(&a.window)?;
    let mut written: Vec<PathBuf> = Vec::new();
    let tally = each_input(
        &inputs,
        a.common.quiet,
        &|i, _, r| match windowed(&win, r, false) {
            Err(step) => step,
            Ok(Err(_)) => Step::none(),
            Ok(Ok(l)) => {
                let stem = stems.get(i).map_or("log", String::as_str);
                let stem = crate::report::batch::part_stem(stem, &l);
                let p = |chart: &str| a.out.join(format!("{stem}-{chart}.png"));
                match charts::charts_for(&l, &settings, &p) {
                    Ok(paths) if paths.is_empty() => Step::left_out(Some(format!(
                        "gcperf: {}: no chart of --kind {} applies to a {}",
                        l.label(),
                        settings
                            .kinds
                            .iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(","),
                        if l.gc().is_some() {
                            "GC log"
                        } else {
                            "performance log"
                        }
                    ))),
                    Ok(paths) => Step::output(paths),
                    Err(e) => Step::left_out(Some(format!("gcperf: {e}"))),
                }
            }
        },
        &mut |_, paths: Vec<PathBuf>| written.extend(paths),
    );
    print(&listing(&written, out))?;
    Ok(tally.exit_code(a.common.strict))
}

fn run_gc(a: GcArgs) -> anyhow::Result<i32> {
    check_bands(&a.pause_bands)?;
    let slo = Slo::read(&a.slo, &[analyze::slo::LogKind::Gc])?;
    let edges = a.pause_bands.clone();
    let interval_s = a
        .interval
        .as_deref()
        .map(interval_ms)
        .transpose()?
        .map(|ms| ms as f64 / 1000.0);
    if a.events && interval_s.is_some() {
        anyhow::bail!("--interval is for the breakdown's rates, not --events");
    }
    let out = output(&a.common)?;
    let inputs = inputs(&a.common);
    let win = gc_window(&a.window)?;
    if a.events {
        // Every event as CSV (TSV with --format tsv); each input's rows printed as soon as
        // it is done (and those before it), one header. JSON or Markdown of millions of rows
        // is not offered, and not quietly turned into CSV either.
        let mut o = out;
        match o.format {
            Format::Json | Format::Markdown => anyhow::bail!(
                "--events prints CSV (or TSV with --format tsv), not {}",
                if o.format == Format::Json {
                    "json"
                } else {
                    "markdown"
                }
            ),
            Format::Tsv => {}
            _ => o.format = Format::Csv,
        }
        let Some(d) = o.delimited() else {
            anyhow::bail!("--events prints CSV or TSV");
        };
        let mut first = true;
        let mut closed = false;
        let mut failure: Option<anyhow::Error> = None;
        // Each input's rows written as they are made, straight to stdout (held as one text
        // first, a 210 MB log's rows took 2.2 GB).
        let tally = each_input(
            &inputs,
            a.common.quiet,
            &|_, _, r| match windowed(&win, r, false) {
                Err(step) => step,
                Ok(Ok(l)) => match l.gc() {
                    Some(_) => Step::output(l),
                    None => not_gc(&l),
                },
                Ok(Err(_)) => Step::none(),
            },
            &mut |_, l: Input| {
                let Some(g) = l.gc() else { return };
                if closed || failure.is_some() {
                    return;
                }
                let stdout = std::io::stdout();
                let mut w = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
                let bom = first && o.bom;
                let r = (|| -> Result<(), gcreport::EventsError> {
                    if bom {
                        w.write_all("\u{feff}".as_bytes())?;
                    }
                    gcreport::write_events(g, a.all_records, &d, first, &mut w)?;
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
                    Err(e) => {
                        failure = Some(
                            anyhow::Error::new(e)
                                .context(format!("{}: writing its events", g.label)),
                        )
                    }
                }
            },
        );
        if let Some(e) = failure {
            return Err(e);
        }
        return Ok(tally.exit_code(a.common.strict));
    }
    let mut reports: Vec<GcReport> = Vec::new();
    let tally = each_input(
        &inputs,
        a.common.quiet,
        &|_, _, r| match windowed(&win, r, false) {
            Err(step) => step,
            Ok(r) => match r {
                Ok(l) => match l.gc() {
                    Some(g) => match gc_report(g, &edges, slo.pause_target_ms, interval_s) {
                        Ok(mut rep) => {
                            rep.summary.judge(&slo.objectives, false);
                            Step::output(rep)
                        }
                        Err(e) => failed(&l, e),
                    },
                    None => not_gc(&l),
                },
                Err(_) => Step::none(),
            },
        },
        &mut |_, rep| reports.push(rep),
    );
    let failed = slo.check_judged(
        reports.iter().flat_map(|r| &r.summary.slo),
        tally.produced > 0,
    )?;
    let verdicts = slo_rows(reports.iter().map(|r| &r.summary));
    print(&out.finish(
        gcreport::render(&reports, out, a.by) + &crate::report::slo::render(&verdicts, out),
    ))?;
    Ok(tally.exit_code_slo(a.common.strict, failed))
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

/// Bad files are named on stderr and left out; exit 1 only when nothing could be exported (a
/// file that cannot be written is an error: exit 2). Every input is held until the Parquet
/// files are written (their row groups gather small inputs in argument order).
fn run_export(a: ExportArgs) -> anyhow::Result<i32> {
    let c = Common {
        paths: a.paths,
        format: Format::Table,
        quiet: a.quiet,
        sep: None,
        decimal_comma: false,
        excel: false,
        join: a.join,
        rotated: a.rotated,
        strict: a.strict,
    };
    let mut loaded: Vec<Input> = Vec::new();
    let win = gc_window(&a.window)?;
    let mut tally = each_input(
        &inputs(&c),
        c.quiet,
        &|_, _, r| match windowed(&win, r, true) {
            Err(step) => step,
            Ok(Ok(l)) => Step::output(l),
            Ok(Err(_)) => Step::none(),
        },
        &mut |_, l| loaded.push(l),
    );
    if loaded.is_empty() {
        eprintln!("gcperf: nothing to export");
        return Ok(1);
    }
    let refs: Vec<&Input> = loaded.iter().collect();
    let e = crate::report::export::export(&refs, &a.out)?;
    for n in &e.notes {
        note(&format!("gcperf: {n}"));
    }
    let paths: String = e
        .written
        .iter()
        .map(|w| format!("{}\n", w.path.display()))
        .collect();
    print(&paths)?;
    if e.written.is_empty() {
        tally.produced = 0;
    }
    Ok(tally.exit_code(c.strict))
}

/// `gcperf correlate`: the GC log and the performance logs loaded (bad inputs noted and left
/// out), put on one clock and joined; the table and the chart.
fn run_correlate(a: CorrelateArgs) -> anyhow::Result<i32> {
    use crate::analyze::correlate as cor;
    if !a.over.is_finite() || a.over < 0.0 {
        anyhow::bail!("--over takes non-negative milliseconds, e.g. 50");
    }
    let tz_min = match a.tz.as_deref() {
        Some(t) => Some(
            cor::parse_zone(t)
                .ok_or_else(|| anyhow::anyhow!("bad --tz {t:?}: use e.g. +0300, -05:00 or Z"))?,
        ),
        None => None,
    };
    if let Some(p) = &a.chart {
        if !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            anyhow::bail!(
                "--chart {}: the chart is a PNG file: name it FILE.png",
                p.display()
            );
        }
    }
    let opts = cor::Options {
        over_ms: a.over,
        gc_start_ms: a.gc_start.as_deref().map(log_time).transpose()?,
        tz_min,
        safepoints: a.safepoints,
        stalls: a.stalls,
        skip_s: duration_s(&a.window.skip)?,
        from_ms: a.window.from.as_deref().map(log_time).transpose()?,
        to_ms: a.window.to.as_deref().map(log_time).transpose()?,
    };
    let interval = a.interval.as_deref().map(interval_ms).transpose()?;
    let out = output(&Common {
        paths: Vec::new(),
        format: a.format,
        quiet: a.quiet,
        sep: a.sep,
        decimal_comma: a.decimal_comma,
        excel: a.excel,
        join: false,
        rotated: false,
        strict: a.strict,
    })?;
    let mut tally = Tally::default();
    // Load a group of files: the inputs, their stderr lines, their counts.
    let load = |files: &[PathBuf]| -> (Vec<Input>, Vec<String>, Tally) {
        let (r, parts) = crate::report::batch::load_group(files);
        let each: Vec<Result<Input, Error>> = match r {
            Ok(v) => v.into_iter().map(Ok).collect(),
            Err(e) => vec![Err(e)],
        };
        let (mut got, mut lines, mut t) = (Vec::new(), Vec::new(), Tally::default());
        for (k, r) in each.into_iter().enumerate() {
            let joined: &[Error] = if k == 0 { &parts } else { &[] };
            lines.extend(input_notes(&r, joined, a.quiet));
            t.left_out += joined.len() + r.as_ref().map_or(1, |l| l.warnings().len());
            t.skipped_lines += r.as_ref().map_or(0, |l| l.skipped_lines());
            got.extend(r.ok());
        }
        (got, lines, t)
    };
    let gx = input::expand(&a.gc);
    let px = input::expand(&a.perf);
    for s in gx.skipped.iter().chain(&px.skipped) {
        note(&format!("gcperf: {s}"));
    }
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
    let mut gc: Option<Loaded> = None;
    if let Some((inputs, lines, t)) = gc_loaded {
        lines.iter().for_each(|l| note(l));
        tally.add(t);
        for i in inputs {
            match i {
                Input::Gc(l) if gc.is_none() => gc = Some(l),
                other => {
                    note(&format!(
                        "gcperf: {}: not the GC log (a {} log, or a second part): left out",
                        other.label(),
                        other.kind()
                    ));
                    tally.left_out += 1;
                }
            }
        }
    }
    let mut perfs: Vec<crate::load::LoadedPerf> = Vec::new();
    for (inputs, lines, t) in perf_loaded {
        lines.iter().for_each(|l| note(l));
        tally.add(t);
        for i in inputs {
            match i {
                Input::Perf(l) => perfs.push(l),
                Input::Gc(l) => {
                    note(&format!(
                        "gcperf: {}: a GC log given to --perf: left out",
                        l.label
                    ));
                    tally.left_out += 1;
                }
            }
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
    // The zone of the GC log's stamps is not kept by the parsers: read from the file's head.
    let zone = {
        let mut head = Vec::new();
        match input::open(&gc.path) {
            Ok(mut r) => {
                let _ = input::fill(&mut r, &mut head, 1 << 20);
                cor::gc_zone(&head, gc.format.clock())
            }
            Err(_) => cor::Zone::Local,
        }
    };
    let side = cor::GcSide {
        frame: &gc.frame,
        clock: gc.format.clock(),
        zone,
    };
    let sides: Vec<cor::PerfSide> = perfs
        .iter()
        .map(|p| cor::PerfSide {
            frame: &p.frame,
            utc: matches!(
                p.format,
                crate::model::PerfFormat::JmeterJtl | crate::model::PerfFormat::Grinder
            ),
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
        std::fs::File::create(path)
            .with_context(|| format!("cannot write the chart {}", path.display()))?;
    }
    print(&out.finish(crate::report::correlate::render(
        std::slice::from_ref(&c),
        out,
    )))?;
    if let Some(path) = &a.chart {
        let data = cor::chart_data(&prepared, a.size.width as usize, interval)
            .map_err(|e| anyhow::anyhow!("cannot draw the chart: {e}"))?;
        let title = format!(
            "{} + {}",
            charts::file_name(&gc.path),
            perfs
                .iter()
                .map(|p| charts::file_name(&p.path))
                .collect::<Vec<_>>()
                .join(", ")
        );
        crate::render::correlate::chart(path, &title, &data, a.size)
            .map_err(|e| anyhow::anyhow!("cannot write the chart {e}"))?;
    }
    tally.produced = 1;
    Ok(tally.exit_code(a.strict))
}
