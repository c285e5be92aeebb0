//! BEA/Oracle JRockit verbose GC logs (`-Xverbose:memory,gcpause,...`, R26–R28: JDK 1.4.2, 5.0
//! and 6).
//!
//! Every JRockit line starts with bracketed groups in one of these shapes:
//! `[memory ] ...`, `[INFO ][memory ] ...`, `[memory ][Thu Feb 21 15:06:32 2013][11844] ...`,
//! `[Wed Nov 16 15:19:08 2005][29147][memory ] ...`. The `[memory ]` module writes one line per
//! collection (the figure GCViewer counts), the `[gcpause]` module itemises its pauses *before*
//! that line:
//!
//! * 1.4.2: `9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms` (young) and
//!   `218.453-219.334: GC 463218K->106254K (1048576K), 147.386 ms` (old, mostly concurrent).
//! * 5.0: `6.290-6.424: GC 3128161K->296406K (3145728K), sum of pauses 59.084 ms`, preceded by
//!   `old collection phase 1 pause time: 0.550209 ms, (start time: 6.290 s)` lines; a
//!   `nursery collection pause time: 38.687114 ms` line (no start) *follows* its nursery line.
//! * R28: `[YC#1] 306.486-306.915: YC 4264185KB->1261907KB (25165824KB), 0.429 s, sum of pauses
//!   428.647 ms, ...`, preceded by `[YC#1] [pau] 428.647 ms (306.486000-306.914000) YC:Main`
//!   (pause), `[con] ...` (concurrent phase) and `[---] ...` (the whole span) lines.
//!
//! Records: a collection whose pauses are itemised gives one `Collection` (duration = the
//! collection line's pause / sum of pauses) plus one `Pause` per itemised pause
//! (`in_collection`, same `gc_id` and kind). A collection nothing itemises gives a single `Pause`.
//! Itemised pauses whose collection line never comes (truncated log) stay `Pause` records with
//! `in_collection = false`. Logs without `[YC#n]`/`[OC#n]` get sequential invented `gc_id`s (in
//! R28 logs young and old collections are numbered apart: `(kind, gc_id)` identifies one).
//!
//! Wall clock: the stamp is when the line was written, i.e. the end of what it reports, so an
//! event's `wall_ms` is the stamp minus its span (`end - start`; for a nursery line without an
//! end, its pause; for a 5.0 pause line, the pause).

use super::lines::lines;
use super::num::{asctime_prefix, find, float_prefix, rfind, size_kb_prefix, trim, uint_prefix};
use crate::model::{GcEvent, GcLog, Kind, Record};

/// Parse a whole JRockit log. Never panics; see the module documentation for the records.
pub fn parse(buf: &[u8]) -> GcLog {
    let mut p = Parser::default();
    for (no, line) in lines(buf) {
        p.log.lines = no;
        p.line(no, line);
    }
    p.finish()
}

/// `[YC#12]` / `[OC#3]`: the collection number, young and old counted apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tag {
    young: bool,
    id: u64,
}

impl Tag {
    fn kind(self) -> Kind {
        if self.young {
            Kind::Young
        } else {
            Kind::Old
        }
    }
}

/// A `Pause` (or R28 concurrent phase) already pushed to `log.events` that waits for its
/// collection line.
#[derive(Debug, Clone, Copy)]
struct Pending {
    idx: usize,
    /// A pause (false: a concurrent phase, which does not make its collection "itemised").
    pause: bool,
    tag: Option<Tag>,
    start: Option<f64>,
    /// Kind guessed from the pause name ("old collection ..." / "nursery collection ...").
    hint: Option<Kind>,
}

/// A parsed `[memory ]` collection line.
#[derive(Debug, Clone, Copy)]
struct Coll<'a> {
    start: f64,
    end: Option<f64>,
    /// As written: "Nursery GC", "GC", "parallel nursery GC", "YC", "OC".
    phrase: &'a [u8],
    before: u64,
    after: u64,
    heap: u64,
    pause: f64,
}

/// The bracketed line prefix.
#[derive(Debug, Clone, Copy)]
struct Prefix<'a> {
    /// Module name without padding: "memory", "gcpause", "nursery", ...
    module: Option<&'a [u8]>,
    /// A JRockit level group (`[INFO ]`, `[WARN ]`, `[ERROR]`...) was present.
    level: bool,
    wall: Option<i64>,
    /// The text after the prefix, leading blanks removed (the whole line if no prefix).
    rest: &'a [u8],
}

/// Most pauses kept waiting for a collection line (a log with `gcpause` but no `memory` output
/// would otherwise grow the list without end; the dropped ones stay standalone pauses).
const MAX_PENDING: usize = 256;
const MAX_CAUSES: usize = 32;

#[derive(Default)]
struct Parser {
    log: GcLog,
    pending: Vec<Pending>,
    /// `GC reason:` lines waiting for their collection.
    causes: Vec<(Option<Tag>, u32)>,
    /// `strategy_change` meta entries waiting for the start of the next collection.
    strategy_pending: Vec<usize>,
    /// Last invented collection number (logs without `[YC#n]`).
    next_id: u64,
    /// The last collection line (event index, start and end in seconds): a 5.0 pause line
    /// written after it itemises it if it falls in its span (`nursery collection pause time:
    /// 38.687114 ms` comes right after its `parallel nursery GC ... 38.687 ms` line).
    last_coll: Option<(usize, f64, f64)>,
}

impl Parser {
    fn line(&mut self, no: u64, line: &[u8]) {
        if trim(line).is_empty() {
            return;
        }
        let pre = split_prefix(line);
        let known = match pre.module {
            Some(b"memory") => self.memory(no, &pre),
            Some(b"gcpause") => self.gcpause(no, &pre),
            // Other JRockit modules ([nursery], [alloc  ], [compact], ...): not GC records.
            Some(_) => true,
            // `[WARN ] Use of -Djrockit.optfile is deprecated ...`: the JVM's own message.
            None if pre.level => true,
            None => is_jvm_noise(line),
        };
        if !known {
            self.log.skip(no, line);
        }
    }

    /// A `[memory ]` line; false if it looks like a collection line but cannot be read.
    fn memory(&mut self, no: u64, pre: &Prefix) -> bool {
        let (tag, c) = split_tag(pre.rest);
        let c = trim(c);
        if c.first().is_some_and(u8::is_ascii_digit) {
            if let Some(col) = parse_collection(c) {
                self.collection(no, pre.wall, tag, &col);
                return true;
            }
            // `[YC#1] 124.644: YC started.`
            return strip_dot(c).ends_with(b" started");
        }
        if let Some(r) = c.strip_prefix(b"GC reason: ") {
            let cause = intern(&mut self.log, cause_text(r));
            if self.causes.len() >= MAX_CAUSES {
                self.causes.remove(0);
            }
            self.causes.retain(|(t, _)| *t != tag);
            self.causes.push((tag, cause));
        } else if let Some(r) = c.strip_prefix(b"GC strategy: ") {
            self.meta("gc_strategy", strip_dot(r));
        } else if let Some(r) = c.strip_prefix(b"GC mode: ") {
            self.gc_mode(r);
        } else if starts_with_ci(c, b"heap size: ") {
            self.heap_sizes(c);
        } else if let Some(r) = c.strip_prefix(b"Changing GC strategy ") {
            let i = self.log.meta.len();
            self.meta("strategy_change", trim(r));
            self.strategy_pending.push(i);
        }
        // Anything else from the memory module: the legend (`<s>-<end>: GC <before>K->...`,
        // `<pause> - ...`, `-: KB->KB (KB), ...`), the `Memory usage report`, TLA and heap
        // settings, `Throwing OutOfMemory`, R28 per-collection details (`YC promoted ...`).
        true
    }

