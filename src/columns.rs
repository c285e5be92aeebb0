//! Rows into columns: the builders a log's records go into as they are parsed or joined
//! (`Sink`, `GcColumns`, `PerfColumns`), and the frames they become (`frame`).
//!
//! Parsers write their settled rows here and the block join appends blocks' columns; nothing
//! here reads a log's text.

use crate::frame::{gc, perf, GcFrame, PerfFrame};
use crate::model::{round, GcEvent, GcLog, Kind, Record, Rows};
use polars::prelude::*;
use polars_arrow::array::BooleanArray;
use polars_arrow::bitmap::MutableBitmap;
use polars_arrow::datatypes::ArrowDataType;
use rayon::prelude::*;

/// Where joined events go: one event at a time, in log order, its string ids mapped to the
/// log's through `ids` and its line moved on by `line_offset`.
pub trait Sink {
    fn push(&mut self, e: &GcEvent, ids: &[u32], line_offset: u64);
    /// A block's events, in order (`push` each); returns an emptied event buffer to reuse,
    /// if there is one.
    fn push_all(
        &mut self,
        mut events: Vec<GcEvent>,
        ids: &[u32],
        line_offset: u64,
    ) -> Option<Vec<GcEvent>> {
        for e in &events {
            self.push(e, ids, line_offset);
        }
        events.clear();
        Some(events)
    }
    /// A block's columns (`GcColumns::block`), in order, before its events: each row as
    /// `push` says, its invented GC ids moved on by `invented_offset`.
    fn push_cols(&mut self, cols: GcColumns, ids: &[u32], line_offset: u64, invented_offset: u64) {
        for mut e in cols.events() {
            if e.invented_id {
                e.gc_id = e.gc_id.map(|g| g.saturating_add(invented_offset));
            }
            self.push(&e, ids, line_offset);
        }
    }
    /// Events pushed so far.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The events are to be put in time order (see `Joiner::finish`).
    fn sort_by_time(&mut self);
    /// The rows pushed so far, for the log-wide steps (`None`: lost, see `Threaded`).
    fn rows(&mut self) -> Option<&mut dyn Rows>;
}

/// A restart is an uptime this much (seconds) below the latest start seen so far, and below
/// half of it: the JVM's clock began at 0 again. Smaller steps back are threads printing out
/// of order, or a long collection printed after the short ones inside it.
const RESTART_BACK_S: f64 = 1.0;

/// The JVM run of each event (see `gc::RUN`), `None` when all are in the first. Events are
/// taken in line order (`line`, ties in push order). An uptime that goes back starts a new run
/// only when the next event with an uptime is back there too: one event printed late (a
/// JRockit old collection after the nursery collections inside it) or one damaged stamp is
/// not a restart; nor is the last event's, which nothing after it confirms.
fn runs(line: &[u32], uptime: &OptCol<f64>) -> Option<Vec<u32>> {
    let displaced = Displaced::of(line);
    if !may_go_back(line, uptime, &displaced) {
        return None;
    }
    runs_walked(line, uptime, &displaced)
}

/// `runs`, every row walked in line order.
fn runs_walked(line: &[u32], uptime: &OptCol<f64>, displaced: &Displaced) -> Option<Vec<u32>> {
    let n = line.len();
    let mut rows = displaced.order(line);
    let mut run_of: Option<Vec<u32>> = None;
    let mut run = 0u32;
    let mut latest = f64::NEG_INFINITY;
    while let Some(i) = rows.next() {
        if let Some(u) = uptime.get(i) {
            if goes_back(u, latest) {
                // The next event in line order that has an uptime (none: confirmed). Each
                // stretch without uptimes is walked once, from the event before it.
                // The last event with an uptime has no next one to confirm it: one event is
                // not a restart (a gzip cut inside `(start time: 292896.105 s)` leaves a last
                // line reading `29289`, which made a "restart").
                let mut ahead = rows;
                let next = ahead.find_map(|q| uptime.get(q));
                if next.is_some_and(|v| goes_back(v, latest)) {
                    run += 1;
                    latest = u;
                    run_of.get_or_insert_with(|| vec![0; n]);
                }
            }
            latest = latest.max(u);
        }
        if let Some(r) = run_of.as_mut() {
            r[i] = run;
        }
    }
    run_of
}

/// Uptime `u` is below `latest` (the highest before it) by `RESTART_BACK_S` and by half.
#[inline(always)]
fn goes_back(u: f64, latest: f64) -> bool {
    u < latest - RESTART_BACK_S && u < latest / 2.0
}

/// Rows a piece in `may_go_back` (a few hundred KB of each column: a piece per core and then
/// some, for pieces that take unequal time).
const BACK_PIECE: usize = 1 << 16;

/// Whether some uptime, in line order, `goes_back` from the highest before it: `false` is
/// certain (one run), `true` leaves it to the walk in `runs_walked`, which confirms or not.
/// Answered on every core (the walk took 20 ms of a 2.9 M-row log's end on one core): the
/// rows in line order are cut into pieces at rows in place, each piece's own steps back and
/// its lowest and highest uptime found alone; an uptime steps back from a piece before it
/// only if the piece's lowest does (the test is monotone in the uptime and in the latest).
fn may_go_back(line: &[u32], uptime: &OptCol<f64>, d: &Displaced) -> bool {
    let n = line.len();
    // Piece starts: rows in place (a displaced row is reached by the merge, not in row
    // order), about `BACK_PIECE` apart, rising.
    let mut starts = vec![0usize];
    let mut r = BACK_PIECE;
    while r < n {
        // The first row at or after `r` that is not displaced: past a run of skipped rows.
        let mut k = d.skip.partition_point(|&s| (s as usize) < r);
        let mut row = r;
        while d.skip.get(k).is_some_and(|&s| s as usize == row) {
            k += 1;
            row += 1;
        }
        if row >= n {
            break;
        }
        starts.push(row);
        r = row + BACK_PIECE;
    }
    // Per piece: a step back within it, its lowest and highest uptime.
    let pieces: Vec<(bool, f64, f64)> = (0..starts.len())
        .into_par_iter()
        .map(|p| {
            let from = starts[p];
            let to = starts.get(p + 1).copied();
            // The first piece from the start of the line order (displaced rows may come
            // before row 0 in it), the others from their first row.
            let mut rows = match p {
                0 => d.order(line),
                _ => d.order_from(line, from),
            };
            let (mut stepped, mut lo, mut hi) = (false, f64::INFINITY, f64::NEG_INFINITY);
            for i in rows.by_ref() {
                if Some(i) == to {
                    break;
                }
                if let Some(u) = uptime.get(i) {
                    stepped |= goes_back(u, hi);
                    hi = hi.max(u);
                    lo = lo.min(u);
                }
            }
            (stepped, lo, hi)
        })
        .collect();
    let mut latest = f64::NEG_INFINITY;
    for &(stepped, lo, hi) in &pieces {
        if stepped || goes_back(lo, latest) {
            return true;
        }
        latest = latest.max(hi);
    }
    false
}

/// The rows in line order, ties in row order, without a permutation of all rows: rows come
/// mostly in line order, a few out of place (JRockit's time order puts a long collection
/// before the shorter ones printed inside it). The rows whose line is below one before them
/// ("displaced") are sorted alone and merged with the rest, which are in line order already
/// (a counting sort over the line range held two 4-byte arrays of the rows' size: 23 MB at
/// a 2.9 M-row log's peak, when the frame is whole).
struct Displaced {
    /// The displaced rows in row order (to pass them by) and in line order (to merge them).
    skip: Vec<u32>,
    merge: Vec<u32>,
}

impl Displaced {
    fn of(line: &[u32]) -> Self {
        let mut skip = Vec::new();
        let mut top = 0u32;
        for (i, &l) in line.iter().enumerate() {
            if l < top {
                skip.push(i as u32);
            }
            top = top.max(l);
        }
        let mut merge = skip.clone();
        // Stable: ties keep row order.
        merge.sort_by_key(|&i| line.get(i as usize).copied().unwrap_or(u32::MAX));
        Displaced { skip, merge }
    }

    /// The rows in line order.
    fn order<'a>(&'a self, line: &'a [u32]) -> LineOrder<'a> {
        LineOrder {
            line,
            d: self,
            row: 0,
            next_skip: 0,
            next_merge: 0,
        }
    }

    /// The rows in line order from row `from` on, a row in place (not displaced): `order`
    /// where it yields `from`, the displaced rows that come before it in line order passed.
    fn order_from<'a>(&'a self, line: &'a [u32], from: usize) -> LineOrder<'a> {
        LineOrder {
            line,
            d: self,
            row: from,
            next_skip: self.skip.partition_point(|&s| (s as usize) < from),
            next_merge: self
                .merge
                .partition_point(|&i| line_key(line, i as usize) < line_key(line, from)),
        }
    }
}

/// Row `i`'s place in line order: its line, ties in row order.
#[inline(always)]
fn line_key(line: &[u32], i: usize) -> (u32, usize) {
    (line.get(i).copied().unwrap_or(u32::MAX), i)
}

/// See `Displaced`; a copy goes on from where the original is.
#[derive(Clone, Copy)]
struct LineOrder<'a> {
    line: &'a [u32],
    d: &'a Displaced,
    /// The next row in row order, the next displaced row at or after it, the next to merge.
    row: usize,
    next_skip: usize,
    next_merge: usize,
}

impl Iterator for LineOrder<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.d.skip.get(self.next_skip) == Some(&(self.row as u32)) {
            self.row += 1;
            self.next_skip += 1;
        }
        let a = (self.row < self.line.len()).then_some(self.row);
        let b = self.d.merge.get(self.next_merge).map(|&i| i as usize);
        let key = |i: usize| line_key(self.line, i);
        match (a, b) {
            (Some(a), Some(b)) if key(b) < key(a) => {
                self.next_merge += 1;
                Some(b)
            }
            (Some(a), _) => {
                self.row += 1;
                Some(a)
            }
            (None, Some(b)) => {
                self.next_merge += 1;
                Some(b)
            }
            (None, None) => None,
        }
    }
}

/// A duration in ms as the log wrote it, without the noise of converting from seconds
/// (`0.0050319 secs` * 1000 is 5.031899999999999): rounded to a nanosecond, far below the
/// 0.1 µs the finest log writes. An integer over a power of ten is correctly rounded, so the
/// result prints as `5.0319`.
fn round_ms(ms: f64) -> f64 {
    let r = round(ms * 1e6) / 1e6;
    if r.is_finite() {
        r
    } else {
        ms
    }
}

/// Line `line` moved on by `offset`, as the frame holds it (u32: larger numbers capped).
fn line_at(line: u64, offset: u64) -> u32 {
    u32::try_from(line.saturating_add(offset)).unwrap_or(u32::MAX)
}

/// Events a chunk in `GcColumns::push_block` (about 50 KB of events: within L2).
const PUSH_CHUNK: usize = 256;

/// Builds the GC frame column by column from events appended one by one (a streamed log is
/// parsed in blocks, each block's events dropped once appended, so a log is never held as
/// events and frame at once).
#[derive(Debug, Default)]
pub struct GcColumns {
    record: ConstCol<i8>,
    kind: ConstCol<i8>,
    collector: IdCol,
    cause: IdCol,
    name: IdCol,
    start_s: OptCol<f64>,
    wall_ms: OptCol<i64>,
    /// As logged until `finish` (the runs' ends are computed from these, as they always were),
    /// then rounded in place by `round_ms`.
    duration: Vec<f64>,
    ttsp: OptCol<f64>,
    heap_before: WideCol,
    heap_after: WideCol,
    heap_total: WideCol,
    young_before: WideCol,
    young_after: WideCol,
    promoted: WideCol,
    flags: ConstCol<i8>,
    gc_id: WideCol,
    in_collection: MutableBitmap,
    line: Vec<u32>,
    /// Put the rows in the JRockit parser's time order when finished (see `Sink`).
    sort_by_time: bool,
    /// A streamed block's columns (`GcColumns::block`): figures as the parser gave them (time
    /// to safepoint not rounded, GC ids not cut), with which ids the parser invented, so that
    /// `row` gives each event back as it was and `append_block` makes the log's rows of them.
    raw: bool,
    invented: MutableBitmap,
}

