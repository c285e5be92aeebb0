//! The command line as clap reads it: the commands, their arguments and the options they share.
//! What each command does is in `commands`.

use crate::analyze;
use crate::report::gc::By;
use crate::report::Format;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "gcperf",
    version,
    about = "JVM GC logs (HotSpot, unified logging, JRockit, IBM/OpenJ9) and performance logs \
             (JMeter, Gatling, k6, Grinder, access logs, the semicolon log) into numbers, tables \
             and charts",
    after_help = EXAMPLES,
    after_long_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The command line as `main`, `gcperf man` and `gcperf completions` see it: the clap
/// definitions, with `--help`'s text listing the registered families (so that a new family
/// is listed by its registry line alone).
pub fn command() -> clap::Command {
    use crate::parse::family::{GC_FAMILIES, PERF_FAMILIES};
    use std::fmt::Write;
    let mut inputs = String::from(
        "Inputs, told from their content (`format` names each in the outputs):\n  GC logs:\n",
    );
    for f in GC_FAMILIES {
        let _ = writeln!(inputs, "    {:<16} {}", f.name(), f.about());
    }
    inputs.push_str("  Performance logs:\n");
    for f in PERF_FAMILIES {
        let _ = writeln!(inputs, "    {:<16} {}", f.name(), f.about());
    }
    <Cli as clap::CommandFactory>::command().long_about(format!(
        "JVM GC logs and application performance logs into numbers, tables and charts.\n\n{inputs}\n\
         Access logs of another format are read with `--log-format` (Apache, Tomcat, nginx, a \
         regex). Files may be gzip-compressed or zip archives; folders are read recursively; `-` \
         reads standard input.\n\n\
         Exit codes: 0 ok; 1 nothing readable or recognisable; 2 usage or output error (a \
         malformed --slo objective, or one no input has the figure for, included); 3 an --slo \
         objective failed; 4 with --strict when any line was skipped or any input left out. When \
         several apply: 2, then 1, then 3, then 4 (a failed objective is reported even when lines \
         were skipped)."
    ))
}

/// The arguments of this process, read by `command`; a usage error exits 2 with clap's message.
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    let mut cmd = command();
    let matches = cmd.get_matches_mut();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut cmd).exit())
}

