//! One input file, read, detected, parsed and framed: what every command starts from.

use crate::columns;
use crate::error::{Error, Result};
use crate::frame;
use crate::input::{self, Detected, ReadNotes, MAX_PARTS};
use crate::model::{BadLine, GcLog, PerfLog, Strings, BAD_LINES_KEPT};
use crate::parse;
use crate::parse::family::{GcFormat, PerfFormat};
use crate::parse::zone::{gc_zone, Zone};
use polars::prelude::{DataFrame, PolarsResult};
use std::path::{Path, PathBuf};

pub struct Loaded {
    pub path: PathBuf,
    /// How reports name the input: the path, or for a joined set its first part and a count.
    pub label: String,
    pub format: GcFormat,
    /// Line counts, skipped lines, run metadata; the events themselves are in `frame` only
    /// (`log.events` is empty), so a large log is held once.
    pub log: GcLog,
    pub frame: frame::GcFrame,
    /// What went wrong while reading that lines do not show (damaged gzip: where it stopped).
    pub warnings: Vec<String>,
    /// 0 for a whole file; 1, 2, ... for the parts of a file that changes family mid-way.
    pub part: u32,
    /// The zone of its wall-clock stamps, read from the head of what was read (standard
    /// input too, which cannot be read again), for `correlate` and `export`'s instants.
    pub zone: Zone,
}

impl Loaded {
    pub fn kind(&self) -> &'static str {
        "gc"
    }
}

/// A performance log (semicolon perf log, JMeter JTL, Grinder data log), parsed and framed.
pub struct LoadedPerf {
    pub path: PathBuf,
    pub label: String,
    pub format: PerfFormat,
    /// Line counts, skipped lines and the operation names; the records themselves are in
    /// `frame` only (`log.records` is empty), so a large log is held once.
    pub log: PerfLog,
    pub frame: frame::PerfFrame,
    /// As `Loaded::warnings`.
    pub warnings: Vec<String>,
    /// As `Loaded::part`.
    pub part: u32,
}

impl LoadedPerf {
    /// Its stamps are UTC instants (its family's, unless this log's are local wall time).
    pub fn utc(&self) -> bool {
        self.format.utc() && !self.log.local_stamps
    }
}

/// Any input gcperf understands.
pub enum Input {
    Gc(Loaded),
    Perf(LoadedPerf),
}

/// `$e` of the loaded log, whichever kind it is (the two share these fields), as `$l`.
macro_rules! either {
    ($i:expr, $l:ident => $e:expr) => {
        match $i {
            Input::Gc($l) => $e,
            Input::Perf($l) => $e,
        }
    };
}

impl Input {
    /// 0 for a whole file; 1, 2, ... for the parts of a file that changes family mid-way.
    pub fn part(&self) -> u32 {
        either!(self, l => l.part)
    }
    pub fn label(&self) -> &str {
        either!(self, l => &l.label)
    }
    /// The file read (the first part of a joined set).
    pub fn path(&self) -> &Path {
        either!(self, l => &l.path)
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Input::Gc(_) => "gc",
            Input::Perf(_) => "perf",
        }
    }
    pub fn format(&self) -> &'static str {
        either!(self, l => l.format.as_str())
    }
    pub fn lines(&self) -> u64 {
        either!(self, l => l.log.lines)
    }
    pub fn skipped_lines(&self) -> u64 {
        either!(self, l => l.log.skipped_lines)
    }
    pub fn bad(&self) -> &[crate::model::BadLine] {
        either!(self, l => &l.log.bad)
    }
    pub fn warnings(&self) -> &[String] {
        either!(self, l => &l.warnings)
    }
    fn warn(&mut self, note: String) {
        either!(self, l => l.warnings.push(note))
    }
    pub fn gc(&self) -> Option<&Loaded> {
        match self {
            Input::Gc(l) => Some(l),
            Input::Perf(_) => None,
        }
    }
    pub fn perf(&self) -> Option<&LoadedPerf> {
        match self {
            Input::Perf(l) => Some(l),
            Input::Gc(_) => None,
        }
    }
}

/// How much of a file is looked at before deciding whether it can be streamed.
const PROBE: usize = 1 << 20;
/// How much of a file may be read to find a log family in it: a file with none in its
/// first `DETECT_HEAD` bytes, and `DETECT_LINES` lines, is not read further.
const DETECT_HEAD: usize = 8 << 20;
const DETECT_LINES: usize = 1000;
/// What `--stdin-name` calls the input read from `-` (None: `-`).
static STDIN_NAME: std::sync::RwLock<Option<String>> = std::sync::RwLock::new(None);

/// Name the input read from standard input in every output (`--stdin-name`).
pub fn set_stdin_name(name: Option<String>) {
    if let Ok(mut n) = STDIN_NAME.write() {
        *n = name;
    }
}

/// How outputs name an input: its path, control characters escaped; standard input by
/// `--stdin-name` where given.
pub fn name_of(path: &Path) -> String {
    if input::is_stdin(path) {
        if let Some(n) = STDIN_NAME.read().ok().and_then(|n| n.clone()) {
            return crate::error::escape(&n).into_owned();
        }
    }
    crate::error::escape_path(path)
}

/// Read, detect and parse one input holding one log (a file, `-` for standard input, or a
/// zip member `archive.zip:member`); see `load_file` for files that change family mid-way:
/// here such a file is an error.
pub fn load_any(path: &Path) -> Result<Input> {
    let mut v = load_file(path)?;
    if v.len() == 1 {
        Ok(v.remove(0))
    } else {
        Err(Error::Usage(format!(
            "{}: holds {} logs of different families",
            name_of(path),
            v.len()
        )))
    }
}

/// Read, detect and parse one file of any kind: one input, or one per part when the file
/// changes log family mid-way (a HotSpot log with a JRockit log appended...), each part
/// labelled with its lines.
pub fn load_file(path: &Path) -> Result<Vec<Input>> {
    let io = Error::io(path);
    let mut r = input::open(path)?;
    let mut buf = Vec::new();
    let mut end = r.append(&mut buf, PROBE).map_err(io)?;
    let mut detected = input::detect(&buf);
    // Nothing of any family in the probe: read on until `DETECT_HEAD` bytes and
    // `DETECT_LINES` lines are in, then give up (so that a 1 GB access log, or random bytes,
    // is not read whole to be refused; a log after a 50 MB line is still found).
    let short = |b: &[u8]| {
        b.len() < DETECT_HEAD || memchr::memchr_iter(b'\n', b).nth(DETECT_LINES).is_none()
    };
    while detected.is_none() && !end && short(&buf) {
        let want = buf.len() * 2;
        end = r.append(&mut buf, want).map_err(io)?;
        detected = input::detect(&buf);
    }
    let Some(own) = detected else {
        return Err(refusal(path, &buf).unwrap_or_else(|| {
            let notes = r.into_notes();
            match end {
                // The whole content: nothing of any family in it (a line over the cap named,
                // if that is what there was: a gzip of zeros is one such line).
                true => cut_before_records(path, nothing_in_content(path, &buf, &notes), &notes),
                false => Error::NothingInHead {
                    path: path.to_path_buf(),
                    mib: buf.len() >> 20,
                },
            }
        }));
    };
    // The content, where it is all in: its parts are found in it, not read again (standard
    // input cannot be).
    let content = end.then(|| buf.clone());
    // The rest is read in blocks (GC and performance logs reach gigabytes); a file read
    // whole is one block.
    let loaded = load_stream(path, buf, &mut r, own, 0);
    let notes = r.into_notes();
    let mut input = loaded.map_err(|e| cut_before_records(path, e, &notes))?;
    account(&mut input, &notes);
    if let Some(d) = &notes.damage {
        input.warn(d.clone());
    }
    let again = (content.as_deref()).map_or(Again::File, |c| Again::Content(c, &notes));
    in_parts(path, own, input, again)
}

/// Where a file's parts are read from: the file read again, or its content, all in memory,
/// with what reading it noted.
#[derive(Clone, Copy)]
enum Again<'a> {
    File,
    Content(&'a [u8], &'a ReadNotes),
}

/// `e`, or where it is that no record was found and the content was damaged, that the
/// damage came before any record.
fn cut_before_records(path: &Path, e: Error, notes: &ReadNotes) -> Error {
    match (e, &notes.damage) {
        (Error::NothingRecognised { .. } | Error::AllSkipped { .. }, Some(damage)) => {
            Error::CutBeforeRecords {
                path: path.to_path_buf(),
                damage: damage.clone(),
            }
        }
        (e, _) => e,
    }
}

/// Content of no family: what it held, its lines over the cap named.
fn nothing_in_content(path: &Path, buf: &[u8], notes: &ReadNotes) -> Error {
    let long: Vec<BadLine> = (notes.long_lines.iter())
        .map(|&(line, bytes)| BadLine {
            line,
            text: ReadNotes::long_line_text(bytes),
        })
        .collect();
    Error::nothing_in(path, notes.long_count, parse::lines::count(buf), &long)
}

/// Why a file in which no family found a record is refused, where it is something known:
/// a J9 XML log without line breaks, a load tool's statistics, or a web-server log that needs
/// `--log-format`.
fn refusal(path: &Path, head: &[u8]) -> Option<Error> {
    if crate::parse::j9_xml::on_one_line(head) {
        return Some(Error::Unsupported {
            path: path.to_path_buf(),
            what: "an IBM J9 or OpenJ9 verbose GC log (XML) written without line breaks",
            hint: "give it as the JVM writes it, an element to a line (`xmllint --format FILE`)",
        });
    }
    if let Some((what, hint)) = input::not_per_request(head) {
        return Some(Error::Unsupported {
            path: path.to_path_buf(),
            what,
            hint,
        });
    }
    crate::parse::log_format::common_log_refusal(head).map(|what| Error::NeedsLogFormat {
        path: path.to_path_buf(),
        what,
    })
}