    /// A `[gcpause]` line; false if it looks like a pause line but cannot be read.
    fn gcpause(&mut self, no: u64, pre: &Prefix) -> bool {
        let (tag, c) = split_tag(pre.rest);
        let c = trim(c);
        if c.starts_with(b"[pau]") || c.starts_with(b"[con]") || c.starts_with(b"[---]") {
            return self.r28_phase(no, pre.wall, tag, c);
        }
        if let Some(p) = find(c, b"pause time: ") {
            return self.r27_pause(no, pre.wall, tag, c, p);
        }
        // `(pause includes compaction: ...)` (detail of the pause before), `Threads waited for
        // memory ... starting at ...` (allocation stall, not a GC pause), `Thread "..." was in
        // TLA-fetch ...`.
        true
    }

    /// R28 `[pau] 428.647 ms (306.486000-306.914000) YC:Main`, `[con] ...`, `[---] ...`.
    fn r28_phase(&mut self, no: u64, wall: Option<i64>, tag: Option<Tag>, c: &[u8]) -> bool {
        let what = c.get(1..4).unwrap_or_default();
        let r = trim_start(c.get(5..).unwrap_or_default());
        let Some((dur, n)) = float_prefix(r) else {
            return false;
        };
        let Some(r) = r.get(n..).and_then(|r| r.strip_prefix(b" ms")) else {
            return false;
        };
        let Some(r) = trim_start(r).strip_prefix(b"(") else {
            return false;
        };
        let Some((start, n)) = float_prefix(r) else {
            return false;
        };
        let Some(r) = r.get(n..).and_then(|r| r.strip_prefix(b"-")) else {
            return false;
        };
        let Some((end, n)) = float_prefix(r) else {
            return false;
        };
        let Some(r) = r.get(n..).and_then(|r| r.strip_prefix(b")")) else {
            return false;
        };
        if what == b"---" {
            // The whole collection's span: neither a pause nor a concurrent phase.
            return true;
        }
        let name = trim(r);
        let kind = match tag {
            Some(t) => t.kind(),
            None => name_kind(name).unwrap_or(Kind::Other),
        };
        let record = if what == b"pau" {
            Record::Pause
        } else {
            Record::Concurrent
        };
        let mut e = GcEvent::new(record, kind, dur, no);
        e.uptime_s = Some(start);
        e.wall_ms = wall.map(|w| w.saturating_sub(ms(end - start)));
        e.name = intern(&mut self.log, name);
        e.gc_id = tag.map(|t| t.id);
        e.cause = self.cause_for(tag, false);
        let idx = self.log.events.len();
        self.log.events.push(e);
        self.push_pending(Pending {
            idx,
            pause: record == Record::Pause,
            tag,
            start: Some(start),
            hint: Some(kind),
        });
        true
    }

    /// 5.0 `old collection phase 4-0 pause time: 58.534174 ms, (start time: 6.365 s)` or
    /// `nursery collection pause time: 38.687114 ms`; `p` is where `pause time: ` starts.
    fn r27_pause(
        &mut self,
        no: u64,
        wall: Option<i64>,
        tag: Option<Tag>,
        c: &[u8],
        p: usize,
    ) -> bool {
        let name = trim(c.get(..p).unwrap_or_default());
        let r = c.get(p + 12..).unwrap_or_default();
        let Some((dur, n)) = float_prefix(r) else {
            return false;
        };
        let Some(r) = r.get(n..).and_then(|r| r.strip_prefix(b" ms")) else {
            return false;
        };
        let start = match find(r, b"start time: ") {
            Some(q) => match r.get(q + 12..).and_then(float_prefix) {
                Some((v, _)) => Some(v),
                None => return false,
            },
            None => None,
        };
        let hint = tag.map(Tag::kind).or_else(|| name_kind(name));
        let name = intern(&mut self.log, if name.is_empty() { b"pause" } else { name });

        if tag.is_none() && self.itemise_last(no, start, dur, hint, name) {
            return true;
        }

        let mut e = GcEvent::new(Record::Pause, hint.unwrap_or(Kind::Other), dur, no);
        e.uptime_s = start;
        e.wall_ms = wall.map(|w| w.saturating_sub(ms(dur / 1000.0)));
        e.name = name;
        e.gc_id = tag.map(|t| t.id);
        e.cause = self.cause_for(tag, false);
        let idx = self.log.events.len();
        self.log.events.push(e);
        self.push_pending(Pending {
            idx,
            pause: true,
            tag,
            start,
            hint,
        });
        true
    }

    /// Attach a 5.0 pause line to the collection line just before it if it belongs there: its
    /// start lies in that collection's span, or (no start) it repeats the pause of a collection
    /// nothing itemised yet with more digits. A lone `Pause` becomes a `Collection`.
    fn itemise_last(
        &mut self,
        no: u64,
        start: Option<f64>,
        dur: f64,
        hint: Option<Kind>,
        name: u32,
    ) -> bool {
        let Some((ci, lo, hi)) = self.last_coll else {
            return false;
        };
        let Some(c) = self.log.events.get(ci) else {
            return false;
        };
        let fits = match start {
            Some(st) => st >= lo - 0.002 && st <= hi + 0.002,
            None => c.record == Record::Pause && (dur - c.duration_ms).abs() <= 5.1e-4,
        };
        if !fits || hint.is_some_and(|k| k != c.kind) {
            return false;
        }
        let mut e = GcEvent::new(Record::Pause, c.kind, dur, no);
        e.uptime_s = start.or(c.uptime_s);
        e.wall_ms = match (c.wall_ms, start, c.uptime_s) {
            (Some(w), Some(st), Some(u)) => Some(w.saturating_add(ms(st - u))),
            (w, _, _) => w,
        };
        e.gc_id = c.gc_id;
        e.cause = c.cause;
        e.collector = c.collector;
        e.name = name;
        e.in_collection = true;
        if let Some(c) = self.log.events.get_mut(ci) {
            c.record = Record::Collection;
        }
        self.log.events.push(e);
        true
    }

    fn push_pending(&mut self, p: Pending) {
        if self.pending.len() >= MAX_PENDING {
            self.pending.remove(0);
        }
        self.pending.push(p);
    }

    /// The cause of collection `tag` from its `GC reason:` line; `take` forgets it.
    fn cause_for(&mut self, tag: Option<Tag>, take: bool) -> u32 {
        match self.causes.iter().position(|(t, _)| *t == tag) {
            Some(i) if take => self.causes.remove(i).1,
            Some(i) => self.causes.get(i).map_or(0, |c| c.1),
            None => 0,
        }
    }