/// One example per command, under the command list of `gcperf --help`.
const EXAMPLES: &str = "Examples:
  gcperf summary logs/                         one row per log, GC and performance logs
  gcperf gc --pause-bands 10,50,100 gc.log     pauses per kind and per duration band
  gcperf perf --by error run.log               requests per operation; errors by message
  gcperf chart -o charts/ gc.log run.jtl       PNG charts of each log
  gcperf compare before.log after.log          runs side by side, one column each
  gcperf report -o report/ logs/               charts, summary.csv, operations.csv, index.html
  gcperf export -o parquet/ logs/              the records as parquet/gc/, perf/ and files/
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
    /// Performance logs: requests, errors, latency percentiles and bands, shares over
    /// thresholds, throughput, Java vs DB per operation.
    Perf(PerfArgs),
    /// Runs side by side, one column per file: requests, throughput, shares over thresholds,
    /// percentiles and latency bands for performance logs; pauses, totals, longest pause and
    /// throughput for GC logs.
    #[command(mut_arg("paths", |a| a.required_unless_present_any(["group", "files_from"])))]
    Compare(CompareArgs),
    /// A report folder for a folder of runs: index.html ranking the runs, a page per run,
    /// their charts, summary.csv (a row per input, errors included) and operations.csv.
    Report(ReportArgs),
    /// The normalised records as Parquet for SQL engines (Spark, Trino, DuckDB): GC records
    /// (gc/), performance-log requests (perf/) and the inputs (files/), schemas in the README.
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
    #[arg(long, required_unless_present = "files_from", num_args = 1..)]
    pub gc: Vec<PathBuf>,
    /// The run's performance logs (any family `gcperf --help` lists), their requests taken
    /// together.
    #[arg(long, required_unless_present = "files_from", num_args = 1..)]
    pub perf: Vec<PathBuf>,
    /// Read more of the run's logs' paths from FILE (`-`: standard input), one per line: each
    /// goes to the GC log or to the performance logs by what its content is (`find run42/
    /// -type f | gcperf correlate --files-from -`). Empty lines are passed over.
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<PathBuf>,
    /// --files-from's paths end with a NUL byte, not a newline (`find -print0`).
    #[arg(short = '0', long = "null", requires = "files_from")]
    pub null: bool,
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
    #[command(flatten)]
    pub csv: CsvOpts,
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
    #[command(flatten)]
    pub access: AccessOpts,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub tags: TagOpts,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    #[command(flatten)]
    pub target: PauseTargetOpt,
    /// The report folder (created if missing): index.html, summary.csv, operations.csv,
    /// charts/. A folder holding an earlier report has it replaced wholly (no chart of it
    /// stays); one holding anything else is refused unless --force.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Write the report into a folder that holds other files too (they stay; an earlier
    /// report's files go).
    #[arg(long)]
    pub force: bool,
    /// Chart size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1600x900")]
    pub size: crate::render::Size,
    /// Logarithmic y axis for pauses and histograms (the interesting bars are often tiny).
    #[arg(long)]
    pub log_y: bool,
    /// Pause-duration band edges in ms, ascending, of the pause histogram: `10,50,100` gives
    /// 0-10, 10-50, 50-100, >100. Default: fitted to each log's pauses (the 1-2-5 steps
    /// between its shortest and longest: 0.01, 0.02, 0.05 ... for sub-millisecond pauses).
    #[arg(long = "pause-bands", value_delimiter = ',')]
    pub pause_bands: Vec<f64>,
    /// APDEX thresholds of the performance runs, ms: `T` (satisfied within T, tolerated
    /// within 4T) or `T:F`. A request is satisfied when it succeeded within T, tolerated when
    /// it succeeded within F, else frustrated; APDEX = (satisfied + tolerated / 2) / requests.
    /// The default is JMeter's dashboard's.
    #[arg(long, value_name = "T[:F]", default_value = "500:1500", value_parser = parse_apdex)]
    pub apdex: (f64, f64),
}

