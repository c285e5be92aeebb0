//! IBM JDK 1.4.2 text verbose GC logs (`-verbose:gc`, before J9's XML).
//!
//! The log is a run of blocks, one per stop of the world, each line a tag, `<AF[n]: ...>`,
//! `<GC(n): ...>`, `<CON[n]: ...>`, indented or not:
//!
//! ```text
//! <AF[3]: Allocation Failure. need 528 bytes, 9871 ms since last AF or CON>
//! <AF[3]: managing allocation failure, action=0 (2097152/536870912)>
//! <GC(3): Bytes Traced =0 (Foreground: 0+ Background: 0) State = 3 >
//!   <GC(3): GC cycle started Tue Mar 13 09:41:21 2007
//!   <GC(3): freed 267911000 bytes, 50% free (270008152/536870912), in 158 ms>
//!   <GC(3): mark: 139 ms, sweep: 19 ms, compact: 0 ms>
//!   <GC(3): refs: soft 0 (age >= 32), weak 5, final 88, phantom 0>
//! <AF[3]: completed in 166 ms>
//! ```
//!
//! A block opens with its head: an allocation failure (`<AF[n]: Allocation Failure. ...>`),
//! the stop that ends a concurrent mark (`<CON[n]: Concurrent collection, (free/total) ...>`)
//! or an explicit collection (`<SYS[n]: ...>`: no sample of it in the corpus; any `SYS` line
//! that is not one of the block's own lines below opens one). It closes with
//! `<AF[n]: completed in N ms>`, the whole stop. Between them: `managing allocation failure,
//! action=K (free/total)` lines (the heap at the failure; with a second `(free/total)` pair,
//! the wilderness / large-object area apart from the rest, the heap being their sum; the ones
//! after the GC say what the failure did next: expand the heap, clear soft references, give
//! up), `insufficient heap space ...`, `<CON[n]: Concurrent collection, action=K ...>`, and the
//! collection's `<GC(m): ...>` lines (`m` counts collections, `n` failures): `GC cycle started
//! <asctime>`, `freed N bytes, P% free (free/total), in N ms`, and the rest (mark / sweep /
//! compact times, references, classes freed, objects moved, heap expanded, ...).
//!
//! Records: one `Pause` per block, kind `Full` (IBM 1.4.2 has one heap, no generations: every
//! collection marks and sweeps, and may compact, all of it), duration the block's `completed
//! in` (the whole stop, which can be much longer than the collection's own `in N ms`: heap
//! expansion, clearing soft references, a second try), cause `Allocation Failure`,
//! `Concurrent collection` or `System.gc()`, name `AF`, `CON` or `SYS`. A `CON` block is a
//! pause, not a concurrent phase: the concurrent part of the mark (`Bytes Traced ...
//! Background: N`) runs before it and is timed nowhere; the block is the stop that finishes
//! the mark and sweeps, its `mark: ... sweep: ...` times the stop's. Heap before: total − free
//! of the block's first `(free/total)` figures (the `managing allocation failure` line, a
//! `CON` head), else the heap after plus the bytes freed; after and total: the `freed` line's;
//! bytes to KB, rounded (`size_kb_prefix`'s rule for `B`). Wall clock: `GC cycle started`,
//! whole seconds, local time; the log has no uptime (the frame's time axis falls back to the
//! wall clock). `gc_id`: the AF number; `CON` and `SYS` blocks have none (their numbers count
//! apart from the AF numbers, and a collection is counted once per `gc_id`).
//!
//! A block cut before its `completed in` line (the log's end, or the next head, a line lost)
//! is the stop of its collection if its `freed` line was read (duration: the collection's
//! `in N ms`, the part of the stop the log shows), else its lines are skipped.
//!
//! Every line is counted once (`GcLog::record_lines`, `ignored_lines`, `skipped_lines`):
//! - record: the lines of a block read into a pause.
//! - ignored: blank lines, `<GC[n]: Expanded System Heap by N bytes` (the class area grown,
//!   between blocks or in one), `<  Stop-the-allocations for initialization boost ...>`.
//! - skipped: the lines of a block that gives no pause (cut before its collection ended, or
//!   its values cannot be true: `GcEvent::implausible`); a line of a block's own shape whose
//!   figures cannot be read (`managing` before the collection, `freed`, `GC cycle started`,
//!   `completed in`); an `AF`/`CON`/`SYS` line of a form not listed above, or of another
//!   block than the open one; a `GC(m)` line outside a block; every other line.

use super::family::{Block, BlockParser, Family, GcFormat, Handle, OwnedStart};
use super::limits::float_prefix;
use super::lines::lines;
use super::num::{asctime_prefix, kb, trim, uint_prefix};
use super::settle::Settle;
use crate::model::{GcClock, GcEvent, GcLog, Kind, Record};