    fn collection(&mut self, no: u64, wall: Option<i64>, tag: Option<Tag>, col: &Coll) {
        let kind = match tag {
            Some(t) => t.kind(),
            None => phrase_kind(col.phrase),
        };
        let gc_id = match tag {
            Some(t) => t.id,
            None => {
                self.next_id += 1;
                self.next_id
            }
        };
        let cause = self.cause_for(tag, true);
        let collector = if kind == Kind::Young && contains_ci(col.phrase, b"nursery") {
            self.log.strings.intern("Nursery")
        } else {
            intern(&mut self.log, col.phrase)
        };
        let name = intern(&mut self.log, col.phrase);
        // Stop-the-world young collections without an end: the end is start + pause.
        let span_s = match col.end {
            Some(end) => end - col.start,
            None => col.pause / 1000.0,
        };

        let wall_start = wall.map(|w| w.saturating_sub(ms(span_s)));

        // Attach the itemised pauses (and R28 concurrent phases) waiting for this collection.
        let lo = col.start - 0.002;
        let hi = col.start + span_s.max(0.0) + 0.002;
        let mut attached = 0usize;
        let events = &mut self.log.events;
        self.pending.retain(|p| {
            let keep_waiting = match (p.tag, tag) {
                (Some(pt), Some(t)) => {
                    if pt == t {
                        false
                    } else {
                        // An older collection of the same kind never got its line: give up on it.
                        return !(pt.young == t.young && pt.id < t.id);
                    }
                }
                (None, None) => {
                    if p.hint.is_some_and(|h| h != kind) {
                        return true;
                    }
                    match p.start {
                        Some(s) if s < lo => return false, // stale: stays standalone
                        Some(s) if s > hi => return true,
                        _ => false,
                    }
                }
                _ => return true,
            };
            if let Some(e) = events.get_mut(p.idx) {
                e.gc_id = Some(gc_id);
                e.kind = kind;
                e.collector = collector;
                if e.cause == 0 {
                    e.cause = cause;
                }
                // One clock for the whole collection: its line's stamp (seconds only) is the
                // best anchor, the pause lines' own stamps would scatter around it.
                if let (Some(w), Some(u)) = (wall_start, e.uptime_s) {
                    e.wall_ms = Some(w.saturating_add(ms(u - col.start)));
                }
                if p.pause {
                    e.in_collection = true;
                    attached += 1;
                }
            }
            keep_waiting
        });

        let record = if attached > 0 {
            Record::Collection
        } else {
            Record::Pause
        };
        let mut e = GcEvent::new(record, kind, col.pause, no);
        e.uptime_s = Some(col.start);
        e.wall_ms = wall_start;
        e.collector = collector;
        e.cause = cause;
        e.name = name;
        e.heap_before_kb = Some(col.before);
        e.heap_after_kb = Some(col.after);
        e.heap_total_kb = Some(col.heap);
        e.gc_id = Some(gc_id);
        self.last_coll = Some((
            self.log.events.len(),
            col.start,
            col.start + span_s.max(0.0),
        ));
        self.log.events.push(e);

        // Strategy changes announced since the last collection took effect with this one.
        for i in self.strategy_pending.drain(..) {
            if let Some((_, v)) = self.log.meta.get_mut(i) {
                *v = format!("{:.3}: {}", col.start, v);
            }
        }
    }

    fn meta(&mut self, key: &str, value: &[u8]) {
        self.log
            .meta
            .push((key.to_owned(), String::from_utf8_lossy(value).into_owned()));
    }

    /// `Static, strategy: Generational Concurrent Mark & Sweep` or `Garbage collection optimized
    /// for short pausetimes, initial strategy: Concurrent Mark & Sweep`.
    fn gc_mode(&mut self, r: &[u8]) {
        let r = strip_dot(r);
        match find(r, b"strategy: ") {
            Some(p) => {
                let head = r.get(..p).unwrap_or_default();
                let mode = match rfind(head, b",") {
                    Some(q) => head.get(..q).unwrap_or_default(),
                    None => head,
                };
                self.meta("gc_mode", trim(mode));
                self.meta("gc_strategy", trim(r.get(p + 10..).unwrap_or_default()));
            }
            None => self.meta("gc_mode", trim(r)),
        }
    }

    /// `heap size: 1048576K, maximal heap size: 1048576K, nursery size: 102400K` (1.4.2/5.0) or
    /// `Heap size: 25165824KB, maximal heap size: 25165824KB, nursery size: 4194304KB.` (R28).
    fn heap_sizes(&mut self, c: &[u8]) {
        for part in strip_dot(c).split(|&b| b == b',') {
            let Some(p) = find(part, b": ") else { continue };
            let key = trim(part.get(..p).unwrap_or_default());
            let Some((kb, _)) = part.get(p + 2..).and_then(size_kb_prefix) else {
                continue;
            };
            let key = if key.eq_ignore_ascii_case(b"heap size") {
                "heap_size_kb"
            } else if key.eq_ignore_ascii_case(b"maximal heap size") {
                "max_heap_size_kb"
            } else if key.eq_ignore_ascii_case(b"nursery size") {
                "nursery_size_kb"
            } else {
                continue;
            };
            self.log.meta.push((key.to_owned(), kb.to_string()));
        }
    }

    fn finish(mut self) -> GcLog {
        // Time order (log order is end order: nursery collections during a concurrent old
        // collection are written before it). Ties: a collection before its pauses, then log
        // order. Events without a start keep the place of the event before them.
        let events = &mut self.log.events;
        let mut last = f64::NEG_INFINITY;
        let mut keyed: Vec<((f64, u8, usize), GcEvent)> = std::mem::take(events)
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                if let Some(u) = e.uptime_s {
                    last = u;
                }
                let rank = u8::from(e.record != Record::Collection);
                ((last, rank, i), e)
            })
            .collect();
        let cmp = |a: &(f64, u8, usize), b: &(f64, u8, usize)| {
            a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
        };
        if !keyed.windows(2).all(|w| cmp(&w[0].0, &w[1].0).is_le()) {
            keyed.sort_by(|a, b| cmp(&a.0, &b.0));
        }
        *events = keyed.into_iter().map(|(_, e)| e).collect();
        self.log
    }
}

/// `<start>[-<end>]: <phrase> <before>K-><after>K (<heap>K), <pause> ms` with the pause written
/// `, 53.417 ms`, `, sum of pauses 59.084 ms` or `, 0.429 s, sum of pauses 428.647 ms, ...`.
fn parse_collection(c: &[u8]) -> Option<Coll<'_>> {
    let (start, mut i) = float_prefix(c)?;
    let mut end = None;
    if c.get(i) == Some(&b'-') {
        let (e, n) = float_prefix(c.get(i + 1..)?)?;
        end = Some(e);
        i += 1 + n;
    }
    let r = c.get(i..)?.strip_prefix(b": ")?;
    let d = r.iter().position(u8::is_ascii_digit)?;
    let phrase = trim(r.get(..d)?);
    if phrase.is_empty() || !phrase.iter().all(|b| b.is_ascii_alphabetic() || *b == b' ') {
        return None;
    }
    let r = r.get(d..)?;
    let (before, n) = size_kb_prefix(r)?;
    let r = r.get(n..)?.strip_prefix(b"->")?;
    let (after, n) = size_kb_prefix(r)?;
    let r = trim_start(r.get(n..)?).strip_prefix(b"(")?;
    let (heap, n) = size_kb_prefix(r)?;
    let r = r.get(n..)?.strip_prefix(b")")?;
    let r = match find(r, b"sum of pauses ") {
        Some(p) => r.get(p + 14..)?,
        None => trim_start(r.strip_prefix(b",")?),
    };
    let (pause, n) = float_prefix(r)?;
    r.get(n..)?.strip_prefix(b" ms")?;
    if !(start.is_finite() && pause.is_finite() && pause >= 0.0) {
        return None;
    }
    Some(Coll {
        start,
        end,
        phrase,
        before,
        after,
        heap,
        pause,
    })
}

/// Split the leading `[...]` groups: levels, module, asctime stamp, pid, in any order.
fn split_prefix(line: &[u8]) -> Prefix<'_> {
    let mut p = Prefix {
        module: None,
        level: false,
        wall: None,
        rest: line,
    };
    let mut s = line;
    let mut any = false;
    while s.first() == Some(&b'[') {
        let Some(close) = s.iter().take(40).position(|&b| b == b']') else {
            break;
        };
        let inner = s.get(1..close).unwrap_or_default();
        if inner.len() == 24 && asctime_prefix(inner).is_some() {
            p.wall = asctime_prefix(inner).map(|(t, _)| t);
        } else if any && !inner.is_empty() && inner.iter().all(u8::is_ascii_digit) {
            // pid
        } else if is_level(inner) {
            p.level = true;
        } else if p.module.is_none() && is_module(inner) {
            p.module = Some(trim(inner));
        } else {
            break;
        }
        any = true;
        s = s.get(close + 1..).unwrap_or_default();
    }
    if any {
        p.rest = trim_start(s);
    }
    p
}

/// `INFO `, `WARN `, `ERROR`, ...: JRockit pads levels to five characters (an application's
/// `[INFO]` is not one of them).
fn is_level(s: &[u8]) -> bool {
    matches!(
        s,
        b"INFO " | b"WARN " | b"ERROR" | b"DEBUG" | b"TRACE" | b"FATAL"
    )
}