/// A log as it was read, unless the lines it skipped hold a log of another family (three of
/// those kept, or counted by the joiners): then it is read in parts, each by its own parser
/// (`streamed_parts`; read as one, a HotSpot log with a performance log appended loses every
/// request). Standard input over a probe's worth, read once and not held, keeps its reading
/// and says what was not read.
fn in_parts(path: &Path, own: Detected, mut streamed: Input, again: Again) -> Result<Vec<Input>> {
    let (bad, counted) = either!(&streamed, l => (&l.log.bad, l.log.other_family_lines));
    let mut classifier = input::Classifier::default();
    let other: Vec<u64> = (bad.iter())
        .filter(|b| classifier.line(b.text.as_bytes()).is_some_and(|d| d != own))
        .map(|b| b.line)
        .collect();
    // The log's first skipped lines, or those kept block by block where its first are its own
    // damage (a HotSpot log with a few bad lines, then a JRockit log appended).
    if other.len() < 3 && counted < 3 {
        return Ok(vec![streamed]);
    }
    if input::is_stdin(path) && matches!(again, Again::File) {
        let from = (other.first()).map_or(String::new(), |line| format!(" from line {line}"));
        streamed.warn(format!(
            "lines of another log family{from}: not read (standard input is read once; give it \
             as a file to read them)"
        ));
        return Ok(vec![streamed]);
    }
    streamed_parts(path, streamed, FIND_PARTS_BLOCK, again)
}

/// How much `find_parts` reads at a time: batches of lines enough to share among the cores.
const FIND_PARTS_BLOCK: usize = 4 << 20;

/// A log read as one whose lines hold another family's log: read once more to find its
/// parts (`find_parts`; found in the content where it is all in memory), and once more, each
/// part streamed by its own family's loader (`read_parts`), never held whole (read whole and
/// cut, a 250 MB file takes 3.9 s and 565 MB; this way 2.7 s and 222-240 MB). The log read as
/// one (`whole`) stands where the parts are one, where one of them gives nothing, and where
/// the file cannot be read again (said).
fn streamed_parts(path: &Path, mut whole: Input, block: usize, again: Again) -> Result<Vec<Input>> {
    let found = match again {
        Again::File => find_parts(path, block),
        Again::Content(c, _) => Ok((input::parts(c), parse::lines::count(c))),
    };
    let read = found.and_then(|(parts, lines)| read_parts(path, parts, lines, again));
    if let Err(e) = &read {
        whole.warn(format!(
            "lines of another log family in it are not read: reading it again to find them \
             failed ({e})"
        ));
    }
    Ok(read.ok().flatten().unwrap_or_else(|| vec![whole]))
}

/// A file's parts (`input::PartFinder`, read in blocks of about `block` bytes) and its
/// lines.
fn find_parts(path: &Path, block: usize) -> Result<(Vec<input::Part>, u64)> {
    let mut r = input::open(path)?;
    let mut feed = Feed::new(&mut r, Vec::new());
    let mut finder = input::PartFinder::default();
    let (mut b, mut at, mut lines) = (Vec::new(), 0, 0);
    while !feed.end {
        b.clear();
        feed.next_block(&mut b, block, &last_line_end)
            .map_err(Error::io(path))?;
        finder.lines(&b, lines, at);
        lines += parse::lines::count(&b);
        at += b.len();
    }
    Ok((finder.finish(), lines))
}

/// Each of a file's parts (of its `lines`) streamed by its family's loader, its lines made
/// the file's; None where there are not two, or where one gives nothing.
fn read_parts(
    path: &Path,
    mut parts: Vec<input::Part>,
    lines: u64,
    again: Again,
) -> Result<Option<Vec<Input>>> {
    if parts.len() < 2 {
        return Ok(None);
    }
    let mixed = mixed_parts(&mut parts);
    let io = Error::io(path);
    let mut r = match again {
        Again::File => input::open(path)?,
        Again::Content(c, _) => input::Reader::of_content(c.to_vec()),
    };
    let mut out: Vec<(Input, u64, u64)> = Vec::with_capacity(parts.len());
    for (k, p) in parts.iter().enumerate() {
        let next = parts.get(k + 1);
        r.set_part(next.map(|n| (n.start - p.start) as u64));
        let last_line = next.map_or(lines, |n| n.line - 1);
        let mut head = Vec::new();
        r.append(&mut head, PROBE).map_err(io)?;
        let mut part = match load_stream(path, head, &mut r, p.family, p.line - 1) {
            Ok(part) => part,
            Err(e @ Error::Io { .. }) => return Err(e),
            // A part its own parser finds nothing in: the file as one log after all.
            Err(_) => return Ok(None),
        };
        either!(&mut part, l => {
            l.label = format!("{} (lines {}-{last_line}, {})", name_of(path), p.line, l.format);
            l.part = k as u32 + 1;
        });
        out.push((part, p.line, last_line));
    }
    let notes = match again {
        Again::File => r.into_notes(),
        // Read again from the content, the over-long lines are empty ones: what the first
        // reading noted stands.
        Again::Content(_, notes) => notes.clone(),
    };
    let mut read: Vec<Input> = (out.into_iter())
        .map(|(mut part, first, last_line)| {
            account(&mut part, &notes.lines_within(first, last_line));
            part
        })
        .collect();
    if let Some(last) = read.last_mut() {
        for note in notes.damage.iter().chain(&mixed) {
            last.warn(note.clone());
        }
    }
    Ok(Some(read))
}

/// Past `MAX_PARTS` the families' lines are mixed, not logs one after another: the parts
/// cut to that many, the last running to the end, the other families' lines in it skipped
/// (a part's frame and figures are ~10 KB: 64,000 parts of three lines are 608 MB for a 13 MB
/// file); and the note that says so.
fn mixed_parts(parts: &mut Vec<input::Part>) -> Option<String> {
    (parts.len() > MAX_PARTS).then(|| {
        parts.truncate(MAX_PARTS);
        let last = parts.last().map_or(1, |p| p.line);
        format!(
            "more than {MAX_PARTS} parts of different log families: from line {last} on, \
             lines of other families than this part's are not read (split the file to read \
             them)"
        )
    })
}

/// Lines the reader dropped for being longer than `input::MAX_LINE` reach the parser as
/// empty lines (counted as ignored, or inside a record): count them as skipped instead, each
/// with a bad-line entry saying how long it was.
fn account_long_lines(
    notes: &ReadNotes,
    record: &mut u64,
    ignored: &mut u64,
    skipped: &mut u64,
    bad: &mut Vec<BadLine>,
) {
    let n = notes.long_count;
    if n == 0 {
        return;
    }
    let from_ignored = n.min(*ignored);
    *ignored -= from_ignored;
    *record -= (n - from_ignored).min(*record);
    *skipped += n;
    for &(line, bytes) in &notes.long_lines {
        let at = bad.partition_point(|b| b.line < line);
        bad.insert(
            at,
            BadLine {
                line,
                text: ReadNotes::long_line_text(bytes),
            },
        );
    }
    bad.truncate(BAD_LINES_KEPT);
}

/// `account_long_lines` for an input of either kind.
fn account(i: &mut Input, notes: &ReadNotes) {
    either!(i, l => account_long_lines(
        notes,
        &mut l.log.record_lines,
        &mut l.log.ignored_lines,
        &mut l.log.skipped_lines,
        &mut l.log.bad,
    ))
}

/// How many requests have no time (stamped outside `model::PERF_CLOCK_MS`), the first's
/// line; None where every request has one.
fn unstamped(f: &frame::PerfFrame) -> Option<String> {
    let end = f.df.column(frame::perf::END_MS).ok()?;
    let n = end.null_count();
    if n == 0 {
        return None;
    }
    let line = f.df.column(frame::perf::LINE).ok()?.u32().ok()?;
    let first = (line.iter().zip(end.i64().ok()?.iter()))
        .filter_map(|(l, e)| if e.is_none() { l } else { None })
        .min()?;
    Some(format!(
        "{n} request{} stamped before 1990 or after 2099, the first at line {first}: counted, with no place on \
         the clock (not in the span, the throughput, the series over time, a window or a \
         correlation); JMeter before 5.5 stamps a request that failed with an exception \
         1970-01-01",
        if n == 1 { "" } else { "s" }
    ))
}

/// Blocks in flight per worker: read and not yet joined.
const AHEAD: usize = 3;

/// The input of `read_and_parse`, read one block at a time by one worker at a time (so the
/// blocks are numbered in file order).
struct Feed<'r> {
    r: &'r mut input::Reader,
    /// The bytes after the last block's cut: the next block's first.
    carry: Vec<u8>,
    /// Blocks read so far: the next one's number.
    read: usize,
    /// The input is read to its end.
    end: bool,
    error: Option<std::io::Error>,
    /// Buffers the joining is done with.
    free: Vec<Vec<u8>>,
}

impl<'r> Feed<'r> {
    /// A feed that reads `head`, then the rest of `r`.
    fn new(r: &'r mut input::Reader, head: Vec<u8>) -> Self {
        Feed {
            r,
            carry: head,
            read: 0,
            end: false,
            error: None,
            free: Vec::new(),
        }
    }

    /// The next block into `b`: the carried bytes, then about `size` bytes, ended where `cut`
    /// says (a block that holds no cut reads on until it does; the reader caps lines at
    /// `input::MAX_LINE`); the last block ends where the input does.
    fn next_block(
        &mut self,
        b: &mut Vec<u8>,
        size: usize,
        cut: &(dyn Fn(&[u8]) -> Option<usize> + Sync),
    ) -> std::io::Result<()> {
        b.append(&mut self.carry);
        let mut want = size;
        loop {
            self.end = self.r.append(b, want)?;
            if self.end {
                return Ok(());
            }
            if let Some(i) = cut(b) {
                self.carry.extend_from_slice(&b[i..]);
                b.truncate(i);
                return Ok(());
            }
            want = b.len() + size;
        }
    }
}

/// How the threads of `read_and_parse` keep in step, and the tasks the joining hands
/// its workers (`columns::Frozen`'s freezes, through `Crew::hand`). A worker runs the tasks
/// handed to it before it reads a block: handed to the thread pool instead, each block's
/// task wakes a pool thread that then spins before sleeping again (13,000 `sched_yield` calls
/// on a 210 MB unified log; its two-core run takes 0.81 s of CPU that way, 0.78 s this way,
/// 0.71 s on one core). Tasks handed when no worker is left go to the pool.
#[derive(Default)]
struct Crew {
    state: std::sync::Mutex<CrewState>,
    /// A task handed over, room to read ahead, the end: what a waiting worker waits for.
    wake: std::sync::Condvar,
}

