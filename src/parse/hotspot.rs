//! Sun/Oracle HotSpot `-verbose:gc` / `-XX:+PrintGCDetails` logs, JDK 1.3 to 8.
//!
//! A GC event is a bracket expression, `12.3: [GC 12.3: [ParNew: 1K->2K(3K), 0.1 secs] 4K->5K(6K),
//! 0.2 secs]`, that the JVM may split over several lines and interleave with other output
//! (tenuring distribution, heap dumps, adaptive-size policy, concurrent CMS phases). The parser
//! therefore works in two steps:
//! 1. *Assemble*: cut out embedded concurrent-phase records, drop interleaved noise, and join the
//!    pieces of one event until its brackets balance.
//! 2. *Interpret*: read the balanced expression: name and causes, the heap figures and pause at
//!    the top level, and the nested generations (which tell the collector and whether a young
//!    collection turned into a full one).
//!
//! A whole event printed while another is open (inside its brackets, or on a line before its
//! closing one) is its own record. When it ran inside the open one, by the stamps
//! (`ran_inside`: the CMS scavenge before remark), the two are one stop: the open event is the
//! pause, with its printed duration, and the inner one a [`Record::Nested`] collection. A
//! remark or initial mark printed inside a young collection that had ended before it began is
//! a stop after it.
//!
//! Every line is counted once (`GcLog`'s `record_lines`, `ignored_lines`, `skipped_lines`):
//! - record lines: the lines of an event, safepoint, concurrent-phase or Shenandoah record (a
//!   phase's `-start` line included), and the detail lines HotSpot prints after an event it
//!   belongs to (G1 phase and worker times, `[Eden: ...]`, `[Times: ...]`, G1 string-dedup
//!   statistics). A detail line after a skipped event, or before any event, is ignored.
//! - ignored lines: blank lines, heap-at-GC dumps, tenuring distribution, adaptive-size output,
//!   FLS statistics, JVM banners and flags, `Application time:` lines, G1 notices without a
//!   duration, and the indented statistics and worker notes Shenandoah prints.
//! - skipped lines: everything else, events whose values cannot be true (`GcEvent::implausible`,
//!   control bytes inside the expression, nesting deeper than real logs) and, always, lines of
//!   another log family (JRockit `[memory ]`, unified `[0.1s][info][gc]`, perf `[id];...`,
//!   JMeter and Grinder rows).
//!
//! Every step is linear in the line's length and works iteratively; the caps below bound what a
//! damaged line or an event that never closes may hold.

#[path = "hotspot_grammar.rs"]
mod grammar;

use super::family::{Block, BlockParser, Family, Foreign, GcFormat, Handle};
use super::lines::lines;
use super::num::{float_prefix, iso_datetime_prefix, last_digit_unit, size_kb_prefix, trim};
use crate::model::{GcClock, GcEvent, GcLog, Kind, Record, Rows, MAX_HEAP_KB};
use memchr::memmem::{Finder, FinderRev};
use std::sync::LazyLock;

/// `find(hay, needle)` with the needle's searcher built once, at the first call (building one
/// per call costs more than the search on a short line).
macro_rules! find_lit {
    ($hay:expr, $needle:literal) => {{
        static F: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new($needle));
        search(&F, $hay)
    }};
}
/// `f.find(hay)`, without the searcher's set-up when the needle cannot fit (a line's empty or
/// short rest).
#[inline]
fn search(f: &Finder<'_>, hay: &[u8]) -> Option<usize> {
    if hay.len() < f.needle().len() {
        return None;
    }
    f.find(hay)
}

/// `contains(hay, needle)`, likewise.
macro_rules! has {
    ($hay:expr, $needle:literal) => {
        find_lit!($hay, $needle).is_some()
    };
}
// Searchers built once, as in `find_lit!`.
static STOPPED: LazyLock<Finder<'static>> =
    LazyLock::new(|| Finder::new(b"Total time for which application threads were stopped: "));
static SECS_REV: LazyLock<FinderRev<'static>> = LazyLock::new(|| FinderRev::new(b" secs"));
static GLUED: LazyLock<Vec<Finder<'static>>> =
    LazyLock::new(|| GLUED_NOISE.iter().map(Finder::new).collect());

/// More events on one line than any JVM prints (a log glued into one line, a generated attack):
/// the line is damage, skipped whole, and reading it stops there.
const MAX_EVENTS_PER_LINE: usize = 10_000;
/// Give up on an event that has not closed after this many lines (a cut log, a foreign line).
const MAX_PENDING_LINES: u32 = 400;
/// ... or after this much text: real events are a few KB, and the text is kept until it closes.
const MAX_PENDING_BYTES: usize = 1 << 20;
/// Whole events printed inside an event: real logs nest one (a CMS remark's scavenge); deeper
/// nesting is damage, and reading it must not recurse as deep as the input says.
const MAX_NESTED_EVENTS: u32 = 1;
/// Bracketed parts (generations, phases) of one event: real ones have a few dozen; past this
/// the event is damage, and the index of its parts stays small.
const MAX_CHILDREN: usize = 10_000;
/// No stamp number is longer: past it, `stamps` skips the whole number instead of retrying
/// inside it (which would be quadratic in a run of digits).
const MAX_STAMP_NUMBER: usize = 40;

/// The HotSpot family: `-verbose:gc` and `-XX:+PrintGC*` logs of JDK 1.3 to 8, every
/// collector.
pub const FAMILY: GcFormat = Handle(&Hotspot);

struct Hotspot;

/// Lines of the other families, skipped.
static FOREIGN: LazyLock<Foreign> = LazyLock::new(|| Foreign::to(FAMILY));

impl Family for Hotspot {
    fn name(&self) -> &'static str {
        "hotspot"
    }
    fn about(&self) -> &'static str {
        "HotSpot `-verbose:gc` logs (JDK 1.3-8, every collector)"
    }

    /// An event start or a safepoint line, as the parser itself reads one.
    fn recognises(&self, line: &[u8]) -> bool {
        let c = |m: &[u8]| super::num::contains(line, m);
        if !(c(b"[GC")
            || c(b"[Full GC")
            || c(b"[CMS-concurrent")
            || c(b": [Pause ")
            || c(b"Total time for which application threads were stopped"))
        {
            return false;
        }
        // The record heads first: running a parser on the line (most of detecting a CMS
        // log's 1 MiB head, on one core) is for the lines they leave undecided.
        c(b": [GC")
            || c(b": [Full GC")
            || line.starts_with(b"[GC")
            || line.starts_with(b"[Full GC")
            || {
                let mut p = Parser::default();
                p.feed(line);
                !p.finish().events.is_empty()
            }
    }

    /// An event's first line with its stamp, `12.345: [GC ...` or `2012-...: 12.345: [Full
    /// GC ...`: one-line, or the head of a multi-line block (G1 details).
    fn safe_start(&self, line: &[u8]) -> bool {
        line.first().is_some_and(u8::is_ascii_digit)
            && (super::num::contains(line, b": [GC") || super::num::contains(line, b": [Full GC"))
    }

    fn block_parser(&self, events: Vec<GcEvent>, flush_at: usize) -> Box<dyn BlockParser> {
        Box::new(Parser {
            log: GcLog::reusing(events),
            settle: super::settle::Settle::every(flush_at),
            ..Parser::default()
        })
    }

    fn end_of_log(&self, log: &GcLog, rows: &mut dyn Rows) {
        if let Some(g1) = log.strings.find("G1") {
            name_full_gcs(rows, g1);
        }
    }

    /// Date stamps (`-XX:+PrintGCDateStamps`) carry their offset; without them, uptime only.
    fn clock(&self) -> GcClock {
        GcClock {
            writes_offset: true,
            undated_is_utc: false,
            whole_seconds: false,
        }
    }
}

impl BlockParser for Parser {
    /// Read the lines of `buf` after those read so far (a streamed log comes in blocks).
    fn feed(&mut self, buf: &[u8]) {
        let base = self.log.lines;
        let mut it = lines(buf);
        loop {
            let empty = it.skip_empty();
            if empty > 0 {
                // As if read one by one: the last read, the others counted.
                self.log.ignored_lines += empty - 1;
                self.line(base + it.line_no(), b"");
            }
            let Some((no, line)) = it.next() else { break };
            self.line(base + no, line);
            if self.settle.due(self.log.events.len()) {
                self.flush();
            }
        }
    }
    /// Nothing open that the next lines could complete: a block may end here.
    fn idle(&self) -> bool {
        !self.pending.is_open() && self.outer.is_none()
    }
    /// The lines read so far depended on what came before them (see `consulted`).
    fn consulted(&self) -> bool {
        self.consulted
    }
    fn finish(self: Box<Self>) -> Block {
        self.finish_log().into()
    }
}

/// A G1 log's `Full GC` lines name no collector (`[Full GC (Allocation Failure)  4095M->
/// 3000M(4096M), 2.5 secs]`: no generation brackets): the full collections of a log whose
/// other pauses are G1's are G1's. Over the whole log (a block may hold the full GC and none
/// of the others), so the streamed path does it when joined (`Family::end_of_log`).
pub(crate) fn name_full_gcs(rows: &mut dyn Rows, g1: u32) {
    let n = rows.len();
    if !(0..n).any(|i| rows.record(i) == Record::Pause && rows.collector(i) == g1) {
        return;
    }
    for i in 0..n {
        if rows.record(i) == Record::Pause && rows.kind(i) == Kind::Full && rows.collector(i) == 0 {
            rows.set_collector(i, g1);
        }
    }
}

/// An event that has started but whose brackets are not balanced yet.
#[derive(Default)]
struct Pending {
    text: Vec<u8>,
    line: u64,
    depth: i64,
    lines: u32,
    /// Lines whose count waits for this event: skipped if it fails, record lines if it is read
    /// (lines that held another record are counted as record lines already).
    uncounted: u64,
    /// Whole collections printed inside this event: those that ran inside it in time (CMS
    /// scavenge before remark) are nested collections of its stop, whose pause includes
    /// theirs; those that started after it ended (a remark printed before a young
    /// collection's closing line) are stops of their own. Decided when this event closes and
    /// its pause is known.
    nested: Vec<Inner>,
}

/// The stamps before an event: wall clock (ms), uptime (s) and the uptime's precision (s).
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Stamp {
    wall: Option<i64>,
    /// The wall clock's offset from UTC, quarter hours (`GcEvent::utc_offset_qh`).
    off: Option<i8>,
    up: Option<f64>,
    up_tol: f64,
    /// PrintGCID's collection number (`#12: `).
    id: Option<u64>,
}

