//! IBM J9 and Eclipse OpenJ9 XML verbose GC logs (`-verbose:gc`, `-Xverbosegclog`).
//!
//! Two generations of the format, one family:
//!
//! - J9 R26 and later, and OpenJ9 (every policy: gencon, balanced, optthruput, optavgpause,
//!   metronome): a stream of top-level elements, each on its own lines. A stop of the world
//!   is the interval from `<exclusive-start timestamp=...>` to `<exclusive-end
//!   durationms=...>`; between them, what the stop did: its trigger (`<af-start>` an
//!   allocation failure, `<sys-start reason="explicit">` `System.gc()`,
//!   `<concurrent-collection-start>` or `<concurrent-global-final>` the stop that ends a
//!   concurrent global collection, `<allocation-taxation>` balanced's), the collection cycle
//!   (`<cycle-start type=...>`), the collections run (`<gc-start type=...>` with the heap
//!   before in `<mem-info free= total=>` and its `<mem type="nursery|tenure|eden|...">`
//!   areas, `<gc-op type="scavenge|mark|sweep|...">`, `<gc-end durationms=...>` with the heap
//!   after), and the rest (`<allocation-stats>`, `<af-end>`, `<cycle-end>`, ...). Outside the
//!   stops: the header (`<initialized>`: the policy, the heap sizes), concurrent work
//!   (`<concurrent-kickoff>`, `<concurrent-start>`...), metronome's `<trigger-start>`,
//!   `<gc-op type="heartbeat">` summaries and `<gc-op type="syncgc">` collections.
//! - J9 5.0 (Java 5 and 6 J9 VMs, `<verbosegc version="200811_07">`): one element per stop,
//!   `<af type="nursery|tenured" id= timestamp="Mar 25 22:40:24 2010">` (an allocation
//!   failure), `<sys>` (`System.gc()`), `<con event="collection">` (the stop that ends a
//!   concurrent mark), holding the heap before (`<nursery freebytes= totalbytes=>`,
//!   `<tenured ...>`), the collections (`<gc type="scavenger|global" totalid=>`), the heap
//!   after, and the stop's time (`<time totalms=...>`). `<con event="kickoff">` and the other
//!   `con` events are concurrent work.
//!
//! Records: one [`Record::Pause`] per stop, duration the stop's (`durationms`, `totalms`):
//! kind by its first collection (`scavenge` young; `global` full; balanced's `partial gc`
//! mixed, its `global mark phase` increments other; J9 5.0's `scavenger` young, `global`
//! full), made full when a later collection of the stop is (as unified logging's young pause
//! with a full one inside); a stop with no collection that starts a global cycle (gencon's
//! stop after a concurrent kickoff) is the cycle's initial mark, any other such stop kind
//! other. Each collection after the first in one stop (a scavenge that percolates to a global
//! collection) is a [`Record::Nested`] row with its own `durationms`. Cause: `Allocation
//! Failure`, `System.gc()` (any other `sys-start` reason as written), `Concurrent
//! collection`, `Allocation taxation`; name: the collection's type as written (`scavenge`,
//! `partial gc`), else the cycle's, else `exclusive-access`. Heap before: the first
//! collection's `mem-info` at its start (used = total − free), after and total: the last
//! collection's at its end (J9 5.0: the stop's own area elements before and after its
//! collections, summed); young before and after: the `nursery` (balanced: `eden`) area's;
//! bytes to KB, to the nearest. A nested row carries no heap figures: the stop's are the
//! pause's, so that the heap's series has one point per stop (a nested row's before, the
//! heap after the collection before it in the same stop, would read as allocation). `gc_id`: the collection's cycle (`contextid`, the
//! `cycle-start` id), which the stops of one concurrent or incremental cycle share (J9 5.0:
//! the collection's `totalid`). Wall clock: the stop's `timestamp` (local time, milliseconds;
//! J9 5.0 whole seconds); the log has no uptime. Collector: the policy the header names
//! (`-Xgcpolicy:gencon` → `gencon`), for the stops after it and, as unified logging's `Using`
//! line, before it.
//!
//! Concurrent work is not a pause and gives no row. Metronome (`-Xgcpolicy:metronome`) writes
//! no stops: its synchronous collection (`<gc-op type="syncgc" timems=...>`, its stamp at
//! its end, its reason in `<syncgc-info>`) is one full pause; its heartbeats summarise many
//! short increments (count, mean, longest) with no one pause to row, so they give none, and
//! the log says so (`model::META_UNCOUNTED`): beside the figures, or as the reason a log of
//! heartbeats alone gives no pause.
//!
//! Reading: lines are gathered into top-level elements (a start tag to its matching end tag,
//! told by a scan of the tags on each line), and each element is read with quick-xml; a log
//! written without line breaks is not read this way, and `on_one_line` lets the loader refuse
//! it by name. Every line is counted once (`GcLog::record_lines`, `ignored_lines`,
//! `skipped_lines`):
//! - record: the lines of a stop that gives a pause (its elements, from `exclusive-start` to
//!   `exclusive-end`; a J9 5.0 element; a `syncgc`).
//! - ignored: blank lines, the XML declaration, comments, `<verbosegc>` and `</verbosegc>`,
//!   the header (`<initialized>`), and the elements outside a stop that carry no pause
//!   (concurrent work, cycles' starts and ends, metronome's triggers and heartbeats, J9 5.0's
//!   other `con` events).
//! - skipped: a stop that gives no pause (cut before its `exclusive-end` with no collection
//!   ended in it, or values that cannot be true: `GcEvent::implausible`); a stop cut before
//!   its end that holds an ended collection is the pause of the time its collections show
//!   (their `durationms` summed), as IBM text's block cut before `completed in`. Skipped too:
//!   an element that is not well-formed XML, or that does not end within `MAX_ELEMENT_LINES`
//!   lines or before the next line starting a top-level element (a stop that runs past
//!   `MAX_STOP_LINES` lines is taken as cut there); an element of a stop seen
//!   outside one (`<gc-start>`, `<exclusive-end>`: the stop's start is lost); an unknown
//!   element outside a stop; text (`...`, application output) and lines of other log
//!   families. Nothing before the damage is lost.