#[derive(Default)]
struct CrewState {
    /// Blocks a worker is reading or has read, and blocks joined.
    read: usize,
    taken: usize,
    /// Workers still running: while none is, tasks go to the pool.
    working: usize,
    /// The input is read to its end, or reading stopped (a read failed, a thread panicked).
    end: bool,
    stop: bool,
    tasks: std::collections::VecDeque<columns::Task>,
}

impl Crew {
    fn state(&self) -> std::sync::MutexGuard<'_, CrewState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `columns::Frozen`'s way to hand tasks here.
    fn handing(self: &std::sync::Arc<Self>) -> columns::Hand {
        std::sync::Arc::clone(self) as columns::Hand
    }
}

impl columns::Hands for Crew {
    /// To a worker; returned where none is left to run it.
    fn hand(&self, task: columns::Task) -> Option<columns::Task> {
        let mut s = self.state();
        if s.working == 0 {
            return Some(task);
        }
        s.tasks.push_back(task);
        self.wake.notify_one();
        None
    }

    fn run_one(&self) -> bool {
        let task = self.state().tasks.pop_front();
        task.map(|t| t()).is_some()
    }
}

/// Marks a worker of `read_and_parse` gone when it ends: it no longer runs tasks (the last
/// one leaves what is handed to the pool); one that unwinds stops the others.
struct Leaving<'a> {
    crew: &'a Crew,
}

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        let mut s = self.crew.state();
        if std::thread::panicking() {
            s.stop = true;
        }
        s.working -= 1;
        if s.working == 0 {
            std::mem::take(&mut s.tasks)
                .into_iter()
                .for_each(rayon::spawn);
        }
        self.crew.wake.notify_all();
    }
}

/// The blocks of `read_and_parse` parsed and not yet taken, by number, and how many were
/// taken.
struct Order<T> {
    early: std::collections::BTreeMap<usize, (Vec<u8>, T)>,
    taken: usize,
}

/// What a worker does next.
enum Next {
    Task(columns::Task),
    Read,
    Leave,
}

/// A stream in blocks of about `size` bytes ended where `cut` says, each read and parsed
/// (`parse`, given its number) by one of `workers` threads, and taken in file order by
/// `consume`, which returns the buffers it is done with (read into again). A worker reads its
/// own block (one reads at a time, so the blocks come in order): the bytes it parses are in
/// its core's cache. (Read on a thread of their own and parsed on another core, a 2 M-request
/// semicolon log's blocks take 15-20 % more CPU on two cores than on one.) The worker that
/// parsed the next block in order takes it, and the blocks after it that are waiting (see
/// `Order`), so the rows it appends are its core's too and no third thread is woken per
/// block. At most `AHEAD` blocks a worker are in flight, so memory holds the frame plus a
/// few blocks, never the whole file. Between blocks the workers run the tasks handed to
/// `crew`.
#[allow(clippy::too_many_arguments)]
fn read_and_parse<T: Send>(
    head: Vec<u8>,
    r: &mut input::Reader,
    path: &Path,
    crew: &Crew,
    workers: usize,
    size: usize,
    cut: &(dyn Fn(&[u8]) -> Option<usize> + Sync),
    parse: &(dyn Fn(usize, &[u8]) -> T + Sync),
    mut consume: impl FnMut(Vec<u8>, T) -> Vec<Vec<u8>> + Send,
) -> Result<()> {
    use std::sync::{Mutex, PoisonError};
    let workers = workers.max(1);
    let mut first = Feed::new(r, head);
    let mut b = Vec::new();
    first
        .next_block(&mut b, size, cut)
        .map_err(Error::io(path))?;
    if first.end {
        // One block (a small file, read whole): parsed on this thread, none started (a
        // folder of 2,000 logs of 8 KB takes 1.25 s with threads started for each, 0.65 s
        // without).
        let t = parse(0, &b);
        consume(b, t);
        return Ok(());
    }
    // The first block is read again by the first worker.
    b.append(&mut first.carry);
    first.carry = b;
    let feed = Mutex::new(first);
    crew.state().working = workers;
    let order = Mutex::new(Order::<T> {
        early: std::collections::BTreeMap::new(),
        taken: 0,
    });
    let consume = Mutex::new(&mut consume);
    // Take the blocks waiting in `order` from the next one in turn on, while this thread
    // holds `consume`; false where another holds it (it takes them) or one failed.
    let take_waiting = || -> bool {
        let mut c = match consume.try_lock() {
            Ok(c) => c,
            Err(_) => return false,
        };
        loop {
            let next = {
                let mut o = order.lock().unwrap_or_else(PoisonError::into_inner);
                let taken = o.taken;
                o.early.remove(&taken)
            };
            let Some((b, t)) = next else { return true };
            let freed = (*c)(b, t);
            let taken = {
                let mut o = order.lock().unwrap_or_else(PoisonError::into_inner);
                o.taken += 1;
                o.taken
            };
            feed.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .free
                .extend(freed.into_iter().map(|mut b| {
                    b.clear();
                    b
                }));
            crew.state().taken = taken;
            crew.wake.notify_all();
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let feed = &feed;
            let order = &order;
            let take_waiting = &take_waiting;
            scope.spawn(move || {
                let _leaving = Leaving { crew };
                loop {
                    let next = {
                        let mut s = crew.state();
                        loop {
                            if let Some(t) = s.tasks.pop_front() {
                                break Next::Task(t);
                            }
                            if s.end || s.stop {
                                break Next::Leave;
                            }
                            if s.read - s.taken < AHEAD * workers {
                                s.read += 1;
                                break Next::Read;
                            }
                            s = crew.wake.wait(s).unwrap_or_else(PoisonError::into_inner);
                        }
                    };
                    match next {
                        Next::Task(t) => {
                            t();
                            continue;
                        }
                        Next::Leave => return,
                        Next::Read => {}
                    }
                    let (n, b) = {
                        let Ok(mut f) = feed.lock() else { return };
                        if f.end {
                            // Another worker read the last block since.
                            let mut s = crew.state();
                            s.read -= 1;
                            s.end = true;
                            continue;
                        }
                        let mut b = f.free.pop().unwrap_or_default();
                        let read = f.next_block(&mut b, size, cut);
                        if let Err(e) = read {
                            f.error = Some(e);
                            let mut s = crew.state();
                            s.read -= 1;
                            s.stop = true;
                            crew.wake.notify_all();
                            return;
                        }
                        if f.end {
                            crew.state().end = true;
                            crew.wake.notify_all();
                        }
                        f.read += 1;
                        (f.read - 1, b)
                    };
                    let t = parse(n, &b);
                    order
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .early
                        .insert(n, (b, t));
                    // A thread that held `consume` looks for blocks again after letting it
                    // go, so a block put in while it held it is never left waiting.
                    while take_waiting() {
                        let o = order.lock().unwrap_or_else(PoisonError::into_inner);
                        if !o.early.contains_key(&o.taken) {
                            break;
                        }
                    }
                }
            });
        }
    });
    let taken = order
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .taken;
    let f = feed.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(source) = f.error {
        return Err(Error::Io {
            path: path.to_path_buf(),
            source,
        });
    }
    // A worker that panicked has unwound the scope above; one that stopped otherwise left its
    // block untaken.
    assert_eq!(taken, f.read, "a parsing thread stopped");
    Ok(())
}

/// The first bytes of a streamed performance log searched for its header row.
const HEADER_HEAD: usize = 64 << 10;

/// A block of a performance log parsed, its records as columns.
fn perf_block(
    format: PerfFormat,
    header: Option<&[u8]>,
    b: &[u8],
    last: bool,
) -> (parse::family::PerfBlock, columns::PerfColumns) {
    let mut block = parse::perf::parse_block(format, header, b, last);
    let cols = columns::PerfColumns::of(&block.log.records);
    block.log.records = Vec::new();
    (block, cols)
}

/// How a block's or a part's rows become the log's: its strings interned among the log's
/// (`strings`), its lines numbered on after the log's `lines`.
fn join_onto(strings: &mut Strings, own: &Strings, lines: u64) -> columns::Join {
    columns::Join {
        ids: own.list().iter().map(|s| strings.intern(s)).collect(),
        line_offset: lines,
        invented_offset: 0,
    }
}

/// A performance log's block frames appended as they come back (`columns::Appended`), the
/// records and bytes handed over so far, and the first failure.
#[derive(Default)]
struct Stacked {
    cols: columns::Appended,
    rows: usize,
    bytes: u64,
    taken: usize,
    failed: Option<polars::prelude::PolarsError>,
}

impl Stacked {
    fn push(&mut self, f: PolarsResult<DataFrame>) {
        self.taken += 1;
        if self.failed.is_none() {
            let pushed = f.and_then(|f| self.cols.push(f.into_columns(), self.rows, self.bytes));
            self.failed = pushed.err();
        }
    }
}

/// Stream the rest of a log (after `head`) by its family's loader, its lines numbered on after
/// the file's first `by` (those before a part).
fn load_stream(
    path: &Path,
    head: Vec<u8>,
    r: &mut input::Reader,
    family: Detected,
    by: u64,
) -> Result<Input> {
    match family {
        Detected::Gc(f) => load_gc_stream(path, head, r, f, by).map(Input::Gc),
        Detected::Perf(f) => load_perf_stream(path, head, r, f, by).map(Input::Perf),
    }
}

