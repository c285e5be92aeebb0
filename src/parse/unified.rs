//! JDK 9+ unified logging: `-Xlog:gc`, `-Xlog:gc*`, `-Xlog:gc*,safepoint`, any decorations.
//!
//! A line is `[decoration]...[decoration] message`. HotSpot always prints the decorations it was
//! asked for in one fixed order (time, utctime, uptime, timemillis, uptimemillis, timenanos,
//! uptimenanos, hostname, pid, tid, level, tags), so the tag set is the last tag-like block.
//!
//! What becomes a record:
//! - `GC(n) Pause ... [a->b(c)] <duration>` (any tag set with `gc`; ZGC prints them under
//!   `gc,phases`, generational ZGC prefixes `Y: ` / `y: ` / `O: `) → [`Record::Pause`].
//!   The same text without a duration (`[gc,start]`) is the pause's start: its timestamp is
//!   used as the start; otherwise start = line time − duration.
//! - `GC(n) Concurrent ... <duration>` and generational ZGC `Minor/Major Collection ... <duration>`
//!   → [`Record::Concurrent`].
//! - `[safepoint] Total time for which application threads were stopped: ...` (JDK 9–16) and
//!   `Safepoint "Op", ..., Total: N ns` (JDK 17+) → [`Record::Safepoint`].
//! - Header lines (`Using G1`, `Version: ...`, `Heap Max Capacity: ...`) → `GcLog::meta`
//!   (`collector`: G1, Parallel, Serial, CMS, Shenandoah, ZGC; sizes as `*_kb`).
//!
//! A pause's name is its text without cause and figures: `Pause Young (Normal)`, `Pause Full`,
//! `Pause Init Mark (unload classes)`, `Y: Pause Mark Start (Major)`; its cause is the last
//! `(...)` that is not a qualifier: `G1 Evacuation Pause`, `Allocation Failure`, `System.gc()`.
//!
//! Every line is counted once (`GcLog::record_lines`, `ignored_lines`, `skipped_lines`):
//! - record: an event's own line (pause, concurrent phase, ZGC cycle, safepoint), and every
//!   other line of a `GC(n)` that has an event: its `[gc,start]` line, its phases, heap,
//!   metaspace and `User=... Real=...` lines.
//! - ignored, the lines unified logging writes that carry no record: blank lines; lines of other
//!   tag sets (`[os,cpu]`, `[class,load]`, `[gc,stats]` tables); `gc` lines without a GC id (the
//!   header, ergonomics, `Pause Target: 200ms`); the lines of a `GC(n)` that has no event
//!   (`-Xlog:gc+heap` alone, a collection the log ends in); safepoint lines other than the stop
//!   times (`Application time:`, `Entering safepoint region:`...).
//! - skipped: a line without unified-logging decorations (application output, a HotSpot
//!   `12.3: [GC ...]` event, a JRockit `[memory ]` line, a perf-log row); a decoration that
//!   cannot be true (`[2024-02-31T...]`, `[-1.000s]`, `[NaNs]`); a line shaped like an event
//!   whose figures cannot be read (`5.500msx`, `NaNms`, a heap figure without its duration, a
//!   400-digit number, a figure in the name); an event whose values cannot be true (`1e308ms`,
//!   a heap over 2^53 K: `GcEvent::implausible`); a HotSpot or JRockit event in a `gc` message.
//!
//! Text after an event's duration is passed over when a blank separates it and it holds no
//! digit (`... 5.500ms (junk)` is the 5.5 ms pause): it cannot be another figure. Anything else
//! after the duration (`5.500msx`, `5.500ms 3`) makes the line unreadable: skipped and counted.
//!
//! Serial and CMS run a full collection *inside* a failed young pause (`GC(2) Pause Young` starts,
//! `GC(3) Pause Full` starts and ends, then `GC(2) Pause Young` ends), and CMS with
//! `-XX:+CMSScavengeBeforeRemark` a young one inside its remark: one stop-the-world pause,
//! logged twice. The outer pause is the stop, with its own duration; the inner GC is a
//! [`Record::Nested`] collection, never a pause, so that pause time is not counted twice
//! (GCViewer counts both); a full GC inside makes the stop `Kind::Full` — when the times say it
//! ran inside (see `nested`): a `GC(n)` that opened after `GC(m)` ended, though logged before
//! `GC(m)`'s line, is a stop of its own.

use super::family::{Block, BlockParser, Collectors, Family, GcFormat, Handle, OwnedStart};
use super::limits::{self, cap_label, MAX_LABEL_BYTES, MAX_WALL_MS};
use super::lines::{lines, strip_leading_nuls};
use super::num::{find, last_digit_unit, rfind, trim, uint_prefix};
use crate::model::{GcClock, GcEvent, GcLog, Kind, Record, Rows, MAX_HEAP_KB};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// The unified-logging family (`-Xlog:gc*`, JDK 9 and later), any decorations.
pub const FAMILY: GcFormat = Handle(&Unified);

struct Unified;

impl Family for Unified {
    fn name(&self) -> &'static str {
        "unified"
    }
    fn about(&self) -> &'static str {
        "JDK 9+ unified logging (`-Xlog:gc*`, any decorations)"
    }

    fn recognises(&self, line: &[u8]) -> bool {
        line.first() == Some(&b'[') && is_gc_line(line)
    }

    /// The start of a GC's logging, `GC(n) Pause ...` start lines: tagged `gc,start`, or (a
    /// log without tags) a pause line that ends in no duration (`... 6.363ms` and every other
    /// figure's unit end in `s`).
    fn safe_start(&self, line: &[u8]) -> bool {
        line.first() == Some(&b'[')
            && find(line, b" Pause ").is_some()
            && (find(line, b"[gc,start").is_some()
                || (find(line, b"] GC(").is_some() && !trim(line).ends_with(b"s")))
    }

    fn block_parser(&self, events: Vec<GcEvent>, _flush_at: usize) -> Box<dyn BlockParser> {
        Box::new(Parser {
            log: GcLog::reusing(events),
            ..Parser::default()
        })
    }

    fn collector_guesses(&self) -> &'static [&'static str] {
        &GUESSES
    }

    fn end_of_log(&self, _log: &GcLog, rows: &mut dyn Rows) {
        link_cycles(rows);
    }

    /// Tags, `[gc,start    ]`, `[safepoint]`; a time then ` GC(` (no tags); a time or a level
    /// then more decorations (this family's, or JRockit R28's).
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"[")
    }

    fn owns(&self, line: &[u8]) -> bool {
        use super::family::{is_level, time_like};
        super::family::decorations(line).any(|(k, d, after)| {
            let tags = (d.starts_with(b"gc") || d.starts_with(b"safepoint"))
                && d.iter().all(|&b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b',' | b'+' | b' ')
                });
            tags || (k == 0
                && time_like(d)
                && (after.starts_with(b" GC(") || after.first() == Some(&b'[')))
                || (k == 0 && is_level(d) && after.first() == Some(&b'['))
        })
    }

    /// Date stamps carry their offset; `[timemillis]` and the like are epoch stamps.
    fn clock(&self) -> GcClock {
        GcClock {
            writes_offset: true,
            undated_is_utc: true,
            whole_seconds: false,
        }
    }
}

impl BlockParser for Parser {
    /// Read the lines of `buf` after those read so far (a streamed log comes in blocks).
    fn feed(&mut self, buf: &[u8]) {
        let base = self.log.lines;
        let mut it = lines(buf);
        // Empty lines are ignored lines whatever comes before them: passed over in bulk.
        while let Some((no, line)) = it.next_after_empty(&mut self.log.ignored_lines) {
            let no = base + no;
            self.log.lines = no;
            let line = if no == 1 {
                line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
            } else {
                line
            };
            // NUL padding a crashed JVM left in its preallocated file ends up before the first
            // line the restarted JVM writes there: not part of the line.
            let line = strip_leading_nuls(line);
            if trim(line).is_empty() {
                self.log.ignored_lines += 1;
                continue;
            }
            let fate =
                decorations(line).map_or(Fate::Skipped, |(d, msg)| self.message(no, &d, msg));
            self.account(no, line, fate);
        }
        // Empty lines at the end.
        self.log.lines = base + it.line_no();
    }
    /// No GC's lines wait for their event, no safepoint for its name: a block may end here
    /// (start lines waiting for their end are checked against the next block's end lines).
    fn idle(&self) -> bool {
        // A ZGC `Capacity:` row waits for its cycle line too.
        self.groups.held.is_empty() && self.safepoint_op == 0 && self.zgc_capacity.is_none()
    }
    /// The lines read so far depended on state a block before could have left: more GCs met
    /// without an event than are remembered. (A safepoint's name from an `Entering safepoint
    /// region` line before the block is ruled out by `idle`.)
    fn consulted(&self) -> bool {
        self.consulted
    }
    fn continues_into(&self, next: &dyn BlockParser) -> bool {
        (next as &dyn std::any::Any)
            .downcast_ref::<Parser>()
            .is_some_and(|n| Parser::continues_into(self, n))
    }
    fn adopt(&mut self, prev: &dyn BlockParser) {
        if let Some(p) = (prev as &dyn std::any::Any).downcast_ref::<Parser>() {
            Parser::adopt(self, p);
        }
    }
    /// The block's log, its collectors still to be filled in (by the join, or
    /// `fill_collectors` for a whole log).
    fn finish(mut self: Box<Self>) -> Block {
        // GCs the log ends in without an event: their lines carry no record.
        self.log.ignored_lines += self.groups.held.values().sum::<u64>();
        // Only a log without any `Using` line guesses; a block with one makes it such a log.
        let hints = (self.first_collector == 0).then(|| hints(&self.log, self.shenandoah_messages));
        let collectors = Some(Collectors {
            last: self.collector,
            first: self.first_collector,
            hints: hints.unwrap_or(0),
        });
        Block {
            log: self.log,
            cols: None,
            collectors,
        }
    }
}