/// `--apdex T[:F]`: two positive thresholds, F at least T.
fn parse_apdex(s: &str) -> Result<(f64, f64), String> {
    let ms = |v: &str| -> Result<f64, String> {
        v.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| format!("`{v}` is not a positive number of milliseconds"))
    };
    let (t, f) = s.split_once(':').map_or((s, None), |(t, f)| (t, Some(f)));
    let t = ms(t)?;
    let f = f.map_or(Ok(4.0 * t), ms)?;
    if f < t {
        return Err(format!(
            "F ({f}) is below T ({t}): give T:F with F at least T"
        ));
    }
    Ok((t, f))
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub term: TerminalOpts,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    #[command(flatten)]
    pub target: PauseTargetOpt,
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
    #[arg(long, value_name = "LABEL=FILE,FILE...", conflicts_with_all = ["paths", "labels", "files_from"])]
    pub group: Vec<String>,
    /// The run (or group) whose figures the others' changes are against, by its label
    /// (without it, no changes are shown). Every figure of a performance or GC run gets its change:
    /// a `<figure>_delta` row in text and Markdown (`+20.500 (+25.00%)`), `<figure>_delta`
    /// and `<figure>_delta_pct` rows in the `perf_delta`/`gc_delta` sections of CSV/TSV, and
    /// a `delta` object in JSON (`baseline`, and `perf`/`gc` with the same keys; the % is
    /// null where the baseline's figure is 0). With one run, no deltas.
    #[arg(long, value_name = "LABEL")]
    pub baseline: Option<String>,
    /// Also draw the comparison as one PNG: throughput and mean response time per operation
    /// and the share per latency band for performance runs, total and longest GC pause for GC
    /// runs (the table still goes to stdout). With GC runs it is drawn taller than --size
    /// where their rows need it at that size's text (said on stderr).
    #[arg(long, value_name = "FILE.png")]
    pub chart: Option<PathBuf>,
    /// Chart size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1600x900", requires = "chart")]
    pub size: crate::render::Size,
    /// Logarithmic value axes in the chart: the band shares (a share of 0.0001 % is a visible
    /// bar) and the GC runs' pause times (one run of 244 s of pauses does not flatten the
    /// others, as it does on a linear axis).
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
    #[command(flatten)]
    pub inputs: Inputs,
    /// A folder: each table in a folder of its own, `gc/`, `perf/` and `files/` (one row per
    /// input), each file a part with a name no other export takes, so that many exports can
    /// write into one dataset. Or a FILE.parquet: one kind of records goes to it; both kinds go
    /// to FILE-gc.parquet and FILE-perf.parquet beside it (no files table).
    #[arg(long, short)]
    pub out: PathBuf,
    #[command(flatten)]
    pub read: Reading,
    /// Only the records in the window (GC records by their start, requests by their end).
    #[command(flatten)]
    pub window: Window,
    #[command(flatten)]
    pub access: AccessOpts,
    #[command(flatten)]
    pub tags: TagOpts,
    /// Hive-style folders by a tag's value: `--partition-by host` writes `gc/host=web01/...`
    /// (the tag is then the folder's, not a column of the files; Spark and DuckDB read it
    /// back as a column). The tag must be given.
    #[arg(long, value_name = "TAG")]
    pub partition_by: Option<String>,
    /// The zone of stamps written in local time without an offset (JRockit, the semicolon
    /// log, access logs), for the `start_utc`/`end_utc` instants: an offset (`+0200`,
    /// `-05:00`, `UTC`) or a tz-database zone (`Europe/Paris`: its DST changes followed; also
    /// used for a log whose stamps carry offsets when it has the log's first one, so that a
    /// log across a DST change is right throughout). Stamps with an offset, and epoch stamps,
    /// need none.
    #[arg(long, allow_hyphen_values = true, value_name = "ZONE")]
    pub tz: Option<String>,
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
    /// Pause-duration band edges in ms, ascending, of the pause histogram: `10,50,100` gives
    /// 0-10, 10-50, 50-100, >100. Default: fitted to each log's pauses (the 1-2-5 steps
    /// between its shortest and longest: 0.01, 0.02, 0.05 ... for sub-millisecond pauses).
    #[arg(long = "pause-bands", alias = "bands", value_delimiter = ',')]
    pub pause_bands: Vec<f64>,
    /// A pause target (`30ms`, `0.03s`; plain numbers are ms), over the one the log states
    /// (JRockit deterministic GC): drawn on the pause chart.
    #[arg(long, value_name = "TIME")]
    pub pause_target: Option<String>,
    /// Response-time band edges in ms for performance logs, ascending; a leading 0 adds a
    /// band for exactly 0 ms. A time t falls in a-b when a < t <= b. Default:
    /// 0,50,200,1000,3000,10000. Refused where no input is read as a performance log.
    #[arg(long = "latency-bands", value_delimiter = ',')]
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
    /// The load curve's percentiles (with --kind load-curve): any of 50, 90, 95, 99.
    /// Default: 50,95.
    #[arg(long, value_delimiter = ',')]
    pub percentiles: Vec<u32>,
    /// Objectives on the load curve's percentiles (`p95<=50ms,p50<=25ms`, as `summary
    /// --slo` reads them), drawn as dashed lines with the intervals over them ringed red. A
    /// chart gives no verdict: `summary --slo` does.
    #[arg(long, value_delimiter = ',', value_name = "EXPR")]
    pub slo: Vec<String>,
    #[command(flatten)]
    pub window: Window,
    #[command(flatten)]
    pub access: AccessOpts,
}