/// The IBM JDK 1.4.2 text verbose GC family.
pub const FAMILY: GcFormat = Handle(&IbmText);

struct IbmText;

impl Family for IbmText {
    fn name(&self) -> &'static str {
        "ibm-text"
    }
    fn about(&self) -> &'static str {
        "IBM JDK 1.4.2 text verbose GC"
    }

    /// A tagged line, `<AF[1]: `, `  <GC(1): `, `<CON[1]: `, `<SYS[1]: `, `  <GC[0]: `, or
    /// the concurrent mark's `<  Stop-the-allocations ...>` note.
    fn recognises(&self, line: &[u8]) -> bool {
        let t = trim(line);
        tagged(t).is_some() || boost(t)
    }

    /// A block's head: an allocation failure or a concurrent collection.
    fn safe_start(&self, line: &[u8]) -> bool {
        tagged(trim(line)).is_some_and(|t| matches!(t.tag, Tag::Af | Tag::Con) && t.head())
    }

    fn block_parser(&self, events: Vec<GcEvent>, flush_at: usize) -> Box<dyn BlockParser> {
        Box::new(Parser {
            log: GcLog::reusing(events),
            settle: Settle::every(flush_at),
            ..Parser::default()
        })
    }

    /// Unindented tagged lines (the heads, the block's own lines, `<GC(n): Bytes Traced`).
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"<")
    }

    fn owns(&self, line: &[u8]) -> bool {
        line.first() == Some(&b'<') && tagged(trim(line)).is_some()
    }

    /// `GC cycle started` stamps: local time, whole seconds.
    fn clock(&self) -> GcClock {
        GcClock {
            writes_offset: false,
            undated_is_utc: false,
            whole_seconds: true,
        }
    }
}

impl BlockParser for Parser {
    /// Read the lines of `buf` after those read so far.
    fn feed(&mut self, buf: &[u8]) {
        let base = self.log.lines;
        for (no, line) in lines(buf) {
            self.line(base + no, line);
            let held = self.log.events.len();
            // An event is final once pushed: every one held may go.
            if self.settle.due(held) && self.settle.worth(held, held) {
                self.settle.take(&mut self.log.events, held);
            }
        }
    }
    fn idle(&self) -> bool {
        self.open.is_none()
    }
    fn consulted(&self) -> bool {
        self.consulted
    }
    /// The log read: the open block closed as cut.
    fn finish(self: Box<Self>) -> Block {
        let mut p = *self;
        p.close(None);
        let cols = p.settle.cols();
        (p.log, cols).into()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    /// `<AF[n]:`, an allocation failure.
    Af,
    /// `<CON[n]:`, the stop that ends a concurrent mark.
    Con,
    /// `<SYS[n]:`, `System.gc()`.
    Sys,
    /// `<GC(m):`, a collection's lines.
    Gc,
    /// `<GC[n]:`, the system (class) heap.
    GcSystem,
}

/// A tagged line: `<TAG[n]: rest>` or `<GC(m): rest>`, its `>` and blanks off `rest`.
struct Tagged<'a> {
    tag: Tag,
    id: u64,
    rest: &'a [u8],
}

/// Longest block number believed (a longer run of digits is damage).
const MAX_ID_DIGITS: usize = 19;

fn tagged(t: &[u8]) -> Option<Tagged<'_>> {
    const TAGS: [(&[u8], Tag, u8); 5] = [
        (b"AF[", Tag::Af, b']'),
        (b"GC(", Tag::Gc, b')'),
        (b"CON[", Tag::Con, b']'),
        (b"SYS[", Tag::Sys, b']'),
        (b"GC[", Tag::GcSystem, b']'),
    ];
    let t = t.strip_prefix(b"<")?;
    let (tag, close, r) = TAGS
        .iter()
        .find_map(|&(p, tag, close)| Some((tag, close, t.strip_prefix(p)?)))?;
    let (id, n) = digits(r, MAX_ID_DIGITS)?;
    let r = r.get(n..)?.strip_prefix(&[close])?.strip_prefix(b":")?;
    let r = trim(r);
    let rest = trim(r.strip_suffix(b">").unwrap_or(r));
    Some(Tagged { tag, id, rest })
}

impl Tagged<'_> {
    /// Opens a block (for `SYS`, one that is not the open block's own line: see `Parser`).
    fn head(&self) -> bool {
        match self.tag {
            Tag::Af => self.rest.starts_with(b"Allocation Failure."),
            Tag::Con => {
                self.rest.starts_with(b"Concurrent collection")
                    && !self.rest.starts_with(b"Concurrent collection, action=")
            }
            Tag::Sys => {
                !(self.rest.starts_with(COMPLETED)
                    || self.rest.starts_with(MANAGING)
                    || self.rest.starts_with(INSUFFICIENT))
            }
            Tag::Gc | Tag::GcSystem => false,
        }
    }
}