/// ZGC cycles: the pauses with a cycle's GC id belong to it (the last cycle of that id, ids
/// repeating after a restart), and the cycle's time is their sum. Over the whole log: a
/// cycle's line comes after its pauses, maybe in another block.
pub fn link_cycles(rows: &mut dyn Rows) {
    let n = rows.len();
    let ids: HashMap<u64, usize> = (0..n)
        .filter(|&i| rows.record(i) == Record::Collection)
        .filter_map(|i| rows.gc_id(i).map(|g| (g, i)))
        .collect();
    if ids.is_empty() {
        return;
    }
    let mut sums: HashMap<usize, f64> = HashMap::new();
    for i in 0..n {
        let id = rows.gc_id(i).filter(|_| rows.record(i) == Record::Pause);
        if let Some(&ci) = id.and_then(|g| ids.get(&g)) {
            rows.set_in_collection(i, true);
            *sums.entry(ci).or_default() += rows.duration_ms(i);
        }
    }
    // Every cycle's time is its pauses' sum (an earlier cycle of a repeated id has none).
    for i in 0..n {
        if rows.record(i) == Record::Collection && rows.gc_id(i).is_some() {
            rows.set_duration_ms(i, sums.get(&i).copied().unwrap_or(0.0));
        }
    }
}

/// What the decorations of one line say.
#[derive(Default)]
struct Deco<'a> {
    uptime_s: Option<f64>,
    /// The unit of the uptime's last digit (s): `[0.123s]` and `[123ms]` 0.001.
    uptime_tol: f64,
    wall_ms: Option<i64>,
    /// The `[time]` or `[utctime]` block `wall_ms` was read from, empty if none: its offset
    /// is read (`off`) only for the lines that make an event, not for every line.
    stamp: &'a [u8],
    level: bool,
    /// The tag set, trimmed (`gc,start`), empty if none.
    tags: &'a [u8],
}

impl Deco<'_> {
    /// The offset the wall-clock stamp wrote (`GcEvent::utc_offset_qh`).
    fn off(&self) -> Option<i8> {
        super::zone::offset_qh(self.stamp)
    }

    /// Times an event that ended at this line's stamps, its duration before them.
    fn date_back(&self, ev: &mut GcEvent) {
        let dur = ev.duration_ms;
        ev.uptime_s = self.uptime_s.map(|u| (u - dur / 1e3).max(0.0));
        ev.wall_ms = self
            .wall_ms
            .map(|w| w.saturating_sub(super::num::round(dur) as i64));
        ev.utc_offset_qh = self.off();
    }

    /// uptime, uptimemillis, uptimenanos: the first one printed counts.
    fn uptime(&mut self, s: f64, tol: f64) {
        if self.uptime_s.is_none() {
            self.uptime_s = Some(s);
            self.uptime_tol = tol;
        }
    }
}

/// Longest decoration believed (a hostname is at most 255 bytes; the rest are far shorter).
const MAX_DECORATION: usize = 256;

/// Split a line into its decorations and its message; `None` if it is not a unified-logging line.
///
/// A hand-written scanner, not a nom grammar: the same blocks read by nom 8 rules (`[` text
/// `]`, then a stamp, a figure or a word) take 1.6x this reader's time and make the 200 MiB
/// unified log 17 % slower end to end (BENCHMARKS.md, issue 36 step 4), over the 10 % a
/// grammar may cost.
fn decorations(line: &[u8]) -> Option<(Deco<'_>, &[u8])> {
    let mut d = Deco::default();
    let mut i = 0;
    let mut n = 0;
    while line.get(i) == Some(&b'[') {
        let rest = line.get(i + 1..)?;
        let close = memchr::memchr(b']', rest)?;
        if close > MAX_DECORATION {
            return None;
        }
        // HotSpot prints the tags last: a tag-like block before another decoration is a
        // hostname (`[appserver][4242][0.5s] GC(0) ...`).
        if !classify(rest.get(..close)?, &mut d)? {
            d.tags = &[];
        }
        n += 1;
        i += close + 2;
    }
    if n == 0 {
        return None;
    }
    // A line with only tag-like blocks ("[main] INFO ...") is application output unless the
    // tags are HotSpot's GC ones.
    let first_tag = d.tags.split(|&b| b == b',').next().unwrap_or(&[]);
    let known_tags = first_tag == b"gc" || first_tag == b"safepoint";
    if d.uptime_s.is_none() && d.wall_ms.is_none() && !d.level && !known_tags {
        return None;
    }
    let msg = line.get(i..).unwrap_or(&[]);
    Some((d, msg.strip_prefix(b" ").unwrap_or(msg)))
}

/// Whether `line` is unified GC logging, for detection: decorations with a time or a level,
/// and the `gc` or `safepoint` tags or, on a line without tags (`-Xlog:gc*:file=gc.log:uptime`),
/// a message only GC logging writes: `GC(n) ...` or a safepoint's stop.
pub(crate) fn is_gc_line(line: &[u8]) -> bool {
    decorations(line).is_some_and(|(d, msg)| {
        (d.uptime_s.is_some() || d.wall_ms.is_some() || d.level)
            && match d.tags {
                b"" => {
                    gc_id_prefix(msg).0.is_some()
                        || SAFEPOINT_MESSAGES.iter().any(|p| msg.starts_with(p))
                }
                t => matches!(t.split(|&b| b == b',').next(), Some(b"gc" | b"safepoint")),
            }
    })
}

/// Classify one decoration; `None` if it cannot be one, or says what cannot be true (a date
/// that does not exist, a negative or non-finite time, an epoch stamp past the year 9999).
/// `Some(true)`: the block is tag-like (the tag set if it is the line's last).
fn classify<'a>(c: &'a [u8], d: &mut Deco<'a>) -> Option<bool> {
    let t = trim(c);
    let first = *t.first()?;
    if first.is_ascii_digit() {
        if t.get(4) == Some(&b'-') {
            // time / utctime: `2019-03-05T14:11:18.470+0100`, the whole block, a real date.
            let (ms, n) = super::num::iso_datetime_prefix(t)?;
            if n != t.len() {
                return None;
            }
            // time, then utctime: keep the first (local time), with its own offset.
            if d.wall_ms.is_none() {
                d.wall_ms = Some(ms);
                d.stamp = t;
            }
            return Some(false);
        }
        let (v, n) = limits::float_prefix(t)?;
        let epoch = |ms: f64| {
            (0.0..=MAX_WALL_MS as f64)
                .contains(&ms)
                .then_some(ms as i64)
        };
        match t.get(n..)? {
            b"s" => d.uptime(v, last_digit_unit(&t[..n])),
            // uptimemillis, or timemillis (epoch milliseconds: 1e11 ms is three years of uptime).
            b"ms" if v >= 1e11 => {
                d.wall_ms.get_or_insert(epoch(v)?);
            }
            b"ms" => d.uptime(v / 1e3, last_digit_unit(&t[..n]) / 1e3),
            b"ns" if v >= 1e17 => {
                d.wall_ms.get_or_insert(epoch(super::num::round(v / 1e6))?);
            }
            b"ns" => d.uptime(v / 1e9, last_digit_unit(&t[..n]) / 1e9),
            // pid, tid
            b"" if t.iter().all(u8::is_ascii_digit) => {}
            _ => return None,
        }
        return Some(false);
    }
    // A level first: `info` starts as `inf` does.
    if matches!(t, b"trace" | b"debug" | b"info" | b"warning" | b"error") {
        d.level = true;
        return Some(false);
    }
    // A time that cannot be one (`[-1.000s]`, `[NaNs]`) is not a hostname either.
    if matches!(first, b'-' | b'+') || non_finite_word(t) {
        return None;
    }
    if first.is_ascii_lowercase()
        && t.iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b',')
    {
        d.tags = t;
        return Some(true);
    }
    // hostname or another decorator we do not use
    t.iter().all(u8::is_ascii_graphic).then_some(false)
}