use super::family::{
    Block, BlockParser, Collectors, Family, Foreign, GcFormat, Handle, OwnedStart,
};
use super::limits::{cap_label, float_prefix};
use super::lines::lines;
use super::num::{asctime_prefix, iso_datetime_prefix, kb, trim, uint_prefix, unescape};
use super::settle::Settle;
use crate::model::{GcClock, GcEvent, GcLog, Kind, Record, META_UNCOUNTED};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::sync::LazyLock;

/// The IBM J9 / OpenJ9 XML verbose GC family.
pub const FAMILY: GcFormat = Handle(&J9Xml);

struct J9Xml;

static FOREIGN: LazyLock<Foreign> = LazyLock::new(|| Foreign::to(FAMILY));

/// Lines a top-level element may take: the header's is the longest, a line per JVM argument
/// (a hundred in the samples); a stop's elements take a few dozen.
const MAX_ELEMENT_LINES: u64 = 4096;

/// Bytes a top-level element may take (its lines are kept until it ends).
const MAX_ELEMENT_BYTES: usize = 1 << 20;

/// Lines a stop may take before it is taken as cut (its `exclusive-end` lost): a stop's
/// elements take a few dozen lines, a hundred with a percolated collection.
const MAX_STOP_LINES: u64 = 1 << 16;

/// Run metadata entries kept (the header's few).
const MAX_META: usize = 64;

impl Family for J9Xml {
    fn name(&self) -> &'static str {
        "j9-xml"
    }
    fn about(&self) -> &'static str {
        "IBM J9 and OpenJ9 XML verbose GC (`-Xverbosegclog`)"
    }

    /// A start tag of an element only this format writes (`<exclusive-start`, `<gc-start`,
    /// `<mem-info`, J9 5.0's `<af `, `<tenured `...), or its root `<verbosegc`.
    fn recognises(&self, line: &[u8]) -> bool {
        own_tag(trim(line))
    }

    /// A stop's start (`<exclusive-start`, J9 5.0's `<af`, `<sys`, `<con`), the header, or
    /// metronome's trigger (its log has no stops).
    fn safe_start(&self, line: &[u8]) -> bool {
        let t = trim(line);
        tag_name(t).is_some_and(|n| {
            matches!(
                n,
                b"exclusive-start" | b"initialized" | b"af" | b"sys" | b"con" | b"trigger-start"
            )
        }) && t.first() == Some(&b'<')
    }

    fn block_parser(&self, events: Vec<GcEvent>, flush_at: usize) -> Box<dyn BlockParser> {
        Box::new(Parser {
            log: GcLog::reusing(events),
            settle: Settle::every(flush_at),
            ..Parser::default()
        })
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"<")
    }

    fn owns(&self, line: &[u8]) -> bool {
        line.first() == Some(&b'<') && own_tag(line)
    }

    /// `2013-08-15T11:15:45.897` stamps: local time, milliseconds (J9 5.0's whole seconds).
    fn clock(&self) -> GcClock {
        GcClock {
            writes_offset: false,
            undated_is_utc: false,
            whole_seconds: false,
        }
    }
}

/// Elements that are top-level only: a line starting with one ends an element left open.
const TOP_ONLY: &[&[u8]] = &[
    b"verbosegc",
    b"initialized",
    b"exclusive-start",
    b"exclusive-end",
    b"af-start",
    b"af-end",
    b"sys-start",
    b"sys-end",
    b"cycle-start",
    b"cycle-end",
    b"gc-start",
    b"gc-end",
    b"gc-op",
    b"allocation-stats",
    b"allocation-satisfied",
    b"allocation-taxation",
    b"concurrent-kickoff",
    b"concurrent-collection-start",
    b"concurrent-collection-end",
    b"concurrent-global-final",
    b"af",
    b"sys",
];

/// What metronome's heartbeats are, said where a log has them (`model::META_UNCOUNTED`).
const HEARTBEATS: &str = "metronome's heartbeats give its quanta (its pauses) only as a count, mean and longest each, so they are not counted as pauses: only its synchronous collections (syncgc) are";

/// Top-level elements outside a stop that carry no pause: concurrent work, cycles, metronome's
/// triggers and heartbeats, notices.
const OUTSIDE: &[&[u8]] = &[
    b"cycle-start",
    b"cycle-end",
    b"concurrent-kickoff",
    b"concurrent-halted",
    b"concurrent-aborted",
    b"concurrent-start",
    b"concurrent-end",
    b"concurrent-collection-end",
    b"concurrent-rs-scan",
    b"concurrent-trace-info",
    b"trigger-start",
    b"trigger-end",
    b"heap-resize",
    b"excessive-gc-raised",
    b"out-of-memory",
    b"utilization-tracker-overflow",
    b"non-monotonic-time",
    b"warning",
    b"event",
    b"allocation-stats",
];

