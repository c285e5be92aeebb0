//! A GC log read in blocks: each block parsed on its own (in parallel), then joined so that the
//! result is what one pass over the whole log gives. No I/O: blocks come from `load`.
//!
//! Blocks are cut before lines that usually start a record of their own (`safe_start`), but
//! nothing relies on the guess: where a block's parser ended with something open (an event
//! not closed, pauses waiting for their collection line, a GC's lines waiting for its event),
//! or where the next block's parse depended on what came before it (a detail line, a pause to
//! itemise, a safepoint's name), the next block is read again by the parser of the block
//! before, continuing where it stopped. So a block edge can fall anywhere.

use super::family::{guess_collector, Block, BlockParser, GcFormat};
use crate::columns::{GcColumns, Join, Sink};
use crate::model::{GcEvent, GcLog, Record, BAD_LINES_KEPT};
use std::any::Any;

/// Events a streamed block's parser holds before it moves the settled ones to the block's
/// columns (about 200 KB of events: they are still in the cache when moved, and a block in
/// flight holds its columns, a fifth of its events' size).
pub const FLUSH_AT: usize = 1024;

/// One family's parser, fed block by block.
pub struct Parser(Box<dyn BlockParser>);

impl Parser {
    /// A block parsed on its own, its events written into `events` (see `Joiner::spare`).
    pub fn reusing(format: GcFormat, block: &[u8], events: Vec<GcEvent>) -> Parser {
        Parser::flushing(format, block, events, FLUSH_AT)
    }

    /// `reusing`, the settled events moved to the block's columns whenever the parser holds
    /// `at` events (families that flush; 0: never). Tests choose small figures, so that every
    /// place an event can settle is met.
    pub fn flushing(format: GcFormat, block: &[u8], events: Vec<GcEvent>, at: usize) -> Parser {
        let mut p = format.block_parser(events, at);
        p.feed(block);
        p.warm();
        Parser(p)
    }

    /// Read the lines of `block`, after the lines read so far.
    pub fn feed(&mut self, block: &[u8]) {
        self.0.feed(block);
    }

    /// Would `next` (a block parsed on its own) have been read the same after `self`?
    fn continues_into(&self, next: &Parser) -> bool {
        self.0.idle()
            && !next.0.consulted()
            && (self.0.as_ref() as &dyn Any).type_id() == (next.0.as_ref() as &dyn Any).type_id()
            && self.0.continues_into(next.0.as_ref())
    }

    /// Take over what the parser of the block before leaves open that one pass would still
    /// hold here.
    fn adopt(&mut self, prev: &Parser) {
        self.0.adopt(prev.0.as_ref());
    }

    fn finish(self) -> Block {
        self.0.finish()
    }
}

/// Most bytes of a run of blocks kept to read again (a log that never leaves a record open
/// long is confirmed block by block; past this, a run is taken as read).
const MAX_RUN: usize = 64 << 20;

/// Joins blocks parsed on their own, in log order, into one log (`log`: counts, strings,
/// meta, bad lines; the events go to the sink).
pub struct Joiner<S: Sink> {
    format: GcFormat,
    /// The parser of the block before `cur`, not yet confirmed (see `block`).
    done: Option<Parser>,
    cur: Option<Parser>,
    /// The blocks `cur` has read, while `run_kept` (owned: copying each block in was 3 % of a
    /// HotSpot log's time in the joining), and their length.
    run: Vec<Vec<u8>>,
    run_len: usize,
    run_kept: bool,
    /// Block buffers no longer needed, handed back by `block_owned` for reuse.
    freed: Vec<Vec<u8>>,
    pub sink: S,
    pub log: GcLog,
    continued: u64,
    blocks: u64,
    /// Families that name their collector once (see `family::Collectors`): the collector in
    /// use where the next block begins (log-wide id; 0: none yet), the log's first, and the
    /// evidence for guessing one.
    carried: u32,
    first_collector: u32,
    hints: u32,
    /// Events (from the start) that came before any `Using` line and have no collector.
    unnamed_prefix: usize,
    /// Collections numbered by the parsers so far (logs that number none), and the time order
    /// of the events.
    invented: u64,
    last_key: (f64, u8),
    out_of_order: bool,
    ids: Vec<u32>,
    /// Event buffers of joined blocks, for reuse.
    spare: Vec<Vec<GcEvent>>,
    meta_seen: std::collections::HashSet<(String, String)>,
}

/// Run metadata entries kept for a log (as each parser keeps for its part).
const MAX_META: usize = 1024;

/// Event buffers kept for reuse (a round of blocks is one per thread).
const MAX_SPARE: usize = 4;