/// A `[gc,start]` line waiting for its end line.
#[derive(Clone, Copy)]
struct Pending {
    gc_id: Option<u64>,
    name: u32,
    uptime_s: Option<f64>,
    uptime_tol: f64,
    wall_ms: Option<i64>,
    /// `wall_ms`'s offset (`GcEvent::utc_offset_qh`): the event takes the start's stamp whole.
    off: Option<i8>,
}

impl Pending {
    /// Start `ev`, which ended at uptime `up` and wall clock `wall`, at this line's stamps
    /// (unless they are later: a start logged after its end is another event's). True when
    /// the uptime is taken.
    fn start(&self, ev: &mut GcEvent, up: Option<f64>, wall: Option<i64>) -> bool {
        if self.wall_ms.zip(wall).is_some_and(|(s, e)| s <= e) {
            ev.wall_ms = self.wall_ms;
            ev.utc_offset_qh = self.off;
        }
        let took = self.uptime_s.zip(up).is_some_and(|(s, e)| s <= e);
        if took {
            ev.uptime_s = self.uptime_s;
        }
        took
    }
}

/// Start lines kept at most (a start without an end, e.g. an aborted phase, must not pile up).
const PENDING_MAX: usize = 64;

/// `GC(n)`s whose lines are held, waiting to learn whether the GC has an event. A concurrent
/// cycle stays open across the young pauses inside it, a few dozen ids at most; past this the
/// lowest id is settled: its lines so far are ignored. As many GCs that have an event are
/// remembered, so that their later lines (`gc,cpu` after the pause) are records.
const MAX_OPEN_GC: usize = 1024;

/// GC ids met first by a line that is not their event, kept per parser for the block-edge
/// check: a 2 MiB block holds a few thousand GCs.
const MAX_UNSEEN: usize = 1 << 20;
/// Most end lines without a start kept by one parser (see `Parser::unmatched_ends`): a block
/// holds a few thousand GCs.
const MAX_UNMATCHED: usize = 1 << 20;

/// Header settings kept at most (restarts repeat the same ones, deduplicated).
const MAX_META: usize = 64;

/// Which `GC(n)`s have an event, and the lines held for those that have none yet.
#[derive(Default)]
struct Groups {
    /// GC id → lines not yet counted, for GCs without an event so far.
    held: BTreeMap<u64, u64>,
    /// GCs with an event: a set, and the order to forget them in.
    with_event: HashSet<u64, BuildHasherDefault<IdHasher>>,
    order: VecDeque<u64>,
    /// The latest GC with an event (most lines are of it).
    last: Option<u64>,
}

impl Groups {
    /// GC `id` has an event: its held lines, now record lines.
    fn event(&mut self, id: u64) -> u64 {
        if self.last == Some(id) {
            return 0;
        }
        self.last = Some(id);
        if self.with_event.insert(id) {
            if self.order.len() >= MAX_OPEN_GC {
                if let Some(old) = self.order.pop_front() {
                    self.with_event.remove(&old);
                }
            }
            self.order.push_back(id);
        }
        if self.held.is_empty() {
            return 0;
        }
        self.held.remove(&id).unwrap_or(0)
    }

    /// A line of GC `id` that is not an event: true if it is a record line now; else it is
    /// held. Returns also the lines of a GC settled to make room (ignored).
    fn detail(&mut self, id: u64) -> (bool, u64) {
        if self.last == Some(id) || self.with_event.contains(&id) {
            return (true, 0);
        }
        let full = !self.held.contains_key(&id) && self.held.len() >= MAX_OPEN_GC;
        let settled = full
            .then(|| self.held.pop_first())
            .flatten()
            .map_or(0, |(_, n)| n);
        *self.held.entry(id).or_default() += 1;
        (false, settled)
    }
}

/// A multiplicative hash for GC ids (SipHash costs more than the rest of a line's
/// bookkeeping; ids an input chooses to collide cost at most the set's bounded size).
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// What one line turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// The line of an event that was kept (with the event's GC id).
    Event(Option<u64>),
    /// Another line of `GC(n)`: a record line if the GC has an event.
    Detail(u64),
    Ignored,
    Skipped,
}

#[derive(Default)]
pub struct Parser {
    log: GcLog,
    /// Interned collector of the latest `Using ...` line.
    collector: u32,
    /// The first one: fills events logged before any `Using` line.
    first_collector: u32,
    pending: Vec<Pending>,
    /// Operation of the latest `Entering safepoint region: X` (JDK 11), for the next safepoint.
    safepoint_op: u32,
    /// Index of the latest pause record in `log.events`, and the precision of its start (s).
    last_pause: Option<usize>,
    last_pause_tol: f64,
    /// Reused buffer for building interned names.
    scratch: String,
    /// Seen a message only Shenandoah writes (`Cancelling GC: ...`, `Trigger: ...`).
    shenandoah_messages: bool,
    /// Open `GC(n)`s.
    groups: Groups,
    /// See `consulted()`.
    consulted: bool,
    /// The first pause that may enclose another (a young pause or a remark: `nested`), when
    /// no pause came before it in this parser (the pause before it, read in the block before,
    /// may have run inside it).
    first_outer: Option<(GcEvent, f64)>,
    /// GC ids whose lines this parser held before seeing anything else of them (every GC's
    /// start line is one; at most `MAX_UNSEEN`, past that `consulted` is set).
    unseen_details: Vec<u64>,
    seen_ids: HashSet<u64, BuildHasherDefault<IdHasher>>,
    /// The id last put in `seen_ids` (a GC's lines come together: most lines need no lookup).
    last_seen: Option<u64>,
    /// GC ids that had an event in this parser.
    event_ids: HashSet<u64, BuildHasherDefault<IdHasher>>,
    /// End lines that found no start line in this parser (GC id, name); past `MAX_UNMATCHED`
    /// of them `consulted` is set. A `-Xlog:gc` log writes no start lines: every GC's one line
    /// is such an end (a cap of `PENDING_MAX` would make every block of one read on: one
    /// core).
    unmatched_ends: Vec<Unmatched>,
    /// The heap capacity of the latest ZGC `Capacity:` statistics row (GC id, K at
    /// Relocate End), for the cycle line that follows it (until then the parser is not
    /// `idle`: a block edge between them is read on).
    zgc_capacity: Option<(u64, u64)>,
    /// Most start lines this parser held at once: read after a block that leaves `n` waiting,
    /// one pass holds at most `n` more, and drops none of them while that stays within
    /// `PENDING_MAX` (the block-edge check).
    peak_pending: usize,
    /// What a GC's detail lines said before its pause: the young generation's figures
    /// (`GC(2) DefNew: 29459K->0K(29504K)`) and `model::FLAG_*` bits (`GC(12) To-space
    /// exhausted`), by GC id; the latest `MAX_YOUNG_NOTES` kept. (A GC's lines are held until
    /// its event, so no block ends between them: `idle`.)
    young_notes: Vec<YoungNote>,
}

/// A GC's notes for its pause: (GC id, young before and after in K, `FLAG_*` bits).
type YoungNote = (u64, Option<(u64, u64)>, u8);

/// GCs whose detail notes wait for their pause (a few: one GC at a time, two when a full GC
/// runs inside a young one).
const MAX_YOUNG_NOTES: usize = 8;

/// An end line whose start line this parser did not read (see `Parser::continues_into`).
#[derive(Debug, Clone)]
struct Unmatched {
    gc_id: Option<u64>,
    /// Id in the parser's own strings.
    name: u32,
    line: u64,
    uptime_s: Option<f64>,
    wall_ms: Option<i64>,
    /// A concurrent phase: its start line read in the block before only moves its start
    /// (`adopt` does). A pause's start there means the block edge cut the pause.
    concurrent: bool,
}

/// Heap before, after and total (KB) of `a->b(c)`.
type Heap = (u64, u64, Option<u64>);

/// Which part of a line's text is the interned name: all of it, or all but a `(...)` group.
type Cut = Option<(usize, usize)>;