const COMPLETED: &[u8] = b"completed in ";
const MANAGING: &[u8] = b"managing allocation failure";
const INSUFFICIENT: &[u8] = b"insufficient heap space";

/// `<  Stop-the-allocations for initialization boost (trace rate  25.73)>`: the concurrent
/// mark's note that it stopped allocations to catch up.
fn boost(t: &[u8]) -> bool {
    t.strip_prefix(b"<")
        .is_some_and(|r| trim(r).starts_with(b"Stop-the-allocations"))
}

/// The block read so far.
struct Open {
    tag: Tag,
    id: u64,
    /// The head's line.
    line: u64,
    /// The block's lines read so far (counted when it closes).
    lines: u64,
    /// The head's text, for the report if the block's lines are skipped.
    text: Vec<u8>,
    /// Bytes in use at the failure.
    before: Option<u64>,
    /// The collection's `freed` line: bytes freed, in use after, heap total, its time.
    freed: Option<Freed>,
    wall: Option<i64>,
}

#[derive(Clone, Copy)]
struct Freed {
    bytes: u64,
    used: u64,
    total: u64,
    ms: f64,
}

/// Reads a log line by line; fed block by block when streamed (see `stream`).
#[derive(Default)]
pub struct Parser {
    log: GcLog,
    open: Option<Open>,
    /// A block was opened in what this parser read.
    seen_head: bool,
    /// A line of a block was read before any head: the block before held its head.
    consulted: bool,
    settle: Settle,
}

impl Parser {
    fn line(&mut self, no: u64, raw: &[u8]) {
        self.log.lines = no;
        let t = trim(raw);
        if t.is_empty() || boost(t) {
            self.log.ignored_lines += 1;
            return;
        }
        let Some(tg) = tagged(t) else {
            self.log.skip(no, raw);
            return;
        };
        let own = self
            .open
            .as_ref()
            .is_some_and(|o| o.tag == tg.tag && o.id == tg.id);
        match tg.tag {
            Tag::GcSystem if tg.rest.starts_with(b"Expanded System Heap") => {
                self.log.ignored_lines += 1;
            }
            Tag::GcSystem => self.log.skip(no, raw),
            Tag::Af | Tag::Con | Tag::Sys if tg.head() && !(tg.tag == Tag::Sys && own) => {
                self.close(None);
                self.start(no, raw, &tg);
            }
            Tag::Af | Tag::Con | Tag::Sys if own => self.block_line(no, raw, &tg),
            Tag::Gc if self.open.is_some() => self.gc_line(no, raw, &tg),
            Tag::Af | Tag::Con | Tag::Sys | Tag::Gc => {
                // A block's line without its block: the head was before this parser's lines,
                // or is lost.
                self.consulted |= !self.seen_head;
                self.log.skip(no, raw);
            }
        }
    }

    fn start(&mut self, no: u64, raw: &[u8], tg: &Tagged) {
        self.seen_head = true;
        self.open = Some(Open {
            tag: tg.tag,
            id: tg.id,
            line: no,
            lines: 1,
            text: raw[..raw.len().min(204)].to_vec(),
            // A `CON` head (and a `SYS` one, if it has them) gives the heap's figures.
            before: (tg.tag != Tag::Af).then(|| used(tg.rest)).flatten(),
            freed: None,
            wall: None,
        });
    }

    /// An `AF` / `CON` / `SYS` line of the open block.
    fn block_line(&mut self, no: u64, raw: &[u8], tg: &Tagged) {
        let Some(o) = self.open.as_mut() else {
            return self.log.skip(no, raw);
        };
        let r = tg.rest;
        if let Some(c) = r.strip_prefix(COMPLETED) {
            match ms(c) {
                Some(d) => {
                    o.lines += 1;
                    self.close(Some(d));
                }
                None => self.log.skip(no, raw),
            }
            return;
        }
        let known = match tg.tag {
            Tag::Af | Tag::Sys => r.starts_with(MANAGING) || r.starts_with(INSUFFICIENT),
            // `Concurrent collection, action=3 (free/total)`, after the collection.
            _ => r.starts_with(b"Concurrent collection"),
        };
        if !known {
            return self.log.skip(no, raw);
        }
        // The heap at the failure: the first figures, before the collection's.
        if r.starts_with(MANAGING) && o.before.is_none() && o.freed.is_none() {
            match used(r) {
                Some(u) => o.before = Some(u),
                None => return self.log.skip(no, raw),
            }
        }
        o.lines += 1;
    }