impl GcColumns {
    pub fn with_capacity(n: usize) -> Self {
        GcColumns {
            record: ConstCol::with_capacity(n),
            kind: ConstCol::with_capacity(n),
            collector: IdCol::with_capacity(n),
            cause: IdCol::with_capacity(n),
            name: IdCol::with_capacity(n),
            start_s: OptCol::with_capacity(n),
            wall_ms: OptCol::with_capacity(n),
            duration: Vec::with_capacity(n),
            // Grown only by the safepoints that have one: a log without them stores nothing.
            ttsp: OptCol::with_capacity(0),
            heap_before: WideCol::with_capacity(n),
            heap_after: WideCol::with_capacity(n),
            heap_total: WideCol::with_capacity(n),
            young_before: WideCol::with_capacity(n),
            young_after: WideCol::with_capacity(n),
            promoted: WideCol::with_capacity(n),
            flags: ConstCol::with_capacity(n),
            gc_id: WideCol::with_capacity(n),
            in_collection: MutableBitmap::with_capacity(n),
            line: Vec::with_capacity(n),
            sort_by_time: false,
            raw: false,
            invented: MutableBitmap::new(),
        }
    }

    /// A streamed block's columns, written by its parser (see `append_block`).
    pub fn block() -> Self {
        GcColumns {
            raw: true,
            ..GcColumns::with_capacity(0)
        }
    }

    pub fn len(&self) -> usize {
        self.line.len()
    }

    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// Append one event; `ids[i]` is the log-wide id of the event's block-local string id i
    /// (an id outside `ids` becomes 0, none); `line_offset` is added to its line.
    #[inline]
    pub fn push(&mut self, e: &GcEvent, ids: &[u32], line_offset: u64) {
        self.push_block(std::slice::from_ref(e), ids, line_offset);
    }

    /// Append a block's events (each as `push` says), a column at a time over chunks of
    /// them (a chunk's events stay in the cache while each column's loop reads them): the
    /// appending thread's per-event pushes, twenty columns' state checks in one body, were
    /// 13 % of a JRockit log's CPU.
    pub fn push_block(&mut self, events: &[GcEvent], ids: &[u32], line_offset: u64) {
        let id = |i: u32| ids.get(i as usize).copied().unwrap_or(0);
        self.push_mapped(events, id, line_offset);
    }

    /// A parser's settled events onto its block's columns (`GcColumns::block`), string ids
    /// and lines as the parser gave them.
    pub fn push_settled(&mut self, events: &[GcEvent]) {
        self.push_mapped(events, |i| i, 0);
    }

    #[inline]
    fn push_mapped(&mut self, events: &[GcEvent], id: impl Fn(u32) -> u32, line_offset: u64) {
        let raw = self.raw;
        for c in events.chunks(PUSH_CHUNK) {
            // Codes are 0..=7 and flags bits below 0x80: an i8 holds them unchanged.
            self.record.push_chunk(c, |e| e.record.code() as i8);
            self.kind.push_chunk(c, |e| e.kind.code() as i8);
            self.collector.push_chunk(c, |e| id(e.collector));
            self.cause.push_chunk(c, |e| id(e.cause));
            self.name.push_chunk(c, |e| id(e.name));
            self.start_s.push_chunk(c, |e| e.uptime_s);
            self.wall_ms.push_chunk(c, |e| e.wall_ms);
            self.duration.extend(c.iter().map(|e| e.duration_ms));
            if raw {
                self.ttsp.push_chunk(c, |e| e.ttsp_ms);
            } else {
                self.ttsp.push_chunk(c, |e| e.ttsp_ms.map(round_ms));
            }
            self.heap_before.push_chunk(c, |e| e.heap_before_kb);
            self.heap_after.push_chunk(c, |e| e.heap_after_kb);
            self.heap_total.push_chunk(c, |e| e.heap_total_kb);
            self.young_before.push_chunk(c, |e| e.young_before_kb);
            self.young_after.push_chunk(c, |e| e.young_after_kb);
            self.promoted.push_chunk(c, |e| e.promoted_kb);
            self.flags.push_chunk(c, |e| (e.flags & 0x7f) as i8);
            // An id the JRockit parser invented links itemised pauses to their collection; on
            // a collection nothing itemises it links nothing and is not the log's: null, as
            // the export says of ids (and 4 bytes a row off a JRockit 1.4.2 frame, a tenth).
            if raw {
                self.gc_id.push_chunk(c, |e| e.gc_id);
                c.iter().for_each(|e| self.invented.push(e.invented_id));
            } else {
                self.gc_id.push_chunk(c, |e| {
                    let unlinked = e.invented_id && e.record == Record::Pause && !e.in_collection;
                    if unlinked {
                        None
                    } else {
                        e.gc_id
                    }
                });
            }
            c.iter()
                .for_each(|e| self.in_collection.push(e.in_collection));
            self.line
                .extend(c.iter().map(|e| line_at(e.line, line_offset)));
        }
    }

    /// The frame: runs (see `gc::RUN`), the time axis `t_s`, then the columns, moved into
    /// polars without copying.
    pub fn finish(mut self, strings: Vec<String>) -> PolarsResult<GcFrame> {
        let n = self.len();
        let run = runs(&self.line, &self.start_s);
        let have_uptime = self.start_s.present > 0;
        // `None`: the time axis is `start_s` itself (one run: u + 0.0 is u).
        let t: Option<OptCol<f64>> = match &run {
            None if have_uptime => None,
            Some(run) if have_uptime => {
                // Runs laid end to end on the time axis: each starts where the one before
                // ended.
                let n_runs = run.iter().max().map_or(1, |&r| r as usize + 1);
                let mut run_end = vec![f64::NEG_INFINITY; n_runs];
                for (i, &r) in run.iter().enumerate() {
                    if let Some(u) = self.start_s.get(i) {
                        let end = u + self.duration[i] / 1000.0;
                        run_end[r as usize] = run_end[r as usize].max(end);
                    }
                }
                let mut offset = vec![0.0f64; n_runs];
                for r in 1..n_runs {
                    let prev = if run_end[r - 1].is_finite() {
                        run_end[r - 1]
                    } else {
                        0.0
                    };
                    offset[r] = offset[r - 1] + prev;
                }
                let mut t = OptCol::with_capacity(n);
                for (i, &r) in run.iter().enumerate() {
                    t.push(self.start_s.get(i).map(|u| u + offset[r as usize]));
                }
                Some(t)
            }
            _ => {
                let wall0 = (0..n).filter_map(|i| self.wall_ms.get(i)).min();
                let mut t = OptCol::with_capacity(n);
                for i in 0..n {
                    t.push(match (self.wall_ms.get(i), wall0) {
                        (Some(w), Some(w0)) => Some((w - w0) as f64 / 1000.0),
                        _ => None,
                    });
                }
                Some(t)
            }
        };
        // Each on its own, on both cores: 15 ms of a 2.9 M-row log's CPU, when the streaming
        // is over and the other core idle.
        self.duration
            .par_chunks_mut(1 << 16)
            .for_each(|c| c.iter_mut().for_each(|d| *d = round_ms(*d)));
        let order = self
            .order(run.as_deref())
            .map(|o| IdxCa::from_vec("".into(), o));
        // Put in that order a column at a time, each old column dropped as its new one is
        // made: the whole frame taken at once was held twice at the peak (and `t_s`, taken
        // apart from `start_s`, no longer shared its buffer).
        let ordered = |c: Column| -> PolarsResult<Column> {
            match &order {
                Some(idx) => c.take(idx),
                None => Ok(c),
            }
        };
        let start = ordered(self.start_s.into_column::<Float64Type>(gc::START_S))?;
        let t_s = match t {
            // A clone shares the buffer.
            None => start.clone().with_name(gc::T_S.into()),
            Some(t) => ordered(t.into_column::<Float64Type>(gc::T_S))?,
        };
        let run = match run {
            Some(r) => UInt32Chunked::from_vec(gc::RUN.into(), r).into_column(),
            None => scalar(gc::RUN, AnyValue::UInt32(0), n),
        };
        let df = DataFrame::new(
            n,
            vec![
                ordered(
                    self.record
                        .into_column::<Int8Type>(gc::RECORD, AnyValue::Int8),
                )?,
                ordered(self.kind.into_column::<Int8Type>(gc::KIND, AnyValue::Int8))?,
                ordered(self.collector.into_column(gc::COLLECTOR))?,
                ordered(self.cause.into_column(gc::CAUSE))?,
                ordered(self.name.into_column(gc::NAME))?,
                start,
                ordered(self.wall_ms.into_column::<Int64Type>(gc::WALL_MS))?,
                t_s,
                ordered(run)?,
                ordered(
                    Float64Chunked::from_vec(gc::DURATION_MS.into(), self.duration).into_column(),
                )?,
                ordered(self.ttsp.into_column::<Float64Type>(gc::TTSP_MS))?,
                ordered(self.heap_before.into_column(gc::HEAP_BEFORE_KB))?,
                ordered(self.heap_after.into_column(gc::HEAP_AFTER_KB))?,
                ordered(self.heap_total.into_column(gc::HEAP_TOTAL_KB))?,
                ordered(self.young_before.into_column(gc::YOUNG_BEFORE_KB))?,
                ordered(self.young_after.into_column(gc::YOUNG_AFTER_KB))?,
                ordered(self.promoted.into_column(gc::PROMOTED_KB))?,
                ordered(
                    self.flags
                        .into_column::<Int8Type>(gc::FLAGS, AnyValue::Int8),
                )?,
                ordered(self.gc_id.into_column(gc::GC_ID))?,
                ordered(
                    BooleanChunked::with_chunk(
                        gc::IN_COLLECTION.into(),
                        BooleanArray::new(
                            ArrowDataType::Boolean,
                            self.in_collection.freeze(),
                            None,
                        ),
                    )
                    .into_column(),
                )?,
                ordered(UInt32Chunked::from_vec(gc::LINE.into(), self.line).into_column())?,
            ],
        )?;
        Ok(GcFrame { df, strings })
    }
}

impl GcColumns {
    /// Row `i` as an event (string ids as stored).
    fn row(&self, i: usize) -> GcEvent {
        let record = Record::from_code(self.record.get(i) as u8).unwrap_or(Record::Pause);
        let kind = Kind::from_code(self.kind.get(i) as u8).unwrap_or(Kind::Other);
        let mut e = GcEvent::new(record, kind, self.duration[i], u64::from(self.line[i]));
        e.collector = self.collector.get(i);
        e.cause = self.cause.get(i);
        e.name = self.name.get(i);
        e.uptime_s = self.start_s.get(i);
        e.wall_ms = self.wall_ms.get(i);
        e.ttsp_ms = self.ttsp.get(i);
        e.heap_before_kb = self.heap_before.get(i);
        e.heap_after_kb = self.heap_after.get(i);
        e.heap_total_kb = self.heap_total.get(i);
        e.young_before_kb = self.young_before.get(i);
        e.young_after_kb = self.young_after.get(i);
        e.promoted_kb = self.promoted.get(i);
        e.flags = self.flags.get(i) as u8;
        e.gc_id = self.gc_id.get(i);
        e.in_collection = bit(&self.in_collection, i);
        e.invented_id = self.raw && bit(&self.invented, i);
        e
    }