/// Stream a performance log in blocks cut at line ends (`read_and_parse`), each parsed with
/// the header row the blocks before it left (the head's, until one is joined); each block's
/// records are frozen into columns on the thread pool, in file order (line numbers and
/// operation ids made global), and appended to the log's as they come back. A block read with
/// another header than the blocks before it left, or after a block that left a record open
/// (a quoted field over a cut), is read again as it is joined, with what they left.
fn load_perf_stream(
    path: &Path,
    head: Vec<u8>,
    r: &mut input::Reader,
    format: PerfFormat,
    by: u64,
) -> Result<LoadedPerf> {
    let mut log = PerfLog::default();
    // Each block's records frozen on the pool as the joining says how they become
    // the log's (string ids, lines), and appended in order as they come back.
    let crew = std::sync::Arc::new(Crew::default());
    let mut blocks: columns::Frozen<PolarsResult<DataFrame>> = columns::Frozen::default();
    blocks.hand_to(crew.handing());
    let mut stacked = Stacked {
        cols: columns::Appended::expecting(r.content_len()),
        ..Stacked::default()
    };
    stacked.cols.hand_to(crew.handing());
    let polars = Error::polars(path);
    // Blocks are read with the header the last block joined left; the first with none (as
    // it is joined), the others read before one was joined with the last header in the
    // head's first lines (a log's header is its first row, so the first block joined leaves
    // it or a later one, never none).
    let start = &head[..last_line_end(&head[..head.len().min(HEADER_HEAD)]).unwrap_or(0)];
    let guess = parse::perf::parse_block(format, None, start, false).header;
    // What the blocks joined leave the next: the header in effect, and the bytes of a record
    // left open.
    let (mut header, mut tail) = (None::<Vec<u8>>, Vec::new());
    let mut classifier = input::Classifier::default();
    // A parsed block (of `bytes` bytes) made the log's: its strings, lines, counts and rows.
    let mut append = |block: PerfLog, cols: columns::PerfColumns, bytes: usize| {
        stacked.rows += cols.len();
        stacked.bytes += bytes as u64;
        let join = join_onto(&mut log.strings, &block.strings, log.lines);
        blocks.spawn(move || cols.freeze(&join));
        blocks.ready(|f| stacked.push(f));
        for b in block.bad {
            // (`family::Foreign`, the GC joiner's test, cannot tell HotSpot lines.)
            if classifier
                .line(b.text.as_bytes())
                .is_some_and(|d| d != Detected::Perf(format))
            {
                log.other_family_lines += 1;
            }
            if log.bad.len() < BAD_LINES_KEPT {
                log.bad.push(BadLine {
                    line: b.line + log.lines,
                    text: b.text,
                });
            }
        }
        log.lines += block.lines;
        log.skipped_lines += block.skipped_lines;
        log.record_lines += block.record_lines;
        log.ignored_lines += block.ignored_lines;
        log.local_stamps |= block.local_stamps;
        log.stamps.add(block.stamps);
    };
    let last_header = std::sync::Mutex::new(None::<Vec<u8>>);
    let parse = |n: usize, b: &[u8]| {
        let h = match n {
            0 => None,
            _ => (last_header.lock().ok().and_then(|h| h.clone())).or_else(|| guess.clone()),
        };
        let (block, cols) = perf_block(format, h.as_deref(), b, false);
        (block, cols, h)
    };
    read_and_parse(
        head,
        r,
        path,
        &crew,
        rayon::current_num_threads(),
        parse::BLOCK,
        &last_line_end,
        &parse,
        |b, (block, cols, h)| {
            let (b, block, cols) = if tail.is_empty() && header == h {
                (b, block, cols)
            } else {
                let mut whole = std::mem::take(&mut tail);
                whole.extend_from_slice(&b);
                let (block, cols) = perf_block(format, header.as_deref(), &whole, false);
                (whole, block, cols)
            };
            tail = b[b.len() - block.unread..].to_vec();
            if header != block.header {
                if let Ok(mut h) = last_header.lock() {
                    h.clone_from(&block.header);
                }
                header = block.header;
            }
            append(block.log, cols, b.len());
            vec![b]
        },
    )?;
    if !tail.is_empty() {
        let (block, cols) = perf_block(format, header.as_deref(), &tail, true);
        append(block.log, cols, tail.len());
    }
    let handed = blocks.len();
    blocks.collect().into_iter().for_each(|f| stacked.push(f));
    if stacked.taken != handed {
        return Err(polars(polars::prelude::polars_err!(
            ComputeError: "a block's rows were lost"
        )));
    }
    if let Some(e) = stacked.failed {
        return Err(polars(e));
    }
    let cols = stacked.cols.into_columns().map_err(polars)?;
    let height = cols.first().map_or(0, polars::prelude::Column::len);
    if height == 0 {
        return Err(Error::NothingRecognised {
            path: path.to_path_buf(),
        });
    }
    let mut frame = frame::PerfFrame {
        df: DataFrame::new(height, cols).map_err(polars)?,
        operations: log.strings.list().to_vec(),
    };
    // A JMeter log whose stamps are its requests' ends (`StampOrder::ends`): each request's
    // end made its stamp (the parsers add its time to a start); `commands::batch::stamps_note`
    // says so.
    if log.stamps.ends() {
        columns::ends_at_stamps(&mut frame.df).map_err(polars)?;
    }
    if by > 0 {
        columns::move_perf_lines(&mut frame, by).map_err(polars)?;
        log.bad.iter_mut().for_each(|b| b.line += by);
    }
    Ok(LoadedPerf {
        path: path.to_path_buf(),
        label: name_of(path),
        format,
        warnings: unstamped(&frame).into_iter().collect(),
        frame,
        log,
        part: 0,
    })
}

/// Stream a GC log in blocks cut before lines that start records (see `parse::stream`),
/// parsed in parallel (`read_and_parse`); the joiner makes of them what one pass gives, in
/// file order. Memory holds the events and a few blocks, never the whole file.
fn load_gc_stream(
    path: &Path,
    head: Vec<u8>,
    r: &mut input::Reader,
    format: GcFormat,
    by: u64,
) -> Result<Loaded> {
    let zone = gc_zone(&head, format.clock());
    let (mut log, cols) = stream_gc(path, head, r, format)?;
    if cols.bytes > parse::BLOCK as u64 {
        // Not after one block: for a folder of small logs, each collection's purge is
        // page-table flushes on every core.
        release_freed();
    }
    if columns::Sink::is_empty(&cols) {
        return Err(gc_nothing(path, &log));
    }
    let polars = Error::polars(path);
    let mut frame = cols.finish(&log).map_err(polars)?;
    if by > 0 {
        columns::move_lines(&mut frame, by).map_err(polars)?;
        log.bad.iter_mut().for_each(|b| b.line += by);
    }
    Ok(Loaded {
        path: path.to_path_buf(),
        label: name_of(path),
        format,
        warnings: frame_warnings(&frame, &log),
        log,
        frame,
        part: 0,
        zone,
    })
}

/// Why a GC log of a known family gave no row: what its parser found and did not count
/// (`model::META_UNCOUNTED`), with the lines it skipped where there are some (a syncgc cut
/// by the log's end is one), else what it skipped.
fn gc_nothing(path: &Path, log: &GcLog) -> Error {
    let skipped = Error::nothing_in(path, log.skipped_lines, log.lines, &log.bad);
    match (log.uncounted(), skipped) {
        (
            Some(what),
            Error::AllSkipped {
                skipped,
                lines,
                first_line,
                first,
                ..
            },
        ) => Error::Uncounted {
            path: path.to_path_buf(),
            what: format!(
                "{what}; {skipped} of {lines} lines not understood (line {first_line}: {first})"
            ),
        },
        (Some(what), _) => Error::Uncounted {
            path: path.to_path_buf(),
            what: what.to_owned(),
        },
        (None, e) => e,
    }
}

/// What a GC log's reading says beside its rows: what it holds and does not count, and the
/// frame's damaged uptimes (`GcFrame::damaged`), the first three by line.
fn frame_warnings(f: &frame::GcFrame, log: &GcLog) -> Vec<String> {
    log.uncounted()
        .map(str::to_owned)
        .into_iter()
        .chain(stamp_damage(f))
        .collect()
}

fn stamp_damage(f: &frame::GcFrame) -> Vec<String> {
    let mut out: Vec<String> = f
        .damaged
        .iter()
        .take(3)
        .map(|(line, u)| {
            format!(
                "line {line}: a start at uptime {} s, far ahead of the records around it: read as damage (the record kept, without it)",
                crate::report::num(*u, Some(3))
            )
        })
        .collect();
    if f.damaged.len() > 3 {
        out.push(format!("{} more damaged uptimes", f.damaged.len() - 3));
    }
    out
}

/// Give the memory the streaming freed (blocks, event buffers, the threads' heaps) back to
/// the OS now, not after the allocator's purge delay: what the analyses allocate next would
/// otherwise come on top of it (a 210 MB unified log peaks 8 MB higher).
fn release_freed() {
    // SAFETY: mi_collect takes a flag and touches only the allocator's own free lists; with
    // another global allocator (tests, examples) mimalloc's heap is empty and it does nothing.
    unsafe { libmimalloc_sys::mi_collect(true) };
    // What the thread pool's threads freed, and what they allocated and others freed, is
    // theirs to give back.
    // SAFETY: as above, on each of the pool's threads.
    rayon::broadcast(|_| unsafe { libmimalloc_sys::mi_collect(true) });
}

/// The streaming itself: the log's counts and its columns, not yet a frame.
fn stream_gc(
    path: &Path,
    head: Vec<u8>,
    r: &mut input::Reader,
    format: GcFormat,
) -> Result<(GcLog, columns::LogColumns)> {
    use parse::stream::{Joiner, Parser};
    let crew = std::sync::Arc::new(Crew::default());
    let mut cols = columns::LogColumns::expecting(r.content_len());
    cols.hand_to(crew.handing());
    let mut joiner = Joiner::new(format, cols);
    // Event lists the joiner is done with, for the workers to fill again.
    let spare = std::sync::Mutex::new(Vec::new());
    let parse = |_: usize, b: &[u8]| {
        let ev = spare
            .lock()
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_default();
        Parser::reusing(format, b, ev)
    };
    read_and_parse(
        head,
        r,
        path,
        &crew,
        rayon::current_num_threads(),
        parse::BLOCK,
        &|b| parse::stream::last_cut(format, b),
        &parse,
        |b, p| {
            joiner.sink.bytes += b.len() as u64;
            let freed = joiner.block_owned(b, p);
            let ev = joiner.spare();
            if ev.capacity() > 0 {
                if let Ok(mut s) = spare.lock() {
                    s.push(ev);
                }
            }
            freed
        },
    )?;
    Ok(joiner.finish())
}