    /// A `GC(m)` line inside the open block.
    fn gc_line(&mut self, no: u64, raw: &[u8], tg: &Tagged) {
        let Some(o) = self.open.as_mut() else {
            return self.log.skip(no, raw);
        };
        let r = tg.rest;
        if let Some(d) = r.strip_prefix(b"GC cycle started ").map(trim) {
            match asctime_prefix(d) {
                Some((w, n)) if n == d.len() => o.wall = o.wall.or(Some(w)),
                _ => return self.log.skip(no, raw),
            }
        } else if let Some(f) = r.strip_prefix(b"freed ") {
            match freed(f) {
                Some(f) => o.freed = Some(f),
                None => return self.log.skip(no, raw),
            }
        }
        o.lines += 1;
    }

    /// The open block ends (`completed`: its `completed in` figure, if it has one): its
    /// pause, or its lines skipped.
    fn close(&mut self, completed: Option<f64>) {
        let Some(o) = self.open.take() else {
            return;
        };
        let Some(d) = completed.or(o.freed.map(|f| f.ms)) else {
            self.log.skip_lines(o.line, o.lines, &o.text);
            return;
        };
        let (cause, name, gc_id): (&str, &str, Option<u64>) = match o.tag {
            Tag::Af => ("Allocation Failure", "AF", Some(o.id)),
            Tag::Con => ("Concurrent collection", "CON", None),
            _ => ("System.gc()", "SYS", None),
        };
        let mut e = GcEvent::new(Record::Pause, Kind::Full, d, o.line);
        e.wall_ms = o.wall;
        e.gc_id = gc_id;
        e.cause = self.log.strings.intern(cause);
        e.name = self.log.strings.intern(name);
        let freed_from = o.freed.and_then(|f| f.used.checked_add(f.bytes));
        e.heap_before_kb = o.before.or(freed_from).map(kb);
        e.heap_after_kb = o.freed.map(|f| kb(f.used));
        e.heap_total_kb = o.freed.map(|f| kb(f.total));
        match self.log.push_checked(e) {
            Ok(()) => self.log.record_lines += o.lines,
            Err(_) => self.log.skip_lines(o.line, o.lines, &o.text),
        }
    }
}

/// `N ms` (`completed in N ms`, `in N ms`): the figure, if that is all there is.
fn ms(s: &[u8]) -> Option<f64> {
    let (v, n) = float_prefix(s)?;
    (trim(s.get(n..)?) == b"ms").then_some(v)
}

/// Bytes in use by the `(free/total)` pairs of a line (the heap, or its two areas: their
/// sums); `None` if none reads, or one cannot be true (more free than the total).
fn used(s: &[u8]) -> Option<u64> {
    let (mut free, mut total, mut any) = (0u64, 0u64, false);
    let mut rest = s;
    while let Some(i) = memchr::memchr(b'(', rest) {
        rest = &rest[i + 1..];
        let Some((f, t, n)) = pair(rest) else {
            continue;
        };
        rest = &rest[n..];
        free = free.checked_add(f)?;
        total = total.checked_add(t)?;
        any = true;
    }
    any.then(|| total.checked_sub(free))?
}

/// `free/total)` at the start of `s`: the figures and the bytes read.
fn pair(s: &[u8]) -> Option<(u64, u64, usize)> {
    let (f, a) = digits(s, 20)?;
    let s2 = s.get(a..)?.strip_prefix(b"/")?;
    let (t, b) = digits(s2, 20)?;
    if s2.get(b) != Some(&b')') {
        return None;
    }
    Some((f, t, a + 1 + b + 1))
}

/// An unsigned figure of at most `max` digits.
fn digits(s: &[u8], max: usize) -> Option<(u64, usize)> {
    uint_prefix(s).filter(|&(_, n)| n <= max)
}

/// `40064000 bytes, 97% free (1050748672/1073674752), in 45 ms` (after `freed `).
fn freed(s: &[u8]) -> Option<Freed> {
    let (bytes, n) = digits(s, 20)?;
    let s = s.get(n..)?.strip_prefix(b" bytes,")?;
    let open = memchr::memchr(b'(', s)?;
    let (free, total, m) = pair(s.get(open + 1..)?)?;
    let s = s.get(open + 1 + m..)?;
    let s = trim(s).strip_prefix(b",")?;
    let ms = ms(trim(s).strip_prefix(b"in ")?)?;
    Some(Freed {
        bytes,
        used: total.checked_sub(free)?,
        total,
        ms,
    })
}

#[cfg(test)]
#[path = "ibm_text_tests.rs"]
mod tests;