/// Names of elements nested in the top-level ones, only this format writes.
const NESTED: &[&[u8]] = &[
    b"mem-info",
    b"mem",
    b"response-info",
    b"memory-copied",
    b"memory-traced",
    b"scavenger-info",
    b"trace-info",
    b"remembered-set",
    b"pending-finalizers",
    b"allocated-bytes",
    b"largest-consumer",
    b"classunload-info",
    b"references",
    b"kickoff",
    b"vmargs",
    b"vmarg",
    b"tenured",
    b"nursery",
    b"soa",
    b"loa",
    b"refs_cleared",
    b"timesms",
    b"classloadersunloaded",
    b"quanta",
    b"exclusiveaccess-info",
    b"syncgc-info",
    b"free-mem",
    b"free-mem-delta",
    b"thread-priority",
    b"finalization",
    b"work-packet-overflow",
    b"nondeterministic-sweep",
    b"metronome",
    b"gc",
];

/// A log written without line breaks (an XML tool's re-save): `<verbosegc>` and its stops on
/// one of the head's first lines. Its elements are gathered a line at a time, so such a file
/// is refused by name rather than found empty.
pub fn on_one_line(head: &[u8]) -> bool {
    const STOPS: [&[u8]; 5] = [b"<exclusive-start", b"<af ", b"<sys ", b"<con ", b"<gc-op "];
    lines(head).take(8).any(|(_, l)| {
        super::num::contains(l, b"<verbosegc") && STOPS.iter().any(|s| super::num::contains(l, s))
    })
}

/// The name of the tag `t` starts with (`<name`, `</name`), if it is one.
fn tag_name(t: &[u8]) -> Option<&[u8]> {
    let r = t.strip_prefix(b"</").or_else(|| t.strip_prefix(b"<"))?;
    let n = r
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
        .count();
    if n == 0 || !matches!(r.get(n), None | Some(b' ' | b'\t' | b'>' | b'/')) {
        return None;
    }
    r.get(..n)
}

/// A start tag of this format's own (`t` trimmed).
fn own_tag(t: &[u8]) -> bool {
    if t.get(1) == Some(&b'/') {
        return false;
    }
    tag_name(t).is_some_and(|n| {
        (TOP_ONLY.contains(&n) || NESTED.contains(&n) || n == b"con") && distinct(n, t)
    })
}

/// `<af `, `<sys `, `<con `, `<gc `, `<mem `: short names, taken only with the attributes this
/// format gives them.
fn distinct(n: &[u8], t: &[u8]) -> bool {
    match n {
        b"af" | b"gc" | b"mem" => super::num::find(t, b" type=\"").is_some(),
        b"sys" => super::num::find(t, b" id=\"").is_some(),
        b"con" => super::num::find(t, b" event=\"").is_some(),
        _ => true,
    }
}

impl BlockParser for Parser {
    fn feed(&mut self, block: &[u8]) {
        Parser::feed(self, block);
    }
    fn idle(&self) -> bool {
        self.unit.is_none() && self.stop.is_none() && !self.comment
    }
    fn consulted(&self) -> bool {
        self.consulted
    }
    fn finish(self: Box<Self>) -> Block {
        let mut p = *self;
        p.end();
        let cols = p.settle.cols();
        let collectors = Collectors {
            last: p.collector,
            first: p.first_collector,
            hints: 0,
        };
        Block {
            log: p.log,
            cols,
            collectors: Some(collectors),
        }
    }
}

/// The tag scan of an element's lines: how deep the element is, and a tag or comment left open
/// at a line's end.
#[derive(Clone, Copy, Default)]
struct Scan {
    depth: i64,
    /// Inside a tag: the quote open in it, if any; whether it is an end tag or a declaration.
    tag: Option<Tag>,
    comment: bool,
}

#[derive(Clone, Copy)]
struct Tag {
    quote: Option<u8>,
    end: bool,
    decl: bool,
    /// The last byte before `>` that is not white space.
    last: u8,
}

impl Scan {
    /// Scan one line; false if it holds text outside the tags (not this format's).
    fn line(&mut self, l: &[u8]) -> bool {
        let mut i = 0;
        let mut clean = true;
        while i < l.len() {
            if self.comment {
                match super::num::find(&l[i..], b"-->") {
                    Some(k) => {
                        self.comment = false;
                        i += k + 3;
                        continue;
                    }
                    None => return clean,
                }
            }
            if let Some(mut t) = self.tag {
                let b = l[i];
                i += 1;
                match t.quote {
                    Some(q) if b == q => t.quote = None,
                    Some(_) => {}
                    None => match b {
                        b'"' | b'\'' => t.quote = Some(b),
                        b'>' => {
                            self.tag = None;
                            if !t.end && !t.decl && t.last != b'/' {
                                self.depth += 1;
                            }
                            continue;
                        }
                        b' ' | b'\t' => {}
                        _ => t.last = b,
                    },
                }
                self.tag = Some(t);
                continue;
            }
            let b = l[i];
            if b == b'<' {
                let r = &l[i..];
                if r.starts_with(b"<!--") {
                    self.comment = true;
                    i += 4;
                    continue;
                }
                let (end, decl) = match r.get(1) {
                    Some(b'/') => (true, false),
                    Some(b'?' | b'!') => (false, true),
                    _ => (false, false),
                };
                if end {
                    self.depth -= 1;
                }
                self.tag = Some(Tag {
                    quote: None,
                    end,
                    decl,
                    last: b'<',
                });
                i += 1;
                continue;
            }
            if !matches!(b, b' ' | b'\t' | 0) {
                clean = false;
            }
            i += 1;
        }
        clean
    }