/// A whole event read while another was open: when it started, its pause (ms), and where
/// it is in `log.events`.
#[derive(Debug, Clone, Copy)]
struct Inner {
    at: Stamp,
    ms: f64,
    idx: usize,
}

impl Stamp {
    /// Times `ev`, whose line is written when it ends, `secs` after it began.
    fn date_back(self, ev: &mut GcEvent, secs: f64) {
        ev.wall_ms = self
            .wall
            .map(|w| w.saturating_sub(super::num::round(ev.duration_ms) as i64));
        ev.utc_offset_qh = self.off;
        ev.uptime_s = self.up.map(|u| u - secs);
    }
}

impl Pending {
    fn is_open(&self) -> bool {
        !self.text.is_empty()
    }
}

/// What the line being read turned out to hold. Counted once when the line is done: a record
/// line if it holds any record; else counted by the open event it joined; else skipped if
/// something on it could not be read; else ignored if it is a line the format defines as
/// carrying no record; else (nothing said) skipped.
#[derive(Default, Clone, Copy)]
struct Fate {
    record: bool,
    joined: bool,
    skip: bool,
    ignore: bool,
}

/// Why an expression gave no event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fail {
    /// No usable pause in it (a fragment, a cut event).
    NoPause,
    /// Values that cannot be true, control bytes, nesting deeper than real logs: the whole
    /// event (its nested events included) is left out.
    Damaged,
}

/// What a concurrent-phase bracket turned out to be.
enum Conc {
    /// A line of the phase's record: the phase, or its first line
    /// (`[CMS-concurrent-mark-start]`).
    Recorded,
    /// A notice without a duration that is read (`[GC concurrent-mark-abort]`).
    Notice,
    Failed,
}

#[derive(Default)]
pub struct Parser {
    log: GcLog,
    pending: Pending,
    /// A CMS remark waiting while the young collection it triggered is being assembled.
    outer: Option<Pending>,
    fate: Fate,
    /// `log.events.len()` when the current line began: a damaged line's events are taken back.
    line_mark: usize,
    /// Events and records tried on the current line (nested ones included).
    line_events: usize,
    /// The last GC event was kept: the detail lines after it belong to it.
    detail_owner: bool,
    scratch: Vec<u8>,
    name_buf: Vec<u8>,
    children: Vec<(usize, usize)>,
    top: Vec<(usize, usize)>,
    /// `detail_owner` has been set by this parser (else it still holds its initial value).
    owner_set: bool,
    /// A detail line was counted from the initial `detail_owner`: a block parsed on its own
    /// would count it differently from the same lines read after the block before.
    consulted: bool,
    /// The current line holds `concurrent-` (false: no part of it does).
    maybe_concurrent: bool,
    /// Streamed: the settled events go to the block's columns (see `flush`).
    settle: super::settle::Settle,
    /// Where the last pause among `log.events` was (None: there was none) when they were this
    /// many (see `last_pause`). Forgotten where events are taken out.
    pause_seen: Option<(Option<usize>, usize)>,
}

/// Does `s` hold one of `GLUED_NOISE`? Each is looked for from a byte event lines seldom hold
/// (one scan for three of them, one for the other two), at its offset in the needle.
fn glued_noise_in(s: &[u8]) -> bool {
    let at = |i: usize, off: usize, n: &[u8]| word_at(s, i, off, n);
    memchr::memchr3_iter(b'z', b'{', b'v', s).any(|i| match s[i] {
        b'z' => at(i, 10, GLUED_NOISE[0]),
        b'{' => at(i, 0, GLUED_NOISE[1]),
        _ => at(i, 11, GLUED_NOISE[2]),
    }) || memchr::memchr2_iter(b'B', b'A', s)
        .any(|i| at(i, 0, GLUED_NOISE[3 + usize::from(s[i] == b'A')]))
}

/// Does `s` hold `word` with its byte `off` at `s[i]`? (The word searches that scan for
/// one of a word's bytes check the word around each hit with it.)
fn word_at(s: &[u8], i: usize, off: usize, word: &[u8]) -> bool {
    i.checked_sub(off)
        .and_then(|start| s.get(start..start + word.len()))
        .is_some_and(|c| c == word)
}

/// Interleaved output glued onto an event line: everything from here to the line's end is noise.
/// (`glued_noise_in` looks for each from one of its bytes: keep them in step.)
const GLUED_NOISE: [&[u8]; 5] = [
    b"AdaptiveSize",
    b"{Heap",
    b"Desired survivor",
    b"Before GC:",
    b"After GC:",
];

/// An expression as `split` cuts it: its top-level text's spans, its children's.
type Split<'a> = (&'a [(usize, usize)], &'a [(usize, usize)]);

impl Parser {
    /// Between lines, move the events no later line can change to the block's columns: all
    /// before the last pause (a heap line after it gives it its figures). An open event holds
    /// its text, not events, and a line's events are taken back only while it is read.
    fn flush(&mut self) {
        let events = &self.log.events;
        // Nor the events an open one may yet make nested collections of.
        let held = self.open_inner().map(|i| i.idx).min().unwrap_or(usize::MAX);
        let k = events
            .iter()
            .rposition(|e| e.record == Record::Pause)
            .unwrap_or(events.len())
            .min(held);
        if self.settle.worth(k, events.len()) {
            self.settle.take(&mut self.log.events, k);
            self.pause_seen = None;
            for i in self.open_inner_mut() {
                i.idx -= k;
            }
        }
    }

    /// The events printed inside the open ones.
    fn open_inner(&self) -> impl Iterator<Item = &Inner> {
        self.pending
            .nested
            .iter()
            .chain(self.outer.iter().flat_map(|o| o.nested.iter()))
    }

    fn open_inner_mut(&mut self) -> impl Iterator<Item = &mut Inner> {
        self.pending
            .nested
            .iter_mut()
            .chain(self.outer.iter_mut().flat_map(|o| o.nested.iter_mut()))
    }

    /// The block's log and the columns its settled events went to (see `flush`), which
    /// come before `log.events`.
    pub(crate) fn finish_log(mut self) -> (GcLog, Option<crate::columns::GcColumns>) {
        let cols = self.settle.cols();
        (self.finish(), cols)
    }

    fn line(&mut self, no: u64, raw: &[u8]) {
        let started = self.owner_set || self.pending.is_open();
        self.line_inner(no, raw);
        // Lines before this parser's first event may belong to an event of the block before
        // (a detail line, the tail of a G1 line a concurrent phase split): a block must begin
        // with an event for its parse on its own to count.
        if !(started || self.owner_set || self.pending.is_open() || trim(raw).is_empty()) {
            self.consulted = true;
        }
    }

    fn line_inner(&mut self, no: u64, raw: &[u8]) {
        self.log.lines = no;
        self.fate = Fate::default();
        self.line_mark = self.log.events.len();
        self.line_events = 0;
        if trim(raw).is_empty() {
            self.log.ignored_lines += 1;
            return;
        }
        if FOREIGN.test(raw) {
            self.log.skip(no, shown(raw));
            return;
        }
        // Concurrent phases can be printed in the middle of another event's line.
        let mut scratch = std::mem::take(&mut self.scratch);
        let first_concurrent = find_concurrent(raw);
        self.maybe_concurrent = first_concurrent.is_some();
        let line: &[u8] = if let Some(first) = first_concurrent {
            scratch.clear();
            self.extract_concurrent(no, raw, first, &mut scratch);
            &scratch
        } else {
            raw
        };
        // After a record was cut out, stamps alone (`:    [GC concurrent-mark-start]`) are its.
        let rest_is_stamps = self.fate.record && only_stamps(line);
        if self.line_events > MAX_EVENTS_PER_LINE {
            self.damaged_line();
        } else if !trim(line).is_empty() && !rest_is_stamps {
            if self.pending.is_open() {
                self.continued(no, line);
            } else {
                self.fresh(no, line);
            }
        }
        self.scratch = scratch;
        let f = self.fate;
        if f.record {
            self.log.record_lines += 1;
        } else if f.joined {
            // Counted with the event it joined.
        } else if f.skip || !f.ignore {
            self.log.skip(no, shown(raw));
        } else {
            self.log.ignored_lines += 1;
        }
    }

    fn finish(mut self) -> GcLog {
        if self.pending.is_open() {
            // A cut log: the last event never closed. Read what it has if it has a pause.
            let p = std::mem::take(&mut self.pending);
            let r = event_start(&p.text).map_or(Err(Fail::NoPause), |at| {
                self.interpret_at(&p.text, at, p.line, &p.nested, None)
            });
            self.settle(&p, r);
        }
        if let Some(outer) = self.outer.take() {
            // A remark whose young collection never closed.
            self.settle(&outer, Err(Fail::NoPause));
        }
        debug_assert_eq!(
            self.log.lines,
            self.log.record_lines + self.log.ignored_lines + self.log.skipped_lines
        );
        self.log
    }

    /// Count the lines of an event that is done, read (`Ok`) or not.
    fn settle(&mut self, p: &Pending, r: Result<f64, Fail>) {
        self.detail_owner = r.is_ok();
        self.owner_set = true;
        match r {
            Ok(_) => self.log.record_lines += p.uncounted,
            Err(_) if p.uncounted > 0 => self.log.skip_lines(p.line, p.uncounted, shown(&p.text)),
            Err(_) => {}
        }
    }

    /// Too many events on the line: none of them is kept, the line is skipped.
    fn damaged_line(&mut self) {
        self.log.events.truncate(self.line_mark);
        self.pause_seen = None;
        self.fate = Fate {
            skip: true,
            ..Fate::default()
        };
    }

    /// The outcome of one event read from the current line.
    fn note(&mut self, r: Result<f64, Fail>) {
        self.detail_owner = self.read(r.is_ok());
        self.owner_set = true;
    }

    /// A record on the current line was read (`ok`), or it is skipped. Returns `ok`.
    fn read(&mut self, ok: bool) -> bool {
        self.fate.record |= ok;
        self.fate.skip |= !ok;
        ok
    }

    /// A detail line of the event before it (see the module comment).
    fn detail(&mut self) {
        if self.detail_owner || self.pending.is_open() {
            self.fate.record = true;
        } else {
            self.fate.ignore = true;
        }
    }

