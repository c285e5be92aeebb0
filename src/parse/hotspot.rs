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

use super::lines::lines;
use super::num::{contains, find, float_prefix, iso_datetime_prefix, size_kb_prefix, trim};
use crate::model::{GcEvent, GcLog, Kind, Record};
use memchr::memmem::{Finder, FinderRev};
use std::sync::LazyLock;

// Searchers built once: building one per call costs more than the search on a short line.
static CONCURRENT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"concurrent-"));
static STOPPED: LazyLock<Finder<'static>> =
    LazyLock::new(|| Finder::new(b"Total time for which application threads were stopped: "));
static APP_TIME: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"Application time: "));
static EDEN: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"[Eden: "));
static HEAP: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"Heap: "));
static ARROW: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"->"));
static SECS_REV: LazyLock<FinderRev<'static>> = LazyLock::new(|| FinderRev::new(b" secs"));
static GLUED: LazyLock<Vec<Finder<'static>>> =
    LazyLock::new(|| GLUED_NOISE.iter().map(Finder::new).collect());

pub fn parse(buf: &[u8]) -> GcLog {
    let mut p = Parser::default();
    for (no, line) in lines(buf) {
        p.line(no, line);
    }
    p.finish()
}

/// An event that has started but whose brackets are not balanced yet.
#[derive(Default)]
struct Pending {
    text: Vec<u8>,
    line: u64,
    depth: i32,
    lines: u32,
    /// Pauses of whole collections printed inside this event (CMS scavenge before remark):
    /// the outer pause's time includes them, so they are taken out of it.
    nested_ms: f64,
}

#[derive(Default)]
struct Parser {
    log: GcLog,
    pending: Pending,
    /// A CMS remark waiting while the young collection it triggered is being assembled.
    outer: Option<Pending>,
    /// Set just before interpreting an assembled event: time of nested pauses to deduct.
    subtract_ms: f64,
    scratch: Vec<u8>,
    name_buf: Vec<u8>,
    children: Vec<(usize, usize)>,
    top: Vec<(usize, usize)>,
}

/// Interleaved output glued onto an event line: everything from here to the line's end is noise.
const GLUED_NOISE: [&[u8]; 5] = [
    b"AdaptiveSize",
    b"{Heap",
    b"Desired survivor",
    b"Before GC:",
    b"After GC:",
];

/// Give up on an event that has not closed after this many lines (a cut log, a foreign line).
const MAX_PENDING_LINES: u32 = 400;

impl Parser {
    fn line(&mut self, no: u64, raw: &[u8]) {
        self.log.lines = no;
        if trim(raw).is_empty() {
            return;
        }
        // Concurrent phases can be printed in the middle of another event's line.
        let mut scratch = std::mem::take(&mut self.scratch);
        let line: &[u8] = if CONCURRENT.find(raw).is_some() {
            scratch.clear();
            self.extract_concurrent(no, raw, &mut scratch);
            if trim(&scratch).is_empty() {
                self.scratch = scratch;
                return;
            }
            &scratch
        } else {
            raw
        };
        if self.pending.text.is_empty() {
            self.fresh(no, line);
        } else {
            self.continued(no, line);
        }
        self.scratch = scratch;
    }

    fn finish(mut self) -> GcLog {
        if !self.pending.text.is_empty() {
            // A cut log: the last event never closed. Read what it has if it has a pause.
            let text = std::mem::take(&mut self.pending.text);
            let line = self.pending.line;
            if self.interpret_prefixed(&text, line).is_none() {
                self.log.skip(line, &text);
            }
        }
        self.log
    }