impl<S: Sink> Joiner<S> {
    pub fn new(format: GcFormat, sink: S) -> Self {
        Joiner {
            format,
            done: None,
            cur: None,
            run: Vec::new(),
            run_len: 0,
            run_kept: false,
            freed: Vec::new(),
            sink,
            log: GcLog::default(),
            continued: 0,
            blocks: 0,
            carried: 0,
            first_collector: 0,
            hints: 0,
            unnamed_prefix: 0,
            invented: 0,
            last_key: (f64::NEG_INFINITY, 0),
            out_of_order: false,
            ids: Vec::new(),
            spare: Vec::new(),
            meta_seen: std::collections::HashSet::new(),
        }
    }

    /// The next block: its bytes and its parse on its own.
    ///
    /// A block's parse on its own is kept if the parser before it ended with nothing open
    /// and the block did not depend on what came before it. Whether it did is known only
    /// when the block (with the blocks read on after it) is done, so the parser before it is
    /// kept until then (`done`), with the bytes read since (`run`) to read again if needed.
    pub fn block(&mut self, bytes: &[u8], alone: Parser) {
        self.block_owned(bytes.to_vec(), alone);
    }

    /// `block`, the block's buffer given, not copied; returns the buffers done with (the
    /// reader fills them again).
    pub fn block_owned(&mut self, bytes: Vec<u8>, alone: Parser) -> Vec<Vec<u8>> {
        self.join_block(bytes, alone);
        std::mem::take(&mut self.freed)
    }

    fn join_block(&mut self, bytes: Vec<u8>, alone: Parser) {
        self.blocks += 1;
        let Some(mut cur) = self.cur.take() else {
            self.cur = Some(alone);
            self.keep(bytes, true);
            return;
        };
        if !cur.continues_into(&alone) {
            // The edge fell inside a record: read on.
            self.continued += 1;
            cur.feed(&bytes);
            self.cur = Some(cur);
            self.keep(bytes, false);
            return;
        }
        // `cur` is done: confirm it against the parser before it.
        if let Some(mut d) = self.done.take() {
            if self.run_kept && !d.continues_into(&cur) {
                // `cur` read something of the block before it: read its bytes again after it.
                self.continued += 1;
                for b in &self.run {
                    d.feed(b);
                }
                cur = d;
                if !cur.continues_into(&alone) {
                    cur.feed(&bytes);
                    self.continued += 1;
                    self.cur = Some(cur);
                    self.keep(bytes, true);
                    return;
                }
            } else {
                cur.adopt(&d);
                self.emit(d);
            }
        }
        self.done = Some(cur);
        self.cur = Some(alone);
        self.keep(bytes, true);
    }

    /// Keep the bytes read by the current parser (from `bytes` on if `fresh`), up to
    /// `MAX_RUN`; past that the run is too long to read again and is taken as it is.
    fn keep(&mut self, bytes: Vec<u8>, fresh: bool) {
        if fresh {
            self.freed.append(&mut self.run);
            self.run_len = 0;
            self.run_kept = true;
        }
        if self.run_kept && self.run_len + bytes.len() <= MAX_RUN {
            self.run_len += bytes.len();
            self.run.push(bytes);
        } else {
            self.run_kept = false;
            self.freed.append(&mut self.run);
            self.freed.push(bytes);
        }
    }

    /// An event buffer of a block already joined, for the next block's parse (`reusing`).
    pub fn spare(&mut self) -> Vec<GcEvent> {
        self.spare.pop().unwrap_or_default()
    }

    /// The log joined: counts in `log`, events in the sink.
    pub fn finish(mut self) -> (GcLog, S) {
        match (self.done.take(), self.cur.take()) {
            (Some(mut d), Some(mut cur)) => {
                if self.run_kept && !d.continues_into(&cur) {
                    for b in &self.run {
                        d.feed(b);
                    }
                    self.emit(d);
                } else {
                    cur.adopt(&d);
                    self.emit(d);
                    self.emit(cur);
                }
            }
            (d, cur) => {
                for p in [d, cur].into_iter().flatten() {
                    self.emit(p);
                }
            }
        }
        if self.unnamed_prefix > 0 {
            // Events before the log's first `Using` line: its collector, or a guess.
            let mut fill = self.first_collector;
            if fill == 0 {
                if let Some(g) = guess_collector(self.format, self.hints) {
                    fill = self.log.strings.intern(g);
                    if !self.log.meta.iter().any(|(k, _)| k == "collector_inferred") {
                        self.log
                            .meta
                            .push(("collector_inferred".to_owned(), g.to_owned()));
                    }
                }
            }
            if fill != 0 {
                self.sink.fill_collector(self.unnamed_prefix, fill);
            }
        }
        if self.out_of_order {
            self.sink.sort_by_time();
        }
        self.sink.end_of_log(self.format, &self.log);
        (self.log, self.sink)
    }

