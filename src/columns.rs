//! Rows into columns: a block's records go into arrow builders as they are parsed
//! (`GcColumns`); each block's columns are frozen, on the thread pool, into compact polars
//! columns (`Chunk`), which are appended in log order as they come back (`LogColumns`,
//! `Appended`): when the log ends, its frame (`frame`) is there. Performance logs the same way
//! (`PerfColumns`).
//!
//! Parsers write their settled rows here and the joiner hands over each block; nothing here
//! reads a log's text.

use crate::frame::{gc, perf, GcFrame, IdReader, Num, PerfFrame, UCol};
use crate::model::{round, GcEvent, GcLog, Kind, Record, Rows};
use crate::parse::family::GcFormat;
use polars::prelude::*;
use polars_arrow::array::{MutableArray, MutablePrimitiveArray};
use polars_arrow::bitmap::{Bitmap, BitmapBuilder, MutableBitmap};
use polars_arrow::types::NativeType;
use rayon::prelude::*;

/// How a block's rows become the log's: its string ids mapped through `ids` (an id outside
/// it becomes 0, none), its lines moved on by `line_offset`, the GC ids its parser invented
/// by `invented_offset` (numbered on from the blocks before).
#[derive(Debug, Clone, Default)]
pub struct Join {
    pub ids: Vec<u32>,
    pub line_offset: u64,
    pub invented_offset: u64,
}

impl Join {
    /// A log's own rows: ids and lines as they are.
    pub fn own(strings: usize) -> Self {
        Join {
            ids: (0..strings as u32).collect(),
            ..Join::default()
        }
    }

    /// The log's id of the block's string id `i` (0, none, outside `ids`).
    pub fn id(&self, i: u32) -> u32 {
        self.ids.get(i as usize).copied().unwrap_or(0)
    }
}

/// Where joined blocks go, in log order.
pub trait Sink {
    /// A block's rows: the columns its parser settled them in (if any), then its events.
    /// Returns an emptied event buffer to reuse, if there is one.
    fn push_block(
        &mut self,
        cols: Option<GcColumns>,
        events: Vec<GcEvent>,
        join: Join,
    ) -> Option<Vec<GcEvent>>;
    /// Rows pushed so far.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The rows are to be put in the JRockit parser's time order (see `Joiner::finish`).
    fn sort_by_time(&mut self);
    /// The first `upto` rows without a collector (safepoints aside) ran under `id`
    /// (`model::fill_collector`).
    fn fill_collector(&mut self, upto: usize, id: u32);
    /// The family's log-wide rules (`Family::end_of_log`), over the log's rows.
    fn end_of_log(&mut self, format: GcFormat, log: &GcLog);
}

/// A block's rows as its parser settles them, one arrow builder a column, each figure as
/// wide as the model has it (a block is a few thousand rows: narrowing waits for `freeze`).
#[derive(Debug, Default)]
pub struct GcColumns {
    record: Vec<i8>,
    kind: Vec<i8>,
    collector: Vec<u32>,
    cause: Vec<u32>,
    name: Vec<u32>,
    start_s: MutablePrimitiveArray<f64>,
    wall_ms: MutablePrimitiveArray<i64>,
    /// As logged, rounded (`round_ms`) as the block is frozen, on the stream's workers; a
    /// family rule's own (a cycle's pauses summed) rounded as it is set.
    duration: Vec<f64>,
    ttsp: MutablePrimitiveArray<f64>,
    heap_before: MutablePrimitiveArray<u64>,
    heap_after: MutablePrimitiveArray<u64>,
    heap_total: MutablePrimitiveArray<u64>,
    young_before: MutablePrimitiveArray<u64>,
    young_after: MutablePrimitiveArray<u64>,
    promoted: MutablePrimitiveArray<u64>,
    flags: Vec<i8>,
    gc_id: MutablePrimitiveArray<u64>,
    in_collection: MutableBitmap,
    /// Which GC ids the parser invented (numbered on, or dropped, when joined).
    invented: MutableBitmap,
    line: Vec<u64>,
    /// Empty until a row has an offset: most logs write none, and their blocks then hold
    /// nothing for it (`no_offset` counts the rows before the first that has one).
    utc_offset_qh: MutablePrimitiveArray<i8>,
    no_offset: usize,
}

impl GcColumns {
    /// Room for `rows` rows in every column: the pages are only touched as rows come.
    pub fn with_capacity(rows: usize) -> Self {
        GcColumns {
            record: Vec::with_capacity(rows),
            kind: Vec::with_capacity(rows),
            collector: Vec::with_capacity(rows),
            cause: Vec::with_capacity(rows),
            name: Vec::with_capacity(rows),
            start_s: MutablePrimitiveArray::with_capacity(rows),
            wall_ms: MutablePrimitiveArray::with_capacity(rows),
            duration: Vec::with_capacity(rows),
            ttsp: MutablePrimitiveArray::with_capacity(rows),
            heap_before: MutablePrimitiveArray::with_capacity(rows),
            heap_after: MutablePrimitiveArray::with_capacity(rows),
            heap_total: MutablePrimitiveArray::with_capacity(rows),
            young_before: MutablePrimitiveArray::with_capacity(rows),
            young_after: MutablePrimitiveArray::with_capacity(rows),
            promoted: MutablePrimitiveArray::with_capacity(rows),
            flags: Vec::with_capacity(rows),
            gc_id: MutablePrimitiveArray::with_capacity(rows),
            in_collection: MutableBitmap::with_capacity(rows),
            invented: MutableBitmap::with_capacity(rows),
            line: Vec::with_capacity(rows),
            // Room is made when a row has an offset (`push_events`).
            utc_offset_qh: MutablePrimitiveArray::new(),
            no_offset: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.line.len()
    }

    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// Append events, string ids and lines as the parser gave them, a column at a time
    /// (the events a parser settles at once, a few hundred KB, stay in the cache while each
    /// column's pass reads them).
    pub fn push_events(&mut self, events: &[GcEvent]) {
        // Codes are 0..=7 and flags bits below 0x80: an i8 holds them unchanged.
        self.record
            .extend(events.iter().map(|e| e.record.code() as i8));
        self.kind.extend(events.iter().map(|e| e.kind.code() as i8));
        self.collector.extend(events.iter().map(|e| e.collector));
        self.cause.extend(events.iter().map(|e| e.cause));
        self.name.extend(events.iter().map(|e| e.name));
        push_opt(&mut self.start_s, events, |e| e.uptime_s);
        push_opt(&mut self.wall_ms, events, |e| e.wall_ms);
        self.duration.extend(events.iter().map(|e| e.duration_ms));
        push_opt(&mut self.ttsp, events, |e| e.ttsp_ms);
        push_opt(&mut self.heap_before, events, |e| e.heap_before_kb);
        push_opt(&mut self.heap_after, events, |e| e.heap_after_kb);
        push_opt(&mut self.heap_total, events, |e| e.heap_total_kb);
        push_opt(&mut self.young_before, events, |e| e.young_before_kb);
        push_opt(&mut self.young_after, events, |e| e.young_after_kb);
        push_opt(&mut self.promoted, events, |e| e.promoted_kb);
        self.flags
            .extend(events.iter().map(|e| (e.flags & 0x7f) as i8));
        push_opt(&mut self.gc_id, events, |e| e.gc_id);
        events.iter().for_each(|e| {
            self.in_collection.push(e.in_collection);
            self.invented.push(e.invented_id);
        });
        self.line.extend(events.iter().map(|e| e.line));
        if self.utc_offset_qh.len() == 0 && events.iter().all(|e| e.utc_offset_qh.is_none()) {
            self.no_offset += events.len();
        } else {
            if self.utc_offset_qh.len() == 0 {
                self.utc_offset_qh.reserve(self.line.capacity());
                self.utc_offset_qh
                    .extend_constant(std::mem::take(&mut self.no_offset), None);
            }
            push_opt(&mut self.utc_offset_qh, events, |e| e.utc_offset_qh);
        }
    }

    /// Row `i` as an event, as the parser gave it.
    fn row(&self, i: usize) -> GcEvent {
        let record = Record::from_code(self.record[i] as u8).unwrap_or(Record::Pause);
        let kind = Kind::from_code(self.kind[i] as u8).unwrap_or(Kind::Other);
        let mut e = GcEvent::new(record, kind, self.duration[i], self.line[i]);
        e.collector = self.collector[i];
        e.cause = self.cause[i];
        e.name = self.name[i];
        e.uptime_s = opt(&self.start_s, i);
        e.wall_ms = opt(&self.wall_ms, i);
        // Null past the builder's end: the rows before the first with an offset, or all.
        e.utc_offset_qh = opt(&self.utc_offset_qh, i);
        e.ttsp_ms = opt(&self.ttsp, i);
        e.heap_before_kb = opt(&self.heap_before, i);
        e.heap_after_kb = opt(&self.heap_after, i);
        e.heap_total_kb = opt(&self.heap_total, i);
        e.young_before_kb = opt(&self.young_before, i);
        e.young_after_kb = opt(&self.young_after, i);
        e.promoted_kb = opt(&self.promoted, i);
        e.flags = self.flags[i] as u8;
        e.gc_id = opt(&self.gc_id, i);
        e.in_collection = self.in_collection.get(i);
        e.invented_id = self.invented.get(i);
        e
    }

    /// The rows as events, as the parser gave them.
    pub fn events(&self) -> impl Iterator<Item = GcEvent> + '_ {
        (0..self.len()).map(|i| self.row(i))
    }

    /// Each row's JRockit sort key: its start, and whether it is a collection.
    pub fn for_each_key(&self, mut f: impl FnMut(Option<f64>, bool)) {
        let collection = Record::Collection.code() as i8;
        for (i, &r) in self.record.iter().enumerate() {
            f(opt(&self.start_s, i), r == collection);
        }
    }

    /// The highest GC id the parser invented in a block (0: none).
    pub fn invented_max(&self) -> u64 {
        (0..self.len())
            .filter(|&i| self.invented.get(i))
            .filter_map(|i| opt(&self.gc_id, i))
            .max()
            .unwrap_or(0)
    }

    /// The block's rows as the log's (`join`), each column as compact as its values allow.
    fn freeze(self, join: &Join) -> Chunk {
        let pause = Record::Pause.code() as i8;
        let ids = |v: Vec<u32>| v.into_iter().map(|i| join.id(i)).collect::<Vec<_>>();
        let duration: Vec<f64> = self.duration.into_iter().map(round_ms).collect();
        let mut ttsp = self.ttsp;
        if MutableArray::validity(&ttsp).is_none_or(|v| v.set_bits() > 0) {
            ttsp.apply_values(|v| v.iter_mut().for_each(|x| *x = round_ms(*x)));
        }
        // An id the JRockit parser invented links itemised pauses to their collection; on
        // a collection nothing itemises it links nothing and is not the log's: null, as
        // the export says of ids (and 4 bytes a row off a JRockit 1.4.2 frame, a tenth).
        let gc_id: MutablePrimitiveArray<u64> = if self.invented.set_bits() == 0 {
            self.gc_id
        } else {
            (0..self.line.len())
                .map(|i| {
                    let g = opt(&self.gc_id, i);
                    if !self.invented.get(i) {
                        g
                    } else if self.record[i] == pause && !self.in_collection.get(i) {
                        None
                    } else {
                        g.map(|g| g.saturating_add(join.invented_offset))
                    }
                })
                .collect()
        };
        let line: Vec<u32> = self
            .line
            .iter()
            .map(|&l| line_at(l, join.line_offset))
            .collect();
        let steps = Steps::of(&line, |i| opt(&self.start_s, i));
        let offsets_qh = if self.utc_offset_qh.len() == 0 {
            Column::full_null(gc::UTC_OFFSET_QH.into(), self.line.len(), &DataType::Int8)
        } else {
            offsets(gc::UTC_OFFSET_QH, self.utc_offset_qh)
        };
        Chunk {
            cols: vec![
                codes(gc::RECORD, self.record),
                codes(gc::KIND, self.kind),
                id_column(gc::COLLECTOR, ids(self.collector)),
                id_column(gc::CAUSE, ids(self.cause)),
                id_column(gc::NAME, ids(self.name)),
                optional::<Float64Type>(gc::START_S, self.start_s),
                optional::<Int64Type>(gc::WALL_MS, self.wall_ms),
                Float64Chunked::from_vec(gc::DURATION_MS.into(), duration).into_column(),
                optional::<Float64Type>(gc::TTSP_MS, ttsp),
                figures(gc::HEAP_BEFORE_KB, self.heap_before),
                figures(gc::HEAP_AFTER_KB, self.heap_after),
                figures(gc::HEAP_TOTAL_KB, self.heap_total),
                figures(gc::YOUNG_BEFORE_KB, self.young_before),
                figures(gc::YOUNG_AFTER_KB, self.young_after),
                figures(gc::PROMOTED_KB, self.promoted),
                codes(gc::FLAGS, self.flags),
                figures(gc::GC_ID, gc_id),
                flag(gc::IN_COLLECTION, self.in_collection),
                UInt32Chunked::from_vec(gc::LINE.into(), line).into_column(),
                offsets_qh,
            ],
            steps,
        }
    }
}