    /// A line while no event is open: its events one after another, the last one possibly
    /// left open for the next lines.
    fn fresh(&mut self, no: u64, line: &[u8]) {
        let Some(first) = event_start(line) else {
            self.aside(no, line);
            return;
        };
        // Noise glued on cuts the rest of the line (every event after `first` included).
        let line = cut_glued_noise(line, first);
        // `from`: where the text before the next event (its stamps) begins.
        let mut from = 0;
        let mut at = first;
        loop {
            self.line_events += 1;
            if self.line_events > MAX_EVENTS_PER_LINE {
                self.damaged_line();
                return;
            }
            // Split while finding where it closes: the one pass over its brackets.
            let mut top = std::mem::take(&mut self.top);
            let mut children = std::mem::take(&mut self.children);
            let split = split(&line[at..], &mut top, &mut children);
            // Damage, if it closes.
            let end = split.unwrap_or_else(|_| balanced_end(&line[at..]));
            let Some(end) = end.map(|e| at + e) else {
                self.top = top;
                self.children = children;
                self.start_pending(no, &line[from..], depth_of(&line[at..]));
                return;
            };
            let r = split.and_then(|_| {
                self.interpret_at(
                    &line[from..end],
                    at - from,
                    no,
                    &[],
                    Some((&top, &children)),
                )
            });
            self.top = top;
            self.children = children;
            self.note(r);
            if self.line_events > MAX_EVENTS_PER_LINE {
                self.damaged_line();
                return;
            }
            from = end;
            match event_start(&line[from..]) {
                Some(next) => at = from + next,
                None => return,
            }
        }
    }

    fn start_pending(&mut self, no: u64, text: &[u8], depth: i64) {
        if text.len() > MAX_PENDING_BYTES {
            self.fate.skip = true;
            return;
        }
        let p = &mut self.pending;
        p.text.clear();
        p.text.extend_from_slice(text);
        p.line = no;
        p.depth = depth;
        p.lines = 1;
        p.nested.clear();
        p.uncounted = u64::from(!self.fate.record);
        self.fate.joined |= !self.fate.record;
    }

    /// Leave the open event out, its lines skipped; with it the remark waiting for it when
    /// `with_outer`.
    fn give_up_pending(&mut self, with_outer: bool) {
        let p = std::mem::take(&mut self.pending);
        self.settle(&p, Err(Fail::NoPause));
        if with_outer {
            if let Some(outer) = self.outer.take() {
                self.settle(&outer, Err(Fail::NoPause));
            }
        }
    }

    /// A line that holds no event start while no event is open.
    fn aside(&mut self, no: u64, line: &[u8]) {
        if self.other_record(no, line) || self.shenandoah(no, line) {
            return;
        }
        self.classify(line);
    }

    /// A line that is not (part of) an event: a detail line, noise, or not understood.
    fn classify(&mut self, line: &[u8]) {
        let t = trim(line);
        if is_detail(t, self.maybe_concurrent) {
            self.detail();
        } else if is_noise(line) {
            self.fate.ignore = true;
        } else if t.first() == Some(&b'[') || has!(t, b" secs") {
            // Not what HotSpot, G1 or Shenandoah print in brackets at a line's start, or a
            // piece of an event whose start is missing (` 1K->2K(3K), 0.1 secs]`; a heap
            // transition alone is the tail of a G1 detail line split by a concurrent phase).
            self.fate.skip = true;
        } else if line.first().is_some_and(u8::is_ascii_whitespace) {
            // Indented JVM output: Shenandoah phase statistics, pacer and worker notes, heap
            // dump lines.
            self.fate.ignore = true;
        } else {
            self.fate.skip = true;
        }
    }

    /// A line while an event is open.
    fn continued(&mut self, no: u64, line: &[u8]) {
        if let Some(p) = event_start(line) {
            let line = cut_glued_noise(line, p);
            let balanced = balanced_end(&line[p..]);
            if only_stamps(&line[..p]) {
                if let Some(end) = balanced {
                    // A whole event printed inside the open one (CMS scavenge before remark, or
                    // an event that ran after it: decided when the open one closes).
                    let r = self.interpret_at(&line[..p + end], p, no, &[], None);
                    if let Ok(ms) = r {
                        let at = stamp(&line[..p]);
                        let idx = self.log.events.len().saturating_sub(1);
                        self.pending.nested.push(Inner { at, ms, idx });
                    }
                    self.note(r);
                    return;
                }
                if self.outer.is_none() && has!(&self.pending.text, b"YG occupancy") {
                    // The young collection of a CMS remark, itself split over lines.
                    self.outer = Some(std::mem::take(&mut self.pending));
                } else {
                    // A new event starts while the old one never closed: the old one is lost.
                    self.give_up_pending(false);
                }
                self.fresh(no, line);
                return;
            }
        }
        if self.other_record(no, line) {
            return;
        }
        let t = trim(line);
        let looks_like_event_text =
            memchr::memchr2(b'[', b']', t).is_some() || find_arrow(t).is_some() || has!(t, b"secs");
        if !looks_like_event_text || is_noise(line) {
            self.classify(line);
            return;
        }
        let piece = cut_glued_noise(line, 0);
        let p = &mut self.pending;
        p.lines += 1;
        p.uncounted += u64::from(!self.fate.record);
        self.fate.joined |= !self.fate.record;
        if p.text.len() + piece.len() > MAX_PENDING_BYTES {
            self.give_up_pending(true);
            return;
        }
        p.text.extend_from_slice(piece);
        p.depth += depth_of(piece);
        if p.depth <= 0 {
            self.close_pending();
        } else if p.lines > MAX_PENDING_LINES {
            self.give_up_pending(true);
        }
    }

    /// The open event's brackets balance: read it.
    fn close_pending(&mut self) {
        let mut p = std::mem::take(&mut self.pending);
        // When it started, for the remark it may be nested in.
        let mut at = Stamp::default();
        let r = match event_start(&p.text) {
            Some(i) => {
                let end = balanced_end(&p.text[i..]).map_or(p.text.len(), |e| i + e);
                at = stamp(&p.text[..i]);
                self.interpret_at(&p.text[..end], i, p.line, &p.nested, None)
            }
            None => Err(Fail::NoPause),
        };
        self.settle(&p, r);
        if let Some(outer) = self.outer.take() {
            // Back to the remark that was waiting for this young collection.
            self.pending = outer;
            if let Ok(ms) = r {
                let idx = self.log.events.len().saturating_sub(1);
                self.pending.nested.push(Inner { at, ms, idx });
            }
        }
        // Keep the buffers' room for the next event.
        if !self.pending.is_open() {
            p.text.clear();
            p.nested.clear();
            self.pending.text = p.text;
            self.pending.nested = p.nested;
        }
    }

    /// Safepoint records, `Application time:` lines and the G1 `[Eden: ...]` summary: lines
    /// that are not bracketed events. True when the line was one of them.
    fn other_record(&mut self, no: u64, line: &[u8]) -> bool {
        // Both safepoint phrases hold `time`: one search rules both out on most lines.
        let timed = has!(line, b"time");
        let stopped = if timed { search(&STOPPED, line) } else { None };
        if let Some(i) = stopped {
            let rest = line.get(i + STOPPED.needle().len()..).unwrap_or(&[]);
            match float_prefix(rest) {
                Some((secs, n)) if rest[n..].starts_with(b" seconds") => {
                    let mut ev = GcEvent::new(Record::Safepoint, Kind::Other, secs * 1000.0, no);
                    // The line is written when the threads resume: its stamp is the stop's end.
                    stamp(&line[..i]).date_back(&mut ev, secs);
                    ev.name = self.log.strings.intern("safepoint");
                    // `, Stopping threads took: 0.0000123 seconds`: the time to safepoint.
                    ev.ttsp_ms = stopping_threads_s(&rest[n..]).map(|s| s * 1000.0);
                    let ok = self.log.push_checked(ev).is_ok();
                    self.read(ok);
                }
                // The phrase without its figure (`0.00\0 62 seconds`, a cut line).
                _ => self.fate.skip = true,
            }
            return true;
        }
        if timed && has!(line, b"Application time: ") {
            // -XX:+PrintGCApplicationConcurrentTime: the time between pauses, no GC record.
            self.fate.ignore = true;
            return true;
        }
        // G1 detail summary: the heap figures of the event just read.
        if let Some(i) = find_lit!(line, b"[Eden: ") {
            let heap = find_lit!(&line[i..], b"Heap: ").map(|h| &line[i + h + b"Heap: ".len()..]);
            let young = g1_young(&line[i..]);
            match heap.map(|s| self.g1_heap(s, young)) {
                Some(Err(())) => self.fate.skip = true,
                _ => self.detail(),
            }
            return true;
        }
        false
    }

    /// JDK 8 Shenandoah: `2.472: [Pause Init Mark (process weakrefs), 3.341 ms]`,
    /// `3.338: [Concurrent marking, 866.393 ms]`; `, start]` lines only announce a phase.
    fn shenandoah(&mut self, no: u64, line: &[u8]) -> bool {
        // The record's `[` right after the stamps: the first `[Pause ` (or, if the line has
        // none, the first `[Concurrent `) with nothing but stamps before it.
        let open = line.iter().take_while(|&&b| is_stamp_byte(b)).count();
        let r = &line[open..];
        let at_open = r.starts_with(b"[Pause ")
            || (r.starts_with(b"[Concurrent ") && !has!(line, b"[Pause "));
        if !at_open {
            return false;
        }
        let Some(body) = balanced_end(r).and_then(|e| line.get(open + 1..open + e - 1)) else {
            return false;
        };
        if has_control(body) {
            self.fate.skip = true;
            return true;
        }
        if body.ends_with(b", start") {
            // The first line of the phase's record.
            self.fate.record = true;
            return true;
        }
        let Some(comma) = body.iter().rposition(|&b| b == b',') else {
            return false;
        };
        let tail = trim(&body[comma + 1..]);
        let Some(ms) = float_prefix(tail).and_then(|(v, n)| (&tail[n..] == b" ms").then_some(v))
        else {
            return false;
        };
        let head = &body[..comma];
        let (record, kind) = match head.strip_prefix(b"Pause ") {
            None => (Record::Concurrent, Kind::Other),
            Some(p) if p.starts_with(b"Init Mark") => (Record::Pause, Kind::InitialMark),
            Some(p) if p.starts_with(b"Final Mark") => (Record::Pause, Kind::Remark),
            Some(p) if p.starts_with(b"Full") => (Record::Pause, Kind::Full),
            Some(_) => (Record::Pause, Kind::Other),
        };
        let mut ev = GcEvent::new(record, kind, ms, no);
        // The line is written when the phase ends.
        stamp(&line[..open]).date_back(&mut ev, ms / 1000.0);
        if let Some((b, a, c)) = heap_triple(head) {
            (ev.heap_before_kb, ev.heap_after_kb, ev.heap_total_kb) = (Some(b), Some(a), c);
        }
        let paren = find_lit!(head, b" (");
        let name_end = paren
            .or_else(|| {
                head.iter()
                    .position(|b| b.is_ascii_digit())
                    .map(|i| i.saturating_sub(1))
            })
            .unwrap_or(head.len());
        ev.name = self.intern_label(trim(&head[..name_end]));
        ev.collector = self.log.strings.intern("Shenandoah");
        let cause = paren.and_then(|i| head.get(i + 2..i + paren_len(&head[i + 1..])?));
        if let Some(c) = cause {
            ev.cause = self.intern_label(c);
        }
        let ok = self.log.push_checked(ev).is_ok();
        if self.read(ok) && record == Record::Pause {
            self.detail_owner = true;
            self.owner_set = true;
        }
        true
    }

