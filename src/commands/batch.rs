//! The batch driver: a command's inputs (each path, or joined, or in rotation sets), each
//! loaded, worked on and dropped at most one per core, its results and stderr lines kept in
//! argument order (`each_input`); the stderr lines of a loaded input; the tally the exit code
//! is made from. `correlate` uses the parts (it loads its GC log beside its performance logs);
//! `report` runs `report::batch::process` on the same `report::batch::ordered` itself.

use crate::cli::Common;
use crate::error::{escape, Error};
use crate::input;
use crate::load::{self, Input};
use crate::render::charts;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The inputs of a command: each file on its own, all as one log (`--join`), or rotation sets
/// (`--rotated`); and what was left out before reading (not a regular file).
#[derive(Default)]
pub(super) struct Inputs {
    pub(super) groups: Vec<Vec<PathBuf>>,
    pub(super) skipped: Vec<String>,
}

pub(super) fn inputs(c: &Common) -> anyhow::Result<Inputs> {
    load::set_stdin_name(c.read.stdin_name.clone());
    let (listed, too_long) = match &c.inputs.files_from {
        Some(list) => files_from(list, c.inputs.null, &c.inputs.paths)?,
        None => Default::default(),
    };
    let given = [c.inputs.paths.as_slice(), &listed].concat();
    stdin_once(&given)?;
    let mut x = input::expand(&given);
    x.skipped.extend(too_long);
    let groups = if c.read.join {
        vec![x.files]
    } else if c.read.rotated {
        load::group_rotated(&x.files)
    } else {
        x.files.into_iter().map(|f| vec![f]).collect()
    };
    Ok(Inputs {
        groups: groups.into_iter().filter(|g| !g.is_empty()).collect(),
        skipped: x.skipped,
    })
}

/// `--files-from FILE`: the paths it lists, one per line (or NUL-terminated with `-0`),
/// empty ones passed over; `-` reads them from standard input, which then cannot also be an
/// input. A list that cannot be read is a usage error (exit 2). An entry longer than any path
/// can be (`PATH_MAX`, 4096 bytes: a list that is not one, a line run together) is left out,
/// said shortened (`PATH: WHY: skipped`, as `input::expand` says what it leaves out). A list
/// of no paths is said on stderr.
pub(super) fn files_from(
    list: &Path,
    null: bool,
    args: &[PathBuf],
) -> anyhow::Result<(Vec<PathBuf>, Vec<String>)> {
    use std::io::Read;
    const PATH_MAX: usize = 4096;
    let mut bytes = Vec::new();
    let read = if input::is_stdin(list) {
        if args.iter().any(|p| input::is_stdin(p)) {
            return Err(Error::Usage(
                "--files-from - reads the list from standard input: it cannot also be an input (-)"
                    .into(),
            )
            .into());
        }
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(list).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    let name = crate::error::escape_path(list);
    read.map_err(|e| Error::Usage(format!("--files-from {name}: cannot read it: {e}")))?;
    let sep = if null { b'\0' } else { b'\n' };
    let (mut paths, mut too_long) = (Vec::new(), Vec::new());
    for (k, p) in bytes.split(|&b| b == sep).enumerate() {
        let p = p.strip_suffix(b"\r").filter(|_| !null).unwrap_or(p);
        if p.is_empty() {
            continue;
        }
        if p.len() > PATH_MAX {
            let head = String::from_utf8_lossy(&p[..60]);
            too_long.push(format!(
                "{}…: entry {} of --files-from {name} is {} bytes, longer than any path: skipped",
                escape(&head),
                k + 1,
                p.len()
            ));
            continue;
        }
        paths.push(path_of_bytes(p));
    }
    // A `-` in a list read from standard input would read what is left of the list: nothing.
    if input::is_stdin(list) && paths.iter().any(|p| input::is_stdin(p)) {
        return Err(Error::Usage(
            "--files-from - reads the list from standard input: the list cannot name it (-)".into(),
        )
        .into());
    }
    // An empty list is said, as an empty folder is: with nothing else given, exit 1 would
    // otherwise come without a word. (A note, not an input left out: export's files table
    // has no row for it.)
    if paths.is_empty() {
        note(&format!("gcperf: --files-from {name}: no paths in it"));
    }
    Ok((paths, too_long))
}

/// Standard input given twice (`- -`, or `-` both as an argument and in a `--files-from`
/// list) is refused: it is read once, and the second reading would find it empty.
pub(super) fn stdin_once(paths: &[PathBuf]) -> Result<(), Error> {
    if paths.iter().filter(|p| input::is_stdin(p)).count() > 1 {
        return Err(Error::Usage(
            "standard input (-) is given more than once: it can be read once".into(),
        ));
    }
    Ok(())
}

/// A path from its bytes as a list gives them (Unix: any bytes; elsewhere UTF-8, lossily).
fn path_of_bytes(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}

impl Inputs {
    /// How output names each input: its (first) path, control characters escaped.
    pub(super) fn names(&self) -> Vec<String> {
        self.groups.iter().map(|g| load::name_of(&g[0])).collect()
    }
    /// Chart-file stems, one per input (`-` is `stdin`).
    pub(super) fn stems(&self) -> Vec<String> {
        charts::unique_stems(self.groups.iter().map(|g| {
            if input::is_stdin(&g[0]) {
                Path::new("stdin")
            } else {
                g[0].as_path()
            }
        }))
    }
}

/// How a command's inputs went, for the exit code.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Tally {
    /// Inputs that gave output (a summary row with figures, a table, charts).
    pub(super) produced: usize,
    /// Inputs or parts of inputs left out: unreadable, unrecognised, not a regular file,
    /// damaged, not of the command's kind, charts not drawn.
    pub(super) left_out: usize,
    /// Lines skipped in the inputs read.
    pub(super) skipped_lines: u64,
    /// Inputs read as GC logs, and as performance logs: an option for one kind of log is
    /// refused where none of that kind was read (`options::refuse_unused`).
    pub(super) gc_read: usize,
    pub(super) perf_read: usize,
    /// Inputs an option given made the analysis of impossible (an `--interval` too short
    /// for the log's span): a usage error, exit 2, the other inputs' output still written.
    pub(super) usage: usize,
}