    fn closed(&self) -> bool {
        self.depth <= 0 && self.tag.is_none() && !self.comment
    }
}

/// A top-level element being gathered.
struct Unit {
    name: Vec<u8>,
    line: u64,
    lines: u64,
    bytes: Vec<u8>,
    scan: Scan,
}

impl Unit {
    /// The element's first line, for the report if its lines are skipped.
    fn first_line(&self) -> &[u8] {
        self.bytes.split(|&b| b == b'\n').next().unwrap_or_default()
    }
}

/// A heap's figures, bytes: in use, the total, the young area's in use.
#[derive(Clone, Copy, Default)]
struct Heap {
    used: Option<u64>,
    total: Option<u64>,
    young: Option<u64>,
}

/// One collection of a stop.
struct Gc {
    kind: Kind,
    name: u32,
    id: Option<u64>,
    wall: Option<i64>,
    before: Heap,
    after: Heap,
    /// `durationms` at its end (None: not ended).
    ms: Option<f64>,
}

/// The stop open (from its `exclusive-start`).
struct Stop {
    line: u64,
    /// Its lines read so far (counted when it closes).
    lines: u64,
    text: Vec<u8>,
    wall: Option<i64>,
    cause: u32,
    gcs: Vec<Gc>,
    /// A `cycle-start` in it: global, and its id.
    cycle: Option<(bool, Option<u64>, u32)>,
}

/// Reads a log line by line; fed block by block when streamed (see `stream`).
#[derive(Default)]
pub struct Parser {
    log: GcLog,
    unit: Option<Unit>,
    stop: Option<Stop>,
    /// A comment open at the top level.
    comment: bool,
    /// A stop, the header or a J9 5.0 element was started in what this parser read.
    seen_head: bool,
    /// Lines that belong to an element or stop begun before this parser's lines were read.
    consulted: bool,
    /// The policy the header names (string id; 0: none yet), and the first named.
    collector: u32,
    first_collector: u32,
    /// A metronome heartbeat was read (and said as uncounted).
    heartbeats: bool,
    settle: Settle,
}

impl Parser {
    fn feed(&mut self, buf: &[u8]) {
        let base = self.log.lines;
        let mut it = lines(buf);
        let mut empty = 0u64;
        while let Some((no, line)) = it.next_after_empty(&mut empty) {
            self.log.ignored_lines += std::mem::take(&mut empty);
            self.line(base + no, line);
            let held = self.log.events.len();
            // An event is final once pushed: every one held may go, once they have their
            // collector (the join gives the ones before the block's naming the one the blocks
            // before left, in the events it holds, not in its columns).
            let named = self.log.events.first().is_some_and(|e| e.collector != 0);
            if named && self.settle.due(held) && self.settle.worth(held, held) {
                self.settle.take(&mut self.log.events, held);
            }
        }
        self.log.ignored_lines += empty;
        self.log.lines = base + it.line_no();
    }

    /// The log's end: what is open closes as cut.
    fn end(&mut self) {
        if let Some(u) = self.unit.take() {
            self.skip_unit(&u);
        }
        self.close_stop(None);
    }

    /// A line not of the format: skipped, and a sign the lines before mattered if no head was
    /// read yet.
    fn skip(&mut self, no: u64, raw: &[u8]) {
        self.consulted |= !self.seen_head;
        self.log.skip(no, raw);
    }

    fn line(&mut self, no: u64, raw: &[u8]) {
        let t = trim(raw);
        if t.is_empty() {
            self.log.ignored_lines += 1;
            return;
        }
        if self.unit.is_some() {
            self.unit_line(no, raw, t);
            return;
        }
        if self.comment {
            self.log.ignored_lines += 1;
            let mut s = Scan {
                comment: true,
                ..Scan::default()
            };
            s.line(t);
            self.comment = s.comment;
            return;
        }
        self.top_line(no, raw, t);
    }

    /// A line at the top level (no element open).
    fn top_line(&mut self, no: u64, raw: &[u8], t: &[u8]) {
        if t.starts_with(b"<?xml") {
            self.log.ignored_lines += 1;
            return;
        }
        if t.starts_with(b"<!--") {
            self.log.ignored_lines += 1;
            let mut s = Scan::default();
            s.line(t);
            self.comment = s.comment;
            return;
        }
        let Some(name) = tag_name(t) else {
            self.skip(no, raw);
            return;
        };
        if name == b"verbosegc" {
            self.log.ignored_lines += 1;
            return;
        }
        let known = TOP_ONLY.contains(&name) || OUTSIDE.contains(&name) || name == b"con";
        let mut scan = Scan::default();
        if t.starts_with(b"</")
            || FOREIGN.test(t)
            || (!known && self.stop.is_none())
            || !scan.line(t)
        {
            self.skip(no, raw);
            return;
        }
        self.seen_head |= matches!(
            name,
            b"exclusive-start" | b"initialized" | b"af" | b"sys" | b"con"
        );
        let u = Unit {
            name: name.to_vec(),
            line: no,
            lines: 1,
            bytes: [t, b"\n"].concat(),
            scan,
        };
        if scan.closed() {
            self.unit_done(u);
        } else {
            self.unit = Some(u);
        }
    }