    /// The index of the last pause among the events. Only the events pushed since the last
    /// search are searched: all of them, for each `[Eden: ...]` line, is quadratic in the
    /// events after a pause (one pause, then a safepoint and a summary line by turns: 111 s
    /// for 400,000 lines). Events are only pushed, taken out (which forgets the search) or
    /// made `Nested`, never made pauses: none of those searched before is one now.
    fn last_pause(&mut self) -> Option<usize> {
        let ev = &self.log.events;
        let is_pause = |e: &GcEvent| e.record == Record::Pause;
        let (from, before) = match self.pause_seen {
            Some((at, len)) if len <= ev.len() => (len, at),
            _ => (0, None),
        };
        let found = match ev
            .get(from..)
            .and_then(|new| new.iter().rposition(is_pause))
        {
            Some(i) => Some(from + i),
            // The one found before, unless it has been made nested since.
            None => before.and_then(|i| match ev.get(i).is_some_and(is_pause) {
                true => Some(i),
                false => ev.get(..i).and_then(|old| old.iter().rposition(is_pause)),
            }),
        };
        self.pause_seen = Some((found, ev.len()));
        found
    }

    /// `Heap: 24.0M(256.0M)->20.5M(256.0M)]` after a G1 detailed pause: the figures go to the
    /// last pause read. Err when they cannot be true (the line is then skipped).
    fn g1_heap(&mut self, s: &[u8], young: Option<(u64, u64)>) -> Result<(), ()> {
        let Some((before, after, rest)) = g1_transition(s) else {
            return Ok(());
        };
        let total = rest
            .strip_prefix(b"(")
            .and_then(size_kb_prefix)
            .map(|(v, _)| v);
        if before > MAX_HEAP_KB || after > MAX_HEAP_KB || total.is_some_and(|t| t > MAX_HEAP_KB) {
            return Err(());
        }
        if let Some(ev) = self.last_pause().and_then(|i| self.log.events.get_mut(i)) {
            (ev.heap_before_kb, ev.heap_after_kb) = (Some(before), Some(after));
            ev.heap_total_kb = total.or(ev.heap_total_kb);
            if let Some((b, a)) = young.filter(|&(b, a)| b <= MAX_HEAP_KB && a <= MAX_HEAP_KB) {
                (ev.young_before_kb, ev.young_after_kb) = (Some(b), Some(a));
            }
        }
        Ok(())
    }

    /// Cut `12.3: [CMS-concurrent-mark: 0.1/0.2 secs] [Times: ...]` and `[GC concurrent-...]`
    /// records out of `line` (emitting them), writing what remains into `out`. Stops early when
    /// the line holds more records than `MAX_EVENTS_PER_LINE`. `first`: where the line's first
    /// `concurrent-` is.
    fn extract_concurrent(&mut self, no: u64, line: &[u8], first: usize, out: &mut Vec<u8>) {
        let mut pos = 0;
        let mut hint = Some(first);
        loop {
            let next = next_concurrent_open(line, pos, hint.take())
                .and_then(|open| Some((open, memchr::memchr(b']', &line[open..])?)));
            let Some((open, close_rel)) = next else {
                out.extend_from_slice(&line[pos..]);
                return;
            };
            self.line_events += 1;
            if self.line_events > MAX_EVENTS_PER_LINE {
                return;
            }
            let close = open + close_rel + 1;
            let ts_start = stamp_start_before(line, open, pos);
            out.extend_from_slice(&line[pos..ts_start]);
            let st = stamp(&line[ts_start..open]);
            match self.concurrent_record(no, &line[open + 1..close - 1], st) {
                Conc::Recorded => self.fate.record = true,
                Conc::Notice => self.fate.ignore = true,
                Conc::Failed => self.fate.skip = true,
            }
            // A `[Times: ...]` belonging to the concurrent phase goes with it.
            pos = close;
            let after = &line[close..];
            let sp = after.iter().take_while(|&&b| b == b' ').count();
            if after[sp..].starts_with(b"[Times:") {
                let times = &after[sp + 1..];
                if let Some(e) = memchr::memchr2(b']', b'[', times).filter(|&e| times[e] == b']') {
                    pos = close + sp + 1 + e + 1;
                }
            }
        }
    }

    fn concurrent_record(&mut self, no: u64, body: &[u8], st: Stamp) -> Conc {
        // body: `CMS-concurrent-mark: 0.006/0.006 secs`, `GC concurrent-mark-end, 0.0123 secs`,
        // `CMS-concurrent-mark-start` (a start: nothing to record).
        if has_control(body) {
            return Conc::Failed;
        }
        let name_end = memchr::memchr2(b':', b',', body).unwrap_or(body.len());
        let name = trim(&body[..name_end]);
        let Some(secs_at) = find_lit!(body, b" secs") else {
            // JDK 6 G1 also writes `, 0.0101638 sec]` and `, 0.0000684]`: durations in a form
            // this reader does not take, like the notices.
            let bare = name_end == body.len();
            return if bare && name.ends_with(b"-start") {
                Conc::Recorded
            } else {
                Conc::Notice
            };
        };
        // ` secs` inside the name (`CMS-concurrent-reset secs, then`): not a record.
        if secs_at < name_end {
            return Conc::Failed;
        }
        // `cpu/wall secs`: the wall-clock time is the phase's duration.
        let Some((secs, _)) = number_before(body, secs_at) else {
            return Conc::Failed;
        };
        let mut ev = GcEvent::new(Record::Concurrent, Kind::Other, secs * 1000.0, no);
        // The stamp is written when the phase ends.
        st.date_back(&mut ev, secs);
        ev.gc_id = st.id;
        ev.name = self.intern_label(name);
        ev.collector = self.intern_label(if name.starts_with(b"GC") {
            b"G1"
        } else {
            b"CMS"
        });
        match self.log.push_checked(ev) {
            Ok(()) => Conc::Recorded,
            Err(_) => Conc::Failed,
        }
    }

    fn intern_label(&mut self, b: &[u8]) -> u32 {
        // Interned per distinct value: a hostile megabyte-long cause must not be kept once per
        // event (real names are under 60 bytes).
        self.log.strings.intern_bytes(super::limits::cap_label(b))
    }

    /// Interpret `stamps [Name ...]`, the expression starting at `text[at]`. Returns the pause
    /// recorded (ms). `nested`: whole events printed inside it on other lines; the pause
    /// includes those that ran inside it. `split`: the expression's top-level text and
    /// children where `split` has already cut them (then it closes at the end of `text`).
    fn interpret_at(
        &mut self,
        text: &[u8],
        at: usize,
        no: u64,
        nested: &[Inner],
        split: Option<Split>,
    ) -> Result<f64, Fail> {
        let (Some(head), Some(ev_text)) = (text.get(..at), text.get(at..)) else {
            return Err(Fail::NoPause);
        };
        if has_control(ev_text) {
            return Err(Fail::Damaged);
        }
        let st = stamp(head);
        let mark = self.log.events.len();
        let r = match split {
            Some((top, children)) => {
                self.interpret_parts(ev_text, top, children, st, no, nested, 0)
            }
            None => self.interpret(ev_text, st, no, nested, 0),
        };
        if r == Err(Fail::Damaged) {
            // Nested events read before the damage was found go too.
            self.log.events.truncate(mark);
            self.pause_seen = None;
        }
        r
    }