    /// A family that reorders (`Family::reorders`): the next event's sort key, its start and
    /// collections before their pauses. Each block is in time order; the log is, unless a
    /// block begins before the one before it ended (then the whole log is sorted as one, at
    /// the end).
    fn see_key(&mut self, start: Option<f64>, collection: bool) {
        let key = (start.unwrap_or(self.last_key.0), u8::from(!collection));
        if key.0 < self.last_key.0 || (key.0 == self.last_key.0 && key.1 < self.last_key.1) {
            self.out_of_order = true;
        }
        self.last_key = key;
    }

    fn emit(&mut self, p: Parser) {
        let Block {
            log: mut part,
            cols,
            collectors,
        } = p.finish();
        if let Some(c) = &collectors {
            // Before this block's first `Using` line, its events ran under the collector the
            // blocks before left in use; with none yet, they wait for the end of the log.
            if self.carried != 0 {
                let name = self.log.strings.get(self.carried).to_owned();
                let local = part.strings.intern(&name);
                for e in &mut part.events {
                    if e.collector == 0 && e.record != Record::Safepoint {
                        e.collector = local;
                    }
                }
            } else if let Some(i) = part
                .events
                .iter()
                .rposition(|e| e.collector == 0 && e.record != Record::Safepoint)
            {
                self.unnamed_prefix = self.sink.len() + i + 1;
            }
            self.hints |= c.hints;
        }
        let strings = &mut self.log.strings;
        self.ids.clear();
        self.ids
            .extend((0..part.strings.len() as u32).map(|i| strings.intern(part.strings.get(i))));
        let id = |ids: &[u32], i: u32| ids.get(i as usize).copied().unwrap_or(0);
        if let Some(c) = &collectors {
            if self.first_collector == 0 && c.first != 0 {
                self.first_collector = id(&self.ids, c.first);
            }
            if c.last != 0 {
                self.carried = id(&self.ids, c.last);
            }
        }
        let offset = self.log.lines;
        let reorders = self.format.reorders();
        let mut invented = 0u64;
        let invented_offset = self.invented;
        if let Some(cols) = &cols {
            if reorders {
                cols.for_each_key(|start, collection| self.see_key(start, collection));
            }
            invented = cols.invented_max();
        }
        for e in &part.events {
            if reorders {
                self.see_key(e.uptime_s, e.record == Record::Collection);
            }
            if e.invented_id {
                invented = invented.max(e.gc_id.unwrap_or(0));
            }
        }
        self.invented = self.invented.saturating_add(invented);
        let events = std::mem::take(&mut part.events);
        let join = Join {
            ids: self.ids.clone(),
            line_offset: offset,
            invented_offset,
        };
        if let Some(events) = self.sink.push_block(cols, events, join) {
            if self.spare.len() < MAX_SPARE {
                self.spare.push(events);
            }
        }
        // Deduplicated through a set and capped as the parsers cap theirs: a JRockit log
        // announces a strategy change per collection in some runs (a list searched per entry
        // was 30 % of a 210 MB R27 log's time).
        for m in part.meta {
            if self.log.meta.len() < MAX_META && self.meta_seen.insert(m.clone()) {
                self.log.meta.push(m);
            }
        }
        for mut b in part.bad {
            if other_family(self.format, b.text.as_bytes()) {
                self.log.other_family_lines += 1;
            }
            if self.log.bad.len() < BAD_LINES_KEPT {
                b.line += offset;
                self.log.bad.push(b);
            }
        }
        self.log.lines += part.lines;
        self.log.record_lines += part.record_lines;
        self.log.ignored_lines += part.ignored_lines;
        self.log.skipped_lines += part.skipped_lines;
    }
}

/// `line` is one another log family recognises: a performance log's, or another GC
/// family's (as detection weighs a line, each alone; `family::Foreign`, which tells the lines
/// a parser skips from their start, cannot tell HotSpot lines).
fn other_family(me: GcFormat, line: &[u8]) -> bool {
    super::family::perf_families().any(|f| f.recognises(line))
        || super::family::family_of_line(line).is_some_and(|f| f != me)
}

/// The simplest sink: the events themselves, as the one-pass parse gives them (tests, logs
/// parsed in memory).
#[derive(Default)]
pub struct Events {
    pub events: Vec<GcEvent>,
}

