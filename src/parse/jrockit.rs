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
//! R28 logs young and old collections are numbered apart: `(kind, gc_id)` identifies one); the
//! frame keeps an invented one only where it links itemised pauses to their collection.
//!
//! Wall clock: the stamp is when the line was written, i.e. the end of what it reports, so an
//! event's `wall_ms` is the stamp minus its span (`end - start`; for a nursery line without an
//! end, its pause; for a 5.0 pause line, the pause).
//!
//! Every line is counted once (`GcLog::record_lines`, `ignored_lines`, `skipped_lines`):
//! - record: the lines events are read from: `[memory ]` collection lines, `[gcpause]` pause
//!   and phase lines (`... pause time: ...`, R28 `[pau]`, `[con]` and `[---]`).
//! - ignored, the lines JRockit writes that carry no record: blank lines; the rest of the
//!   `[memory ]` module (legend, `GC mode:`, `GC strategy:`, heap sizes, `GC reason:`,
//!   `... started.`, the memory usage report, `Throwing OutOfMemory`, R28 per-collection
//!   details); `[gcpause]` notes (`(pause includes compaction: ...)`, `Threads waited for
//!   memory ...`, `Thread ... was in TLA-fetch ...`); every other module (`[nursery]`,
//!   `[alloc  ]`, `[compact]`, ...); the JVM's own messages under a level (`[WARN ] ...`);
//!   the R28 heap region dump and `-X` option warnings without a prefix; the pause target
//!   (`Deterministic GC target pause time: 30 ms`, a line giving `-XpauseTarget=30ms`), kept
//!   as the meta entry `pause_target_ms`.
//! - skipped: a line of another family (a unified `[0.1s][info][gc]` line, a HotSpot
//!   `12.3: [GC ...]` event, a perf-log row, application output); a `[memory ]` line shaped
//!   like a collection (a figure, then `->`) that cannot be read, or whose values cannot be
//!   true (`GcEvent::implausible`, an end before its start); a `[gcpause]` pause line that
//!   cannot be read or cannot be true; any other `[gcpause]` line (a pause form we do not
//!   know must not vanish); a stamp that cannot be a date (`Thu Feb 31 ...`).

use super::family::{Block, BlockParser, Family, GcFormat, Handle, OwnedStart};
use super::limits::{self, cap_label, MAX_DIGITS};
use super::lines::{lines, strip_leading_nuls};
use super::num::{self, rfind, trim, uint_prefix};
use crate::model::{GcClock, GcEvent, GcLog, Kind, Record};

/// The JRockit family: `-Xverbose:memory,gcpause` (and the like) of R26 to R28, and the
/// `-verbose:gc` of JRockit 1.4 and 5.0.
pub const FAMILY: GcFormat = Handle(&Jrockit);

struct Jrockit;

impl Family for Jrockit {
    fn name(&self) -> &'static str {
        "jrockit"
    }
    fn about(&self) -> &'static str {
        "JRockit `-Xverbose:memory,gcpause` logs (R26-R28)"
    }

    fn recognises(&self, line: &[u8]) -> bool {
        num::contains(line, b"[memory ]") || num::contains(line, b"[gcpause]")
    }

    /// A JRockit 1.4/5.0 collection line (no detail lines wait for it across the cut).
    fn safe_start(&self, line: &[u8]) -> bool {
        num::contains(line, b"[memory ]")
            && num::contains(line, b"->")
            && !num::contains(line, b"#")
    }

    /// A collection's pause lines come before its collection line: blocks end after one.
    fn cut_after(&self) -> bool {
        true
    }

    fn block_parser(&self, events: Vec<GcEvent>, flush_at: usize) -> Box<dyn BlockParser> {
        Box::new(Parser {
            log: GcLog::reusing(events),
            settle: super::settle::Settle::every(flush_at),
            ..Parser::default()
        })
    }

    /// Old collections are written after the nursery collections inside them.
    fn reorders(&self) -> bool {
        true
    }

    /// A module decoration, `[memory ]`, `[gcpause]`, after `[INFO ]` or `[Wed Nov 16
    /// 15:02:13 2005]`: seven lower-case letters and blanks.
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"[")
    }

    fn owns(&self, line: &[u8]) -> bool {
        super::family::decorations(line).any(|(_, d, _)| {
            d.len() == 7
                && d[0].is_ascii_lowercase()
                && d.iter().all(|&b| b.is_ascii_lowercase() || b == b' ')
        })
    }

    /// Wall-clock stamps are local, without an offset, and cut to whole seconds.
    fn clock(&self) -> GcClock {
        GcClock {
            writes_offset: false,
            undated_is_utc: false,
            whole_seconds: true,
        }
    }
}

impl BlockParser for Parser {
    /// Read the lines of `buf` after those read so far (a streamed log comes in blocks).
    fn feed(&mut self, buf: &[u8]) {
        self.order_scan = None;
        let base = self.log.lines;
        let mut it = lines(buf);
        // Empty lines are ignored lines whatever comes before them: passed over in bulk.
        while let Some((no, line)) = it.next_after_empty(&mut self.log.ignored_lines) {
            let no = base + no;
            self.log.lines = no;
            let line = strip_leading_nuls(line);
            match self.line(no, line) {
                Fate::Record => self.log.record_lines += 1,
                Fate::Ignored => self.log.ignored_lines += 1,
                Fate::Skipped => self.log.skip(no, line),
            }
            if self.settle.due(self.log.events.len()) {
                self.flush();
            }
        }
        // Empty lines at the end.
        self.log.lines = base + it.line_no();
    }
    /// Nothing waits for the next lines (pauses or causes for a collection line to come,
    /// strategy changes for the next collection): a block may end here.
    fn idle(&self) -> bool {
        self.pending.is_empty()
            && self.causes.is_empty()
            && self.promoted.is_empty()
            && self.strategy_pending.is_empty()
    }
    fn consulted(&self) -> bool {
        self.consulted
    }
    fn continues_into(&self, next: &dyn BlockParser) -> bool {
        (next as &dyn std::any::Any)
            .downcast_ref::<Parser>()
            .is_some_and(|n| Parser::continues_into(self, n))
    }
    /// What the joining will ask of a block, worked out where it was parsed: the
    /// bounds of its keys and `finish`'s pass over them (together 10 % of a JRockit log's
    /// time in the joining, which was the busiest thread).
    fn warm(&mut self) {
        let (bounds, aside) = self.scan();
        self.bounds.set(Some(bounds));
        self.order_scan = Some((self.count(), aside));
    }
    fn finish(self: Box<Self>) -> Block {
        self.finish_log().into()
    }
}