    /// `level`: how many whole events this one is nested in (at most `MAX_NESTED_EVENTS`, so
    /// this recursion is never deeper than two calls).
    fn interpret(
        &mut self,
        ev_text: &[u8],
        st: Stamp,
        no: u64,
        nested: &[Inner],
        level: u32,
    ) -> Result<f64, Fail> {
        let mut top = std::mem::take(&mut self.top);
        let mut children = std::mem::take(&mut self.children);
        let r = split(ev_text, &mut top, &mut children)
            .and_then(|_| self.interpret_parts(ev_text, &top, &children, st, no, nested, level));
        // Keep the larger buffers (a nested call took fresh ones).
        if top.capacity() >= self.top.capacity() {
            self.top = top;
        }
        if children.capacity() >= self.children.capacity() {
            self.children = children;
        }
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn interpret_parts(
        &mut self,
        t: &[u8],
        top: &[(usize, usize)],
        children: &[(usize, usize)],
        st: Stamp,
        no: u64,
        nested: &[Inner],
        level: u32,
    ) -> Result<f64, Fail> {
        // The whole events printed inside this one that ran inside it (its pause includes
        // theirs: they are its nested collections), those inside its brackets (read below);
        // those from other lines are in `nested`.
        let mut inside: Vec<usize> = Vec::new();
        let seg = |&(a, b): &(usize, usize)| t.get(a..b).unwrap_or(&[]);
        let Some(&(h0, _)) = top.first() else {
            return Err(Fail::NoPause);
        };
        let head = seg(&top[0]);
        let (name, mut rest_at) = event_name(head);
        let mut causes: [&[u8]; 4] = [b""; 4];
        let mut n_causes = 0;
        loop {
            let r = &head[rest_at..];
            let sp = r.iter().take_while(|&&b| b == b' ').count();
            let g = &r[sp..];
            let Some(len) = g.starts_with(b"(").then(|| paren_len(g)).flatten() else {
                break;
            };
            if n_causes < causes.len() {
                causes[n_causes] = r.get(sp + 1..sp + len - 1).unwrap_or(b"");
                n_causes += 1;
            }
            rest_at += sp + len;
        }
        let causes = &causes[..n_causes];

        // Pause: the last `N secs` at the top level. Heap: the first `a->b(c)` there.
        let pause_s = top.iter().rev().find_map(|s| last_secs(seg(s)));
        let heap = top
            .iter()
            .find_map(|s| heap_triple(if s.0 == h0 { &head[rest_at..] } else { seg(s) }));

        // Nested generations and nested whole events.
        let mut young_gen: &[u8] = b"";
        let mut young = None;
        let mut old_gen: &[u8] = b"";
        let mut kind_hint = None;
        // Where the text before the next child (its stamps) begins.
        let mut gap_start = 1;
        for &(a, b) in children {
            let c = t.get(a..b).unwrap_or(&[]);
            let gap = t.get(gap_start..a.saturating_sub(1)).unwrap_or(&[]);
            gap_start = b + 1;
            // `GC (...`, `GC 12.3: ...`, with or without the blank: a whole event.
            let nested_event = c.strip_prefix(b"GC").is_some_and(|r| {
                let r = r.strip_prefix(b" ").unwrap_or(r);
                r.first().is_some_and(|&d| d == b'(' || d.is_ascii_digit())
            });
            if nested_event {
                // A whole young collection inside a CMS remark (CMSScavengeBeforeRemark).
                self.line_events += 1;
                if level >= MAX_NESTED_EVENTS || self.line_events > MAX_EVENTS_PER_LINE {
                    return Err(Fail::Damaged);
                }
                // The child with its brackets: `t[a - 1]` is its `[`, `t[b]` its `]`.
                let inner = t.get(a.saturating_sub(1)..b + 1).unwrap_or(&[]);
                // Stamps are read after the last `]` before the child, as over the whole
                // text before it (`stamps` starts afresh after anything that is not a stamp).
                let mut at = stamp(gap);
                if at.up.is_none() {
                    (at.up, at.up_tol) = (st.up, st.up_tol);
                }
                if at.wall.is_none() {
                    (at.wall, at.off) = (st.wall, st.off);
                }
                match self.interpret(inner, at, no, &[], level + 1) {
                    Ok(ms) => {
                        let idx = self.log.events.len().saturating_sub(1);
                        let inner = Inner { at, ms, idx };
                        if pause_s.is_some_and(|s| ran_inside(st, s * 1000.0, &inner)) {
                            inside.push(idx);
                        }
                    }
                    Err(Fail::NoPause) => {}
                    Err(Fail::Damaged) => return Err(Fail::Damaged),
                }
                continue;
            }
            let cname_end = memchr::memchr3(b':', b',', b'(', c).unwrap_or(c.len());
            let cname = trim(&c[..cname_end]);
            // A generation's name ends where print options' output glued onto it begins:
            // `ParNew10.015: [SoftReference...` (PrintReferenceGC), `ParNew0[3]: ...`
            // (PrintOldPLAB), `CMS[Unloading class ...]` (TraceClassUnloading).
            let gen_end = cname
                .iter()
                .position(|&b| b.is_ascii_digit() || b == b'[')
                .unwrap_or(cname.len());
            let gen = trim(&cname[..gen_end]);
            match gen {
                b"DefNew" | b"ParNew" | b"PSYoungGen" | b"ASParNew" => {
                    if young_gen.is_empty() {
                        young_gen = gen;
                        // The young generation's own figures (promotion = old-gen growth).
                        young = heap_triple(&c[cname_end..]);
                    }
                }
                b"Tenured" | b"CMS" | b"PSOldGen" | b"ParOldGen" | b"ASCMS" | b"Train MSC" => {
                    if old_gen.is_empty() {
                        old_gen = gen;
                    }
                }
                _ => {
                    if has!(cname, b"CMS-initial-mark") {
                        kind_hint = Some(Kind::InitialMark);
                        old_gen = b"CMS";
                    } else if has!(cname, b"CMS-remark") || cname.starts_with(b"YG occupancy") {
                        kind_hint = Some(Kind::Remark);
                        old_gen = b"CMS";
                    }
                }
            }
        }

        let pause_s = pause_s.ok_or(Fail::NoPause)?;
        let g1 = matches!(name, b"GC remark" | b"GC cleanup" | b"GC pause");
        let kind = match name {
            b"Full GC" => Kind::Full,
            b"GC remark" => Kind::Remark,
            b"GC cleanup" => Kind::Cleanup,
            b"GC pause" => {
                // One rule with unified logging, whose `Pause Young (Concurrent Start)` is
                // `initial-mark`: the young pause that also starts a concurrent cycle is
                // named for the cycle it starts (as CMS's initial mark is), so that the
                // cycles started can be counted; mixed first, as there.
                if causes.iter().any(|c| *c == b"mixed" || *c == b"partial") {
                    Kind::Mixed
                } else if causes.contains(&&b"initial-mark"[..]) {
                    Kind::InitialMark
                } else {
                    Kind::Young
                }
            }
            // A young collection that had to collect the old generation too (promotion
            // failure, concurrent mode failure): a full collection.
            _ if kind_hint.is_none() && !old_gen.is_empty() => Kind::Full,
            _ => kind_hint.unwrap_or(Kind::Young),
        };
        let ms = pause_s * 1000.0;
        let mut ev = GcEvent::new(Record::Pause, kind, ms, no);
        (ev.wall_ms, ev.utc_offset_qh, ev.uptime_s, ev.gc_id) = (st.wall, st.off, st.up, st.id);
        if let Some((b, a, c)) = heap {
            (ev.heap_before_kb, ev.heap_after_kb, ev.heap_total_kb) = (Some(b), Some(a), c);
        }
        if let Some((b, a, _)) = young {
            (ev.young_before_kb, ev.young_after_kb) = (Some(b), Some(a));
        }
        // What went wrong, as the text says (findings): one search for the rare word first.
        if has!(t, b" fail") {
            if has!(t, b"promotion failed") {
                ev.flags |= crate::model::FLAG_PROMOTION_FAILED;
            }
            if has!(t, b"concurrent mode failure") {
                ev.flags |= crate::model::FLAG_CONCURRENT_MODE_FAILURE;
            }
        }
        let collector: &[u8] = if g1 {
            b"G1"
        } else if matches!(kind, Kind::Full | Kind::InitialMark | Kind::Remark)
            && !old_gen.is_empty()
        {
            old_gen
        } else if !young_gen.is_empty() {
            young_gen
        } else {
            old_gen
        };
        ev.collector = self.intern_label(collector);
        // The cause is the first parenthesised group that is not a G1 pause-type marker.
        if let Some(c) = causes.iter().find(|c| !is_g1_marker(c)) {
            ev.cause = self.intern_label(c);
        }
        ev.name = self.name_id(name, causes);
        match self.log.push_checked(ev) {
            Ok(()) => {
                let from_lines = nested.iter().filter(|i| ran_inside(st, ms, i));
                for idx in inside.into_iter().chain(from_lines.map(|i| i.idx)) {
                    if let Some(e) = self.log.events.get_mut(idx) {
                        e.record = Record::Nested;
                    }
                }
                Ok(ms)
            }
            Err(_) => Err(Fail::Damaged),
        }
    }

    /// `GC pause (young) (initial-mark)` style full name, interned.
    fn name_id(&mut self, name: &[u8], causes: &[&[u8]]) -> u32 {
        if !causes.iter().any(|c| is_g1_marker(c)) {
            return self.intern_label(name);
        }
        let mut s = std::mem::take(&mut self.name_buf);
        s.clear();
        s.extend_from_slice(name);
        for c in causes.iter().filter(|c| is_g1_marker(c)) {
            s.extend_from_slice(b" (");
            s.extend_from_slice(c);
            s.push(b')');
        }
        let id = self.intern_label(&s);
        self.name_buf = s;
        id
    }
}

/// The first `concurrent-` in `s`, found from its `u`: event and detail lines hold few (a
/// `user=`, a `Sum:`), and a `memchr` costs less than a substring search's set-up on a line.
fn find_concurrent(s: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'u', s)
        .find(|&i| i >= 4 && s[i - 4..].first_chunk::<11>() == Some(b"concurrent-"))
        .map(|i| i - 4)
}

/// Where the first concurrent-phase record (`[CMS-concurrent-`, `[GC concurrent-`,
/// `[ASCMS-concurrent-`) at or after `pos` opens. Each holds `concurrent-` after a prefix, and
/// those occur at least 11 bytes apart: the first `concurrent-` that has one of the prefixes
/// before it (starting at or after `pos`) is the first record. `hint`: the first `concurrent-`
/// at or after `pos`, if known. Every call searches the line from `pos` to that record, so a
/// line is searched about once however many records it holds.
fn next_concurrent_open(line: &[u8], pos: usize, hint: Option<usize>) -> Option<usize> {
    const PREFIXES: [&[u8]; 3] = [b"[CMS-", b"[GC ", b"[ASCMS-"];
    let mut q = match hint {
        Some(q) => q,
        None => pos + find_concurrent(line.get(pos..)?)?,
    };
    loop {
        for p in PREFIXES {
            if q >= pos + p.len() && line.get(q - p.len()..q) == Some(p) {
                return Some(q - p.len());
            }
        }
        let from = q + 1;
        q = from + find_concurrent(line.get(from..)?)?;
    }
}

/// The start of a long line, enough for `GcLog::skip`'s kept text (200 bytes) without copying
/// a megabyte to keep a few bytes of it.
fn shown(text: &[u8]) -> &[u8] {
    &text[..text.len().min(256)]
}

/// Control bytes other than tab: NUL padding or binary damage inside an expression makes
/// its numbers unreadable (`0.00\0 62122 secs` is not 62,122 s).
fn has_control(s: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let bad = |b: u8| (b < 0x20 && b != b'\t') || b == 0x7f;
    // Eight bytes at a time: does the word hold a byte below 0x20 or a 0x7f? (Exact as a
    // yes/no; a yes is checked byte by byte, which also lets tabs pass.)
    let suspect = |w: &[u8; 8]| {
        let x = u64::from_le_bytes(*w);
        let below = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        let y = x ^ (ONES * 0x7f);
        let del = y.wrapping_sub(ONES) & !y & HIGH;
        (below | del) != 0 && w.iter().any(|&b| bad(b))
    };
    // 32 bytes at a time without an early exit (vector code), then words.
    let mut wide = s.chunks_exact(32);
    for c in &mut wide {
        if c.iter()
            .fold(false, |acc, &b| acc | (b < 0x20) | (b == 0x7f))
            && c.iter().any(|&b| bad(b))
        {
            return true;
        }
    }
    let mut chunks = wide.remainder().chunks_exact(8);
    if chunks
        .by_ref()
        .any(|c| c.first_chunk().is_some_and(suspect))
    {
        return true;
    }
    // The rest, padded with spaces (byte by byte: a library copy costs more).
    let mut w = [b' '; 8];
    for (d, &b) in w.iter_mut().zip(chunks.remainder()) {
        *d = b;
    }
    suspect(&w)
}