    /// A line while an element is open.
    fn unit_line(&mut self, no: u64, raw: &[u8], t: &[u8]) {
        let Some(mut u) = self.unit.take() else {
            return;
        };
        let in_tag = u.scan.tag.is_some() || u.scan.comment;
        // A top-level element's start: the open one never ended (a cut, a lost line, a quote
        // lost in a tag, which the format writes on one line).
        if !u.scan.comment
            && tag_name(t).is_some_and(|n| TOP_ONLY.contains(&n))
            && t.get(1) != Some(&b'/')
        {
            self.skip_unit(&u);
            self.top_line(no, raw, t);
            return;
        }
        let mut scan = u.scan;
        // A foreign line between tags, or text inside the element: a line of something else.
        if (!in_tag && FOREIGN.test(t)) || !scan.line(t) {
            self.log.skip(no, raw);
            self.unit = Some(u);
            return;
        }
        u.scan = scan;
        u.lines += 1;
        u.bytes.extend_from_slice(t);
        u.bytes.push(b'\n');
        if u.scan.closed() {
            self.unit_done(u);
        } else if u.lines >= MAX_ELEMENT_LINES || u.bytes.len() > MAX_ELEMENT_BYTES {
            self.skip_unit(&u);
        } else {
            self.unit = Some(u);
        }
    }

    /// An element's lines skipped.
    fn skip_unit(&mut self, u: &Unit) {
        self.consulted |= !self.seen_head;
        self.log.skip_lines(u.line, u.lines, u.first_line());
    }

    /// A top-level element read whole.
    fn unit_done(&mut self, u: Unit) {
        let Some(els) = elements(&u.bytes).filter(|e| e.first().is_some_and(|r| r.name == u.name))
        else {
            self.skip_unit(&u);
            return;
        };
        let root = &els[0];
        let name = u.name.as_slice();
        match name {
            b"initialized" => {
                self.header(&els);
                self.log.ignored_lines += u.lines;
            }
            b"exclusive-start" => {
                self.close_stop(None);
                let wall = root.attr(b"timestamp").and_then(wall_clock);
                self.stop = Some(Stop {
                    line: u.line,
                    lines: u.lines,
                    text: u.bytes[..u.bytes.len().min(204)].to_vec(),
                    wall,
                    cause: 0,
                    gcs: Vec::new(),
                    cycle: None,
                });
            }
            b"af" | b"sys" => self.j9_50(&u, &els, name),
            b"con" if root.attr(b"event") == Some(b"collection") => self.j9_50(&u, &els, name),
            b"con" if self.stop.is_none() => self.log.ignored_lines += u.lines,
            _ if self.stop.is_some() => self.stop_element(&u, &els),
            b"gc-op" if root.attr(b"type") == Some(b"syncgc") => self.syncgc(&u, &els),
            b"gc-op" if root.attr(b"type") == Some(b"heartbeat") => {
                self.log.ignored_lines += u.lines;
                if !self.heartbeats {
                    self.heartbeats = true;
                    self.meta(META_UNCOUNTED, HEARTBEATS.as_bytes());
                }
            }
            _ if OUTSIDE.contains(&name) => self.log.ignored_lines += u.lines,
            // An element of a stop without its stop, or one this reading does not know.
            _ => self.skip_unit(&u),
        }
    }

    /// An element inside the open stop.
    fn stop_element(&mut self, u: &Unit, els: &[El]) {
        let root = &els[0];
        match u.name.as_slice() {
            b"exclusive-end" => {
                let Some(d) = root.attr(b"durationms").and_then(ms) else {
                    self.skip_unit(u);
                    return;
                };
                if let Some(s) = self.stop.as_mut() {
                    s.lines += u.lines;
                }
                self.close_stop(Some(d));
                return;
            }
            b"gc-end" => {
                let Some(d) = root.attr(b"durationms").and_then(ms) else {
                    self.skip_unit(u);
                    return;
                };
                let after = heap(els);
                let id = root.attr(b"contextid").and_then(uint);
                let kind = root.attr(b"type").map(gc_kind);
                let open = self
                    .stop
                    .as_mut()
                    .and_then(|s| s.gcs.last_mut())
                    .filter(|g| g.ms.is_none() && g.id == id);
                match open {
                    Some(g) => {
                        g.after = after;
                        g.ms = Some(d);
                    }
                    None => {
                        let name = self.name_of(root.attr(b"type"));
                        if let Some(s) = self.stop.as_mut() {
                            s.gcs.push(Gc {
                                kind: kind.unwrap_or(Kind::Other),
                                name,
                                id,
                                wall: None,
                                before: Heap::default(),
                                after,
                                ms: Some(d),
                            });
                        }
                    }
                }
            }
            b"gc-op" if root.attr(b"type") == Some(b"syncgc") => {
                let g = self.syncgc_of(els);
                if let (Some(g), Some(s)) = (g, self.stop.as_mut()) {
                    s.gcs.push(g);
                }
            }
            b"gc-start" => {
                let g = Gc {
                    kind: root.attr(b"type").map_or(Kind::Other, gc_kind),
                    name: self.name_of(root.attr(b"type")),
                    id: root.attr(b"contextid").and_then(uint),
                    wall: root.attr(b"timestamp").and_then(wall_clock),
                    before: heap(els),
                    after: Heap::default(),
                    ms: None,
                };
                if let Some(s) = self.stop.as_mut() {
                    s.gcs.push(g);
                }
            }
            b"cycle-start" => {
                let ty = root.attr(b"type");
                let global = ty == Some(b"global");
                let id = root.attr(b"id").and_then(uint);
                let name = self.name_of(ty);
                if let Some(s) = self.stop.as_mut() {
                    s.cycle = s.cycle.or(Some((global, id, name)));
                }
            }
            b"af-start" => self.cause("Allocation Failure"),
            b"sys-start" => match root.attr(b"reason") {
                Some(b"explicit") | None => self.cause("System.gc()"),
                r => {
                    let id = self.name_of(r);
                    self.set_cause(id);
                }
            },
            b"concurrent-collection-start" | b"concurrent-global-final" => {
                self.cause("Concurrent collection")
            }
            b"allocation-taxation" => self.cause("Allocation taxation"),
            _ => {}
        }
        let long = self.stop.as_mut().is_some_and(|s| {
            s.lines += u.lines;
            s.lines >= MAX_STOP_LINES
        });
        if long {
            self.close_stop(None);
        }
    }