/// What one line turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Record,
    Ignored,
    Skipped,
}

impl Fate {
    /// A line that must be understood: a record if read, else skipped.
    fn read(ok: bool) -> Fate {
        if ok {
            Fate::Record
        } else {
            Fate::Skipped
        }
    }
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

/// Sort keys of `continues_into`: start (none sorts as unknown), then a collection before
/// its pauses.
type Key = (Option<f64>, bool);

/// Events counted, earliest and latest key.
type Bounds = (usize, Option<Key>, Option<Key>);

fn later(a: Key, b: Key) -> Key {
    match (a.0, b.0) {
        (None, _) => a,
        (_, None) => b,
        (Some(x), Some(y)) if y > x || (y == x && b.1 >= a.1) => b,
        _ => a,
    }
}

fn earlier(a: Key, b: Key) -> Key {
    match (a.0, b.0) {
        (None, _) => a,
        (_, None) => b,
        (Some(x), Some(y)) if y < x || (y == x && !b.1 && a.1) => b,
        _ => a,
    }
}

/// A pause looked up against the last collection line: its start, duration, kind hint.
type Lookup = (Option<f64>, f64, Option<Kind>);

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
    /// A group that looks like a stamp or a module but cannot be one: a date that does not
    /// exist (`[Thu Feb 31 15:06:32 2013]`), a unified-logging `[gc     ]` tag.
    bad: bool,
    /// The text after the prefix, leading blanks removed (the whole line if no prefix).
    rest: &'a [u8],
}

/// Most pauses kept waiting for a collection line (a log with `gcpause` but no `memory` output
/// would otherwise grow the list without end; the dropped ones stay standalone pauses). An
/// old collection and the young ones inside it itemise a few dozen at most.
const MAX_PENDING: usize = 256;
const MAX_CAUSES: usize = 32;
/// Most `meta` entries kept (a log of a million `GC strategy:` lines must not grow it, nor
/// make the strategy-change bookkeeping slow).
const MAX_META: usize = 1024;

#[derive(Default)]
pub struct Parser {
    log: GcLog,
    pending: Vec<Pending>,
    /// `GC reason:` lines waiting for their collection.
    causes: Vec<(Option<Tag>, u32)>,
    /// R28 `YC promoted N objects (XKB)` figures waiting for their collection.
    promoted: Vec<(Option<Tag>, u64)>,
    /// `strategy_change` meta entries waiting for the start of the next collection.
    strategy_pending: Vec<usize>,
    /// Last invented collection number (logs without `[YC#n]`).
    next_id: u64,
    /// The last collection line (event index, start and end in seconds): a 5.0 pause line
    /// written after it itemises it if it falls in its span (`nursery collection pause time:
    /// 38.687114 ms` comes right after its `parallel nursery GC ... 38.687 ms` line).
    last_coll: Option<(usize, f64, f64)>,
    /// Pause lines looked up against a collection line before this parser had read one (see
    /// `continues_into`); `consulted`: more than are kept.
    lookups: Vec<Lookup>,
    consulted: bool,
    /// `bounds()` for this many events.
    bounds: std::cell::Cell<Option<Bounds>>,
    /// `finish`'s pass over the order keys (the events out of place), made by `warm` on the
    /// thread that parsed the block; dropped when more lines are read.
    order_scan: Option<(usize, Vec<AsideKey>)>,
    /// The last two collection phrases (up to 32 bytes) and their `Parser::phrase`.
    phrases: [Option<Memo<Phrase>>; 2],
    /// The last two pause names (up to 32 bytes) and their `name_kind`.
    names: [Option<Memo<Option<Kind>>>; 2],
    /// The last asctime stamp read and its value (consecutive lines repeat the stamp).
    stamp: Option<([u8; 24], Option<i64>)>,
    /// Streamed: the settled events (those no later line can change) go to the block's
    /// columns (see `flush`).
    settle: super::settle::Settle,
    /// Events moved to the columns (the events' positions count from the first one).
    flushed: usize,
    /// `scan`'s pass over the events moved to `cols`, to go on from.
    scanned: Scanned,
}

/// `Parser::scan` part way: over the first `n` events.
#[derive(Clone)]
struct Scanned {
    n: usize,
    last: f64,
    top: Option<(f64, u8)>,
    first_key: Option<Key>,
    last_key: Option<Key>,
    aside: Vec<AsideKey>,
}

impl Default for Scanned {
    fn default() -> Self {
        Scanned {
            n: 0,
            last: f64::NEG_INFINITY,
            top: None,
            first_key: None,
            last_key: None,
            aside: Vec::new(),
        }
    }
}

impl Scanned {
    /// `over` for events in time order, each with a start, none before the latest passed
    /// over: only the first and the last count.
    fn over_ordered(&mut self, events: &[GcEvent]) {
        if let (Some(first), Some(last)) = (events.first(), events.last()) {
            let n = self.n + events.len();
            self.over([first, last]);
            self.n = n;
        }
    }

    /// Go on over `events`, the next ones in the log.
    fn over<'e>(&mut self, events: impl IntoIterator<Item = &'e GcEvent>) {
        for e in events {
            let i = self.n;
            self.n += 1;
            let key = (e.uptime_s, e.record != Record::Collection);
            self.first_key = Some(self.first_key.map_or(key, |f| earlier(f, key)));
            self.last_key = Some(self.last_key.map_or(key, |l| later(l, key)));
            let k = order_key(e, &mut self.last);
            // Log order breaks a tie between equal (start, rank) pairs, so `<=` is in order.
            if self.top.is_none_or(|t| cmp_key(t, k).is_le()) {
                self.top = Some(k);
            } else {
                self.aside.push((k, i));
            }
        }
    }
}

/// A text of up to 32 bytes (a collection phrase, a pause name) and what was found in it.
#[derive(Debug, Clone, Copy)]
struct Memo<T> {
    bytes: [u8; 32],
    len: usize,
    found: T,
}

impl<T: Copy> Memo<T> {
    fn is(&self, s: &[u8]) -> bool {
        self.bytes.get(..self.len) == Some(s)
    }
}