/// Which records count: the requests of a performance log, the records of a GC log.
#[derive(Args, Debug, Clone)]
pub struct Window {
    /// Warm-up to leave out from the start of each log: `60s`, `2m`, `1h`, `500ms` (plain
    /// numbers are seconds). GC logs: the records starting less than that after the first.
    #[arg(long, default_value = "0")]
    pub skip: String,
    /// Only requests ending at or after this time (the log's clock as it writes it, without a
    /// zone: `2012-09-21T12:00:00` or `2012-09-21 12:00:00.000`). GC logs: the records starting at or after it, given as a
    /// time (their date stamps) or as an uptime (`10s`, `2m`, `90`: seconds since JVM start);
    /// a log without that clock is left out, saying so.
    #[arg(long)]
    pub from: Option<String>,
    /// Only requests ending before this time (GC logs: records starting before it; a time or
    /// an uptime, as --from).
    #[arg(long)]
    pub to: Option<String>,
}

/// Objectives.
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
    /// Also write the verdicts as a CSV table (TSV with --format tsv) to FILE. Each verdict
    /// is a line on stderr (`✓`/`✗`) whatever the format; text and Markdown also show the
    /// table after the output, CSV/TSV keep stdout to their one table.
    #[arg(long, value_name = "FILE", requires = "slo")]
    pub slo_out: Option<PathBuf>,
}

/// How text tables meet a terminal.
#[derive(Args, Debug, Clone, Default)]
pub struct TerminalOpts {
    /// Text tables with every column however wide. By default a table wider than the
    /// terminal leaves out columns from the right, and a line after it says which; output to
    /// a pipe or a file always has every column.
    #[arg(long)]
    pub wide: bool,
    /// Colour on a terminal: FAIL in red, the objectives' ✓/✗ on stderr in green/red. auto:
    /// where the stream is a terminal and NO_COLOR is not set.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

/// The pause target of the commands that read GC logs.
#[derive(Args, Debug, Clone, Default)]
pub struct PauseTargetOpt {
    /// A pause target (`30ms`, `0.03s`; plain numbers are ms), over the one the log states
    /// (JRockit deterministic GC): the GC pauses longer than it are counted
    /// (pause_target_ms, pauses_over_target, pauses_over_target_pct). Default: the target the
    /// log states (JRockit `Deterministic GC target pause time: 30 ms`, `-XpauseTarget`).
    #[arg(long, value_name = "TIME")]
    pub pause_target: Option<String>,
}

/// The paths a command reads.
#[derive(Args, Debug, Default)]
pub struct Inputs {
    /// Log files or folders (read recursively; gzip and zip recognised by content), `-` for
    /// standard input.
    #[arg(required_unless_present = "files_from")]
    pub paths: Vec<PathBuf>,
    /// Read more inputs' paths from FILE (`-`: standard input), one per line, besides those
    /// given as arguments: `find /logs -name 'gc*.log' | gcperf summary --files-from -`.
    /// Empty lines are passed over.
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<PathBuf>,
    /// --files-from's paths end with a NUL byte, not a newline (`find -print0`): for names
    /// holding newlines.
    #[arg(short = '0', long = "null", requires = "files_from")]
    pub null: bool,
}

/// How CSV and TSV output is written.
#[derive(Args, Debug, Default, Clone, Copy)]
pub struct CsvOpts {
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
}

#[derive(Args, Debug)]
pub struct Common {
    #[command(flatten)]
    pub inputs: Inputs,
    /// Output format. csv and tsv have a header row, full precision and no thousands
    /// separators (default: table).
    #[arg(long, short, value_enum)]
    pub format: Option<Format>,
    #[command(flatten)]
    pub csv: CsvOpts,
    #[command(flatten)]
    pub read: Reading,
}

/// How the inputs of a command that reads a list of them are grouped, named and spoken of.
#[derive(Args, Debug, Default)]
pub struct Reading {
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
    /// The name of the input read from `-` (standard input) in every output: its `file`
    /// (default `-`).
    #[arg(long, value_name = "NAME")]
    pub stdin_name: Option<String>,
}

/// Constant identifiers for every row a command writes (`--tag host=web01 --tag run=42`):
/// a column after `file` in CSV, TSV, text and Markdown tables and in Parquet, a field of
/// each JSON object, so that the outputs of many hosts or runs can be put together.
#[derive(Args, Debug, Default)]
pub struct TagOpts {
    /// KEY=VALUE, repeatable: a column (field) KEY holding VALUE in every row written. KEY is
    /// letters, digits and `_`, not starting with a digit, and not a name gcperf's own columns
    /// use.
    #[arg(long = "tag", value_name = "KEY=VALUE", value_parser = parse_tag)]
    pub tags: Vec<(String, String)>,
}

/// `--tag KEY=VALUE`.
fn parse_tag(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not KEY=VALUE"))?;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if !k.chars().all(word) || !k.starts_with(|c: char| word(c) && !c.is_ascii_digit()) {
        return Err(format!(
            "`{k}` is not a tag name: letters, digits and _, not starting with a digit"
        ));
    }
    if crate::report::tags::reserved(k) {
        return Err(format!(
            "`{k}` is a column of gcperf's own: choose another tag name"
        ));
    }
    Ok((k.to_string(), v.to_string()))
}