/// `memory `, `gcpause`, `alloc  `, `nursery`, `compact`...: lowercase, padded to seven.
fn is_module(s: &[u8]) -> bool {
    if s.len() != 7 {
        return false;
    }
    let letters = s.iter().take_while(|b| b.is_ascii_lowercase()).count();
    letters >= 2 && s.iter().skip(letters).all(|&b| b == b' ')
}

/// `[YC#12] rest` / `[OC#3] rest`.
fn split_tag(s: &[u8]) -> (Option<Tag>, &[u8]) {
    let young = if s.starts_with(b"[YC#") {
        true
    } else if s.starts_with(b"[OC#") {
        false
    } else {
        return (None, s);
    };
    let r = s.get(4..).unwrap_or_default();
    match uint_prefix(r) {
        Some((id, n)) if r.get(n) == Some(&b']') => (
            Some(Tag { young, id }),
            trim_start(r.get(n + 1..).unwrap_or_default()),
        ),
        _ => (None, s),
    }
}

/// Lines without a JRockit prefix that the JVM writes: the R28 heap region dump
/// (` [00000000a0000000 - 00000000d0000000] rw-- (pagesize=0x1000)`,
/// ` 768MB committed, 768MB reserved.`) and option warnings
/// (`WARNING: Nursery size setting (-Xns) ignored ...`).
fn is_jvm_noise(line: &[u8]) -> bool {
    let t = trim(line);
    if let Some(r) = t.strip_prefix(b"[") {
        let hex = r.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if hex >= 8 && r.get(hex..).is_some_and(|r| r.starts_with(b" - ")) {
            return true;
        }
    }
    if find(t, b" committed, ").is_some() && t.ends_with(b" reserved.") {
        return true;
    }
    t.starts_with(b"WARNING: ") && find(t, b"(-X").is_some()
}

/// Young for "Nursery GC", "parallel nursery GC", "YC"; old for "GC", "OC".
fn phrase_kind(phrase: &[u8]) -> Kind {
    if phrase == b"YC" || contains_ci(phrase, b"nursery") || contains_ci(phrase, b"young") {
        Kind::Young
    } else {
        Kind::Old
    }
}

/// Kind from a pause name: "old collection phase 1" → old, "nursery collection" → young,
/// "YC:Main" → young, "OC:Initial" → old.
fn name_kind(name: &[u8]) -> Option<Kind> {
    if name.starts_with(b"YC") || contains_ci(name, b"nursery") || contains_ci(name, b"young") {
        Some(Kind::Young)
    } else if name.starts_with(b"OC") || contains_ci(name, b"old") {
        Some(Kind::Old)
    } else {
        None
    }
}

/// `Allocation request failed (31576 bytes).` → `Allocation request failed`.
fn cause_text(r: &[u8]) -> &[u8] {
    let r = strip_dot(trim(r));
    match r.strip_suffix(b")").and_then(|h| rfind(h, b" (")) {
        Some(p) => trim(r.get(..p).unwrap_or_default()),
        None => r,
    }
}

fn intern(log: &mut GcLog, s: &[u8]) -> u32 {
    match std::str::from_utf8(s) {
        Ok(t) => log.strings.intern(t),
        Err(_) => log.strings.intern(&String::from_utf8_lossy(s)),
    }
}

/// Seconds to whole milliseconds.
fn ms(s: f64) -> i64 {
    (s * 1000.0).round() as i64
}

fn strip_dot(s: &[u8]) -> &[u8] {
    let s = trim(s);
    s.strip_suffix(b".").unwrap_or(s)
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    s.get(n..).unwrap_or_default()
}