impl Parser {
    /// What one pass would hold after `prev`'s lines and this parser's: `prev`'s start lines
    /// still waiting before this parser's (none of them was ended here: `continues_into`), and
    /// the GCs with events, `prev`'s before this parser's, the latest `MAX_OPEN_GC` kept.
    pub(crate) fn adopt(&mut self, prev: &Parser) {
        if !prev.pending.is_empty() {
            let mut waiting: Vec<Pending> = prev.pending.clone();
            // Concurrent phases that ended here and started there: their start, as `fill`
            // would have taken it.
            for u in std::mem::take(&mut self.unmatched_ends) {
                let Some(i) = waiting.iter().rposition(|p| prev.matches(p, self, &u)) else {
                    continue;
                };
                let p = waiting.remove(i);
                let at = self.log.events.partition_point(|e| e.line < u.line);
                let ev = self.log.events.get_mut(at..).and_then(|r| {
                    r.iter_mut()
                        .take_while(|e| e.line == u.line)
                        .find(|e| e.record == Record::Concurrent)
                });
                if let Some(ev) = ev {
                    p.start(ev, u.uptime_s, u.wall_ms);
                }
            }
            for p in &mut waiting {
                p.name = self.log.strings.intern(prev.log.strings.get(p.name));
            }
            waiting.append(&mut self.pending);
            waiting.drain(..waiting.len().saturating_sub(PENDING_MAX));
            self.pending = waiting;
        }
        let mut order: VecDeque<u64> = prev
            .groups
            .order
            .iter()
            .copied()
            .filter(|id| !self.groups.with_event.contains(id))
            .chain(self.groups.order.iter().copied())
            .collect();
        order.drain(..order.len().saturating_sub(MAX_OPEN_GC));
        self.groups.with_event = order.iter().copied().collect();
        self.groups.order = order;
        if self.groups.last.is_none() {
            self.groups.last = prev.groups.last;
        }
    }

    /// Would `next`, read after `self` instead of on its own, have read its lines the same?
    /// Not if the last pause here ran inside its first pause (a full GC inside a young one,
    /// a young one inside a CMS remark), nor if lines of a GC it met without an event belong
    /// to a GC that had one here.
    pub(crate) fn continues_into(&self, next: &Parser) -> bool {
        let last = self.last_pause.and_then(|i| self.log.events.get(i));
        if let (Some((o, tol)), Some(f)) = (&next.first_outer, last) {
            if nested(f, o, self.last_pause_tol.max(*tol)) {
                return false;
            }
        }
        // A block without a pause yet: its first pause, read on later, could enclose this
        // block's last pause.
        if next.last_pause.is_none()
            && last.is_some_and(|f| matches!(f.kind, Kind::Full | Kind::Young))
        {
            return false;
        }
        // Lines of a GC that had an event here, held there and never given one: records here.
        let lines_differ = next.unseen_details.iter().any(|id| {
            !next.event_ids.contains(id)
                && (self.groups.last == Some(*id) || self.groups.with_event.contains(id))
        });
        // End lines there whose start lines wait here: a concurrent phase's start is taken
        // over by `adopt`; a pause's (or more than one pass would still hold) is not.
        let mut waiting: Vec<&Pending> = self.pending.iter().collect();
        for u in &next.unmatched_ends {
            let Some(i) = waiting.iter().rposition(|p| self.matches(p, next, u)) else {
                continue;
            };
            if !u.concurrent || self.pending.len() + next.peak_pending > PENDING_MAX {
                return false;
            }
            waiting.remove(i);
        }
        !lines_differ
    }

    /// Whether start line `p` here is the one end line `u` of `next` lacks.
    fn matches(&self, p: &Pending, next: &Parser, u: &Unmatched) -> bool {
        p.gc_id == u.gc_id && self.log.strings.get(p.name) == next.log.strings.get(u.name)
    }

    /// Count line `no` as what it turned out to be.
    fn account(&mut self, no: u64, line: &[u8], fate: Fate) {
        match fate {
            Fate::Event(id) => {
                self.log.record_lines += 1;
                if let Some(id) = id {
                    self.seen_ids.insert(id);
                    self.event_ids.insert(id);
                    self.last_seen = Some(id);
                    self.log.record_lines += self.groups.event(id);
                }
            }
            Fate::Detail(id) => {
                if self.last_seen != Some(id) && self.seen_ids.insert(id) {
                    if self.unseen_details.len() < MAX_UNSEEN {
                        self.unseen_details.push(id);
                    } else {
                        self.consulted = true;
                    }
                }
                self.last_seen = Some(id);
                let (record, settled) = self.groups.detail(id);
                self.log.record_lines += u64::from(record);
                self.log.ignored_lines += settled;
            }
            Fate::Ignored => self.log.ignored_lines += 1,
            Fate::Skipped => self.log.skip(no, line),
        }
    }

    fn message(&mut self, no: u64, d: &Deco, msg: &[u8]) -> Fate {
        let msg = msg.trim_ascii_end();
        if msg.is_empty() {
            return Fate::Ignored;
        }
        let (mut gc, mut safepoint, mut stats) = (false, false, false);
        for tag in d.tags.split(|&b| b == b',') {
            match tag {
                b"gc" => gc = true,
                b"safepoint" => safepoint = true,
                b"stats" => stats = true,
                _ => {}
            }
        }
        if d.tags.is_empty() {
            // No tags decoration (`-Xlog:gc*,safepoint:file=gc.log:uptime`): go by the text.
            safepoint = SAFEPOINT_MESSAGES.iter().any(|p| msg.starts_with(p));
            gc = !safepoint;
        }
        if safepoint && !gc {
            self.safepoint(no, d, msg)
        } else if gc && !stats {
            self.gc(no, d, msg)
        } else {
            // Other tag sets (`os,cpu`, `class,load`), `gc,stats` tables.
            Fate::Ignored
        }
    }

    fn gc(&mut self, no: u64, d: &Deco, msg: &[u8]) -> Fate {
        let (gc_id, body) = gc_id_prefix(msg);
        let (gen, body) = gen_prefix(body.trim_ascii_start());
        if let Some(what) = body.strip_prefix(b"Pause ") {
            // "Pause Target: 200ms"-like settings are not pauses; real ones always have a GC id.
            if gc_id.is_some() || !what.contains(&b':') {
                return self.pause(no, d, gc_id, gen, body);
            }
            return Fate::Ignored;
        }
        if body.starts_with(b"Allocation Stall (") || body.starts_with(b"Relocation Stall (") {
            return self.stall(no, d, gc_id, body);
        }
        if let Some(id) = gc_id {
            if let Some(r) = body.strip_prefix(b"Capacity:") {
                self.zgc_capacity = zgc_capacity(r).map(|kb| (id, kb));
            }
            // CMS's failure note, not a concurrent phase (see `note`).
            return if body.starts_with(b"Concurrent ") && body != b"Concurrent mode failure" {
                self.concurrent(no, d, gc_id, gen, body, false)
            } else if body.starts_with(b"Minor Collection") || body.starts_with(b"Major Collection")
            {
                self.concurrent(no, d, gc_id, gen, body, true)
            } else if body.starts_with(b"Garbage Collection (") {
                self.zgc_cycle(no, d, gc_id, body)
            } else {
                self.note(id, body);
                Fate::Detail(id)
            };
        }
        if other_family(body) {
            return Fate::Skipped;
        }
        if body.starts_with(b"Cancelling GC")
            || body.starts_with(b"Cancelling concurrent GC")
            || body.starts_with(b"Trigger: ")
        {
            self.shenandoah_messages = true;
        }
        self.header(d.tags, body);
        Fate::Ignored
    }

    fn pause(&mut self, no: u64, d: &Deco, gc_id: Option<u64>, gen: u8, body: &[u8]) -> Fate {
        let Some(t) = read_tail(body) else {
            return Fate::Skipped;
        };
        let cut = trailing_group(t.name, is_cause);
        let Some(dur) = t.dur else {
            return self.start(d, gc_id, gen, &t, cut);
        };
        let name = self.intern_name(gen, t.name, cut);
        let mut ev = GcEvent::new(Record::Pause, pause_kind(t.name), dur, no);
        ev.cause = self.intern_group(t.name, cut);
        if let Some(i) = gc_id.and_then(|id| self.young_notes.iter().position(|n| n.0 == id)) {
            let (_, young, flags) = self.young_notes.remove(i);
            ev.young_before_kb = young.map(|y| y.0);
            ev.young_after_kb = young.map(|y| y.1);
            ev.flags |= flags;
        }
        let tol = self.fill(&mut ev, d, gc_id, name, t.heap);
        self.push_pause(ev, tol)
    }