/// `f` of each event onto a builder: a run all present (most figures of most logs) as
/// values alone, a run all missing (a log without dates) as nulls alone; pushed one by one,
/// each value's validity was a third of the columns' time.
fn push_opt<T: NativeType>(
    a: &mut MutablePrimitiveArray<T>,
    events: &[GcEvent],
    f: impl Fn(&GcEvent) -> Option<T>,
) {
    let some = events.iter().filter(|e| f(e).is_some()).count();
    if some == events.len() {
        a.extend_trusted_len_values(events.iter().map(|e| f(e).unwrap_or_default()));
    } else if some == 0 {
        a.extend_constant(events.len(), None);
    } else {
        a.extend_trusted_len(events.iter().map(f));
    }
}

/// Value `i` of a builder (null past the end).
fn opt<T: NativeType>(a: &MutablePrimitiveArray<T>, i: usize) -> Option<T> {
    let v = *a.values().get(i)?;
    a.is_valid(i).then_some(v)
}

/// The columns a chunk holds, in this order: the frame's but `t_s` and `run`, which the
/// whole log gives (see `LogColumns::finish`).
const STORED: [&str; 20] = [
    gc::RECORD,
    gc::KIND,
    gc::COLLECTOR,
    gc::CAUSE,
    gc::NAME,
    gc::START_S,
    gc::WALL_MS,
    gc::DURATION_MS,
    gc::TTSP_MS,
    gc::HEAP_BEFORE_KB,
    gc::HEAP_AFTER_KB,
    gc::HEAP_TOTAL_KB,
    gc::YOUNG_BEFORE_KB,
    gc::YOUNG_AFTER_KB,
    gc::PROMOTED_KB,
    gc::FLAGS,
    gc::GC_ID,
    gc::IN_COLLECTION,
    gc::LINE,
    // Last: `timeline` takes the columns before it by their place.
    gc::UTC_OFFSET_QH,
];

/// Where a stored column is in `STORED`.
fn at(name: &str) -> usize {
    STORED.iter().position(|&s| s == name).unwrap_or(0)
}

/// The type a stored column takes when its chunks' types differ (ids Int8 or UInt32,
/// figures UInt32 or UInt64: the wider).
fn wide_type(name: &str) -> DataType {
    match name {
        gc::COLLECTOR | gc::CAUSE | gc::NAME => DataType::UInt32,
        _ => DataType::UInt64,
    }
}

/// A block's rows as the log's, frozen: one polars column a stored column (`STORED`), each a
/// scalar where one value fills it (a JRockit heap that never resizes, a log without causes),
/// a null scalar where no row has a value, ids one byte a row while below 128, figures four
/// while below 2^32; with its uptimes' `Steps` in line order (`None`: no rows).
#[derive(Debug, Clone)]
pub struct Chunk {
    cols: Vec<Column>,
    steps: Option<Steps>,
}

fn scalar(name: &str, v: AnyValue<'static>, n: usize) -> Column {
    Column::new_scalar(name.into(), Scalar::new(v.dtype(), v), n)
}

/// Codes (record, kind, flags): a scalar while one.
fn codes(name: &str, v: Vec<i8>) -> Column {
    match v.first() {
        Some(&c) if v.iter().all(|&x| x == c) => scalar(name, AnyValue::Int8(c), v.len()),
        _ => Int8Chunked::from_vec(name.into(), v).into_column(),
    }
}

/// String ids: a scalar while one, Int8 while all are below 128 (a log names a few dozen
/// collectors, causes and phases), else UInt32.
fn id_column(name: &str, v: Vec<u32>) -> Column {
    match v.first() {
        // One id (a block's usual case): a scalar, no copy made.
        Some(&c) if v.iter().all(|&x| x == c) => match i8::try_from(c) {
            Ok(b) => scalar(name, AnyValue::Int8(b), v.len()),
            Err(_) => scalar(name, AnyValue::UInt32(c), v.len()),
        },
        // Below 128: the cast keeps them.
        _ if v.iter().all(|&x| x < 128) => {
            Int8Chunked::from_vec(name.into(), v.into_iter().map(|x| x as i8).collect())
                .into_column()
        }
        _ => UInt32Chunked::from_vec(name.into(), v).into_column(),
    }
}

/// A column that may hold nulls: a null scalar while every row is null (a log without date
/// stamps has a null wall clock on every row: nothing stored for it).
fn optional<P: PolarsNumericType>(name: &str, a: MutablePrimitiveArray<P::Native>) -> Column {
    let n = a.len();
    if n > 0 && a.validity().is_some_and(|v| v.set_bits() == 0) {
        return Column::full_null(name.into(), n, &P::get_static_dtype());
    }
    let (_, values, validity) = a.into_inner();
    ChunkedArray::<P>::from_vec_validity(name.into(), values, validity.map(|v| v.freeze()))
        .into_column()
}

/// Unsigned figures (heap sizes in K, GC ids): a scalar while one figure (or none) fills the
/// column, u32 while every one fits (heaps under 4 TB and ids under 4 G are the logs there
/// are: 4 bytes a row less on each of seven columns), else u64.
fn figures(name: &str, a: MutablePrimitiveArray<u64>) -> Column {
    let one = |v: u64| u32::try_from(v).map_or(AnyValue::UInt64(v), AnyValue::UInt32);
    one_value(name, a, &DataType::UInt32, one).unwrap_or_else(|(values, validity)| {
        if values.iter().all(|&x| x <= u64::from(u32::MAX)) {
            // Each within u32: the casts keep them.
            let narrow = values.iter().map(|&x| x as u32).collect();
            UInt32Chunked::from_vec_validity(name.into(), narrow, validity).into_column()
        } else {
            UInt64Chunked::from_vec_validity(name.into(), values, validity).into_column()
        }
    })
}

/// Offsets (`gc::UTC_OFFSET_QH`): a scalar while one offset, or none, fills the column (a
/// log that keeps one offset, or writes none, stores nothing a row), else Int8 with nulls.
fn offsets(name: &str, a: MutablePrimitiveArray<i8>) -> Column {
    one_value(name, a, &DataType::Int8, AnyValue::Int8).unwrap_or_else(|(values, validity)| {
        Int8Chunked::from_vec_validity(name.into(), values, validity).into_column()
    })
}

/// A scalar column where one value (`value` of it), or none (null of `null_type`), fills `a`;
/// else `a`'s values and validity, for the caller's column.
fn one_value<T: NativeType + PartialEq>(
    name: &str,
    a: MutablePrimitiveArray<T>,
    null_type: &DataType,
    value: impl Fn(T) -> AnyValue<'static>,
) -> Result<Column, (Vec<T>, Option<Bitmap>)> {
    let n = a.len();
    let nulls = a.validity().map_or(0, |v| v.unset_bits());
    if nulls == n && n > 0 {
        return Ok(Column::full_null(name.into(), n, null_type));
    }
    let (_, values, validity) = a.into_inner();
    match values.first() {
        Some(&v) if nulls == 0 && values.iter().all(|&x| x == v) => Ok(scalar(name, value(v), n)),
        _ => Err((values, validity.map(|v| v.freeze()))),
    }
}

/// A boolean column without nulls: a scalar while one value.
fn flag(name: &str, b: MutableBitmap) -> Column {
    let (n, set) = (b.len(), b.set_bits());
    if n > 0 && (set == 0 || set == n) {
        return scalar(name, AnyValue::Boolean(set > 0), n);
    }
    BooleanChunked::from_bitmap(name.into(), b.freeze()).into_column()
}

/// The durations, taken out of the stored columns as a vector for the log-wide rules and the
/// rounding to change in place (their buffer itself where the column holds the only
/// reference; the column is left empty).
fn take_duration(cols: &mut [Column]) -> PolarsResult<Vec<f64>> {
    use polars_arrow::Either::{Left, Right};
    let c = std::mem::take(&mut cols[at(gc::DURATION_MS)]);
    let ca = c.take_materialized_series().f64()?.clone();
    let mut out = Vec::new();
    for a in ca.downcast_into_iter() {
        match a.into_mut() {
            Right(m) if out.is_empty() && m.validity().is_none() => out = m.into_inner().1,
            Right(m) => out.extend(m.iter().map(|v| v.copied().unwrap_or(0.0))),
            Left(a) => out.extend(a.iter().map(|v| v.copied().unwrap_or(0.0))),
        }
    }
    Ok(out)
}

/// Work done elsewhere as it is handed over (where `hand_to` says, else on the thread pool),
/// its results kept in the order handed over (blocks frozen while the next are parsed and
/// joined). At most `MAX_IN_FLIGHT` a thread wait their turn: a pool slower than the parsers
/// would otherwise hold every block's events queued (a 2 GB log's peak went from 0.8 to 1.3
/// GB).
pub struct Frozen<T> {
    /// Where tasks go first (`hand_to`); the pool takes those it returns.
    hand: Option<Hand>,
    tx: std::sync::mpsc::Sender<(usize, T)>,
    rx: std::sync::mpsc::Receiver<(usize, T)>,
    done: Vec<Option<T>>,
    received: usize,
    /// Results taken by `ready` (the first `taken` of `done`).
    taken: usize,
}

/// Tasks a pool thread not yet done, per thread.
const MAX_IN_FLIGHT: usize = 2;

/// A task `Frozen` hands over.
pub type Task = Box<dyn FnOnce() + Send>;

/// Where tasks are handed first (a stream's workers: `load::Crew`).
pub trait Hands: Send + Sync {
    /// Take `task` to run elsewhere than the pool, or return it.
    fn hand(&self, task: Task) -> Option<Task>;
    /// Run one task handed over and not yet taken, here; false where none waits.
    fn run_one(&self) -> bool;
}

/// A function that runs or drops what it is handed, or returns it, and holds none back.
impl<F: Fn(Task) -> Option<Task> + Send + Sync> Hands for F {
    fn hand(&self, task: Task) -> Option<Task> {
        self(task)
    }
    fn run_one(&self) -> bool {
        false
    }
}

pub type Hand = std::sync::Arc<dyn Hands>;

impl<T> Default for Frozen<T> {
    fn default() -> Self {
        let (tx, rx) = std::sync::mpsc::channel();
        Frozen {
            hand: None,
            tx,
            rx,
            done: Vec::new(),
            received: 0,
            taken: 0,
        }
    }
}

impl<T: Send + 'static> Frozen<T> {
    pub fn spawn(&mut self, f: impl FnOnce() -> T + Send + 'static) {
        let max = MAX_IN_FLIGHT * rayon::current_num_threads().max(1);
        while self.done.len() - self.received >= max && self.wait_one() {}
        let (k, tx) = (self.done.len(), self.tx.clone());
        self.done.push(None);
        let task: Task = Box::new(move || {
            let _ = tx.send((k, f()));
        });
        let task = match &self.hand {
            Some(hand) => hand.hand(task),
            None => Some(task),
        };
        if let Some(task) = task {
            rayon::spawn(task);
        }
    }

    /// Hand the tasks to `hand` first.
    pub fn hand_to(&mut self, hand: Hand) {
        self.hand = Some(hand);
    }

    /// A result already there, in its turn.
    #[cfg(test)]
    pub fn put(&mut self, t: T) {
        self.done.push(Some(t));
        self.received += 1;
    }

    /// Wait for one result (false: none can come).
    fn wait_one(&mut self) -> bool {
        use std::sync::mpsc::TryRecvError::{Disconnected, Empty};
        let on_pool = rayon::current_thread_index().is_some();
        let r = loop {
            match self.rx.try_recv() {
                Ok(r) => break Some(r),
                Err(Disconnected) => break None,
                // On a thread of the pool the tasks run on: it runs them while it waits
                // (blocked, a pool whose every thread waits here would never run them).
                Err(Empty) if on_pool => {
                    if rayon::yield_now() != Some(rayon::Yield::Executed) {
                        std::thread::yield_now();
                    }
                }
                // Elsewhere the thread may be the one the tasks were handed to (a stream's
                // worker that is joining): it runs them while it waits (blocked, with no other
                // worker to take them, it would wait for ever). With none waiting, the rest
                // are running.
                Err(Empty) => {
                    if !self.hand.as_ref().is_some_and(|h| h.run_one()) {
                        break self.rx.recv().ok();
                    }
                }
            }
        };
        let Some(r) = r else { return false };
        self.receive(r);
        true
    }

    fn receive(&mut self, (k, t): (usize, T)) {
        if let Some(slot) = self.done.get_mut(k) {
            *slot = Some(t);
        }
        self.received += 1;
    }

    /// The results back so far that come next in the order handed over, each taken once.
    pub fn ready(&mut self, mut f: impl FnMut(T)) {
        while let Ok(r) = self.rx.try_recv() {
            self.receive(r);
        }
        while let Some(t) = self.done.get_mut(self.taken).and_then(Option::take) {
            self.taken += 1;
            f(t);
        }
    }

    /// Every result not taken yet, in the order handed over (a task that panicked leaves
    /// none: fewer come back than were handed over).
    pub fn collect(mut self) -> Vec<T> {
        // Only the tasks hold senders now: when all are done, waiting ends.
        let (tx, _) = std::sync::mpsc::channel();
        drop(std::mem::replace(&mut self.tx, tx));
        while self.received < self.done.len() && self.wait_one() {}
        self.done.into_iter().skip(self.taken).flatten().collect()
    }

    pub fn len(&self) -> usize {
        self.done.len()
    }

    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }
}