fn starts_with_ci(s: &[u8], prefix: &[u8]) -> bool {
    s.get(..prefix.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty()
        && hay
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (collections, their pause total in ms, pauses, concurrent phases) as downstream counts
    /// them: collections = Collection + standalone Pause.
    fn totals(log: &GcLog) -> (usize, f64, usize, usize) {
        let (mut n, mut total, mut pauses, mut conc) = (0, 0.0, 0, 0);
        for e in &log.events {
            match e.record {
                Record::Collection => {
                    n += 1;
                    total += e.duration_ms;
                }
                Record::Pause => {
                    pauses += 1;
                    if !e.in_collection {
                        n += 1;
                        total += e.duration_ms;
                    }
                }
                Record::Concurrent => conc += 1,
                Record::Safepoint => {}
            }
        }
        (n, total, pauses, conc)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    fn meta(log: &GcLog) -> Vec<(&str, &str)> {
        log.meta
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    fn s(log: &GcLog, i: u32) -> &str {
        log.strings.get(i)
    }

    /// Wall clock of an asctime stamp, seconds since the epoch (from `date -u -d ... +%s`).
    fn at(epoch_s: i64) -> i64 {
        epoch_s * 1000
    }

    #[test]
    fn r142_memory_prefix_nursery_and_old() {
        let log = parse(
            b"[memory ] GC strategy: gencon\n\
              [memory ] heap size: 1048576K, maximal heap size: 1048576K, nursery size: 102400K\n\
              [memory ] <s>-<end>: GC <before>K-><after>K (<heap>K), <pause> ms\n\
              [memory ] <s/start> - start time of collection (seconds since jvm start)\n\
              [memory ] <pause>   - total pause time during collection (milliseconds)\n\
              [INFO] Deserialization Total time: 21 ms\n\
              [memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
              \n\
              [memory ] 31.020: Nursery GC 125011K->30112K (1048576K), 48.906 ms\n\
              [memory ] 218.453-219.334: GC 463218K->106254K (1048576K), 147.386 ms\n",
        );
        assert_eq!(log.lines, 10);
        assert_eq!(log.skipped_lines, 1);
        assert_eq!(log.bad[0].line, 6);
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (3, 3, 0));
        assert!(close(total, 249.709));
        let e = &log.events[0];
        assert_eq!(
            (e.record, e.kind, e.in_collection),
            (Record::Pause, Kind::Young, false)
        );
        assert_eq!(
            (e.uptime_s, e.wall_ms, e.duration_ms),
            (Some(9.385), None, 53.417)
        );
        assert_eq!(
            (e.heap_before_kb, e.heap_after_kb, e.heap_total_kb),
            (Some(123930), Some(27087), Some(1048576))
        );
        assert_eq!(
            (s(&log, e.collector), s(&log, e.name), e.cause),
            ("Nursery", "Nursery GC", 0)
        );
        assert_eq!((e.gc_id, e.line), (Some(1), 7));
        let e = &log.events[2];
        assert_eq!(
            (e.record, e.kind, e.uptime_s, e.duration_ms),
            (Record::Pause, Kind::Old, Some(218.453), 147.386)
        );
        assert_eq!((s(&log, e.collector), e.gc_id, e.line), ("GC", Some(3), 10));
        assert_eq!(
            meta(&log),
            [
                ("gc_strategy", "gencon"),
                ("heap_size_kb", "1048576"),
                ("max_heap_size_kb", "1048576"),
                ("nursery_size_kb", "102400")
            ]
        );
    }

    #[test]
    fn r142_stamp_first_prefix_wall_clock_and_strategy_change() {
        let log = parse(
            b"[Wed Nov 16 15:19:08 2005][29147][memory ] GC strategy: System optimized over pausetime\n\
              [Wed Nov 16 15:19:08 2005][29147][memory ] heap size: 32768K, maximal heap size: 65536K, nursery size: 10240K\n\
              [Wed Nov 16 15:19:26 2005][29147][memory ] Changing GC strategy to single generation, concurrent mark and parallel sweep\n\
              [Wed Nov 16 15:19:26 2005][29147][memory ] 18.785-18.888: GC 32260K->4028K (32768K), 24.491 ms\n\
              [Wed Nov 16 15:19:35 2005][29147][memory ] 27.901: Nursery GC 29841K->20485K (32768K), 20.253 ms\n\
              [Wed Nov 16 15:21:51 2005][29147][memory ] \n\
              [Wed Nov 16 15:21:51 2005][29147][memory ] Memory usage report\n\
              [Wed Nov 16 15:21:51 2005][29147][memory ]     number of collections = 24\n\
              [Wed Nov 16 15:21:51 2005][29147][memory ]     maximum GC Pauses =      34.289 , 34.773, 47.713 ms\n",
        );
        assert_eq!((log.lines, log.skipped_lines), (9, 0));
        let (n, total, pauses, _) = totals(&log);
        assert_eq!((n, pauses), (2, 2));
        assert!(close(total, 44.744));
        // 15:19:26 minus the 103 ms span (18.785-18.888).
        let e = &log.events[0];
        assert_eq!(
            (e.kind, e.uptime_s, e.wall_ms),
            (Kind::Old, Some(18.785), Some(at(1132154366) - 103))
        );
        // A nursery line has no end: its pause (20.253 ms) is its span.
        let e = &log.events[1];
        assert_eq!(
            (e.kind, e.uptime_s, e.wall_ms),
            (Kind::Young, Some(27.901), Some(at(1132154375) - 20))
        );
        assert_eq!(
            meta(&log),
            [
                ("gc_strategy", "System optimized over pausetime"),
                ("heap_size_kb", "32768"),
                ("max_heap_size_kb", "65536"),
                ("nursery_size_kb", "10240"),
                (
                    "strategy_change",
                    "18.785: to single generation, concurrent mark and parallel sweep"
                )
            ]
        );
    }

    #[test]
    fn r27_gcpause_items_before_their_collection() {
        let log = parse(
            b"[memory ][Thu Feb 21 15:06:32 2013][11844] GC mode: Garbage collection optimized for short pausetimes, initial strategy: Concurrent Mark & Sweep\n\
              [memory ][Thu Feb 21 15:06:32 2013][11844] heap size: 3145728K, maximal heap size: 3145728K\n\
              [memory ][Thu Feb 21 15:06:32 2013][11844] <pause>   - total sum of pauses during collection (milliseconds)\n\
              [memory ][Thu Feb 21 15:06:32 2013][11844]             run with -Xverbose:gcpause to see individual pauses\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] old collection phase 1 pause time: 0.812500 ms, (start time: 6.250 s)\n\
              [memory ][Thu Feb 21 15:06:38 2013][11844] Changing GC strategy to Concurrent Mark, Parallel Sweep\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] Threads waited for memory 91.500 ms starting at 6.300 s\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] old collection phase 4-0 pause time: 61.250000 ms, (start time: 6.375 s)\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] (pause includes compaction: 15.125 ms (external), update ref: 0.375 ms)\n\
              [memory ][Thu Feb 21 15:06:38 2013][11844] 6.250-6.500: GC 3128161K->296406K (3145728K), sum of pauses 62.063 ms\n",
        );
        assert_eq!((log.lines, log.skipped_lines), (10, 0));
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (1, 2, 0));
        assert!(close(total, 62.063));
        assert_eq!(log.events.len(), 3);
        // Collection first (same start as its first pause), then the pauses in time order.
        let wall = at(1361459198) - 250; // written at the end, 6.500 - 6.250 s
        let c = &log.events[0];
        assert_eq!(
            (c.record, c.kind, c.duration_ms, c.uptime_s),
            (Record::Collection, Kind::Old, 62.063, Some(6.25))
        );
        assert_eq!((c.wall_ms, c.gc_id, c.line), (Some(wall), Some(1), 10));
        assert_eq!(
            (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
            (Some(3128161), Some(296406), Some(3145728))
        );
        let p = &log.events[1];
        assert_eq!(
            (p.record, p.kind, p.in_collection, p.gc_id),
            (Record::Pause, Kind::Old, true, Some(1))
        );
        assert_eq!(
            (p.duration_ms, p.uptime_s, p.wall_ms, p.line),
            (0.8125, Some(6.25), Some(wall), 5)
        );
        assert_eq!(s(&log, p.name), "old collection phase 1");
        let p = &log.events[2];
        assert_eq!(
            (p.in_collection, p.gc_id, p.duration_ms, p.uptime_s),
            (true, Some(1), 61.25, Some(6.375))
        );
        assert_eq!(
            (p.wall_ms, s(&log, p.name)),
            (Some(wall + 125), "old collection phase 4-0")
        );
        assert_eq!(
            meta(&log),
            [
                (
                    "gc_mode",
                    "Garbage collection optimized for short pausetimes"
                ),
                ("gc_strategy", "Concurrent Mark & Sweep"),
                ("heap_size_kb", "3145728"),
                ("max_heap_size_kb", "3145728"),
                (
                    "strategy_change",
                    "6.250: to Concurrent Mark, Parallel Sweep"
                )
            ]
        );
    }

    #[test]
    fn r27_info_prefix_without_gcpause() {
        let log = parse(
            b"[INFO ][memory ] GC mode: Static, strategy: Concurrent Mark & Sweep\n\
              [INFO ][memory ] heap size: 3145728K, maximal heap size: 3145728K\n\
              [INFO ][memory ] <s>-<end>: GC <before>K-><after>K (<heap>K), <pause> ms\n\
              [INFO ][memory ]             run with -Xverbose:gcpause to see individual pauses\n\
              [INFO ][memory ] 6.771-6.912: GC 3145728K->296406K (3145728K), sum of pauses 66.000 ms\n\
              [INFO ][memory ] 8.528-8.635: GC 3079893K->629445K (3145728K), sum of pauses 35.480 ms",
        );
        assert_eq!((log.lines, log.skipped_lines), (6, 0));
        let (n, total, pauses, _) = totals(&log);
        assert_eq!((n, pauses), (2, 2));
        assert!(close(total, 101.48));
        let e = &log.events[1];
        assert_eq!(
            (e.record, e.kind, e.in_collection, e.gc_id),
            (Record::Pause, Kind::Old, false, Some(2))
        );
        assert_eq!(
            (e.uptime_s, e.duration_ms, e.wall_ms),
            (Some(8.528), 35.48, None)
        );
        assert_eq!(
            meta(&log)[..2],
            [
                ("gc_mode", "Static"),
                ("gc_strategy", "Concurrent Mark & Sweep")
            ]
        );
    }

    #[test]
    fn r27_nursery_pause_line_follows_its_collection() {
        let log = parse(
            b"[memory ][Mon Feb 18 14:30:06 2013][09776] 21.500: parallel nursery GC 3145728K->3142656K (3145728K), 21.375 ms\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] nursery collection pause time: 21.375250 ms\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] Threads waited for memory 70.250 ms starting at 21.499 s\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] old collection phase 1-0 pause time: 44.125000 ms, (start time: 21.600 s)\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] (pause includes compaction: 20.500 ms (internal), update ref: 3.250 ms)\n\
              [memory ][Mon Feb 18 14:30:06 2013][09776] 21.600-21.645: GC 3145728K->1687917K (3145728K), 44.125 ms\n\
              [memory ][Mon Feb 18 14:30:07 2013][09776] 22.310: parallel nursery GC 2649495K->2647957K (3145728K), 12.250 ms\n",
        );
        assert_eq!((log.lines, log.skipped_lines), (7, 0));
        let (n, total, pauses, _) = totals(&log);
        assert_eq!((n, pauses), (3, 3));
        assert!(close(total, 77.75));
        let k: Vec<_> = log
            .events
            .iter()
            .map(|e| (e.record, e.kind, e.in_collection, e.gc_id))
            .collect();
        assert_eq!(
            k,
            [
                (Record::Collection, Kind::Young, false, Some(1)),
                (Record::Pause, Kind::Young, true, Some(1)),
                (Record::Collection, Kind::Old, false, Some(2)),
                (Record::Pause, Kind::Old, true, Some(2)),
                (Record::Pause, Kind::Young, false, Some(3)),
            ]
        );
        let p = &log.events[1];
        assert_eq!(
            (p.duration_ms, p.uptime_s, s(&log, p.name)),
            (21.37525, Some(21.5), "nursery collection")
        );
        assert_eq!(
            (p.wall_ms, log.events[0].wall_ms),
            (Some(at(1361197806) - 21), Some(at(1361197806) - 21))
        );
        assert_eq!(s(&log, log.events[0].collector), "Nursery");
        assert_eq!(log.events[2].wall_ms, Some(at(1361197806) - 45));
        assert_eq!(log.events[3].wall_ms, Some(at(1361197806) - 45));
        assert_eq!(log.events[4].wall_ms, Some(at(1361197807) - 12));
    }

    #[test]
    fn r27_pause_lines_after_or_before_their_collection_line() {
        // The first pause line follows its nursery line (inside its span), the second precedes
        // the next one (outside the first one's span): each goes with its own collection.
        let log = parse(
            b"[memory ] 40.000: parallel nursery GC 600000K->200000K (3145728K), 12.500 ms\n\
              [gcpause] nursery collection pause time: 12.500000 ms, (start time: 40.000 s)\n\
              [gcpause] nursery collection pause time: 9.250000 ms, (start time: 45.000 s)\n\
              [memory ] 45.000: parallel nursery GC 700000K->250000K (3145728K), 9.250 ms\n",
        );
        let (n, total, pauses, _) = totals(&log);
        assert_eq!((n, pauses), (2, 2));
        assert!(close(total, 21.75));
        let k: Vec<_> = log
            .events
            .iter()
            .map(|e| (e.record, e.in_collection, e.gc_id, e.uptime_s, e.line))
            .collect();
        assert_eq!(
            k,
            [
                (Record::Collection, false, Some(1), Some(40.0), 1),
                (Record::Pause, true, Some(1), Some(40.0), 2),
                (Record::Collection, false, Some(2), Some(45.0), 4),
                (Record::Pause, true, Some(2), Some(45.0), 3),
            ]
        );
    }

    #[test]
    fn r27_stale_and_unfinished_pauses_stay_standalone() {
        let log = parse(
            b"[gcpause] old collection phase 1 pause time: 2.500000 ms, (start time: 10.000 s)\n\
              [memory ] 20.000-20.300: GC 900000K->300000K (1048576K), sum of pauses 7.000 ms\n\
              [gcpause] old collection phase 1 pause time: 3.000000 ms, (start time: 30.000 s)\n\
              [gcpause] old collection phase 4-0 pause time: 4.000000 ms, (start time: 30.200 s)\n",
        );
        let (n, total, pauses, _) = totals(&log);
        assert_eq!((n, pauses), (4, 4));
        assert!(close(total, 16.5));
        assert!(log
            .events
            .iter()
            .all(|e| e.record == Record::Pause && !e.in_collection));
        let ids: Vec<_> = log.events.iter().map(|e| e.gc_id).collect();
        assert_eq!(ids, [None, Some(1), None, None]);
    }

    #[test]
    fn r28_gcpause_phases_and_their_collection() {
        let log = parse(
            b"[memory ][Sat Nov 17 16:36:45 2012][20346] GC mode: Garbage collection optimized for short pausetimes, strategy: Generational Concurrent Mark & Sweep.\n\
              [memory ][Sat Nov 17 16:36:45 2012][20346] Heap size: 25165824KB, maximal heap size: 25165824KB, nursery size: 4194304KB.\n\
              [memory ][Sat Nov 17 16:36:45 2012][20346] -: KB->KB (KB), ms, sum of pauses ms.\n\
              [memory ][Sat Nov 17 16:41:52 2012][20346] [YC#1] GC reason: Allocation request failed.\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [---] 400.250 ms (306.500000-306.900000) YC\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [con] 0.004 ms (306.500000-306.500000) YC:PreGC\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [pau] 399.875 ms (306.500000-306.900000) YC:Main\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [con] 0.062 ms (306.900000-306.900000) YC:PostGC\n\
              [memory ][Sat Nov 17 16:41:52 2012][20346] [YC#1] 306.500-306.900: YC 4264185KB->1261907KB (25165824KB), 0.400 s, sum of pauses 399.875 ms, longest pause 399.875 ms.\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] Thread \"AD Thread Pool-Global1\" id=22 idx=0x4c tid=20366 was in TLA-fetch 400.500 ms from 306.500 s (1 GCs).\n",
        );
        assert_eq!((log.lines, log.skipped_lines), (10, 0));
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (1, 1, 2));
        assert!(close(total, 399.875));
        let wall = at(1353170512) - 400;
        let kinds: Vec<_> = log
            .events
            .iter()
            .map(|e| (e.record, s(&log, e.name), e.wall_ms))
            .collect();
        assert_eq!(
            kinds,
            [
                (Record::Collection, "YC", Some(wall)),
                (Record::Concurrent, "YC:PreGC", Some(wall)),
                (Record::Pause, "YC:Main", Some(wall)),
                (Record::Concurrent, "YC:PostGC", Some(wall + 400)),
            ]
        );
        for e in &log.events {
            assert_eq!((e.kind, e.gc_id), (Kind::Young, Some(1)));
            assert_eq!(s(&log, e.cause), "Allocation request failed");
            assert_eq!(s(&log, e.collector), "YC");
        }
        let c = &log.events[0];
        assert_eq!(
            (c.duration_ms, c.uptime_s, c.line),
            (399.875, Some(306.5), 9)
        );
        assert_eq!(
            (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
            (Some(4264185), Some(1261907), Some(25165824))
        );
        let p = &log.events[2];
        assert_eq!(
            (p.in_collection, p.duration_ms, p.uptime_s, p.line),
            (true, 399.875, Some(306.5), 7)
        );
        assert_eq!(log.events[3].duration_ms, 0.062);
        assert_eq!(
            meta(&log),
            [
                (
                    "gc_mode",
                    "Garbage collection optimized for short pausetimes"
                ),
                ("gc_strategy", "Generational Concurrent Mark & Sweep"),
                ("heap_size_kb", "25165824"),
                ("max_heap_size_kb", "25165824"),
                ("nursery_size_kb", "4194304")
            ]
        );
    }

    #[test]
    fn r28_info_prefix_reason_strategy_and_other_modules() {
        let text = "[WARN ] Use of -Djrockit.optfile is deprecated and discouraged.\n\
            [INFO ][memory ] Running with 32 bit heap and compressed references.\n\
            [INFO ][memory ] Java heap regions:\n \
            [00000000a0000000 - 00000000d0000000] rw-- (pagesize=0x1000)\n \
            768MB committed, 768MB reserved.\n\
            [INFO ][memory ] GC mode: Garbage collection optimized for throughput, strategy: Generational Parallel Mark & Sweep.\n\
            [INFO ][memory ] <start>-<end>: <type> <before>KB-><after>KB (<heap>KB), <time> ms, sum of pauses <pause> ms.\n\
            [INFO ][memory ] [OC#3] Changing GC strategy from: singleparcon to: singleparpar, reason: Emergency parallel sweep requested.\n\
            [INFO ][memory ] [OC#3] GC reason: Allocation request failed (31576 bytes).\n\
            [INFO ][memory ] [OC#3] 27.641: OC started.\n\
            [alloc  ] [OC#3] Pending requests at 'Before OC' - Total: 1, TLAs: 0 (approx 0 bytes), objects: 1 (31576 bytes). Max age: 0.\n\
            [compact] [OC#3] Compaction reason: Normal.\n\
            [nursery] [OC#3] Nursery size remains at 393201KB. Nursery list consists of 5057 parts.\n\
            [INFO ][memory ] [OC#3] Total mark time: 5.125 ms.\n\
            [INFO ][memory ] [OC#3] 27.641-27.656: OC 332952KB->214035KB (524288KB), 0.015 s, sum of pauses 12.625 ms, longest pause 12.500 ms.\n\
            [ERROR][memory ] Throwing OutOfMemory: allocLargeObjectOrArray: [B, size 118101136\n\
            [INFO ][memory ] [YC#7] 30.100-30.125: YC 400000KB->150000KB (524288KB), 0.025 s, sum of pauses 24.750 ms, longest pause 24.750 ms.\n\
            Exception in thread \"main\" java.lang.OutOfMemoryError: allocLargeObjectOrArray: [B, size 118101136\n\
            \tat com.example.Load.main(Load.java:42)\n";
        let log = parse(text.as_bytes());
        assert_eq!((log.lines, log.skipped_lines), (19, 2));
        assert_eq!((log.bad[0].line, log.bad[1].line), (18, 19));
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (2, 2, 0));
        assert!(close(total, 37.375));
        let oc = &log.events[0];
        assert_eq!(
            (oc.record, oc.kind, oc.gc_id, oc.uptime_s),
            (Record::Pause, Kind::Old, Some(3), Some(27.641))
        );
        assert_eq!(
            (s(&log, oc.cause), s(&log, oc.collector), oc.duration_ms),
            ("Allocation request failed", "OC", 12.625)
        );
        let yc = &log.events[1];
        assert_eq!(
            (yc.kind, yc.gc_id, yc.cause, yc.duration_ms),
            (Kind::Young, Some(7), 0, 24.75)
        );
        assert_eq!(
            meta(&log),
            [
                ("gc_mode", "Garbage collection optimized for throughput"),
                ("gc_strategy", "Generational Parallel Mark & Sweep"),
                (
                    "strategy_change",
                    "27.641: from: singleparcon to: singleparpar, reason: Emergency parallel sweep requested."
                )
            ]
        );
    }

    #[test]
    fn r28_truncated_collection_keeps_its_pauses() {
        let log = parse(
            b"[INFO ][gcpause] [YC#12] [---] 95.500 ms (870.400000-870.496000) YC\n\
              [INFO ][gcpause] [YC#12] [con] 0.003 ms (870.400000-870.400000) YC:PreGC\n\
              [INFO ][gcpause] [YC#12] [pau] 95.375 ms (870.400000-870.495000) YC:Main\n\
              [INFO ][gcpause] [YC#12] [con] 0.011 ms (870.4950",
        );
        // The cut last line looks like a phase line but cannot be read.
        assert_eq!((log.lines, log.skipped_lines), (4, 1));
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (1, 1, 1));
        assert!(close(total, 95.375));
        let p = &log.events[1];
        assert_eq!(
            (p.record, p.kind, p.in_collection, p.gc_id),
            (Record::Pause, Kind::Young, false, Some(12))
        );
        assert_eq!((p.uptime_s, s(&log, p.name)), (Some(870.4), "YC:Main"));
    }

    #[test]
    fn nursery_during_old_collection_is_put_in_start_order() {
        let log = parse(
            b"[memory ] 100.100: Nursery GC 20385K->19901K (32768K), 12.250 ms\n\
              [memory ] 100.150: Nursery GC 19901K->19901K (32768K), 10.500 ms\n\
              [memory ] 100.120-100.700: GC 19901K->16717K (32768K), 384.125 ms\n",
        );
        let order: Vec<_> = log
            .events
            .iter()
            .map(|e| (e.uptime_s, e.line, e.kind))
            .collect();
        assert_eq!(
            order,
            [
                (Some(100.1), 1, Kind::Young),
                (Some(100.12), 3, Kind::Old),
                (Some(100.15), 2, Kind::Young)
            ]
        );
    }

    #[test]
    fn prefixes_and_helpers() {
        let p = split_prefix(b"[INFO ][memory ] [OC#1] x");
        assert_eq!(
            (p.module, p.level, p.wall, p.rest),
            (Some(&b"memory"[..]), true, None, &b"[OC#1] x"[..])
        );
        let p = split_prefix(b"[Wed Nov 16 15:19:26 2005][29147][memory ] 1.0");
        assert_eq!(
            (p.module, p.wall, p.rest),
            (Some(&b"memory"[..]), Some(at(1132154366)), &b"1.0"[..])
        );
        let p = split_prefix(b"[gcpause][Thu Feb 21 15:06:38 2013][11844] y");
        assert_eq!(
            (p.module, p.wall, p.rest),
            (Some(&b"gcpause"[..]), Some(at(1361459198)), &b"y"[..])
        );
        let p = split_prefix(b"[INFO] Deserialization");
        assert_eq!((p.module, p.level), (None, false));
        let p = split_prefix(b"[12345] x");
        assert_eq!((p.module, p.rest), (None, &b"[12345] x"[..]));
        assert_eq!(
            split_tag(b"[YC#12] a"),
            (
                Some(Tag {
                    young: true,
                    id: 12
                }),
                &b"a"[..]
            )
        );
        assert_eq!(split_tag(b"[OC#x] a").0, None);
        assert_eq!(
            cause_text(b"Allocation request failed (31576 bytes)."),
            b"Allocation request failed"
        );
        assert_eq!(cause_text(b"System.gc() called."), b"System.gc() called");
    }

    #[test]
    fn empty_and_blank_input() {
        let log = parse(b"");
        assert_eq!((log.lines, log.skipped_lines, log.events.len()), (0, 0, 0));
        let log = parse(b"\n\r\n  \n");
        assert_eq!((log.lines, log.skipped_lines, log.events.len()), (3, 0, 0));
    }

    /// A small xorshift generator: deterministic "random" input without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn check_invariants(buf: &[u8]) {
        let log = parse(buf);
        assert_eq!(log.lines, crate::parse::lines::count(buf));
        assert!(log.skipped_lines <= log.lines);
        for e in &log.events {
            assert!(e.duration_ms.is_finite() && e.duration_ms >= 0.0);
            assert!(e.line >= 1 && e.line <= log.lines);
        }
    }

    #[test]
    fn random_bytes_do_not_panic() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for len in [1usize, 7, 100, 4096, 65536] {
            let buf: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            check_invariants(&buf);
        }
        // Random lines from JRockit fragments reach the deeper branches.
        const PARTS: &[&str] = &[
            "[memory ]",
            "[gcpause]",
            "[INFO ]",
            "[nursery]",
            "[Thu Feb 21 15:06:38 2013]",
            "[11844]",
            " ",
            "[YC#",
            "[OC#",
            "7",
            "]",
            " [pau] ",
            " [con] ",
            " [---] ",
            "12.5",
            "-",
            "306.486000",
            " ms",
            " ms (",
            ")",
            ": ",
            "GC ",
            "Nursery GC ",
            "YC ",
            "123K",
            "->",
            "KB",
            " (",
            "), ",
            "sum of pauses ",
            "pause time: ",
            ", (start time: ",
            " s)",
            "GC reason: ",
            "heap size: ",
            "Changing GC strategy ",
            "GC mode: ",
            "strategy: ",
            ",",
            ".",
            "\u{e9}",
            "\n",
            "\n",
            "\r\n",
        ];
        for round in 0..300 {
            let mut buf = Vec::new();
            for _ in 0..(rng.next() % 200) {
                buf.extend_from_slice(PARTS[(rng.next() % PARTS.len() as u64) as usize].as_bytes());
            }
            if round % 3 == 0 {
                buf.push(0xff);
            }
            check_invariants(&buf);
        }
    }

    #[test]
    fn every_truncation_of_a_log_parses() {
        let buf = include_bytes!("../../fixtures/jrockit/r28-gencon-gcpause.log");
        let head = buf.get(..6000).unwrap_or(buf);
        for cut in 0..=head.len() {
            check_invariants(&head[..cut]);
        }
        let buf = include_bytes!("../../fixtures/jrockit/r26-detgc.log");
        for cut in (0..=buf.len()).step_by(3) {
            check_invariants(&buf[..cut]);
        }
    }

    #[test]
    fn non_utf8_bytes_are_tolerated() {
        let log = parse(
            b"[memory ] GC strategy: gen\xffcon\n\
              \xfe\xff[INFO] x\n\
              [gcpause] old \xe9 collection phase 1 pause time: 1.500000 ms, (start time: 9.000 s)\n\
              [memory ] 9.000-9.100: GC 123930K->27087K (1048576K), sum of pauses 1.500 ms\n\
              [memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.4",
        );
        assert_eq!((log.lines, log.skipped_lines), (5, 2));
        assert_eq!(
            log.meta[0],
            ("gc_strategy".to_owned(), "gen\u{fffd}con".to_owned())
        );
        let (n, total, pauses, _) = totals(&log);
        assert_eq!((n, pauses), (1, 1));
        assert!(close(total, 1.5));
        assert_eq!(
            s(&log, log.events[1].name),
            "old \u{fffd} collection phase 1"
        );
    }

    #[test]
    fn fixture_r26_detgc() {
        // Deterministic GC: 12 old collections, each itemised by 4 pauses of at most 30 ms.
        let log = parse(include_bytes!("../../fixtures/jrockit/r26-detgc.log"));
        assert_eq!((log.lines, log.skipped_lines), (86, 1));
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (12, 48, 0));
        assert!(close(total, 605.221));
        let pause_sum: f64 = log
            .events
            .iter()
            .filter(|e| e.record == Record::Pause)
            .map(|e| e.duration_ms)
            .sum();
        assert!(close(pause_sum, 605.220544));
        let max = log
            .events
            .iter()
            .filter(|e| e.record == Record::Pause)
            .map(|e| e.duration_ms)
            .fold(0.0, f64::max);
        assert_eq!(max, 28.90731);
        assert!(log
            .events
            .iter()
            .all(|e| e.kind == Kind::Old && (e.record == Record::Collection || e.in_collection)));
        let c = &log.events[0];
        assert_eq!(
            (c.record, c.uptime_s, c.duration_ms, c.gc_id),
            (Record::Collection, Some(4.2), 46.087, Some(1))
        );
        assert_eq!(
            (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
            (Some(975897), Some(188154), Some(1048576))
        );
        assert_eq!(c.wall_ms, Some(at(1363083306) - 363)); // 10:15:06 minus 4.200-4.563
        let names: Vec<_> = log.events[1..5]
            .iter()
            .map(|e| (s(&log, e.name), e.gc_id))
            .collect();
        assert_eq!(
            names,
            [
                ("old collection phase 1", Some(1)),
                ("old collection phase 3", Some(1)),
                ("old collection phase 4-0", Some(1)),
                ("old collection phase 4-1", Some(1))
            ]
        );
        assert_eq!(log.events[4].wall_ms, Some(at(1363083306) - 363 + 345)); // starts at 4.545
        let last = &log.events[55];
        assert_eq!(
            (last.record, last.uptime_s, last.duration_ms, last.gc_id),
            (Record::Collection, Some(71.407), 49.324, Some(12))
        );
        assert_eq!(
            meta(&log)[0],
            (
                "gc_mode",
                "Garbage collection optimized for deterministic pausetimes"
            )
        );
    }

    #[test]
    fn fixture_r26_gencon() {
        // -Xverbose:memory only: every collection is one standalone pause; one nursery collection
        // runs during an old one and is written before it.
        let log = parse(include_bytes!("../../fixtures/jrockit/r26-gencon.log"));
        assert_eq!((log.lines, log.skipped_lines), (91, 2));
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (70, 70, 0));
        assert!(close(total, 2590.834));
        let young = log.events.iter().filter(|e| e.kind == Kind::Young).count();
        let old: f64 = log
            .events
            .iter()
            .filter(|e| e.kind == Kind::Old)
            .map(|e| e.duration_ms)
            .sum();
        assert_eq!(young, 65);
        assert!(close(old, 1091.055));
        let max = log.events.iter().map(|e| e.duration_ms).fold(0.0, f64::max);
        assert_eq!(max, 274.862);
        assert!(log
            .events
            .windows(2)
            .all(|w| w[0].uptime_s <= w[1].uptime_s));
        assert!(log
            .events
            .iter()
            .all(|e| e.record == Record::Pause && !e.in_collection && e.wall_ms.is_none()));
        assert_eq!(
            meta(&log),
            [
                ("gc_mode", "Static"),
                ("gc_strategy", "Generational Concurrent Mark & Sweep"),
                ("heap_size_kb", "524288"),
                ("max_heap_size_kb", "1048576"),
                ("nursery_size_kb", "65536"),
                (
                    "strategy_change",
                    "128.734: to Generational Concurrent Mark, Parallel Sweep"
                ),
                (
                    "strategy_change",
                    "168.679: to Generational Concurrent Mark & Sweep"
                )
            ]
        );
    }

    #[test]
    fn fixture_r28_gencon_gcpause() {
        // 14 YC + 2 OC with their phases, then YC#15 cut off before its [memory ] line.
        let log = parse(include_bytes!(
            "../../fixtures/jrockit/r28-gencon-gcpause.log"
        ));
        assert_eq!((log.lines, log.skipped_lines), (178, 0));
        let (n, total, pauses, conc) = totals(&log);
        assert_eq!((n, pauses, conc), (17, 23, 37));
        assert!(close(total, 773.509 + 42.125));
        let colls: Vec<_> = log
            .events
            .iter()
            .filter(|e| e.record == Record::Collection)
            .collect();
        assert_eq!(colls.len(), 16);
        assert_eq!(colls.iter().filter(|e| e.kind == Kind::Old).count(), 2);
        assert!(colls
            .iter()
            .all(|e| s(&log, e.cause) == "Allocation request failed"));
        let c = colls[0];
        assert_eq!(
            (c.kind, c.gc_id, c.uptime_s, c.duration_ms),
            (Kind::Young, Some(1), Some(11.3), 24.037)
        );
        assert_eq!(
            (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
            (Some(281000), Some(186668), Some(1048576))
        );
        assert_eq!(c.wall_ms, Some(at(1365412374) - 24));
        // OC#1: 4 pauses (Initial, Main, SweepSwitch, Cleanup) summing to its 74.915 ms.
        let oc1: Vec<_> = log
            .events
            .iter()
            .filter(|e| e.kind == Kind::Old && e.gc_id == Some(1))
            .collect();
        assert_eq!(oc1[0].record, Record::Collection);
        assert_eq!(
            (oc1[0].duration_ms, oc1[0].uptime_s),
            (74.915, Some(55.881))
        );
        assert_eq!(oc1[0].wall_ms, Some(at(1365412419) - 473));
        let p: Vec<_> = oc1
            .iter()
            .filter(|e| e.record == Record::Pause)
            .map(|e| (s(&log, e.name), e.duration_ms))
            .collect();
        assert_eq!(
            p,
            [
                ("OC:Initial", 9.874),
                ("OC:Main", 64.838),
                ("OC:SweepSwitch", 0.011),
                ("OC:Cleanup", 0.192)
            ]
        );
        assert_eq!(
            oc1.iter()
                .filter(|e| e.record == Record::Concurrent)
                .count(),
            4
        );
        let orphan = log
            .events
            .iter()
            .find(|e| e.record == Record::Pause && !e.in_collection);
        let orphan = orphan.map(|e| (e.kind, e.gc_id, e.uptime_s, e.duration_ms));
        assert_eq!(orphan, Some((Kind::Young, Some(15), Some(96.762), 42.125)));
        assert_eq!(meta(&log)[4], ("nursery_size_kb", "131072"));
        assert_eq!(
            meta(&log)[5],
            (
                "strategy_change",
                "92.074: from: genconcon to: genconpar, reason: Emergency parallel sweep requested."
            )
        );
    }
}