    /// Metronome's synchronous collection outside a stop: the application stopped for all of
    /// it (`timems`), one pause.
    fn syncgc(&mut self, u: &Unit, els: &[El]) {
        let Some(g) = self.syncgc_of(els) else {
            self.skip_unit(u);
            return;
        };
        let mut p = GcEvent::new(Record::Pause, g.kind, g.ms.unwrap_or(0.0), u.line);
        p.wall_ms = g.wall;
        p.name = g.name;
        p.gc_id = g.id;
        p.collector = self.collector;
        p.cause = self.syncgc_cause(els);
        self.push_stop(vec![p], u.line, u.lines, u.first_line());
    }

    /// A `syncgc` as a collection: full, its time `timems`, its start the stamp (written at
    /// its end) less that time. Heap figures stay empty: the element gives free bytes only,
    /// and metronome's total is not in the log.
    fn syncgc_of(&mut self, els: &[El]) -> Option<Gc> {
        let root = els.first()?;
        let d = root.attr(b"timems").and_then(ms)?;
        let cause = self.syncgc_cause(els);
        self.set_cause(cause);
        Some(Gc {
            kind: Kind::Full,
            name: self.log.strings.intern("syncgc"),
            id: root.attr(b"contextid").and_then(uint),
            wall: root
                .attr(b"timestamp")
                .and_then(wall_clock)
                .map(|end| end - d.round() as i64),
            before: Heap::default(),
            after: Heap::default(),
            ms: Some(d),
        })
    }

    /// The reason `syncgc-info` gives (`out of memory`, `system garbage collect`), interned.
    fn syncgc_cause(&mut self, els: &[El]) -> u32 {
        let reason = els
            .iter()
            .find(|e| e.depth == 1 && e.name == b"syncgc-info")
            .and_then(|e| e.attr(b"reason"));
        self.name_of(reason)
    }

    fn cause(&mut self, c: &str) {
        let id = self.log.strings.intern(c);
        self.set_cause(id);
    }

    /// The open stop's cause, unless it has one.
    fn set_cause(&mut self, id: u32) {
        if let Some(s) = self.stop.as_mut().filter(|s| s.cause == 0) {
            s.cause = id;
        }
    }

    /// A collection or cycle type as the log writes it, interned.
    fn name_of(&mut self, ty: Option<&[u8]>) -> u32 {
        ty.map_or(0, |t| {
            self.log.strings.intern_lossy(cap_label(trim(&unescape(t))))
        })
    }

    /// The header: the policy and heap sizes.
    fn header(&mut self, els: &[El]) {
        for e in els
            .iter()
            .filter(|e| e.depth == 1 && e.name == b"attribute")
        {
            let (Some(n), Some(v)) = (e.attr(b"name"), e.attr(b"value")) else {
                continue;
            };
            let key = match n {
                b"maxHeapSize" => "max_heap_size_kb",
                b"initialHeapSize" => "heap_size_kb",
                b"gcPolicy" => {
                    let v = unescape(v);
                    let p = trim(&v);
                    let p = p.strip_prefix(b"-Xgcpolicy:").unwrap_or(p);
                    if p.is_empty() {
                        continue;
                    }
                    let p = cap_label(p);
                    self.collector = self.log.strings.intern_lossy(p);
                    if self.first_collector == 0 {
                        self.first_collector = self.collector;
                    }
                    self.meta("collector", p);
                    continue;
                }
                _ => continue,
            };
            let Some(bytes) = hex(v) else { continue };
            self.meta(key, kb(bytes).to_string().as_bytes());
        }
    }

    fn meta(&mut self, key: &str, value: &[u8]) {
        if self.log.meta.len() < MAX_META {
            self.log
                .meta
                .push((key.to_owned(), String::from_utf8_lossy(value).into_owned()));
        }
    }

    /// The open stop ends: with its `exclusive-end`'s duration, or cut (`None`).
    fn close_stop(&mut self, end: Option<f64>) {
        let Some(s) = self.stop.take() else {
            return;
        };
        let ended: Vec<&Gc> = s.gcs.iter().filter(|g| g.ms.is_some()).collect();
        let d = match end {
            Some(d) => d,
            None if !ended.is_empty() => ended.iter().filter_map(|g| g.ms).sum(),
            None => {
                self.log.skip_lines(s.line, s.lines, &s.text);
                return;
            }
        };
        let (kind, name, id) = match ended.first() {
            Some(g) => (g.kind, g.name, g.id),
            None => match s.cycle {
                Some((true, id, name)) => (Kind::InitialMark, name, id),
                Some((false, id, name)) => (Kind::Other, name, id),
                None => (
                    Kind::Other,
                    self.log.strings.intern("exclusive-access"),
                    None,
                ),
            },
        };
        let mut p = GcEvent::new(Record::Pause, kind, d, s.line);
        if ended.iter().skip(1).any(|g| g.kind == Kind::Full) {
            p.kind = Kind::Full;
        }
        p.wall_ms = s.wall;
        p.cause = s.cause;
        p.name = name;
        p.gc_id = id;
        p.collector = self.collector;
        if let (Some(first), Some(last)) = (ended.first(), ended.last()) {
            set_heap(&mut p, &first.before, &last.after);
        }
        let mut out = vec![p];
        for g in ended.iter().skip(1) {
            let mut e = GcEvent::new(Record::Nested, g.kind, g.ms.unwrap_or(0.0), s.line);
            e.wall_ms = g.wall.or(s.wall);
            e.cause = s.cause;
            e.name = g.name;
            e.gc_id = g.id;
            e.collector = self.collector;
            out.push(e);
        }
        self.push_stop(out, s.line, s.lines, &s.text);
    }