    fn concurrent(
        &mut self,
        no: u64,
        d: &Deco,
        gc_id: Option<u64>,
        gen: u8,
        body: &[u8],
        cycle: bool,
    ) -> Fate {
        // A cycle (ZGC "Minor Collection (Allocation Rate)") has a cause; a phase may end with
        // its own start/end times ("Concurrent Mark (0.298s, 0.312s)"), dropped from the name.
        let Some(t) = read_tail(body) else {
            return Fate::Skipped;
        };
        let cut = if cycle {
            trailing_group(t.name, is_cause)
        } else {
            trailing_group(t.name, |g| g.first().is_some_and(u8::is_ascii_digit))
        };
        let Some(dur) = t.dur else {
            return self.start(d, gc_id, gen, &t, cut);
        };
        let name = self.intern_name(gen, t.name, cut);
        let kind = if (cycle && t.name.starts_with(b"Minor")) || matches!(gen, b'Y' | b'y') {
            Kind::Young
        } else {
            Kind::Old
        };
        let mut ev = GcEvent::new(Record::Concurrent, kind, dur, no);
        self.fill(&mut ev, d, gc_id, name, t.heap);
        if cycle {
            ev.cause = self.intern_group(t.name, cut);
            self.take_capacity(&mut ev);
        }
        self.push_event(ev)
    }

    /// Non-generational ZGC's cycle summary, `GC(3) Garbage Collection (Allocation Rate)
    /// 502M(49%)->716M(70%)`: a collection with no duration of its own. Its pauses, where the
    /// log has them (`gc,phases`), are itemised under it in `finish`; `-Xlog:gc` alone shows no
    /// pause at all, and then the collection is all the log tells.
    fn zgc_cycle(&mut self, no: u64, d: &Deco, gc_id: Option<u64>, body: &[u8]) -> Fate {
        let Some(t) = read_tail(body) else {
            return Fate::Skipped;
        };
        let cut = trailing_group(t.name, is_cause);
        let Some(heap) = t.heap else {
            // The `gc,start` line, whose time is the cycle's start (the summary line is written
            // at the end); a duration without the heap figure is not a form ZGC writes.
            return self.start(d, gc_id, 0, &t, cut);
        };
        let name = self.intern_name(0, t.name, cut);
        let mut ev = GcEvent::new(Record::Collection, Kind::Other, 0.0, no);
        ev.cause = self.intern_group(t.name, cut);
        self.fill(&mut ev, d, gc_id, name, Some(heap));
        self.take_capacity(&mut ev);
        self.push_event(ev)
    }

    /// A ZGC cycle line without its own capacity (`502M(49%)->716M(70%)`) takes the one its
    /// `Capacity:` statistics row printed just before. Any cycle line ends the wait (`idle`):
    /// the row was its, or another GC's whose cycle line will not come after this one.
    fn take_capacity(&mut self, ev: &mut GcEvent) {
        let row = self.zgc_capacity.take().filter(|c| ev.gc_id == Some(c.0));
        ev.heap_total_kb = ev.heap_total_kb.or(row.map(|c| c.1));
    }

    /// ZGC `Allocation Stall (main) 2.500ms`, `Relocation Stall (worker) 0.1ms`: one thread
    /// waited (for memory, or for an object to be relocated) while the others ran. Logged
    /// at its end, under no GC id (or the cycle's). The thread's name is left out of the
    /// record's name: one name per stall kind, not one per thread.
    fn stall(&mut self, no: u64, d: &Deco, gc_id: Option<u64>, body: &[u8]) -> Fate {
        let Some(t) = read_tail(body) else {
            return Fate::Skipped;
        };
        let (Some(dur), None) = (t.dur, t.heap) else {
            return Fate::Skipped;
        };
        let name = self.intern_name(0, t.name, trailing_group(t.name, |_| true));
        let mut ev = GcEvent::new(Record::Stall, Kind::Other, dur, no);
        d.date_back(&mut ev);
        ev.name = name;
        ev.gc_id = gc_id;
        ev.collector = self.collector;
        self.push_event(ev)
    }

    /// Keep what a detail line of GC `id` says that its pause should carry.
    fn note(&mut self, id: u64, body: &[u8]) {
        let body = trim(body);
        let young = [&b"DefNew: "[..], b"PSYoungGen: ", b"ParNew: "]
            .iter()
            .find_map(|p| body.strip_prefix(*p))
            .and_then(|r| parse_heap(trim(r)))
            .map(|(b, a, _)| (b, a));
        // G1's evacuation failure; Serial's and ParNew's failed promotion (`[gc,promotion]
        // GC(5) Promotion failed`, in the young pause that failed); CMS's foreground
        // collection after a concurrent one lost the race (`[debug][gc] GC(6) Concurrent mode
        // failure`, in the full pause): the flags the classic log's `(promotion failed)` and
        // `(concurrent mode failure)` set.
        let flags = match body {
            b"To-space exhausted" => crate::model::FLAG_TO_SPACE_EXHAUSTED,
            b"Promotion failed" => crate::model::FLAG_PROMOTION_FAILED,
            b"Concurrent mode failure" => crate::model::FLAG_CONCURRENT_MODE_FAILURE,
            _ => 0,
        };
        if young.is_none() && flags == 0 {
            return;
        }
        match self.young_notes.iter_mut().find(|n| n.0 == id) {
            Some(n) => {
                n.1 = young.or(n.1);
                n.2 |= flags;
            }
            None => {
                if self.young_notes.len() >= MAX_YOUNG_NOTES {
                    self.young_notes.remove(0);
                }
                self.young_notes.push((id, young, flags));
            }
        }
    }

    /// Keep `ev` if its values can be true.
    fn push_event(&mut self, ev: GcEvent) -> Fate {
        let id = ev.gc_id;
        self.log
            .push_checked(ev)
            .map_or(Fate::Skipped, |()| Fate::Event(id))
    }

    /// A start line (`t` its text, `cut` the group its name leaves out), remembered: a line
    /// of its GC, or (without GC id) of none. A figure on it (a duration or a heap without
    /// the other) makes it an event cut short, skipped.
    fn start(&mut self, d: &Deco, gc_id: Option<u64>, gen: u8, t: &Tail, cut: Cut) -> Fate {
        if t.heap.is_some() || t.dur.is_some() {
            return Fate::Skipped;
        }
        let name = self.intern_name(gen, t.name, cut);
        if d.uptime_s.is_some() || d.wall_ms.is_some() {
            if self.pending.len() >= PENDING_MAX {
                self.pending.remove(0);
            }
            self.pending.push(Pending {
                gc_id,
                name,
                uptime_s: d.uptime_s,
                uptime_tol: d.uptime_tol,
                wall_ms: d.wall_ms,
                off: d.off(),
            });
            self.peak_pending = self.peak_pending.max(self.pending.len());
        }
        gc_id.map_or(Fate::Ignored, Fate::Detail)
    }

    /// Times, ids, names and heap figures common to pauses and concurrent phases. Returns the
    /// precision of the start uptime (s): its start line's, or its own line's.
    fn fill(
        &mut self,
        ev: &mut GcEvent,
        d: &Deco,
        gc_id: Option<u64>,
        name: u32,
        heap: Option<Heap>,
    ) -> f64 {
        let mut tol = d.uptime_tol;
        d.date_back(ev);
        let found = self
            .pending
            .iter()
            .rposition(|p| p.gc_id == gc_id && p.name == name);
        match found {
            Some(i) => {
                let p = self.pending.remove(i);
                if p.start(ev, d.uptime_s, d.wall_ms) {
                    tol = p.uptime_tol;
                }
            }
            None if self.unmatched_ends.len() < MAX_UNMATCHED => {
                self.unmatched_ends.push(Unmatched {
                    gc_id,
                    name,
                    line: ev.line,
                    uptime_s: d.uptime_s,
                    wall_ms: d.wall_ms,
                    concurrent: ev.record == Record::Concurrent,
                })
            }
            None => self.consulted = true,
        }
        ev.collector = self.collector;
        ev.name = name;
        ev.gc_id = gc_id;
        if let Some((before, after, total)) = heap {
            ev.heap_before_kb = Some(before);
            ev.heap_after_kb = Some(after);
            ev.heap_total_kb = total;
        }
        tol
    }