    /// The rows as events (a block's: as its parser gave them).
    pub fn events(&self) -> impl Iterator<Item = GcEvent> + '_ {
        (0..self.len()).map(|i| self.row(i))
    }

    /// Each row's JRockit sort key: its start, and whether it is a collection.
    pub fn for_each_key(&self, mut f: impl FnMut(Option<f64>, bool)) {
        let collection = Record::Collection.code() as i8;
        let is_collection = |i: usize| self.record.get(i) == collection;
        let starts = &self.start_s;
        if starts.valid.is_none() && starts.nulls == 0 && starts.values.len() == self.len() {
            // Every row has a start (a JRockit block's columns always do).
            for (i, &u) in starts.values.iter().enumerate() {
                f(Some(u), is_collection(i));
            }
        } else {
            (0..self.len()).for_each(|i| f(starts.get(i), is_collection(i)));
        }
    }

    /// The highest GC id the parser invented in a block (0: none).
    pub fn invented_max(&self) -> u64 {
        if let WideCol::Narrow(c) = &self.gc_id {
            if c.valid.is_none() && c.nulls == 0 {
                return c
                    .values
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| bit(&self.invented, i))
                    .map(|(_, &g)| u64::from(g))
                    .max()
                    .unwrap_or(0);
            }
        }
        (0..self.len())
            .filter(|&i| bit(&self.invented, i))
            .filter_map(|i| self.gc_id.get(i))
            .max()
            .unwrap_or(0)
    }

    /// Append a block's columns (`GcColumns::block`), a column at a time: string ids mapped
    /// through `ids`, lines moved on by `line_offset`, invented GC ids by `invented_offset`
    /// (numbered on from the blocks before), and made what `push_block` makes of its events.
    pub fn append_block(
        &mut self,
        b: &GcColumns,
        ids: &[u32],
        line_offset: u64,
        invented_offset: u64,
    ) {
        let n = b.len();
        self.record.append(&b.record);
        self.kind.append(&b.kind);
        self.collector.append(&b.collector, ids);
        self.cause.append(&b.cause, ids);
        self.name.append(&b.name, ids);
        self.start_s.append(&b.start_s, |v| v);
        self.wall_ms.append(&b.wall_ms, |v| v);
        self.duration.extend_from_slice(&b.duration);
        self.ttsp.append(&b.ttsp, round_ms);
        self.heap_before.append(&b.heap_before);
        self.heap_after.append(&b.heap_after);
        self.heap_total.append(&b.heap_total);
        self.young_before.append(&b.young_before);
        self.young_after.append(&b.young_after);
        self.promoted.append(&b.promoted);
        self.flags.append(&b.flags);
        let pause = Record::Pause.code() as i8;
        // A block of collections numbered by the parser that nothing itemises (JRockit 1.4.2):
        // no id is kept.
        let unlinked = b.record.values.is_none()
            && b.record.first == pause
            && all_bits(&b.invented, true)
            && all_bits(&b.in_collection, false);
        if unlinked {
            self.gc_id.push_nulls(n);
        } else {
            let mut idx = [0usize; PUSH_CHUNK];
            for start in (0..n).step_by(PUSH_CHUNK) {
                let m = (n - start).min(PUSH_CHUNK);
                for (k, slot) in idx.iter_mut().take(m).enumerate() {
                    *slot = start + k;
                }
                let gc_id = |&i: &usize| {
                    let g = b.gc_id.get(i);
                    if !bit(&b.invented, i) {
                        g
                    } else if b.record.get(i) == pause && !bit(&b.in_collection, i) {
                        None
                    } else {
                        g.map(|g| g.saturating_add(invented_offset))
                    }
                };
                self.gc_id.push_chunk(&idx[..m], gc_id);
            }
        }
        self.in_collection
            .extend_from_slice(b.in_collection.as_slice(), 0, b.in_collection.len());
        self.line
            .extend(b.line.iter().map(|&l| line_at(u64::from(l), line_offset)));
    }

    /// The rows' order in the frame (None: as they are): the runs (`run`, found in line
    /// order) one after another, each in the JRockit parser's time order when asked for (see
    /// `Sink`): by start (an event without one keeps the place of the event before it), a
    /// collection before its pauses, then the order so far. Sorting by start alone put the
    /// runs of a log the JVM appended to after a restart into one another, line 10 of the
    /// first beside line 10 of the second.
    fn order(&self, run: Option<&[u32]>) -> Option<Vec<IdxSize>> {
        let n = self.len();
        let run_of = |i: usize| run.and_then(|r| r.get(i)).copied().unwrap_or(0);
        if !self.sort_by_time {
            // The parser's own order within each run (a log parsed in one piece is ordered by
            // the parser, across runs): only the runs are put one after another.
            let r = run?;
            if r.windows(2).all(|w| w[0] <= w[1]) {
                return None;
            }
            let mut idx: Vec<IdxSize> = (0..n as IdxSize).collect();
            idx.sort_by_key(|&i| run_of(i as usize));
            return Some(idx);
        }
        // Starts carried over the rows without one (none carried where every row has one).
        let carried: Option<Vec<f64>> = (self.start_s.present < n).then(|| {
            let mut last = f64::NEG_INFINITY;
            (0..n)
                .map(|i| {
                    if let Some(u) = self.start_s.get(i) {
                        last = u;
                    }
                    last
                })
                .collect()
        });
        let start = |i: usize| match &carried {
            Some(c) => c[i],
            None => self.start_s.get(i).unwrap_or(f64::NEG_INFINITY),
        };
        let collection = Record::Collection.code() as i8;
        let rank = |i: usize| u8::from(self.record.get(i) != collection);
        let cmp = |a: usize, b: usize| {
            run_of(a)
                .cmp(&run_of(b))
                .then(start(a).total_cmp(&start(b)))
                .then(rank(a).cmp(&rank(b)))
        };
        // Mostly in order already (a restart was what set the flag): then nothing is taken.
        if (1..n).all(|i| cmp(i - 1, i).is_le()) {
            return None;
        }
        // Indices sorted, not (key, index) pairs: 4 bytes a row, not 16 (a stable sort: ties
        // keep the order so far).
        let mut idx: Vec<IdxSize> = (0..n as IdxSize).collect();
        idx.sort_by(|&a, &b| cmp(a as usize, b as usize));
        Some(idx)
    }

    /// Earliest wall-clock start and earliest uptime (how rotated parts are put in order).
    pub fn first_times(&self) -> (Option<i64>, Option<f64>) {
        let n = self.len();
        let wall = (0..n).filter_map(|i| self.wall_ms.get(i)).min();
        let up = (0..n).filter_map(|i| self.start_s.get(i)).reduce(f64::min);
        (wall, up)
    }

    /// Append the rows of another log's columns (in its own time order, if it asked for
    /// one), its string ids mapped through `ids`, its lines moved on by `line_offset`.
    pub fn append(&mut self, other: &GcColumns, ids: &[u32], line_offset: u64) {
        let n = other.len();
        match other.order(runs(&other.line, &other.start_s).as_deref()) {
            Some(order) => {
                for i in order {
                    self.push(&other.row(i as usize), ids, line_offset);
                }
            }
            None => {
                for i in 0..n {
                    self.push(&other.row(i), ids, line_offset);
                }
            }
        }
    }
}

/// The streamed path's sink: events go straight into the columns; the few log-wide steps
/// the joiner asks for (a unified log's collector before its first `Using` line, ZGC cycles,
/// the JRockit time order) work on the columns.
impl Sink for GcColumns {
    fn push(&mut self, e: &GcEvent, ids: &[u32], line_offset: u64) {
        GcColumns::push(self, e, ids, line_offset);
    }
    fn push_all(
        &mut self,
        mut events: Vec<GcEvent>,
        ids: &[u32],
        line_offset: u64,
    ) -> Option<Vec<GcEvent>> {
        self.push_block(&events, ids, line_offset);
        events.clear();
        Some(events)
    }
    fn push_cols(&mut self, cols: GcColumns, ids: &[u32], line_offset: u64, invented_offset: u64) {
        self.append_block(&cols, ids, line_offset, invented_offset);
    }
    fn len(&self) -> usize {
        GcColumns::len(self)
    }
    fn sort_by_time(&mut self) {
        self.sort_by_time = true;
    }
    fn rows(&mut self) -> Option<&mut dyn Rows> {
        Some(self)
    }
}

/// The family rules' view of the columns (`Family::end_of_log`).
impl Rows for GcColumns {
    fn len(&self) -> usize {
        GcColumns::len(self)
    }
    fn record(&self, i: usize) -> Record {
        Record::from_code(self.record.get(i) as u8).unwrap_or(Record::Pause)
    }
    fn kind(&self, i: usize) -> Kind {
        Kind::from_code(self.kind.get(i) as u8).unwrap_or(Kind::Other)
    }
    fn collector(&self, i: usize) -> u32 {
        self.collector.get(i)
    }
    fn set_collector(&mut self, i: usize, id: u32) {
        self.collector.set(i, id);
    }
    fn gc_id(&self, i: usize) -> Option<u64> {
        self.gc_id.get(i)
    }
    fn duration_ms(&self, i: usize) -> f64 {
        self.duration[i]
    }
    fn set_duration_ms(&mut self, i: usize, ms: f64) {
        if let Some(d) = self.duration.get_mut(i) {
            *d = ms;
        }
    }
    fn set_in_collection(&mut self, i: usize, v: bool) {
        if i < self.in_collection.len() {
            self.in_collection.set(i, v);
        }
    }
}

/// One row per event of a log parsed in one piece (tests, small inputs).
pub fn gc_frame(log: &GcLog) -> PolarsResult<GcFrame> {
    let mut c = GcColumns::with_capacity(log.events.len());
    let ids: Vec<u32> = (0..log.strings.len() as u32).collect();
    c.push_block(&log.events, &ids, 0);
    c.finish(log.strings.list().to_vec())
}

fn scalar(name: &str, v: AnyValue<'static>, n: usize) -> Column {
    Column::new_scalar(name.into(), Scalar::new(v.dtype(), v), n)
}

/// Bit `i` of `b`; past the end, clear.
fn bit(b: &MutableBitmap, i: usize) -> bool {
    i < b.len() && b.get(i)
}

/// Every bit of `b` is `v`.
fn all_bits(b: &MutableBitmap, v: bool) -> bool {
    if v {
        b.unset_bits() == 0
    } else {
        b.set_bits() == 0
    }
}

/// `len` bits of `v`, room for `cap`.
fn bits_of(v: bool, len: usize, cap: usize) -> MutableBitmap {
    let mut b = MutableBitmap::with_capacity(cap.max(len));
    b.extend_constant(len, v);
    b
}

/// A column whose values may all be one (a log without causes, a log of pauses only): no
/// values are stored until a different one comes, and then it is a plain vector.
#[derive(Debug, Default)]
struct ConstCol<T> {
    first: T,
    len: usize,
    cap: usize,
    values: Option<Vec<T>>,
}

impl<T: Copy + Default + PartialEq> ConstCol<T> {
    fn with_capacity(n: usize) -> Self {
        ConstCol {
            first: T::default(),
            len: 0,
            cap: n,
            values: None,
        }
    }

    #[inline]
    fn push(&mut self, v: T) {
        match &mut self.values {
            Some(values) => values.push(v),
            None if self.len == 0 || v == self.first => self.first = v,
            None => self.materialise_with(v),
        }
        self.len += 1;
    }

    /// `push` of `f` of each of `c`. A chunk that changes nothing of the column's shape (all
    /// one value while it is one, or stored while it is stored) is taken in one step: pushed a
    /// row at a time, the column's state was asked per row (a JRockit 1.4.2 log's appending
    /// thread spent 19 % of the CPU there).
    #[inline]
    fn push_chunk<E>(&mut self, c: &[E], f: impl Fn(&E) -> T) {
        if let Some(values) = &mut self.values {
            values.extend(c.iter().map(f));
            self.len += c.len();
            return;
        }
        let Some(e0) = c.first() else { return };
        let first = if self.len == 0 { f(e0) } else { self.first };
        // Not short-circuited: a loop without a branch a row.
        if c.iter().fold(true, |all, e| all & (f(e) == first)) {
            self.first = first;
            self.len += c.len();
            return;
        }
        c.iter().for_each(|e| self.push(f(e)));
    }

    /// `n` rows of `v`.
    fn push_repeat(&mut self, v: T, mut n: usize) {
        if n == 0 {
            return;
        }
        if self.values.is_none() {
            if self.len == 0 || v == self.first {
                self.first = v;
                self.len += n;
                return;
            }
            self.materialise_with(v);
            self.len += 1;
            n -= 1;
        }
        if let Some(values) = &mut self.values {
            values.extend(std::iter::repeat_n(v, n));
        }
        self.len += n;
    }

    /// The rows of `o` after these.
    fn append(&mut self, o: &ConstCol<T>) {
        match &o.values {
            Some(values) => self.push_chunk(values, |&v| v),
            None => self.push_repeat(o.first, o.len),
        }
    }

    /// The first value that differs: every row stored from here on.
    #[cold]
    #[inline(never)]
    fn materialise_with(&mut self, v: T) {
        let mut values = Vec::with_capacity(self.cap.max(self.len + 1));
        values.resize(self.len, self.first);
        values.push(v);
        self.values = Some(values);
    }
}