/// The streamed path's sink: each block frozen into a `Chunk` (by `Frozen`) as it is
/// pushed (no thread appends rows one by one), and the chunks back from the pool appended
/// in log order as the next blocks are pushed: when the log ends, its columns are there.
/// (Put together when the log ended, the copy was a serial tail: 32 ms of a 200 MB JRockit
/// log's 0.41 s, and the freed chunks had to be given back to the OS a column at a time.)
pub struct LogColumns {
    chunks: Frozen<Chunk>,
    /// The chunks taken back so far, appended in `STORED` order.
    cols: Appended,
    taken: usize,
    failed: Option<PolarsError>,
    /// Bytes of the log pushed so far (counted by the caller).
    pub bytes: u64,
    /// Event buffers the frozen blocks are done with, handed back for the next blocks' parses
    /// (a fresh buffer a block was page faults and copies as it grew).
    spare_tx: std::sync::mpsc::Sender<Vec<GcEvent>>,
    spare: std::sync::mpsc::Receiver<Vec<GcEvent>>,
    rows: usize,
    /// The chunks' uptimes in line order (`Steps`), in log order.
    steps: Vec<Option<Steps>>,
    sort_by_time: bool,
    fill: Option<(usize, u32)>,
    format: Option<GcFormat>,
}

impl Default for LogColumns {
    fn default() -> Self {
        let (spare_tx, spare) = std::sync::mpsc::channel();
        LogColumns {
            chunks: Frozen::default(),
            cols: Appended::default(),
            taken: 0,
            failed: None,
            bytes: 0,
            spare_tx,
            spare,
            rows: 0,
            steps: Vec::new(),
            sort_by_time: false,
            fill: None,
            format: None,
        }
    }
}

impl LogColumns {
    /// A log's own events (a log parsed in one piece), frozen in pieces on every core.
    #[cfg(test)]
    pub fn of_events(events: &[GcEvent], strings: usize) -> Self {
        let mut c = LogColumns::default();
        let join = Join::own(strings);
        let chunks: Vec<Chunk> = events
            .par_chunks(FREEZE_PIECE)
            .map(|piece| {
                let mut b = GcColumns::default();
                b.push_events(piece);
                b.freeze(&join)
            })
            .collect();
        c.rows = events.len();
        chunks.into_iter().for_each(|chunk| c.chunks.put(chunk));
        c
    }

    /// A log streamed from content of `len` bytes (None: unknown), `bytes` counted as its
    /// blocks are pushed.
    pub fn expecting(len: Option<u64>) -> Self {
        LogColumns {
            cols: Appended::expecting(len),
            ..LogColumns::default()
        }
    }

    /// Hand the blocks' freezes to `hand` first.
    pub fn hand_to(&mut self, hand: Hand) {
        self.cols.hand_to(hand.clone());
        self.chunks.hand_to(hand);
    }

    fn append(&mut self, chunk: Chunk) {
        self.taken += 1;
        self.steps.push(chunk.steps);
        if self.failed.is_none() {
            self.failed = self.cols.push(chunk.cols, self.rows, self.bytes).err();
        }
    }

    /// The log's frame: the chunks appended, the join's and the family's log-wide rules
    /// applied, runs (see `gc::RUN`) and the time axis `t_s` found, the rows put in order.
    pub fn finish(mut self, log: &GcLog) -> PolarsResult<GcFrame> {
        let blocks = self.chunks.len();
        for c in std::mem::take(&mut self.chunks).collect() {
            self.append(c);
        }
        if let Some(e) = self.failed {
            return Err(e);
        }
        if self.taken != blocks {
            polars_bail!(ComputeError: "a block's rows were lost");
        }
        let mut cols = self.cols.into_columns()?;
        if cols.is_empty() {
            cols = GcColumns::default().freeze(&Join::default()).cols;
        }
        let mut duration = take_duration(&mut cols)?;
        let (collector, in_collection) = {
            let mut rows = RuleRows::of(&cols, &mut duration)?;
            if let Some((upto, id)) = self.fill {
                crate::model::fill_collector(&mut rows, upto, id);
            }
            if let Some(f) = self.format {
                f.end_of_log(log, &mut rows);
            }
            (rows.new_collector, rows.new_in_collection)
        };
        if let Some(v) = collector {
            cols[at(gc::COLLECTOR)] = id_column(gc::COLLECTOR, v);
        }
        if let Some(b) = in_collection {
            cols[at(gc::IN_COLLECTION)] = flag(gc::IN_COLLECTION, b);
        }
        let strings = log.strings.list().to_vec();
        let one_run = Steps::one_run(&self.steps);
        timeline(cols, duration, self.sort_by_time, one_run, strings)
    }
}

/// Columns of blocks appended in log order, given room for the rows the content likely holds
/// (`with_room`) once `room_after` of its bytes are in. A scalar stays one while the blocks'
/// values are the same, else the values are copied on after those before (polars' `extend`,
/// which grows the column's buffer in place); where the types differ, both take the wider
/// (`wide_type`), and a null scalar takes the other's. (Left as the blocks' chunks, the frame
/// was not copied, but every analysis that reads rows in place went through a chunk lookup a
/// row: a JRockit 1.4.2 log's summary 0.29 s -> 0.48 s, its peak 115 -> 191 MB.)
#[derive(Default)]
pub struct Appended {
    cols: Vec<Column>,
    /// The validity of a column with nulls, kept beside its values until the end: extended
    /// with a validity, arrow copies the values one by one and counts the whole column's
    /// nulls again (33 ms of a 200 MB CMS log's 0.69 s of CPU).
    valid: Vec<Option<BitmapBuilder>>,
    /// The values of a boolean column without nulls, kept beside it (which stays the first
    /// block's) until the end or its first null: arrow extends a boolean column value by value
    /// (16 ms of a 2 M-request log's joining, the parsers waiting).
    bits: Vec<Option<BitmapBuilder>>,
    /// The rows pushed so far.
    rows: usize,
    /// The content's length in bytes where it is known, while room is still to be made.
    expected: Option<u64>,
    /// The rows the columns have room for (0: none made yet).
    room: usize,
    /// Each column's room, where it has one, faulted in ahead of the appends by `hand`.
    rooms: Vec<Option<Room>>,
    hand: Option<Hand>,
}

/// A column's buffer with room (`with_room`): where it starts, its bytes, a value's bytes,
/// and how far its pages are faulted in (bytes from the start).
struct Room {
    addr: usize,
    bytes: usize,
    value: usize,
    faulted: usize,
}

/// How far ahead of a column's last value its room's pages are faulted in.
const FAULT_AHEAD: usize = 256 << 10;

impl Appended {
    pub fn expecting(len: Option<u64>) -> Self {
        Appended {
            expected: len,
            ..Appended::default()
        }
    }

    /// Fault the columns' room in ahead of the appends by tasks handed to `hand`.
    pub fn hand_to(&mut self, hand: Hand) {
        self.hand = Some(hand);
    }

    /// Hand over the faulting in of the next `FAULT_AHEAD` bytes of each column's room,
    /// where the appends come near the pages faulted in so far: written one page after
    /// another by the joining, a 2 M-request log's columns took ~55 ms of its ~105 ms
    /// in page faults (serial, however many cores parse), which `MADV_POPULATE_WRITE` does
    /// in about half the time, on a worker.
    fn fault_ahead(&mut self) {
        let Some(hand) = &self.hand else { return };
        // (Where pages are larger, the ranges are not aligned to them: the call fails and
        // the appends fault the pages in as before.)
        let page = 4096;
        let mut ranges = Vec::new();
        for (c, room) in self.cols.iter().zip(&mut self.rooms) {
            let Some(r) = room else { continue };
            if values_addr(c) != Some(r.addr) {
                // Copied elsewhere (a wider type): no room any more.
                *room = None;
                continue;
            }
            let written = c.len() * r.value;
            if r.faulted >= (written + FAULT_AHEAD).min(r.bytes) {
                continue;
            }
            let to = (written + 2 * FAULT_AHEAD).min(r.bytes);
            let start = (r.addr + r.faulted.max(written)).next_multiple_of(page);
            let end = (r.addr + to) / page * page;
            if end > start {
                ranges.push((start, end - start));
            }
            r.faulted = to;
        }
        if ranges.is_empty() {
            return;
        }
        let task: Task = Box::new(move || fault_in(&ranges));
        // With no worker to take it, the appends fault the pages in as they write them.
        drop(hand.hand(task));
    }

    /// A block's columns after those before; `rows` and `bytes`: how many of each the
    /// blocks pushed so far hold (what the room is reckoned from).
    pub fn push(&mut self, more: Vec<Column>, rows: usize, bytes: u64) -> PolarsResult<()> {
        self.rows += more.first().map_or(0, Column::len);
        if self.cols.is_empty() {
            self.valid = more.iter().map(|_| None).collect();
            self.bits = more.iter().map(|_| None).collect();
            self.cols = more;
            return Ok(());
        }
        let cols = self
            .cols
            .iter_mut()
            .zip(&mut self.valid)
            .zip(&mut self.bits);
        for (((a, valid), bits), c) in cols.zip(more) {
            if let (Column::Scalar(x), Column::Scalar(y)) = (&*a, &c) {
                if x.scalar() == y.scalar() {
                    *a = x.resize(x.len() + y.len()).into_column();
                    continue;
                }
            }
            let plain_bools = |c: &Column| {
                c.dtype() == &DataType::Boolean && !c.has_nulls() && !matches!(c, Column::Scalar(_))
            };
            if plain_bools(&c) && (bits.is_some() || valid.is_none() && plain_bools(a)) {
                if bits.is_none() {
                    extend_bits(bits.insert(BitmapBuilder::with_capacity(self.rows)), a)?;
                }
                if let Some(b) = bits {
                    extend_bits(b, &c)?;
                }
                continue;
            }
            if let Some(b) = bits.take() {
                *a = BooleanChunked::from_bitmap(a.name().clone(), b.freeze()).into_column();
            }
            let null = |c: &Column| matches!(c, Column::Scalar(s) if s.scalar().is_null());
            let dtype = if a.dtype() == c.dtype() || null(&c) {
                a.dtype().clone()
            } else if null(a) {
                c.dtype().clone()
            } else {
                wide_type(a.name())
            };
            let (values, a_valid) = values_apart(std::mem::take(a), &dtype)?;
            *a = values;
            let (c, c_valid) = values_apart(c, &dtype)?;
            // `a`'s own validity is there only before its first extend.
            if valid.is_none() && (a_valid.is_some() || c_valid.is_some()) {
                let b = valid.insert(BitmapBuilder::with_capacity(a.len() + c.len()));
                b.subslice_extend_from_opt_validity(a_valid.as_ref(), 0, a.len());
            }
            if let Some(b) = valid {
                b.subslice_extend_from_opt_validity(c_valid.as_ref(), 0, c.len());
            }
            a.extend(&c)?;
        }
        let n = self.rows;
        if let Some(len) = self
            .expected
            .filter(|&len| bytes >= room_after(len) && n >= self.room)
        {
            // Half as many again as the rows a byte so far give (they vary along a log, and a
            // column one row short is copied whole into a buffer twice its size), but at most
            // `ROOM_GROWTH` times the rows read, made again when filled: the length is the
            // file's claim, and a log of sparse records or holes must not take the address
            // space of a dense one (under `ulimit -v`, a failed allocation aborts).
            let guess = (rows as f64 * len as f64 / bytes as f64 * 1.5) as usize;
            self.room = guess.min(n.saturating_mul(ROOM_GROWTH));
            if self.room <= n {
                self.expected = None;
            } else {
                (self.cols, self.rooms) = std::mem::take(&mut self.cols)
                    .into_iter()
                    .map(|c| with_room(c, self.room))
                    .collect::<PolarsResult<Vec<_>>>()?
                    .into_iter()
                    .unzip();
            }
        }
        self.fault_ahead();
        Ok(())
    }

    /// The columns, each with its validity.
    pub fn into_columns(self) -> PolarsResult<Vec<Column>> {
        self.cols
            .into_iter()
            .zip(self.valid)
            .zip(self.bits)
            .map(|((c, valid), bits)| {
                let name = c.name().clone();
                if let Some(b) = bits {
                    return Ok(BooleanChunked::from_bitmap(name, b.freeze()).into_column());
                }
                let Some(v) = valid.and_then(BitmapBuilder::into_opt_validity) else {
                    return Ok(c);
                };
                let s = c.take_materialized_series().rechunk();
                let arrays = s.chunks().iter().map(|a| a.with_validity(Some(v.clone())));
                Ok(Series::try_from((name, arrays.collect::<Vec<_>>()))?.into())
            })
            .collect()
    }
}

/// A boolean column's values (it has no nulls) after `b`'s.
fn extend_bits(b: &mut BitmapBuilder, c: &Column) -> PolarsResult<()> {
    for a in c.as_materialized_series().bool()?.downcast_iter() {
        b.extend_from_bitmap(a.values());
    }
    Ok(())
}