    /// Add a pause; the pause logged right before it, if it ran inside this one (see
    /// `nested`), becomes a nested collection of this stop. `tol`: the precision of the
    /// pause's start (s).
    fn push_pause(&mut self, mut ev: GcEvent, tol: f64) -> Fate {
        if matches!(ev.kind, Kind::Young | Kind::Remark)
            && self.last_pause.is_none()
            && self.first_outer.is_none()
        {
            self.first_outer = Some((ev.clone(), tol));
        }
        let inner = self.last_pause.filter(|&i| {
            self.log
                .events
                .get(i)
                .is_some_and(|f| nested(f, &ev, self.last_pause_tol.max(tol)))
        });
        // A full collection inside a failed young pause makes the stop a full one.
        if inner
            .and_then(|i| self.log.events.get(i))
            .is_some_and(|f| f.kind == Kind::Full)
        {
            ev.kind = Kind::Full;
        }
        let id = ev.gc_id;
        if self.log.push_checked(ev).is_err() {
            return Fate::Skipped;
        }
        if let Some(f) = inner.and_then(|i| self.log.events.get_mut(i)) {
            f.record = Record::Nested;
        }
        self.last_pause = Some(self.log.events.len() - 1);
        self.last_pause_tol = tol;
        Fate::Event(id)
    }

    fn safepoint(&mut self, no: u64, d: &Deco, msg: &[u8]) -> Fate {
        let mut ttsp = None;
        let (dur, name) = if let Some(r) =
            msg.strip_prefix(b"Total time for which application threads were stopped: ")
        {
            let Some(ms) = seconds_ms(r) else {
                return Fate::Skipped;
            };
            // `, Stopping threads took: 0.0000123 seconds` (JDK 9-16): the reach.
            if let Some(p) = find(r, b"Stopping threads took: ") {
                let Some(t) = seconds_ms(&r[p + 23..]) else {
                    return Fate::Skipped;
                };
                ttsp = Some(t);
            }
            (ms, std::mem::take(&mut self.safepoint_op))
        } else if let Some(r) = msg.strip_prefix(b"Safepoint \"") {
            let Some(q) = memchr::memchr(b'"', r) else {
                return Fate::Skipped;
            };
            let Some(ms) = rfind(r, b"Total: ").and_then(|t| figure_ms(r.get(t + 7..)?)) else {
                return Fate::Skipped;
            };
            // `Reaching safepoint: 92800 ns` (JDK 17+): the time to safepoint, kept apart
            // from the operation's time (`At safepoint`); all of them are in `Total`.
            if let Some(p) = find(r, b"Reaching safepoint: ") {
                let Some(t) = figure_ms(r.get(p + 20..).unwrap_or_default()) else {
                    return Fate::Skipped;
                };
                ttsp = Some(t);
            }
            (ms, self.intern_bytes(r.get(..q).unwrap_or_default()))
        } else {
            if let Some(r) = msg.strip_prefix(b"Entering safepoint region: ") {
                self.safepoint_op = self.intern_bytes(trim(r));
            }
            // `Application time:`, `Entering/Leaving safepoint region`, cleanup details.
            return Fate::Ignored;
        };
        let mut ev = GcEvent::new(Record::Safepoint, Kind::Other, dur, no);
        ev.ttsp_ms = ttsp;
        d.date_back(&mut ev);
        ev.name = name;
        self.push_event(ev)
    }

    /// A `gc` line without GC id: collector, JVM and heap settings.
    fn header(&mut self, tags: &[u8], body: &[u8]) {
        if let Some(rest) = body.strip_prefix(b"Using ") {
            let rest = trim(rest);
            // `[gc] Using G1`; not `[gc,init] Using deprecated non-generational mode`.
            if COLLECTORS.contains(&rest)
                || (tags == b"gc" && rest.first().is_some_and(u8::is_ascii_uppercase))
            {
                let name = match rest {
                    b"Concurrent Mark Sweep" => "CMS".to_owned(),
                    b"The Z Garbage Collector" => "ZGC".to_owned(),
                    other => String::from_utf8_lossy(cap_label(other)).into_owned(),
                };
                self.collector = self.log.strings.intern(&name);
                if self.first_collector == 0 {
                    self.first_collector = self.collector;
                }
                self.meta("collector", name);
            }
            return;
        }
        let Some(colon) = find(body, b": ") else {
            return;
        };
        let key = body.get(..colon).unwrap_or_default();
        let value = trim(body.get(colon + 2..).unwrap_or_default());
        // A size believed: at most 2^53 K, like heap figures.
        let kb = |s: &[u8]| limits::size_kb_prefix(s).filter(|&(kb, _)| kb <= MAX_HEAP_KB);
        match key {
            // JDK 11 Shenandoah: "Initialize Shenandoah heap: 248M initial, 7168K min, 3953M max"
            b"Initialize Shenandoah heap" => {
                for part in value.split(|&b| b == b',') {
                    let part = trim(part);
                    if let Some((kb, n)) = kb(part) {
                        let key = match trim(part.get(n..).unwrap_or_default()) {
                            b"initial" => "heap_initial_kb",
                            b"min" => "heap_min_kb",
                            b"max" => "heap_max_kb",
                            _ => continue,
                        };
                        self.meta(key, kb.to_string());
                    }
                }
            }
            // JDK 9-16: "Heap address: 0x00000000f8000000, size: 128 MB, Compressed Oops mode: 32-bit"
            b"Heap address" => {
                if let Some((kb, _)) = find(value, b"size: ").and_then(|p| kb(&value[p + 6..])) {
                    self.meta("heap_max_kb", kb.to_string());
                }
            }
            // JDK 11 Shenandoah: "Regions: 3953 x 1024K"
            b"Regions" => {
                let size = find(value, b" x ").and_then(|x| kb(trim(&value[x + 3..])));
                if let Some((kb, _)) = size {
                    self.meta("heap_region_size_kb", kb.to_string());
                }
            }
            _ => match HEADER_KEYS.iter().find(|(name, _, _)| *name == key) {
                Some(&(_, k, true)) => {
                    if let Some((kb, _)) = kb(value) {
                        self.meta(k, kb.to_string());
                    }
                }
                Some(&(_, k, false)) => {
                    self.meta(k, String::from_utf8_lossy(cap_label(value)).into_owned())
                }
                None => {}
            },
        }
    }

    fn meta(&mut self, key: &str, value: String) {
        // Rotated files and restarts repeat the header: keep each setting once.
        if self.log.meta.len() < MAX_META
            && !self.log.meta.iter().any(|(k, v)| k == key && *v == value)
        {
            self.log.meta.push((key.to_owned(), value));
        }
    }

    fn intern_bytes(&mut self, b: &[u8]) -> u32 {
        self.log.strings.intern_lossy(cap_label(b))
    }

    /// The text inside `s`'s group `cut` (a cause), interned; 0 without one.
    fn intern_group(&mut self, s: &[u8], cut: Cut) -> u32 {
        cut.map_or(0, |(a, b)| {
            self.intern_bytes(s.get(a + 1..b - 1).unwrap_or(&[]))
        })
    }

    /// Intern `[gen: ]s`, leaving out the `cut` group (the cause, or a phase's own timestamps);
    /// at most `MAX_LABEL_BYTES`.
    fn intern_name(&mut self, gen: u8, s: &[u8], cut: Cut) -> u32 {
        self.scratch.clear();
        if gen != 0 {
            self.scratch.push(gen as char);
            self.scratch.push_str(": ");
        }
        match cut {
            None => push_lossy(&mut self.scratch, cap_label(trim(s))),
            Some((a, b)) => {
                push_lossy(&mut self.scratch, cap_label(trim(s.get(..a).unwrap_or(s))));
                let tail = cap_label(trim(s.get(b..).unwrap_or(&[])));
                if !tail.is_empty() {
                    self.scratch.push(' ');
                    push_lossy(&mut self.scratch, tail);
                }
            }
        }
        self.scratch
            .truncate(self.scratch.floor_char_boundary(MAX_LABEL_BYTES));
        self.log.strings.intern(&self.scratch)
    }
}

/// The `N seconds` (JDK 9-16 safepoint figure) `s` starts with, in ms.
fn seconds_ms(s: &[u8]) -> Option<f64> {
    let (v, n) = limits::float_prefix(s)?;
    s[n..].starts_with(b" second").then_some(v * 1e3)
}

/// The safepoint figure `s` starts with, in ms by the unit after it (` ns`, ` us`, ` ms`: its
/// first two letters).
fn figure_ms(s: &[u8]) -> Option<f64> {
    let (v, n) = limits::float_prefix(s)?;
    in_ms(v, s.get(n..)?.trim_ascii_start().get(..2)?)
}