/// A HotSpot detail line (trimmed) that belongs to the event before it: G1 phase and worker
/// times (`[Parallel Time: 33.1 ms, GC Workers: 4]`, `[GC Worker Start (ms): ...`,
/// `[Processed Buffers : 1 2`), their `Avg: ... Max: ...]` continuations, `[Times: ...]`,
/// `[Eden: ...]`, G1 string-dedup statistics (`[Table]`, `[Inspected: 12]`) and JDK 6 G1 heap
/// transitions (`[ 8M->8M(16M)]`). Not a piece of an event (`[PSYoungGen: ...] ..., 0.1 secs]`).
fn is_detail(t: &[u8], maybe_concurrent: bool) -> bool {
    let Some(r) = t.strip_prefix(b"[") else {
        return t.starts_with(b"Avg:") || t.starts_with(b"Sum:") || t.starts_with(b"Min:");
    };
    let r = trim(r);
    // An unclosed concurrent phase, not a label.
    if maybe_concurrent && find_concurrent(r).is_some() {
        return false;
    }
    match r.first() {
        Some(c) if c.is_ascii_uppercase() => {
            let end = r.iter().position(|&b| {
                !(b.is_ascii_alphanumeric()
                    || matches!(b, b' ' | b'(' | b')' | b'/' | b'-' | b'_' | b'&' | b'.'))
            });
            match end {
                Some(e) if r[e] == b':' => !(find_arrow(r).is_some() && has!(r, b" secs")),
                // A bare `[Table]`.
                Some(e) if r[e] == b']' => trim(&r[e + 1..]).is_empty(),
                _ => false,
            }
        }
        Some(c) if c.is_ascii_digit() => find_arrow(r).is_some() && !has!(r, b" secs"),
        _ => false,
    }
}

/// The seconds of `Stopping threads took: N seconds` in the rest of a safepoint line.
fn stopping_threads_s(rest: &[u8]) -> Option<f64> {
    const TOOK: &[u8] = b"Stopping threads took: ";
    let i = memchr::memmem::find(rest, TOOK)?;
    let r = rest.get(i + TOOK.len()..)?;
    let (v, n) = float_prefix(r)?;
    r.get(n..)?.starts_with(b" second").then_some(v)
}

/// The G1 young generation before and after, K, from `[Eden: 24.0M(24.0M)->0.0B(20.0M)
/// Survivors: 0.0B->4096.0K Heap: ...`: Eden plus survivors.
fn g1_young(s: &[u8]) -> Option<(u64, u64)> {
    let r = s.strip_prefix(b"[Eden: ")?;
    let (eb, ea, _) = g1_transition(r)?;
    let at = super::num::find(r, b"Survivors: ")?;
    let (sb, sa, _) = g1_transition(r.get(at + 11..)?)?;
    Some((eb.checked_add(sb)?, ea.checked_add(sa)?))
}

/// G1's `a(cap)->b` at the start of `s`, the capacity passed over: the sizes (K) and the text
/// after `b`.
fn g1_transition(s: &[u8]) -> Option<(u64, u64, &[u8])> {
    let (a, mut i) = size_kb_prefix(s)?;
    if s.get(i) == Some(&b'(') {
        i += s.get(i..)?.iter().position(|&b| b == b')')? + 1;
    }
    let r = s.get(i..)?.strip_prefix(b"->")?;
    let (b, n) = size_kb_prefix(r)?;
    Some((a, b, r.get(n..)?))
}

fn is_g1_marker(c: &[u8]) -> bool {
    matches!(
        c,
        b"young"
            | b"mixed"
            | b"partial"
            | b"initial-mark"
            | b"to-space overflow"
            | b"to-space exhausted"
    )
}

/// The event's name at the start of its head (after `[`) and where the name ends.
fn event_name(head: &[u8]) -> (&[u8], usize) {
    // The known names, longest first.
    const KNOWN: [&[u8]; 6] = [
        b"GC cleanup",
        b"GC remark",
        b"GC pause",
        b"GC--",
        b"GC",
        b"Full GC",
    ];
    if let Some(n) = KNOWN.iter().find(|n| head.starts_with(n)) {
        return (n, n.len());
    }
    let end = head
        .iter()
        .position(|b| !(b.is_ascii_alphabetic() || *b == b' ' || *b == b'-'))
        .unwrap_or(head.len());
    (trim(&head[..end]), end)
}

/// Length of a balanced `( ... )` group at the start of `s`.
fn paren_len(s: &[u8]) -> Option<usize> {
    let mut d = 0;
    for (i, &b) in s.iter().enumerate() {
        match b {
            b'(' => d += 1,
            b')' => {
                d -= 1;
                if d == 0 {
                    return Some(i + 1);
                }
            }
            b'[' | b']' => return None,
            _ => {}
        }
    }
    None
}

/// Where a top-level GC event begins: `[GC`, `[Full GC` (not `[GC Worker...`, not a concurrent
/// phase, which is cut out beforehand).
fn event_start(line: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(rel) = memchr::memchr(b'[', &line[from..]) {
        let i = from + rel;
        let r = &line[i + 1..];
        if let Some(a) = r.strip_prefix(b"Full GC").or_else(|| r.strip_prefix(b"GC")) {
            let ok = match a.first() {
                None => true,
                Some(b' ') => !a.starts_with(b" Worker") && !a.starts_with(b" concurrent"),
                // Output glued to the name: `[GCAdaptiveSizePolicy::...`, `[GCBefore GC:`.
                Some(c) if c.is_ascii_uppercase() => {
                    a.starts_with(b"AdaptiveSize") || a.starts_with(b"Before GC")
                }
                Some(&c) => matches!(c, b'(' | b'-' | b'[' | b',') || c.is_ascii_digit(),
            };
            if ok {
                return Some(i);
            }
        }
        from = i + 1;
    }
    None
}

/// Cut interleaved output glued onto the line after `from`.
fn cut_glued_noise(line: &[u8], from: usize) -> &[u8] {
    let from = from.min(line.len());
    if !glued_noise_in(&line[from..]) {
        return line;
    }
    let mut end = line.len();
    for f in GLUED.iter() {
        if let Some(i) = f.find(&line[from..end]) {
            end = from + i;
        }
    }
    // `... [AdaptiveSize...` opened a bracket of its own: cut at that `[` too (but never at
    // the event's own `[GC`).
    if end < line.len() && end > from + 1 && line[end - 1] == b'[' {
        end -= 1;
    }
    &line[..end]
}

/// Net bracket depth of a piece of text. Summed in i16 lanes a chunk at a time (a chunk's
/// depth is within ±32767): an i64 sum per byte does not vectorise, and costs 6 % of a G1
/// log's time on its long `[G1Ergonomics ...]` lines.
fn depth_of(s: &[u8]) -> i64 {
    s.chunks(1 << 14)
        .map(|c| {
            let d: i16 = c.iter().fold(0i16, |d, &b| {
                d + i16::from(b == b'[') - i16::from(b == b']')
            });
            i64::from(d)
        })
        .sum()
}

/// Split the expression opened at `ev_text[0]` into its top-level text and its nested children
/// (ranges of `ev_text`, brackets excluded). Returns where it closes, just past its `]`, or
/// `None` when it does not close in `ev_text` (its last top-level part then runs to the end).
/// Err: more children than `MAX_CHILDREN`.
fn split(
    ev_text: &[u8],
    top: &mut Vec<(usize, usize)>,
    children: &mut Vec<(usize, usize)>,
) -> Result<Option<usize>, Fail> {
    top.clear();
    children.clear();
    let mut depth = 0i64;
    let mut seg = 1usize;
    let mut child_start = 0usize;
    for i in memchr::memchr2_iter(b'[', b']', ev_text) {
        if ev_text[i] == b'[' {
            depth += 1;
            if depth == 2 {
                top.push((seg, i));
                child_start = i + 1;
            }
        } else {
            if depth == 2 {
                if children.len() >= MAX_CHILDREN {
                    return Err(Fail::Damaged);
                }
                children.push((child_start, i));
                seg = i + 1;
            } else if depth == 1 {
                top.push((seg, i));
                return Ok(Some(i + 1));
            }
            depth -= 1;
        }
    }
    if depth > 0 {
        top.push((seg, ev_text.len()));
    }
    Ok(None)
}

/// If the bracket opened at `s[0]` closes within `s`, the index just past its `]`.
fn balanced_end(s: &[u8]) -> Option<usize> {
    let mut d = 0i64;
    for i in memchr::memchr2_iter(b'[', b']', s) {
        if s[i] == b'[' {
            d += 1;
        } else {
            d -= 1;
            if d == 0 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// The stamps before an event, with the uptime's precision (see `Stamp`).
fn stamp(s: &[u8]) -> Stamp {
    let mut st = Stamp::default();
    let mut i = 0;
    while let Some(r) = s.get(i..).filter(|r| !r.is_empty()) {
        if r[0] == b' ' || r[0] == b':' {
            i += 1;
            continue;
        }
        if let Some((w, n)) = iso_datetime_prefix(r) {
            st.wall = Some(w);
            st.off = super::zone::offset_qh(&r[..n]);
            i += n;
            continue;
        }
        if r[0] == b'#' {
            // PrintGCID `#12: ` (a number too large for u64 is no id).
            let digits = &r[1..1 + r[1..].iter().take_while(|b| b.is_ascii_digit()).count()];
            st.id = digits.iter().try_fold(0u64, |n, &d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            });
            i += 1 + digits.len();
            continue;
        }
        let mut skip = 1;
        if let Some((v, n)) = float_prefix(r) {
            if r.get(n) == Some(&b':') {
                st.up = Some(v);
                st.up_tol = last_digit_unit(&r[..n]);
                i += n;
                continue;
            }
            if n > MAX_STAMP_NUMBER {
                skip = n;
            }
        }
        // Something else (application output before the event): keep looking after it.
        i += skip;
        st = Stamp {
            up_tol: st.up_tol,
            ..Stamp::default()
        };
    }
    st
}

/// Did the event `inner` (printed while the one that started at `outer` and lasted
/// `outer_ms` was open) run inside it? Its start must lie in the outer event's [start,
/// start + duration], and being part of it, it cannot end after it, give or take the stamps'
/// precision. The uptimes are compared if both have one, else the wall clocks (millisecond
/// stamps). Without a clock in common, print order is all there is: an event printed inside
/// another is taken to have run inside it.
fn ran_inside(outer: Stamp, outer_ms: f64, inner: &Inner) -> bool {
    // Float error in sums like `295.880 + 1.8215`.
    const EPS: f64 = 1e-9;
    let within = |o: f64, i: f64, unit: f64, tol: f64| {
        let (oe, ie) = (o + outer_ms / unit, i + inner.ms / unit);
        i >= o - tol && i <= oe + tol && ie <= oe + tol
    };
    if let (Some(o), Some(i)) = (outer.up, inner.at.up) {
        return within(o, i, 1000.0, outer.up_tol.max(inner.at.up_tol) + EPS);
    }
    if let (Some(o), Some(i)) = (outer.wall, inner.at.wall) {
        return within(o as f64, i as f64, 1.0, 1.0 + EPS);
    }
    true
}

/// True when `s` holds nothing but stamps and spaces.
fn only_stamps(s: &[u8]) -> bool {
    s.iter().all(|&b| is_stamp_byte(b))
}

/// A byte of a stamp (`2013-05-22T15:42:34.123+0200: 12.345: #3: `).
fn is_stamp_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'.' | b',' | b':' | b' ' | b'-' | b'+' | b'T' | b'#')
}