impl<T: Copy + PartialEq> ConstCol<T> {
    fn get(&self, i: usize) -> T {
        match &self.values {
            Some(v) => v.get(i).copied().unwrap_or(self.first),
            None => self.first,
        }
    }

    /// Change row `i` (a row past the end is left alone).
    fn set(&mut self, i: usize, v: T) {
        if i >= self.len {
            return;
        }
        if self.values.is_none() {
            if v == self.first {
                return;
            }
            let mut values = Vec::with_capacity(self.cap.max(self.len));
            values.resize(self.len, self.first);
            self.values = Some(values);
        }
        if let Some(x) = self.values.as_mut().and_then(|vs| vs.get_mut(i)) {
            *x = v;
        }
    }
}

impl<T: Copy> ConstCol<T> {
    /// One value everywhere: a scalar column (no memory per row); `any` makes it polars'.
    fn into_column<P: PolarsNumericType<Native = T>>(
        self,
        name: &str,
        any: fn(T) -> AnyValue<'static>,
    ) -> Column {
        match self.values {
            Some(values) => ChunkedArray::<P>::from_vec(name.into(), values).into_column(),
            None => scalar(name, any(self.first), self.len),
        }
    }
}

/// A string-id column (see `gc::COLLECTOR`): nothing a row while one id fills it, one byte a
/// row (Int8) while every id is below 128 — a log names a few dozen collectors, causes and
/// phases — and u32 from the first id that is not. Readers cast it to UInt32.
#[derive(Debug, Default)]
struct IdCol {
    narrow: ConstCol<i8>,
    wide: Option<Vec<u32>>,
}

impl IdCol {
    fn with_capacity(n: usize) -> Self {
        IdCol {
            narrow: ConstCol::with_capacity(n),
            wide: None,
        }
    }

    #[inline]
    fn push(&mut self, v: u32) {
        match (&mut self.wide, i8::try_from(v)) {
            (Some(wide), _) => wide.push(v),
            (None, Ok(b)) => self.narrow.push(b),
            (None, Err(_)) => {
                self.widen();
                if let Some(wide) = &mut self.wide {
                    wide.push(v);
                }
            }
        }
    }

    /// `push` of `f` of each of `c` (see `ConstCol::push_chunk`).
    #[inline]
    fn push_chunk<E>(&mut self, c: &[E], f: impl Fn(&E) -> u32) {
        if let Some(wide) = &mut self.wide {
            wide.extend(c.iter().map(f));
            return;
        }
        if c.iter().fold(true, |all, e| all & (f(e) < 128)) {
            // Below 128: the cast keeps them.
            self.narrow.push_chunk(c, |e| f(e) as i8);
            return;
        }
        c.iter().for_each(|e| self.push(f(e)));
    }

    /// The rows of `o` after these, its ids mapped through `ids` (outside it: 0).
    fn append(&mut self, o: &IdCol, ids: &[u32]) {
        let id = |i: u32| ids.get(i as usize).copied().unwrap_or(0);
        match (&o.wide, &o.narrow.values) {
            (Some(w), _) => self.push_chunk(w, |&v| id(v)),
            // Narrow ids are 0..=127: the cast keeps them.
            (None, Some(values)) => self.push_chunk(values, |&v| id(v as u32)),
            (None, None) => {
                let v = id(o.narrow.first as u32);
                match (&mut self.wide, i8::try_from(v)) {
                    (None, Ok(b)) => self.narrow.push_repeat(b, o.narrow.len),
                    _ => (0..o.narrow.len).for_each(|_| self.push(v)),
                }
            }
        }
    }

    /// Every id so far as u32, the narrow column dropped.
    #[cold]
    #[inline(never)]
    fn widen(&mut self) {
        let n = self.narrow.len;
        let mut wide = Vec::with_capacity(self.narrow.cap.max(n + 1));
        wide.extend((0..n).map(|i| self.narrow.get(i) as u32));
        self.narrow = ConstCol::default();
        self.wide = Some(wide);
    }

    fn get(&self, i: usize) -> u32 {
        match &self.wide {
            Some(w) => w.get(i).copied().unwrap_or(0),
            // Narrow ids are 0..=127: the cast keeps them.
            None => self.narrow.get(i) as u32,
        }
    }

    /// Change row `i` (a row past the end is left alone).
    fn set(&mut self, i: usize, v: u32) {
        if self.wide.is_none() {
            match i8::try_from(v) {
                Ok(b) => return self.narrow.set(i, b),
                Err(_) => self.widen(),
            }
        }
        if let Some(x) = self.wide.as_mut().and_then(|w| w.get_mut(i)) {
            *x = v;
        }
    }

    fn into_column(self, name: &str) -> Column {
        match self.wide {
            Some(w) => UInt32Chunked::from_vec(name.into(), w).into_column(),
            None => self.narrow.into_column::<Int8Type>(name, AnyValue::Int8),
        }
    }
}

/// A column that may hold nulls: values, plus validity only from the first null on (a
/// semicolon log has none, so its columns cost no validity at all), turned into a polars
/// column without copying the values.
/// While every value so far is null, nothing is stored but their count (a log without date
/// stamps has a null wall clock on every row: 8 bytes a row for nothing).
#[derive(Debug, Default)]
struct OptCol<T> {
    values: Vec<T>,
    valid: Option<MutableBitmap>,
    /// Values present (not null).
    present: usize,
    /// Nulls before the first value, not stored while no value came.
    nulls: usize,
}

impl<T: Copy + Default> OptCol<T> {
    fn with_capacity(n: usize) -> Self {
        OptCol {
            values: Vec::with_capacity(n),
            valid: None,
            present: 0,
            nulls: 0,
        }
    }

    /// `len` rows of `v`, room for `cap`.
    fn filled(v: T, len: usize, cap: usize) -> Self {
        let mut c = OptCol::with_capacity(cap);
        c.values.resize(len, v);
        c.present = len;
        c
    }

    fn len(&self) -> usize {
        self.values.len() + self.nulls
    }

    #[inline]
    fn push(&mut self, v: Option<T>) {
        match (v, &mut self.valid) {
            // Every value so far present (or this the first row): no validity yet.
            (Some(x), None) if self.present > 0 || self.nulls == 0 => {
                self.present += 1;
                self.values.push(x);
            }
            // Every value so far null: only counted.
            (None, None) if self.present == 0 => self.nulls += 1,
            (_, Some(valid)) => {
                valid.push(v.is_some());
                self.present += usize::from(v.is_some());
                self.values.push(v.unwrap_or_default());
            }
            _ => self.push_first_other(v),
        }
    }

    /// `push` of `f` of each of `c`: a chunk all present while no value was missing, or all
    /// missing while none was present, in one step (see `ConstCol::push_chunk`).
    #[inline]
    fn push_chunk<E>(&mut self, c: &[E], f: impl Fn(&E) -> Option<T>) {
        if self.valid.is_none() {
            let some = c
                .iter()
                .fold(0usize, |n, e| n + usize::from(f(e).is_some()));
            if some == c.len() && self.nulls == 0 {
                self.values
                    .extend(c.iter().map(|e| f(e).unwrap_or_default()));
                self.present += some;
                return;
            }
            if some == 0 && self.present == 0 {
                self.nulls += c.len();
                return;
            }
        }
        c.iter().for_each(|e| self.push(f(e)));
    }

    /// `n` nulls.
    fn push_nulls(&mut self, n: usize) {
        if self.valid.is_none() && self.present == 0 {
            self.nulls += n;
        } else {
            (0..n).for_each(|_| self.push(None));
        }
    }

    /// The rows of `o` after these, each value made `f` of it.
    fn append(&mut self, o: &OptCol<T>, f: impl Fn(T) -> T) {
        if o.present == 0 {
            self.push_nulls(o.len());
        } else if o.valid.is_none() {
            // Every row of `o` present.
            self.push_chunk(&o.values, |&v| Some(f(v)));
        } else if let Some(bits) = &o.valid {
            // `o` has values and nulls: this column has its validity from here on, and
            // takes `o`'s values and bits as they are (a null's value is the default).
            self.store_validity();
            if let Some(valid) = &mut self.valid {
                valid.extend_from_slice(bits.as_slice(), 0, bits.len());
            }
            self.values
                .extend(o.values.iter().enumerate().map(|(i, &v)| {
                    if bit(bits, i) {
                        f(v)
                    } else {
                        T::default()
                    }
                }));
            self.present += o.present;
        }
    }

    /// The validity stored from here on, as the first null after values or the first value
    /// after nulls stores it.
    fn store_validity(&mut self) {
        if self.valid.is_some() {
            return;
        }
        if self.present == 0 {
            self.values.resize(self.nulls, T::default());
            self.valid = Some(bits_of(false, self.nulls, self.values.capacity()));
            self.nulls = 0;
        } else {
            self.valid = Some(bits_of(true, self.values.len(), self.values.capacity()));
        }
    }

    /// The first value after nulls, or the first null after values: validity from here on.
    #[cold]
    #[inline(never)]
    fn push_first_other(&mut self, v: Option<T>) {
        if self.present == 0 && v.is_none() {
            self.nulls += 1;
            return;
        }
        // The first value after nulls (the nulls stored now), or the first null after values.
        if v.is_none() || self.nulls > 0 {
            self.store_validity();
        }
        if let Some(valid) = &mut self.valid {
            valid.push(v.is_some());
        }
        self.present += usize::from(v.is_some());
        self.values.push(v.unwrap_or_default());
    }

    fn get(&self, i: usize) -> Option<T> {
        if self.present == 0 {
            return None;
        }
        let v = *self.values.get(i)?;
        match &self.valid {
            Some(valid) if !bit(valid, i) => None,
            _ => Some(v),
        }
    }

    /// The values and their validity as a polars array.
    fn into_chunked<P: PolarsNumericType<Native = T>>(self, name: &str) -> ChunkedArray<P> {
        if self.nulls > 0 {
            return ChunkedArray::<P>::full_null(name.into(), self.nulls);
        }
        let OptCol { values, valid, .. } = self;
        match valid {
            None => ChunkedArray::<P>::from_vec(name.into(), values),
            Some(valid) => {
                // Our bits as polars' validity bitmap (one bit per row too).
                ChunkedArray::<P>::from_vec_validity(name.into(), values, Some(valid.freeze()))
            }
        }
    }

    /// As `into_chunked`, but a column null everywhere is a scalar null (no memory per row).
    fn into_column<P: PolarsNumericType<Native = T>>(self, name: &str) -> Column {
        if self.present == 0 && self.len() > 0 {
            return Column::full_null(name.into(), self.len(), &P::get_static_dtype());
        }
        self.into_chunked::<P>(name).into_column()
    }
}

/// Unsigned figures (heap sizes in K, GC ids) held as u32 while every one fits and widened to
/// u64 for good at the first that does not: heaps under 4 TB and ids under 4 G are the logs
/// there are, and 4 bytes a row less on each of four columns is a quarter of a JRockit frame.
/// The column is UInt32 or UInt64 accordingly; readers cast.
///
/// While every figure is one and the same (a JRockit heap that never resizes: its capacity
/// on every row), only the figure and the count are kept, and the column is a scalar one.
#[derive(Debug)]
enum WideCol {
    Same { v: u64, len: usize, cap: usize },
    Narrow(OptCol<u32>),
    Wide(OptCol<u64>),
}

impl Default for WideCol {
    fn default() -> Self {
        WideCol::with_capacity(0)
    }
}

impl WideCol {
    fn with_capacity(n: usize) -> Self {
        WideCol::Same {
            v: 0,
            len: 0,
            cap: n,
        }
    }

    #[inline]
    fn push(&mut self, v: Option<u64>) {
        match self {
            WideCol::Same { v: same, len, .. }
                if v == Some(*same) || (*len == 0 && v.is_some()) =>
            {
                *same = v.unwrap_or(0);
                *len += 1;
            }
            WideCol::Same { .. } => self.spread_with(v),
            WideCol::Narrow(c) => match v.map(u32::try_from) {
                None => c.push(None),
                Some(Ok(x)) => c.push(Some(x)),
                Some(Err(_)) => self.widen_with(v),
            },
            WideCol::Wide(c) => c.push(v),
        }
    }