/// What `memos` hold for `s`, else `find(s)`, then held as the latest (a text over 32 bytes
/// is not held).
fn remember<T: Copy>(memos: &mut [Option<Memo<T>>; 2], s: &[u8], find: impl Fn(&[u8]) -> T) -> T {
    if let Some(m) = memos.iter().flatten().find(|m| m.is(s)) {
        return m.found;
    }
    let found = find(s);
    let mut bytes = [0u8; 32];
    if let Some(d) = bytes.get_mut(..s.len()) {
        d.copy_from_slice(s);
        memos.swap(0, 1);
        memos[0] = Some(Memo {
            bytes,
            len: s.len(),
            found,
        });
    }
    found
}

/// What `Parser::phrase` found in a collection phrase.
#[derive(Debug, Clone, Copy)]
struct Phrase {
    kind: Kind,
    nursery: bool,
    /// Its collection's collector and name ids (see `phrase_ids`), for a young collection
    /// and for any other, once asked.
    ids: [Option<(u32, u32)>; 2],
}

impl Parser {
    /// Events read so far, moved to the columns or not.
    fn count(&self) -> usize {
        self.flushed + self.log.events.len()
    }

    /// Move the events no later line can change to the block's columns: those before the
    /// first pause waiting for its collection line and before the last collection line (a
    /// 5.0 pause line after it goes under it). Positions held are moved down with them.
    ///
    /// They go in time order (as `put_in_order` leaves them): an old collection is written
    /// after the nursery collections inside it, so those before the last collection line are
    /// put in order first, and the last 1/32 of a try's events stay, in case the next old
    /// collection goes before them (a few places back in real logs; else `put_in_order`
    /// takes all the events back). Put in order only where every one of them has a start of
    /// its own and none goes before an event moved already: in a block where that is not so,
    /// the events are held from there on, as they were before blocks had columns.
    fn flush(&mut self) {
        let n = self.log.events.len();
        let limit = (self.pending.iter().map(|p| p.idx))
            .chain(self.last_coll.map(|(ci, _, _)| ci))
            .fold(n, usize::min);
        let k = limit.min(n.saturating_sub(self.settle.at() / 32));
        if !self.settle.worth(k, n) {
            return;
        }
        // One pass: every event has a start and none goes before the latest moved, and which
        // are out of order among themselves.
        let top = self.scanned.top;
        let Some(window) = self.log.events.get(..limit) else {
            return;
        };
        let mut local: Option<(f64, u8)> = None;
        let mut aside: Vec<AsideKey> = Vec::new();
        let mut fits = true;
        for (i, e) in window.iter().enumerate() {
            let Some(u) = e.uptime_s else {
                fits = false;
                break;
            };
            let key = (u, u8::from(e.record != Record::Collection));
            if top.is_some_and(|t| cmp_key(t, key).is_gt()) {
                fits = false;
                break;
            }
            if local.is_none_or(|t| cmp_key(t, key).is_le()) {
                local = Some(key);
            } else {
                aside.push((key, i));
            }
        }
        // The first event held after them has its own start too (the start an event without
        // one takes is the one before it in the log).
        let next_timed = self.log.events.get(k).is_none_or(|e| e.uptime_s.is_some());
        if !(fits && next_timed) {
            self.settle.stop();
            return;
        }
        if !aside.is_empty() {
            let Some(window) = self.log.events.get_mut(..limit) else {
                return;
            };
            merge_back(window, aside);
        }
        let Some(settled) = self.log.events.get(..k) else {
            return;
        };
        self.scanned.over_ordered(settled);
        self.settle.take(&mut self.log.events, k);
        for p in &mut self.pending {
            p.idx -= k;
        }
        if let Some((ci, _, _)) = &mut self.last_coll {
            *ci -= k;
        }
        self.flushed += k;
        self.bounds.set(None);
        self.order_scan = None;
    }

    /// The events moved to the columns back in front of those held (a block whose events
    /// must be put in time order across them: rare).
    fn unflush(&mut self) {
        let Some(cols) = self.settle.cols() else {
            return;
        };
        let mut all: Vec<GcEvent> = cols.events().collect();
        all.append(&mut self.log.events);
        self.log.events = all;
        self.flushed = 0;
    }

    /// The block's log and the columns its settled events went to (see `flushing`), which
    /// come before `log.events`.
    pub(crate) fn finish_log(mut self) -> (GcLog, Option<crate::columns::GcColumns>) {
        self.put_in_order();
        (self.log, self.settle.cols())
    }

    fn line(&mut self, no: u64, line: &[u8]) -> Fate {
        if trim(line).is_empty() {
            return Fate::Ignored;
        }
        let pre = split_prefix_with(line, &mut self.stamp);
        if pre.bad {
            return Fate::Skipped;
        }
        match pre.module {
            Some(b"memory") => self.memory(no, &pre),
            Some(b"gcpause") => self.gcpause(no, &pre),
            // Other JRockit modules ([nursery], [alloc  ], [compact], ...): not GC records.
            Some(_) => Fate::Ignored,
            // `[WARN ] Use of -Djrockit.optfile is deprecated ...`: the JVM's own message.
            None if pre.level => Fate::Ignored,
            None if is_jvm_noise(line) => Fate::Ignored,
            // The run's pause target: `Deterministic GC target pause time: 30 ms`.
            None if self.pause_target(trim(line)) => Fate::Ignored,
            None => Fate::Skipped,
        }
    }

    /// A `[memory ]` line: a collection line (skipped if it cannot be read or be true), or
    /// one of the module's other lines.
    fn memory(&mut self, no: u64, pre: &Prefix) -> Fate {
        let (tag, c) = split_tag(pre.rest);
        let c = trim(c);
        if let Some(col) = parse_collection(c) {
            return Fate::read(self.collection(no, pre.wall, tag, &col));
        }
        if c.first().is_some_and(u8::is_ascii_digit) {
            // `[YC#1] 124.644: YC started.`
            return if strip_dot(c).ends_with(b" started") {
                Fate::Ignored
            } else {
                Fate::Skipped
            };
        }
        if collection_shaped(c) {
            // `NaN: GC 1K->1K (2K), 1 ms`, `[Thu Fxb ...] 1.0: GC ...`: a collection unread.
            return Fate::Skipped;
        }
        if let Some(r) = c.strip_prefix(b"GC reason: ") {
            let cause = self.intern(cause_text(r));
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
        } else if c.starts_with(b"Deterministic GC target ") && self.pause_target(c) {
            // Kept as meta; ignored like the module's other settings.
        } else if let Some(kb) = promoted_kb(c) {
            // The line stays ignored (as before); its figure goes to the collection.
            if self.promoted.len() >= MAX_CAUSES {
                self.promoted.remove(0);
            }
            self.promoted.retain(|(t, _)| *t != tag);
            self.promoted.push((tag, kb));
        } else if let Some(r) = c.strip_prefix(b"Changing GC strategy ") {
            let i = self.log.meta.len();
            if i < MAX_META {
                self.meta("strategy_change", trim(r));
                self.strategy_pending.push(i);
            }
        }
        // Anything else from the memory module: the legend (`<s>-<end>: GC <before>K->...`,
        // `<pause> - ...`, `-: KB->KB (KB), ...`), the `Memory usage report`, TLA and heap
        // settings, `Throwing OutOfMemory`, R28 per-collection details (`YC promoted ...`).
        Fate::Ignored
    }