/// A column as `dtype`, its values without their validity, and the validity where some are
/// null. A null scalar's values are zeros, and a boolean scalar's bits are made here: cast or
/// spread out by polars, either is an array of zero bits or nulls, and the first in a process
/// zeroes polars' global 8 MiB buffer (2,000 page faults, 4-5 ms, a fifth of a 1 MiB log's
/// run).
fn values_apart(c: Column, dtype: &DataType) -> PolarsResult<(Column, Option<Bitmap>)> {
    let Column::Scalar(s) = &c else {
        return without_validity(c.cast(dtype)?);
    };
    let (name, n) = (c.name().clone(), c.len());
    let null = s.scalar().is_null();
    let bits = |v: bool| {
        let mut b = BitmapBuilder::with_capacity(n);
        b.extend_constant(n, v);
        b.freeze()
    };
    let valid = null.then(|| bits(false));
    if dtype == &DataType::Boolean {
        let v = !null && s.scalar().value().extract_bool() == Some(true);
        return Ok((
            BooleanChunked::from_bitmap(name, bits(v)).into_column(),
            valid,
        ));
    }
    if !null {
        return without_validity(c.cast(dtype)?);
    }
    let zero = Scalar::new(DataType::Int8, AnyValue::Int8(0));
    Ok((Column::new_scalar(name, zero, n).cast(dtype)?, valid))
}

/// A column's values without their validity, and the validity where some are null.
fn without_validity(c: Column) -> PolarsResult<(Column, Option<Bitmap>)> {
    if !c.has_nulls() {
        return Ok((c, None));
    }
    let s = c.take_materialized_series().rechunk();
    let Some(arr) = s.chunks().first() else {
        return Ok((s.into_column(), None));
    };
    let values = Series::try_from((s.name().clone(), vec![arr.with_validity(None)]))?;
    Ok((values.into_column(), arr.validity().cloned()))
}

/// Bytes of a log pushed before its columns are given room for the rest (`with_room`):
/// enough blocks that the rows a byte is known.
const ROOM_AFTER: u64 = 8 << 20;

/// Room is made once this share of a log's length is read (and `ROOM_AFTER`): the rows read
/// by then, times `ROOM_GROWTH`, cover the whole log at the density read, so a dense log's
/// columns are copied into their room once. Made at `ROOM_AFTER` on a 2 GB log, the room
/// (capped at `ROOM_GROWTH` times the rows read) filled at 512 MB, and every column was copied
/// again on the joining while the parsers waited: 0.25 s of its 6 s.
const ROOM_SHARE: u64 = 48;

/// When the columns of a log of `len` bytes are given room: see `ROOM_SHARE`.
fn room_after(len: u64) -> u64 {
    ROOM_AFTER.max(len / ROOM_SHARE)
}

/// The most room made at once, as a multiple of the rows the columns hold.
const ROOM_GROWTH: usize = 64;

/// A column copied into a buffer with room for `rows` rows, which its appends then fill
/// in place (a scalar and a boolean column as they are; where the room cannot be had, as
/// it is). Grown by doubling as blocks came, the columns were written twice over in fresh
/// pages: a 200 MB JRockit log took 57,000 page faults, 38,000 with the room made.
fn with_room(c: Column, rows: usize) -> PolarsResult<(Column, Option<Room>)> {
    fn room<P: PolarsNumericType>(c: Column, rows: usize) -> PolarsResult<(Column, Option<Room>)> {
        let ca = c.as_materialized_series().unpack::<P>()?;
        let mut v: Vec<P::Native> = Vec::new();
        if v.try_reserve_exact(rows.max(ca.len())).is_err() {
            return Ok((c, None));
        }
        ca.downcast_iter()
            .for_each(|a| v.extend_from_slice(a.values()));
        let value = std::mem::size_of::<P::Native>();
        let room = Room {
            addr: v.as_ptr() as usize,
            bytes: v.capacity() * value,
            value,
            faulted: v.len() * value,
        };
        let validity = ca.rechunk_validity();
        let c = ChunkedArray::<P>::from_vec_validity(c.name().clone(), v, validity);
        Ok((c.into_column(), Some(room)))
    }
    if let Column::Scalar(_) = c {
        return Ok((c, None));
    }
    match c.dtype() {
        DataType::Int8 => room::<Int8Type>(c, rows),
        DataType::Int64 => room::<Int64Type>(c, rows),
        DataType::UInt32 => room::<UInt32Type>(c, rows),
        DataType::UInt64 => room::<UInt64Type>(c, rows),
        DataType::Float64 => room::<Float64Type>(c, rows),
        _ => Ok((c, None)),
    }
}

/// Where a numeric column's values start (None: another type, or not one buffer).
fn values_addr(c: &Column) -> Option<usize> {
    fn first<P: PolarsNumericType>(c: &Column) -> Option<usize> {
        let ca = c.as_materialized_series().unpack::<P>().ok()?;
        (ca.chunks().len() == 1).then(|| ca.downcast_as_array().values().as_ptr() as usize)
    }
    if let Column::Scalar(_) = c {
        return None;
    }
    match c.dtype() {
        DataType::Int8 => first::<Int8Type>(c),
        DataType::Int64 => first::<Int64Type>(c),
        DataType::UInt32 => first::<UInt32Type>(c),
        DataType::UInt64 => first::<UInt64Type>(c),
        DataType::Float64 => first::<Float64Type>(c),
        _ => None,
    }
}

/// Fault in the pages of `ranges` (address, bytes) as a write would, without writing: their
/// content stays as it is. A range that is not mapped any more is an error the call returns,
/// and nothing else.
fn fault_in(ranges: &[(usize, usize)]) {
    for &(addr, bytes) in ranges {
        // SAFETY: madvise reads no memory of ours and writes none; MADV_POPULATE_WRITE only
        // fills the page tables of the range (where it is mapped and writable) and leaves the
        // bytes as they are; a range being written by the joining meanwhile is written
        // as before.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::madvise(addr as *mut libc::c_void, bytes, libc::MADV_POPULATE_WRITE);
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (addr, bytes);
    }
}

/// Events frozen a piece at a time in `LogColumns::of_events` (a block's worth).
#[cfg(test)]
const FREEZE_PIECE: usize = 1 << 14;

impl Sink for LogColumns {
    fn push_block(
        &mut self,
        cols: Option<GcColumns>,
        mut events: Vec<GcEvent>,
        join: Join,
    ) -> Option<Vec<GcEvent>> {
        let mut b = cols.unwrap_or_default();
        self.rows += b.len() + events.len();
        let spare = self.spare_tx.clone();
        self.chunks.spawn(move || {
            b.push_events(&events);
            events.clear();
            let _ = spare.send(events);
            b.freeze(&join)
        });
        let mut ready = Vec::new();
        self.chunks.ready(|c| ready.push(c));
        ready.into_iter().for_each(|c| self.append(c));
        self.spare.try_recv().ok()
    }
    fn len(&self) -> usize {
        self.rows
    }
    fn sort_by_time(&mut self) {
        self.sort_by_time = true;
    }
    fn fill_collector(&mut self, upto: usize, id: u32) {
        self.fill = Some((upto, id));
    }
    fn end_of_log(&mut self, format: GcFormat, _log: &GcLog) {
        self.format = Some(format);
    }
}

/// The rows the log-wide rules read and change (`Rows`): read off the appended columns;
/// a collector or `in_collection` changed makes that column a copy (`new_*`), which then
/// replaces it.
struct RuleRows<'a> {
    n: usize,
    record: Num<'a, Int8Type>,
    kind: Num<'a, Int8Type>,
    collector: IdReader<'a>,
    gc_id: UCol<'a>,
    duration: &'a mut [f64],
    in_collection: &'a Column,
    new_collector: Option<Vec<u32>>,
    new_in_collection: Option<MutableBitmap>,
}

impl<'a> RuleRows<'a> {
    fn of(cols: &'a [Column], duration: &'a mut [f64]) -> PolarsResult<RuleRows<'a>> {
        Ok(RuleRows {
            n: duration.len(),
            record: Num::cast(&cols[at(gc::RECORD)])?,
            kind: Num::cast(&cols[at(gc::KIND)])?,
            collector: IdReader::of(&cols[at(gc::COLLECTOR)])?,
            gc_id: UCol::of(&cols[at(gc::GC_ID)])?,
            duration,
            in_collection: &cols[at(gc::IN_COLLECTION)],
            new_collector: None,
            new_in_collection: None,
        })
    }
}

impl Rows for RuleRows<'_> {
    fn len(&self) -> usize {
        self.n
    }
    fn record(&self, i: usize) -> Record {
        Record::from_code(self.record.get(i).unwrap_or(0) as u8).unwrap_or(Record::Pause)
    }
    fn kind(&self, i: usize) -> Kind {
        Kind::from_code(self.kind.get(i).unwrap_or(0) as u8).unwrap_or(Kind::Other)
    }
    fn collector(&self, i: usize) -> u32 {
        match &self.new_collector {
            Some(v) => v.get(i).copied().unwrap_or(0),
            None => self.collector.get(i),
        }
    }
    fn set_collector(&mut self, i: usize, id: u32) {
        let v = self
            .new_collector
            .get_or_insert_with(|| (0..self.n).map(|k| self.collector.get(k)).collect());
        if let Some(x) = v.get_mut(i) {
            *x = id;
        }
    }
    fn gc_id(&self, i: usize) -> Option<u64> {
        self.gc_id.get(i)
    }
    fn duration_ms(&self, i: usize) -> f64 {
        self.duration.get(i).copied().unwrap_or(0.0)
    }
    fn set_duration_ms(&mut self, i: usize, ms: f64) {
        if let Some(d) = self.duration.get_mut(i) {
            *d = round_ms(ms);
        }
    }
    fn set_in_collection(&mut self, i: usize, v: bool) {
        if i >= self.n {
            return;
        }
        self.new_in_collection
            .get_or_insert_with(|| match self.in_collection {
                // Read as its value: spread out by polars, a `false` scalar is the first use
                // of its global zeroed buffer (see `values_apart`).
                Column::Scalar(s) if s.scalar().value().extract_bool() == Some(true) => {
                    MutableBitmap::from_len_set(self.n)
                }
                Column::Scalar(_) => MutableBitmap::from_len_zeroed(self.n),
                c => match c.bool() {
                    Ok(ca) => ca.iter().map(|x| x.unwrap_or(false)).collect(),
                    Err(_) => MutableBitmap::from_len_zeroed(self.n),
                },
            })
            .set(i, v);
    }
}

/// The frame of the appended stored columns (`STORED`) and the durations: runs, the time
/// axis, the rows' order (`sort_by_time`: the JRockit parser's time order within each run,
/// else the runs one after another). `one_run`: the blocks' `Steps` said the rows are one
/// run, with no uptime to look at as damage (`runs` is not asked).
fn timeline(
    mut cols: Vec<Column>,
    duration: Vec<f64>,
    sort_by_time: bool,
    one_run: bool,
    strings: Vec<String>,
) -> PolarsResult<GcFrame> {
    let n = duration.len();
    // Read off borrows, and a clone of `line` (sharing the buffer) while `start_s` is replaced,
    // dropped before the columns are put in order, so that each old column goes as its new one
    // is made.
    let (run, t, order, damaged) = {
        let line_col = cols[at(gc::LINE)].clone();
        let line = line_col.u32()?.cont_slice()?;
        let (run, damaged) = if one_run {
            (None, Vec::new())
        } else {
            let start = Num::<Float64Type>::cast(&cols[at(gc::START_S)])?;
            runs(line, &|i: usize| start.get(i))
        };
        // A damaged uptime is read as none: the record stays, off the time axis.
        let damaged: Vec<(u32, f64)> = if damaged.is_empty() {
            Vec::new()
        } else {
            let c = cols[at(gc::START_S)].cast(&DataType::Float64)?;
            let mut v: Vec<Option<f64>> = c.f64()?.iter().collect();
            let taken = damaged
                .iter()
                .filter_map(|&i| Some((line[i], v.get_mut(i)?.take()?)))
                .collect();
            cols[at(gc::START_S)] =
                Float64Chunked::from_iter_options(gc::START_S.into(), v.into_iter()).into_column();
            taken
        };
        let start = Num::<Float64Type>::cast(&cols[at(gc::START_S)])?;
        let uptime = |i: usize| start.get(i);
        let have_uptime = cols[at(gc::START_S)].null_count() < n;
        // `None`: the time axis is `start_s` itself (one run: u + 0.0 is u).
        let t: Option<Vec<Option<f64>>> = match &run {
            None if have_uptime => None,
            Some(run) if have_uptime => {
                // Runs laid end to end on the time axis: each starts where the one before
                // ended.
                let n_runs = run.iter().max().map_or(1, |&r| r as usize + 1);
                let mut run_end = vec![f64::NEG_INFINITY; n_runs];
                for (i, &r) in run.iter().enumerate() {
                    if let Some(u) = uptime(i) {
                        let end = u + duration[i] / 1000.0;
                        run_end[r as usize] = run_end[r as usize].max(end);
                    }
                }
                let mut offset = vec![0.0f64; n_runs];
                for r in 1..n_runs {
                    let prev = Some(run_end[r - 1]).filter(|e| e.is_finite());
                    offset[r] = offset[r - 1] + prev.unwrap_or(0.0);
                }
                let t_of = |(i, &r): (usize, &u32)| uptime(i).map(|u| u + offset[r as usize]);
                Some(run.iter().enumerate().map(t_of).collect())
            }
            _ => {
                let wall = Num::<Int64Type>::cast(&cols[at(gc::WALL_MS)])?;
                let wall0 = (0..n).filter_map(|i| wall.get(i)).min();
                let t_of = |i| Some((wall.get(i)? - wall0?) as f64 / 1000.0);
                Some((0..n).map(t_of).collect())
            }
        };
        let record = Num::<Int8Type>::cast(&cols[at(gc::RECORD)])?;
        let order = order(line, &uptime, &record, run.as_deref(), sort_by_time)
            .map(|o| IdxCa::from_vec("".into(), o));
        (run, t, order, damaged)
    };
    // Put in that order a column at a time, each old column dropped as its new one is made:
    // the whole frame taken at once was held twice at the peak.
    let ordered = |c: Column| match &order {
        Some(idx) => c.take(idx),
        None => Ok(c),
    };
    let mut stored = cols.into_iter();
    let mut next = || {
        stored
            .next()
            .ok_or_else(|| polars_err!(ComputeError: "a column is missing"))
    };
    let mut out = Vec::with_capacity(STORED.len() + 2);
    for _ in 0..5 {
        out.push(ordered(next()?)?);
    }
    let start = ordered(next()?)?;
    let t_s = match t {
        // A clone shares the buffer.
        None => start.clone().with_name(gc::T_S.into()),
        Some(t) => {
            ordered(Float64Chunked::from_iter_options(gc::T_S.into(), t.into_iter()).into_column())?
        }
    };
    out.push(start);
    out.push(ordered(next()?)?);
    out.push(t_s);
    out.push(ordered(match run {
        Some(r) => UInt32Chunked::from_vec(gc::RUN.into(), r).into_column(),
        None => scalar(gc::RUN, AnyValue::UInt32(0), n),
    })?);
    let _ = next()?;
    out.push(ordered(
        Float64Chunked::from_vec(gc::DURATION_MS.into(), duration).into_column(),
    )?);
    for c in stored {
        out.push(ordered(c)?);
    }
    Ok(GcFrame {
        df: DataFrame::new(n, out)?,
        strings,
        damaged,
    })
}