    /// A stop's rows pushed, its lines record lines; or, if one cannot be true, its lines
    /// skipped.
    fn push_stop(&mut self, out: Vec<GcEvent>, line: u64, lines: u64, text: &[u8]) {
        if out.iter().any(|e| e.implausible().is_some()) {
            self.log.skip_lines(line, lines, text);
            return;
        }
        self.log.events.extend(out);
        self.log.record_lines += lines;
    }

    /// A J9 5.0 stop: `<af>`, `<sys>`, `<con event="collection">`.
    fn j9_50(&mut self, u: &Unit, els: &[El], name: &[u8]) {
        // A J9 5.0 stop inside an R26 one: the latter is cut.
        self.close_stop(None);
        let root = &els[0];
        let mut before = Areas::default();
        let mut after = Areas::default();
        let mut total_ms = None;
        let mut gcs: Vec<(Kind, u32, Option<u64>, Option<f64>)> = Vec::new();
        let mut i = 1;
        while let Some(e) = els.get(i) {
            i += 1;
            if e.depth != 1 {
                continue;
            }
            match e.name.as_slice() {
                b"nursery" | b"tenured" if gcs.is_empty() => before.add(e),
                b"nursery" | b"tenured" => after.add(e),
                b"time" => total_ms = e.attr(b"totalms").and_then(ms).or(total_ms),
                b"gc" => {
                    let ty = e.attr(b"type");
                    let kind = match ty {
                        Some(b"scavenger") => Kind::Young,
                        Some(b"global") => Kind::Full,
                        _ => Kind::Other,
                    };
                    let id = e.attr(b"totalid").and_then(uint);
                    let mut d = None;
                    // Its own time: `<time totalms>` (scavenger) or `<timesms total>`.
                    while let Some(c) = els.get(i).filter(|c| c.depth > 1) {
                        i += 1;
                        if c.depth != 2 {
                            continue;
                        }
                        match c.name.as_slice() {
                            b"time" => d = d.or(c.attr(b"totalms").and_then(ms)),
                            b"timesms" => d = d.or(c.attr(b"total").and_then(ms)),
                            _ => {}
                        }
                    }
                    let n = self.name_of(ty);
                    gcs.push((kind, n, id, d));
                    // The areas after the last collection are the heap after.
                    after = Areas::default();
                }
                _ => {}
            }
        }
        let Some(d) = total_ms.or_else(|| {
            let s: Vec<f64> = gcs.iter().filter_map(|g| g.3).collect();
            (!s.is_empty()).then(|| s.iter().sum())
        }) else {
            self.skip_unit(u);
            return;
        };
        let cause = match name {
            b"af" => "Allocation Failure",
            b"sys" => "System.gc()",
            _ => "Concurrent collection",
        };
        let cause = self.log.strings.intern(cause);
        let kind = match gcs.first() {
            Some(g) => g.0,
            None => match root.attr(b"type") {
                Some(b"nursery") => Kind::Young,
                Some(b"tenured") => Kind::Full,
                _ => Kind::Other,
            },
        };
        let name_id = match gcs.first() {
            Some(g) if g.1 != 0 => g.1,
            _ => self.log.strings.intern_lossy(name),
        };
        let mut p = GcEvent::new(Record::Pause, kind, d, u.line);
        if gcs.iter().skip(1).any(|g| g.0 == Kind::Full) {
            p.kind = Kind::Full;
        }
        p.wall_ms = root.attr(b"timestamp").and_then(wall_clock);
        p.cause = cause;
        p.name = name_id;
        p.gc_id = gcs.first().and_then(|g| g.2);
        p.collector = self.collector;
        set_heap(&mut p, &before.heap(), &after.heap());
        let mut out = vec![p];
        for g in gcs.iter().skip(1) {
            let Some(gd) = g.3 else { continue };
            let mut e = GcEvent::new(Record::Nested, g.0, gd, u.line);
            e.wall_ms = out[0].wall_ms;
            e.cause = cause;
            e.name = g.1;
            e.gc_id = g.2;
            e.collector = self.collector;
            out.push(e);
        }
        self.push_stop(out, u.line, u.lines, u.first_line());
    }
}

/// J9 5.0's area elements (`<nursery freebytes= totalbytes=>`, `<tenured ...>`) summed.
#[derive(Default)]
struct Areas {
    free: u64,
    total: u64,
    young: Option<u64>,
    any: bool,
    bad: bool,
}