impl Tally {
    pub(super) fn add(&mut self, o: Tally) {
        self.produced += o.produced;
        self.left_out += o.left_out;
        self.skipped_lines += o.skipped_lines;
        self.gc_read += o.gc_read;
        self.perf_read += o.perf_read;
        self.usage += o.usage;
    }
    /// 1 when no input gave output; 4 with `--strict` when anything was skipped or left out;
    /// else 0.
    pub(super) fn exit_code(&self, strict: bool) -> i32 {
        self.exit_code_slo(strict, false)
    }
    /// As `exit_code`, and 3 when an objective failed (before `--strict`'s 4); 2 first, when
    /// an option made an input's analysis impossible.
    pub(super) fn exit_code_slo(&self, strict: bool, slo_failed: bool) -> i32 {
        if self.usage > 0 {
            2
        } else if self.produced == 0 {
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
pub(super) fn progress(n: usize, quiet: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Drawn only once the work has taken a second: a bar that flashes for a quick run is
    // noise.
    let b = ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} {bar:40} {pos}/{len} files, {elapsed} ({eta} left) {msg}",
    ) {
        b.set_style(style);
    }
    let shown = b.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(1));
        if !shown.is_finished() {
            shown.set_draw_target(ProgressDrawTarget::stderr());
            // A single big log takes seconds with no input finished: the spinner and the
            // clock move.
            shown.enable_steady_tick(std::time::Duration::from_millis(200));
        }
    });
    b
}

/// One line on stderr, control characters escaped whatever it quotes.
pub(super) fn note(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", escape(line));
}

/// Each of `lines` on stderr as gcperf's (`gcperf: ...`).
pub(super) fn notes(lines: impl IntoIterator<Item = impl std::fmt::Display>) {
    for l in lines {
        note(&format!("gcperf: {l}"));
    }
}

/// `N of M lines not understood (skipped)`, then the first three of them.
pub(super) fn skipped_note<'a>(
    label: &str,
    skipped: u64,
    lines: u64,
    bad: impl Iterator<Item = (u64, &'a str)>,
) -> Vec<String> {
    let head = format!("gcperf: {label}: {skipped} of {lines} lines not understood (skipped)");
    let first = bad
        .take(3)
        .map(|(n, t)| format!("  line {n}: {}", escape(t)));
    std::iter::once(head).chain(first).collect()
}

/// What a command made of one input.
pub(super) struct Step<T> {
    pub(super) value: Option<T>,
    /// The input gave output.
    pub(super) produced: bool,
    /// The command left it out (a performance log given to `gc`, charts not drawn).
    pub(super) left_out: bool,
    /// Lines for stderr, after the input's own.
    pub(super) notes: Vec<String>,
    /// An option given made this input's analysis impossible (`Tally::usage`).
    pub(super) usage: bool,
}

impl<T> Step<T> {
    pub(super) fn output(v: T) -> Self {
        Step {
            value: Some(v),
            produced: true,
            ..Step::none()
        }
    }
    /// Nothing from this input (its load error is already counted and reported).
    pub(super) fn none() -> Self {
        Step {
            value: None,
            produced: false,
            left_out: false,
            notes: Vec::new(),
            usage: false,
        }
    }
    /// `self`, with `first` said before its own notes.
    pub(super) fn said_first(mut self, mut first: Vec<String>) -> Self {
        first.append(&mut self.notes);
        self.notes = first;
        self
    }
    /// Left out by the command, saying why (if anything).
    pub(super) fn left_out(note: Option<String>) -> Self {
        Step {
            left_out: true,
            notes: note.into_iter().collect(),
            ..Step::none()
        }
    }
}