    /// A `[gcpause]` line: a pause or phase (skipped if it cannot be read or be true), one of
    /// the module's notes, or skipped.
    fn gcpause(&mut self, no: u64, pre: &Prefix) -> Fate {
        let (tag, c) = split_tag(pre.rest);
        let c = trim(c);
        if c.starts_with(b"[pau]") || c.starts_with(b"[con]") || c.starts_with(b"[---]") {
            return Fate::read(self.r28_phase(no, pre.wall, tag, c));
        }
        if let Some(p) = find(c, b"pause time: ") {
            return Fate::read(self.r27_pause(no, pre.wall, tag, c, p));
        }
        // `(pause includes compaction: ...)` (detail of the pause before), `Threads waited for
        // memory ... starting at ...` (allocation stall, not a GC pause), `Thread "..." was in
        // TLA-fetch ...`; a blank message.
        if c.is_empty()
            || c.starts_with(b"(pause includes ")
            || c.starts_with(b"Threads waited for memory ")
            || (c.starts_with(b"Thread \"") && find(c, b" was in TLA-fetch ").is_some())
        {
            return Fate::Ignored;
        }
        Fate::Skipped
    }

    /// R28 `[pau] 428.647 ms (306.486000-306.914000) YC:Main`, `[con] ...`, `[---] ...`.
    fn r28_phase(&mut self, no: u64, wall: Option<i64>, tag: Option<Tag>, c: &[u8]) -> bool {
        let what = c.get(1..4).unwrap_or_default();
        let Some((dur, start, end, r)) = r28_figures(c.get(5..).unwrap_or_default()) else {
            return false;
        };
        if what == b"---" {
            // The whole collection's span: neither a pause nor a concurrent phase, but its
            // figures must be true like theirs.
            let mut span = GcEvent::new(Record::Pause, Kind::Other, dur, no);
            span.uptime_s = Some(start);
            return span.implausible().is_none();
        }
        let name = trim(r);
        let kind = tag.map_or_else(|| self.name_kind(name).unwrap_or(Kind::Other), Tag::kind);
        let record = if what == b"pau" {
            Record::Pause
        } else {
            Record::Concurrent
        };
        let mut e = GcEvent::new(record, kind, dur, no);
        e.uptime_s = Some(start);
        e.wall_ms = wall.map(|w| w.saturating_sub(ms(end - start)));
        e.name = self.intern(name);
        self.push_tagged(e, tag, Some(kind))
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
                Some((v, _)) if v >= 0.0 => Some(v),
                _ => return false,
            },
            None => None,
        };
        let hint = tag.map(Tag::kind).or_else(|| self.name_kind(name));
        let mut e = GcEvent::new(Record::Pause, hint.unwrap_or(Kind::Other), dur, no);
        e.uptime_s = start;
        // Checked before it is attached anywhere: a pause that cannot be true changes nothing.
        if e.implausible().is_some() {
            return false;
        }
        let name = self.intern(if name.is_empty() { b"pause" } else { name });

        if tag.is_none() && self.itemise_last(no, start, dur, hint, name) {
            return true;
        }

        e.wall_ms = wall.map(|w| w.saturating_sub(ms(dur / 1000.0)));
        e.name = name;
        self.push_tagged(e, tag, hint)
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
        let Some(ci) = self.itemises((start, dur, hint)) else {
            if self.last_coll.is_none() {
                // Read after the block before, this pause might have gone under its last
                // collection: `continues_into` checks.
                if self.lookups.len() < MAX_PENDING {
                    self.lookups.push((start, dur, hint));
                } else {
                    self.consulted = true;
                }
            }
            return false;
        };
        let Some(c) = self.log.events.get(ci) else {
            return false;
        };
        let mut e = GcEvent::new(Record::Pause, c.kind, dur, no);
        e.uptime_s = start.or(c.uptime_s);
        e.wall_ms = match (c.wall_ms, start, c.uptime_s) {
            (Some(w), Some(st), Some(u)) => Some(w.saturating_add(ms(st - u))),
            (w, _, _) => w,
        };
        e.gc_id = c.gc_id;
        e.invented_id = c.invented_id;
        e.cause = c.cause;
        e.collector = c.collector;
        e.name = name;
        e.in_collection = true;
        if self.log.push_checked(e).is_err() {
            return false;
        }
        if let Some(c) = self.log.events.get_mut(ci) {
            c.record = Record::Collection;
        }
        true
    }

    /// The last collection line read (its event's position), if a pause (start, duration,
    /// kind hint) goes under it.
    fn itemises(&self, (start, dur, hint): Lookup) -> Option<usize> {
        let (ci, lo, hi) = self.last_coll?;
        let c = self.log.events.get(ci)?;
        let fits = match start {
            Some(st) => st >= lo - 0.002 && st <= hi + 0.002,
            None => c.record == Record::Pause && (dur - c.duration_ms).abs() <= 5.1e-4,
        };
        (fits && !hint.is_some_and(|k| k != c.kind)).then_some(ci)
    }

    /// Would `next` (a block read on its own) have read the same after `self`: none of the
    /// pauses it looked up before its first collection line goes under `self`'s last one.
    /// And the time order (see `finish`): every event there sorts after every event here,
    /// so that each block ordered on its own is the log ordered (else the block is read on,
    /// and ordered with this one: nursery collections written before the old collection
    /// they ran inside, on both sides of the edge).
    pub(crate) fn continues_into(&self, next: &Parser) -> bool {
        let (_, last) = self.bounds();
        let (first, _) = next.bounds();
        let ordered = match (last, first) {
            (Some((Some(a), ra)), Some((Some(b), rb))) => a < b || (a == b && ra <= rb),
            (None, _) | (_, None) => true,
            // An event without a start takes the one before it: only one pass knows which.
            _ => false,
        };
        ordered && !next.lookups.iter().any(|&q| self.itemises(q).is_some())
    }

    /// The earliest and the latest sort key of the events (see `continues_into`), kept for
    /// as long as no event is added (each block edge asks twice).
    fn bounds(&self) -> (Option<Key>, Option<Key>) {
        let n = self.count();
        if let Some((_, first, last)) = self.bounds.get().filter(|b| b.0 == n) {
            return (first, last);
        }
        let ((_, first, last), _) = self.scan();
        self.bounds.set(Some((n, first, last)));
        (first, last)
    }

    /// A pause or concurrent phase of collection `tag` (if any), kept pending for the
    /// collection lines that may itemise it; false where it cannot be true.
    fn push_tagged(&mut self, mut e: GcEvent, tag: Option<Tag>, hint: Option<Kind>) -> bool {
        e.gc_id = tag.map(|t| t.id);
        e.cause = self.cause_for(tag, false);
        let (idx, pause, start) = (self.log.events.len(), e.record == Record::Pause, e.uptime_s);
        if self.log.push_checked(e).is_err() {
            return false;
        }
        if self.pending.len() >= MAX_PENDING {
            self.pending.remove(0);
        }
        self.pending.push(Pending {
            idx,
            pause,
            tag,
            start,
            hint,
        });
        true
    }

    /// The cause of collection `tag` from its `GC reason:` line; `take` forgets it.
    fn cause_for(&mut self, tag: Option<Tag>, take: bool) -> u32 {
        match self.causes.iter().position(|(t, _)| *t == tag) {
            Some(i) if take => self.causes.remove(i).1,
            Some(i) => self.causes.get(i).map_or(0, |c| c.1),
            None => 0,
        }
    }

    /// A collection line; false (nothing changed) if its values cannot be true.
    fn collection(&mut self, no: u64, wall: Option<i64>, tag: Option<Tag>, col: &Coll) -> bool {
        let kind = tag.map_or_else(|| self.phrase(col.phrase).0, Tag::kind);
        // Every value the event will hold, the promotion figure waiting for it too, is checked
        // before anything is attached or numbered: nothing is attached to a collection that
        // is then dropped, and the event is pushed without a second look.
        let promoted_at = self.promoted.iter().position(|(t, _)| *t == tag);
        let promoted_waiting = promoted_at.and_then(|i| self.promoted.get(i)).map(|p| p.1);
        let implausible = crate::model::implausible_values(
            col.pause,
            None,
            Some(col.start),
            &[
                Some(col.before),
                Some(col.after),
                Some(col.heap),
                promoted_waiting,
            ],
        );
        if implausible.is_some() || col.end.is_some_and(|e| e < col.start || e.is_nan()) {
            return false;
        }
        let invented = tag.is_none();
        let gc_id = match tag {
            Some(t) => t.id,
            None => {
                self.next_id += 1;
                self.next_id
            }
        };
        let cause = self.cause_for(tag, true);
        let promoted = promoted_at.map(|i| self.promoted.remove(i).1);
        let (collector, name) = self.phrase_ids(col.phrase, kind);
        // Stop-the-world young collections without an end: the end is start + pause.
        let span_s = col.end.map_or(col.pause / 1000.0, |end| end - col.start);
        let end = col.start + span_s.max(0.0);
        let wall_start = wall.map(|w| w.saturating_sub(ms(span_s)));

        // Attach the itemised pauses (and R28 concurrent phases) waiting for this collection.
        let (lo, hi) = (col.start - 0.002, end + 0.002);
        let mut attached = 0usize;
        let events = &mut self.log.events;
        self.pending.retain(|p| {
            match (p.tag, tag) {
                // An older collection of the same kind never got its line: give up on it.
                (Some(pt), Some(t)) if pt != t => return !(pt.young == t.young && pt.id < t.id),
                (None, None) if p.hint.is_some_and(|h| h != kind) => return true,
                (None, None) => match p.start {
                    Some(s) if s < lo => return false, // stale: stays standalone
                    Some(s) if s > hi => return true,
                    _ => {}
                },
                (Some(_), Some(_)) => {}
                _ => return true,
            }
            if let Some(e) = events.get_mut(p.idx) {
                e.gc_id = Some(gc_id);
                e.invented_id = invented;
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
            false
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
        e.promoted_kb = promoted;
        e.gc_id = Some(gc_id);
        e.invented_id = invented;
        self.last_coll = Some((self.log.events.len(), col.start, end));
        debug_assert!(e.implausible().is_none());
        self.log.events.push(e);

        // Strategy changes announced since the last collection took effect with this one.
        for i in self.strategy_pending.drain(..) {
            if let Some((_, v)) = self.log.meta.get_mut(i) {
                *v = format!("{:.3}: {}", col.start, v);
            }
        }
        true
    }

    /// `phrase_kind(phrase)` and whether it says "nursery", remembered for the last two
    /// phrases (young and old collection lines alternate).
    fn phrase(&mut self, phrase: &[u8]) -> (Kind, bool) {
        let p = remember(&mut self.phrases, phrase, |p| Phrase {
            kind: phrase_kind(p),
            nursery: contains_ci(p, b"nursery"),
            ids: [None; 2],
        });
        (p.kind, p.nursery)
    }

    /// A collection line's collector and name ids: "Nursery" for a young collection whose
    /// phrase says nursery, else the phrase; the name is the phrase. Remembered with the
    /// phrase (two interned names a line were 3 % of a JRockit 1.4.2 log's CPU).
    fn phrase_ids(&mut self, phrase: &[u8], kind: Kind) -> (u32, u32) {
        let young = usize::from(kind == Kind::Young);
        let memo = self.phrases.iter().flatten().find(|m| m.is(phrase));
        if let Some(ids) = memo.and_then(|m| m.found.ids[young]) {
            return ids;
        }
        let collector = if kind == Kind::Young && self.phrase(phrase).1 {
            self.intern(b"Nursery")
        } else {
            self.intern(phrase)
        };
        let ids = (collector, self.intern(phrase));
        for m in self.phrases.iter_mut().flatten() {
            if m.is(phrase) {
                m.found.ids[young] = Some(ids);
            }
        }
        ids
    }

    /// `name_kind(name)`, remembered for the last two names (a 5.0 collection itemises two
    /// pauses, `phase 1` and `phase 4-0`, again and again).
    fn name_kind(&mut self, name: &[u8]) -> Option<Kind> {
        remember(&mut self.names, name, name_kind)
    }

    fn intern(&mut self, s: &[u8]) -> u32 {
        self.log.strings.intern_lossy(cap_label(s))
    }

    fn meta(&mut self, key: &str, value: &[u8]) {
        if self.log.meta.len() < MAX_META {
            self.log.meta.push((
                key.to_owned(),
                String::from_utf8_lossy(cap_label(value)).into_owned(),
            ));
        }
    }

    /// `Deterministic GC target pause time: 30 ms`, or a line giving `-XpauseTarget=30ms`
    /// (`-XpauseTarget:30ms`, ms by default): the run's pause target, kept as the meta entry
    /// `pause_target_ms`. False (nothing kept) for other lines or a target that cannot be true.
    fn pause_target(&mut self, t: &[u8]) -> bool {
        // The option is one word of a command line; the sentence is the whole line.
        let (v, option) = if let Some(r) = t.strip_prefix(b"Deterministic GC target pause time:") {
            (r.trim_ascii_start(), false)
        } else if let Some(p) = find(t, b"-XpauseTarget") {
            match t.get(p + 13..) {
                Some([b'=' | b':', r @ ..]) => (r, true),
                _ => return false,
            }
        } else {
            return false;
        };
        let Some((x, n)) = float_prefix(v) else {
            return false;
        };
        let rest = v.get(n..).unwrap_or_default();
        let unit = if option {
            let w = rest.iter().take_while(|b| !b.is_ascii_whitespace()).count();
            rest.get(..w).unwrap_or_default()
        } else {
            trim(rest)
        };
        let ms = match unit {
            b"" | b"ms" | b"ms." => x,
            b"s" | b"s." => x * 1000.0,
            _ => return false,
        };
        // A target is a positive time under a day, like a pause (`GcEvent::implausible`).
        if !(ms > 0.0 && ms <= 86_400_000.0) {
            return false;
        }
        self.meta("pause_target_ms", format!("{ms}").as_bytes());
        true
    }

    /// `Static, strategy: Generational Concurrent Mark & Sweep` or `Garbage collection optimized
    /// for short pausetimes, initial strategy: Concurrent Mark & Sweep`.
    fn gc_mode(&mut self, r: &[u8]) {
        let r = strip_dot(r);
        match find(r, b"strategy: ") {
            Some(p) => {
                let head = r.get(..p).unwrap_or_default();
                let mode = rfind(head, b",")
                    .and_then(|q| head.get(..q))
                    .unwrap_or(head);
                self.meta("gc_mode", trim(mode));
                self.meta("gc_strategy", trim(r.get(p + 10..).unwrap_or_default()));
            }
            None => self.meta("gc_mode", trim(r)),
        }
    }

    /// `heap size: 1048576K, maximal heap size: 1048576K, nursery size: 102400K` (1.4.2/5.0) or
    /// `Heap size: 25165824KB, maximal heap size: 25165824KB, nursery size: 4194304KB.` (R28).
    fn heap_sizes(&mut self, c: &[u8]) {
        const KEYS: [(&[u8], &str); 3] = [
            (b"heap size", "heap_size_kb"),
            (b"maximal heap size", "max_heap_size_kb"),
            (b"nursery size", "nursery_size_kb"),
        ];
        for part in strip_dot(c).split(|&b| b == b',') {
            let Some(p) = find(part, b": ") else { continue };
            let key = trim(part.get(..p).unwrap_or_default());
            let Some((kb, _)) = part.get(p + 2..).and_then(size_kb_prefix) else {
                continue;
            };
            let Some(&(_, key)) = KEYS.iter().find(|(k, _)| key.eq_ignore_ascii_case(k)) else {
                continue;
            };
            if self.log.meta.len() < MAX_META {
                self.log.meta.push((key.to_owned(), kb.to_string()));
            }
        }
    }

    /// Time order (log order is end order: nursery collections during a concurrent old
    /// collection are written before it). Ties: a collection before its pauses, then log
    /// order. Events without a start keep the place of the event before them.
    fn put_in_order(&mut self) {
        let n = self.count();
        let aside = match self.order_scan.take() {
            Some((len, aside)) if len == n => aside,
            _ => self.scan().1,
        };
        if aside.is_empty() {
            return;
        }
        // The events moved to the columns stay first, in their order, if they were in order
        // and every event set aside since goes after the latest of them: then only the events
        // held move. Their first has a start of its own, so the starts carried over events
        // without one are the same as over the whole list.
        let held = &self.log.events;
        let top = self.scanned.top;
        let flushed = self.flushed;
        let in_held = self.scanned.aside.is_empty()
            && held.first().is_some_and(|e| e.uptime_s.is_some())
            && aside
                .iter()
                .all(|&(k, i)| i >= flushed && top.is_none_or(|t| cmp_key(t, k).is_le()));
        if flushed > 0 && in_held {
            let aside = aside.into_iter().map(|(k, i)| (k, i - flushed)).collect();
            merge_back(&mut self.log.events, aside);
        } else {
            // Positions count from the first event: all of them held again.
            self.unflush();
            merge_back(&mut self.log.events, aside);
        }
    }

    /// One pass over the events: `bounds()`, and the events that come before the last one
    /// left in place (old collections written after the nurseries inside them), set aside
    /// for `merge_back` (most logs are in order: none, and nothing is copied).
    /// (Those moved to the columns were passed over as they went: `scanned`.)
    fn scan(&self) -> (Bounds, Vec<AsideKey>) {
        let mut s = self.scanned.clone();
        s.over(&self.log.events);
        ((s.n, s.first_key, s.last_key), s.aside)
    }
}

/// An event set aside by `finish`: its key (`order_key`) and its log position.
type AsideKey = ((f64, u8), usize);

/// An event's sort key: its start (or the last start before it) and 0 for a collection, 1 for
/// anything else.
fn order_key(e: &GcEvent, last: &mut f64) -> (f64, u8) {
    if let Some(u) = e.uptime_s {
        *last = u;
    }
    (*last, u8::from(e.record != Record::Collection))
}

fn cmp_key(a: (f64, u8), b: (f64, u8)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

/// Put back in time order the events `aside` (key and log position, in log order) that
/// `finish` found before the last event left in place; every other event is in order.
///
/// The events set aside are taken out and sorted alone, then merged with the rest from the
/// end of the list, in place: events after the latest gap stay where they are, and only those
/// between a gap and where its event goes move (one slot per event still to be put back). Keys
/// (start, rank, log position) are all distinct, so this is the order a stable sort gives.
fn merge_back(events: &mut [GcEvent], aside: Vec<AsideKey>) {
    // Gap positions, the latest last.
    let mut gaps: Vec<usize> = aside.iter().map(|&(_, i)| i).collect();
    let mut taken: Vec<(AsideKey, GcEvent)> = aside
        .into_iter()
        .filter_map(|(k, i)| {
            let e = events.get_mut(i)?;
            // What is left in the gap keeps the start: the keys of the events before it
            // are read from the list (an event without a start takes the last one before).
            let mut hole = GcEvent::new(Record::Pause, Kind::Other, 0.0, 0);
            hole.uptime_s = e.uptime_s;
            Some(((k, i), std::mem::replace(e, hole)))
        })
        .collect();
    if taken.len() != gaps.len() {
        return; // not reached: every position set aside is in the list
    }
    taken.sort_by(|a, b| cmp_key(a.0 .0, b.0 .0).then(a.0 .1.cmp(&b.0 .1)));
    // Positions `..r` not yet read, `w..` final; `r..w` free slots (gaps, moved-from slots).
    let mut r = events.len();
    let mut w = r;
    // The start of the event last read, found by looking back from it: (position, start).
    let mut known: Option<(usize, f64)> = None;
    while let Some(&((tk, ti), _)) = taken.last() {
        if w == r {
            // Nothing to shift: every event from the latest gap left on is in place (each
            // event still set aside comes before the event it was found after, which is
            // before that gap).
            let Some(g) = gaps.pop() else { break };
            r = g;
            w = g + 1;
            continue;
        }
        if r > 0 && gaps.last() == Some(&(r - 1)) {
            gaps.pop();
            r -= 1;
            continue;
        }
        let main_first = r > 0 && {
            let p = r - 1;
            let t = start_before(events, p, &mut known);
            let rank = events
                .get(p)
                .map_or(1, |e| u8::from(e.record != Record::Collection));
            cmp_key(tk, (t, rank)).then(ti.cmp(&p)).is_lt()
        };
        if main_first {
            // The next event kept comes after every event still set aside: it moves up.
            events.swap(r - 1, w - 1);
            r -= 1;
        } else if let (Some((_, e)), Some(slot)) = (taken.pop(), events.get_mut(w - 1)) {
            *slot = e;
        }
        w -= 1;
    }
}

/// `order_key`'s start for position `p` of a list not yet reordered below `p`: its own start
/// or the last one before it; `known` remembers the last one found, so that looking back over
/// a run of events without a start costs the run once, not once per event.
fn start_before(events: &[GcEvent], p: usize, known: &mut Option<(usize, f64)>) -> f64 {
    if let Some(u) = events.get(p).and_then(|e| e.uptime_s) {
        *known = Some((p, u));
        return u;
    }
    if let Some((_, u)) = known.filter(|&(q, _)| q <= p) {
        return u;
    }
    let found = events
        .get(..p)
        .unwrap_or_default()
        .iter()
        .rposition(|e| e.uptime_s.is_some());
    let (q, u) = found
        .and_then(|q| Some((q, events.get(q)?.uptime_s?)))
        .unwrap_or((0, f64::NEG_INFINITY));
    *known = Some((q, u));
    u
}

/// An R28 phase line's figures after its `[pau]`: `428.647 ms (306.486000-306.914000)`, the
/// duration (ms), start and end (s), and the text after them.
fn r28_figures(r: &[u8]) -> Option<(f64, f64, f64, &[u8])> {
    let r = r.trim_ascii_start();
    let (dur, n) = float_prefix(r)?;
    let r = r.get(n..)?.strip_prefix(b" ms")?;
    let r = r.trim_ascii_start().strip_prefix(b"(")?;
    let (start, n) = float_prefix(r)?;
    let r = r.get(n..)?.strip_prefix(b"-")?;
    let (end, n) = float_prefix(r)?;
    let r = r.get(n..)?.strip_prefix(b")")?;
    // Times since JVM start: never negative, and a phase ends after it starts.
    (start >= 0.0 && end >= start).then_some((dur, start, end, r))
}

/// `<start>[-<end>]: <phrase> <before>K-><after>K (<heap>K), <pause> ms` with the pause written
/// `, 53.417 ms`, `, sum of pauses 59.084 ms` or `, 0.429 s, sum of pauses 428.647 ms, ...`.
fn parse_collection(c: &[u8]) -> Option<Coll<'_>> {
    if !c.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (start, mut i) = float_prefix(c)?;
    let mut end = None;
    if c.get(i) == Some(&b'-') {
        let (e, n) = float_prefix(c.get(i + 1..)?)?;
        end = Some(e);
        i += 1 + n;
    }
    let r = c.get(i..)?.strip_prefix(b": ")?;
    let (phrase, d) = phrase_prefix(r)?;
    let r = r.get(d..)?;
    let (before, n) = size_kb_prefix(r)?;
    let r = r.get(n..)?.strip_prefix(b"->")?;
    let (after, n) = size_kb_prefix(r)?;
    let r = r.get(n..)?.trim_ascii_start().strip_prefix(b"(")?;
    let (heap, n) = size_kb_prefix(r)?;
    let r = r.get(n..)?.strip_prefix(b")")?;
    let r = match find(r, b"sum of pauses ") {
        Some(p) => r.get(p + 14..)?,
        None => r.strip_prefix(b",")?.trim_ascii_start(),
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

/// A collection line's phrase (`Nursery GC`, `GC`, `YC`): the text up to the first digit,
/// trimmed, letters and spaces only. Returns it and where the digit is.
fn phrase_prefix(r: &[u8]) -> Option<(&[u8], usize)> {
    // One pass: a byte that is neither a letter nor a blank before that digit would stay in
    // the trimmed phrase.
    let (mut letters, mut other_blank, mut digit) = (false, false, None);
    for (k, &b) in r.iter().enumerate() {
        if b.is_ascii_digit() {
            digit = Some(k);
            break;
        } else if b.is_ascii_alphabetic() {
            letters = true;
        } else if b != b' ' {
            if !b.is_ascii_whitespace() {
                return None;
            }
            other_blank = true;
        }
    }
    let d = digit?;
    let phrase = trim(r.get(..d)?);
    // A tab or line feed may only be trimmed off, never inside.
    if !letters || (other_blank && !phrase.iter().all(|b| b.is_ascii_alphabetic() || *b == b' ')) {
        return None;
    }
    Some((phrase, d))
}

/// Split the leading `[...]` groups: levels, module, asctime stamp, pid, in any order.
#[cfg(test)]
fn split_prefix(line: &[u8]) -> Prefix<'_> {
    split_prefix_with(line, &mut None)
}

/// `split_prefix`, reusing `stamp` (the last asctime stamp read and its value) when the line
/// repeats it.
fn split_prefix_with<'a>(
    line: &'a [u8],
    stamp: &mut Option<([u8; 24], Option<i64>)>,
) -> Prefix<'a> {
    let mut p = Prefix {
        module: None,
        level: false,
        wall: None,
        bad: false,
        rest: line,
    };
    let mut s = line;
    let mut any = false;
    while s.first() == Some(&b'[') {
        // The two modules GC records come from, as the loop below would read them.
        if p.module.is_none() {
            let module: Option<&'static [u8]> = if s.starts_with(b"[memory ]") {
                Some(b"memory")
            } else if s.starts_with(b"[gcpause]") {
                Some(b"gcpause")
            } else {
                None
            };
            if let Some(m) = module {
                p.module = Some(m);
                any = true;
                s = s.get(9..).unwrap_or_default();
                continue;
            }
        }
        let Some(close) = memchr::memchr(b']', s.get(..40).unwrap_or(s)) else {
            break;
        };
        let inner = s.get(1..close).unwrap_or_default();
        if asctime_shaped(inner) {
            // Shaped like a stamp: it must be a date and time that exist.
            let wall = match stamp {
                Some((b, w)) if b[..] == *inner => *w,
                _ => {
                    let w = super::num::asctime_prefix(inner).map(|(t, _)| t);
                    if let Ok(b) = <[u8; 24]>::try_from(inner) {
                        *stamp = Some((b, w));
                    }
                    w
                }
            };
            match wall {
                Some(t) => p.wall = Some(t),
                None => p.bad = true,
            }
        } else if any && !inner.is_empty() && inner.iter().all(u8::is_ascii_digit) {
            // pid
        } else if is_level(inner) {
            p.level = true;
        } else if p.module.is_none() && is_module(inner) {
            p.module = Some(trim(inner));
            // A unified-logging tag padded to seven (`[gc     ]`): another family's line.
            if p.module == Some(b"gc") {
                p.bad = true;
            }
        } else {
            break;
        }
        any = true;
        s = s.get(close + 1..).unwrap_or_default();
    }
    if any {
        p.rest = s.trim_ascii_start();
    }
    p
}