/// Start of the stamps that immediately precede position `at` (e.g. `0.769: ` before `[CMS-...`),
/// not before `lo`.
fn stamp_start_before(line: &[u8], at: usize, lo: usize) -> usize {
    let mut i = at;
    loop {
        let mut j = i;
        while j > lo && line[j - 1] == b' ' {
            j -= 1;
        }
        if j <= lo || line[j - 1] != b':' {
            return i;
        }
        j -= 1;
        let end = j;
        // `#` for the PrintGCID `#12: ` stamp.
        while j > lo
            && (line[j - 1].is_ascii_digit()
                || matches!(line[j - 1], b'.' | b',' | b'-' | b'+' | b'T' | b':' | b'#'))
        {
            j -= 1;
        }
        if j == end {
            return i;
        }
        i = j;
    }
}

/// The seconds of the ` secs` at `s[at]`: the number before it starts after a separator
/// (space, tab, `,`, `=`, `(`, `/` for a `cpu/wall` pair, `:`, or the start of `s`) and is all
/// number (`grammar::secs` from there reads up to the ` secs`): `1e308 secs` holds no number of
/// seconds. Returns it and the byte before it (0 at the start).
fn number_before(s: &[u8], at: usize) -> Option<(f64, u8)> {
    let mut j = at;
    while j > 0 && (s[j - 1].is_ascii_digit() || s[j - 1] == b'.' || s[j - 1] == b',') {
        j -= 1;
    }
    // `, 0.1 secs` and `,0.1 secs`: the comma separates.
    while j < at && s[j] == b',' {
        j += 1;
    }
    let before = if j == 0 { 0 } else { s[j - 1] };
    if j == at || !matches!(before, 0 | b' ' | b'\t' | b',' | b'=' | b'(' | b'/' | b':') {
        return None;
    }
    let (rest, v) = grammar::secs(s.get(j..)?).ok()?;
    // The ` secs` read is the one at `at` (the number ends there).
    (s.len() - rest.len() == at + b" secs".len()).then_some((v, before))
}

/// The number before the last ` secs` in `s` that is a pause (not the wall part of a
/// `cpu/wall secs` pair, which is a concurrent phase's).
fn last_secs(s: &[u8]) -> Option<f64> {
    let mut end = s.len();
    while let Some(i) = rfind_secs(&s[..end]) {
        match number_before(s, i) {
            Some((v, before)) if before != b'/' => return Some(v),
            _ => end = i,
        }
    }
    None
}

/// The last ` secs` in `s`. A pause's text ends with it: a short `s` is compared from its end
/// back, without the reverse search's set-up.
fn rfind_secs(s: &[u8]) -> Option<usize> {
    if s.len() > 256 {
        return SECS_REV.rfind(s);
    }
    (0..=s.len().checked_sub(5)?)
        .rev()
        .find(|&i| s[i..i + 5] == *b" secs")
}

/// The first `->` in `s`: the first `>` with a `-` before it (a one-byte search: the
/// substring searcher's set-up for a two-byte needle costs 5 % of a G1 log's time, asked of
/// each detail line).
fn find_arrow(s: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'>', s)
        .find(|&i| i > 0 && s[i - 1] == b'-')
        .map(|i| i - 1)
}

/// The first `a->b(c)` (or `a->b`) in `s`, sizes in KB: at the first arrow with a size
/// before it (`grammar::transition` from where that size begins).
fn heap_triple(s: &[u8]) -> Option<(u64, u64, Option<u64>)> {
    let mut from = 0;
    while let Some(rel) = find_arrow(&s[from..]) {
        let arrow = from + rel;
        // Back over the size before the arrow (up to two unit letters, then digits and
        // points): `grammar::transition` reads it from there.
        let mut j = arrow;
        if j > 0 && matches!(s[j - 1], b'B' | b'K' | b'M' | b'G') {
            j -= 1;
            if j > 0 && matches!(s[j - 1], b'K' | b'M' | b'G') {
                j -= 1;
            }
        }
        while j > 0 && (s[j - 1].is_ascii_digit() || s[j - 1] == b'.') {
            j -= 1;
        }
        if let Ok((_, t)) = grammar::transition(&s[j..]) {
            return Some(t);
        }
        from = arrow + 2;
    }
    None
}

/// Lines the JVM writes around GC events that carry no event: heap dumps, tenuring
/// distribution, adaptive-size policy, G1 phase details, FLS statistics, log headers.
fn is_noise(line: &[u8]) -> bool {
    let t = trim(line);
    if t.is_empty() {
        return true;
    }
    const PREFIXES: [&[u8]; 56] = [
        b"Desired survivor",
        b"- age",
        b"{Heap",
        b"Heap",
        b"}",
        b"par new",
        b"eden space",
        b"from space",
        b"to   space",
        b"concurrent mark-sweep",
        b"concurrent-mark-sweep",
        b"Metaspace",
        b"class space",
        b"PSYoungGen",
        b"PSOldGen",
        b"ParOldGen",
        b"PSPermGen",
        b"object space",
        b"def new generation",
        b"tenured generation",
        b"the space",
        b"compacting perm gen",
        b"ro space",
        b"rw space",
        b"No shared spaces",
        b"garbage-first heap",
        b"region size",
        b"AdaptiveSize",
        b"PSAdaptiveSize",
        b"avg_survived",
        b"Java HotSpot",
        b"OpenJDK",
        b"Memory:",
        b"CommandLine flags",
        b"Statistics for",
        b"Total Free Space",
        b"Max   Chunk Size",
        b"Number of Blocks",
        b"Av.",
        b"Tree ",
        // G1 marking-stack overflow, FLS statistics (PrintFLSStatistics).
        b"Mark stack is full",
        b"demand:",
        // `CMS: Large block 0x...` (sweep end), `CMS: Large Block: 0x...; Proximity: ...`.
        b"CMS: Large ",
        b"---",
        b"free=",
        b"size[",
        b"Before GC:",
        b"After GC:",
        b"Avg:",
        b"Sum:",
        b"Min:",
        b"[Times:",
        b"GC log file",
        b"Setting abort",
        b"Free:",
        b"Update Region",
    ];
    starts_with_any(t, &PREFIXES) || holds_noise_word(t) || print_option_output(t)
}

/// Does `t` start with one of `prefixes`? The first byte first: most lines start with none.
#[inline]
fn starts_with_any(t: &[u8], prefixes: &[&[u8]]) -> bool {
    prefixes
        .iter()
        .any(|p| p.first() == t.first() && t.starts_with(p))
}

/// Lines HotSpot's routine print options write between (or inside) GC records, `t` trimmed:
/// `-XX:+PrintCMSInitiationStatistics`, `PrintCMSStatistics`, `PrintClassHistogram*FullGC`,
/// `PrintSafepointStatistics`, `PrintJNIGCStalls`, `PrintParallelOldGCPhaseTimes`,
/// `PrintOldPLAB`, `PrintGCTaskTimeStamps`, `PrintTLAB`, `CMSDumpAtPromotionFailure`,
/// `PrintCompressedOopsMode`, `PrintCommandLineFlags`, the GC locker's and the GC overhead
/// limit's notes. Each shape is matched whole or by a prefix no record has, and a line that
/// also holds a record's marks (`[GC`, `[Full GC`, a heap transition) is never one: damage to
/// a record must stay skipped and counted.
fn print_option_output(t: &[u8]) -> bool {
    const PREFIXES: [&[u8]; 33] = [
        // PrintCMSInitiationStatistics (JDK 6-8).
        b"CMSCollector shouldConcurrentCollect:",
        b"time_until_cms_gen_full ",
        b"metadata initialized ",
        b"contiguous_available=",
        b"promotion_rate=",
        b"cms_allocation_rate=",
        b"occupancy=",
        b"initiatingOccupancy=",
        b"initiatingPermOccupancy=",
        b"cms_time_since_begin=",
        b"cms_time_since_end=",
        // PrintTLAB, PrintGCTaskTimeStamps.
        b"TLAB: ",
        b"TLAB totals: ",
        b"VM-Thread ",
        b"GC-Thread ",
        // The GC locker's retry, the parallel collector's overhead limit.
        b"GC locker: Trying a full collection",
        b"GC time would exceed GCTimeLimit",
        b"GC time is exceeding GCTimeLimit",
        // PrintCompressedOopsMode, PrintCommandLineFlags.
        b"heap address: ",
        b"Narrow klass base: ",
        b"Compressed class space size: ",
        b"-XX:",
        // PrintSafepointStatistics: its header and the summary at exit.
        b"vmop ",
        b"Polling page always armed",
        b"Maximum sync time",
        b"Maximum vm operation time",
        // CMSDumpAtPromotionFailure.
        b"=====",
        b"Block layout in CMS Heap:",
        b"Order & Layout of Promotion Info Blocks",
        b"Order of Indexed Free Lists",
        b"Order of Free Lists in Dictionary",
        b"Layout of Indexed Freelists",
        // PrintClassHistogram's header.
        b"num     #instances",
    ];
    let Some(&first) = t.first() else {
        return false;
    };
    // By the first byte, and no search over a whole line unless its start fits: event lines
    // and G1 ergonomics lines, long ones, come here while an event is open.
    let prefixed = || starts_with_any(t, &PREFIXES);
    let shaped = match first {
        b'A'..=b'Z' => {
            prefixed()
                // PrintCMSStatistics: `Finished young gen rescan work in 1th thread: 0.012 sec`.
                || (t.starts_with(b"Finished ") && t.ends_with(b" sec") && has!(t, b" thread: "))
                // `Total        117497       16555372`, a class histogram's last line.
                || (t.starts_with(b"Total ") && numbers(&t[5..], 2))
                // PrintJNIGCStalls before JDK 8, without a stamp.
                || (t.starts_with(b"Allocation failed. Thread \"")
                    && has!(t, b"critical section"))
                || safepoint_exit_row(t)
                || shenandoah_output(t)
                // PrintCMSStatistics: `Marking stack overflow (benign) (pmc_pc=0, ...)`.
                || has!(t, b"overflow (benign)")
        }
        b'a'..=b'z' => prefixed() || safepoint_exit_row(t) || shenandoah_output(t),
        // A class histogram's row: `   1:         52496       12345678  [C`.
        b'0'..=b'9' => {
            histogram_row(t)
                || plab_row(t)
                || dump_block(t)
                || after_stamps(t)
                || shenandoah_count(t)
        }
        // PrintOldPLAB's summary `[3]: 65`; PrintGCTaskTimeStamps' `[ steal-task 12 34 ]`.
        b'[' => plab_row(t) || task_row(t),
        _ => prefixed(),
    };
    if !shaped {
        return false;
    }
    // `[pre compact, 0.0000390 secs]` (PrintParallelOldGCPhaseTimes) before a full GC is the
    // only shape that holds `secs]`.
    !has!(t, b"[GC") && !has!(t, b"[Full GC") && heap_triple(t).is_none()
}