#[derive(Args, Debug)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub tags: TagOpts,
    #[command(flatten)]
    pub term: TerminalOpts,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    #[command(flatten)]
    pub target: PauseTargetOpt,
    /// Rank the rows by a figure: `--sort pause_max_ms` or `pause_max_ms:asc` (lowest first),
    /// `--sort total_ms_p99:desc` (highest first). FIGURE is named as in --slo (a key of the
    /// gc or perf object of `summary --format json`, over_<N>ms_pct, or p50, p90, p95, p99,
    /// max, mean); rows without it (the other kind, unreadable inputs) come last. Default: the
    /// order the inputs were given and found.
    #[arg(long, value_name = "FIGURE[:asc|:desc]")]
    pub sort: Option<String>,
    /// Only the first N rows (with --sort the N lowest or highest); text and Markdown say how
    /// many of how many are shown.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub top: Option<u64>,
}

/// How the requests of access logs (IIS, HAProxy, uWSGI, Caddy) are counted. Given where no
/// access log is read, the command is refused (exit 2): an option never goes unused.
#[derive(Args, Debug, Clone, Default)]
pub struct AccessOpts {
    /// Access logs: keep ids in paths as written. By default a path segment of digits, a UUID
    /// or 16 and more hex digits is folded to `{id}` (`GET /products/42` and `GET /products/7`
    /// are one operation, `GET /products/{id}`); the query string is dropped either way.
    #[arg(long)]
    pub keep_ids: bool,
    /// Access logs: the lowest HTTP status that counts as an error (default 500: 4xx are the
    /// client's); `--error-status 400` counts 4xx too. The error's message is the status.
    #[arg(long, value_name = "STATUS", value_parser = clap::value_parser!(u16).range(100..=999))]
    pub error_status: Option<u16>,
    /// Access logs whose request time has no unit on the line, read by their format:
    /// `apache:<LogFormat>` (`%h %l %u %t \"%r\" %>s %b %D`: %D µs, %T s, %{ms}T, %{us}T,
    /// %{s}T), `tomcat:<pattern>` (%D ms as Tomcat up to 9 writes it: Tomcat 10's
    /// µs %D is read as %{us}T; %T s; `common`, `combined`), `nginx:<log_format>`
    /// ($request_time, $upstream_response_time s, a list summed; $time_local, $time_iso8601,
    /// $msec), or `regex:<pattern>` with named groups: time (the end) or start, elapsed_ms,
    /// elapsed_s or elapsed_us, status, request or method and path. %t is the request's
    /// start (the end is it plus the time); nginx's times are the end. A common or combined
    /// log read without it is refused, saying what to give.
    #[arg(long, value_name = "KIND:FORMAT", value_parser = crate::parse::log_format::LogFormat::parse)]
    pub log_format: Option<crate::parse::log_format::LogFormat>,
}