/// Where the last complete line of `b` ends (just after its `\n`, `\r\n` or lone `\r`, as
/// `parse::lines` ends lines; old-Mac logs have only `\r`). A `\r` that ends the buffer may be
/// the first half of a `\r\n`: not a cut.
fn last_line_end(b: &[u8]) -> Option<usize> {
    let i = memchr::memrchr2(b'\n', b'\r', b)?;
    if b[i] == b'\n' || i + 1 < b.len() {
        return Some(i + 1);
    }
    // The buffer ends with `\r`: cut at the line end before it (the byte after that one is
    // neither `\n` nor `\r`, or it is this `\r`, so it is a whole line end).
    memchr::memrchr2(b'\n', b'\r', &b[..i]).map(|j| j + 1)
}

/// Several files read as one log (the parts of a rotated set): a GC log (`load_joined_gc`)
/// or a performance log (`load_joined_perf`), as its first part with a family is. Parts that
/// cannot be read, hold nothing, or are of another log family are left out and returned as
/// errors; the rest is joined. Line numbers count on across the parts in time order.
pub fn load_joined(paths: &[PathBuf]) -> (Option<Input>, Vec<Error>) {
    if set_is_perf(paths) {
        let (l, errors) = load_joined_perf(paths);
        (l.map(Input::Perf), errors)
    } else {
        let (l, errors) = load_joined_gc(paths);
        (l.map(Input::Gc), errors)
    }
}

/// Whether the first part of a set whose head shows a log family shows a performance log's.
fn set_is_perf(paths: &[PathBuf]) -> bool {
    for p in paths {
        let Ok(mut r) = input::open(p) else { continue };
        let mut head = Vec::new();
        if r.append(&mut head, PROBE).is_err() {
            continue;
        }
        match input::detect(&head) {
            Some(Detected::Perf(_)) => return true,
            Some(Detected::Gc(_)) => return false,
            None => {}
        }
    }
    false
}

/// The parts of a performance log, each read as a file is, put in time order by their
/// first request's end (parts without one after the others, in the order given), and
/// joined: operation names and messages made the set's, lines counted on.
fn load_joined_perf(paths: &[PathBuf]) -> (Option<LoadedPerf>, Vec<Error>) {
    let mut errors = Vec::new();
    let mut parts: Vec<LoadedPerf> = Vec::new();
    for p in paths {
        let inputs = match load_file(p) {
            Ok(inputs) => inputs,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for i in inputs {
            match i {
                Input::Perf(l) if parts.first().is_none_or(|f| f.format == l.format) => {
                    parts.push(l);
                }
                Input::Perf(l) => errors.push(Error::Usage(format!(
                    "{}: a {} log cannot be joined to a {} log",
                    l.label,
                    l.format.as_str(),
                    parts[0].format.as_str()
                ))),
                Input::Gc(l) => errors.push(Error::Usage(format!(
                    "{}: a GC log cannot be joined to performance logs",
                    l.label
                ))),
            }
        }
    }
    let first_end = |l: &LoadedPerf| {
        let c = l.frame.df.column(frame::perf::END_MS).ok()?;
        c.min_reduce().ok()?.value().extract::<i64>()
    };
    let mut parts: Vec<(i64, LoadedPerf)> = parts
        .into_iter()
        .map(|l| (first_end(&l).unwrap_or(i64::MAX), l))
        .collect();
    parts.sort_by_key(|(first, _)| *first);
    let Some((_, first)) = parts.first() else {
        return (None, errors);
    };
    let (path, format) = (first.path.clone(), first.format);
    let label = match parts.len() {
        1 => first.label.clone(),
        n => format!("{} (+{} rotated parts)", first.label, n - 1),
    };
    let mut log = PerfLog::default();
    let mut warnings = Vec::new();
    let mut frames = Vec::with_capacity(parts.len());
    for (_, part) in parts {
        let join = columns::Join {
            ids: (part.frame.operations.iter())
                .map(|s| log.strings.intern(s))
                .collect(),
            line_offset: log.lines,
            invented_offset: 0,
        };
        for b in part.log.bad {
            if log.bad.len() < BAD_LINES_KEPT {
                log.bad.push(BadLine {
                    line: b.line + log.lines,
                    text: b.text,
                });
            }
        }
        log.lines += part.log.lines;
        log.record_lines += part.log.record_lines;
        log.ignored_lines += part.log.ignored_lines;
        log.skipped_lines += part.log.skipped_lines;
        log.other_family_lines += part.log.other_family_lines;
        log.local_stamps |= part.log.local_stamps;
        log.stamps.add(part.log.stamps);
        warnings.extend(part.warnings.iter().map(|w| format!("{}: {w}", part.label)));
        frames.push((part.frame, join));
    }
    match columns::join_perf_frames(frames) {
        Ok(df) => {
            let frame = frame::PerfFrame {
                df,
                operations: log.strings.list().to_vec(),
            };
            let l = LoadedPerf {
                path,
                label,
                format,
                log,
                frame,
                warnings,
                part: 0,
            };
            (Some(l), errors)
        }
        Err(source) => {
            errors.push(Error::Polars { path, source });
            (None, errors)
        }
    }
}

/// The parts of a GC log, put in time order: by the wall clock of their first event where
/// every part has one, else by uptime, else by name.
fn load_joined_gc(paths: &[PathBuf]) -> (Option<Loaded>, Vec<Error>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    // Each part streamed into a frame of its own, then put in time order and joined.
    let mut parts: Vec<(PathBuf, GcFormat, GcLog, frame::GcFrame, Zone)> = Vec::new();
    for p in paths {
        match stream_part(p) {
            Err(e) => errors.push(e),
            Ok((f, ..)) if parts.first().is_some_and(|first| first.1 != f) => {
                errors.push(Error::Usage(format!(
                    "{}: a {} log cannot be joined to a {} log",
                    name_of(p),
                    f.as_str(),
                    parts[0].1.as_str()
                )))
            }
            Ok((f, log, part_frame, damage, zone)) => {
                if let Some(d) = damage {
                    warnings.push(format!("{}: {d}", name_of(p)));
                }
                parts.push((p.clone(), f, log, part_frame, zone));
            }
        }
    }
    let times: Vec<(Option<i64>, Option<f64>)> = parts
        .iter()
        .map(|(.., f, _)| columns::first_times(f))
        .collect();
    let by_wall = times.iter().all(|t| t.0.is_some());
    let key = |t: &(Option<i64>, Option<f64>)| -> f64 {
        let first = if by_wall { t.0.map(|w| w as f64) } else { t.1 };
        first.unwrap_or(f64::INFINITY)
    };
    let mut parts: Vec<(f64, _)> = times.iter().map(key).zip(parts).collect();
    parts.sort_by(|(ka, a), (kb, b)| ka.total_cmp(kb).then_with(|| a.0.cmp(&b.0)));
    let Some((_, (first_path, format, .., zone))) = parts.first() else {
        return (None, errors);
    };
    // The zone of the set's first part in time: a rotated set is one JVM's, one host's.
    let (first_path, format, zone) = (first_path.clone(), *format, *zone);
    let n_parts = parts.len();
    let mut log = GcLog::default();
    let mut joined = Vec::with_capacity(n_parts);
    // The entries kept so far, by value: a search of the list for each part's entry is
    // quadratic in the entries (100 parts of 1,024 each: 4 s).
    let mut meta_seen: std::collections::HashSet<(String, String)> = Default::default();
    for (_, (_, _, part, part_frame, _)) in parts {
        joined.push((
            part_frame,
            join_onto(&mut log.strings, &part.strings, log.lines),
        ));
        for m in part.meta {
            if meta_seen.insert(m.clone()) {
                log.meta.push(m);
            }
        }
        for mut b in part.bad {
            if log.bad.len() < BAD_LINES_KEPT {
                b.line += log.lines;
                log.bad.push(b);
            }
        }
        log.lines += part.lines;
        log.record_lines += part.record_lines;
        log.ignored_lines += part.ignored_lines;
        log.skipped_lines += part.skipped_lines;
    }
    let label = if n_parts > 1 {
        format!("{} (+{} rotated parts)", name_of(&first_path), n_parts - 1)
    } else {
        name_of(&first_path)
    };
    if joined.iter().all(|(f, _)| f.height() == 0) {
        errors.push(gc_nothing(&first_path, &log));
        return (None, errors);
    }
    match columns::join_frames(joined, log.strings.list().to_vec()) {
        Ok(frame) => (
            Some(Loaded {
                path: first_path,
                label,
                format,
                warnings: warnings
                    .into_iter()
                    .chain(frame_warnings(&frame, &log))
                    .collect(),
                log,
                frame,
                part: 0,
                zone,
            }),
            errors,
        ),
        Err(source) => {
            errors.push(Error::Polars {
                path: first_path,
                source,
            });
            (None, errors)
        }
    }
}

/// One part of a joined set, streamed: its family, counts, frame and the damage the reader
/// met. A part that is not a GC log is an error naming it.
fn stream_part(p: &Path) -> Result<(GcFormat, GcLog, frame::GcFrame, Option<String>, Zone)> {
    let mut r = input::open(p)?;
    let mut head = Vec::new();
    r.append(&mut head, PROBE).map_err(Error::io(p))?;
    let f = match input::detect(&head) {
        Some(Detected::Gc(f)) => f,
        Some(Detected::Perf(_)) => {
            return Err(Error::Usage(format!(
                "{}: a performance log cannot be joined to GC logs",
                name_of(p)
            )))
        }
        None => {
            return Err(Error::NothingRecognised {
                path: p.to_path_buf(),
            })
        }
    };
    let zone = gc_zone(&head, f.clock());
    let (mut log, cols) = stream_gc(p, head, &mut r, f)?;
    let notes = r.into_notes();
    account_long_lines(
        &notes,
        &mut log.record_lines,
        &mut log.ignored_lines,
        &mut log.skipped_lines,
        &mut log.bad,
    );
    let part_frame = cols.finish(&log).map_err(Error::polars(p))?;
    Ok((f, log, part_frame, notes.damage, zone))
}

/// The rotation set a file belongs to: `gc.log.3`, `gc.log.2.current` and `gc.log.0.gz` all
/// belong to `gc.log` (the JVM's `-XX:+UseGCLogFileRotation` and `-Xlog:...:filecount=` names).
pub fn rotation_base(p: &Path) -> PathBuf {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut s = name.as_str();
    s = s.strip_suffix(".gz").unwrap_or(s);
    s = s.strip_suffix(".current").unwrap_or(s);
    if let Some((base, n)) = s.rsplit_once('.') {
        if !base.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            s = base;
        }
    }
    p.with_file_name(s)
}