/// Shenandoah's own output in a JDK 8 `-XX:+PrintGCDetails` log (the collector's settings at
/// start, its triggers and pacer notes, and the phase statistics it prints at exit).
fn shenandoah_output(t: &[u8]) -> bool {
    const PREFIXES: [&[u8]; 26] = [
        b"GC STATISTICS:",
        b"Collection set:",
        b"Regions: ",
        b"Humongous object threshold: ",
        b"Max TLAB size: ",
        b"GC threads: ",
        b"Heuristics ergonomically sets ",
        b"Shenandoah GC mode: ",
        b"Shenandoah heuristics: ",
        b"Initialize Shenandoah heap: ",
        b"Reference processing: ",
        b"Soft Max Heap Size: ",
        b"Pacer for ",
        b"Trigger: ",
        b"Status: ",
        b"Shenandoah Heap",
        b"Reserved region:",
        b"Cancelling concurrent GC: ",
        b"Cancelling GC: ",
        b"Allocation pacing accrued:",
        // The statistics' explanation.
        b"All times are wall-clock times, except per-root-class counters",
        b"all workers. Dividing the <total> over the root stage time",
        b"Under allocation pressure, concurrent cycles may cancel",
        b"under stop-the-world pause or result in stop-the-world Full GC",
        b"tune GC heuristics, set more aggressive pacing delay",
        b"to avoid Degenerated and Full GC cycles",
    ];
    starts_with_any(t, &PREFIXES) || phase_stat_row(t) || t == b"ALLOCATION TRACING"
}

/// Shenandoah's exit summary's counts (JDK 8): `1945 successful and 0 degenerated concurrent
/// markings`, `0 allocation failure and 0 user requested GCs`.
fn shenandoah_count(t: &[u8]) -> bool {
    let n = t.iter().take_while(|b| b.is_ascii_digit()).count();
    n > 0
        && [&b" successful and "[..], b" allocation failure and "]
            .iter()
            .any(|p| t[n..].starts_with(p))
}

/// A Shenandoah phase's statistics at exit: `Pause Init Mark (G)       1234 us` (with `,
/// parallelism: 1.71x` or `, workers (us): ...` after it), or `Concurrent Marking = 0.866 s
/// (a = 866393 us) (n = 1) (lvls, us = ...)`.
fn phase_stat_row(t: &[u8]) -> bool {
    if !t.first().is_some_and(u8::is_ascii_uppercase) {
        return false;
    }
    let name_ok = |n: &[u8]| {
        !n.is_empty()
            && n.iter().all(|&b| {
                b.is_ascii_alphabetic()
                    || matches!(b, b' ' | b'(' | b')' | b'<' | b'>' | b':' | b'-')
            })
    };
    if let Some(eq) = find_lit!(t, b" = ") {
        let r = trim(&t[eq + 3..]);
        return name_ok(trim(&t[..eq]))
            && float_prefix(r).is_some_and(|(_, n)| r[n..].starts_with(b" s (a = "));
    }
    let Some(us) = find_lit!(t, b" us") else {
        return false;
    };
    let (head, tail) = t.split_at(us);
    let digits = head.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let name = &head[..head.len() - digits];
    let rest = &tail[3..];
    digits > 0
        && name.ends_with(b" ")
        && name_ok(trim(name))
        && (rest.is_empty() || rest.starts_with(b","))
}

/// `t` is `n` whitespace-separated whole numbers and nothing else.
fn numbers(t: &[u8], n: usize) -> bool {
    t.split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .try_fold(0, |k, w| w.iter().all(u8::is_ascii_digit).then_some(k + 1))
        == Some(n)
}

/// `   1:         52496       12345678  [C`: rank, instances, bytes, class name.
fn histogram_row(t: &[u8]) -> bool {
    let Some(colon) = memchr::memchr(b':', t) else {
        return false;
    };
    if !t[..colon].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let mut words = t[colon + 1..]
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    let count = |w: Option<&[u8]>| w.is_some_and(|w| w.iter().all(u8::is_ascii_digit));
    count(words.next()) && count(words.next()) && words.next().is_some()
}

/// CMSDumpAtPromotionFailure's block layout: `0x00000006c5330000: live object of size 12.`
fn dump_block(t: &[u8]) -> bool {
    let Some(r) = t.strip_prefix(b"0x") else {
        return false;
    };
    let hex = r.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    let Some(r) = r[hex..].strip_prefix(b": ") else {
        return false;
    };
    let Some(size) = [
        &b"live object of size "[..],
        b"dead object of size ",
        b"free block of size ",
    ]
    .iter()
    .find_map(|p| r.strip_prefix(*p)) else {
        return false;
    };
    let digits = size.iter().take_while(|b| b.is_ascii_digit()).count();
    hex > 0 && digits > 0 && matches!(&size[digits..], b"." | b":")
}

/// PrintOldPLAB: `0[3]: 6/61264/16` (worker, size, figures) and `[3]: 65`.
fn plab_row(t: &[u8]) -> bool {
    let lead = t.iter().take_while(|b| b.is_ascii_digit()).count();
    let Some(r) = t[lead..].strip_prefix(b"[") else {
        return false;
    };
    let size = r.iter().take_while(|b| b.is_ascii_digit()).count();
    let Some(r) = r[size..].strip_prefix(b"]: ") else {
        return false;
    };
    size > 0
        && !r.is_empty()
        && r.split(|&b| b == b'/').count() <= 3
        && r.split(|&b| b == b'/')
            .all(|w| !w.is_empty() && w.iter().all(u8::is_ascii_digit))
}

/// PrintGCTaskTimeStamps: `[ old-to-young-roots-task 4567 8901 ]`.
fn task_row(t: &[u8]) -> bool {
    let Some(inner) = t.strip_prefix(b"[ ").and_then(|r| r.strip_suffix(b" ]")) else {
        return false;
    };
    let mut w = inner.split(|&b| b == b' ');
    w.next().is_some_and(|n| {
        !n.is_empty()
            && n.iter()
                .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    }) && numbers(
        &inner[inner.iter().position(|&b| b == b' ').unwrap_or(0)..],
        2,
    )
}

/// Lines that follow a `12.345: ` stamp: PrintJNIGCStalls' sentences, a PrintSafepointStatistics
/// row, and PrintParallelOldGCPhaseTimes' `[pre compact, 0.0000390 secs]`.
fn after_stamps(t: &[u8]) -> bool {
    // The stamps end at their last `: ` (a stamp's bytes include the `T` of `Thread`).
    let n = t.iter().take_while(|&&b| is_stamp_byte(b)).count();
    let Some(colon) = memchr::memrchr(b':', &t[..n]) else {
        return false;
    };
    let r = trim(&t[colon + 1..]);
    if r.starts_with(b"Setting _needs_gc. Thread \"")
        || (r.starts_with(b"Allocation failed. Thread \"") && has!(r, b"critical section"))
        || (r.starts_with(b"Thread \"") && has!(r, b"critical section"))
    {
        return true;
    }
    if let Some(d) = r
        .strip_prefix(b"[pre compact, ")
        .and_then(|d| d.strip_suffix(b" secs]"))
    {
        return float_prefix(d).is_some_and(|(_, k)| k == d.len());
    }
    safepoint_row(r)
}

/// `GenCollectForAllocation   [  25   1   1    ]      [  0   0   0   0  20    ]  0`: a VM
/// operation, its threads (three counts), its times (five) and page traps.
fn safepoint_row(r: &[u8]) -> bool {
    let Some(open) = memchr::memchr(b'[', r) else {
        return false;
    };
    let name = trim(&r[..open]);
    if name.is_empty() || !name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b' ') {
        return false;
    }
    // A bracketed group of `n` numbers at the start of `s`: the text after it.
    fn group(s: &[u8], n: usize) -> Option<&[u8]> {
        let s = s.strip_prefix(b"[")?;
        let close = memchr::memchr(b']', s)?;
        numbers(&s[..close], n).then(|| &s[close + 1..])
    }
    group(&r[open..], 3)
        .and_then(|rest| group(trim(rest), 5))
        .is_some_and(|rest| numbers(rest, 1))
}

/// PrintSafepointStatistics' summary at exit: a VM operation and how often it ran
/// (`RevokeBias                         3`, `no vm operation   12`).
fn safepoint_exit_row(t: &[u8]) -> bool {
    let name_end = t.windows(2).position(|w| w == b"  ").unwrap_or(t.len());
    let (name, count) = t.split_at(name_end);
    let op = name.first().is_some_and(u8::is_ascii_uppercase)
        && name.iter().all(u8::is_ascii_alphanumeric);
    (op || name == b"no vm operation") && numbers(count, 1)
}

/// Does `t` hold `[0x`, `GC log file` or `AdaptiveSize` anywhere? One pass over the bytes
/// each ends or turns on (`x`, `f`, `z`; three searches cost 7 % of a G1 log's time, asked
/// of every line of an open event).
fn holds_noise_word(t: &[u8]) -> bool {
    let at = |i: usize, off: usize, w: &[u8]| word_at(t, i, off, w);
    memchr::memchr3_iter(b'x', b'f', b'z', t).any(|i| match t[i] {
        b'x' => at(i, 2, b"[0x"),
        b'f' => at(i, 7, b"GC log file"),
        _ => at(i, 10, b"AdaptiveSize"),
    })
}

#[cfg(test)]
#[path = "hotspot_tests.rs"]
mod tests;