/// The heap capacity of a ZGC `Capacity:` statistics row (after `Capacity:`), K: the Relocate
/// End column (the fourth: Mark Start, Mark End, Relocate Start, Relocate End, High, Low),
/// the capacity the cycle left; the last figure of a shorter row. `None` if no figure reads.
fn zgc_capacity(row: &[u8]) -> Option<u64> {
    row.split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty() && t.first() != Some(&b'('))
        .take(4)
        .map_while(|t| {
            let (kb, n) = limits::size_kb_prefix(t)?;
            (n == t.len() && kb <= MAX_HEAP_KB).then_some(kb)
        })
        .last()
}

/// Another family's record inside a `gc` message: a line of another log.
fn other_family(body: &[u8]) -> bool {
    super::family::GC_FAMILIES
        .iter()
        .copied()
        .any(|f| f != FAMILY && f.recognises(body))
}

/// Messages of the `safepoint` tag, to recognise them on lines without tags.
const SAFEPOINT_MESSAGES: &[&[u8]] = &[
    b"Total time for which application threads were stopped",
    b"Application time:",
    b"Safepoint \"",
    b"Entering safepoint region",
    b"Leaving safepoint region",
];

/// What `Using ...` names.
const COLLECTORS: &[&[u8]] = &[
    b"G1",
    b"Parallel",
    b"Serial",
    b"Concurrent Mark Sweep",
    b"Shenandoah",
    b"The Z Garbage Collector",
    b"Epsilon",
];

/// Header settings copied to `GcLog::meta`: (text before ": ", key, value is a size → KB).
const HEADER_KEYS: &[(&[u8], &str, bool)] = &[
    (b"Version", "jvm_version", false),
    (b"CPUs", "cpus", false),
    (b"Memory", "memory_kb", true),
    (b"Heap Min Capacity", "heap_min_kb", true),
    (b"Min Capacity", "heap_min_kb", true),
    (b"Heap Initial Capacity", "heap_initial_kb", true),
    (b"Initial Capacity", "heap_initial_kb", true),
    (b"Heap Max Capacity", "heap_max_kb", true),
    (b"Max Capacity", "heap_max_kb", true),
    (b"Heap region size", "heap_region_size_kb", true),
    (b"Heap Region Size", "heap_region_size_kb", true),
    (b"Heap Region Count", "heap_region_count", false),
    (b"Large Page Support", "large_pages", false),
    (b"NUMA Support", "numa", false),
    (b"Compressed Oops", "compressed_oops", false),
    (b"Pre-touch", "pre_touch", false),
    (b"Periodic GC", "periodic_gc", false),
    (b"Parallel Workers", "parallel_workers", false),
    (b"Concurrent Workers", "concurrent_workers", false),
    (
        b"Concurrent Refinement Workers",
        "concurrent_refinement_workers",
        false,
    ),
    (b"GC Workers", "gc_workers", false),
    (b"Mode", "gc_mode", false),
    (b"Shenandoah GC mode", "gc_mode", false),
    (b"Heuristics", "heuristics", false),
    (b"Shenandoah heuristics", "heuristics", false),
];

/// Did `inner` run inside `outer`, the pause logged after it: one stop, logged twice? A full
/// GC inside a failed young pause (Serial/CMS promotion failure), a young GC inside a CMS
/// remark (`-XX:+CMSScavengeBeforeRemark`, `GC(6) Pause Young` inside `GC(5) Pause Remark`).
/// The outer GC has the lower id and its pause includes the inner one's. Print order does not
/// tell: a `GC(n)` may open after `GC(m)` ended but before `GC(m)`'s line was written. The
/// times decide: the inner start must lie in the outer pause's [start, start + duration], and
/// being part of it, it cannot end after it, give or take `tol_s` (the stamps' precision; the
/// wall clock's is a millisecond). Only without a clock in common (no uptime or time
/// decoration) do the ids and durations decide alone.
fn nested(inner: &GcEvent, outer: &GcEvent, tol_s: f64) -> bool {
    let pair = matches!(
        (outer.kind, inner.kind),
        (Kind::Young, Kind::Full) | (Kind::Remark, Kind::Young)
    );
    if inner.record != Record::Pause || !pair {
        return false;
    }
    let (Some(iid), Some(oid)) = (inner.gc_id, outer.gc_id) else {
        return false;
    };
    if oid >= iid || outer.duration_ms + 1e-9 < inner.duration_ms {
        return false;
    }
    // Float error in sums like `0.400 + 0.01025`.
    const EPS: f64 = 1e-9;
    let within = |is: f64, os: f64, unit: f64, tol: f64| {
        let (ie, oe) = (is + inner.duration_ms / unit, os + outer.duration_ms / unit);
        is >= os - tol && is <= oe + tol && ie <= oe + tol
    };
    if let (Some(is), Some(os)) = (inner.uptime_s, outer.uptime_s) {
        return within(is, os, 1e3, tol_s + EPS);
    }
    if let (Some(is), Some(os)) = (inner.wall_ms, outer.wall_ms) {
        return within(is as f64, os as f64, 1.0, 1.0 + EPS);
    }
    true
}

/// Kind of a pause from its text (`Pause Young (Mixed) (G1 Evacuation Pause)`...).
fn pause_kind(s: &[u8]) -> Kind {
    let n = s.strip_prefix(b"Pause ").unwrap_or(s);
    let any = |ps: &[&[u8]]| ps.iter().any(|p| n.starts_with(p));
    if n.starts_with(b"Full") {
        Kind::Full
    } else if n.starts_with(b"Young") {
        if find(n, b"(Mixed)").is_some() {
            Kind::Mixed
        } else if find(n, b"(Concurrent Start)").is_some() {
            Kind::InitialMark
        } else {
            Kind::Young
        }
    } else if n.starts_with(b"Mixed") {
        Kind::Mixed
    } else if any(&[b"Initial Mark", b"Init Mark", b"Mark Start"]) {
        Kind::InitialMark
    } else if any(&[b"Remark", b"Final Mark", b"Mark End"]) {
        Kind::Remark
    } else if n.starts_with(b"Cleanup") {
        Kind::Cleanup
    } else {
        Kind::Other
    }
}

/// Parenthesised words after a pause name that qualify it rather than give its cause.
const MODIFIERS: &[&[u8]] = &[
    b"Normal",
    b"Concurrent Start",
    b"Mixed",
    b"Prepare Mixed",
    b"Major",
    b"Minor",
    b"Outside of Cycle",
    b"Mark",
    b"Evacuation",
    b"Update Refs",
    b"Update Roots",
    b"Roots",
    // generational Shenandoah
    b"Young",
    b"Old",
    b"Global",
    b"YOUNG",
    b"OLD",
    b"GLOBAL",
];

/// Is the text of a `(...)` group a GC cause? Not the G1 young-pause type, the Shenandoah
/// options (`unload classes`) or degeneration point, the ZGC `(Major)`, a JDK 21 G1
/// `(Evacuation Failure: ...)` note, nor times.
fn is_cause(g: &[u8]) -> bool {
    match g.first() {
        None => false,
        Some(b) if b.is_ascii_lowercase() || b.is_ascii_digit() => false,
        _ => !MODIFIERS.contains(&g) && !g.starts_with(b"Evacuation Failure"),
    }
}