/// The stderr lines of a loaded input: parts left out of a joined log, the error, damage,
/// lines not understood (unless `quiet`).
pub(super) fn input_notes(r: &Result<Input, Error>, parts: &[Error], quiet: bool) -> Vec<String> {
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
            if !quiet {
                out.extend(crate::report::summary::said_notes(l));
            }
            if !quiet && l.skipped_lines() > 0 {
                let bad = l.bad().iter().map(|b| (b.line, b.text.as_str()));
                out.extend(skipped_note(l.label(), l.skipped_lines(), l.lines(), bad));
            }
        }
    }
    out
}

/// The inputs of one group (a file that changes family mid-way is several), each with its
/// stderr lines and its counts; the parts left out of a joined log go with the first.
pub(super) fn load_noted(
    g: &[PathBuf],
    quiet: bool,
) -> Vec<(Result<Input, Error>, Vec<String>, Tally)> {
    let (r, parts) = crate::report::batch::load_group(g);
    let each: Vec<Result<Input, Error>> =
        r.map_or_else(|e| vec![Err(e)], |v| v.into_iter().map(Ok).collect());
    each.into_iter()
        .enumerate()
        .map(|(k, r)| {
            let joined: &[Error] = if k == 0 { &parts } else { &[] };
            let lines = input_notes(&r, joined, quiet);
            let t = Tally {
                produced: 0,
                left_out: joined.len() + r.as_ref().map_or(1, |l| l.warnings().len()),
                skipped_lines: r.as_ref().map_or(0, |l| l.skipped_lines()),
                gc_read: usize::from(matches!(r, Ok(Input::Gc(_)))),
                perf_read: usize::from(matches!(r, Ok(Input::Perf(_)))),
                usage: 0,
            };
            (r, lines, t)
        })
        .collect()
}

/// A command's work on input `i` (its first path, and the input or why it could not be read).
pub(super) type Work<'a, T> = dyn Fn(usize, &Path, Result<Input, Error>) -> Step<T> + Sync + 'a;

/// Load every input, at most one per core in flight, give it to `work` and drop it. Results
/// reach `emit`, and every input's stderr lines reach stderr, in argument order, each as soon
/// as the inputs before it are done. A bad input is reported and the batch goes on.
pub(super) fn each_input<T: Send>(
    inputs: &Inputs,
    quiet: bool,
    work: &Work<'_, T>,
    emit: &mut (dyn FnMut(usize, T) + Send),
) -> Tally {
    let mut tally = Tally {
        left_out: inputs.skipped.len(),
        ..Tally::default()
    };
    notes(&inputs.skipped);
    let groups = &inputs.groups;
    let bar = progress(groups.len(), quiet);
    crate::report::batch::ordered(
        groups.len(),
        rayon::current_num_threads(),
        &|i| {
            let g = &groups[i];
            let (mut values, mut lines, mut t) = (Vec::new(), Vec::new(), Tally::default());
            // A file that changes family mid-way is several inputs, each worked on in turn.
            for (r, notes, counts) in load_noted(g, quiet) {
                lines.extend(notes);
                t.add(counts);
                let step = work(i, &g[0], r);
                t.produced += usize::from(step.produced);
                t.left_out += usize::from(step.left_out);
                t.usage += usize::from(step.usage);
                lines.extend(step.notes);
                values.extend(step.value);
            }
            (values, lines, t)
        },
        &mut |i, (values, lines, t)| {
            // The bar is taken off while the lines are printed, then drawn again under them.
            bar.suspend(|| lines.iter().for_each(|l| note(l)));
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

/// A command's step for a log of the kind it does not read: noted on stderr and left out.
pub(super) fn wrong_kind<T>(i: &Input) -> Step<T> {
    let (what, command) = match i {
        Input::Gc(_) => ("a GC log", "gc"),
        Input::Perf(_) => ("a performance log", "perf"),
    };
    Step::left_out(Some(format!(
        "gcperf: {}: {what}; see `gcperf {command}` (left out here)",
        i.label()
    )))
}

/// An analysis that failed for one input: named on stderr, the batch goes on. Failed for an
/// `--interval` too short for the log's span, it is a usage error (`Step::usage`).
pub(super) fn failed<T>(i: &Input, e: impl std::fmt::Display) -> Step<T> {
    let e = e.to_string();
    Step {
        usage: crate::analyze::perf::too_many_intervals(&e),
        ..Step::left_out(Some(format!("gcperf: {}: analysis failed: {e}", i.label())))
    }
}