/// `Www Mmm dd hh:mm:ss yyyy` by its blanks and colons (whether the date exists is checked
/// apart, so that `Feb 31` is a bad stamp, not text).
fn asctime_shaped(s: &[u8]) -> bool {
    s.len() == 24
        && [3, 7, 10, 19].iter().all(|&i| s.get(i) == Some(&b' '))
        && [13, 16].iter().all(|&i| s.get(i) == Some(&b':'))
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
    let young = match s.get(..4) {
        Some(b"[YC#") => true,
        Some(b"[OC#") => false,
        _ => return (None, s),
    };
    let r = s.get(4..).unwrap_or_default();
    match uint_prefix(r) {
        Some((id, n)) if r.get(n) == Some(&b']') => (
            Some(Tag { young, id }),
            r.get(n + 1..).unwrap_or_default().trim_ascii_start(),
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

/// A `[memory ]` text shaped like a collection line: a figure, then `->` (the legend,
/// `<s>-<end>: GC <before>K-><after>K ...` and `-: KB->KB ...`, has no figure before its `->`).
fn collection_shaped(c: &[u8]) -> bool {
    find(c, b"->").is_some_and(|a| c.get(..a).is_some_and(|h| h.iter().any(u8::is_ascii_digit)))
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

/// The K of an R28 `YC promoted 218702 objects (36668KB).` line.
fn promoted_kb(c: &[u8]) -> Option<u64> {
    let r = c.strip_prefix(b"YC promoted ")?;
    let at = rfind(r, b" objects (")?;
    let (kb, _) = size_kb_prefix(r.get(at + 10..)?)?;
    Some(kb)
}

/// `Allocation request failed (31576 bytes).` → `Allocation request failed`.
fn cause_text(r: &[u8]) -> &[u8] {
    let r = strip_dot(trim(r));
    r.strip_suffix(b")")
        .and_then(|h| rfind(h, b" ("))
        .map_or(r, |p| trim(r.get(..p).unwrap_or_default()))
}

/// `limits::float_prefix` in one scan: a figure read in at most `MAX_DIGITS` bytes cannot
/// have too many digits (only a longer one is scanned again).
fn float_prefix(s: &[u8]) -> Option<(f64, usize)> {
    match num::float_prefix(s) {
        Some((_, n)) if n > MAX_DIGITS => limits::float_prefix(s),
        r => r,
    }
}

/// `limits::size_kb_prefix` in one scan, like `float_prefix`.
fn size_kb_prefix(s: &[u8]) -> Option<(u64, usize)> {
    match num::size_kb_prefix(s) {
        Some((_, n)) if n > MAX_DIGITS => limits::size_kb_prefix(s),
        r => r,
    }
}

/// Seconds to whole milliseconds.
fn ms(s: f64) -> i64 {
    super::num::round(s * 1000.0) as i64
}

fn strip_dot(s: &[u8]) -> &[u8] {
    let s = trim(s);
    s.strip_suffix(b".").unwrap_or(s)
}

fn starts_with_ci(s: &[u8], prefix: &[u8]) -> bool {
    s.get(..prefix.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    let Some((first, rest)) = needle.split_first() else {
        return false;
    };
    let first = first.to_ascii_lowercase();
    let Some(last) = hay.len().checked_sub(needle.len()) else {
        return false;
    };
    // The rest is compared only where the first letter is, in either case.
    (0..=last).any(|i| {
        hay.get(i).is_some_and(|b| b.to_ascii_lowercase() == first)
            && hay
                .get(i + 1..i + needle.len())
                .is_some_and(|w| w.iter().zip(rest).all(|(a, b)| a.eq_ignore_ascii_case(b)))
    })
}

/// `num::find`, its scan by the first byte stopped where the needle no longer fits: through
/// `num::find` itself the JRockit log ran 7 % more instructions.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = needle.split_first() else {
        return Some(0);
    };
    let last = hay.len().checked_sub(needle.len())?;
    if hay.len() > 256 {
        return num::find(hay, needle);
    }
    let mut at = 0;
    while let Some(p) = hay.get(at..=last).and_then(|h| memchr::memchr(first, h)) {
        let i = at + p;
        if hay.get(i + 1..).is_some_and(|t| t.starts_with(rest)) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

#[cfg(test)]
#[path = "jrockit_tests.rs"]
mod tests;
