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
//! Every line is understood if its decorations parse; only other lines are `GcLog::skip`ped.
//!
//! Serial and CMS run a full collection *inside* a failed young pause (`GC(2) Pause Young` starts,
//! `GC(3) Pause Full` starts and ends, then `GC(2) Pause Young` ends): one stop-the-world pause,
//! logged twice. The inner full GC is folded into the outer pause, which becomes `Kind::Full`, so
//! that pause time is not counted twice (GCViewer counts both).

use super::lines::lines;
use super::num::{find, float_prefix, iso_datetime_prefix, size_kb_prefix, trim, uint_prefix};
use crate::model::{GcEvent, GcLog, Kind, Record};

/// Parse a whole unified-logging GC log.
pub fn parse(buf: &[u8]) -> GcLog {
    let mut p = Parser::default();
    for (no, line) in lines(buf) {
        p.log.lines = no;
        let line = if no == 1 {
            line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
        } else {
            line
        };
        if trim(line).is_empty() {
            continue;
        }
        match decorations(line) {
            Some((d, msg)) => p.message(no, &d, msg),
            None => p.log.skip(no, line),
        }
    }
    p.finish()
}

/// What the decorations of one line say.
#[derive(Default)]
struct Deco<'a> {
    uptime_s: Option<f64>,
    wall_ms: Option<i64>,
    level: bool,
    /// The tag set, trimmed (`gc,start`), empty if none.
    tags: &'a [u8],
}

/// Split a line into its decorations and its message; `None` if it is not a unified-logging line.
fn decorations(line: &[u8]) -> Option<(Deco<'_>, &[u8])> {
    let mut d = Deco::default();
    let mut i = 0;
    let mut n = 0;
    while line.get(i) == Some(&b'[') {
        let rest = line.get(i + 1..)?;
        let close = memchr::memchr(b']', rest)?;
        classify(&rest[..close], &mut d)?;
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

/// Classify one decoration; `None` if it cannot be one.
fn classify<'a>(c: &'a [u8], d: &mut Deco<'a>) -> Option<()> {
    let t = trim(c);
    let first = *t.first()?;
    if first.is_ascii_digit() {
        if let Some((ms, n)) = iso_datetime_prefix(t) {
            if n == t.len() {
                // time, then utctime: keep the first (local time).
                d.wall_ms.get_or_insert(ms);
                return Some(());
            }
        }
        let (v, n) = float_prefix(t)?;
        match &t[n..] {
            b"s" => {
                d.uptime_s.get_or_insert(v);
            }
            // uptimemillis, or timemillis (epoch milliseconds: 1e11 ms is three years of uptime).
            b"ms" if v >= 1e11 => {
                d.wall_ms.get_or_insert(v as i64);
            }
            b"ms" => {
                d.uptime_s.get_or_insert(v / 1e3);
            }
            b"ns" if v >= 1e17 => {
                d.wall_ms.get_or_insert((v / 1e6).round() as i64);
            }
            b"ns" => {
                d.uptime_s.get_or_insert(v / 1e9);
            }
            // pid, tid
            b"" if t.iter().all(u8::is_ascii_digit) => {}
            _ => return None,
        }
        return Some(());
    }
    if matches!(t, b"trace" | b"debug" | b"info" | b"warning" | b"error") {
        d.level = true;
        return Some(());
    }
    if first.is_ascii_lowercase()
        && t.iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b',')
    {
        d.tags = t;
        return Some(());
    }
    // hostname or another decorator we do not use
    if t.iter().all(u8::is_ascii_graphic) {
        return Some(());
    }
    None
}

/// A `[gc,start]` line waiting for its end line.
struct Pending {
    gc_id: Option<u64>,
    name: u32,
    uptime_s: Option<f64>,
    wall_ms: Option<i64>,
}

/// Start lines kept at most (a start without an end, e.g. an aborted phase, must not pile up).
const PENDING_MAX: usize = 64;

#[derive(Default)]
struct Parser {
    log: GcLog,
    /// Interned collector of the latest `Using ...` line.
    collector: u32,
    /// The first one: fills events logged before any `Using` line.
    first_collector: u32,
    pending: Vec<Pending>,
    /// Operation of the latest `Entering safepoint region: X` (JDK 11), for the next safepoint.
    safepoint_op: u32,
    /// Index of the latest pause record in `log.events`.
    last_pause: Option<usize>,
    /// Reused buffer for building interned names.
    scratch: String,
    /// Seen a message only Shenandoah writes (`Cancelling GC: ...`, `Trigger: ...`).
    shenandoah_messages: bool,
}

/// Heap before, after and total (KB) of `a->b(c)`.
type Heap = (u64, u64, Option<u64>);

/// Which part of a line's text is the interned name: all of it, or all but a `(...)` group.
type Cut = Option<(usize, usize)>;