    /// `push` of `f` of each of `c`: a chunk that keeps the column's shape in one step (see
    /// `ConstCol::push_chunk`).
    #[inline]
    fn push_chunk<E>(&mut self, c: &[E], f: impl Fn(&E) -> Option<u64>) {
        match self {
            WideCol::Same { v: same, len, .. } => {
                let Some(e0) = c.first() else { return };
                let want = if *len == 0 { f(e0) } else { Some(*same) };
                if let Some(w) = want {
                    if c.iter().fold(true, |all, e| all & (f(e) == Some(w))) {
                        *same = w;
                        *len += c.len();
                        return;
                    }
                }
            }
            WideCol::Narrow(col) if col.valid.is_none() && col.nulls == 0 => {
                if c.iter().fold(true, |all, e| {
                    all & f(e).is_some_and(|v| v <= u64::from(u32::MAX))
                }) {
                    // Each present and within u32: the casts keep them.
                    col.values
                        .extend(c.iter().map(|e| f(e).unwrap_or(0) as u32));
                    col.present += c.len();
                    return;
                }
            }
            WideCol::Narrow(col) if col.valid.is_none() && col.present == 0 => {
                // Null so far: a chunk null throughout is only counted.
                if c.iter().all(|e| f(e).is_none()) {
                    col.nulls += c.len();
                    return;
                }
            }
            WideCol::Narrow(_) => {}
            WideCol::Wide(col) => return col.push_chunk(c, f),
        }
        c.iter().for_each(|e| self.push(f(e)));
    }

    /// `n` nulls.
    fn push_nulls(&mut self, mut n: usize) {
        if n > 0 && matches!(self, WideCol::Same { .. }) {
            // The first null makes it a stored column.
            self.push(None);
            n -= 1;
        }
        match self {
            WideCol::Narrow(c) => c.push_nulls(n),
            WideCol::Wide(c) => c.push_nulls(n),
            WideCol::Same { .. } => {}
        }
    }

    fn len(&self) -> usize {
        match self {
            WideCol::Same { len, .. } => *len,
            WideCol::Narrow(c) => c.len(),
            WideCol::Wide(c) => c.len(),
        }
    }

    /// The rows of `o` after these.
    fn append(&mut self, o: &WideCol) {
        match o {
            WideCol::Same { v, len, .. } => {
                if let WideCol::Same {
                    v: same, len: mine, ..
                } = self
                {
                    if *mine == 0 || *same == *v {
                        *same = *v;
                        *mine += *len;
                        return;
                    }
                }
                (0..*len).for_each(|_| self.push(Some(*v)));
            }
            WideCol::Narrow(c) if c.present == 0 => self.push_nulls(c.len()),
            WideCol::Narrow(c) if c.valid.is_none() => {
                self.push_chunk(&c.values, |&x| Some(u64::from(x)));
            }
            WideCol::Wide(c) if c.valid.is_none() && c.present > 0 => {
                self.push_chunk(&c.values, |&x| Some(x));
            }
            // Values and nulls, into a column of the same width.
            WideCol::Narrow(c) if matches!(self, WideCol::Narrow(_)) => {
                if let WideCol::Narrow(mine) = self {
                    mine.append(c, |v| v);
                }
            }
            WideCol::Wide(c) if matches!(self, WideCol::Wide(_)) => {
                if let WideCol::Wide(mine) = self {
                    mine.append(c, |v| v);
                }
            }
            _ => (0..o.len()).for_each(|i| self.push(o.get(i))),
        }
    }

    /// The first figure that differs from the ones before (or the first null): those stored
    /// now, and this one pushed.
    #[cold]
    #[inline(never)]
    fn spread_with(&mut self, v: Option<u64>) {
        if let WideCol::Same { v: same, len, cap } = *self {
            let cap = cap.max(len + 1);
            *self = match u32::try_from(same) {
                Ok(x) => WideCol::Narrow(OptCol::filled(x, len, cap)),
                Err(_) => WideCol::Wide(OptCol::filled(same, len, cap)),
            };
        }
        self.push(v);
    }

    /// The first figure over u32: every one so far widened, and this one pushed.
    #[cold]
    #[inline(never)]
    fn widen_with(&mut self, v: Option<u64>) {
        if let WideCol::Narrow(c) = self {
            let OptCol {
                values,
                valid,
                present,
                nulls,
            } = std::mem::replace(c, OptCol::with_capacity(0));
            let mut wide = Vec::with_capacity(values.capacity());
            wide.extend(values.iter().map(|&x| u64::from(x)));
            *self = WideCol::Wide(OptCol {
                values: wide,
                valid,
                present,
                nulls,
            });
        }
        if let WideCol::Wide(c) = self {
            c.push(v);
        }
    }

    fn get(&self, i: usize) -> Option<u64> {
        match self {
            WideCol::Same { v, len, .. } => (i < *len).then_some(*v),
            WideCol::Narrow(c) => c.get(i).map(u64::from),
            WideCol::Wide(c) => c.get(i),
        }
    }

    fn into_column(self, name: &str) -> Column {
        match self {
            WideCol::Same { len: 0, .. } => {
                UInt32Chunked::from_vec(name.into(), Vec::new()).into_column()
            }
            WideCol::Same { v, len, .. } => match u32::try_from(v) {
                Ok(x) => scalar(name, AnyValue::UInt32(x), len),
                Err(_) => scalar(name, AnyValue::UInt64(v), len),
            },
            WideCol::Narrow(c) => c.into_column::<UInt32Type>(name),
            WideCol::Wide(c) => c.into_column::<UInt64Type>(name),
        }
    }
}

/// Builds a perf frame column by column, from records appended in batches (a large log is
/// parsed block by block and each block's records dropped once appended, so a log never
/// exists twice in memory).
#[derive(Debug, Default)]
pub struct PerfColumns {
    end_ms: Vec<i64>,
    total: Vec<f64>,
    java: OptCol<f64>,
    db: OptCol<f64>,
    calls: OptCol<u64>,
    op: Vec<u32>,
    ok: Vec<bool>,
    inconsistent: Vec<bool>,
    line: Vec<u32>,
    /// Nothing stored while no request failed (a null column), 4 bytes a row from the first.
    error: OptCol<u32>,
}

impl PerfColumns {
    pub fn with_capacity(n: usize) -> Self {
        PerfColumns {
            end_ms: Vec::with_capacity(n),
            total: Vec::with_capacity(n),
            java: OptCol::with_capacity(n),
            db: OptCol::with_capacity(n),
            calls: OptCol::with_capacity(n),
            op: Vec::with_capacity(n),
            ok: Vec::with_capacity(n),
            inconsistent: Vec::with_capacity(n),
            line: Vec::with_capacity(n),
            error: OptCol::with_capacity(n),
        }
    }

    pub fn len(&self) -> usize {
        self.end_ms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.end_ms.is_empty()
    }

    /// Append a record, its operation given as an id of the log being built and its line
    /// moved on by `line_offset` (the lines of the blocks before it).
    pub fn push(&mut self, r: &crate::model::PerfRecord, op: u32, line_offset: u64) {
        self.push_with(r, op, r.error, line_offset);
    }

    /// `push` for a record of a block whose strings are `ids` in the log being built: its
    /// operation and its error message both move to the log's ids.
    pub fn push_remapped(&mut self, r: &crate::model::PerfRecord, ids: &[u32], line_offset: u64) {
        let id = |s: u32| ids.get(s as usize).copied().unwrap_or(0);
        self.push_with(r, id(r.operation), r.error.map(id), line_offset);
    }

    fn push_with(
        &mut self,
        r: &crate::model::PerfRecord,
        op: u32,
        error: Option<u32>,
        line_offset: u64,
    ) {
        self.end_ms.push(r.end_ms);
        self.total.push(r.total_ms);
        self.java.push(r.java_ms);
        self.db.push(r.db_ms);
        self.calls.push(r.db_calls.map(u64::from));
        self.op.push(op);
        self.ok.push(r.ok);
        self.inconsistent.push(r.inconsistent);
        self.line
            .push(u32::try_from(r.line + line_offset).unwrap_or(u32::MAX));
        self.error.push(error);
    }

    pub fn finish(self, operations: Vec<String>) -> PolarsResult<PerfFrame> {
        Ok(PerfFrame {
            df: self.into_df()?,
            operations,
        })
    }

    /// The columns as a frame (one chunk per column; frames of blocks are stacked).
    pub fn into_df(self) -> PolarsResult<DataFrame> {
        let n = self.end_ms.len();
        DataFrame::new(
            n,
            vec![
                Int64Chunked::from_vec(perf::END_MS.into(), self.end_ms).into_column(),
                Float64Chunked::from_vec(perf::TOTAL_MS.into(), self.total).into_column(),
                self.java
                    .into_chunked::<Float64Type>(perf::JAVA_MS)
                    .into_column(),
                self.db
                    .into_chunked::<Float64Type>(perf::DB_MS)
                    .into_column(),
                self.calls
                    .into_chunked::<UInt64Type>(perf::DB_CALLS)
                    .into_column(),
                UInt32Chunked::from_vec(perf::OPERATION_ID.into(), self.op).into_column(),
                BooleanChunked::from_slice(perf::OK.into(), &self.ok).into_column(),
                BooleanChunked::from_slice(perf::INCONSISTENT.into(), &self.inconsistent)
                    .into_column(),
                UInt32Chunked::from_vec(perf::LINE.into(), self.line).into_column(),
                self.error.into_column::<UInt32Type>(perf::ERROR_ID),
            ],
        )
    }
}