/// Options of the performance-log figures.
#[derive(Args, Debug, Clone)]
pub struct PerfOpts {
    #[command(flatten)]
    pub access: AccessOpts,
    /// Response-time band edges in ms for performance logs, ascending; a leading 0 adds a
    /// band for exactly 0 ms. A time t falls in a-b when a < t <= b. Default:
    /// 0,50,200,1000,3000,10000. Refused where no input is read as a performance log.
    #[arg(long = "latency-bands", alias = "bands", value_delimiter = ',')]
    pub latency_bands: Vec<f64>,
    /// Response-time thresholds in ms: the count and share of requests taking longer than
    /// each. Default: 50,150. Refused where no input is read as a performance log.
    #[arg(long, value_delimiter = ',')]
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
    pub tags: TagOpts,
    #[command(flatten)]
    pub term: TerminalOpts,
    #[command(flatten)]
    pub perf: PerfOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    /// For csv/tsv/markdown: one row per operation (op, the default: count, errors, error %,
    /// throughput, min, mean, p50, p90, p95, p99, max, Java and DB means, DB share), per
    /// latency band (band), per threshold (over), per interval (interval; needs --interval)
    /// or per error message (error: the `e-` text, JMeter's response code/message, The
    /// Grinder's error count, with counts and the operations they failed in). Text shows
    /// every table without --by, that table alone with it; JSON holds them all (--by other
    /// than op is refused with it).
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
    pub tags: TagOpts,
    #[command(flatten)]
    pub term: TerminalOpts,
    #[command(flatten)]
    pub slo: SloOpts,
    #[command(flatten)]
    pub target: PauseTargetOpt,
    /// Pause-duration band edges in ms, ascending: `10,50,100` gives 0-10, 10-50, 50-100,
    /// >100 (the GC band table and the pause histogram).
    #[arg(long = "pause-bands", alias = "bands", value_delimiter = ',', default_values_t = analyze::gc::DEFAULT_BANDS.to_vec())]
    pub pause_bands: Vec<f64>,
    /// For csv/tsv/markdown: one row per pause kind and collector (kind, the default), per
    /// duration band (band), the pause time per GC cause (cause) or the findings with their
    /// evidence (finding). The text format shows that table only (every table without --by);
    /// JSON holds them all (--by is refused with it).
    #[arg(long, value_enum)]
    pub by: Option<By>,
    /// Length of the intervals (`30s`, `1m`, `1h`) of the per-interval figures (allocation
    /// rate p50/p95/max, GC overhead over 5 %); by default chosen from the span.
    #[arg(long)]
    pub interval: Option<String>,
    /// Print every pause as a CSV row (file, start, duration, kind, collector, cause, heap...)
    /// instead of the breakdown; TSV or a JSON object a line with --format tsv or jsonl.
    #[arg(long)]
    pub events: bool,
    /// With --events: also concurrent phases, safepoints, stalls and collection records.
    #[arg(long, requires = "events")]
    pub all_records: bool,
    #[command(flatten)]
    pub window: Window,
}

fn parse_sep(s: &str) -> Result<char, String> {
    let mut c = s.chars();
    match (s, c.next(), c.next()) {
        ("\\t" | "tab" | "\t", ..) => Ok('\t'),
        (_, Some(ch), None) if !matches!(ch, '"' | '\n' | '\r') => Ok(ch),
        _ => Err(format!("{s:?}: give one character, e.g. ';' or tab")),
    }
}