/// Group files for `--rotated`: files of one rotation set together, in first-seen order.
pub fn group_rotated(files: &[PathBuf]) -> Vec<Vec<PathBuf>> {
    // Each base's group, by base: a search of the groups for each file is quadratic in the
    // files (16,000 files of their own base: 8.7 s).
    let mut group_of: std::collections::HashMap<PathBuf, usize> = Default::default();
    let mut groups: Vec<Vec<PathBuf>> = Vec::new();
    for f in files {
        let next = groups.len();
        match *group_of.entry(rotation_base(f)).or_insert(next) {
            g if g < next => groups[g].push(f.clone()),
            _ => groups.push(vec![f.clone()]),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A semicolon log of several blocks: BOM, CRLF, a header, blank and bad lines, and one
    /// record whose error text is longer than a block.
    fn big_perf_log() -> Vec<u8> {
        let mut b = b"\xEF\xBB\xBFid;time;total;java;db;calls;operation;error\r\n".to_vec();
        let ops = ["getContract", "saveOrder", "loadCustomersList"];
        for i in 0..60_000u32 {
            let (s, ms) = (i / 1000, i % 1000);
            let total = i % 997;
            let java = total / 3;
            b.extend_from_slice(
                format!(
                    "[{i:032X}];2012-09-21 12:{:02}:{:02}.{ms:03};{total};{java};{};{};{};{}\r\n",
                    s / 60,
                    s % 60,
                    total - java,
                    i % 7,
                    ops[(i % 3) as usize],
                    if i % 101 == 0 { "e-timeout" } else { "" }
                )
                .as_bytes(),
            );
            if i % 5000 == 17 {
                b.extend_from_slice(b"\r\n[cut];2012-09-21 12:00\r\n");
            }
            if i == 30_000 {
                // A failed request with a 3 MB message: longer than a block.
                b.extend_from_slice(b"[long];2012-09-21 12:00:30.000;5;2;3;1;saveOrder;e-");
                b.extend(std::iter::repeat_n(b'x', 3 << 20));
                b.extend_from_slice(b"\r\n");
            }
        }
        // The last line without its line break.
        b.extend_from_slice(b"[last];2012-09-21 12:59:59.999;7;3;4;1;getContract;");
        b
    }

    fn figures(l: &LoadedPerf) -> (u64, u64, Vec<u64>, String) {
        let s = crate::analyze::perf::summary(&l.frame, &Default::default()).unwrap();
        let lines: Vec<u64> = l.log.bad.iter().map(|b| b.line).collect();
        (
            l.log.lines,
            l.log.skipped_lines,
            lines,
            serde_json::to_string(&s).unwrap(),
        )
    }

    #[test]
    fn streamed_perf_log_equals_one_piece_parse_plain_and_gzip() {
        use std::io::Write;
        let buf = big_perf_log();
        assert!(buf.len() > 3 * parse::BLOCK);
        let whole = parse::perf::parse(parse::perf::SEMICOLON, &buf);
        let reference = LoadedPerf {
            path: PathBuf::new(),
            label: String::new(),
            format: parse::perf::SEMICOLON,
            frame: columns::perf_frame(&whole).unwrap(),
            log: whole,
            warnings: Vec::new(),
            part: 0,
        };
        // 60,000 records + the long one + the last; 12 cut lines skipped.
        assert_eq!(reference.frame.df.height(), 60_002);
        assert_eq!(reference.log.skipped_lines, 12);
        let want = figures(&reference);

        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("perf.log");
        std::fs::write(&plain, &buf).unwrap();
        let gz = dir.path().join("perf-gzipped.log");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&buf).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        for p in [&plain, &gz] {
            let Input::Perf(l) = load_any(p).unwrap() else {
                panic!("{} not read as a performance log", p.display());
            };
            assert_eq!(figures(&l), want, "{}", p.display());
            // Same rows in the same order with the same line numbers.
            assert!(
                l.frame.df.equals_missing(&reference.frame.df),
                "{}",
                p.display()
            );
        }
    }

    /// A streamed semicolon log with a line over `input::MAX_LINE` in its middle: that line is
    /// skipped and counted, the records around it kept, line numbers right.
    #[test]
    fn streamed_perf_log_skips_a_line_over_the_cap() {
        let mut b = Vec::new();
        let rec = |i: u32| {
            format!(
                "[{i:032X}];2012-09-21 12:00:{:02}.000;10;4;6;1;getContract;\n",
                i % 60
            )
        };
        for i in 0..40_000 {
            b.extend_from_slice(rec(i).as_bytes());
        }
        let long = input::MAX_LINE + 5;
        b.extend(std::iter::repeat_n(b'x', long));
        b.extend_from_slice(b"\n[cut];2012-09-21 12:0\n");
        for i in 0..10 {
            b.extend_from_slice(rec(i).as_bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("perf.log");
        std::fs::write(&p, &b).unwrap();
        drop(b);
        let Input::Perf(l) = load_any(&p).unwrap() else {
            panic!("not read as a performance log");
        };
        assert_eq!(l.frame.df.height(), 40_010);
        assert_eq!(l.log.lines, 40_012);
        assert_eq!(l.log.skipped_lines, 2);
        let bad: Vec<(u64, &str)> = l
            .log
            .bad
            .iter()
            .map(|b| (b.line, b.text.as_str()))
            .collect();
        let text = format!("{long} bytes without a line end (longer than 64 MiB): skipped");
        assert_eq!(
            bad,
            vec![(40_001, text.as_str()), (40_002, "[cut];2012-09-21 12:0")]
        );
        // Every line counted once: the long line moved from ignored (its blank stand-in) to
        // skipped.
        assert_eq!(l.log.record_lines, 40_010);
        assert_eq!(l.log.ignored_lines, 0);
    }

    /// The same in a GC log read whole: the records before and after stay, the line over the
    /// cap is skipped (not ignored), line numbers right.
    #[test]
    fn gc_log_read_whole_skips_a_line_over_the_cap() {
        let ev = |t: u32| format!("{t}.000: [GC 1000K->500K(2000K), 0.0100000 secs]\n");
        let mut b = ev(1).into_bytes();
        b.extend(std::iter::repeat_n(b'\0', input::MAX_LINE + 1));
        b.push(b'\n');
        b.extend_from_slice(ev(2).as_bytes());
        b.extend_from_slice(b"\n");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("gc.log");
        std::fs::write(&p, &b).unwrap();
        let Input::Gc(l) = load_any(&p).unwrap() else {
            panic!("not read as a GC log");
        };
        assert_eq!(l.frame.height(), 2);
        assert!(l.log.events.is_empty());
        assert_eq!(
            (
                l.log.lines,
                l.log.record_lines,
                l.log.ignored_lines,
                l.log.skipped_lines
            ),
            (4, 2, 1, 1)
        );
        assert_eq!(l.log.bad.len(), 1);
        assert_eq!(l.log.bad[0].line, 2);
        assert_eq!(
            l.log.bad[0].text,
            format!(
                "{} bytes without a line end (longer than 64 MiB): skipped",
                input::MAX_LINE + 1
            )
        );
    }

    #[test]
    fn rotation_names_group_by_base() {
        let files: Vec<PathBuf> = [
            "d/gc.log.0",
            "d/gc.log.2.current",
            "d/other.log",
            "d/gc.log.1.gz",
            "d/gc.log",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let g = group_rotated(&files);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].len(), 4);
        assert_eq!(g[1], vec![PathBuf::from("d/other.log")]);
        // Sets met in turn: each in the order its first file came, its files in theirs.
        let files: Vec<PathBuf> = ["b.log.1", "a.log", "c.log", "b.log.0", "a.log.1", "b.log"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let names =
            |g: &[PathBuf]| -> Vec<String> { g.iter().map(|p| p.display().to_string()).collect() };
        let g: Vec<Vec<String>> = group_rotated(&files).iter().map(|g| names(g)).collect();
        assert_eq!(
            g,
            vec![
                vec!["b.log.1", "b.log.0", "b.log"],
                vec!["a.log", "a.log.1"],
                vec!["c.log"]
            ]
        );
        assert_eq!(
            rotation_base(Path::new("x/app.2016.log")),
            PathBuf::from("x/app.2016.log")
        );
    }

    /// A file of numbered lines read by `read_and_parse` with `workers` threads: the blocks
    /// as `consume` takes them, with the number each was parsed as.
    fn blocks_read(workers: usize, lines: usize) -> (Vec<u8>, Vec<(usize, Vec<u8>)>) {
        let text: Vec<u8> = (0..lines)
            .flat_map(|i| format!("line {i} {}\n", "x".repeat(i % 97)).into_bytes())
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lines.log");
        std::fs::write(&p, &text).unwrap();
        let mut r = input::open(&p).unwrap();
        let mut head = Vec::new();
        r.append(&mut head, 1000).unwrap();
        let mut got = Vec::new();
        read_and_parse(
            head,
            &mut r,
            &p,
            &Crew::default(),
            workers,
            4096,
            &last_line_end,
            &|n, b| (n, b.to_vec()),
            |b, (n, copy)| {
                assert_eq!(b, copy);
                got.push((n, copy));
                vec![b]
            },
        )
        .unwrap();
        (text, got)
    }

    #[test]
    fn blocks_read_by_their_workers_come_back_in_file_order_at_line_ends() {
        for workers in [1, 2, 5] {
            let (text, got) = blocks_read(workers, 20_000);
            // Numbered in turn, taken in turn, each ended at a line end, all the bytes once.
            assert!(got.len() > 100, "{}", got.len());
            assert!(got.iter().enumerate().all(|(i, (n, _))| *n == i));
            assert!(got.iter().all(|(_, b)| b.ends_with(b"\n")));
            // About 4096 bytes each, less the line the cut left to the next (lines are at
            // most 110 bytes).
            let mut sizes = got[..got.len() - 1].iter().map(|(_, b)| b.len());
            assert!(sizes.all(|l| l > 4096 - 110 && l <= 4096));
            let all: Vec<u8> = got.into_iter().flat_map(|(_, b)| b).collect();
            assert_eq!(all, text);
        }
    }

    #[test]
    fn blocks_finished_out_of_turn_are_each_taken_once_in_order_by_the_workers() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lines.log");
        std::fs::write(&p, "a line\n".repeat(100_000)).unwrap();
        let caller = std::thread::current().id();
        for workers in [2, 3, 8] {
            let mut r = input::open(&p).unwrap();
            let mut got = Vec::new();
            let mut on_caller = 0;
            read_and_parse(
                Vec::new(),
                &mut r,
                &p,
                &Crew::default(),
                workers,
                512,
                &last_line_end,
                // Every third block parses slowly, so the blocks after it finish first and
                // wait, and are put in while another worker is taking blocks.
                &|n, _| {
                    if n % 3 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(50));
                    }
                    n
                },
                |b, n| {
                    on_caller += usize::from(std::thread::current().id() == caller);
                    got.push((n, b.len()));
                    vec![b]
                },
            )
            .unwrap();
            assert!(got.len() > 1000, "{}", got.len());
            assert!(got.iter().enumerate().all(|(i, (n, _))| *n == i));
            assert_eq!(got.iter().map(|(_, l)| l).sum::<usize>(), 700_000);
            assert_eq!(on_caller, 0, "{workers} workers");
        }
    }

    /// The worker joining waits for freezes handed to the workers (`Frozen` lets two a core
    /// be in flight): it runs them itself when no other worker is left to. Block 0 parses
    /// slowly, so the others (about 20, fewer than the 8 workers may hold) are read to the
    /// end, the other workers leave, and they are joined at once after it (with up to 11
    /// cores, more blocks than may be in flight).
    #[test]
    fn a_worker_joining_runs_the_freezes_it_waits_for() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lines.log");
        std::fs::write(&p, "a line\n".repeat(3000)).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut r = input::open(&p).unwrap();
            let crew = std::sync::Arc::new(Crew::default());
            let mut frozen = columns::Frozen::default();
            frozen.hand_to(crew.handing());
            read_and_parse(
                Vec::new(),
                &mut r,
                &p,
                &crew,
                8,
                1024,
                &last_line_end,
                &|n, _| {
                    if n == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(200));
                    }
                    n
                },
                |b, n| {
                    frozen.spawn(move || n);
                    vec![b]
                },
            )
            .unwrap();
            tx.send(frozen.collect()).unwrap();
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the stream ended");
        assert!((16..8 * AHEAD).contains(&got.len()), "{}", got.len());
        assert!(got.iter().enumerate().all(|(i, n)| *n == i));
    }

    #[test]
    fn tasks_handed_while_blocks_are_read_run_on_the_workers_then_on_the_pool() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lines.log");
        std::fs::write(&p, "a line\n".repeat(200_000)).unwrap();
        let mut r = input::open(&p).unwrap();
        let crew = std::sync::Arc::new(Crew::default());
        let hand = crew.handing();
        // Before the workers start, and after they leave, a task is handed back.
        assert!(hand.hand(Box::new(|| {})).is_some());
        let caller = std::thread::current().id();
        let (tx, rx) = std::sync::mpsc::channel();
        let mut blocks = 0;
        read_and_parse(
            Vec::new(),
            &mut r,
            &p,
            &crew,
            2,
            1024,
            &last_line_end,
            &|_, _| (),
            |b, ()| {
                blocks += 1;
                let tx = tx.clone();
                let task: columns::Task = Box::new(move || {
                    let on_worker = std::thread::current().id() != caller
                        && rayon::current_thread_index().is_none();
                    tx.send(on_worker).unwrap();
                });
                if let Some(task) = hand.hand(task) {
                    rayon::spawn(task);
                }
                vec![b]
            },
        )
        .unwrap();
        assert!(hand.hand(Box::new(|| {})).is_some());
        drop(tx);
        let ran: Vec<bool> = rx.iter().collect();
        // Each task ran once; on the workers but for those of the last blocks, taken when
        // the workers had read to the end (at most `AHEAD` a worker, and the ones they were
        // parsing).
        assert!(blocks > 1000, "{blocks}");
        assert_eq!(ran.len(), blocks);
        let on_pool = ran.iter().filter(|w| !**w).count();
        assert!(
            on_pool <= 2 * AHEAD + 2,
            "{on_pool} of {blocks} on the pool"
        );
    }

    #[test]
    fn a_worker_or_joiner_that_panics_stops_the_stream_and_hangs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lines.log");
        std::fs::write(&p, "a line\n".repeat(50_000)).unwrap();
        // Block 30 fails as it is parsed, then as it is taken.
        for in_worker in [true, false] {
            let mut r = input::open(&p).unwrap();
            let mut taken = 0;
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                read_and_parse(
                    Vec::new(),
                    &mut r,
                    &p,
                    &Crew::default(),
                    2,
                    1024,
                    &last_line_end,
                    &|n, _| assert!(!in_worker || n != 30, "block 30"),
                    |b, ()| {
                        assert!(in_worker || taken != 30, "block 30");
                        taken += 1;
                        vec![b]
                    },
                )
            }));
            assert!(outcome.is_err());
            // The blocks before the one that failed were taken, and none after it.
            assert_eq!(taken, 30);
        }
    }

    /// What a test compares of an input: its name, part, counts, skipped lines, warnings and
    /// damaged stamps; and its frame.
    fn shown(i: &Input) -> (String, DataFrame) {
        let (log, damaged, part, df) = match i {
            Input::Gc(l) => (
                &l.log.bad,
                format!("{:?}", l.frame.damaged),
                l.part,
                &l.frame.df,
            ),
            Input::Perf(l) => (&l.log.bad, String::new(), l.part, &l.frame.df),
        };
        let counts = match i {
            Input::Gc(l) => [
                l.log.lines,
                l.log.record_lines,
                l.log.ignored_lines,
                l.log.skipped_lines,
            ],
            Input::Perf(l) => [
                l.log.lines,
                l.log.record_lines,
                l.log.ignored_lines,
                l.log.skipped_lines,
            ],
        };
        let text = format!(
            "{} part {part} {counts:?} {log:?} {:?} {damaged}",
            i.label(),
            i.warnings()
        );
        (text, df.clone())
    }

    /// The file at `path`, whose content is `t`, read as one log and then cut into its parts
    /// in memory (as content read whole is).
    fn cut_in_memory(path: &Path, t: &str) -> Vec<(String, DataFrame)> {
        let notes = ReadNotes::default();
        let whole = load_file(path).unwrap().remove(0);
        let in_memory = Again::Content(t.as_bytes(), &notes);
        let parts = streamed_parts(path, whole, 4096, in_memory).unwrap();
        parts.iter().map(shown).collect()
    }

    /// Each part of `t` (`input::parts`) read from a file of its own, its line numbers
    /// moved to where they stand in `t`.
    fn parts_alone(t: &str) -> Vec<DataFrame> {
        let parts = input::parts(t.as_bytes());
        let dir = tempfile::tempdir().unwrap();
        let mut out = Vec::new();
        for (k, p) in parts.iter().enumerate() {
            let end = parts.get(k + 1).map_or(t.len(), |n| n.start);
            let f = dir.path().join(format!("part{k}.log"));
            std::fs::write(&f, &t.as_bytes()[p.start..end]).unwrap();
            let df = match load_any(&f).unwrap() {
                Input::Gc(mut l) => {
                    columns::move_lines(&mut l.frame, p.line - 1).unwrap();
                    l.frame.df
                }
                Input::Perf(mut l) => {
                    columns::move_perf_lines(&mut l.frame, p.line - 1).unwrap();
                    l.frame.df
                }
            };
            out.push(df);
        }
        out
    }

    fn same(got: &[(String, DataFrame)], want: &[(String, DataFrame)], name: &str) {
        assert_eq!(got.len(), want.len());
        for ((g, gf), (w, wf)) in got.iter().zip(want) {
            assert_eq!(g, &w.replace("mixed.log", name));
            assert!(gf.equals_missing(wf), "{g}\n{gf:?}\n{wf:?}");
        }
    }

    /// A HotSpot log with a JRockit log, a performance log and a HotSpot log again appended
    /// (each part with a skipped line, the second HotSpot part a damaged uptime): streamed
    /// part by part in small blocks, plain and gzipped, it reads as it does read whole.
    #[test]
    fn a_file_streamed_part_by_part_reads_as_read_whole() {
        use std::fmt::Write as _;
        use std::io::Write as _;
        let mut t = String::from("Java HotSpot(TM) 64-Bit Server VM\n");
        for i in 1..9000 {
            writeln!(t, "{i}.000: [GC 100K->50K(200K), 0.0{i:04} secs]").unwrap();
        }
        t.push_str("not a record\n");
        for i in 0..6000 {
            writeln!(
                t,
                "[memory ] {}.385: Nursery GC 123930K->27087K (1048576K), {}.417 ms",
                4000 + i,
                i % 70
            )
            .unwrap();
        }
        t.push_str("[memory ] cut\n");
        for i in 0..9000 {
            writeln!(
                t,
                "[A{i}];2012-09-21 12:{:02}:{:02}.308;{};8;5;1;op{};",
                i / 60 % 60,
                i % 60,
                i % 300,
                i % 7
            )
            .unwrap();
        }
        t.push_str("[A];2012-09-21 12:04:0x.308;13;8;5;1;getContract;\n");
        for i in 1..6000 {
            writeln!(t, "{}.000: [GC 100K->50K(200K), 0.0100000 secs]", i * 3).unwrap();
        }
        t.push_str("1e300: [GC 100K->50K(200K), 0.0100000 secs]\n");
        t.push_str("9000.000: [GC 100K->50K(200K), 0.0100000 secs]\n");
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("mixed.log");
        std::fs::write(&plain, &t).unwrap();
        let gz = dir.path().join("mixed.log.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(t.as_bytes()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();

        // Cut in memory, each part's frame is the part's read from a file of its own.
        let want = cut_in_memory(&plain, &t);
        assert_eq!(want.len(), 4, "{want:?}");
        assert!(
            want[1].0.contains("(lines 9002-15002, jrockit) part 2"),
            "{}",
            want[1].0
        );
        let alone = parts_alone(&t);
        assert_eq!(alone.len(), 4);
        for ((label, got), alone) in want.iter().zip(&alone) {
            assert!(got.equals_missing(alone), "{label}");
        }
        for (path, block) in [(&plain, 4096), (&plain, 1 << 20), (&gz, 4096)] {
            let whole = load_file(&plain).unwrap().remove(0);
            let got: Vec<(String, DataFrame)> = streamed_parts(path, whole, block, Again::File)
                .unwrap()
                .iter()
                .map(shown)
                .collect();
            same(&got, &want, &path.file_name().unwrap().to_string_lossy());
        }
        // More than a probe's worth, so `load_file` streams it, then reads it in parts.
        assert!(t.len() > PROBE);
        let got: Vec<(String, DataFrame)> = load_file(&gz).unwrap().iter().map(shown).collect();
        same(&got, &want, "mixed.log.gz");
    }

    /// Families mixed every three lines: streamed, the parts stop at `MAX_PARTS` as they do
    /// read whole, the last one saying so.
    #[test]
    fn a_file_of_too_many_parts_streamed_reads_as_read_whole() {
        use std::fmt::Write as _;
        let mut t = String::new();
        for i in 0..300 {
            for j in 0..3 {
                writeln!(
                    t,
                    "{}.000: [GC 100K->50K(200K), 0.0100000 secs]",
                    i * 10 + j
                )
                .unwrap();
            }
            for j in 0..3 {
                writeln!(
                    t,
                    "[memory ] {}.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms",
                    i * 10 + j + 5
                )
                .unwrap();
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("mixed.log");
        std::fs::write(&p, &t).unwrap();
        let want = cut_in_memory(&p, &t);
        assert_eq!(want.len(), MAX_PARTS);
        assert!(
            want[MAX_PARTS - 1].0.contains("more than 256 parts"),
            "{}",
            want[255].0
        );
        let whole = load_file(&p).unwrap().remove(0);
        let got: Vec<(String, DataFrame)> = streamed_parts(&p, whole, 1000, Again::File)
            .unwrap()
            .iter()
            .map(shown)
            .collect();
        same(&got, &want, "mixed.log");
    }

    /// A file gone when it is to be read again for its parts: read as one log, which says
    /// that the other family's lines are not read.
    #[test]
    fn a_file_that_cannot_be_read_again_stays_one_log_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("gc.log");
        std::fs::write(
            &p,
            "1.000: [GC 100K->50K(200K), 0.0100000 secs]\n".repeat(3),
        )
        .unwrap();
        let whole = load_file(&p).unwrap().remove(0);
        std::fs::remove_file(&p).unwrap();
        let got = streamed_parts(&p, whole, 4096, Again::File).unwrap();
        assert_eq!(got.len(), 1);
        let w = got[0].warnings().join("\n");
        assert!(
            w.contains("lines of another log family in it are not read: reading it again"),
            "{w}"
        );
    }

    /// A streamed HotSpot log whose first skipped lines are its own damage, then a JRockit
    /// log appended: the joiner's count of other families' lines splits it all the same; so
    /// for a JRockit log with a HotSpot log appended, and a performance log with one.
    #[test]
    fn a_log_appended_after_damage_is_read_as_its_part() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("gc.log");
        // Runs of lines, each made from its numbers, written and read (over a probe, so
        // streamed): the parts' labels are `want`.
        type Runs<'a> = [(std::ops::Range<u32>, &'a dyn Fn(u32) -> String)];
        let parts_of = |runs: &Runs, want: [&str; 2]| {
            let t: String = (runs.iter())
                .flat_map(|(r, line)| r.clone().map(|i| line(i) + "\n"))
                .collect();
            assert!(t.len() > PROBE);
            std::fs::write(&p, t).unwrap();
            let got = load_file(&p).unwrap();
            let labels: Vec<&str> = got.iter().map(Input::label).collect();
            let name = p.display().to_string();
            assert_eq!(labels, want.map(|w| format!("{name} ({w})")));
            got
        };
        let hotspot = |i: u32| format!("{i}.000: [GC 100K->50K(200K), 0.0100000 secs]");
        let jrockit =
            |i: u32| format!("[memory ] {i}.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms");
        let got = parts_of(
            &[
                (0..8, &|i| {
                    format!("{i}.500: [GC 100K->50K(200K), damaged secs]")
                }),
                (10..40_000, &hotspot),
                (50_000..53_000, &jrockit),
            ],
            ["lines 1-39998, hotspot", "lines 39999-42998, jrockit"],
        );
        assert_eq!(got[1].gc().unwrap().frame.df.height(), 3000);
        parts_of(
            &[
                (0..8, &|i| {
                    format!("[memory ] {i}.385: Nursery GC 123930K->27087K (1048576K), x ms")
                }),
                (10..25_000, &jrockit),
                (30_001..33_001, &hotspot),
            ],
            ["lines 1-24998, jrockit", "lines 24999-27998, hotspot"],
        );
        let got = parts_of(
            &[
                (0..8, &|i| {
                    format!("[D{i}];2012-09-21 12:04:0x.308;13;8;5;1;getContract;")
                }),
                (0..30_000, &|i| {
                    let (m, s) = (i / 60 % 60, i % 60);
                    format!("[A{i}];2012-09-21 12:{m:02}:{s:02}.308;13;8;5;1;getContract;")
                }),
                (1..3001, &hotspot),
            ],
            ["lines 1-30008, perf-csv", "lines 30009-33008, hotspot"],
        );
        assert_eq!(got[1].gc().unwrap().frame.df.height(), 3000);
    }

    #[test]
    fn blocks_end_at_any_line_end() {
        assert_eq!(last_line_end(b"a\nb\nc"), Some(4));
        assert_eq!(last_line_end(b"a\rb\rc"), Some(4));
        assert_eq!(last_line_end(b"a\r\nb"), Some(3));
        // A final `\r` may be half of a `\r\n`: cut before its line.
        assert_eq!(last_line_end(b"a\rb\r"), Some(2));
        assert_eq!(last_line_end(b"a\r\r"), Some(2));
        assert_eq!(last_line_end(b"ab\r"), None);
        assert_eq!(last_line_end(b"abc"), None);
    }

    #[test]
    fn a_restart_between_rotated_parts_is_a_new_run() {
        let dir = tempfile::tempdir().unwrap();
        // gc.log.1 is the later file (11:00, the JVM restarted: uptime 1 s again); gc.log.0
        // ran from uptime 100 s to 200 s at 10:00. Joined by wall clock: .0 then .1.
        let later = dir.path().join("gc.log.1");
        let earlier = dir.path().join("gc.log.0");
        std::fs::write(
            &later,
            "2012-01-01T11:00:01.000+0100: 1.000: [GC 10K->1K(20K), 0.0100000 secs]\n\
             2012-01-01T11:00:05.000+0100: 5.000: [GC 10K->1K(20K), 0.0100000 secs]\n",
        )
        .unwrap();
        std::fs::write(
            &earlier,
            "2012-01-01T10:00:00.000+0100: 100.000: [GC 10K->1K(20K), 0.0100000 secs]\n\
             2012-01-01T10:01:40.000+0100: 200.000: [GC 10K->1K(20K), 0.0100000 secs]\n",
        )
        .unwrap();
        let (l, errs) = load_joined_gc(&[later, earlier]);
        assert!(errs.is_empty());
        let l = l.unwrap();
        let s = crate::analyze::gc::summary(&l.frame).unwrap();
        assert_eq!(s.restarts, 1);
        // Run spans: 100.0 to 200.01 s and 1.0 to 5.01 s.
        assert!(
            (s.span_s.unwrap() - (100.01 + 4.01)).abs() < 1e-9,
            "{:?}",
            s.span_s
        );
        assert_eq!(
            crate::analyze::gc::run_starts(&l.frame).unwrap(),
            vec![(3, Some(1.0))]
        );
    }

    #[test]
    fn joined_parts_are_ordered_by_time_and_strings_remapped() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("gc.log.1");
        let b = dir.path().join("gc.log.0");
        // Part .1 is the later one: uptime 20 s; .0 starts at 10 s.
        std::fs::write(
            &a,
            "20.000: [GC (System.gc()) [PSYoungGen: 10K->1K(20K)] 30K->21K(60K), 0.0200000 secs]\n",
        )
        .unwrap();
        std::fs::write(&b, "10.000: [GC (Allocation Failure) [PSYoungGen: 10K->1K(20K)] 30K->21K(60K), 0.0100000 secs]\n").unwrap();
        let (l, errs) = load_joined_gc(&[a.clone(), b.clone()]);
        assert!(errs.is_empty());
        let l = l.unwrap();
        assert_eq!(l.frame.height(), 2);
        let up = l.frame.df.column("start_s").unwrap().f64().unwrap().get(0);
        assert_eq!(up, Some(10.0));
        let cause = l.frame.decoded(&l.frame.df, "cause").unwrap();
        assert_eq!(cause.get(0), Some("Allocation Failure"));
        assert_eq!(cause.get(1), Some("System.gc()"));
        assert_eq!(l.log.lines, 2);
        assert_eq!(l.label, format!("{} (+1 rotated parts)", b.display()));
    }
}