    /// A line while no event is open.
    fn fresh(&mut self, no: u64, line: &[u8]) {
        if let Some(p) = event_start(line) {
            let line = cut_glued_noise(line, p);
            match balanced_end(&line[p..]) {
                Some(end) => {
                    self.interpret_prefixed(&line[..p + end], no);
                    let rest = &line[p + end..];
                    if event_start(rest).is_some() {
                        self.fresh(no, rest);
                    }
                }
                None => {
                    self.pending.text.clear();
                    self.pending.text.extend_from_slice(line);
                    self.pending.line = no;
                    self.pending.depth = depth_of(&line[p..]);
                    self.pending.lines = 1;
                    self.pending.nested_ms = 0.0;
                }
            }
            return;
        }
        if self.other_record(no, line) || self.shenandoah(no, line) || is_noise(line) {
            return;
        }
        // Indented lines and bracketed detail lines (G1 phase times, Shenandoah worker and pacer
        // output) belong to the event before them.
        if line.first().is_some_and(|b| b.is_ascii_whitespace()) || line.first() == Some(&b'[') {
            return;
        }
        self.log.skip(no, line);
    }

    /// A line while an event is open.
    fn continued(&mut self, no: u64, line: &[u8]) {
        if let Some(p) = event_start(line) {
            let line = cut_glued_noise(line, p);
            if let Some(end) = balanced_end(&line[p..]) {
                if only_stamps(&line[..p]) {
                    // A whole event printed inside the open one (CMS scavenge before remark).
                    if let Some(d) = self.interpret_prefixed(&line[..p + end], no) {
                        self.pending.nested_ms += d;
                    }
                    return;
                }
            } else if only_stamps(&line[..p]) {
                if self.outer.is_none() && contains(&self.pending.text, b"YG occupancy") {
                    // The young collection of a CMS remark, itself split over lines.
                    self.outer = Some(std::mem::take(&mut self.pending));
                } else {
                    // A new event starts while the old one never closed: the old one is lost.
                    let old = std::mem::take(&mut self.pending.text);
                    self.log.skip(self.pending.line, &old);
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
            memchr::memchr2(b'[', b']', t).is_some() || contains(t, b"->") || contains(t, b"secs");
        if !looks_like_event_text || is_noise(line) {
            return;
        }
        let piece = cut_glued_noise(line, 0);
        self.pending.text.extend_from_slice(piece);
        self.pending.depth += depth_of(piece);
        self.pending.lines += 1;
        if self.pending.depth <= 0 {
            let text = std::mem::take(&mut self.pending.text);
            let start = self.pending.line;
            let mut done = None;
            if let Some(p) = event_start(&text) {
                let end = balanced_end(&text[p..]).map_or(text.len(), |e| p + e);
                self.subtract_ms = self.pending.nested_ms;
                done = self.interpret_prefixed(&text[..end], start);
                if done.is_none() {
                    self.log.skip(start, &text);
                }
            }
            self.pending.text = text;
            self.pending.text.clear();
            if let Some(outer) = self.outer.take() {
                // Back to the remark that was waiting for this young collection.
                self.pending = outer;
                self.pending.nested_ms += done.unwrap_or(0.0);
            }
        } else if self.pending.lines > MAX_PENDING_LINES {
            let old = std::mem::take(&mut self.pending.text);
            self.log.skip(self.pending.line, &old);
            self.outer = None;
        }
    }

    /// Safepoint records and other complete one-line records that are not bracketed events.
    fn other_record(&mut self, no: u64, line: &[u8]) -> bool {
        if let Some(i) = STOPPED.find(line) {
            let (wall, up) = stamps(&line[..i]);
            let rest = line.get(i + STOPPED.needle().len()..).unwrap_or(&[]);
            if let Some((secs, _)) = float_prefix(rest) {
                let mut ev = GcEvent::new(Record::Safepoint, Kind::Other, secs * 1000.0, no);
                // The line is written when the threads resume: its stamp is the stop's end.
                ev.wall_ms = wall.map(|w| w - (secs * 1000.0).round() as i64);
                ev.uptime_s = up.map(|u| u - secs);
                ev.name = self.log.strings.intern("safepoint");
                self.log.events.push(ev);
                return true;
            }
        }
        if APP_TIME.find(line).is_some() {
            return true;
        }
        // G1 detail summary: the heap figures of the event just read.
        if let Some(i) = EDEN.find(line) {
            if let Some(h) = HEAP.find(&line[i..]) {
                self.g1_heap(&line[i + h + 6..]);
            }
            return true;
        }
        false
    }

    /// JDK 8 Shenandoah: `2.472: [Pause Init Mark (process weakrefs), 3.341 ms]`,
    /// `3.338: [Concurrent marking, 866.393 ms]`; `, start]` lines only announce a phase.
    fn shenandoah(&mut self, no: u64, line: &[u8]) -> bool {
        let Some(open) = find(line, b"[Pause ").or_else(|| find(line, b"[Concurrent ")) else {
            return false;
        };
        if !only_stamps(&line[..open]) {
            return false;
        }
        let Some(close) = balanced_end(&line[open..]).map(|e| open + e - 1) else {
            return false;
        };
        let body = &line[open + 1..close];
        if body.ends_with(b", start") {
            return true;
        }
        let Some(comma) = body.iter().rposition(|&b| b == b',') else {
            return false;
        };
        let tail = trim(&body[comma + 1..]);
        let Some((ms, n)) = float_prefix(tail) else {
            return false;
        };
        if &tail[n..] != b" ms" {
            return false;
        }
        let head = &body[..comma];
        let (wall, up) = stamps(&line[..open]);
        let pause = head.starts_with(b"Pause ");
        let kind = if !pause {
            Kind::Other
        } else if head.starts_with(b"Pause Init Mark") {
            Kind::InitialMark
        } else if head.starts_with(b"Pause Final Mark") {
            Kind::Remark
        } else if head.starts_with(b"Pause Full") {
            Kind::Full
        } else {
            Kind::Other
        };
        let record = if pause {
            Record::Pause
        } else {
            Record::Concurrent
        };
        let mut ev = GcEvent::new(record, kind, ms, no);
        // The line is written when the phase ends.
        ev.wall_ms = wall.map(|w| w - ms.round() as i64);
        ev.uptime_s = up.map(|u| u - ms / 1000.0);
        if let Some((b, a, c)) = heap_triple(head) {
            ev.heap_before_kb = Some(b);
            ev.heap_after_kb = Some(a);
            ev.heap_total_kb = c;
        }
        let name_end = find(head, b" (")
            .or_else(|| {
                head.iter()
                    .position(|b| b.is_ascii_digit())
                    .map(|i| i.saturating_sub(1))
            })
            .unwrap_or(head.len());
        ev.name = self.log.strings.intern_bytes(trim(&head[..name_end]));
        ev.collector = self.log.strings.intern("Shenandoah");
        if let Some(i) = find(head, b" (") {
            if let Some(len) = paren_len(&head[i + 1..]) {
                ev.cause = self.log.strings.intern_bytes(&head[i + 2..i + len]);
            }
        }
        self.log.events.push(ev);
        true
    }

    /// `Heap: 24.0M(256.0M)->20.5M(256.0M)]` after a G1 detailed pause.
    fn g1_heap(&mut self, s: &[u8]) {
        let Some((before, n1)) = size_kb_prefix(s) else {
            return;
        };
        let mut i = n1;
        if s.get(i) == Some(&b'(') {
            i += s[i..].iter().position(|&b| b == b')').map_or(0, |k| k + 1);
        }
        if !s[i..].starts_with(b"->") {
            return;
        }
        let Some((after, n2)) = size_kb_prefix(&s[i + 2..]) else {
            return;
        };
        let j = i + 2 + n2;
        let total = if s.get(j) == Some(&b'(') {
            size_kb_prefix(&s[j + 1..]).map(|(v, _)| v)
        } else {
            None
        };
        if let Some(ev) = self
            .log
            .events
            .iter_mut()
            .rev()
            .find(|e| e.record == Record::Pause)
        {
            ev.heap_before_kb = Some(before);
            ev.heap_after_kb = Some(after);
            if total.is_some() {
                ev.heap_total_kb = total;
            }
        }
    }

    /// Cut `12.3: [CMS-concurrent-mark: 0.1/0.2 secs] [Times: ...]` and `[GC concurrent-...]`
    /// records out of `line` (emitting them), writing what remains into `out`.
    fn extract_concurrent(&mut self, no: u64, line: &[u8], out: &mut Vec<u8>) {
        let mut pos = 0;
        loop {
            let rest = &line[pos..];
            let hit = [
                &b"[CMS-concurrent-"[..],
                &b"[GC concurrent-"[..],
                &b"[ASCMS-concurrent-"[..],
            ]
            .iter()
            .filter_map(|n| find(rest, n))
            .min();
            let Some(rel) = hit else {
                out.extend_from_slice(rest);
                return;
            };
            let open = pos + rel;
            let Some(close_rel) = line[open..].iter().position(|&b| b == b']') else {
                out.extend_from_slice(rest);
                return;
            };
            let close = open + close_rel + 1;
            let ts_start = stamp_start_before(line, open).max(pos);
            out.extend_from_slice(&line[pos..ts_start]);
            let (wall, up) = stamps(&line[ts_start..open]);
            self.concurrent_record(no, &line[open + 1..close - 1], wall, up);
            // A `[Times: ...]` belonging to the concurrent phase goes with it.
            let mut end = close;
            let after = &line[close..];
            let sp = after.iter().take_while(|&&b| b == b' ').count();
            if after[sp..].starts_with(b"[Times:") {
                if let Some(e) = after.iter().position(|&b| b == b']') {
                    end = close + e + 1;
                }
            }
            pos = end;
        }
    }

    fn concurrent_record(&mut self, no: u64, body: &[u8], wall: Option<i64>, up: Option<f64>) {
        // body: `CMS-concurrent-mark: 0.006/0.006 secs`, `GC concurrent-mark-end, 0.0123 secs`,
        // `CMS-concurrent-mark-start` (a start: nothing to record).
        let name_end = body
            .iter()
            .position(|&b| b == b':' || b == b',')
            .unwrap_or(body.len());
        let name = trim(&body[..name_end]);
        let Some(secs_at) = find(body, b" secs") else {
            return;
        };
        let nums = &body[name_end..secs_at];
        // `cpu/wall secs`: the wall-clock time is the phase's duration.
        let wall_part = match nums.iter().rposition(|&b| b == b'/') {
            Some(k) => &nums[k + 1..],
            None => nums,
        };
        let digits_at = wall_part
            .iter()
            .position(|b| b.is_ascii_digit())
            .unwrap_or(wall_part.len());
        let Some((secs, _)) = float_prefix(&wall_part[digits_at..]) else {
            return;
        };
        let mut ev = GcEvent::new(Record::Concurrent, Kind::Other, secs * 1000.0, no);
        // The stamp is written when the phase ends.
        ev.wall_ms = wall.map(|w| w - (secs * 1000.0).round() as i64);
        ev.uptime_s = up.map(|u| u - secs);
        ev.name = self.log.strings.intern_bytes(name);
        ev.collector = self
            .log
            .strings
            .intern(if name.starts_with(b"GC") { "G1" } else { "CMS" });
        self.log.events.push(ev);
    }

    /// Interpret `stamps [Name ...]`. Returns the pause recorded (ms), None when the text
    /// holds no usable pause.
    fn interpret_prefixed(&mut self, text: &[u8], no: u64) -> Option<f64> {
        let p = event_start(text)?;
        let (wall, up) = stamps(&text[..p]);
        self.interpret(&text[p..], wall, up, no)
    }

    fn interpret(
        &mut self,
        ev_text: &[u8],
        wall: Option<i64>,
        up: Option<f64>,
        no: u64,
    ) -> Option<f64> {
        // Split the expression into its top-level text and its nested children.
        let mut top = std::mem::take(&mut self.top);
        let mut children = std::mem::take(&mut self.children);
        top.clear();
        children.clear();
        let mut depth = 0i32;
        let mut seg = 1usize;
        let mut child_start = 0usize;
        for (i, &b) in ev_text.iter().enumerate() {
            match b {
                b'[' => {
                    depth += 1;
                    if depth == 2 {
                        top.push((seg, i));
                        child_start = i + 1;
                    }
                }
                b']' => {
                    if depth == 2 {
                        children.push((child_start, i));
                        seg = i + 1;
                    } else if depth == 1 {
                        top.push((seg, i));
                        depth = 0;
                        break;
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        if depth > 0 {
            top.push((seg, ev_text.len()));
        }
        let ok = self.interpret_parts(ev_text, &top, &children, wall, up, no);
        self.top = top;
        self.children = children;
        ok
    }

    fn interpret_parts(
        &mut self,
        t: &[u8],
        top: &[(usize, usize)],
        children: &[(usize, usize)],
        wall: Option<i64>,
        up: Option<f64>,
        no: u64,
    ) -> Option<f64> {
        let mut nested_ms = std::mem::take(&mut self.subtract_ms);
        let &(h0, h1) = top.first()?;
        let head = &t[h0..h1];
        let (name, mut rest_at) = event_name(head);
        let mut causes: [&[u8]; 4] = [b""; 4];
        let mut n_causes = 0;
        loop {
            let r = &head[rest_at..];
            let sp = r.iter().take_while(|&&b| b == b' ').count();
            if r.get(sp) != Some(&b'(') {
                break;
            }
            let Some(len) = paren_len(&r[sp..]) else {
                break;
            };
            if n_causes < causes.len() {
                causes[n_causes] = &r[sp + 1..sp + len - 1];
                n_causes += 1;
            }
            rest_at += sp + len;
        }
        let causes = &causes[..n_causes];

        // Pause: the last `N secs` at the top level. Heap: the first `a->b(c)` there.
        let mut pause_s = None;
        for &(a, b) in top.iter().rev() {
            if let Some(v) = last_secs(&t[a..b]) {
                pause_s = Some(v);
                break;
            }
        }
        let mut heap = None;
        for &(a, b) in top {
            let s = if a == h0 { &head[rest_at..] } else { &t[a..b] };
            if let Some(h) = heap_triple(s) {
                heap = Some(h);
                break;
            }
        }

        // Nested generations and nested whole events.
        let mut young_gen: &[u8] = b"";
        let mut old_gen: &[u8] = b"";
        let mut kind_hint = None;
        for &(a, b) in children {
            let c = &t[a..b];
            let nested_event = c.starts_with(b"GC")
                && match (c.get(2), c.get(3)) {
                    (Some(b'('), _) => true,
                    (Some(d), _) if d.is_ascii_digit() => true,
                    (Some(b' '), Some(d)) => *d == b'(' || d.is_ascii_digit(),
                    _ => false,
                };
            if nested_event {
                // A whole young collection inside a CMS remark (CMSScavengeBeforeRemark).
                let mut inner = Vec::with_capacity(b - a + 2);
                inner.push(b'[');
                inner.extend_from_slice(c);
                inner.push(b']');
                let (iw, iu) = stamps(&t[..a.saturating_sub(1)]);
                nested_ms += self
                    .interpret(&inner, iw.or(wall), iu.or(up), no)
                    .unwrap_or(0.0);
                continue;
            }
            let cname_end = c
                .iter()
                .position(|&b| b == b':' || b == b',' || b == b'(')
                .unwrap_or(c.len());
            let cname = trim(&c[..cname_end]);
            match cname {
                b"DefNew" | b"ParNew" | b"PSYoungGen" | b"ASParNew" => {
                    if young_gen.is_empty() {
                        young_gen = cname;
                    }
                }
                b"Tenured" | b"CMS" | b"PSOldGen" | b"ParOldGen" | b"ASCMS" | b"Train MSC" => {
                    if old_gen.is_empty() {
                        old_gen = cname;
                    }
                }
                _ => {
                    if contains(cname, b"CMS-initial-mark") {
                        kind_hint = Some(Kind::InitialMark);
                        old_gen = b"CMS";
                    } else if contains(cname, b"CMS-remark") || cname.starts_with(b"YG occupancy") {
                        kind_hint = Some(Kind::Remark);
                        old_gen = b"CMS";
                    }
                }
            }
        }

        let pause_s = pause_s?;
        let mut g1 = false;
        let kind = match name {
            b"Full GC" => Kind::Full,
            b"GC remark" => {
                g1 = true;
                Kind::Remark
            }
            b"GC cleanup" => {
                g1 = true;
                Kind::Cleanup
            }
            b"GC pause" => {
                g1 = true;
                if causes.iter().any(|c| *c == b"mixed" || *c == b"partial") {
                    Kind::Mixed
                } else {
                    Kind::Young
                }
            }
            _ => {
                if let Some(k) = kind_hint {
                    k
                } else if !old_gen.is_empty() {
                    // A young collection that had to collect the old generation too
                    // (promotion failure, concurrent mode failure): a full collection.
                    Kind::Full
                } else {
                    Kind::Young
                }
            }
        };
        let ms = (pause_s * 1000.0 - nested_ms).max(0.0);
        let mut ev = GcEvent::new(Record::Pause, kind, ms, no);
        ev.wall_ms = wall;
        ev.uptime_s = up;
        if let Some((b, a, c)) = heap {
            ev.heap_before_kb = Some(b);
            ev.heap_after_kb = Some(a);
            ev.heap_total_kb = c;
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
        ev.collector = self.log.strings.intern_bytes(collector);
        // The cause is the first parenthesised group that is not a G1 pause-type marker.
        if let Some(c) = causes.iter().find(|c| !is_g1_marker(c)) {
            ev.cause = self.log.strings.intern_bytes(c);
        }
        ev.name = self.name_id(name, causes);
        self.log.events.push(ev);
        Some(ms)
    }

    /// `GC pause (young) (initial-mark)` style full name, interned.
    fn name_id(&mut self, name: &[u8], causes: &[&[u8]]) -> u32 {
        let mut s = std::mem::take(&mut self.name_buf);
        s.clear();
        s.extend_from_slice(name);
        for c in causes.iter().filter(|c| is_g1_marker(c)) {
            s.extend_from_slice(b" (");
            s.extend_from_slice(c);
            s.push(b')');
        }
        let id = self.log.strings.intern_bytes(&s);
        self.name_buf = s;
        id
    }
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

/// Known event names, longest first.
const NAMES: [&[u8]; 6] = [
    b"GC cleanup",
    b"GC remark",
    b"GC pause",
    b"Full GC",
    b"GC--",
    b"GC",
];

/// The event's name at the start of its head (after `[`) and where the name ends.
fn event_name(head: &[u8]) -> (&[u8], usize) {
    for n in NAMES {
        if head.starts_with(n) {
            return (n, n.len());
        }
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
        let after = if r.starts_with(b"Full GC") {
            Some(&r[7..])
        } else if r.starts_with(b"GC") {
            Some(&r[2..])
        } else {
            None
        };
        if let Some(a) = after {
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
    let mut end = line.len();
    for f in GLUED.iter() {
        if let Some(i) = f.find(&line[from.min(line.len())..]) {
            end = end.min(from + i);
        }
    }
    // `... [AdaptiveSize...` opened a bracket of its own: cut at that `[` too (but never at
    // the event's own `[GC`).
    if end < line.len() && end > from + 1 && line[end - 1] == b'[' {
        end -= 1;
    }
    &line[..end]
}

/// Net bracket depth of a piece of text.
fn depth_of(s: &[u8]) -> i32 {
    let mut d = 0;
    for &b in s {
        match b {
            b'[' => d += 1,
            b']' => d -= 1,
            _ => {}
        }
    }
    d
}

/// If the bracket opened at `s[0]` closes within `s`, the index just past its `]`.
fn balanced_end(s: &[u8]) -> Option<usize> {
    let mut d = 0;
    for (i, &b) in s.iter().enumerate() {
        match b {
            b'[' => d += 1,
            b']' => {
                d -= 1;
                if d == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Parse the stamps before an event: `2013-05-22T15:42:34.123+0200: 12.345: #3: `, any of them
/// optional. Returns (wall clock ms, uptime s).
fn stamps(s: &[u8]) -> (Option<i64>, Option<f64>) {
    let mut wall = None;
    let mut up = None;
    let mut i = 0;
    while i < s.len() {
        let r = &s[i..];
        if r[0] == b' ' || r[0] == b':' {
            i += 1;
            continue;
        }
        if let Some((w, n)) = iso_datetime_prefix(r) {
            wall = Some(w);
            i += n;
            continue;
        }
        if r[0] == b'#' {
            // PrintGCID `#12: `
            i += 1 + r[1..].iter().take_while(|b| b.is_ascii_digit()).count();
            continue;
        }
        if let Some((v, n)) = float_prefix(r) {
            if r.get(n) == Some(&b':') {
                up = Some(v);
                i += n;
                continue;
            }
        }
        // Something else (application output before the event): keep looking after it.
        i += 1;
        wall = None;
        up = None;
    }
    (wall, up)
}

/// True when `s` holds nothing but stamps and spaces.
fn only_stamps(s: &[u8]) -> bool {
    s.iter().all(|&b| {
        b.is_ascii_digit() || matches!(b, b'.' | b',' | b':' | b' ' | b'-' | b'+' | b'T' | b'#')
    })
}

/// Start of the stamps that immediately precede position `at` (e.g. `0.769: ` before `[CMS-...`).
fn stamp_start_before(line: &[u8], at: usize) -> usize {
    let mut i = at;
    loop {
        let mut j = i;
        while j > 0 && line[j - 1] == b' ' {
            j -= 1;
        }
        if j == 0 || line[j - 1] != b':' {
            return i;
        }
        j -= 1;
        let end = j;
        while j > 0
            && (line[j - 1].is_ascii_digit()
                || matches!(line[j - 1], b'.' | b',' | b'-' | b'+' | b'T' | b':'))
        {
            j -= 1;
        }
        if j == end {
            return i;
        }
        i = j;
    }
}

/// The number before the last ` secs` in `s`.
fn last_secs(s: &[u8]) -> Option<f64> {
    let mut end = s.len();
    while let Some(i) = SECS_REV.rfind(&s[..end]) {
        let mut j = i;
        while j > 0 && (s[j - 1].is_ascii_digit() || s[j - 1] == b'.' || s[j - 1] == b',') {
            j -= 1;
        }
        // A `cpu/wall secs` pair is a concurrent phase's, never a pause.
        if j < i && (j == 0 || s[j - 1] != b'/') {
            if let Some((v, _)) = float_prefix(&s[j..i]) {
                return Some(v);
            }
        }
        end = i;
    }
    None
}

/// The first `a->b(c)` (or `a->b`) in `s`, sizes in KB.
fn heap_triple(s: &[u8]) -> Option<(u64, u64, Option<u64>)> {
    let mut from = 0;
    while let Some(rel) = ARROW.find(&s[from..]) {
        let arrow = from + rel;
        // Walk back over the `before` size: digits, '.', unit letter.
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
        if let (Some((before, _)), Some((after, n))) = (
            size_kb_prefix(&s[j..arrow]),
            size_kb_prefix(&s[arrow + 2..]),
        ) {
            let k = arrow + 2 + n;
            let total = if s.get(k) == Some(&b'(') {
                size_kb_prefix(&s[k + 1..]).map(|(v, _)| v)
            } else {
                None
            };
            return Some((before, after, total));
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
    const PREFIXES: [&[u8]; 40] = [
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
    ];
    if PREFIXES.iter().any(|p| t.starts_with(p)) {
        return true;
    }
    const MORE: [&[u8]; 13] = [
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
    if MORE.iter().any(|p| t.starts_with(p)) {
        return true;
    }
    contains(t, b"[0x") || contains(t, b"GC log file") || contains(t, b"AdaptiveSize")
}

#[cfg(test)]
#[path = "hotspot_tests.rs"]
mod tests;