/// The last of the trailing `(...)` groups of `s` whose content satisfies `pred`, as
/// (index of `(`, index after `)`). Nested parentheses (`(System.gc())`) are matched.
fn trailing_group(s: &[u8], pred: impl Fn(&[u8]) -> bool) -> Cut {
    let mut end = s.len();
    for _ in 0..4 {
        let t = s.get(..end)?.trim_ascii_end();
        if t.last() != Some(&b')') {
            return None;
        }
        let close = t.len() - 1;
        let mut depth = 0u32;
        let mut open = None;
        for i in (0..=close).rev() {
            match t[i] {
                b')' => depth += 1,
                b'(' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        open = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let open = open?;
        if pred(&t[open + 1..close]) {
            return Some((open, close + 1));
        }
        end = open;
    }
    None
}

/// The figures that end an event line: `<name> [<heap>] [<duration>] [text without digits]`.
struct Tail<'a> {
    /// The text before the figures, trimmed: name, qualifiers, cause.
    name: &'a [u8],
    heap: Option<Heap>,
    /// Milliseconds.
    dur: Option<f64>,
}

/// Read the figures at the end of an event line, in one pass. Tokens are split at blanks
/// outside parentheses, so `(G1 Evacuation Pause)` is one token. A token is a figure if it
/// holds a digit or is a non-finite number (`NaNms`), unless it is a parenthesised group
/// (qualifiers, causes and a phase's own times may hold digits: `(G1 ...)`, `(0.2s, 0.3s)`).
/// At most two figures, adjacent and last: a heap `a->b(c)`, then a duration (either may be
/// missing; none at all is a start line). After them only digit-free text may follow.
/// `None` when the figures cannot be read: a figure among the name's words, junk stuck to
/// the duration (`5.500msx`), a digit after it, an unclosed group with a digit in it.
fn read_tail(body: &[u8]) -> Option<Tail<'_>> {
    let body = body.trim_ascii_end();
    let mut index = 0u64;
    let mut figures = 0u32;
    // (start, end, token index) of the last two figures.
    let mut last: Option<(usize, usize, u64)> = None;
    let mut before_last: Option<(usize, usize, u64)> = None;
    let mut digits_after = false;
    // The first token after the last figure: its unit when a blank separates them
    // (`6.363 ms`).
    let mut after_last: Option<(usize, usize)> = None;
    let n = body.len();
    let mut i = 0;
    while i < n {
        while i < n && CLASS[usize::from(body[i])] == BLANK {
            i += 1;
        }
        let s = i;
        let (mut depth, mut digit) = (0u32, false);
        while i < n {
            match CLASS[usize::from(body[i])] {
                PLAIN => {}
                DIGIT => digit = true,
                OPEN => depth += 1,
                CLOSE => depth = depth.saturating_sub(1),
                _ if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        if depth > 0 && digit {
            // Only the last token can end inside parentheses: `(Normal 24M->4M(256M) 5ms`.
            return None;
        }
        let tok = body.get(s..i).unwrap_or_default();
        let group = tok.first() == Some(&b'(');
        if !group && (digit || non_finite_word(tok)) {
            figures += 1;
            before_last = last;
            last = Some((s, i, index));
            digits_after = false;
            after_last = None;
        } else if digit && last.is_some() {
            digits_after = true;
        } else if last.is_some() && after_last.is_none() {
            after_last = Some((s, i));
        }
        index += 1;
    }
    let Some(l) = last else {
        return Some(Tail {
            name: body,
            heap: None,
            dur: None,
        });
    };
    if digits_after || figures > 2 {
        return None;
    }
    let tok = |f: (usize, usize, u64)| body.get(f.0..f.1).unwrap_or_default();
    let (heap_fig, dur) = if figures == 1 && find(tok(l), b"->").is_some() {
        (Some(l), None)
    } else {
        let dur = parse_duration(tok(l), after_last.and_then(|(a, b)| body.get(a..b)))?;
        match before_last {
            Some(b) if b.2 + 1 == l.2 => (Some(b), Some(dur)),
            Some(_) => return None,
            None => (None, Some(dur)),
        }
    };
    let heap = match heap_fig {
        Some(h) => Some(parse_heap(tok(h))?),
        None => None,
    };
    let first = heap_fig.unwrap_or(l).0;
    Some(Tail {
        name: body.get(..first).unwrap_or_default().trim_ascii_end(),
        heap,
        dur,
    })
}

/// Byte classes for `read_tail`'s scan (one table look-up per byte).
const PLAIN: u8 = 0;
const BLANK: u8 = 1;
const DIGIT: u8 = 2;
const OPEN: u8 = 3;
const CLOSE: u8 = 4;
static CLASS: [u8; 256] = {
    let mut t = [PLAIN; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = if b.is_ascii_whitespace() {
            BLANK
        } else if b.is_ascii_digit() {
            DIGIT
        } else if b == b'(' {
            OPEN
        } else if b == b')' {
            CLOSE
        } else {
            PLAIN
        };
        c += 1;
    }
    t
};

/// A whole token as a duration (`3.456ms`, `0.102s`, `12us`, `5ns`), or a whole number whose
/// unit is the next token, `next` (`6.363 ms`), in ms. The unit is required, so a line cut
/// short never yields a wrong duration.
fn parse_duration(tok: &[u8], next: Option<&[u8]>) -> Option<f64> {
    let (v, n) = limits::float_prefix(tok)?;
    match tok.get(n..)? {
        b"" => in_ms(v, next?),
        unit => in_ms(v, unit),
    }
}

/// `v` of `unit` in milliseconds; `None` for what is not a time unit.
fn in_ms(v: f64, unit: &[u8]) -> Option<f64> {
    match unit {
        b"ms" => Some(v),
        b"s" => Some(v * 1e3),
        b"us" | b"\xC2\xB5s" => Some(v / 1e3),
        b"ns" => Some(v / 1e6),
        _ => None,
    }
}

/// `NaN`, `inf`, `-Infinity`, with an optional time unit: a number that is not one.
fn non_finite_word(t: &[u8]) -> bool {
    let t = match t.first() {
        Some(b'-' | b'+') => t.get(1..).unwrap_or_default(),
        _ => t,
    };
    if !matches!(t.first(), Some(b'n' | b'N' | b'i' | b'I')) {
        return false;
    }
    [&b"nan"[..], b"infinity", b"inf"].iter().any(|w| {
        t.get(..w.len()).is_some_and(|h| h.eq_ignore_ascii_case(w))
            && matches!(
                t.get(w.len()..),
                Some(b"" | b"s" | b"ms" | b"us" | b"ns" | b"\xC2\xB5s")
            )
    })
}

/// A whole heap token: `24M->3M(256M)`, `24M->3M`, ZGC `10620M(5%)->8800M(4%)`.
fn parse_heap(t: &[u8]) -> Option<Heap> {
    let (before, mut i) = limits::size_kb_prefix(t)?;
    i += skip_percent(t.get(i..)?);
    let r = t.get(i..)?.strip_prefix(b"->")?;
    let (after, mut j) = limits::size_kb_prefix(r)?;
    j += skip_percent(r.get(j..)?);
    let r = r.get(j..)?;
    if r.is_empty() {
        return Some((before, after, None));
    }
    let x = r.strip_prefix(b"(")?;
    let (total, n) = limits::size_kb_prefix(x)?;
    (x.get(n..)? == b")").then_some((before, after, Some(total)))
}

/// Length of a `(12%)` at the start of `s`, or 0.
fn skip_percent(s: &[u8]) -> usize {
    if s.first() != Some(&b'(') {
        return 0;
    }
    let digits = s
        .iter()
        .skip(1)
        .take(4)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits > 0 && s.get(1 + digits..3 + digits) == Some(b"%)") {
        digits + 3
    } else {
        0
    }
}

/// `GC(12) rest` → (Some(12), "rest").
fn gc_id_prefix(msg: &[u8]) -> (Option<u64>, &[u8]) {
    let id = || {
        let r = msg.strip_prefix(b"GC(")?;
        let (id, n) = uint_prefix(r)?;
        Some((Some(id), r[n..].strip_prefix(b")")?))
    };
    id().unwrap_or((None, msg))
}

/// Generational ZGC `Y: ` (young, in a major collection), `y: ` (minor), `O: ` (old).
fn gen_prefix(body: &[u8]) -> (u8, &[u8]) {
    match body {
        [g @ (b'Y' | b'y' | b'O'), b':', b' ', rest @ ..] => (*g, rest.trim_ascii_start()),
        _ => (0, body),
    }
}

/// The collectors a log without a `Using ...` line may have run, by precedence: the bits of
/// `hints`.
const GUESSES: [&str; 5] = ["Shenandoah", "ZGC", "G1", "CMS", "Parallel"];

/// What a log's event names say of its collector, for a log without a `Using ...` line: a bit
/// per `GUESSES` entry.
fn hints(log: &GcLog, shenandoah_messages: bool) -> u32 {
    let has = |needles: &[&str]| {
        log.events.iter().any(|e| {
            let n = log.strings.get(e.name);
            needles.iter().any(|x| n.contains(x))
        })
    };
    let cause_is =
        |f: &dyn Fn(&str) -> bool| log.events.iter().any(|e| f(log.strings.get(e.cause)));
    [
        shenandoah_messages || has(&["Init Mark", "Final Mark", "Degenerated", "Update Refs"]),
        has(&[
            "Mark Start",
            "Relocate Start",
            "Minor Collection",
            "Major Collection",
        ]),
        has(&[
            "(Normal)",
            "(Concurrent Start)",
            "(Mixed)",
            "(Prepare Mixed)",
            "Pause Mixed",
        ]) || cause_is(&|c| c.starts_with("G1 ")),
        has(&["Pause Initial Mark", "Pause Remark"]),
        cause_is(&|c| c == "Ergonomics"),
    ]
    .iter()
    .enumerate()
    .fold(0, |bits, (i, &h)| bits | (u32::from(h) << i))
}

fn push_lossy(buf: &mut String, b: &[u8]) {
    match std::str::from_utf8(b) {
        Ok(s) => buf.push_str(s),
        Err(_) => buf.push_str(&String::from_utf8_lossy(b)),
    }
}

#[cfg(test)]
#[path = "unified_tests.rs"]
mod tests;