impl Areas {
    fn add(&mut self, e: &El) {
        let (Some(f), Some(t)) = (
            e.attr(b"freebytes").and_then(uint),
            e.attr(b"totalbytes").and_then(uint),
        ) else {
            self.bad = true;
            return;
        };
        match (self.free.checked_add(f), self.total.checked_add(t)) {
            (Some(a), Some(b)) => (self.free, self.total) = (a, b),
            _ => self.bad = true,
        }
        if e.name == b"nursery" {
            self.young = t.checked_sub(f);
        }
        self.any = true;
    }
    fn heap(&self) -> Heap {
        if !self.any || self.bad {
            return Heap::default();
        }
        Heap {
            used: self.total.checked_sub(self.free),
            total: Some(self.total),
            young: self.young,
        }
    }
}

fn set_heap(e: &mut GcEvent, before: &Heap, after: &Heap) {
    e.heap_before_kb = before.used.map(kb);
    e.heap_after_kb = after.used.map(kb);
    e.heap_total_kb = after.total.map(kb);
    e.young_before_kb = before.young.map(kb);
    e.young_after_kb = after.young.map(kb);
}

/// The heap of an element's `<mem-info free= total=>` (the first), with its young area (a
/// `<mem type="nursery">` or, balanced, `type="eden"` right in it).
fn heap(els: &[El]) -> Heap {
    let Some(i) = els.iter().position(|e| e.name == b"mem-info") else {
        return Heap::default();
    };
    let mi = &els[i];
    let used = |e: &El| -> Option<u64> {
        let f = e.attr(b"free").and_then(uint)?;
        let t = e.attr(b"total").and_then(uint)?;
        t.checked_sub(f)
    };
    let young = els
        .get(i + 1..)
        .unwrap_or_default()
        .iter()
        .take_while(|e| e.depth > mi.depth)
        .find(|e| {
            e.depth == mi.depth + 1
                && e.name == b"mem"
                && matches!(e.attr(b"type"), Some(b"nursery" | b"eden"))
        })
        .and_then(used);
    let u = used(mi);
    Heap {
        used: u,
        total: u.and(mi.attr(b"total").and_then(uint)),
        young,
    }
}

/// A collection type's kind.
fn gc_kind(t: &[u8]) -> Kind {
    match t {
        b"scavenge" | b"concurrent-scavenge" => Kind::Young,
        b"global" | b"global garbage collect" => Kind::Full,
        b"partial gc" => Kind::Mixed,
        _ => Kind::Other,
    }
}

/// One element of a top-level one: its depth (the top-level one 0), name and attributes (raw
/// values).
struct El {
    depth: u32,
    name: Vec<u8>,
    attrs: Vec<(Vec<u8>, Vec<u8>)>,
}

impl El {
    fn attr(&self, k: &[u8]) -> Option<&[u8]> {
        self.attrs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_slice())
    }
}

/// The elements of a top-level element's bytes, in document order; `None` where they are not
/// well-formed XML (or hold more than one top-level element).
fn elements(b: &[u8]) -> Option<Vec<El>> {
    let mut r = Reader::from_reader(b);
    let mut out = Vec::new();
    let mut depth = 0u32;
    let mut roots = 0;
    loop {
        let ev = r.read_event().ok()?;
        match &ev {
            Event::Start(e) | Event::Empty(e) => {
                roots += u32::from(depth == 0);
                out.push(element(e, depth)?);
                depth += u32::from(matches!(ev, Event::Start(_)));
            }
            Event::End(_) => depth = depth.checked_sub(1)?,
            Event::Text(t) if t.iter().any(|b| !b.is_ascii_whitespace()) => return None,
            Event::Eof => break,
            _ => {}
        }
    }
    (depth == 0 && roots == 1).then_some(out)
}

fn element(e: &BytesStart<'_>, depth: u32) -> Option<El> {
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.ok()?;
        attrs.push((a.key.as_ref().to_vec(), a.value.into_owned()));
    }
    Some(El {
        depth,
        name: e.name().as_ref().to_vec(),
        attrs,
    })
}

/// A figure in ms (`5.290`), the whole value.
fn ms(v: &[u8]) -> Option<f64> {
    let v = trim(v);
    let (d, n) = float_prefix(v)?;
    (n == v.len() && d.is_finite() && d >= 0.0).then_some(d)
}

/// An unsigned figure of at most 20 digits, the whole value.
fn uint(v: &[u8]) -> Option<u64> {
    let v = trim(v);
    let (x, n) = uint_prefix(v).filter(|_| v.len() <= 20)?;
    (n == v.len()).then_some(x)
}

/// `0x40000000`.
fn hex(v: &[u8]) -> Option<u64> {
    let h = trim(v).strip_prefix(b"0x")?;
    if h.is_empty() || h.len() > 16 {
        return None;
    }
    u64::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
}

/// A stamp: `2013-08-15T11:15:45.897` (R26 on), `Mar 25 22:40:24 2010` (J9 5.0), or with the
/// day's name before it, `Tue Mar 25 22:40:24 2010`.
fn wall_clock(v: &[u8]) -> Option<i64> {
    let v = trim(v);
    if let Some((w, n)) = iso_datetime_prefix(v) {
        return (n == v.len() && w <= super::limits::MAX_WALL_MS).then_some(w);
    }
    let (w, n) = if v.len() == 20 {
        let (w, n) = asctime_prefix(&[b"Www ", v].concat())?;
        (w, n.checked_sub(4)?)
    } else {
        asctime_prefix(v)?
    };
    (n == v.len() && w <= super::limits::MAX_WALL_MS).then_some(w)
}

#[cfg(test)]
#[path = "j9_xml_tests.rs"]
mod tests;
