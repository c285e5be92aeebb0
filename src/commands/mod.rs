//! The commands: `run` dispatches the parsed command line to the module of its command, each
//! of which reads its inputs through `batch` and its options through `options`.

mod batch;
mod chart;
mod compare;
mod completions;
mod correlate;
mod export;
mod gc;
mod man;
mod options;
mod perf;
mod report;
mod summary;

use crate::cli::{Cli, Command};
use crate::report::{Format, Output};
use anyhow::Context as _;
use std::io::Write;
use std::path::PathBuf;

/// Run the command; returns the process exit code.
pub fn run(cli: Cli) -> anyhow::Result<i32> {
    let access = match &cli.command {
        Command::Summary(a) => Some(&a.perf.access),
        Command::Perf(a) => Some(&a.perf.access),
        Command::Compare(a) => Some(&a.perf.access),
        Command::Report(a) => Some(&a.perf.access),
        Command::Chart(a) => Some(&a.access),
        Command::Export(a) => Some(&a.access),
        Command::Correlate(a) => Some(&a.access),
        Command::Gc(_) | Command::Completions(_) | Command::Man => None,
    };
    if let Some(a) = access {
        options::set_access_rules(a);
    }
    match cli.command {
        Command::Summary(a) => summary::run(a),
        Command::Gc(a) => gc::run(a),
        Command::Chart(a) => chart::run(a),
        Command::Perf(a) => perf::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Export(a) => export::run(a),
        Command::Report(a) => report::run(a),
        Command::Correlate(a) => correlate::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man => man::run(),
    }
}

/// `--format jsonl` written as each input finishes (where no ranking waits for all): a line
/// an object, flushed; a closed pipe ends the writing quietly, another error is kept for the
/// end of the batch (an output error, exit 2).
struct JsonLines {
    on: bool,
    failure: Option<anyhow::Error>,
}

impl JsonLines {
    fn new(format: Format, streamed: bool) -> Self {
        JsonLines {
            on: format == Format::Jsonl && streamed,
            failure: None,
        }
    }

    /// Write the object `v` makes (made only when JSON Lines are written here).
    fn write<T: serde::Serialize>(&mut self, v: impl FnOnce() -> T) {
        if self.on && self.failure.is_none() {
            if let Err(e) = print(&crate::report::json_line(&v())) {
                self.failure = Some(e);
            }
        }
    }

    /// Whether the output was written here (the command prints nothing more), or the error
    /// that stopped it.
    fn finish(self) -> anyhow::Result<bool> {
        self.failure.map_or(Ok(self.on), Err)
    }
}

fn print(s: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        // Said as what failed: the system's words alone ("No space left on device") name
        // no file.
        r => r.context(STDOUT_FAILED),
    }
}

/// What a failed write on stdout is said as, before the system's reason.
const STDOUT_FAILED: &str = "cannot write standard output";

/// The paths a command wrote, one a line, or in `--format`: a `path` column (CSV, TSV,
/// Markdown) or a JSON array.
fn listing(paths: &[PathBuf], out: Output) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    match out.format {
        Format::Table => names.iter().map(|n| format!("{n}\n")).collect(),
        Format::Json | Format::Jsonl => crate::report::json_rows(&names, out.format),
        Format::Csv | Format::Tsv | Format::Markdown => {
            let t = crate::report::Table {
                rows: names.into_iter().map(|n| vec![n]).collect(),
                ..crate::report::Table::new(&["path"])
            };
            out.finish(out.writer().write(&t))
        }
    }
}