/// One row per record of a performance log parsed in one piece.
pub fn perf_frame(log: &crate::model::PerfLog) -> PolarsResult<PerfFrame> {
    let mut c = PerfColumns::with_capacity(log.records.len());
    for r in &log.records {
        c.push(r, r.operation, 0);
    }
    c.finish(log.strings.list().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A column's contents as plain options (`get` row by row) and its polars shape.
    fn shape(c: Column) -> (bool, DataType, Vec<Option<String>>) {
        let scalar = matches!(c, Column::Scalar(_));
        let dtype = c.dtype().clone();
        let s = c.cast(&DataType::String).unwrap();
        let vals = s
            .as_materialized_series()
            .str()
            .unwrap()
            .iter()
            .map(|v| v.map(str::to_owned))
            .collect();
        (scalar, dtype, vals)
    }

    /// Runs of values drawn from a few (so that chunks of one value, chunks all null,
    /// nulls after values and values after nulls all come), some beyond u32 and ids beyond
    /// 127.
    fn values() -> impl Strategy<Value = Vec<Option<u64>>> {
        let v = prop_oneof![
            4 => Just(Some(7u64)),
            3 => Just(None),
            1 => Just(Some(3u64)),
            1 => Just(Some(200u64)),
            1 => Just(Some(1u64 << 40)),
        ];
        prop::collection::vec((v, 1usize..120), 0..12).prop_map(|runs| {
            runs.into_iter()
                .flat_map(|(v, n)| std::iter::repeat_n(v, n))
                .collect()
        })
    }

    proptest! {
        /// `push_chunk` over any cut of the rows into chunks builds the column that `push`
        /// row by row builds: the same values, the same shape (scalar or not, width).
        #[test]
        fn chunked_pushes_build_the_columns_row_pushes_build(
            vals in values(),
            cuts in prop::collection::vec(1usize..100, 1..8),
        ) {
            let mut chunks: Vec<&[Option<u64>]> = Vec::new();
            let (mut rest, mut k) = (&vals[..], 0);
            while !rest.is_empty() {
                let (a, b) = rest.split_at(cuts[k % cuts.len()].min(rest.len()));
                chunks.push(a);
                rest = b;
                k += 1;
            }
            let (mut w1, mut w2) = (WideCol::with_capacity(4), WideCol::with_capacity(4));
            let (mut o1, mut o2) = (OptCol::<u64>::with_capacity(4), OptCol::<u64>::with_capacity(4));
            let (mut c1, mut c2) = (ConstCol::<i8>::with_capacity(4), ConstCol::<i8>::with_capacity(4));
            let (mut i1, mut i2) = (IdCol::with_capacity(4), IdCol::with_capacity(4));
            let code = |v: &Option<u64>| v.map_or(-1, |x| (x % 100) as i8);
            let id = |v: &Option<u64>| v.map_or(0, |x| (x % 1000) as u32);
            for &v in &vals {
                w1.push(v);
                o1.push(v);
                c1.push(code(&v));
                i1.push(id(&v));
            }
            for c in &chunks {
                w2.push_chunk(c, |v| *v);
                o2.push_chunk(c, |v| *v);
                c2.push_chunk(c, code);
                i2.push_chunk(c, id);
            }
            // Each chunk a block's column of its own, appended (ids mapped one to one).
            let ids: Vec<u32> = (0..1000).collect();
            let (mut w3, mut o3) = (WideCol::with_capacity(4), OptCol::<u64>::with_capacity(4));
            let (mut c3, mut i3) = (ConstCol::<i8>::with_capacity(4), IdCol::with_capacity(4));
            for c in &chunks {
                let (mut w, mut o) = (WideCol::default(), OptCol::<u64>::default());
                let (mut k, mut i) = (ConstCol::<i8>::default(), IdCol::default());
                w.push_chunk(c, |v| *v);
                o.push_chunk(c, |v| *v);
                k.push_chunk(c, code);
                i.push_chunk(c, id);
                w3.append(&w);
                o3.append(&o, |v| v);
                c3.append(&k);
                i3.append(&i, &ids);
            }
            prop_assert_eq!(o1.len(), o2.len());
            prop_assert_eq!(o1.len(), o3.len());
            let want_w = shape(w1.into_column("x"));
            let want_o = shape(o1.into_column::<UInt64Type>("x"));
            let want_c = shape(c1.into_column::<Int8Type>("x", AnyValue::Int8));
            let want_i = shape(i1.into_column("x"));
            prop_assert_eq!(&want_w, &shape(w2.into_column("x")));
            prop_assert_eq!(&want_o, &shape(o2.into_column::<UInt64Type>("x")));
            prop_assert_eq!(&want_c, &shape(c2.into_column::<Int8Type>("x", AnyValue::Int8)));
            prop_assert_eq!(&want_i, &shape(i2.into_column("x")));
            prop_assert_eq!(&want_w, &shape(w3.into_column("x")));
            prop_assert_eq!(&want_o, &shape(o3.into_column::<UInt64Type>("x")));
            prop_assert_eq!(&want_c, &shape(c3.into_column::<Int8Type>("x", AnyValue::Int8)));
            prop_assert_eq!(&want_i, &shape(i3.into_column("x")));
        }
    }

    /// Every fixture's events cut into blocks of any size, each block's columns written as a
    /// streamed block's parser writes them and appended: the frame the events pushed give,
    /// with the blocks' invented GC ids numbered on.
    #[test]
    fn appended_blocks_make_the_frame_pushed_events_make() {
        let mut checked = 0;
        for (path, log, want) in crate::gc_fixture_logs() {
            let ids: Vec<u32> = (0..log.strings.len() as u32).collect();
            for size in [1, 2, 7, 300] {
                let mut c = GcColumns::with_capacity(0);
                let mut invented = 0;
                for chunk in log.events.chunks(size) {
                    // As a block would have them: numbered from 1 in the block.
                    let local: Vec<GcEvent> = chunk
                        .iter()
                        .map(|e| {
                            let mut e = e.clone();
                            if e.invented_id {
                                e.gc_id = e.gc_id.map(|g| g.saturating_sub(invented));
                            }
                            e
                        })
                        .collect();
                    let mut b = GcColumns::block();
                    b.push_settled(&local);
                    let events: Vec<GcEvent> = b.events().collect();
                    assert_eq!(
                        format!("{events:?}"),
                        format!("{local:?}"),
                        "rows as events"
                    );
                    c.append_block(&b, &ids, 0, invented);
                    invented += b.invented_max();
                }
                let got = c.finish(log.strings.list().to_vec()).unwrap();
                assert!(
                    got.df.equals_missing(&want.df),
                    "{}, blocks of {size}",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(checked >= 40, "{checked}");
    }

    #[test]
    fn figures_all_the_same_are_a_scalar_until_one_differs() {
        let col = |vals: &[Option<u64>]| -> (bool, DataType, Vec<Option<u64>>) {
            let mut w = WideCol::with_capacity(vals.len());
            for &v in vals {
                w.push(v);
            }
            let got: Vec<Option<u64>> = (0..vals.len()).map(|i| w.get(i)).collect();
            assert_eq!(got, vals, "get");
            let c = w.into_column("x");
            let scalar = matches!(c, Column::Scalar(_));
            let dtype = c.dtype().clone();
            let s = c.cast(&DataType::UInt64).unwrap();
            let back: Vec<Option<u64>> = s.as_materialized_series().u64().unwrap().iter().collect();
            (scalar, dtype, back)
        };
        let big = 1u64 << 40;
        let cases: [(&[Option<u64>], bool, DataType); 7] = [
            (&[Some(5), Some(5), Some(5)], true, DataType::UInt32),
            (&[Some(5), Some(5), Some(6)], false, DataType::UInt32),
            (&[Some(5), None, Some(5)], false, DataType::UInt32),
            (&[None, Some(5)], false, DataType::UInt32),
            (&[Some(big), Some(big)], true, DataType::UInt64),
            (&[Some(big), Some(1)], false, DataType::UInt64),
            (&[Some(1), Some(big), Some(1)], false, DataType::UInt64),
        ];
        for (vals, scalar, dtype) in cases {
            assert_eq!(col(vals), (scalar, dtype, vals.to_vec()), "{vals:?}");
        }
        assert_eq!(col(&[]).2, Vec::<Option<u64>>::new());
    }

    #[test]
    fn a_frame_put_in_time_order_keeps_every_row_and_shares_its_time_axis() {
        use crate::columns::Sink;
        // JRockit rows as a block edge can leave them: a later block beginning before the
        // one before it ended, by less than a restart. Starts 100, 99.5, 99.8 (a collection
        // and its pause at 99.5).
        let ev = |rec: Record, start: f64, heap: u64, line: u64| {
            let mut e = GcEvent::new(rec, Kind::Young, start, line);
            e.uptime_s = Some(start);
            e.heap_before_kb = Some(heap);
            e
        };
        let mut c = GcColumns::with_capacity(4);
        for e in [
            ev(Record::Pause, 100.0, 30, 1),
            ev(Record::Pause, 99.5, 10, 2),
            ev(Record::Collection, 99.5, 11, 3),
            ev(Record::Pause, 99.8, 20, 4),
        ] {
            Sink::push(&mut c, &e, &[0], 0);
        }
        Sink::sort_by_time(&mut c);
        let f = c.finish(vec![String::new()]).unwrap();
        let col = |name: &str| -> Vec<Option<f64>> {
            let c = f.df.column(name).unwrap().cast(&DataType::Float64).unwrap();
            c.as_materialized_series().f64().unwrap().iter().collect()
        };
        // By start, a collection before its pauses, then the log's order.
        assert_eq!(col(gc::LINE), [Some(3.0), Some(2.0), Some(4.0), Some(1.0)]);
        assert_eq!(
            col(gc::START_S),
            [Some(99.5), Some(99.5), Some(99.8), Some(100.0)]
        );
        assert_eq!(
            col(gc::HEAP_BEFORE_KB),
            [Some(11.0), Some(10.0), Some(20.0), Some(30.0)]
        );
        assert_eq!(col(gc::DURATION_MS), col(gc::START_S));
        // One run: the time axis is the start column itself, one buffer.
        let ptr = |name: &str| {
            let c =
                f.df.column(name)
                    .unwrap()
                    .as_materialized_series()
                    .f64()
                    .unwrap()
                    .clone();
            c.cont_slice().unwrap().as_ptr()
        };
        assert_eq!(ptr(gc::T_S), ptr(gc::START_S));
    }

    #[test]
    fn id_columns_are_one_byte_until_an_id_needs_more() {
        let ids = |c: IdCol, n: usize| -> (DataType, Vec<u32>) {
            let col = c.into_column("x");
            let v = col.cast(&DataType::UInt32).unwrap();
            let v = v.u32().unwrap().into_no_null_iter().collect();
            assert_eq!(col.len(), n);
            (col.dtype().clone(), v)
        };
        let mut c = IdCol::with_capacity(4);
        for v in [5, 5, 5] {
            c.push(v);
        }
        // One id everywhere: a scalar, Int8.
        assert_eq!(ids(c, 3), (DataType::Int8, vec![5, 5, 5]));
        let mut c = IdCol::with_capacity(4);
        for v in [0, 127, 3] {
            c.push(v);
        }
        c.set(0, 9);
        assert_eq!(c.get(0), 9);
        assert_eq!(ids(c, 3), (DataType::Int8, vec![9, 127, 3]));
        // 128 does not fit an i8: the ids before it are kept as u32.
        let mut c = IdCol::with_capacity(1);
        for v in [1, 2, 128, 70_000] {
            c.push(v);
        }
        assert_eq!(ids(c, 4), (DataType::UInt32, vec![1, 2, 128, 70_000]));
        // Widened by a change, not a push.
        let mut c = IdCol::with_capacity(2);
        c.push(4);
        c.push(4);
        c.set(1, 300);
        c.set(7, 1); // past the end: left alone
        assert_eq!(ids(c, 2), (DataType::UInt32, vec![4, 300]));
    }

    #[test]
    fn line_order_is_a_stable_sort_by_line() {
        // Dense with local swaps and ties (JRockit's time order), sparse, one row, none.
        let cases: Vec<Vec<u32>> = vec![
            vec![3, 1, 2, 2, 7, 5, 6, 4, 4, 9],
            vec![10, 4_000_000, 5, 5, u32::MAX, 0],
            vec![42],
            vec![],
        ];
        for line in cases {
            let mut want: Vec<u32> = (0..line.len() as u32).collect();
            want.sort_by_key(|&i| line[i as usize]);
            assert_eq!(line_order(&line), want, "{line:?}");
        }
        // By hand: lines 3 1 2 2 -> rows 1 (line 1), 2 and 3 (line 2, row order), 0 (line 3).
        assert_eq!(line_order(&[3, 1, 2, 2]), vec![1, 2, 3, 0]);
        // Only the rows below a line before them are held apart.
        assert_eq!(Displaced::of(&[3, 1, 2, 2]).skip, vec![1, 2, 3]);
        assert_eq!(Displaced::of(&[1, 2, 2, 5, 4, 6]).skip, vec![4]);
        assert!(Displaced::of(&[1, 1, 2]).skip.is_empty());
        // Generated: mostly in order with rows moved back or ahead, runs of ties, and rows
        // thrown anywhere.
        let mut next = crate::xorshift(7);
        for case in 0..300 {
            let n = next(200) as usize;
            let mut line: Vec<u32> = (0..n as u32).map(|i| i / (1 + case % 3)).collect();
            for _ in 0..next(1 + n as u64 / 4) {
                let (a, b) = (
                    next(n.max(1) as u64) as usize,
                    next(n.max(1) as u64) as usize,
                );
                if n > 0 {
                    line.swap(a, b);
                }
            }
            if case % 5 == 0 && n > 0 {
                let i = next(n as u64) as usize;
                line[i] = next(u32::MAX as u64) as u32;
            }
            let mut want: Vec<u32> = (0..n as u32).collect();
            want.sort_by_key(|&i| line[i as usize]);
            assert_eq!(line_order(&line), want, "{line:?}");
        }
    }

    fn line_order(line: &[u32]) -> Vec<u32> {
        let d = Displaced::of(line);
        d.order(line).map(|i| i as u32).collect()
    }

    #[test]
    fn durations_from_seconds_have_no_float_noise() {
        let log = crate::parse::hotspot::parse(
            b"0.206: [GC pause (G1 Evacuation Pause) (young), 0.0050319 secs]\n\
              0.220: [GC cleanup 41408K->41408K(128M), 0.0014223 secs]\n",
        );
        let f = gc_frame(&log).unwrap();
        let d = f.df.column(gc::DURATION_MS).unwrap().f64().unwrap().clone();
        assert_eq!(d.get(0).map(|v| v.to_string()), Some("5.0319".to_string()));
        assert_eq!(d.get(1).map(|v| v.to_string()), Some("1.4223".to_string()));
    }

    fn ev(record: Record, kind: Kind, up: Option<f64>, ms: f64, line: u64) -> GcEvent {
        GcEvent {
            uptime_s: up,
            ..GcEvent::new(record, kind, ms, line)
        }
    }

    fn is_scalar(f: &GcFrame, c: &str) -> bool {
        matches!(f.df.column(c).unwrap(), Column::Scalar(_))
    }

    #[test]
    fn codes_round_trip_and_are_the_documented_numbers() {
        for (i, r) in Record::ALL.iter().enumerate() {
            assert_eq!(
                (r.code() as usize, Record::from_code(r.code())),
                (i, Some(*r))
            );
        }
        for (i, k) in Kind::ALL.iter().enumerate() {
            assert_eq!(
                (k.code() as usize, Kind::from_code(k.code())),
                (i, Some(*k))
            );
        }
        assert_eq!((Record::Safepoint.code(), Kind::Full.code()), (3, 3));
        assert_eq!(
            (
                Record::Stall.code(),
                Record::Nested.code(),
                Record::from_code(6)
            ),
            (4, 5, None)
        );
        assert_eq!(Kind::from_code(8), None);
    }

    /// Codes, ids, nulls and the columns that cost nothing per row: a log without causes or
    /// dates, of one run, whose every event has an uptime.
    #[test]
    fn columns_are_codes_ids_and_scalars_where_one_value_fills_them() {
        let log = crate::parse::hotspot::parse(
            b"1.000: [GC [PSYoungGen: 100K->10K(200K)] 300K->210K(600K), 0.0100000 secs]\n\
              2.500: [Full GC [PSYoungGen: 100K->0K(200K)] 300K->150K(600K), 0.2000000 secs]\n",
        );
        let f = gc_frame(&log).unwrap();
        let df = &f.df;
        assert_eq!(df.height(), 2);
        let dt = |c: &str| df.column(c).unwrap().dtype().clone();
        assert_eq!(
            (dt(gc::RECORD), dt(gc::KIND)),
            (DataType::Int8, DataType::Int8)
        );
        // Two strings (PSYoungGen and none): one-byte ids.
        assert_eq!(dt(gc::COLLECTOR), DataType::Int8);
        assert_eq!(
            (dt(gc::LINE), dt(gc::RUN)),
            (DataType::UInt32, DataType::UInt32)
        );
        // Both are pauses, no cause, no date, one run: one value per column.
        for c in [gc::RECORD, gc::CAUSE, gc::WALL_MS, gc::RUN, gc::GC_ID] {
            assert!(is_scalar(&f, c), "{c}");
        }
        assert_eq!(df.column(gc::WALL_MS).unwrap().null_count(), 2);
        assert_eq!(
            df.column(gc::CAUSE).unwrap().get(1).unwrap(),
            AnyValue::Int8(0)
        );
        // Young then full.
        let kind = df.column(gc::KIND).unwrap().i8().unwrap().clone();
        assert_eq!((kind.get(0), kind.get(1)), (Some(0), Some(3)));
        let coll = df.column(gc::COLLECTOR).unwrap().clone();
        assert_eq!(
            f.decoded(df, gc::COLLECTOR).unwrap().get(0),
            Some(f.string(coll.get(0).unwrap().extract::<u32>().unwrap()))
        );
        assert_eq!(f.decoded(df, gc::KIND).unwrap().get(1), Some("full"));
        assert_eq!(f.decoded(df, gc::CAUSE).unwrap().null_count(), 2);
        // No validity where nothing is null; `t_s` is `start_s`'s own buffer.
        let start = df.column(gc::START_S).unwrap().f64().unwrap().clone();
        let t = df.column(gc::T_S).unwrap().f64().unwrap().clone();
        let (a, b) = (
            start.downcast_iter().next().unwrap(),
            t.downcast_iter().next().unwrap(),
        );
        assert!(a.validity().is_none());
        assert_eq!(a.values().as_ptr(), b.values().as_ptr());
        assert_eq!((t.get(0), t.get(1)), (Some(1.0), Some(2.5)));
        // Heap figures under 4 G K: 4 bytes a row.
        assert_eq!(
            df.column(gc::HEAP_AFTER_KB).unwrap().dtype(),
            &DataType::UInt32
        );
        let heap = df.column(gc::HEAP_AFTER_KB).unwrap().u32().unwrap().clone();
        assert_eq!((heap.get(0), heap.get(1)), (Some(210), Some(150)));
        let line = df.column(gc::LINE).unwrap().u32().unwrap().clone();
        assert_eq!((line.get(0), line.get(1)), (Some(1), Some(2)));
    }

    /// Nulls from the 100th event on (past a word of validity bits), a restart, events pushed
    /// out of line order, and lines past u32::MAX.
    #[test]
    fn validity_runs_and_time_axis_of_a_mixed_log() {
        let mut c = GcColumns::with_capacity(4);
        let strings = vec![String::new(), "G1".to_string()];
        // Events 0..100 at 100 + i s, 10 ms each, on lines 1..=100; event 100 has no uptime
        // and no heap; then the JVM restarts: events at 1 s and 2 s (lines 102, 103), pushed
        // second-last first.
        for i in 0..100u64 {
            let mut e = ev(
                Record::Pause,
                Kind::Young,
                Some(100.0 + i as f64),
                10.0,
                i + 1,
            );
            e.heap_after_kb = Some(i);
            e.collector = 1;
            c.push(&e, &[0, 1], 0);
        }
        c.push(
            &ev(Record::Concurrent, Kind::Other, None, 5.0, 101),
            &[0, 1],
            0,
        );
        c.push(
            &ev(Record::Pause, Kind::Young, Some(2.0), 20.0, 103),
            &[0, 1],
            0,
        );
        c.push(
            &ev(Record::Pause, Kind::Young, Some(1.0), 20.0, 102),
            &[0, 1],
            0,
        );
        // A line past u32::MAX is capped.
        c.push(
            &ev(Record::Safepoint, Kind::Other, Some(3.0), 1.0, 7),
            &[0, 1],
            u64::MAX,
        );
        assert_eq!(c.len(), 104);
        let f = c.finish(strings).unwrap();
        let df = &f.df;
        let heap = df.column(gc::HEAP_AFTER_KB).unwrap().u32().unwrap().clone();
        assert_eq!(
            (heap.get(99), heap.get(100), heap.get(101)),
            (Some(99), None, None)
        );
        assert_eq!(heap.null_count(), 4);
        let start = df.column(gc::START_S).unwrap().f64().unwrap().clone();
        assert_eq!((start.get(99), start.get(100)), (Some(199.0), None));
        let run = df.column(gc::RUN).unwrap().u32().unwrap().clone();
        let runs: Vec<Option<u32>> = [0, 99, 100, 101, 102, 103].map(|i| run.get(i)).to_vec();
        assert_eq!(runs, [0, 0, 0, 1, 1, 1].map(Some).to_vec());
        // Run 0 ends at 199.01 s: run 1's 1 s is 200.01 s on the axis.
        let t = df.column(gc::T_S).unwrap().f64().unwrap().clone();
        assert_eq!(t.get(100), None);
        assert!((t.get(102).unwrap() - 200.01).abs() < 1e-9);
        assert!((t.get(101).unwrap() - 201.01).abs() < 1e-9);
        let line = df.column(gc::LINE).unwrap().u32().unwrap().clone();
        assert_eq!(line.get(103), Some(u32::MAX));
        assert!(!is_scalar(&f, gc::RECORD) && !is_scalar(&f, gc::COLLECTOR));
        assert_eq!(f.decoded(df, gc::COLLECTOR).unwrap().get(100), None);
        assert_eq!(f.decoded(df, gc::COLLECTOR).unwrap().get(99), Some("G1"));
        assert_eq!(
            f.decoded(df, gc::RECORD).unwrap().get(103),
            Some("safepoint")
        );
    }

    /// The lead's streamed use: blocks with their own string tables and line numbers, mapped
    /// to the log's, give the frame of the log parsed in one piece.
    #[test]
    fn blocks_appended_with_ids_and_line_offsets_equal_the_one_piece_frame() {
        let a = "2012-01-01T10:00:00.000+0100: 1.000: [GC (Allocation Failure) [PSYoungGen: 10K->1K(20K)] 30K->21K(60K), 0.0100000 secs]\n\
                 2012-01-01T10:00:01.000+0100: 2.000: [Full GC (System.gc()) [PSYoungGen: 10K->0K(20K)] 30K->20K(60K), 0.0300000 secs]\n";
        let b = "Total time for which application threads were stopped: 0.0001000 seconds\n\
                 2012-01-01T10:00:03.000+0100: 3.000: [GC (System.gc()) [PSYoungGen: 10K->1K(20K)] 30K->21K(60K), 0.0200000 secs]\n";
        let whole = crate::parse::hotspot::parse(format!("{a}{b}").as_bytes());
        let want = gc_frame(&whole).unwrap();
        let mut strings = crate::model::Strings::default();
        let mut c = GcColumns::with_capacity(0);
        let mut lines = 0;
        for part in [a, b] {
            let block = crate::parse::hotspot::parse(part.as_bytes());
            let ids: Vec<u32> = block
                .strings
                .list()
                .iter()
                .map(|s| strings.intern(s))
                .collect();
            for e in &block.events {
                c.push(e, &ids, lines);
            }
            lines += block.lines;
        }
        let got = c.finish(strings.list().to_vec()).unwrap();
        assert_eq!(got.df.height(), 4);
        for name in [gc::COLLECTOR, gc::CAUSE, gc::NAME, gc::RECORD, gc::KIND] {
            let (g, w) = (
                got.decoded(&got.df, name).unwrap(),
                want.decoded(&want.df, name).unwrap(),
            );
            assert_eq!(
                g.iter().collect::<Vec<_>>(),
                w.iter().collect::<Vec<_>>(),
                "{name}"
            );
        }
        for name in [gc::START_S, gc::WALL_MS, gc::T_S, gc::DURATION_MS, gc::LINE] {
            let (g, w) = (got.df.column(name).unwrap(), want.df.column(name).unwrap());
            assert!(
                g.as_materialized_series()
                    .equals_missing(w.as_materialized_series()),
                "{name}"
            );
        }
        let line = got.df.column(gc::LINE).unwrap().u32().unwrap().clone();
        assert_eq!(line.get(2), Some(3));
    }

    /// A block pushed a column at a time makes the frame that pushing its events one by one
    /// makes: every column, with values that change a column's form (a scalar figure that
    /// starts to differ, nulls after values and values after nulls, an id past 127, a figure
    /// past u32) falling inside chunks and on their edges, in blocks of several sizes.
    #[test]
    fn a_block_pushed_a_column_at_a_time_equals_its_events_pushed_one_by_one() {
        let mut next = crate::xorshift(0x2545_f491_4f6c_dd1du64);
        let n = 3000usize;
        let events: Vec<GcEvent> = (0..n)
            .map(|i| {
                let rec = Record::ALL[next(Record::ALL.len() as u64) as usize];
                let mut e = GcEvent::new(
                    rec,
                    Kind::ALL[next(8) as usize],
                    next(10_000) as f64 / 7.0,
                    i as u64 + 1,
                );
                // Uptimes from row 10, wall clocks until row 700, TTSP on some safepoints.
                e.uptime_s = (i >= 10).then(|| i as f64 * 0.5 + next(100) as f64 / 1000.0);
                e.wall_ms = (i < 700).then(|| 1_600_000_000_000 + i as i64);
                e.ttsp_ms =
                    (rec == Record::Safepoint && next(2) == 0).then(|| next(1000) as f64 / 3.0);
                // Ids past 127 from row 1500; the heap total the same until row 257, then
                // some nulls; heap before past u32 from row 2049.
                e.collector = if i < 1500 {
                    next(4) as u32
                } else {
                    next(200) as u32
                };
                e.cause = next(3) as u32;
                e.name = (i % 7) as u32;
                e.heap_total_kb = if i < 257 {
                    Some(4096)
                } else if next(9) == 0 {
                    None
                } else {
                    Some(next(1 << 20))
                };
                e.heap_before_kb = Some(if i > 2048 {
                    (1u64 << 33) + next(99)
                } else {
                    next(1 << 30)
                });
                e.heap_after_kb = (i % 300 != 299).then(|| next(1 << 20));
                e.young_before_kb = (i >= 512).then(|| next(1 << 16));
                e.young_after_kb = None;
                e.promoted_kb = (i == 1000).then_some(12);
                e.flags = if i == 2999 {
                    crate::model::FLAG_PROMOTION_FAILED
                } else {
                    0
                };
                e.gc_id = (next(4) != 0).then_some(i as u64);
                e.in_collection = next(3) == 0;
                e
            })
            .collect();
        let ids: Vec<u32> = (0..256).map(|i| (i * 3) % 250).collect();
        let strings: Vec<String> = (0..250).map(|i| format!("s{i}")).collect();
        let mut one = GcColumns::with_capacity(0);
        for e in &events {
            one.push(e, &ids, 40);
        }
        let want = one.finish(strings.clone()).unwrap();
        for block in [1usize, 255, 256, 257, 1000, n] {
            let mut c = GcColumns::with_capacity(0);
            for b in events.chunks(block) {
                c.push_block(b, &ids, 40);
            }
            let got = c.finish(strings.clone()).unwrap();
            assert_eq!(got.df.height(), n);
            assert_eq!(got.df.get_column_names(), want.df.get_column_names());
            for name in want.df.get_column_names() {
                let (g, w) = (got.df.column(name).unwrap(), want.df.column(name).unwrap());
                assert_eq!(g.dtype(), w.dtype(), "{name} in blocks of {block}");
                assert!(
                    g.as_materialized_series()
                        .equals_missing(w.as_materialized_series()),
                    "{name} in blocks of {block}"
                );
            }
        }
    }

    /// A heap figure over 4 G K widens its column to u64 for good: the figures before it,
    /// their nulls and the ones after keep their values.
    #[test]
    fn heap_figures_widen_past_u32() {
        let mut c = GcColumns::with_capacity(4);
        let big = (1u64 << 40) + 3;
        for (i, h) in [Some(7u64), None, Some(big), Some(9)]
            .into_iter()
            .enumerate()
        {
            let mut e = GcEvent::new(Record::Pause, Kind::Young, 1.0, i as u64 + 1);
            e.uptime_s = Some(i as f64);
            e.heap_after_kb = h;
            c.push(&e, &[0], 0);
        }
        let f = c.finish(vec![String::new()]).unwrap();
        let col = f.df.column(gc::HEAP_AFTER_KB).unwrap();
        assert_eq!(col.dtype(), &DataType::UInt64);
        let ca = col.u64().unwrap();
        let v: Vec<Option<u64>> = (0..ca.len()).map(|i| ca.get(i)).collect();
        assert_eq!(v, vec![Some(7), None, Some(big), Some(9)]);
    }
}

#[cfg(test)]
mod gc_id_tests {
    use super::*;

    /// A column's values as u64 (whatever width it was stored in).
    fn u64s(f: &GcFrame, name: &str) -> Vec<Option<u64>> {
        let s = f.df.column(name).unwrap().as_materialized_series();
        let s = s.cast(&DataType::UInt64).unwrap();
        let ca = s.u64().unwrap();
        (0..ca.len()).map(|i| ca.get(i)).collect()
    }

    /// An id the parser invented is kept where it links (a collection and the pauses it
    /// itemises) and dropped on a pause that stands alone; an id the log wrote is kept always.
    #[test]
    fn invented_ids_kept_only_where_they_link() {
        let mut c = GcColumns::with_capacity(5);
        // (record, gc_id, invented, in_collection) -> expected gc_id
        let rows = [
            (Record::Pause, Some(1), true, false, None),
            (Record::Collection, Some(2), true, false, Some(2)),
            (Record::Pause, Some(2), true, true, Some(2)),
            (Record::Pause, Some(7), false, false, Some(7)),
            (Record::Pause, None, false, false, None),
        ];
        for (i, (record, id, invented, in_collection, _)) in rows.iter().enumerate() {
            let mut e = GcEvent::new(*record, Kind::Young, 1.0, i as u64 + 1);
            e.uptime_s = Some(i as f64);
            e.gc_id = *id;
            e.invented_id = *invented;
            e.in_collection = *in_collection;
            c.push(&e, &[0], 0);
        }
        let f = c.finish(vec![String::new()]).unwrap();
        let got = u64s(&f, gc::GC_ID);
        let want: Vec<Option<u64>> = rows.iter().map(|r| r.4).collect();
        assert_eq!(got, want);
    }

    /// A column null so far takes a chunk null throughout as a count, and values after it
    /// land in their rows.
    #[test]
    fn a_null_chunk_then_values() {
        let mut c = GcColumns::with_capacity(0);
        let n = PUSH_CHUNK + 3;
        let events: Vec<GcEvent> = (0..n)
            .map(|i| {
                let mut e = GcEvent::new(Record::Pause, Kind::Young, 1.0, i as u64 + 1);
                e.uptime_s = Some(i as f64);
                e.promoted_kb = (i > PUSH_CHUNK).then_some(i as u64);
                e
            })
            .collect();
        c.push_block(&events, &[0], 0);
        let f = c.finish(vec![String::new()]).unwrap();
        let got = u64s(&f, gc::PROMOTED_KB);
        let want: Vec<Option<u64>> = (0..n)
            .map(|i| (i > PUSH_CHUNK).then_some(i as u64))
            .collect();
        assert_eq!(got, want);
    }
}

#[cfg(test)]
mod run_order_tests {
    use super::*;
    use crate::columns::Sink;

    fn ev(rec: Record, start: f64, line: u64) -> GcEvent {
        let mut e = GcEvent::new(rec, Kind::Young, 1.0, line);
        e.uptime_s = Some(start);
        e
    }

    /// Columns of (record, start, line) rows pushed as the joiner pushes them; `sort`: the
    /// time order asked for.
    fn columns(rows: &[(Record, f64, u64)], sort: bool) -> GcColumns {
        let mut c = GcColumns::with_capacity(rows.len());
        for &(rec, start, line) in rows {
            Sink::push(&mut c, &ev(rec, start, line), &[0], 0);
        }
        if sort {
            Sink::sort_by_time(&mut c);
        }
        c
    }

    fn lines(f: &GcFrame) -> Vec<Option<u32>> {
        let s = f.df.column(gc::LINE).unwrap().as_materialized_series();
        let ca = s.u32().unwrap();
        (0..ca.len()).map(|i| ca.get(i)).collect()
    }

    /// A JRockit log the JVM wrote twice (a restart at line 4: uptime 200 -> 5), read in
    /// blocks: the joiner saw time go back and asked for the time order. Each run is put in
    /// order on its own (the collection at 99.5 before its pause, before 100) and the second
    /// run follows the first: by start alone, line 4 (5 s) and 5 (6 s) came first.
    #[test]
    fn time_order_keeps_the_runs_apart() {
        let c = columns(
            &[
                (Record::Pause, 100.0, 1),
                (Record::Collection, 99.5, 2),
                (Record::Pause, 200.0, 3),
                (Record::Pause, 5.0, 4),
                (Record::Pause, 6.0, 5),
            ],
            true,
        );
        let f = c.finish(vec![String::new()]).unwrap();
        assert_eq!(
            lines(&f),
            [Some(2), Some(1), Some(3), Some(4), Some(5)],
            "{:?}",
            f.df
        );
        let run = f.df.column(gc::RUN).unwrap().as_materialized_series();
        let run: Vec<Option<u32>> = run.u32().unwrap().iter().collect();
        assert_eq!(run, [Some(0), Some(0), Some(0), Some(1), Some(1)]);
    }

    /// A log parsed in one piece comes ordered by the JRockit parser by start across the
    /// whole log, the runs in one another (lines 3, 4 of the second run, at 5 and 6 s,
    /// before lines 1, 2 of the first): the frame puts the runs one after another and keeps
    /// the parser's order within each.
    #[test]
    fn rows_ordered_across_runs_are_put_run_after_run() {
        let c = columns(
            &[
                (Record::Pause, 5.0, 3),
                (Record::Pause, 6.0, 4),
                (Record::Pause, 100.0, 1),
                (Record::Pause, 200.0, 2),
            ],
            false,
        );
        let f = c.finish(vec![String::new()]).unwrap();
        assert_eq!(lines(&f), [Some(1), Some(2), Some(3), Some(4)]);
    }

    /// Runs already one after another and each in time order: nothing is taken.
    #[test]
    fn rows_in_order_are_left_as_they_are() {
        let c = columns(
            &[
                (Record::Pause, 100.0, 1),
                (Record::Pause, 200.0, 2),
                (Record::Pause, 5.0, 3),
                (Record::Pause, 6.0, 4),
            ],
            true,
        );
        let run = runs(&c.line, &c.start_s);
        assert!(run.is_some());
        assert!(c.order(run.as_deref()).is_none());
    }

    /// The check on every core answers as the walk: logs of three pieces and more, with a
    /// restart inside a piece, one at a piece's first row (back from the piece before), a
    /// step back the walk does not take for a restart (0.5 s, or above half), and lines out
    /// of order (the walk decides).
    #[test]
    fn restarts_found_on_every_core_as_by_the_walk() {
        let n = 3 * BACK_PIECE + 7;
        let col = |u: &[f64]| OptCol {
            values: u.to_vec(),
            valid: None,
            present: u.len(),
            nulls: 0,
        };
        let line: Vec<u32> = (1..=n as u32).collect();
        let rising: Vec<f64> = (0..n).map(|i| 10.0 + i as f64).collect();
        let mut cases: Vec<(Vec<u32>, Vec<f64>, bool)> =
            vec![(line.clone(), rising.clone(), false)];
        // Back to 0 inside the second piece, and at the third's first row: a new run each.
        for at in [BACK_PIECE + 100, 2 * BACK_PIECE] {
            let mut u = rising.clone();
            u.iter_mut()
                .skip(at)
                .enumerate()
                .for_each(|(k, x)| *x = k as f64);
            cases.push((line.clone(), u, true));
        }
        // 0.5 s back at a piece's first row, and back to above half: the same run.
        let mut u = rising.clone();
        u[BACK_PIECE] = u[BACK_PIECE - 1] - 0.5;
        cases.push((line.clone(), u, false));
        let mut u = rising.clone();
        let top = u[2 * BACK_PIECE - 1];
        u.iter_mut()
            .skip(2 * BACK_PIECE)
            .enumerate()
            .for_each(|(k, x)| *x = top * 0.6 + k as f64);
        cases.push((line.clone(), u, false));
        // Lines out of order across a piece edge, uptimes back there: a restart in line order?
        // The walk says.
        let mut l = line.clone();
        l.swap(BACK_PIECE - 1, BACK_PIECE);
        let mut u = rising.clone();
        u.iter_mut()
            .skip(BACK_PIECE)
            .enumerate()
            .for_each(|(k, x)| *x = k as f64);
        cases.push((l, u, true));
        // JRockit's time order: every 1000th collection printed after the five inside it
        // (its start 6 s before the line above it) and pushed before them, so that rows are
        // displaced all through the log; two more where a piece would start.
        let is_late = |i: usize| i % 1000 == 999 || i == BACK_PIECE + 2 || i == 2 * BACK_PIECE + 2;
        let mut ev: Vec<(u32, f64)> = (0..n)
            .map(|i| {
                let late = is_late(i);
                (i as u32 + 1, 10.0 + i as f64 - if late { 6.0 } else { 0.0 })
            })
            .collect();
        for i in (0..n).filter(|&i| is_late(i)) {
            ev[i - 5..=i].rotate_right(1);
        }
        let (l, u): (Vec<u32>, Vec<f64>) = ev.iter().copied().unzip();
        cases.push((l.clone(), u.clone(), false));
        // The same, the JVM restarted halfway (uptimes from 0 again).
        let u: Vec<f64> = u
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                if i >= n / 2 {
                    x - 10.0 - n as f64 / 2.0 + 20.0
                } else {
                    x
                }
            })
            .collect();
        cases.push((l, u, true));
        for (i, (l, u, restart)) in cases.iter().enumerate() {
            let up = col(u);
            let d = Displaced::of(l);
            let walked = runs_walked(l, &up, &d);
            assert_eq!(walked.is_some(), *restart, "case {i}");
            // Where there is no restart, the check on every core says so alone; where there
            // is one, it leaves the log to the walk.
            assert_eq!(may_go_back(l, &up, &d), *restart, "case {i}");
            assert_eq!(runs(l, &up), walked, "case {i}");
        }
    }
}