impl Sink for Events {
    fn push_block(
        &mut self,
        cols: Option<GcColumns>,
        mut events: Vec<GcEvent>,
        join: Join,
    ) -> Option<Vec<GcEvent>> {
        let moved = |mut e: GcEvent| {
            e.collector = join.id(e.collector);
            e.cause = join.id(e.cause);
            e.name = join.id(e.name);
            e.line += join.line_offset;
            if e.invented_id {
                e.gc_id = e.gc_id.map(|g| g.saturating_add(join.invented_offset));
            }
            e
        };
        if let Some(c) = cols {
            self.events.extend(c.events().map(moved));
        }
        self.events.extend(events.drain(..).map(moved));
        Some(events)
    }
    fn len(&self) -> usize {
        self.events.len()
    }
    fn sort_by_time(&mut self) {
        sort_jrockit(&mut self.events);
    }
    fn fill_collector(&mut self, upto: usize, id: u32) {
        crate::model::fill_collector(&mut self.events, upto, id);
    }
    fn end_of_log(&mut self, format: GcFormat, log: &GcLog) {
        format.end_of_log(log, &mut self.events);
    }
}

/// The JRockit parser's order (see its `finish`), over a whole log.
pub fn sort_jrockit(events: &mut Vec<GcEvent>) {
    let mut last = f64::NEG_INFINITY;
    let mut keyed: Vec<((f64, u8, usize), GcEvent)> = std::mem::take(events)
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            if let Some(u) = e.uptime_s {
                last = u;
            }
            ((last, u8::from(e.record != Record::Collection), i), e)
        })
        .collect();
    keyed.sort_by(|(a, _), (b, _)| a.0.total_cmp(&b.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    *events = keyed.into_iter().map(|(_, e)| e).collect();
}

/// Parse `buf` as the streamed path does, in blocks cut at (about) every `block` bytes, on
/// this thread: for `parse_one` and tests.
pub fn parse_in_blocks<S: Sink>(
    format: GcFormat,
    buf: &[u8],
    block: usize,
    sink: S,
) -> (GcLog, S, Stats) {
    parse_in_blocks_flushing(format, buf, block, FLUSH_AT, sink)
}

/// `parse_in_blocks`, each block's parser moving its settled events to the block's columns
/// whenever it holds `flush_at` events (see `Parser::flushing`).
pub fn parse_in_blocks_flushing<S: Sink>(
    format: GcFormat,
    buf: &[u8],
    block: usize,
    flush_at: usize,
    sink: S,
) -> (GcLog, S, Stats) {
    let mut j = Joiner::new(format, sink);
    let mut start = 0;
    while start < buf.len() {
        let end = cut(format, buf, start, block);
        let b = &buf[start..end];
        j.block(b, Parser::flushing(format, b, Vec::new(), flush_at));
        start = end;
    }
    let (blocks, continued) = (j.blocks, j.continued);
    let (log, sink) = j.finish();
    (log, sink, Stats { blocks, continued })
}

/// How a log was joined.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub blocks: u64,
    /// Blocks read on by the parser of the block before (their edge fell inside a record).
    pub continued: u64,
}

/// Where a block that starts at `start` ends: at about `block` bytes on (see `last_cut`),
/// else at the end of the line that crosses it.
pub fn cut(format: GcFormat, buf: &[u8], start: usize, block: usize) -> usize {
    let want = start.saturating_add(block.max(1));
    if want >= buf.len() {
        return buf.len();
    }
    match last_cut(format, &buf[start..want]) {
        Some(i) => start + i,
        None => memchr::memchr(b'\n', &buf[want..]).map_or(buf.len(), |i| want + i + 1),
    }
}

/// Where to end a block read into `b`: before the last safe start (see `safe_start`) in its
/// last quarter, else after its last `\n`; `None` if it holds no whole line.
pub fn last_cut(format: GcFormat, b: &[u8]) -> Option<usize> {
    let line_end = memchr::memrchr(b'\n', b)? + 1;
    let lo = b.len() / 4 * 3;
    let mut end = line_end;
    while end > lo.max(1) {
        // An empty line is no family's safe start: a run of them is passed over at once, to
        // the end of the line before it.
        let run = b[lo..end]
            .iter()
            .rposition(|&c| c != b'\n' && c != b'\r')
            .map_or(lo, |i| lo + i + 1);
        let first_end = run + 1 + usize::from(b.get(run..run + 2) == Some(b"\r\n"));
        if first_end < end {
            end = first_end;
            continue;
        }
        let line_start = memchr::memrchr(b'\n', &b[..end - 1]).map_or(0, |i| i + 1);
        let line = &b[line_start..end];
        if format.cut_after() {
            if format.safe_start(line) {
                return Some(end);
            }
        } else if line_start > 0 && format.safe_start(line) {
            return Some(line_start);
        }
        end = line_start;
    }
    Some(line_end)
}