/// The rows' order in the frame (None: as they are): the runs (`run`, found in line
/// order) one after another, each in the JRockit parser's time order when asked for (see
/// `Sink`): by start (an event without one keeps the place of the event before it), a
/// collection before its pauses, then the order so far. Sorting by start alone put the
/// runs of a log the JVM appended to after a restart into one another, line 10 of the
/// first beside line 10 of the second.
fn order(
    line: &[u32],
    uptime: &(impl Fn(usize) -> Option<f64> + Sync),
    record: &Num<'_, Int8Type>,
    run: Option<&[u32]>,
    sort_by_time: bool,
) -> Option<Vec<IdxSize>> {
    let n = line.len();
    let run_of = |i: usize| run.and_then(|r| r.get(i)).copied().unwrap_or(0);
    if !sort_by_time {
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
    // Starts carried over the rows without one.
    let mut last = f64::NEG_INFINITY;
    let start: Vec<f64> = (0..n)
        .map(|i| {
            last = uptime(i).unwrap_or(last);
            last
        })
        .collect();
    let collection = Record::Collection.code() as i8;
    let rank = |i: usize| u8::from(record.get(i) != Some(collection));
    let cmp = |a: usize, b: usize| {
        run_of(a)
            .cmp(&run_of(b))
            .then(start[a].total_cmp(&start[b]))
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

/// One row per event of a log parsed in one piece (tests, logs read whole), with the
/// family's log-wide rules applied.
#[cfg(test)]
pub fn gc_frame(format: GcFormat, log: &GcLog) -> PolarsResult<GcFrame> {
    let mut c = LogColumns::of_events(&log.events, log.strings.len());
    c.end_of_log(format, log);
    c.finish(log)
}

/// The frame's lines moved on by `by` (a part of a file read on its own).
pub fn move_lines(f: &mut GcFrame, by: u64) -> PolarsResult<()> {
    f.df.replace(gc::LINE, lines_moved(f.df.column(gc::LINE)?, by)?)?;
    f.damaged
        .iter_mut()
        .for_each(|(l, _)| *l = line_at(u64::from(*l), by));
    Ok(())
}

/// `move_lines` for a performance log's frame.
pub fn move_perf_lines(f: &mut PerfFrame, by: u64) -> PolarsResult<()> {
    f.df.replace(perf::LINE, lines_moved(f.df.column(perf::LINE)?, by)?)?;
    Ok(())
}

/// A `line` column moved on by `by` (a part's lines made its file's or its set's).
fn lines_moved(c: &Column, by: u64) -> PolarsResult<Column> {
    Ok(c.u32()?
        .apply_values(|l| line_at(u64::from(l), by))
        .into_column())
}

/// The earliest wall-clock start and the earliest uptime of a frame (how rotated parts are
/// put in order).
pub fn first_times(f: &GcFrame) -> (Option<i64>, Option<f64>) {
    let min = |name: &str| f.df.column(name).ok().and_then(|c| c.min_reduce().ok());
    let wall = min(gc::WALL_MS).and_then(|s| s.value().extract::<i64>());
    let up = min(gc::START_S).and_then(|s| s.value().extract::<f64>());
    (wall, up)
}

/// The frames of a log's parts (a rotated set), in order, as one: each part's string ids
/// mapped to the log's through its `Join`, its lines moved on; runs and the time axis found
/// again over the whole (a restart between parts is a new run).
pub fn join_frames(parts: Vec<(GcFrame, Join)>, strings: Vec<String>) -> PolarsResult<GcFrame> {
    let mut all = Appended::default();
    let mut damaged = Vec::new();
    for (f, join) in parts {
        let moved = |&(l, u): &(u32, f64)| (line_at(u64::from(l), join.line_offset), u);
        damaged.extend(f.damaged.iter().map(moved));
        let mut cols = Vec::with_capacity(STORED.len());
        for name in STORED {
            let c = f.df.column(name)?.clone();
            cols.push(match name {
                gc::COLLECTOR | gc::CAUSE | gc::NAME => {
                    let ids = IdReader::of(&c)?;
                    id_column(name, (0..c.len()).map(|i| join.id(ids.get(i))).collect())
                }
                gc::LINE => lines_moved(&c, join.line_offset)?,
                _ => c,
            });
        }
        all.push(cols, 0, 0)?;
    }
    let mut all = all.into_columns()?;
    let duration = take_duration(&mut all)?;
    let mut f = timeline(all, duration, false, false, strings)?;
    f.damaged.extend(damaged);
    f.damaged.sort_by_key(|d| d.0);
    Ok(f)
}

/// The frames of a performance log's parts (a rotated set), in order, as one: each part's
/// operation and message ids mapped to the log's through its `Join`, its lines moved on.
pub fn join_perf_frames(parts: Vec<(PerfFrame, Join)>) -> PolarsResult<DataFrame> {
    let Some(names) = parts.first().map(|(f, _)| f.df.get_column_names_owned()) else {
        return Ok(DataFrame::empty());
    };
    let mut all = Appended::default();
    for (f, join) in parts {
        let mut cols = Vec::with_capacity(names.len());
        for name in &names {
            let c = f.df.column(name)?;
            cols.push(match name.as_str() {
                perf::OPERATION_ID | perf::ERROR_ID => {
                    let ids = Num::<UInt32Type>::cast(c)?;
                    let mapped = (0..c.len()).map(|i| ids.get(i).map(|v| join.id(v)));
                    UInt32Chunked::from_iter_options(name.clone(), mapped).into_column()
                }
                perf::LINE => lines_moved(c, join.line_offset)?,
                _ => c.clone(),
            });
        }
        all.push(cols, 0, 0)?;
    }
    let cols = all.into_columns()?;
    DataFrame::new(cols.first().map_or(0, Column::len), cols)
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
///
/// Also the rows whose uptime is damage: one far ahead of the highest before it, which the
/// next uptime goes back from to carry on where the run was (`51.000` read as
/// `9999999999.000`). Taken for a run of its own, it made a "restart" and a span of centuries.
fn runs<U: Fn(usize) -> Option<f64> + Sync>(
    line: &[u32],
    uptime: &U,
) -> (Option<Vec<u32>>, Vec<usize>) {
    let displaced = Displaced::of(line);
    let mut damaged = Vec::new();
    let run = may_go_back(line, uptime, &displaced)
        .then(|| runs_walked(line, uptime, &displaced, &mut damaged))
        .flatten();
    (run, damaged)
}

/// `runs`, every row walked in line order.
fn runs_walked<U: Fn(usize) -> Option<f64>>(
    line: &[u32],
    uptime: &U,
    displaced: &Displaced,
    damaged: &mut Vec<usize>,
) -> Option<Vec<u32>> {
    let n = line.len();
    let mut rows = displaced.order(line);
    let mut run_of: Option<Vec<u32>> = None;
    let mut run = 0u32;
    let mut latest = f64::NEG_INFINITY;
    while let Some(i) = rows.next() {
        if let Some(u) = uptime(i) {
            // Only an uptime past twice the latest can be gone back from (by half) to where
            // the run was: the look ahead is for those.
            if latest.is_finite() && u > 2.0 * (latest - RESTART_BACK_S) {
                let mut ahead = rows;
                let next = ahead.find_map(uptime);
                if next.is_some_and(|v| goes_back(v, u) && !goes_back(v, latest)) {
                    damaged.push(i);
                    if let Some(r) = run_of.as_mut() {
                        r[i] = run;
                    }
                    continue;
                }
            }
            if goes_back(u, latest) {
                // The next event in line order that has an uptime (none: confirmed). Each
                // stretch without uptimes is walked once, from the event before it.
                // The last event with an uptime has no next one to confirm it: one event is
                // not a restart (a gzip cut inside `(start time: 292896.105 s)` leaves a last
                // line reading `29289`, which made a "restart").
                let mut ahead = rows;
                let next = ahead.find_map(uptime);
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
fn may_go_back<U: Fn(usize) -> Option<f64> + Sync>(
    line: &[u32],
    uptime: &U,
    d: &Displaced,
) -> bool {
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
    let pieces: Vec<Steps> = (0..starts.len())
        .into_par_iter()
        .map(|p| {
            let from = starts[p];
            let to = starts.get(p + 1).copied();
            // The first piece from the start of the line order (displaced rows may come
            // before row 0 in it), the others from their first row.
            let rows = match p {
                0 => d.order(line),
                _ => d.order_from(line, from),
            };
            Steps::walk(rows.take_while(|&i| Some(i) != to), uptime, 0, 0)
        })
        .collect();
    Steps::back(&pieces)
}

/// Rows' uptimes in line order, as `may_go_back` asks of them: whether one `goes_back` from
/// the highest before it, the lowest and the highest; with the rows' lowest and highest line.
/// A frozen block's (on the pool, as it is frozen) say for the whole log, when the blocks'
/// lines follow one another, that no uptime goes back: then the log is one run without a
/// pass at its end (`Displaced::of` and `may_go_back` were 9-13 ms of a 200 MB JRockit R27
/// log's two-core 0.29 s, the first on one core).
#[derive(Debug, Clone, Copy)]
struct Steps {
    stepped: bool,
    lo: f64,
    hi: f64,
    first_line: u32,
    last_line: u32,
}

impl Steps {
    /// A block's rows (`None`: none).
    fn of(line: &[u32], uptime: impl Fn(usize) -> Option<f64>) -> Option<Steps> {
        let d = Displaced::of(line);
        if d.skip.is_empty() {
            // In line order already (most blocks): the rows in turn, the ends first and last.
            let (first, last) = (*line.first()?, *line.last()?);
            return Some(Steps::walk(0..line.len(), uptime, first, last));
        }
        let first = *line.iter().min()?;
        let last = *line.iter().max()?;
        Some(Steps::walk(d.order(line), uptime, first, last))
    }

    /// `rows` in line order, which lie on lines `first_line..=last_line`.
    fn walk(
        rows: impl Iterator<Item = usize>,
        uptime: impl Fn(usize) -> Option<f64>,
        first_line: u32,
        last_line: u32,
    ) -> Steps {
        let (mut stepped, mut lo, mut hi) = (false, f64::INFINITY, f64::NEG_INFINITY);
        for u in rows.filter_map(uptime) {
            stepped |= goes_back(u, hi);
            hi = hi.max(u);
            lo = lo.min(u);
        }
        Steps {
            stepped,
            lo,
            hi,
            first_line,
            last_line,
        }
    }

    /// Whether an uptime of pieces that follow one another in line order goes back: within
    /// one, or a piece's lowest from the highest before it (the test is monotone in the
    /// uptime and in the latest).
    fn back(pieces: &[Steps]) -> bool {
        let mut latest = f64::NEG_INFINITY;
        for s in pieces {
            if s.stepped || goes_back(s.lo, latest) {
                return true;
            }
            latest = latest.max(s.hi);
        }
        false
    }

    /// The blocks of a log are one run for certain: each block's lines at or after the
    /// blocks' before it (rows of one line keep block order) and no uptime going back.
    fn one_run(blocks: &[Option<Steps>]) -> bool {
        let blocks: Vec<Steps> = blocks.iter().flatten().copied().collect();
        let follow = blocks.windows(2).all(|w| w[1].first_line >= w[0].last_line);
        follow && !Steps::back(&blocks)
    }
}

/// The rows in line order, ties in row order, without a permutation of all rows: rows come
/// mostly in line order, a few out of place (JRockit's time order puts a long collection
/// before the shorter ones printed inside it). The rows whose line is below one before them
/// ("displaced") are sorted alone and merged with the rest, which are in line order already
/// (a counting sort over the line range held two 4-byte arrays of the rows' size: 23 MB at
/// a 2.9 M-row log's peak, when the frame is whole).
struct Displaced {
    /// The displaced rows in row order (to pass them by) and, where that is not their line
    /// order, in line order (to merge them; `None`: `skip` is in line order, as a JRockit
    /// R27 log's pauses are, each printed before the collection that holds them: two thirds
    /// of its rows).
    skip: Vec<u32>,
    merge: Option<Vec<u32>>,
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
        let key = |&i: &u32| line.get(i as usize).copied().unwrap_or(u32::MAX);
        let merge = (!skip.is_sorted_by_key(key)).then(|| {
            let mut merge = skip.clone();
            // Stable: ties keep row order.
            merge.sort_by_key(key);
            merge
        });
        Displaced { skip, merge }
    }

    /// The displaced rows in line order.
    fn merge(&self) -> &[u32] {
        self.merge.as_deref().unwrap_or(&self.skip)
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
                .merge()
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
        let b = self.d.merge().get(self.next_merge).map(|&i| i as usize);
        let key = |i: usize| line_key(self.line, i);
        match (a, b) {
            (None, None) => None,
            (Some(a), b) if b.is_none_or(|b| key(a) <= key(b)) => {
                self.row += 1;
                Some(a)
            }
            (_, b) => {
                self.next_merge += 1;
                b
            }
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

/// A block's lines moved on by `offset`, as a frame's `line` column.
fn line_column(name: &str, lines: &[u64], offset: u64) -> Column {
    let v = lines.iter().map(|&l| line_at(l, offset)).collect();
    UInt32Chunked::from_vec(name.into(), v).into_column()
}

/// A performance log's (or block's) records in arrow builders, string ids and lines as the
/// parser gave them.
#[derive(Debug, Default)]
pub struct PerfColumns {
    end_ms: Vec<i64>,
    total: Vec<f64>,
    java: MutablePrimitiveArray<f64>,
    db: MutablePrimitiveArray<f64>,
    calls: MutablePrimitiveArray<u64>,
    op: Vec<u32>,
    ok: MutableBitmap,
    inconsistent: MutableBitmap,
    line: Vec<u64>,
    error: MutablePrimitiveArray<u32>,
}

impl PerfColumns {
    /// The records of a parsed log or block.
    pub fn of(r: &[crate::model::PerfRecord]) -> Self {
        let mut c = PerfColumns::default();
        c.end_ms.extend(r.iter().map(|r| r.end_ms));
        c.total.extend(r.iter().map(|r| r.total_ms));
        c.java.extend_trusted_len(r.iter().map(|r| r.java_ms));
        c.db.extend_trusted_len(r.iter().map(|r| r.db_ms));
        c.calls
            .extend_trusted_len(r.iter().map(|r| r.db_calls.map(u64::from)));
        c.op.extend(r.iter().map(|r| r.operation));
        r.iter().for_each(|r| {
            c.ok.push(r.ok);
            c.inconsistent.push(r.inconsistent);
        });
        c.line.extend(r.iter().map(|r| r.line));
        c.error.extend_trusted_len(r.iter().map(|r| r.error));
        c
    }

    pub fn len(&self) -> usize {
        self.end_ms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.end_ms.is_empty()
    }

    /// The records as the log's (`join`: operation and message ids, lines), frozen: columns
    /// no record has a value for are null scalars (JMeter's Java/DB split; the messages of a
    /// log without failures).
    pub fn freeze(self, join: &Join) -> PolarsResult<DataFrame> {
        let n = self.len();
        let op: Vec<u32> = self.op.into_iter().map(|i| join.id(i)).collect();
        let mut error = self.error;
        error.apply_values(|v| v.iter_mut().for_each(|i| *i = join.id(*i)));
        let bools =
            |name: &str, b: MutableBitmap| BooleanChunked::from_bitmap(name.into(), b.freeze());
        DataFrame::new(
            n,
            vec![
                end_ms(self.end_ms),
                Float64Chunked::from_vec(perf::TOTAL_MS.into(), self.total).into_column(),
                optional::<Float64Type>(perf::JAVA_MS, self.java),
                optional::<Float64Type>(perf::DB_MS, self.db),
                optional::<UInt64Type>(perf::DB_CALLS, self.calls),
                UInt32Chunked::from_vec(perf::OPERATION_ID.into(), op).into_column(),
                bools(perf::OK, self.ok).into_column(),
                bools(perf::INCONSISTENT, self.inconsistent).into_column(),
                line_column(perf::LINE, &self.line, join.line_offset),
                optional::<UInt32Type>(perf::ERROR_ID, error),
            ],
        )
    }
}

/// The requests' ends, null where a stamp is outside `PERF_CLOCK_MS` (no time).
fn end_ms(v: Vec<i64>) -> Column {
    use crate::model::PERF_CLOCK_MS as CLOCK;
    let valid = v
        .iter()
        .any(|e| !CLOCK.contains(e))
        .then(|| Bitmap::from_iter(v.iter().map(|e| CLOCK.contains(e))));
    Int64Chunked::from_vec_validity(perf::END_MS.into(), v, valid).into_column()
}

/// Each request's end moved back by its time, rounded as the parsers add it: the frame of a
/// JMeter log whose stamps are its requests' ends (`model::StampOrder::ends`). A stamp
/// outside `PERF_CLOCK_MS` is kept under its null, so it is moved too and judged again.
pub fn ends_at_stamps(df: &mut DataFrame) -> PolarsResult<()> {
    let end = df.column(perf::END_MS)?.i64()?.rechunk();
    let total = df.column(perf::TOTAL_MS)?.f64()?.rechunk();
    let (Some(e), Some(t)) = (end.downcast_iter().next(), total.downcast_iter().next()) else {
        return Ok(());
    };
    let moved = std::iter::zip(e.values_iter(), t.values_iter())
        .map(|(&e, &t)| e - round(t) as i64)
        .collect();
    df.replace(perf::END_MS, end_ms(moved))?;
    Ok(())
}

/// One row per record of a performance log parsed in one piece.
#[cfg(test)]
pub(crate) fn perf_frame(log: &crate::model::PerfLog) -> PolarsResult<PerfFrame> {
    let df = PerfColumns::of(&log.records).freeze(&Join::own(log.strings.len()))?;
    Ok(PerfFrame {
        df,
        operations: log.strings.list().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block's `Join`: ids through `ids`, lines moved on by `offset`.
    pub(super) fn join(ids: &[u32], offset: u64) -> Join {
        Join {
            ids: ids.to_vec(),
            line_offset: offset,
            invented_offset: 0,
        }
    }

    /// A log of these strings (`strings[0]` is `""`).
    pub(super) fn log_of(strings: Vec<String>) -> GcLog {
        let mut log = GcLog::default();
        for s in strings.iter().skip(1) {
            log.strings.intern(s);
        }
        log
    }

    /// The frame of a log of one string (none) whose events are one block; `sort`: the time
    /// order asked for.
    pub(super) fn frame_of(events: Vec<GcEvent>, sort: bool) -> GcFrame {
        let mut c = LogColumns::default();
        c.push_block(None, events, join(&[0], 0));
        if sort {
            c.sort_by_time();
        }
        c.finish(&log_of(vec![String::new()])).unwrap()
    }

    /// Each row's wall-clock offset (`gc::UTC_OFFSET_QH`): nothing a row while one offset, or
    /// none, fills the log; Int8 with nulls where they differ; kept with its row when the
    /// JRockit time order moves the rows.
    #[test]
    fn offsets_are_a_scalar_while_one_and_follow_their_rows() {
        let at = |up: f64, off: Option<i8>| {
            let mut e = ev(
                Record::Pause,
                Kind::Young,
                Some(up),
                1.0,
                (up * 10.0) as u64,
            );
            e.utc_offset_qh = off;
            e
        };
        let one = frame_of(vec![at(1.0, Some(4)), at(2.0, Some(4))], false);
        assert!(is_scalar(&one, gc::UTC_OFFSET_QH));
        assert_eq!(
            shape(one.df.column(gc::UTC_OFFSET_QH).unwrap()),
            (
                true,
                DataType::Int8,
                vec![Some("4".into()), Some("4".into())]
            )
        );
        let none = frame_of(vec![at(1.0, None), at(2.0, None)], false);
        assert_eq!(
            shape(none.df.column(gc::UTC_OFFSET_QH).unwrap()),
            (true, DataType::Int8, vec![None, None])
        );
        // Blocks of one offset, or of none, append to a scalar.
        for off in [None, Some(4)] {
            let mut c = LogColumns::default();
            for b in 0..3 {
                let up = f64::from(b);
                c.push_block(None, vec![at(up, off), at(up + 0.5, off)], join(&[0], 0));
            }
            let f = c.finish(&log_of(vec![String::new()])).unwrap();
            assert!(is_scalar(&f, gc::UTC_OFFSET_QH), "{off:?}");
            assert_eq!(
                f.df.column(gc::UTC_OFFSET_QH).unwrap().null_count(),
                off.map_or(6, |_| 0)
            );
        }
        // Printed out of time order: sorted, each offset stays with its uptime.
        let mixed = frame_of(
            vec![at(3.0, Some(8)), at(1.0, None), at(2.0, Some(-14))],
            true,
        );
        let up: Vec<Option<f64>> = mixed
            .df
            .column(gc::START_S)
            .unwrap()
            .f64()
            .unwrap()
            .iter()
            .collect();
        assert_eq!(up, [Some(1.0), Some(2.0), Some(3.0)]);
        assert_eq!(
            shape(mixed.df.column(gc::UTC_OFFSET_QH).unwrap()),
            (
                false,
                DataType::Int8,
                vec![None, Some("-14".into()), Some("8".into())]
            )
        );
    }

    /// A column's shape: a scalar or not, its type, its values as text.
    fn shape(c: &Column) -> (bool, DataType, Vec<Option<String>>) {
        let scalar = matches!(c, Column::Scalar(_));
        let s = c.cast(&DataType::String).unwrap();
        let vals = s
            .as_materialized_series()
            .str()
            .unwrap()
            .iter()
            .map(|v| v.map(str::to_owned))
            .collect();
        (scalar, c.dtype().clone(), vals)
    }

    /// Every fixture's events cut into blocks of any size, each block numbering its invented
    /// GC ids from 1 as a block's parser does, pushed as the joiner pushes them: the frame of
    /// the log in one piece.
    #[test]
    fn blocks_of_any_size_make_the_one_piece_frame() {
        let mut checked = 0;
        for (path, log, want) in crate::gc_fixture_logs() {
            let bytes = std::fs::read(&path).unwrap();
            let Some(crate::input::Detected::Gc(format)) = crate::input::detect(&bytes) else {
                continue;
            };
            let ids: Vec<u32> = (0..log.strings.len() as u32).collect();
            for size in [1, 2, 7, 300] {
                let mut c = LogColumns::default();
                let mut invented = 0;
                for chunk in log.events.chunks(size) {
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
                    let mut b = GcColumns::default();
                    b.push_events(&local);
                    let events: Vec<GcEvent> = b.events().collect();
                    assert_eq!(
                        format!("{events:?}"),
                        format!("{local:?}"),
                        "rows as events"
                    );
                    let most = b.invented_max();
                    let mut j = join(&ids, 0);
                    j.invented_offset = invented;
                    c.push_block(Some(b), Vec::new(), j);
                    invented += most;
                }
                c.end_of_log(format, &log);
                let got = c.finish(&log).unwrap();
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
            let c = figures("x", vals.iter().copied().collect());
            let scalar = matches!(c, Column::Scalar(_));
            let s = c.cast(&DataType::UInt64).unwrap();
            let back: Vec<Option<u64>> = s.as_materialized_series().u64().unwrap().iter().collect();
            (scalar, c.dtype().clone(), back)
        };
        let big = 1u64 << 40;
        let cases: [(&[Option<u64>], bool, DataType); 8] = [
            (&[Some(5), Some(5), Some(5)], true, DataType::UInt32),
            (&[Some(5), Some(5), Some(6)], false, DataType::UInt32),
            (&[Some(5), None, Some(5)], false, DataType::UInt32),
            (&[None, Some(5)], false, DataType::UInt32),
            (&[None, None], true, DataType::UInt32),
            (&[Some(big), Some(big)], true, DataType::UInt64),
            (&[Some(big), Some(1)], false, DataType::UInt64),
            (&[Some(1), Some(big), Some(1)], false, DataType::UInt64),
        ];
        for (vals, scalar, dtype) in cases {
            assert_eq!(col(vals), (scalar, dtype, vals.to_vec()), "{vals:?}");
        }
        assert_eq!(col(&[]).2, Vec::<Option<u64>>::new());
    }

    /// Room is made for the rows a log of the length claimed likely holds, but never more
    /// than `ROOM_GROWTH` times the rows read (10 GB of holes after a few MB of records must
    /// not take the address space of 10 GB of records), and when made, it holds a dense
    /// log's rows to its end (2 GiB: made at 2 GiB / 48 = 44.7 MB, 2000 rows read, 64 x 2000
    /// = 128,000 rows, more than the 48 x 2000 = 96,000 the log holds at that density); the
    /// values stay as appended.
    #[test]
    fn room_follows_the_rows_read() {
        let block =
            |n: u32| vec![UInt32Chunked::from_vec("x".into(), (0..n).collect()).into_column()];
        for (len, room) in [
            (10_000_000_000, 2000 * ROOM_GROWTH),
            (2 << 30, 2000 * ROOM_GROWTH),
            (4 * ROOM_AFTER, 12_000),
        ] {
            let at = room_after(len);
            let mut a = Appended::expecting(Some(len));
            a.push(block(1000), 1000, at / 2).unwrap();
            assert_eq!(a.room, 0, "{len}: not before room_after bytes");
            a.push(block(1000), 2000, at).unwrap();
            assert_eq!(a.room, room, "{len}");
            if len == 2 << 30 {
                assert!(
                    room >= 2000 * (len / at) as usize,
                    "{len}: the whole log's rows"
                );
            }
            a.push(block(5), 2005, at + 1).unwrap();
            let got: Vec<u32> = a.into_columns().unwrap()[0]
                .u32()
                .unwrap()
                .into_no_null_iter()
                .collect();
            let want: Vec<u32> = (0..1000).chain(0..1000).chain(0..5).collect();
            assert_eq!(got, want, "{len}");
        }
    }

    /// The room's pages are faulted in ahead of the appends by tasks handed over, up to
    /// `2 * FAULT_AHEAD` bytes past the last value and never past the room; the values are
    /// those appended, with or without the tasks run.
    #[test]
    fn room_is_faulted_in_ahead_of_the_appends_by_tasks_handed_over() {
        let block = |from: u64| {
            let v: Vec<u64> = (from..from + 1000).collect();
            vec![UInt64Chunked::from_vec("x".into(), v).into_column()]
        };
        let handed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        for run in [true, false] {
            let count = std::sync::Arc::clone(&handed);
            let hand: Hand = std::sync::Arc::new(move |t: Task| {
                count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if run {
                    t();
                }
                None
            });
            let mut a = Appended::expecting(Some(4 * ROOM_AFTER));
            a.hand_to(hand);
            let mut rows = 0;
            for k in 0..200u64 {
                rows += 1000;
                a.push(
                    block(k * 1000),
                    rows,
                    ROOM_AFTER * 4 * rows as u64 / 200_000,
                )
                .unwrap();
                if let Some(Some(r)) = a.rooms.first() {
                    let written = rows * 8;
                    assert!(r.faulted <= r.bytes, "within the room");
                    assert!(
                        r.faulted >= written.min(r.bytes),
                        "{k}: at least the values"
                    );
                    assert!(
                        r.faulted <= written + 2 * FAULT_AHEAD,
                        "{k}: not too far ahead"
                    );
                }
            }
            assert!(a.rooms.first().is_some_and(Option::is_some), "room made");
            let got: Vec<u64> = a.into_columns().unwrap()[0]
                .u64()
                .unwrap()
                .into_no_null_iter()
                .collect();
            assert_eq!(got, (0..200_000).collect::<Vec<u64>>());
        }
        // 200 blocks of 8,000 bytes: a task each `FAULT_AHEAD` bytes or so, in both runs.
        let n = handed.load(std::sync::atomic::Ordering::Relaxed);
        assert!((8..=30).contains(&n), "{n} tasks");
    }

    /// Blocks' columns appended: one scalar where every block's is the same, else one array
    /// of the blocks' type, or the wider where they differ, nulls where a block had none.
    #[test]
    fn blocks_columns_appended_keep_values_and_take_the_wider_type() {
        let f = |v: &[Option<u64>]| figures(gc::HEAP_AFTER_KB, v.iter().copied().collect());
        let big = 1u64 << 40;
        let joined = |parts: Vec<Column>| {
            let mut cols = Appended::default();
            for p in parts {
                cols.push(vec![p], 0, 0).unwrap();
            }
            cols.into_columns().unwrap().remove(0)
        };
        let got = joined(vec![f(&[Some(3), Some(3)]), f(&[Some(3)])]);
        assert_eq!(
            shape(&got),
            (true, DataType::UInt32, vec![Some("3".into()); 3])
        );
        let got = joined(vec![f(&[None]), f(&[Some(3), Some(4)]), f(&[Some(big)])]);
        let want: Vec<Option<String>> = vec![
            None,
            Some("3".into()),
            Some("4".into()),
            Some(big.to_string()),
        ];
        assert_eq!(shape(&got), (false, DataType::UInt64, want));
        assert_eq!(got.as_materialized_series().n_chunks(), 1);
        let got = joined(vec![f(&[None]), f(&[None, None])]);
        assert_eq!(shape(&got), (true, DataType::UInt32, vec![None; 3]));
        // Ids: one byte a row while every block's are below 128.
        let ids = |v: &[u32]| id_column(gc::CAUSE, v.to_vec());
        let got = joined(vec![ids(&[1, 2]), ids(&[5])]);
        assert_eq!(got.dtype(), &DataType::Int8);
        let got = joined(vec![ids(&[1, 2]), ids(&[300, 300]), ids(&[7])]);
        let want: Vec<Option<String>> = ["1", "2", "300", "300", "7"]
            .map(|s| Some(s.into()))
            .to_vec();
        assert_eq!(shape(&got), (false, DataType::UInt32, want));
    }

    /// Boolean blocks appended (their bits kept beside the column): values in order across
    /// blocks, a scalar block among them, and a block with nulls after plain ones (the
    /// column then made whole and extended as any other).
    #[test]
    fn boolean_blocks_appended_keep_their_values_and_nulls() {
        let plain = |v: &[bool]| BooleanChunked::from_slice("b".into(), v).into_column();
        let scalar = |v: bool, n: usize| {
            Column::new_scalar("b".into(), Scalar::new(DataType::Boolean, v.into()), n)
        };
        let nulls = |v: &[Option<bool>]| {
            BooleanChunked::from_iter_options("b".into(), v.iter().copied()).into_column()
        };
        let values = |c: &Column| -> Vec<Option<bool>> {
            c.as_materialized_series().bool().unwrap().iter().collect()
        };
        // 9 values, then 3 from a scalar: the bits cross a byte's edge part-way.
        let mut a = Appended::default();
        for (i, block) in [
            plain(&[true, false, true]),
            plain(&[false; 6]),
            scalar(true, 3),
        ]
        .into_iter()
        .enumerate()
        {
            a.push(vec![block], i, 0).unwrap();
        }
        let got = a.into_columns().unwrap();
        let want: Vec<Option<bool>> = [true, false, true, false, false, false, false, false]
            .into_iter()
            .chain([false, true, true, true])
            .map(Some)
            .collect();
        assert_eq!(values(&got[0]), want);
        let mut a = Appended::default();
        for block in [
            plain(&[true, false]),
            plain(&[true]),
            nulls(&[None, Some(false)]),
        ] {
            a.push(vec![block], 0, 0).unwrap();
        }
        a.push(vec![plain(&[true])], 0, 0).unwrap();
        let got = a.into_columns().unwrap();
        let want = [
            Some(true),
            Some(false),
            Some(true),
            None,
            Some(false),
            Some(true),
        ];
        assert_eq!(values(&got[0]), want);
    }

    /// Scalar blocks appended after blocks of values: a null scalar's rows are null (and of
    /// the column's type), a boolean scalar's are its value, before and after nulls. (Their
    /// values are made here, not spread out by polars: see `values_apart`.)
    #[test]
    fn scalar_blocks_appended_after_values_keep_their_values_and_nulls() {
        let joined = |parts: Vec<Column>| {
            let mut cols = Appended::default();
            for p in parts {
                cols.push(vec![p], 0, 0).unwrap();
            }
            cols.into_columns().unwrap().remove(0)
        };
        let null = |name: &str, dtype: DataType, n: usize| {
            Column::new_scalar(name.into(), Scalar::null(dtype), n)
        };
        let ids = |v: &[u32]| id_column(gc::CAUSE, v.to_vec());
        let got = joined(vec![
            ids(&[1, 2]),
            null(gc::CAUSE, DataType::UInt32, 2),
            ids(&[3]),
        ]);
        let want: Vec<Option<String>> = vec![Some("1".into()), Some("2".into()), None, None]
            .into_iter()
            .chain([Some("3".into())])
            .collect();
        assert_eq!(shape(&got), (false, DataType::Int8, want));
        let bool_scalar = |v: bool, n: usize| {
            Column::new_scalar("b".into(), Scalar::new(DataType::Boolean, v.into()), n)
        };
        let got = joined(vec![
            BooleanChunked::from_iter_options("b".into(), [None, Some(true)].into_iter())
                .into_column(),
            bool_scalar(false, 2),
            null("b", DataType::Boolean, 1),
            bool_scalar(true, 2),
        ]);
        let values: Vec<Option<bool>> = got
            .as_materialized_series()
            .bool()
            .unwrap()
            .iter()
            .collect();
        let want = [
            None,
            Some(true),
            Some(false),
            Some(false),
            None,
            Some(true),
            Some(true),
        ];
        assert_eq!(values, want);
    }

    #[test]
    fn a_frame_put_in_time_order_keeps_every_row_and_shares_its_time_axis() {
        // JRockit rows as a block edge can leave them: a later block beginning before the
        // one before it ended, by less than a restart. Starts 100, 99.5, 99.8 (a collection
        // and its pause at 99.5).
        let ev = |rec: Record, start: f64, heap: u64, line: u64| {
            let mut e = GcEvent::new(rec, Kind::Young, start, line);
            e.uptime_s = Some(start);
            e.heap_before_kb = Some(heap);
            e
        };
        let f = frame_of(
            vec![
                ev(Record::Pause, 100.0, 30, 1),
                ev(Record::Pause, 99.5, 10, 2),
                ev(Record::Collection, 99.5, 11, 3),
                ev(Record::Pause, 99.8, 20, 4),
            ],
            true,
        );
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
        let ids = |v: &[u32]| -> (bool, DataType, Vec<u32>) {
            let col = id_column("x", v.to_vec());
            let back = col.cast(&DataType::UInt32).unwrap();
            let back = back.u32().unwrap().into_no_null_iter().collect();
            (matches!(col, Column::Scalar(_)), col.dtype().clone(), back)
        };
        // One id everywhere: a scalar, Int8.
        assert_eq!(ids(&[5, 5, 5]), (true, DataType::Int8, vec![5, 5, 5]));
        assert_eq!(ids(&[0, 127, 3]), (false, DataType::Int8, vec![0, 127, 3]));
        // 128 does not fit an i8.
        assert_eq!(
            ids(&[1, 2, 128, 70_000]),
            (false, DataType::UInt32, vec![1, 2, 128, 70_000])
        );
        assert_eq!(ids(&[300, 300]), (true, DataType::UInt32, vec![300, 300]));
    }

    /// The log-wide rules change a collector and `in_collection` through `Rows`: an id past
    /// 127 widens the column; the other rows keep theirs.
    #[test]
    fn rules_change_rows_of_the_appended_columns() {
        let mut events: Vec<GcEvent> = (0..4u64)
            .map(|i| {
                let mut e = GcEvent::new(Record::Pause, Kind::Young, 1.0, i + 1);
                e.uptime_s = Some(i as f64);
                e
            })
            .collect();
        events[3].collector = 1;
        let strings: Vec<String> = (0..200)
            .map(|i| {
                if i == 0 {
                    String::new()
                } else {
                    format!("c{i}")
                }
            })
            .collect();
        let ids: Vec<u32> = (0..200).collect();
        let mut c = LogColumns::default();
        c.push_block(None, events, join(&ids, 0));
        c.fill_collector(2, 150);
        let f = c.finish(&log_of(strings)).unwrap();
        let col = f.df.column(gc::COLLECTOR).unwrap();
        assert_eq!(col.dtype(), &DataType::UInt32);
        let v: Vec<Option<u32>> = col.u32().unwrap().iter().collect();
        assert_eq!(v, [Some(150), Some(150), Some(0), Some(1)]);
    }

    /// A rule that sets one row's `in_collection` over a scalar column keeps the scalar's
    /// value in the other rows (read from the scalar, not spread out by polars).
    #[test]
    fn in_collection_set_over_a_scalar_keeps_its_value_elsewhere() {
        let events: Vec<GcEvent> = (0..4u64)
            .map(|i| GcEvent::new(Record::Pause, Kind::Young, 1.0, i + 1))
            .collect();
        for v in [false, true] {
            let mut b = GcColumns::default();
            b.push_events(&events);
            let mut cols = b.freeze(&join(&[0], 0)).cols;
            let mut duration = take_duration(&mut cols).unwrap();
            cols[at(gc::IN_COLLECTION)] = Column::new_scalar(
                gc::IN_COLLECTION.into(),
                Scalar::new(DataType::Boolean, v.into()),
                4,
            );
            let mut rows = RuleRows::of(&cols, &mut duration).unwrap();
            rows.set_in_collection(1, !v);
            let got = rows.new_in_collection.unwrap();
            assert_eq!(
                (0..4).map(|i| got.get(i)).collect::<Vec<_>>(),
                [v, !v, v, v]
            );
        }
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
        let log = crate::parse::parse_one(
            crate::parse::hotspot::FAMILY,
            b"0.206: [GC pause (G1 Evacuation Pause) (young), 0.0050319 secs]\n\
              0.220: [GC cleanup 41408K->41408K(128M), 0.0014223 secs]\n",
        );
        let f = gc_frame(crate::parse::hotspot::FAMILY, &log).unwrap();
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
        let log = crate::parse::parse_one(
            crate::parse::hotspot::FAMILY,
            b"1.000: [GC [PSYoungGen: 100K->10K(200K)] 300K->210K(600K), 0.0100000 secs]\n\
              2.500: [Full GC [PSYoungGen: 100K->0K(200K)] 300K->150K(600K), 0.2000000 secs]\n",
        );
        let f = gc_frame(crate::parse::hotspot::FAMILY, &log).unwrap();
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
        let mut events = Vec::new();
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
            events.push(e);
        }
        events.push(ev(Record::Concurrent, Kind::Other, None, 5.0, 101));
        events.push(ev(Record::Pause, Kind::Young, Some(2.0), 20.0, 103));
        events.push(ev(Record::Pause, Kind::Young, Some(1.0), 20.0, 102));
        let mut c = LogColumns::default();
        c.push_block(None, events, join(&[0, 1], 0));
        // A line past u32::MAX is capped.
        let last = vec![ev(Record::Safepoint, Kind::Other, Some(3.0), 1.0, 7)];
        c.push_block(None, last, join(&[0, 1], u64::MAX));
        assert_eq!(c.len(), 104);
        let f = c.finish(&log_of(strings)).unwrap();
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
        let whole =
            crate::parse::parse_one(crate::parse::hotspot::FAMILY, format!("{a}{b}").as_bytes());
        let want = gc_frame(crate::parse::hotspot::FAMILY, &whole).unwrap();
        let mut strings = crate::model::Strings::default();
        let mut c = LogColumns::default();
        let mut lines = 0;
        for part in [a, b] {
            let block = crate::parse::parse_one(crate::parse::hotspot::FAMILY, part.as_bytes());
            let ids: Vec<u32> = block
                .strings
                .list()
                .iter()
                .map(|s| strings.intern(s))
                .collect();
            c.push_block(None, block.events, join(&ids, lines));
            lines += block.lines;
        }
        let got = c.finish(&log_of(strings.list().to_vec())).unwrap();
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

    /// Blocks of any size, each frozen alone, make the frame one block makes: every column,
    /// its values and its type, with values that change a column's form (a scalar figure
    /// that starts to differ, nulls after values and values after nulls, an id past 127, a
    /// figure past u32) falling inside blocks and on their edges; settled columns and events
    /// held, in one block, the same.
    #[test]
    fn blocks_frozen_alone_make_the_frame_one_block_makes() {
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
                // No offset until row 40, one until row 300 (scalars), then +0100, +0200
                // and none mixed.
                e.utc_offset_qh = if i < 40 {
                    None
                } else if i < 300 {
                    Some(4)
                } else {
                    [Some(4), Some(8), None][next(3) as usize]
                };
                e
            })
            .collect();
        let ids: Vec<u32> = (0..256).map(|i| (i * 3) % 250).collect();
        let strings: Vec<String> = (0..250).map(|i| format!("s{i}")).collect();
        let mut one = LogColumns::default();
        one.push_block(None, events.clone(), join(&ids, 40));
        let want = one.finish(&log_of(strings.clone())).unwrap();
        for block in [1usize, 255, 256, 257, 1000, n] {
            let mut c = LogColumns::default();
            for b in events.chunks(block) {
                // The first half settled in the parser's columns, the rest events held.
                let mut settled = GcColumns::default();
                settled.push_events(&b[..b.len() / 2]);
                c.push_block(Some(settled), b[b.len() / 2..].to_vec(), join(&ids, 40));
            }
            let got = c.finish(&log_of(strings.clone())).unwrap();
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
        let mut events = Vec::new();
        let big = (1u64 << 40) + 3;
        for (i, h) in [Some(7u64), None, Some(big), Some(9)]
            .into_iter()
            .enumerate()
        {
            let mut e = GcEvent::new(Record::Pause, Kind::Young, 1.0, i as u64 + 1);
            e.uptime_s = Some(i as f64);
            e.heap_after_kb = h;
            events.push(e);
        }
        let f = frame_of(events, false);
        let col = f.df.column(gc::HEAP_AFTER_KB).unwrap();
        assert_eq!(col.dtype(), &DataType::UInt64);
        let ca = col.u64().unwrap();
        let v: Vec<Option<u64>> = (0..ca.len()).map(|i| ca.get(i)).collect();
        assert_eq!(v, vec![Some(7), None, Some(big), Some(9)]);
    }
}

#[cfg(test)]
mod gc_id_tests {
    use super::tests::{frame_of, join, log_of};
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
        let mut events = Vec::new();
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
            events.push(e);
        }
        let f = frame_of(events, false);
        let got = u64s(&f, gc::GC_ID);
        let want: Vec<Option<u64>> = rows.iter().map(|r| r.4).collect();
        assert_eq!(got, want);
    }

    /// Invented ids are numbered on from the blocks before (`Join::invented_offset`) where
    /// they link, and no block's ids meet another's.
    #[test]
    fn invented_ids_numbered_on_across_blocks() {
        let block = |line: u64| {
            let mut c = GcEvent::new(Record::Collection, Kind::Old, 5.0, line);
            c.uptime_s = Some(line as f64);
            c.gc_id = Some(1);
            c.invented_id = true;
            let mut p = GcEvent::new(Record::Pause, Kind::Old, 1.0, line + 1);
            p.uptime_s = Some(line as f64);
            p.gc_id = Some(1);
            p.invented_id = true;
            p.in_collection = true;
            vec![c, p]
        };
        let mut c = LogColumns::default();
        for (k, line) in [1u64, 3, 5].into_iter().enumerate() {
            let mut j = join(&[0], 0);
            j.invented_offset = k as u64;
            c.push_block(None, block(line), j);
        }
        let f = c.finish(&log_of(vec![String::new()])).unwrap();
        let want = [1, 1, 2, 2, 3, 3].map(Some).to_vec();
        assert_eq!(u64s(&f, gc::GC_ID), want);
    }

    /// Blocks whose column is null throughout, then values: the values land in their rows.
    #[test]
    fn a_null_block_then_values() {
        let n = 300;
        let events: Vec<GcEvent> = (0..n)
            .map(|i| {
                let mut e = GcEvent::new(Record::Pause, Kind::Young, 1.0, i as u64 + 1);
                e.uptime_s = Some(i as f64);
                e.promoted_kb = (i > 256).then_some(i as u64);
                e
            })
            .collect();
        let mut c = LogColumns::default();
        for b in events.chunks(100) {
            c.push_block(None, b.to_vec(), join(&[0], 0));
        }
        let f = c.finish(&log_of(vec![String::new()])).unwrap();
        let got = u64s(&f, gc::PROMOTED_KB);
        let want: Vec<Option<u64>> = (0..n).map(|i| (i > 256).then_some(i as u64)).collect();
        assert_eq!(got, want);
        // Null in every block: a null scalar, nothing stored.
        assert!(matches!(
            f.df.column(gc::YOUNG_AFTER_KB).unwrap(),
            Column::Scalar(_)
        ));
        assert_eq!(f.df.column(gc::YOUNG_AFTER_KB).unwrap().null_count(), n);
    }
}
#[cfg(test)]
mod run_order_tests {
    use super::tests::frame_of;
    use super::*;

    fn ev(rec: Record, start: f64, line: u64) -> GcEvent {
        let mut e = GcEvent::new(rec, Kind::Young, 1.0, line);
        e.uptime_s = Some(start);
        e
    }

    /// The frame of (record, start, line) rows pushed as the joiner pushes them; `sort`: the
    /// time order asked for.
    fn columns(rows: &[(Record, f64, u64)], sort: bool) -> GcFrame {
        let events = rows
            .iter()
            .map(|&(rec, start, line)| ev(rec, start, line))
            .collect();
        frame_of(events, sort)
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
        let f = columns(
            &[
                (Record::Pause, 100.0, 1),
                (Record::Collection, 99.5, 2),
                (Record::Pause, 200.0, 3),
                (Record::Pause, 5.0, 4),
                (Record::Pause, 6.0, 5),
            ],
            true,
        );
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
        let f = columns(
            &[
                (Record::Pause, 5.0, 3),
                (Record::Pause, 6.0, 4),
                (Record::Pause, 100.0, 1),
                (Record::Pause, 200.0, 2),
            ],
            false,
        );
        assert_eq!(lines(&f), [Some(1), Some(2), Some(3), Some(4)]);
    }

    /// Runs already one after another and each in time order: nothing is taken.
    #[test]
    fn rows_in_order_are_left_as_they_are() {
        let f = columns(
            &[
                (Record::Pause, 100.0, 1),
                (Record::Pause, 200.0, 2),
                (Record::Pause, 5.0, 3),
                (Record::Pause, 6.0, 4),
            ],
            true,
        );
        let line = [1, 2, 3, 4];
        let start = [100.0, 200.0, 5.0, 6.0];
        let uptime = |i: usize| start.get(i).copied();
        let (run, damaged) = runs(&line, &uptime);
        assert!(run.is_some());
        assert!(damaged.is_empty());
        let record = Num::Const(Some(Record::Pause.code() as i8));
        assert!(order(&line, &uptime, &record, run.as_deref(), true).is_none());
        assert_eq!(lines(&f), [Some(1), Some(2), Some(3), Some(4)]);
    }

    /// One uptime far ahead of the run, which the next goes back from to carry on where the
    /// run was, is damage (its row, no restart); a jump the log carries on from is a gap, and
    /// a jump the next uptime goes back from to below the run is a restart after it.
    #[test]
    fn an_uptime_far_ahead_and_gone_back_from_is_damage() {
        let ups = |u: &[f64]| {
            let line: Vec<u32> = (1..=u.len() as u32).collect();
            let up = |i: usize| u.get(i).copied();
            runs(&line, &up)
        };
        let mut u: Vec<f64> = (0..19).map(|i| 1.0 + 5.0 * i as f64).collect();
        u[9] = 9_999_999_999.0;
        assert_eq!(ups(&u), (None, vec![9]));
        // Two in a log, each gone back from.
        u[15] = 7.3e9;
        assert_eq!(ups(&u), (None, vec![9, 15]));
        // A gap: the log goes on from the jump.
        assert_eq!(ups(&[1.0, 2.0, 1000.0, 1001.0]), (None, vec![]));
        // Back from the jump to below the run: the JVM restarted after it.
        assert_eq!(
            ups(&[100.0, 200.0, 5.0, 6.0]),
            (Some(vec![0, 0, 1, 1]), vec![])
        );
        // A last uptime far ahead has nothing after it to say so: kept.
        assert_eq!(ups(&[1.0, 2.0, 9e9]), (None, vec![]));
    }

    /// The check on every core answers as the walk: logs of three pieces and more, with a
    /// restart inside a piece, one at a piece's first row (back from the piece before), a
    /// step back the walk does not take for a restart (0.5 s, or above half), and lines out
    /// of order (the walk decides). So do the blocks' `Steps`, the log cut into blocks of
    /// several sizes: "one run" where the check finds no step back and the blocks' lines
    /// follow one another, never where there is a restart.
    #[test]
    fn restarts_found_on_every_core_as_by_the_walk() {
        let n = 3 * BACK_PIECE + 7;
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
            let up = |i: usize| u.get(i).copied();
            let d = Displaced::of(l);
            let walked = runs_walked(l, &up, &d, &mut Vec::new());
            assert_eq!(walked.is_some(), *restart, "case {i}");
            // Where there is no restart, the check on every core says so alone; where there
            // is one, it leaves the log to the walk.
            let may = may_go_back(l, &up, &d);
            assert_eq!(may, *restart, "case {i}");
            assert_eq!(runs(l, &up), (walked, Vec::new()), "case {i}");
            for size in [1000, BACK_PIECE - 1, BACK_PIECE + 2, n] {
                let blocks: Vec<Option<Steps>> = (0..n)
                    .step_by(size)
                    .map(|a| {
                        let b = (a + size).min(n);
                        Steps::of(&l[a..b], |k| up(a + k))
                    })
                    .collect();
                let follow = l
                    .chunks(size)
                    .collect::<Vec<_>>()
                    .windows(2)
                    .all(|w| w[1].iter().min() >= w[0].iter().max());
                let one = Steps::one_run(&blocks);
                assert_eq!(one, follow && !may, "case {i}, blocks of {size}");
            }
        }
        assert!(Steps::one_run(&[None, None]));
        assert!(Steps::of(&[], |_| Some(1.0)).is_none());
    }
}