impl Parser {
    fn message(&mut self, no: u64, d: &Deco, msg: &[u8]) {
        let msg = trim_end(msg);
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
            self.safepoint(no, d, msg);
        } else if gc && !stats {
            self.gc(no, d, msg);
        }
    }

    fn gc(&mut self, no: u64, d: &Deco, msg: &[u8]) {
        let (gc_id, body) = gc_id_prefix(msg);
        let (gen, body) = gen_prefix(trim_start(body));
        if let Some(what) = body.strip_prefix(b"Pause ") {
            // "Pause Target: 200ms"-like settings are not pauses; real ones always have a GC id.
            if gc_id.is_some() || !what.contains(&b':') {
                self.pause(no, d, gc_id, gen, body);
            }
        } else if gc_id.is_some() && body.starts_with(b"Concurrent ") {
            self.concurrent(no, d, gc_id, gen, body, false);
        } else if gc_id.is_some()
            && (body.starts_with(b"Minor Collection") || body.starts_with(b"Major Collection"))
        {
            self.concurrent(no, d, gc_id, gen, body, true);
        } else if gc_id.is_some() && body.starts_with(b"Garbage Collection (") {
            self.zgc_cycle(no, d, gc_id, body);
        } else if gc_id.is_none() {
            if body.starts_with(b"Cancelling GC")
                || body.starts_with(b"Cancelling concurrent GC")
                || body.starts_with(b"Trigger: ")
            {
                self.shenandoah_messages = true;
            }
            self.header(d.tags, body);
        }
    }

    fn pause(&mut self, no: u64, d: &Deco, gc_id: Option<u64>, gen: u8, body: &[u8]) {
        let Some((dur, rest)) = split_duration(body) else {
            let cut = trailing_group(body, is_cause);
            let name = self.intern_name(gen, body, cut);
            self.start(d, gc_id, name);
            return;
        };
        let (heap, rest) = split_heap(rest);
        let cut = trailing_group(rest, is_cause);
        let name = self.intern_name(gen, rest, cut);
        let cause = match cut {
            Some((a, b)) => self.intern_bytes(rest.get(a + 1..b - 1).unwrap_or(&[])),
            None => 0,
        };
        let mut ev = GcEvent::new(Record::Pause, pause_kind(rest), dur, no);
        ev.cause = cause;
        self.fill(&mut ev, d, gc_id, name, heap);
        self.push_pause(ev);
    }

    fn concurrent(
        &mut self,
        no: u64,
        d: &Deco,
        gc_id: Option<u64>,
        gen: u8,
        body: &[u8],
        cycle: bool,
    ) {
        // A cycle (ZGC "Minor Collection (Allocation Rate)") has a cause; a phase may end with
        // its own start/end times ("Concurrent Mark (0.298s, 0.312s)"), dropped from the name.
        let group = |s: &[u8]| -> Cut {
            if cycle {
                trailing_group(s, is_cause)
            } else {
                trailing_group(s, |g| g.first().is_some_and(u8::is_ascii_digit))
            }
        };
        let Some((dur, rest)) = split_duration(body) else {
            let name = self.intern_name(gen, body, group(body));
            self.start(d, gc_id, name);
            return;
        };
        let (heap, rest) = split_heap(rest);
        let cut = group(rest);
        let name = self.intern_name(gen, rest, cut);
        let kind = if (cycle && rest.starts_with(b"Minor")) || matches!(gen, b'Y' | b'y') {
            Kind::Young
        } else {
            Kind::Old
        };
        let mut ev = GcEvent::new(Record::Concurrent, kind, dur, no);
        if let (true, Some((a, b))) = (cycle, cut) {
            ev.cause = self.intern_bytes(rest.get(a + 1..b - 1).unwrap_or(&[]));
        }
        self.fill(&mut ev, d, gc_id, name, heap);
        self.log.events.push(ev);
    }

    /// Non-generational ZGC's cycle summary, `GC(3) Garbage Collection (Allocation Rate)
    /// 502M(49%)->716M(70%)`: a collection with no duration of its own. Its pauses, where the
    /// log has them (`gc,phases`), are itemised under it in `finish`; `-Xlog:gc` alone shows no
    /// pause at all, and then the collection is all the log tells.
    fn zgc_cycle(&mut self, no: u64, d: &Deco, gc_id: Option<u64>, body: &[u8]) {
        let (heap, rest) = split_heap(body);
        if heap.is_none() {
            return; // the `gc,start` line
        }
        let cut = trailing_group(rest, is_cause);
        let name = self.intern_name(0, rest, cut);
        let mut ev = GcEvent::new(Record::Collection, Kind::Other, 0.0, no);
        if let Some((a, b)) = cut {
            ev.cause = self.intern_bytes(rest.get(a + 1..b - 1).unwrap_or(&[]));
        }
        self.fill(&mut ev, d, gc_id, name, heap);
        self.log.events.push(ev);
    }

    /// Remember a start line.
    fn start(&mut self, d: &Deco, gc_id: Option<u64>, name: u32) {
        if d.uptime_s.is_none() && d.wall_ms.is_none() {
            return;
        }
        if self.pending.len() >= PENDING_MAX {
            self.pending.remove(0);
        }
        self.pending.push(Pending {
            gc_id,
            name,
            uptime_s: d.uptime_s,
            wall_ms: d.wall_ms,
        });
    }

    /// Times, ids, names and heap figures common to pauses and concurrent phases.
    fn fill(
        &mut self,
        ev: &mut GcEvent,
        d: &Deco,
        gc_id: Option<u64>,
        name: u32,
        heap: Option<Heap>,
    ) {
        let dur = ev.duration_ms;
        ev.uptime_s = d.uptime_s.map(|u| (u - dur / 1e3).max(0.0));
        ev.wall_ms = d.wall_ms.map(|w| w - dur.round() as i64);
        if let Some(i) = self
            .pending
            .iter()
            .rposition(|p| p.gc_id == gc_id && p.name == name)
        {
            let p = self.pending.remove(i);
            // A start logged after its end would be a different event: ignore it.
            if let (Some(s), Some(e)) = (p.uptime_s, d.uptime_s) {
                if s <= e {
                    ev.uptime_s = Some(s);
                }
            }
            if let (Some(s), Some(e)) = (p.wall_ms, d.wall_ms) {
                if s <= e {
                    ev.wall_ms = Some(s);
                }
            }
        }
        ev.collector = self.collector;
        ev.name = name;
        ev.gc_id = gc_id;
        if let Some((before, after, total)) = heap {
            ev.heap_before_kb = Some(before);
            ev.heap_after_kb = Some(after);
            ev.heap_total_kb = total;
        }
    }

    /// Add a pause, folding a full GC that ran inside the young pause logged right after it.
    fn push_pause(&mut self, mut ev: GcEvent) {
        if let Some(i) = self.last_pause {
            if ev.kind == Kind::Young && self.log.events.get(i).is_some_and(|f| nested(f, &ev)) {
                self.log.events.remove(i);
                ev.kind = Kind::Full;
            }
        }
        self.log.events.push(ev);
        self.last_pause = Some(self.log.events.len() - 1);
    }

    fn safepoint(&mut self, no: u64, d: &Deco, msg: &[u8]) {
        let (dur, name) = if let Some(r) =
            msg.strip_prefix(b"Total time for which application threads were stopped: ")
        {
            let Some((v, n)) = float_prefix(r) else {
                return;
            };
            if !r[n..].starts_with(b" second") {
                return;
            }
            (v * 1e3, std::mem::take(&mut self.safepoint_op))
        } else if let Some(r) = msg.strip_prefix(b"Safepoint \"") {
            let Some(q) = memchr::memchr(b'"', r) else {
                return;
            };
            let Some(t) = find(r, b"Total: ") else { return };
            let s = &r[t + 7..];
            let Some((v, n)) = float_prefix(s) else {
                return;
            };
            let ms = match trim_start(&s[n..]).get(..2) {
                Some(b"ns") => v / 1e6,
                Some(b"us") => v / 1e3,
                Some(b"ms") => v,
                _ => return,
            };
            (ms, self.intern_bytes(&r[..q]))
        } else {
            if let Some(r) = msg.strip_prefix(b"Entering safepoint region: ") {
                self.safepoint_op = self.intern_bytes(trim(r));
            }
            return;
        };
        if dur.is_nan() || dur < 0.0 {
            return;
        }
        let mut ev = GcEvent::new(Record::Safepoint, Kind::Other, dur, no);
        ev.uptime_s = d.uptime_s.map(|u| (u - dur / 1e3).max(0.0));
        ev.wall_ms = d.wall_ms.map(|w| w - dur.round() as i64);
        ev.name = name;
        self.log.events.push(ev);
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
                    other => String::from_utf8_lossy(other).into_owned(),
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
        let (key, value) = (&body[..colon], trim(&body[colon + 2..]));
        match key {
            // JDK 11 Shenandoah: "Initialize Shenandoah heap: 248M initial, 7168K min, 3953M max"
            b"Initialize Shenandoah heap" => {
                for part in value.split(|&b| b == b',') {
                    let part = trim(part);
                    if let Some((kb, n)) = size_kb_prefix(part) {
                        let key = match trim(&part[n..]) {
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
                if let Some(p) = find(value, b"size: ") {
                    if let Some((kb, _)) = size_kb_prefix(&value[p + 6..]) {
                        self.meta("heap_max_kb", kb.to_string());
                    }
                }
            }
            // JDK 11 Shenandoah: "Regions: 3953 x 1024K"
            b"Regions" => {
                if let Some(x) = find(value, b" x ") {
                    if let Some((kb, _)) = size_kb_prefix(trim(&value[x + 3..])) {
                        self.meta("heap_region_size_kb", kb.to_string());
                    }
                }
            }
            _ => {
                if let Some(&(_, k, size)) = HEADER_KEYS.iter().find(|(name, _, _)| *name == key) {
                    let v = if size {
                        match size_kb_prefix(value) {
                            Some((kb, _)) => kb.to_string(),
                            None => return,
                        }
                    } else {
                        String::from_utf8_lossy(value).into_owned()
                    };
                    self.meta(k, v);
                }
            }
        }
    }

    fn meta(&mut self, key: &str, value: String) {
        // Rotated files and restarts repeat the header: keep each setting once.
        if !self.log.meta.iter().any(|(k, v)| k == key && *v == value) {
            self.log.meta.push((key.to_owned(), value));
        }
    }

    fn intern_bytes(&mut self, b: &[u8]) -> u32 {
        match std::str::from_utf8(b) {
            Ok(s) => self.log.strings.intern(s),
            Err(_) => self.log.strings.intern(&String::from_utf8_lossy(b)),
        }
    }

    /// Intern `[gen: ]s`, leaving out the `cut` group (the cause, or a phase's own timestamps).
    fn intern_name(&mut self, gen: u8, s: &[u8], cut: Cut) -> u32 {
        self.scratch.clear();
        if gen != 0 {
            self.scratch.push(gen as char);
            self.scratch.push_str(": ");
        }
        match cut {
            None => push_lossy(&mut self.scratch, trim(s)),
            Some((a, b)) => {
                push_lossy(&mut self.scratch, trim(s.get(..a).unwrap_or(s)));
                let tail = trim(s.get(b..).unwrap_or(&[]));
                if !tail.is_empty() {
                    self.scratch.push(' ');
                    push_lossy(&mut self.scratch, tail);
                }
            }
        }
        self.log.strings.intern(&self.scratch)
    }

    fn finish(mut self) -> GcLog {
        // ZGC cycles: their pauses (same GC id) belong to them; the cycle's time is their sum.
        let cycles: Vec<(usize, u64)> = self
            .log
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| e.record == Record::Collection)
            .filter_map(|(i, e)| e.gc_id.map(|g| (i, g)))
            .collect();
        if !cycles.is_empty() {
            let ids: std::collections::HashMap<u64, usize> =
                cycles.iter().map(|&(i, g)| (g, i)).collect();
            let mut sums = vec![0.0; self.log.events.len()];
            for e in &mut self.log.events {
                if e.record != Record::Pause {
                    continue;
                }
                if let Some(&ci) = e.gc_id.and_then(|g| ids.get(&g)) {
                    e.in_collection = true;
                    sums[ci] += e.duration_ms;
                }
            }
            for (i, _) in cycles {
                self.log.events[i].duration_ms = sums[i];
            }
        }
        // Events before the first `Using` line (or a log without one, e.g. a rotated file):
        // take the first collector named, or guess it from the pause names.
        let mut fill = self.first_collector;
        if fill == 0
            && self
                .log
                .events
                .iter()
                .any(|e| e.record != Record::Safepoint)
        {
            if let Some(g) = guess_collector(&self.log, self.shenandoah_messages) {
                fill = self.log.strings.intern(g);
                self.meta("collector_inferred", g.to_owned());
            }
        }
        if fill != 0 {
            for e in &mut self.log.events {
                if e.collector == 0 && e.record != Record::Safepoint {
                    e.collector = fill;
                }
            }
        }
        self.log
    }
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

/// Is `full` a full GC that ran inside the young pause `young` logged right after it?
/// (Serial/CMS promotion failure: the young GC has the lower id, starts first, ends last.)
fn nested(full: &GcEvent, young: &GcEvent) -> bool {
    if full.record != Record::Pause || full.kind != Kind::Full {
        return false;
    }
    let (Some(fid), Some(yid)) = (full.gc_id, young.gc_id) else {
        return false;
    };
    if yid >= fid || young.duration_ms + 1e-9 < full.duration_ms {
        return false;
    }
    // Timestamps have millisecond resolution: allow that much slack.
    if let (Some(fs), Some(ys)) = (full.uptime_s, young.uptime_s) {
        let (fe, ye) = (fs + full.duration_ms / 1e3, ys + young.duration_ms / 1e3);
        return ys <= fs + 0.0015 && ye + 0.0015 >= fe;
    }
    if let (Some(fs), Some(ys)) = (full.wall_ms, young.wall_ms) {
        let (fe, ye) = (fs as f64 + full.duration_ms, ys as f64 + young.duration_ms);
        return ys as f64 <= fs as f64 + 1.5 && ye + 1.5 >= fe;
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
        let t = trim_end(s.get(..end)?);
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

/// Split a trailing duration (`3.456ms`, `0.102s`, `12us`) off `s`: (milliseconds, the rest).
/// The unit is required, so a line cut short never yields a wrong duration.
fn split_duration(s: &[u8]) -> Option<(f64, &[u8])> {
    let s = trim_end(s);
    let sp = s.iter().rposition(|&b| b == b' ')?;
    let tok = &s[sp + 1..];
    let (v, n) = float_prefix(tok)?;
    if v.is_nan() || v < 0.0 {
        return None;
    }
    let ms = match &tok[n..] {
        b"ms" => v,
        b"s" => v * 1e3,
        b"us" | b"\xC2\xB5s" => v / 1e3,
        b"ns" => v / 1e6,
        _ => return None,
    };
    Some((ms, trim_end(&s[..sp])))
}

/// Split a trailing heap figure (`24M->3M(256M)`, ZGC `10620M(5%)->8800M(4%)`) off `s`.
fn split_heap(s: &[u8]) -> (Option<Heap>, &[u8]) {
    let start = s.iter().rposition(|&b| b == b' ').map_or(0, |p| p + 1);
    let tok = &s[start..];
    if find(tok, b"->").is_none() {
        return (None, s);
    }
    (parse_heap(tok), trim_end(&s[..start]))
}

fn parse_heap(t: &[u8]) -> Option<Heap> {
    let (before, mut i) = size_kb_prefix(t)?;
    i += skip_percent(&t[i..]);
    let r = t.get(i..)?.strip_prefix(b"->")?;
    let (after, mut j) = size_kb_prefix(r)?;
    j += skip_percent(&r[j..]);
    let total =
        r.get(j..)
            .and_then(|x| x.strip_prefix(b"("))
            .and_then(|x| match size_kb_prefix(x) {
                Some((kb, n)) if x.get(n) == Some(&b')') => Some(kb),
                _ => None,
            });
    Some((before, after, total))
}

/// Length of a `(12%)` at the start of `s`, or 0.
fn skip_percent(s: &[u8]) -> usize {
    if s.first() != Some(&b'(') {
        return 0;
    }
    let digits = s[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && s.get(1 + digits..3 + digits) == Some(b"%)") {
        digits + 3
    } else {
        0
    }
}

/// `GC(12) rest` → (Some(12), "rest").
fn gc_id_prefix(msg: &[u8]) -> (Option<u64>, &[u8]) {
    if let Some(r) = msg.strip_prefix(b"GC(") {
        if let Some((id, n)) = uint_prefix(r) {
            if let Some(rest) = r[n..].strip_prefix(b")") {
                return (Some(id), rest);
            }
        }
    }
    (None, msg)
}

/// Generational ZGC `Y: ` (young, in a major collection), `y: ` (minor), `O: ` (old).
fn gen_prefix(body: &[u8]) -> (u8, &[u8]) {
    match body {
        [g @ (b'Y' | b'y' | b'O'), b':', b' ', rest @ ..] => (*g, trim_start(rest)),
        _ => (0, body),
    }
}

/// Guess the collector of a log without a `Using ...` line from its event names.
fn guess_collector(log: &GcLog, shenandoah_messages: bool) -> Option<&'static str> {
    let has = |needles: &[&str]| {
        log.events.iter().any(|e| {
            let n = log.strings.get(e.name);
            needles.iter().any(|x| n.contains(x))
        })
    };
    if shenandoah_messages || has(&["Init Mark", "Final Mark", "Degenerated", "Update Refs"]) {
        Some("Shenandoah")
    } else if has(&[
        "Mark Start",
        "Relocate Start",
        "Minor Collection",
        "Major Collection",
    ]) {
        Some("ZGC")
    } else if has(&[
        "(Normal)",
        "(Concurrent Start)",
        "(Mixed)",
        "(Prepare Mixed)",
        "Pause Mixed",
    ]) || log
        .events
        .iter()
        .any(|e| log.strings.get(e.cause).starts_with("G1 "))
    {
        Some("G1")
    } else if has(&["Pause Initial Mark", "Pause Remark"]) {
        Some("CMS")
    } else if log
        .events
        .iter()
        .any(|e| log.strings.get(e.cause) == "Ergonomics")
    {
        Some("Parallel")
    } else {
        None
    }
}

fn push_lossy(buf: &mut String, b: &[u8]) {
    match std::str::from_utf8(b) {
        Ok(s) => buf.push_str(s),
        Err(_) => buf.push_str(&String::from_utf8_lossy(b)),
    }
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[n..]
}

fn trim_end(s: &[u8]) -> &[u8] {
    let n = s
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    &s[..s.len() - n]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::GcEvent;

    fn of(log: &GcLog, r: Record) -> Vec<&GcEvent> {
        log.events.iter().filter(|e| e.record == r).collect()
    }
    fn pauses(log: &GcLog) -> Vec<&GcEvent> {
        of(log, Record::Pause)
    }
    fn total_ms(evs: &[&GcEvent]) -> f64 {
        evs.iter().map(|e| e.duration_ms).sum()
    }
    fn name<'a>(log: &'a GcLog, e: &GcEvent) -> &'a str {
        log.strings.get(e.name)
    }
    fn cause<'a>(log: &'a GcLog, e: &GcEvent) -> &'a str {
        log.strings.get(e.cause)
    }
    fn collector<'a>(log: &'a GcLog, e: &GcEvent) -> &'a str {
        log.strings.get(e.collector)
    }
    fn meta<'a>(log: &'a GcLog, key: &str) -> Option<&'a str> {
        log.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }
    fn kinds(evs: &[&GcEvent]) -> Vec<Kind> {
        evs.iter().map(|e| e.kind).collect()
    }

    #[test]
    fn serial_young_full_and_nested_full() {
        let log = parse(
            b"[0.015s][info][gc] Using Serial\n\
[0.250s][info][gc] GC(0) Pause Young (Allocation Failure) 30M->12M(100M) 10.500ms\n\
[0.400s][info][gc,start] GC(1) Pause Young (Allocation Failure)\n\
[0.400s][info][gc,start] GC(2) Pause Full (Allocation Failure)\n\
[0.400s][info][gc,phases,start] GC(2) Phase 1: Mark live objects\n\
[0.409s][info][gc,phases] GC(2) Phase 1: Mark live objects 4.000ms\n\
[0.410s][info][gc] GC(2) Pause Full (Allocation Failure) 80M->20M(100M) 9.750ms\n\
[0.410s][info][gc,heap] GC(1) DefNew: 27648K->0K(30720K)\n\
[0.410s][info][gc] GC(1) Pause Young (Allocation Failure) 80M->20M(100M) 10.250ms\n\
[0.600s][info][gc] GC(3) Pause Full (System.gc()) 40M->15M(100M) 20.000ms\n",
        );
        assert_eq!(log.lines, 10);
        assert_eq!(log.skipped_lines, 0);
        assert_eq!(meta(&log, "collector"), Some("Serial"));
        let p = pauses(&log);
        // GC(2) ran inside GC(1): one stop, 10.25 ms, counted once and as a full GC.
        assert_eq!(p.len(), 3);
        assert_eq!(kinds(&p), [Kind::Young, Kind::Full, Kind::Full]);
        assert!(close(total_ms(&p), 10.5 + 10.25 + 20.0));
        let y = p[0];
        assert_eq!(name(&log, y), "Pause Young");
        assert_eq!(cause(&log, y), "Allocation Failure");
        assert_eq!(collector(&log, y), "Serial");
        assert_eq!(y.gc_id, Some(0));
        assert!(close(y.uptime_s.unwrap(), 0.250 - 0.0105));
        assert_eq!(y.wall_ms, None);
        assert_eq!(
            (y.heap_before_kb, y.heap_after_kb, y.heap_total_kb),
            (Some(30720), Some(12288), Some(102400))
        );
        assert_eq!(y.line, 2);
        let nested = p[1];
        assert_eq!(nested.gc_id, Some(1));
        assert_eq!(name(&log, nested), "Pause Young");
        assert!(close(nested.duration_ms, 10.25));
        assert!(close(nested.uptime_s.unwrap(), 0.400)); // from the [gc,start] line
        let f = p[2];
        assert_eq!(cause(&log, f), "System.gc()");
        assert_eq!(name(&log, f), "Pause Full");
        assert!(close(f.uptime_s.unwrap(), 0.580));
    }

    #[test]
    fn parallel_young_then_separate_full() {
        let log = parse(
            b"[0.020s][info][gc] Using Parallel\n\
[1.000s][info][gc] GC(0) Pause Young (Allocation Failure) 64M->16M(245M) 5.000ms\n\
[2.000s][info][gc] GC(1) Pause Young (Allocation Failure) 80M->70M(245M) 8.000ms\n\
[2.015s][info][gc] GC(2) Pause Full (Ergonomics) 70M->40M(245M) 14.500ms\n",
        );
        let p = pauses(&log);
        assert_eq!(kinds(&p), [Kind::Young, Kind::Young, Kind::Full]);
        assert!(close(total_ms(&p), 27.5));
        assert_eq!(cause(&log, p[2]), "Ergonomics");
        assert_eq!(collector(&log, p[2]), "Parallel");
        assert_eq!(p[2].heap_before_kb, Some(71680));
        assert_eq!(p[2].heap_after_kb, Some(40960));
        assert_eq!(p[2].heap_total_kb, Some(250880));
        assert!(close(p[2].uptime_s.unwrap(), 2.0005));
    }

    #[test]
    fn cms_cycle() {
        let log = parse(
            b"[0.020s][info][gc] Using Concurrent Mark Sweep\n\
[0.300s][info][gc] GC(0) Pause Young (Allocation Failure) 40M->30M(150M) 6.000ms\n\
[0.500s][info][gc] GC(1) Pause Initial Mark 90M->90M(150M) 0.200ms\n\
[0.500s][info][gc] GC(1) Concurrent Mark\n\
[0.503s][info][gc] GC(1) Concurrent Mark 3.000ms\n\
[0.503s][info][gc] GC(1) Concurrent Preclean\n\
[0.504s][info][gc] GC(1) Concurrent Preclean 0.400ms\n\
[0.504s][info][gc] GC(1) Concurrent Abortable Preclean\n\
[0.510s][info][gc] GC(1) Pause Remark (CMS Final Remark) 100M->100M(150M) 1.500ms\n\
[0.510s][info][gc] GC(1) Concurrent Sweep\n\
[0.512s][info][gc] GC(1) Concurrent Sweep 2.000ms\n\
[0.512s][info][gc] GC(1) Concurrent Reset\n\
[0.513s][info][gc] GC(1) Concurrent Reset 0.500ms\n",
        );
        assert_eq!(meta(&log, "collector"), Some("CMS"));
        let p = pauses(&log);
        assert_eq!(kinds(&p), [Kind::Young, Kind::InitialMark, Kind::Remark]);
        assert!(close(total_ms(&p), 7.7));
        assert_eq!(name(&log, p[1]), "Pause Initial Mark");
        assert_eq!(cause(&log, p[1]), "");
        assert_eq!(name(&log, p[2]), "Pause Remark");
        assert_eq!(cause(&log, p[2]), "CMS Final Remark");
        assert_eq!(collector(&log, p[2]), "CMS");
        let c = of(&log, Record::Concurrent);
        assert_eq!(c.len(), 4);
        assert!(close(total_ms(&c), 5.9));
        assert_eq!(name(&log, c[0]), "Concurrent Mark");
        assert_eq!(c[0].kind, Kind::Old);
        assert_eq!(c[0].gc_id, Some(1));
        assert!(close(c[0].uptime_s.unwrap(), 0.500));
        assert_eq!(name(&log, c[3]), "Concurrent Reset");
    }

    #[test]
    fn g1_jdk9_to_16_style() {
        let log = parse(
            b"[0.010s][info][gc,heap] Heap region size: 1M\n\
[0.012s][info][gc     ] Using G1\n\
[0.012s][info][gc,heap,coops] Heap address: 0x00000000f8000000, size: 128 MB, Compressed Oops mode: 32-bit\n\
[0.100s][info][safepoint    ] Application time: 0.0800000 seconds\n\
[0.100s][info][gc,start     ] GC(0) Pause Young (G1 Evacuation Pause)\n\
[0.100s][info][gc,task      ] GC(0) Using 4 workers of 4 for evacuation\n\
[0.104s][info][gc,phases    ] GC(0)   Pre Evacuate Collection Set: 0.0ms\n\
[0.104s][info][gc,phases    ] GC(0)   Evacuate Collection Set: 3.5ms\n\
[0.104s][info][gc,heap      ] GC(0) Eden regions: 20->0(18)\n\
[0.104s][info][gc,metaspace ] GC(0) Metaspace: 3000K->3000K(1056768K)\n\
[0.104s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 20M->5M(128M) 4.000ms\n\
[0.104s][info][gc,cpu       ] GC(0) User=0.01s Sys=0.00s Real=0.00s\n\
[0.104s][info][safepoint    ] Total time for which application threads were stopped: 0.0042500 seconds, Stopping threads took: 0.0000500 seconds\n\
[0.200s][info][gc           ] GC(1) Pause Initial Mark (G1 Evacuation Pause) 60M->55M(128M) 5.000ms\n\
[0.200s][info][gc           ] GC(2) Concurrent Cycle\n\
[0.200s][info][gc,marking   ] GC(2) Concurrent Mark (0.200s)\n\
[0.230s][info][gc,marking   ] GC(2) Concurrent Mark (0.200s, 0.230s) 30.000ms\n\
[0.231s][info][gc,start     ] GC(2) Pause Remark\n\
[0.232s][info][gc           ] GC(2) Pause Remark 70M->70M(128M) 1.000ms\n\
[0.240s][info][gc           ] GC(2) Pause Cleanup 72M->40M(128M) 0.250ms\n\
[0.241s][info][gc           ] GC(2) Concurrent Cycle 41.000ms\n\
[0.300s][info][gc           ] GC(3) Pause Mixed (G1 Evacuation Pause) 50M->30M(128M) 6.000ms\n\
[0.400s][info][gc           ] GC(4) To-space exhausted\n\
[0.400s][info][gc           ] GC(4) Pause Young (G1 Evacuation Pause) 127M->128M(128M) 9.000ms\n\
[0.420s][info][gc           ] GC(5) Pause Full (Allocation Failure) 128M->30M(128M) 20.000ms\n",
        );
        assert_eq!(log.skipped_lines, 0);
        assert_eq!(meta(&log, "heap_region_size_kb"), Some("1024"));
        assert_eq!(meta(&log, "heap_max_kb"), Some("131072"));
        assert_eq!(meta(&log, "collector"), Some("G1"));
        let p = pauses(&log);
        assert_eq!(
            kinds(&p),
            [
                Kind::Young,
                Kind::InitialMark,
                Kind::Remark,
                Kind::Cleanup,
                Kind::Mixed,
                Kind::Young,
                Kind::Full
            ]
        );
        assert!(close(total_ms(&p), 45.25));
        assert_eq!(name(&log, p[0]), "Pause Young");
        assert_eq!(cause(&log, p[0]), "G1 Evacuation Pause");
        assert!(close(p[0].uptime_s.unwrap(), 0.100));
        assert!(close(p[2].uptime_s.unwrap(), 0.231));
        assert!(close(p[3].uptime_s.unwrap(), 0.24 - 0.00025));
        assert_eq!(p[3].heap_after_kb, Some(40960));
        assert_eq!(name(&log, p[4]), "Pause Mixed");
        assert_eq!(cause(&log, p[6]), "Allocation Failure");
        let c = of(&log, Record::Concurrent);
        assert_eq!(c.len(), 2);
        assert_eq!(name(&log, c[0]), "Concurrent Mark"); // its own (start, end) times dropped
        assert!(close(c[0].uptime_s.unwrap(), 0.200));
        assert_eq!(name(&log, c[1]), "Concurrent Cycle");
        assert!(close(c[1].duration_ms, 41.0));
        assert!(close(c[1].uptime_s.unwrap(), 0.200));
        let s = of(&log, Record::Safepoint);
        assert_eq!(s.len(), 1);
        assert!(close(s[0].duration_ms, 4.25));
        assert!(close(s[0].uptime_s.unwrap(), 0.104 - 0.00425));
        assert_eq!(s[0].name, 0);
    }

    #[test]
    fn g1_jdk17_pause_types_and_causes() {
        let log = parse(
            b"[0.500s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 3.456ms\n\
[0.600s][info][gc] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) 100M->90M(256M) 4.000ms\n\
[0.700s][info][gc] GC(3) Pause Young (Prepare Mixed) (G1 Evacuation Pause) 120M->80M(256M) 5.000ms\n\
[0.800s][info][gc] GC(4) Pause Young (Mixed) (G1 Evacuation Pause) 90M->40M(256M) 6.000ms\n\
[0.900s][info][gc] GC(5) Pause Young (Normal) (G1 Preventive Collection) 50M->20M(256M) 2.500ms\n\
[1.000s][info][gc] GC(6) Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation) 255M->256M(256M) 7.000ms\n\
[1.100s][info][gc] GC(7) Pause Full (G1 Compaction Pause) 256M->100M(256M) 50.000ms\n",
        );
        let p = pauses(&log);
        assert_eq!(
            kinds(&p),
            [
                Kind::Young,
                Kind::InitialMark,
                Kind::Young,
                Kind::Mixed,
                Kind::Young,
                Kind::Young,
                Kind::Full
            ]
        );
        let names: Vec<&str> = p.iter().map(|e| name(&log, e)).collect();
        assert_eq!(
            names,
            [
                "Pause Young (Normal)",
                "Pause Young (Concurrent Start)",
                "Pause Young (Prepare Mixed)",
                "Pause Young (Mixed)",
                "Pause Young (Normal)",
                "Pause Young (Normal) (Evacuation Failure: Allocation)",
                "Pause Full"
            ]
        );
        let causes: Vec<&str> = p.iter().map(|e| cause(&log, e)).collect();
        assert_eq!(
            causes,
            [
                "G1 Evacuation Pause",
                "G1 Humongous Allocation",
                "G1 Evacuation Pause",
                "G1 Evacuation Pause",
                "G1 Preventive Collection",
                "G1 Evacuation Pause",
                "G1 Compaction Pause"
            ]
        );
        assert!(close(total_ms(&p), 77.956));
        assert_eq!(p[0].heap_before_kb, Some(24576));
        assert_eq!(p[0].heap_after_kb, Some(3072));
        assert_eq!(p[0].heap_total_kb, Some(262144));
        assert_eq!(p[0].gc_id, Some(0));
        assert_eq!(p[6].gc_id, Some(7));
        // No `Using` line: guessed from the pause names.
        assert_eq!(collector(&log, p[0]), "G1");
        assert_eq!(meta(&log, "collector_inferred"), Some("G1"));
    }

    #[test]
    fn shenandoah() {
        let log = parse(
            b"[0.003s][info][gc] Using Shenandoah\n\
[1.000s][info][gc,start] GC(0) Concurrent reset\n\
[1.001s][info][gc] GC(0) Concurrent reset 0.500ms\n\
[1.001s][info][gc,start] GC(0) Pause Init Mark (unload classes)\n\
[1.001s][info][gc] GC(0) Pause Init Mark (unload classes) 0.227ms\n\
[1.031s][info][gc] GC(0) Concurrent marking (unload classes) 30.000ms\n\
[1.032s][info][gc] GC(0) Pause Final Mark (unload classes) 0.500ms\n\
[1.032s][info][gc] GC(0) Concurrent cleanup 200M->150M(256M) 0.100ms\n\
[1.040s][info][gc] GC(0) Concurrent evacuation 8.000ms\n\
[1.040s][info][gc] GC(0) Pause Init Update Refs 0.020ms\n\
[1.050s][info][gc] GC(0) Concurrent update references 10.000ms\n\
[1.050s][info][gc] GC(0) Pause Final Update Refs 0.150ms\n\
[1.050s][info][gc,stats] Pause Init Mark (G)                  250 us\n\
[2.000s][info][gc] Cancelling GC: Allocation Failure\n\
[2.012s][info][gc] GC(1) Pause Degenerated GC (Mark) 10M->5M(20M) 11.373ms\n\
[3.000s][info][gc,start] GC(2) Pause Full (System.gc())\n\
[3.010s][info][gc] GC(2) Pause Full (System.gc()) 30M->10M(256M) 10.000ms\n",
        );
        assert_eq!(log.skipped_lines, 0);
        let p = pauses(&log);
        assert_eq!(
            kinds(&p),
            [
                Kind::InitialMark,
                Kind::Remark,
                Kind::Other,
                Kind::Other,
                Kind::Other,
                Kind::Full
            ]
        );
        let names: Vec<&str> = p.iter().map(|e| name(&log, e)).collect();
        assert_eq!(
            names,
            [
                "Pause Init Mark (unload classes)",
                "Pause Final Mark (unload classes)",
                "Pause Init Update Refs",
                "Pause Final Update Refs",
                "Pause Degenerated GC (Mark)",
                "Pause Full"
            ]
        );
        assert!(close(
            total_ms(&p),
            0.227 + 0.5 + 0.02 + 0.15 + 11.373 + 10.0
        ));
        assert_eq!(cause(&log, p[0]), "");
        assert_eq!(cause(&log, p[4]), "");
        assert_eq!(cause(&log, p[5]), "System.gc()");
        assert!(close(p[5].uptime_s.unwrap(), 3.0));
        assert_eq!(p[4].heap_before_kb, Some(10240));
        assert_eq!(collector(&log, p[4]), "Shenandoah");
        let c = of(&log, Record::Concurrent);
        assert_eq!(c.len(), 5);
        assert!(close(total_ms(&c), 48.6));
        assert!(close(c[0].uptime_s.unwrap(), 1.000));
        assert_eq!(name(&log, c[1]), "Concurrent marking (unload classes)");
        assert_eq!(name(&log, c[2]), "Concurrent cleanup");
        assert_eq!(c[2].heap_before_kb, Some(204800));
        assert_eq!(c[2].heap_after_kb, Some(153600));
    }

    #[test]
    fn collector_guessed_without_using_line() {
        let cases: &[(&[u8], &str)] = &[
            (
                b"[1.000s][info][gc] Cancelling concurrent GC: System.gc()\n\
[1.010s][info][gc] GC(0) Pause Full (System.gc()) 10M->2M(64M) 8.000ms\n",
                "Shenandoah",
            ),
            (
                b"[1.000s][info][gc,phases] GC(0) Pause Mark Start 0.010ms\n",
                "ZGC",
            ),
            (
                b"[1.000s][info][gc] GC(0) Pause Full (Ergonomics) 10M->2M(64M) 8.000ms\n",
                "Parallel",
            ),
            (
                b"[1.000s][info][gc] GC(0) Pause Initial Mark 10M->10M(64M) 0.100ms\n",
                "CMS",
            ),
        ];
        for (text, want) in cases {
            let log = parse(text);
            assert_eq!(collector(&log, &log.events[0]), *want);
            assert_eq!(meta(&log, "collector_inferred"), Some(*want));
            assert_eq!(meta(&log, "collector"), None);
        }
        // Serial or Parallel young pauses alone: no guess.
        let log = parse(
            b"[1.000s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->2M(64M) 8.000ms\n",
        );
        assert_eq!(log.events[0].collector, 0);
        assert!(log.meta.is_empty());
    }

    #[test]
    fn zgc_single_generation() {
        let log = parse(
            b"[0.010s][info][gc,init] Initial Capacity: 256M\n\
[0.010s][info][gc,init] Max Capacity: 4096M\n\
[0.010s][info][gc] Using The Z Garbage Collector\n\
[1.000s][info][gc,start] GC(0) Garbage Collection (Warmup)\n\
[1.001s][info][gc,phases] GC(0) Pause Mark Start 0.012ms\n\
[1.011s][info][gc,phases] GC(0) Concurrent Mark 10.000ms\n\
[1.011s][info][gc,phases] GC(0) Pause Mark End 0.034ms\n\
[1.015s][info][gc,phases] GC(0) Concurrent Select Relocation Set 3.500ms\n\
[1.015s][info][gc,phases] GC(0) Pause Relocate Start 0.054ms\n\
[1.020s][info][gc,phases] GC(0) Concurrent Relocate 5.000ms\n\
[1.020s][info][gc,heap] GC(0) Min Capacity: 8M(0%)\n\
[1.020s][info][gc,heap] GC(0)  Capacity:      256M (6%)          256M (6%)\n\
[1.020s][info][gc] GC(0) Garbage Collection (Warmup) 200M(5%)->60M(1%)\n\
[2.000s][info][gc] Allocation Stall (main) 3.250ms\n",
        );
        assert_eq!(meta(&log, "collector"), Some("ZGC"));
        assert_eq!(meta(&log, "heap_initial_kb"), Some("262144"));
        assert_eq!(meta(&log, "heap_max_kb"), Some("4194304"));
        assert_eq!(meta(&log, "heap_min_kb"), None); // per-GC line, not the header
        let p = pauses(&log);
        assert_eq!(kinds(&p), [Kind::InitialMark, Kind::Remark, Kind::Other]);
        assert!(close(total_ms(&p), 0.1));
        assert_eq!(name(&log, p[2]), "Pause Relocate Start");
        assert_eq!(collector(&log, p[0]), "ZGC");
        assert!(close(p[0].uptime_s.unwrap(), 1.001 - 0.000012));
        let c = of(&log, Record::Concurrent);
        assert_eq!(c.len(), 3);
        assert!(close(total_ms(&c), 18.5));
    }

    #[test]
    fn zgc_generational() {
        let log = parse(
            b"[0.007s][info][gc] Using The Z Garbage Collector\n\
[1.000s][info][gc] GC(0) Minor Collection (Allocation Rate)\n\
[1.000s][info][gc,phases] GC(0) y: Young Generation\n\
[1.000s][info][gc,phases] GC(0) y: Pause Mark Start 0.011ms\n\
[1.005s][info][gc,phases] GC(0) y: Concurrent Mark 5.000ms\n\
[1.005s][info][gc,phases] GC(0) y: Pause Mark End 0.009ms\n\
[1.007s][info][gc,phases] GC(0) y: Pause Relocate Start 0.010ms\n\
[1.010s][info][gc,phases] GC(0) y: Young Generation 100M(2%)->20M(0%) 0.010s\n\
[1.010s][info][gc] GC(0) Minor Collection (Allocation Rate) 100M(2%)->20M(0%) 0.010s\n\
[2.000s][info][gc] GC(1) Major Collection (Proactive)\n\
[2.000s][info][gc,phases] GC(1) Y: Pause Mark Start (Major) 0.020ms\n\
[2.010s][info][gc,phases] GC(1) Y: Pause Mark End 0.030ms\n\
[2.020s][info][gc,phases] GC(1) O: Concurrent Mark 4.000ms\n\
[2.020s][info][gc,phases] GC(1) O: Pause Mark End 0.040ms\n\
[2.030s][info][gc,phases] GC(1) O: Pause Relocate Start 0.050ms\n\
[2.040s][info][gc] GC(1) Major Collection (Proactive) 300M(7%)->100M(2%) 0.040s\n",
        );
        let p = pauses(&log);
        assert_eq!(
            kinds(&p),
            [
                Kind::InitialMark,
                Kind::Remark,
                Kind::Other,
                Kind::InitialMark,
                Kind::Remark,
                Kind::Remark,
                Kind::Other
            ]
        );
        assert!(close(total_ms(&p), 0.17));
        assert_eq!(name(&log, p[0]), "y: Pause Mark Start");
        assert_eq!(name(&log, p[3]), "Y: Pause Mark Start (Major)");
        assert_eq!(cause(&log, p[3]), "");
        assert_eq!(name(&log, p[5]), "O: Pause Mark End");
        assert_eq!(p[5].gc_id, Some(1));
        let c = of(&log, Record::Concurrent);
        assert_eq!(c.len(), 4);
        assert_eq!(name(&log, c[0]), "y: Concurrent Mark");
        assert_eq!(c[0].kind, Kind::Young);
        let minor = c[1];
        assert_eq!(name(&log, minor), "Minor Collection");
        assert_eq!(cause(&log, minor), "Allocation Rate");
        assert_eq!(minor.kind, Kind::Young);
        assert!(close(minor.duration_ms, 10.0));
        assert!(close(minor.uptime_s.unwrap(), 1.0));
        assert_eq!(minor.heap_before_kb, Some(102400));
        assert_eq!(minor.heap_after_kb, Some(20480));
        assert_eq!(minor.heap_total_kb, None);
        assert_eq!(name(&log, c[2]), "O: Concurrent Mark");
        assert_eq!(c[2].kind, Kind::Old);
        assert_eq!(c[3].kind, Kind::Old);
        assert_eq!(cause(&log, c[3]), "Proactive");
        assert!(close(c[3].duration_ms, 40.0));
    }

    #[test]
    fn decoration_styles() {
        // 2019-03-05T14:11:18.470 taken as UTC = 1551795078470 ms since the epoch.
        const WALL: i64 = 1_551_795_078_470;
        let pause = "GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 2.000ms";
        let cases: &[(&str, Option<f64>, Option<i64>)] = &[
            ("[0.200s][info][gc]", Some(0.2), None),
            ("[0,200s][info][gc]", Some(0.2), None),
            ("[200ms][info][gc]", Some(0.2), None),
            ("[200000000ns][info][gc]", Some(0.2), None),
            ("[2019-03-05T14:11:18.470+0100][info][gc]", None, Some(WALL)),
            (
                "[2019-03-05T14:11:18.470+0100][2019-03-05T13:11:18.470+0000][0.200s]",
                Some(0.2),
                Some(WALL),
            ),
            ("[1551795078470ms][gc]", None, Some(WALL)),
            ("[1551795078470000000ns][200ms]", Some(0.2), Some(WALL)),
            (
                "[2019-03-05T14:11:18.470+0100][0.200s][12345][12346][debug][gc,start     ]",
                Some(0.2),
                Some(WALL),
            ),
            (
                "[0.200s][myhost.example.com][42][warning][gc]",
                Some(0.2),
                None,
            ),
            ("[info][gc]", None, None),
            ("[gc]", None, None),
        ];
        for (deco, up, wall) in cases {
            let line = format!("{deco} {pause}\n");
            let log = parse(line.as_bytes());
            assert_eq!(log.skipped_lines, 0, "{deco}");
            let p = pauses(&log);
            assert_eq!(p.len(), 1, "{deco}");
            match up {
                Some(u) => assert!(close(p[0].uptime_s.unwrap(), u - 0.002), "{deco}"),
                None => assert_eq!(p[0].uptime_s, None, "{deco}"),
            }
            assert_eq!(p[0].wall_ms, wall.map(|w| w - 2), "{deco}");
            assert!(close(p[0].duration_ms, 2.0));
        }
        // Durations in s and us, and a comma decimal separator.
        let log = parse(
            b"[1,474s][info][gc] GC(0) Pause Full (System.gc()) 10M->1M(128M) 6,572ms\n\
[2.000s][info][gc] GC(1) Pause Young (Allocation Failure) 10M->1M(128M) 0.25s\n\
[3.000s][info][gc] GC(2) Pause Young (Allocation Failure) 10M->1M(128M) 750us\n",
        );
        let p = pauses(&log);
        assert_eq!(p.len(), 3);
        assert!(close(p[0].duration_ms, 6.572));
        assert!(close(p[0].uptime_s.unwrap(), 1.474 - 0.006572));
        assert!(close(p[1].duration_ms, 250.0));
        assert!(close(p[2].duration_ms, 0.75));
    }

    #[test]
    fn safepoints_both_styles() {
        let log = parse(
            b"[1.000s][info][safepoint] Application time: 0.5000000 seconds\n\
[1.000s][info][safepoint] Entering safepoint region: G1CollectForAllocation\n\
[1.003s][info][safepoint] Leaving safepoint region\n\
[1.003s][info][safepoint] Total time for which application threads were stopped: 0.0031250 seconds, Stopping threads took: 0.0001000 seconds\n\
[1.100s][info][safepoint,cleanup] updating inline caches, 0.0000290 secs\n\
[1.500s][info][safepoint] Total time for which application threads were stopped: 0,0005000 seconds, Stopping threads took: 0,0000100 seconds\n\
[2023-05-01T12:00:02.000+0000][2.000s][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 123456 ns, Reaching safepoint: 1234 ns, At safepoint: 56789 ns, Total: 58023 ns\n\
[3.000s][info][safepoint   ] Safepoint \"ZMarkStartYoung\", Time since last: 1000000 ns, Reaching safepoint: 20000 ns, Cleanup: 5000 ns, At safepoint: 15000 ns, Total: 40000 ns\n",
        );
        assert_eq!(log.skipped_lines, 0);
        assert!(pauses(&log).is_empty());
        let s = of(&log, Record::Safepoint);
        assert_eq!(s.len(), 4);
        assert!(close(s[0].duration_ms, 3.125));
        assert!(close(s[0].uptime_s.unwrap(), 1.003 - 0.003125));
        assert_eq!(name(&log, s[0]), "G1CollectForAllocation");
        assert!(close(s[1].duration_ms, 0.5));
        assert_eq!(s[1].name, 0);
        assert!(close(s[2].duration_ms, 0.058023));
        assert_eq!(name(&log, s[2]), "G1CollectForAllocation");
        // 2023-05-01 = 19478 days after the epoch; minus the rounded 0 ms.
        assert_eq!(
            s[2].wall_ms,
            Some(19478 * 86_400_000 + 12 * 3_600_000 + 2_000)
        );
        assert!(close(s[3].duration_ms, 0.04));
        assert_eq!(name(&log, s[3]), "ZMarkStartYoung");
        assert_eq!(s[3].kind, Kind::Other);
        assert_eq!(s[3].collector, 0);
    }

    #[test]
    fn phase_and_detail_lines_are_not_pauses() {
        let log = parse(
            b"[0.207s][info][gc,phases    ] GC(0)   Pre Evacuate Collection Set: 0.0ms\n\
[0.207s][info][gc,phases    ] GC(0)   Other: 0.3ms\n\
[0.300s][info][gc,phases    ] GC(9) Phase 1: Mark live objects 1.234ms\n\
[0.300s][info][gc,phases,start] GC(9) Phase 2: Compute new object addresses\n\
[0.300s][info][gc,stats     ] Pause Init Mark (G)                 963 us\n\
[0.300s][info][gc,stats     ] Pause Final Mark (N)               2.5ms\n\
[0.300s][info][gc,init      ] Pause Target: 200ms\n\
[0.300s][info][gc,cpu       ] GC(9) User=0.00s Sys=0.00s Real=0.01s\n\
[0.300s][info][gc,heap      ] GC(9) Eden regions: 14->0(8)\n\
[0.300s][info][gc,metaspace ] GC(9) Metaspace: 3644K->3644K(1056768K)\n\
[0.300s][info][gc,ergo      ] Pacer for Idle. Initial: 2M, Alloc Tax Rate: 1.0x\n\
[0.300s][info][gc           ] GC(9) To-space exhausted\n\
[0.300s][info][gc,start     ] GC(10) Pause Young (Normal) (G1 Evacuation Pause)\n\
[0.301s][info][os,cpu       ] CPU:total 4 (initial active 4)\n\
[0.301s][info][class,load   ] java.lang.Object source: jrt:/java.base\n\
[0.301s][info][gc,stats     ] \n",
        );
        assert_eq!(log.lines, 16);
        assert_eq!(log.skipped_lines, 0);
        assert!(log.events.is_empty());
    }

    #[test]
    fn header_meta() {
        let log = parse(
            b"[0.004s][info][gc] Using G1\n\
[0.005s][info][gc,init] Version: 17.0.1+12 (release)\n\
[0.005s][info][gc,init] CPUs: 4 total, 4 available\n\
[0.005s][info][gc,init] Memory: 16G\n\
[0.005s][info][gc,init] Heap Region Size: 2M\n\
[0.005s][info][gc,init] Heap Min Capacity: 8M\n\
[0.005s][info][gc,init] Heap Initial Capacity: 256M\n\
[0.005s][info][gc,init] Heap Max Capacity: 4G\n\
[0.005s][info][gc,init] Parallel Workers: 4\n\
[0.005s][info][gc,init] Using deprecated non-generational mode\n\
[0.006s][info][gc] Using G1\n\
[0.007s][info][gc,init] Initialize Shenandoah heap: 248M initial, 7168K min, 3953M max\n",
        );
        let want = [
            ("collector", "G1"),
            ("jvm_version", "17.0.1+12 (release)"),
            ("cpus", "4 total, 4 available"),
            ("memory_kb", "16777216"),
            ("heap_region_size_kb", "2048"),
            ("heap_min_kb", "8192"),
            ("heap_initial_kb", "262144"),
            ("heap_max_kb", "4194304"),
            ("parallel_workers", "4"),
            ("heap_initial_kb", "253952"),
            ("heap_min_kb", "7168"),
            ("heap_max_kb", "4047872"),
        ];
        let got: Vec<(&str, &str)> = log
            .meta
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn application_output_and_crash_lines_are_skipped() {
        let log = parse(
            b"Hello from the application\n\
\n\
[INFO] Building project\n\
[main] INFO com.example.App - started\n\
   \n\
[0.100s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
# A fatal error has been detected by the Java Runtime Environment:\n\
OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot loader classes\n\
[0.100s\n\
[0.1s][\n",
        );
        assert_eq!(log.lines, 10);
        assert_eq!(log.skipped_lines, 7);
        assert_eq!(log.bad.len(), 5);
        assert_eq!(log.bad[0].line, 1);
        assert_eq!(log.bad[0].text, "Hello from the application");
        assert_eq!(log.bad[1].line, 3);
        assert_eq!(pauses(&log).len(), 1);
    }

    #[test]
    fn empty_and_blank_input() {
        let log = parse(b"");
        assert_eq!((log.lines, log.skipped_lines, log.events.len()), (0, 0, 0));
        let log = parse(b"\n\r\n  \n");
        assert_eq!((log.lines, log.skipped_lines, log.events.len()), (3, 0, 0));
    }

    #[test]
    fn truncated_last_line() {
        let full =
            b"[0.100s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
[0.200s][info][gc] GC(1) Pause Young (Allocation Failure) 12M->6M(20M) 2.500ms";
        // Cut anywhere: never a panic, never a wrong second pause.
        for cut in 0..=full.len() {
            let log = parse(&full[..cut]);
            let p = pauses(&log);
            assert!(p.len() <= 2);
            if p.len() == 2 {
                assert_eq!(cut, full.len());
                assert!(close(p[1].duration_ms, 2.5));
            }
        }
        let log = parse(full);
        assert_eq!(log.lines, 2);
        assert_eq!(pauses(&log).len(), 2);
    }

    #[test]
    fn non_utf8_bytes() {
        let log = parse(
            b"[0.100s][info][gc] GC(0) Pause Young (Alloc\xff\xfe) 10M->5M(20M) 1.000ms\n\
[0.2\xc3s][info][gc] GC(1) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
\xff\xfe\xfd garbage \x80\n\
[0.300s][info][safepoint] Safepoint \"Op\xe9\", Time since last: 1 ns, Total: 1000 ns\n",
        );
        assert_eq!(log.lines, 4);
        assert_eq!(log.skipped_lines, 2);
        let p = pauses(&log);
        assert_eq!(p.len(), 1);
        assert_eq!(cause(&log, p[0]), "Alloc\u{fffd}\u{fffd}");
        let s = of(&log, Record::Safepoint);
        assert_eq!(s.len(), 1);
        assert_eq!(name(&log, s[0]), "Op\u{fffd}");
    }

    #[test]
    fn random_bytes_do_not_panic() {
        // xorshift: deterministic noise, biased towards the characters the parser looks at.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let alphabet = b"[]()GCPause ->0123456789.,msKMG:\"\n\xff";
        for round in 0..300 {
            let mut buf = Vec::new();
            for _ in 0..(round * 7 % 400) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let b = if x.is_multiple_of(3) {
                    (x >> 8) as u8
                } else {
                    alphabet[(x >> 16) as usize % alphabet.len()]
                };
                buf.push(b);
            }
            let log = parse(&buf);
            assert_eq!(log.lines, super::super::lines::count(&buf));
        }
        // And mutations of a real-looking line.
        let line = b"[2019-03-05T14:11:18.470+0100][0.200s][info][gc] GC(3) Pause Young (Concurrent Start) (G1 Humongous Allocation) 24M(5%)->3M(1%)(256M) 3.456ms";
        for i in 0..line.len() {
            for b in [b'[', b']', b'(', b')', b' ', b'\xff', b'-', b'>'] {
                let mut v = line.to_vec();
                v[i] = b;
                parse(&v);
                parse(&v[..i]);
            }
        }
    }

    #[test]
    fn g1_jdk17_fixture() {
        let log = parse(include_bytes!("../../fixtures/unified/g1-jdk17.log"));
        assert_eq!(log.lines, 165);
        assert_eq!(log.skipped_lines, 0);
        let p = pauses(&log);
        assert_eq!(p.len(), 9);
        assert!(close(total_ms(&p), 61.25));
        assert_eq!(
            kinds(&p),
            [
                Kind::Young,
                Kind::Young,
                Kind::InitialMark,
                Kind::Remark,
                Kind::Cleanup,
                Kind::Young,
                Kind::Mixed,
                Kind::Full,
                Kind::Young
            ]
        );
        // 2024-03-05T14:11:18.500 as UTC: 19787 days after the epoch + 51078.5 s.
        assert_eq!(p[0].wall_ms, Some(1_709_647_878_500));
        assert!(close(p[0].uptime_s.unwrap(), 0.5));
        assert_eq!(name(&log, p[0]), "Pause Young (Normal)");
        assert_eq!(cause(&log, p[2]), "G1 Humongous Allocation");
        assert_eq!(p[3].gc_id, Some(3));
        assert!(close(p[3].uptime_s.unwrap(), 1.549));
        let full = p[7];
        assert_eq!(name(&log, full), "Pause Full");
        assert_eq!(cause(&log, full), "System.gc()");
        assert_eq!(
            (full.heap_before_kb, full.heap_after_kb, full.heap_total_kb),
            (Some(71680), Some(20480), Some(131072))
        );
        assert!(close(full.uptime_s.unwrap(), 3.0));
        assert_eq!(full.wall_ms, Some(1_709_647_878_500 + 2_500));
        assert!(p.iter().all(|e| collector(&log, e) == "G1"));
        let c = of(&log, Record::Concurrent);
        assert_eq!(c.len(), 8);
        assert!(close(total_ms(&c), 189.52));
        assert_eq!(name(&log, c[7]), "Concurrent Mark Cycle");
        assert!(close(c[7].uptime_s.unwrap(), 1.506));
        let s = of(&log, Record::Safepoint);
        assert_eq!(s.len(), 10);
        assert!(close(total_ms(&s), 63.55));
        assert_eq!(name(&log, s[8]), "G1CollectFull");
        assert_eq!(meta(&log, "collector"), Some("G1"));
        assert_eq!(meta(&log, "jvm_version"), Some("17.0.9+9 (release)"));
        assert_eq!(meta(&log, "memory_kb"), Some("32671744"));
        assert_eq!(meta(&log, "heap_max_kb"), Some("524288"));
        assert_eq!(meta(&log, "heap_region_size_kb"), Some("1024"));
        assert_eq!(meta(&log, "concurrent_refinement_workers"), Some("8"));
    }

    #[test]
    fn zgc_jdk21_fixture() {
        let log = parse(include_bytes!("../../fixtures/unified/zgc-jdk21.log"));
        assert_eq!(log.lines, 128);
        assert_eq!(log.skipped_lines, 0);
        let p = pauses(&log);
        assert_eq!(p.len(), 11);
        assert!(close(total_ms(&p), 0.214));
        let count = |k: Kind| p.iter().filter(|e| e.kind == k).count();
        assert_eq!(
            (
                count(Kind::InitialMark),
                count(Kind::Remark),
                count(Kind::Other)
            ),
            (3, 4, 4)
        );
        assert!(p
            .iter()
            .all(|e| e.cause == 0 && collector(&log, e) == "ZGC"));
        assert_eq!(name(&log, p[3]), "Y: Pause Mark Start (Major)");
        assert_eq!(name(&log, p[6]), "O: Pause Mark End");
        assert_eq!(name(&log, p[8]), "y: Pause Mark Start");
        let s = of(&log, Record::Safepoint);
        assert_eq!(s.len(), 12);
        assert!(close(total_ms(&s), 0.85));
        let c = of(&log, Record::Concurrent);
        assert_eq!(c.len(), 25);
        assert!(close(total_ms(&c), 148.011));
        assert_eq!(c.iter().filter(|e| e.kind == Kind::Young).count(), 17);
        let minor = c
            .iter()
            .find(|e| name(&log, e) == "Minor Collection")
            .unwrap();
        assert_eq!(cause(&log, minor), "Allocation Rate");
        assert!(close(minor.uptime_s.unwrap(), 1.0));
        // 2024-06-01T08:00:01.000 as UTC: 19875 days after the epoch + 28801 s.
        assert_eq!(minor.wall_ms, Some(1_717_228_801_000));
        assert_eq!(minor.heap_before_kb, Some(212_992));
        assert_eq!(minor.heap_after_kb, Some(77_824));
        let major = c
            .iter()
            .find(|e| name(&log, e) == "Major Collection")
            .unwrap();
        assert_eq!(cause(&log, major), "Proactive");
        assert_eq!(major.kind, Kind::Old);
        assert!(close(major.duration_ms, 38.0));
        assert_eq!(meta(&log, "collector"), Some("ZGC"));
        assert_eq!(meta(&log, "jvm_version"), Some("21.0.2+13-LTS (release)"));
        assert_eq!(meta(&log, "heap_max_kb"), Some("4194304"));
    }
}
