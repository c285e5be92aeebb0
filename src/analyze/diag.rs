//! What a tuner asks after the pause counts: allocation and promotion rates, the live set
//! after full/old collections and its trend, pause time per cause, and findings with their
//! evidence (count, time, first lines). Column code over the GC frame; no text formatting.

use super::{clean, floor_i64};
use crate::frame::gc::*;
use crate::frame::{Flag, GcFrame, IdReader, Num, UCol};
use crate::model::{
    Kind, Record, FLAG_CONCURRENT_MODE_FAILURE, FLAG_PROMOTION_FAILED, FLAG_TO_SPACE_EXHAUSTED,
};
use polars::prelude::*;
use serde::Serialize;

/// GC overhead above this share of an interval (percent) is a finding.
pub const OVERHEAD_PCT: f64 = 5.0;
/// Lines of evidence kept per finding.
pub const FIRST_LINES: usize = 5;
/// A safepoint whose threads took longer than this (ms) to reach it is `long-ttsp`.
pub const LONG_TTSP_MS: f64 = 100.0;
/// Most intervals the per-interval figures are computed over (a 1 ms `--interval` on a
/// month-long log would be billions).
pub const MAX_INTERVALS: f64 = 2_000_000.0;

/// A live-set trend needs this many points (two always make a line)...
const LIVE_SET_MIN_POINTS: usize = 3;
/// ... spread over this much of the log, seconds: a slope per hour from seconds of log is
/// noise extrapolated (a 7 s log gave 3.5 GB/h).
const LIVE_SET_MIN_SPAN_S: f64 = 120.0;

/// Every finding id, in the order they are reported.
pub const FINDING_IDS: [&str; 11] = [
    "explicit-gc",
    "concurrent-mode-failure",
    "promotion-failure",
    "to-space-exhausted",
    "humongous",
    "metadata-gc",
    "full-gc",
    "over-pause-target",
    "gc-overhead",
    "long-ttsp",
    "live-set-growth",
];

/// The diagnostics of one GC log: flattened into the `gc` object of the JSON contract.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct GcDiag {
    /// KiB allocated between consecutive collections, summed: occupancy before a collection
    /// less occupancy after the one before it (young generation where both have its figures,
    /// else the heap); an interval where it fell (freed concurrently) counts 0. Null when no
    /// two collections have heap figures.
    pub allocated_kb: Option<u64>,
    /// `allocated_kb` over the time it was measured in (first collection's end to last one's
    /// start, per JVM run), KiB/s.
    pub alloc_rate_kb_per_s: Option<f64>,
    /// Per-interval allocation rates (each interval's allocation spread evenly over the time
    /// between its two collections), over the intervals of `alloc_interval_s`.
    pub alloc_rate_p50_kb_per_s: Option<f64>,
    pub alloc_rate_p95_kb_per_s: Option<f64>,
    pub alloc_rate_max_kb_per_s: Option<f64>,
    /// The interval length of the per-interval figures (allocation, GC overhead), seconds.
    pub alloc_interval_s: Option<f64>,
    /// Old-generation growth across the young collections that have young-generation figures
    /// ((heap after − young after) − (heap before − young before)), or the K the log says
    /// were promoted (JRockit R28 `YC promoted ... (36668KB)`), KiB; null without either.
    pub promoted_kb: Option<i64>,
    /// `promoted_kb` over the same time as `alloc_rate_kb_per_s`, KiB/s.
    pub promotion_rate_kb_per_s: Option<f64>,
    /// Full (and old) collections with a heap-after figure: the live-set points.
    pub live_set_collections: u64,
    /// Heap after the last of them, KiB.
    pub live_set_kb: Option<u64>,
    /// Least-squares slope of heap-after over time through those points, KiB per hour; null
    /// from fewer than three points or points less than two minutes apart.
    pub live_set_slope_kb_per_h: Option<f64>,
    pub causes: Vec<CauseRow>,
    pub findings: Vec<Finding>,
}

/// Pause time per GC cause, by collection: a JRockit collection or ZGC cycle counts once, its
/// pause time being its pauses' summed; a collection nested in another's stop is that stop's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CauseRow {
    /// As the log writes it; null where the log gives none.
    pub cause: Option<String>,
    /// Collections with this cause that stopped the application (nested ones aside).
    pub count: u64,
    /// Null, as the two below, where the log has no pause lines (ZGC under `-Xlog:gc`).
    pub pause_total_ms: Option<f64>,
    /// A collection's pause time (its pauses summed), mean and longest: not the single
    /// pauses' `pause_mean_ms` and `pause_max_ms` of the summary where a collection
    /// itemises several.
    pub collection_pause_mean_ms: Option<f64>,
    pub collection_pause_max_ms: Option<f64>,
    /// Share of all collections' pause time, percent.
    pub share_pct: Option<f64>,
}

/// One finding and its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub id: &'static str,
    /// Collections (pauses, intervals for `gc-overhead`) showing it.
    pub count: u64,
    /// Their pause time, ms.
    pub total_ms: f64,
    /// Their first lines in the log (at most `FIRST_LINES`).
    pub first_lines: Vec<u64>,
}

/// What the diagnostics need besides the frame.
#[derive(Debug, Clone, Default)]
pub struct DiagOptions {
    /// Interval of the per-interval figures, seconds; None: chosen from the span.
    pub interval_s: Option<f64>,
    /// Pauses longer than this are `over-pause-target`.
    pub pause_target_ms: Option<f64>,
    /// The log's run metadata (`collector` of a unified log).
    pub meta: Vec<(String, String)>,
}

/// The frame's columns the diagnostics (and the summary's counts) read.
pub(super) struct Cols<'a> {
    /// Per row, its record, kind, `in_collection` and whether it has heap figures (`CLASS_*`,
    /// a byte a row), read off those columns once, a column at a time: asked of the column
    /// readers per row and pass, they were most of each pass's time (~30 cycles a row; a
    /// 2.9 M-row JRockit log's diagnostics were 0.25 s of CPU).
    class: Vec<u8>,
    /// What each class byte means (`PROP_*` bits), worked out once for the 256 of them: a
    /// row's test is then one table lookup (decoding the record and kind per row and pass was
    /// most of the passes that only pick rows, 30 ms of a 2.9 M-row log's live-set pass).
    props: [u8; 256],
    flags: Num<'a, Int8Type>,
    t: Num<'a, Float64Type>,
    dur: Num<'a, Float64Type>,
    run: Num<'a, UInt32Type>,
    line: Num<'a, UInt32Type>,
    cause: IdReader<'a>,
    name: IdReader<'a>,
    collector: IdReader<'a>,
    hb: UCol<'a>,
    ha: UCol<'a>,
    yb: UCol<'a>,
    ya: UCol<'a>,
    promoted: UCol<'a>,
    gc_id: UCol<'a>,
}

/// `Cols::class` bits: the record's code in bits 0-2 (`CLASS_NO_RECORD` where the row has
/// none the model knows), `in_collection`, the kind's code in bits 4-6 (a code the model
/// does not know is read as `Other`, which every pass treats as it treated no kind: none
/// asks for `Other`), heap before and after both present.
const CLASS_NO_RECORD: u8 = 7;
const CLASS_IN_COLL: u8 = 1 << 3;
const CLASS_KIND_SHIFT: u32 = 4;
const CLASS_HEAP: u8 = 1 << 7;
/// Rows per piece of `Cols::of`'s parallel pass.
const CLASS_PIECE: usize = 1 << 16;

/// `Cols::props` bits.
const PROP_PAUSE: u8 = 1;
const PROP_COLLECTION: u8 = 1 << 1;
const PROP_HEAP: u8 = 1 << 2;
/// May carry the heap's figures, and a full or old collection (a live-set point's row).
const PROP_LIVE: u8 = 1 << 3;
/// A collection of the young generation (a G1 initial mark is one).
const PROP_YOUNG_COLLECTION: u8 = 1 << 4;
const PROP_FULL_COLLECTION: u8 = 1 << 5;
const PROP_SAFEPOINT: u8 = 1 << 6;
/// A collection run inside another's stop (`Record::Nested`): its time is that pause's.
const PROP_NESTED: u8 = 1 << 7;

/// The `PROP_*` bits of each class byte, from the record, kind and flags it holds.
fn props_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    for (class, p) in t.iter_mut().enumerate() {
        let class = class as u8;
        let record = Record::from_code(class & 7);
        let kind = Kind::from_code(class >> CLASS_KIND_SHIFT & 7);
        let in_coll = class & CLASS_IN_COLL != 0;
        let collection = match record {
            Some(Record::Collection | Record::Nested) => true,
            Some(Record::Pause) => !in_coll,
            _ => false,
        };
        // A record that may carry the heap's figures: anything but a safepoint or an
        // itemised pause (ZGC's concurrent `Minor Collection` has them too).
        let may_heap = !matches!(record, Some(Record::Safepoint) | None) && !in_coll;
        let bit = |b: bool, v: u8| if b { v } else { 0 };
        *p = bit(record == Some(Record::Pause), PROP_PAUSE)
            | bit(collection, PROP_COLLECTION)
            | bit(may_heap && class & CLASS_HEAP != 0, PROP_HEAP)
            | bit(
                may_heap && matches!(kind, Some(Kind::Full | Kind::Old)),
                PROP_LIVE,
            )
            | bit(
                collection && matches!(kind, Some(Kind::Young | Kind::InitialMark)),
                PROP_YOUNG_COLLECTION,
            )
            // A full collection nested in a stop made that stop a full one: counted there.
            | bit(
                collection && kind == Some(Kind::Full) && record != Some(Record::Nested),
                PROP_FULL_COLLECTION,
            )
            | bit(record == Some(Record::Safepoint), PROP_SAFEPOINT)
            | bit(record == Some(Record::Nested), PROP_NESTED);
    }
    t
}

impl<'a> Num<'a, Int8Type> {
    /// A code column's codes (`none` for a null or a code `known` rejects) shifted by `shift`
    /// into `class`, the rows from `at` on.
    fn code_into(
        &self,
        class: &mut [u8],
        at: usize,
        shift: u32,
        none: u8,
        known: impl Fn(i8) -> bool,
    ) {
        let code = |v: Option<i8>| match v {
            Some(v) if known(v) => v as u8,
            _ => none,
        };
        match self {
            Num::Const(v) => {
                let c = code(*v) << shift;
                class.iter_mut().for_each(|x| *x |= c);
            }
            Num::Slice { vals, valid: None } => {
                let vals = vals.get(at..).unwrap_or_default();
                for (x, v) in class.iter_mut().zip(vals.iter()) {
                    *x |= code(Some(*v)) << shift;
                }
                for x in class.iter_mut().skip(vals.len()) {
                    *x |= none << shift;
                }
            }
            _ => {
                for (i, x) in class.iter_mut().enumerate() {
                    *x |= code(self.get(at + i)) << shift;
                }
            }
        }
    }
}

/// Where a column has values at a glance: a scalar's presence, or a one-slice column's length
/// and validity bits with their offset (none without nulls); `None` for several chunks.
type Layout<'a> = Option<Result<bool, (usize, Option<(&'a [u8], usize)>)>>;

impl<T: PolarsNumericType> Num<'_, T> {
    fn layout(&self) -> Layout<'_> {
        match self {
            Num::Const(v) => Some(Ok(v.is_some())),
            Num::Slice { vals, valid } => Some(Err((vals.len(), *valid))),
            Num::Chunked(_) => None,
        }
    }
}

impl UCol<'_> {
    fn layout(&self) -> Layout<'_> {
        match self {
            UCol::Narrow(c) => c.layout(),
            UCol::Wide(c) => c.layout(),
        }
    }
    /// A column without a value (a scalar null).
    fn all_null(&self) -> bool {
        self.layout() == Some(Ok(false))
    }
    /// `bit` cleared in `class` where the column has no value, the rows from `at` on.
    fn clear_where_null(&self, class: &mut [u8], at: usize, bit: u8) {
        let whole = |len: usize| len >= at + class.len();
        match self.layout() {
            Some(Ok(true)) => {}
            Some(Err((len, None))) if whole(len) => {}
            Some(Ok(false)) => class.iter_mut().for_each(|x| *x &= !bit),
            // Read off the bits, a branch-free step a row (through `get`, 4 ns a row).
            Some(Err((len, Some((bits, off))))) if whole(len) => {
                for (i, x) in class.iter_mut().enumerate() {
                    let j = off + at + i;
                    let set = bits.get(j >> 3).map_or(0, |b| b >> (j & 7) & 1);
                    *x &= !(bit * (1 - set));
                }
            }
            _ => {
                for (i, x) in class.iter_mut().enumerate() {
                    if self.get(at + i).is_none() {
                        *x &= !bit;
                    }
                }
            }
        }
    }
}

impl<'a> Cols<'a> {
    pub(super) fn of(df: &'a DataFrame) -> PolarsResult<Cols<'a>> {
        let hb = UCol::of(df.column(HEAP_BEFORE_KB)?)?;
        let ha = UCol::of(df.column(HEAP_AFTER_KB)?)?;
        let rec: Num<Int8Type> = Num::col(df, RECORD)?;
        let kind: Num<Int8Type> = Num::col(df, KIND)?;
        let in_coll = Flag::of(df.column(IN_COLLECTION)?)?;
        // Piece by piece on every core, each piece's bytes in cache for the five columns:
        // column after column on one thread, a 934 k-row JRockit R27 log kept one core busy
        // for 7 ms after its stream with the other idle.
        use rayon::prelude::*;
        let mut class = vec![CLASS_HEAP; df.height()];
        class
            .par_chunks_mut(CLASS_PIECE)
            .enumerate()
            .for_each(|(k, part)| {
                let at = k * CLASS_PIECE;
                rec.code_into(part, at, 0, CLASS_NO_RECORD, |v| {
                    u8::try_from(v).ok().and_then(Record::from_code).is_some()
                });
                kind.code_into(part, at, CLASS_KIND_SHIFT, Kind::Other.code(), |v| {
                    u8::try_from(v).ok().and_then(Kind::from_code).is_some()
                });
                match &in_coll {
                    Flag::Const(false) => {}
                    Flag::Const(true) => part.iter_mut().for_each(|x| *x |= CLASS_IN_COLL),
                    f => {
                        for (i, x) in part.iter_mut().enumerate() {
                            if f.get(at + i) == Some(true) {
                                *x |= CLASS_IN_COLL;
                            }
                        }
                    }
                }
                hb.clear_where_null(part, at, CLASS_HEAP);
                ha.clear_where_null(part, at, CLASS_HEAP);
            });
        Ok(Cols {
            class,
            props: props_table(),
            flags: Num::col(df, FLAGS)?,
            t: Num::col(df, T_S)?,
            dur: Num::col(df, DURATION_MS)?,
            run: Num::col(df, RUN)?,
            line: Num::col(df, LINE)?,
            cause: IdReader::of(df.column(CAUSE)?)?,
            name: IdReader::of(df.column(NAME)?)?,
            collector: IdReader::of(df.column(COLLECTOR)?)?,
            hb,
            ha,
            yb: UCol::of(df.column(YOUNG_BEFORE_KB)?)?,
            ya: UCol::of(df.column(YOUNG_AFTER_KB)?)?,
            promoted: UCol::of(df.column(PROMOTED_KB)?)?,
            gc_id: UCol::of(df.column(GC_ID)?)?,
        })
    }
    #[inline(always)]
    fn class(&self, i: usize) -> u8 {
        self.class
            .get(i)
            .copied()
            .unwrap_or(CLASS_NO_RECORD | Kind::Other.code() << CLASS_KIND_SHIFT)
    }
    #[inline(always)]
    pub(super) fn kind(&self, i: usize) -> Option<Kind> {
        Kind::from_code(self.class(i) >> CLASS_KIND_SHIFT & 7)
    }
    /// The record, and whether a (full) collection, of rows of class `class`.
    pub(super) fn class_record(&self, class: u8) -> Option<Record> {
        Record::from_code(class & 7)
    }
    pub(super) fn class_is_collection(&self, class: u8) -> bool {
        self.class_props(class) & PROP_COLLECTION != 0
    }
    pub(super) fn class_is_full_collection(&self, class: u8) -> bool {
        self.class_props(class) & PROP_FULL_COLLECTION != 0
    }
    #[inline(always)]
    fn class_props(&self, class: u8) -> u8 {
        self.props[usize::from(class)]
    }
    #[inline(always)]
    fn props(&self, i: usize) -> u8 {
        self.props[usize::from(self.class(i))]
    }
    /// A whole collection: a collection record, or a pause not itemised under one.
    #[inline(always)]
    pub(super) fn is_collection(&self, i: usize) -> bool {
        self.props(i) & PROP_COLLECTION != 0
    }
    #[inline(always)]
    pub(super) fn is_pause(&self, i: usize) -> bool {
        self.props(i) & PROP_PAUSE != 0
    }
    /// A record with the heap's figures before and after.
    #[inline(always)]
    fn is_heap(&self, i: usize) -> bool {
        self.props(i) & PROP_HEAP != 0
    }
    /// Collections: where the log numbers them (`gc_id`), one per number within a run and
    /// collector — the pauses and phases of a CMS, G1, Shenandoah or ZGC cycle are one
    /// collection, and so is a generational ZGC cycle whose pauses the log leaves out, while
    /// JRockit's `[YC#1]` and `[OC#1]` are two — and one per collection row without a number.
    /// `by_row`: the collection rows, counted by class.
    pub(super) fn collections(&self, by_row: u64) -> u64 {
        if self.gc_id.all_null() {
            return by_row;
        }
        // Numbers seen, a bit each per run and collector (they count up from 0 or 1); past
        // `DENSE`, in a set. A hand loop: polars' filter and `unique` over (run, collector,
        // gc_id) made a 210 MB unified log's summary 3 % (one core) and 12 % (two) slower and
        // its peak 88-102 MB where it is 46-51.
        const DENSE: u64 = 1 << 26;
        let mut spaces: std::collections::HashMap<(u32, u32), usize> = Default::default();
        let mut bits: Vec<Vec<u64>> = Vec::new();
        let mut last: Option<((u32, u32), usize)> = None;
        let mut sparse: std::collections::HashSet<(u32, u32, u64)> = Default::default();
        let mut n = 0u64;
        let concurrent = Record::Concurrent.code();
        for i in 0..self.class.len() {
            let class = self.class(i);
            let collection = self.class_props(class) & PROP_COLLECTION != 0;
            let numbered = collection
                || class & 7 == concurrent
                || (class & 7 == Record::Pause.code() && class & CLASS_IN_COLL != 0);
            if !numbered {
                continue;
            }
            let Some(id) = self.gc_id.get(i) else {
                n += u64::from(collection);
                continue;
            };
            let space = (self.run.get(i).unwrap_or(0), self.collector.get(i));
            if id >= DENSE {
                n += u64::from(sparse.insert((space.0, space.1, id)));
                continue;
            }
            let k = match last {
                Some((s, k)) if s == space => k,
                _ => {
                    let next = spaces.len();
                    let k = *spaces.entry(space).or_insert(next);
                    if k == bits.len() {
                        bits.push(Vec::new());
                    }
                    last = Some((space, k));
                    k
                }
            };
            let b = &mut bits[k];
            let (w, bit) = ((id / 64) as usize, 1u64 << (id % 64));
            if b.len() <= w {
                b.resize(w + 1, 0);
            }
            n += u64::from(b[w] & bit == 0);
            b[w] |= bit;
        }
        n
    }
    /// Rows by their class byte, and what each class is (`PROP_*`): counts by record and
    /// kind without a test per row.
    pub(super) fn class_counts(&self) -> Vec<(u8, u64)> {
        // Four tables, rows taken in turn: a log of one class would otherwise make every
        // increment wait for the one before.
        let mut t = [[0u64; 256]; 4];
        let mut quads = self.class.chunks_exact(4);
        for q in &mut quads {
            for (k, &c) in q.iter().enumerate() {
                t[k][usize::from(c)] += 1;
            }
        }
        for &c in quads.remainder() {
            t[0][usize::from(c)] += 1;
        }
        (0..=255u8)
            .map(|c| (c, t.iter().map(|t| t[usize::from(c)]).sum()))
            .filter(|&(_, k)| k > 0)
            .collect()
    }
    #[inline(always)]
    fn line(&self, i: usize) -> u64 {
        u64::from(self.line.get(i).unwrap_or(0))
    }
    #[inline(always)]
    fn dur(&self, i: usize) -> f64 {
        self.dur.get(i).unwrap_or(0.0)
    }
}

/// Collects a finding's evidence.
#[derive(Default)]
struct Evidence {
    count: u64,
    total_ms: f64,
    lines: Vec<u64>,
}

impl Evidence {
    /// Only the first `FIRST_LINES` distinct lines are kept, in order (a 2 GB log's million
    /// full GCs kept every line, to sort them at the end).
    fn add(&mut self, ms: f64, line: u64) {
        self.count += 1;
        self.total_ms += ms;
        if let Err(at) = self.lines.binary_search(&line) {
            if at < FIRST_LINES {
                self.lines.insert(at, line);
                self.lines.truncate(FIRST_LINES);
            }
        }
    }
    fn finding(self, id: &'static str) -> Option<Finding> {
        (self.count > 0).then(|| Finding {
            id,
            count: self.count,
            total_ms: clean(self.total_ms),
            first_lines: self.lines,
        })
    }
}

/// Seconds of `[a, b]` inside `[lo, hi]`.
fn overlap(a: f64, b: f64, lo: f64, hi: f64) -> f64 {
    (b.min(hi) - a.max(lo)).max(0.0)
}

/// Division by an interval's length, floored: `floor(x / len)` as the division rounds it,
/// by a multiplication where the product is not within its rounding of an integer (a
/// division for each of them was a fifth of the passes that spread figures over the
/// intervals). `x * inv` is within 1.5 ε·|q| of `x / len` rounded (ε: f64::EPSILON), so a
/// product farther than 4 ε·|q| from an integer floors as the quotient does.
#[derive(Clone, Copy)]
struct Per {
    len: f64,
    inv: f64,
}

impl Per {
    fn new(len: f64) -> Per {
        Per {
            len,
            inv: 1.0 / len,
        }
    }
    /// Where interval `k` of a grid whose first interval is `first` starts, seconds.
    #[inline(always)]
    fn start(self, first: i64, k: usize) -> f64 {
        (first + k as i64) as f64 * self.len
    }
    #[inline(always)]
    fn floor(self, x: f64) -> i64 {
        self.floor_ceil(x).0
    }
    /// `floor` and ceiling of `x / len` in one: where the product is clearly not an integer,
    /// the quotient is not one either and its ceiling is the floor's next.
    #[inline(always)]
    fn floor_ceil(self, x: f64) -> (i64, i64) {
        let q = x * self.inv;
        let f = floor_i64(q);
        let frac = q - f as f64;
        let m = q.abs() * (4.0 * f64::EPSILON);
        if frac > m && frac < 1.0 - m {
            (f, f + 1)
        } else {
            // Near an integer, not finite, or beyond i64: the division itself; -floor(-y) is
            // the ceiling of y.
            let y = x / self.len;
            (floor_i64(y), floor_i64(-y).saturating_neg())
        }
    }
}

/// Where `index` keeps `key`'s row in a list grouped by key (`u32::MAX`, out of any list's
/// range, until the caller pushes the key's row and sets it): a search of the list per row is
/// quadratic in the keys.
#[inline(always)]
fn row_slot(index: &mut Vec<u32>, key: u32) -> &mut u32 {
    let k = key as usize;
    if index.len() <= k {
        index.resize(k + 1, u32::MAX);
    }
    &mut index[k]
}

/// Amount `v` spread evenly over `[a, b]` into the intervals of `per` (index from `first`);
/// all of it into `a`'s interval when the stretch is empty.
#[inline(always)]
fn spread(buckets: &mut [f64], first: i64, per: Per, a: f64, b: f64, v: f64) {
    spread_at(buckets, first, per, (a, per.floor(a)), (b, per.floor(b)), v);
}

/// `spread`, the floors of `a` and `b` over the interval given (`Per::floor`): a caller that
/// needs them too works them out once.
#[inline(always)]
fn spread_at(
    buckets: &mut [f64],
    first: i64,
    per: Per,
    (a, fa): (f64, i64),
    (b, fb): (f64, i64),
    v: f64,
) {
    let last = buckets.len() as i64 - 1;
    if last < 0 {
        return;
    }
    let len = per.len;
    let idx = |f: i64| (f - first).clamp(0, last) as usize;
    if b <= a {
        buckets[idx(fb)] += v;
        return;
    }
    let (from, to) = (idx(fa), idx(fb));
    if from == to {
        // Within one interval (most pauses, many stretches): all of it there.
        buckets[from] += v;
        return;
    }
    for (k, x) in buckets.iter_mut().enumerate().take(to + 1).skip(from) {
        let lo = per.start(first, k);
        *x += v * overlap(a, b, lo, lo + len) / (b - a);
    }
}

/// Pause seconds per interval and each interval's first pause line: the GC-overhead pass.
struct PauseBins {
    per: Per,
    /// The grid's first interval (`Per::floor` of its start).
    first: i64,
    paused: Vec<f64>,
    first_line: Vec<Option<u64>>,
    /// A pause over more intervals than this goes to `long`.
    long_after: usize,
    long: LongPauses,
}

impl PauseBins {
    /// For a grid of `count` (at least 1) intervals.
    fn new(per: Per, first: i64, count: usize, long_after: usize) -> PauseBins {
        PauseBins {
            per,
            first,
            paused: vec![0.0; count],
            first_line: vec![None; count],
            long_after,
            long: LongPauses::default(),
        }
    }

    /// A pause of `d` seconds from `t`, written at `line`.
    #[inline]
    fn add(&mut self, t: f64, d: f64, line: u64) {
        let PauseBins {
            per,
            first,
            paused,
            first_line,
            long_after,
            long,
        } = self;
        let (per, first) = (*per, *first);
        let e = t + d;
        // Each floor once (four a pause were a fifth of this pass).
        let ft = per.floor(t);
        let (fe, ce) = per.floor_ceil(e);
        let last = paused.len() as i64 - 1;
        let k_t = (ft - first).clamp(0, last) as usize;
        // The last interval the pause reaches into (one ending on an interval's start does
        // not reach into it): ceil(e / len) - 1.
        let k_end = if e > t {
            ((ce - 1 - first).clamp(0, last) as usize).max(k_t)
        } else {
            k_t
        };
        if k_end - k_t <= *long_after {
            spread_at(paused, first, per, (t, ft), (e, fe), d);
            for fl in first_line.iter_mut().take(k_end + 1).skip(k_t) {
                *fl = Some(fl.map_or(line, |x| x.min(line)));
            }
        } else {
            let to = (fe - first).clamp(0, last) as usize;
            long.add(
                paused,
                (per, first),
                (t, e, d),
                (k_t, to),
                (line, k_t, k_end),
            );
        }
    }

    fn finish(mut self) -> (Vec<f64>, Vec<Option<u64>>) {
        self.long.finish(&mut self.paused, &mut self.first_line);
        (self.paused, self.first_line)
    }
}

/// A pause the pause pass spreads over more intervals than this goes to `LongPauses`.
const LONG_PAUSE: usize = 64;

/// The pauses that reach over more than `LONG_PAUSE` intervals: hours long and overlapping,
/// as only a damaged or hostile log has them (20,000 pauses of 20 h at `--interval 1s` took
/// 4.9 s an interval at a time). Their end intervals get their parts as `spread_at` gives
/// them; the intervals between, `share` each (the pause's seconds by interval length) through
/// one running sum, and their first lines in line order, each interval from the first pause
/// that reaches it. Ordinary logs never come here, so their sums are as they were.
#[derive(Default)]
struct LongPauses {
    /// Changes to the running sum of shares at each interval, and to the count of pauses
    /// open there (the sum is reset to 0 where none is, so rounding leaves nothing behind).
    share: Vec<f64>,
    open: Vec<i32>,
    /// (line, first interval, last interval) of each.
    reach: Vec<(u64, usize, usize)>,
}

impl LongPauses {
    /// A pause of `v` seconds over `[a, b]`, into `buckets` (a grid of `per` from interval
    /// `first`) from interval `from` to `to` (as `spread_at` clamps them), its line going to
    /// the intervals of `reach` (line, first, last).
    // Kept out of the per-pause loop: inlined there, it cost 0.9 % more instructions in all
    // on R28's 30 MB head, where no pause comes here.
    #[cold]
    #[inline(never)]
    fn add(
        &mut self,
        buckets: &mut [f64],
        (per, first): (Per, i64),
        (a, b, v): (f64, f64, f64),
        (from, to): (usize, usize),
        reach: (u64, usize, usize),
    ) {
        let (lo, len) = (|k: usize| per.start(first, k), per.len);
        buckets[from] += v * overlap(a, b, lo(from), lo(from) + len) / (b - a);
        buckets[to] += v * overlap(a, b, lo(to), lo(to) + len) / (b - a);
        if self.share.is_empty() {
            self.share = vec![0.0; buckets.len() + 1];
            self.open = vec![0; buckets.len() + 1];
        }
        let share = v * len / (b - a);
        self.share[from + 1] += share;
        self.share[to] -= share;
        self.open[from + 1] += 1;
        self.open[to] -= 1;
        self.reach.push(reach);
    }

    fn finish(mut self, buckets: &mut [f64], first_line: &mut [Option<u64>]) {
        if self.reach.is_empty() {
            return;
        }
        let (mut sum, mut open) = (0.0, 0);
        for (k, p) in buckets.iter_mut().enumerate() {
            open += self.open[k];
            sum = if open > 0 { sum + self.share[k] } else { 0.0 };
            *p += sum;
        }
        // `next[k]`: the first interval from k on that no pause has reached yet (halved paths).
        self.reach.sort_unstable();
        let mut next: Vec<usize> = (0..=first_line.len()).collect();
        let find = |next: &mut Vec<usize>, mut k: usize| {
            while next[k] != k {
                next[k] = next[next[k]];
                k = next[k];
            }
            k
        };
        for (l, a, b) in self.reach {
            let mut k = find(&mut next, a);
            while k <= b {
                first_line[k] = Some(first_line[k].map_or(l, |x| x.min(l)));
                next[k] = k + 1;
                k = find(&mut next, k + 1);
            }
        }
    }
}

/// The per-interval grid over `[lo, hi]` seconds: (first index, count).
fn grid(lo: f64, hi: f64, len: f64) -> PolarsResult<(i64, usize)> {
    let (a, b) = ((lo / len).floor(), (hi / len).floor());
    if !(a.is_finite() && b.is_finite()) || b - a + 1.0 > MAX_INTERVALS {
        polars_bail!(ComputeError: "--interval {len} s is too short for a span of {} s: more than {MAX_INTERVALS} intervals", hi - lo);
    }
    Ok((a as i64, (b - a) as usize + 1))
}

/// The run's collector is a concurrent one (G1, CMS, ZGC, Shenandoah): a full GC there is a
/// failure of it.
fn concurrent_collector(f: &GcFrame, c: &Cols, n: usize, meta: &[(String, String)]) -> bool {
    const NAMES: [&str; 7] = [
        "G1",
        "CMS",
        "ASCMS",
        "ZGC",
        "Shenandoah",
        "ParNew",
        "ASParNew",
    ];
    if let Some((_, v)) = meta.iter().find(|(k, _)| k == "collector") {
        return NAMES.contains(&v.as_str());
    }
    // The strings that tell, found once; then the rows that carry one of them.
    let tells: Vec<bool> = f
        .strings
        .iter()
        .map(|s| NAMES.contains(&s.as_str()) || s.starts_with("CMS-"))
        .collect();
    if !tells.iter().any(|&t| t) {
        return false;
    }
    let told = |id: u32| tells.get(id as usize).copied().unwrap_or(false);
    (0..n).any(|i| told(c.collector.get(i)) || told(c.name.get(i)))
}

/// The log's time bounds and what the allocation pass needs to know of the order of the
/// collections with heap figures.
struct Bounds {
    t_lo: f64,
    t_hi: f64,
    /// Collections with heap figures: how many, all with a time, in time order (ties in the
    /// frame's order), in line order.
    n_heap: u64,
    timed: bool,
    by_time: bool,
    by_line: bool,
}

impl Bounds {
    /// A hand loop: the bounds and `promoted_kb` as polars expressions (`min`, `max`, casts,
    /// `when`, `filter`, `sum`) made a 210 MB JRockit log's summary 11 % (one core) and 18 %
    /// (two) slower, its peak 202-222 MB where it is 134 (the file's size is 210).
    fn of(c: &Cols, n: usize) -> Bounds {
        let (mut t_lo, mut t_hi) = (f64::INFINITY, f64::NEG_INFINITY);
        match (&c.t, &c.dur) {
            // Every row timed (most logs): the bounds in a loop of their own, over the slices.
            (
                Num::Slice {
                    vals: t,
                    valid: None,
                },
                Num::Slice {
                    vals: d,
                    valid: None,
                },
            ) if t.len() >= n && d.len() >= n => {
                for (t, d) in t.iter().zip(d.iter()).take(n) {
                    t_lo = t_lo.min(*t);
                    t_hi = t_hi.max(t + d / 1000.0);
                }
            }
            _ => {
                for i in 0..n {
                    if let Some(t) = c.t.get(i) {
                        t_lo = t_lo.min(t);
                        t_hi = t_hi.max(t + c.dur(i) / 1000.0);
                    }
                }
            }
        }
        let (mut n_heap, mut timed, mut by_time, mut by_line) = (0u64, true, true, true);
        let mut last: Option<(f64, u64)> = None;
        for i in 0..n {
            if c.is_heap(i) {
                let t = c.t.get(i);
                n_heap += 1;
                timed &= t.is_some();
                let key = (t.unwrap_or(0.0), c.line(i));
                if let Some((pt, pl)) = last {
                    by_time &= pt <= key.0;
                    by_line &= pl <= key.1;
                }
                last = Some(key);
            }
        }
        Bounds {
            t_lo,
            t_hi,
            n_heap,
            timed,
            by_time,
            by_line,
        }
    }
}

/// Promotion: old-generation growth across young collections with young figures (a hand
/// loop: see `Bounds::of`).
fn promoted_kb(c: &Cols, n: usize) -> Option<i64> {
    if c.promoted.all_null() && (c.yb.all_null() || c.ya.all_null()) {
        // Neither stated nor to be worked out (JRockit before R28: no young figures).
        return None;
    }
    let mut promoted: Option<i64> = None;
    for i in 0..n {
        // Young collections (a G1 initial mark is one).
        if c.props(i) & PROP_YOUNG_COLLECTION == 0 {
            continue;
        }
        if let Some(kb) = c.promoted.get(i) {
            // As the log states it (JRockit R28).
            *promoted.get_or_insert(0) += kb as i64;
        } else if let (Some(hb), Some(ha), Some(yb), Some(ya)) =
            (c.hb.get(i), c.ha.get(i), c.yb.get(i), c.ya.get(i))
        {
            let old_before = hb as i64 - yb as i64;
            let old_after = ha as i64 - ya as i64;
            *promoted.get_or_insert(0) += old_after - old_before;
        }
    }
    promoted
}

/// The live-set points: heap after each full or old collection (time, KiB, row), in time
/// order.
fn live_set_points(c: &Cols, n: usize) -> Vec<(f64, f64, usize)> {
    // Room for the rows of the classes a point is on (those without a time or heap figure
    // are left out below: room never written is never resident), then one pass; sorted only
    // when out of time order (a JRockit R27 log's 311 k old collections, collected as they
    // came, doubled their way to 23 MB where they need 7.5; the stable sort's buffer was
    // 3.7 MB more).
    let at_most: u64 = c
        .class_counts()
        .into_iter()
        .filter(|&(class, _)| c.class_props(class) & PROP_LIVE != 0)
        .map(|(_, k)| k)
        .sum();
    let mut pts = Vec::with_capacity(usize::try_from(at_most).unwrap_or(n).min(n));
    for i in 0..n {
        if c.props(i) & PROP_LIVE != 0 {
            if let (Some(t), Some(ha)) = (c.t.get(i), c.ha.get(i)) {
                pts.push((t, ha as f64, i));
            }
        }
    }
    if !pts.is_sorted_by(|a, b| a.0.total_cmp(&b.0).is_le()) {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    pts
}

/// What is read off each row on its own: the causes table and the findings' evidence.
struct ReadOff {
    causes: Vec<CauseRow>,
    /// The first seven of `FINDING_IDS`, in that order.
    ev: [Evidence; 7],
    over: Evidence,
    ttsp: Evidence,
}

/// Causes and the findings read off each collection.
fn read_off(f: &GcFrame, c: &Cols, n: usize, o: &DiagOptions) -> PolarsResult<ReadOff> {
    let concurrent = concurrent_collector(f, c, n, &o.meta);
    // What each string says, looked at once per string, not once per row.
    const EXPLICIT: u8 = 1;
    const HUMONGOUS: u8 = 2;
    const METADATA: u8 = 4;
    const TO_SPACE: u8 = 8;
    let said: Vec<u8> = f
        .strings
        .iter()
        .map(|s| {
            let to_space = [
                "to-space exhausted",
                "to-space overflow",
                "Evacuation Failure",
            ];
            (u8::from(s == "System" || s.starts_with("System.gc")) * EXPLICIT)
                | (u8::from(s.contains("Humongous")) * HUMONGOUS)
                | (u8::from(
                    s.starts_with("Metadata GC")
                        || s.starts_with("Last ditch")
                        || s.contains("Perm"),
                ) * METADATA)
                | (u8::from(to_space.iter().any(|t| s.contains(t))) * TO_SPACE)
        })
        .collect();
    let says = |id: u32, bit: u8| said.get(id as usize).is_some_and(|b| b & bit != 0);
    let mut causes: Vec<(u32, u64, f64, f64)> = Vec::new();
    // Each cause's row in `causes`, by its string id (`row_slot`).
    let mut row_of: Vec<u32> = vec![u32::MAX; f.strings.len()];
    let mut all_ms = 0.0;
    let mut ev: [Evidence; 7] = Default::default();
    let mut over = Evidence::default();
    let mut any_pause = false;
    for i in 0..n {
        if c.is_pause(i) {
            any_pause = true;
            if let Some(target) = o.pause_target_ms {
                if c.dur(i) > target {
                    over.add(c.dur(i), c.line(i));
                }
            }
        }
        if !c.is_collection(i) {
            continue;
        }
        let (mut d, line) = (c.dur(i), c.line(i));
        let cid = c.cause.get(i);
        if c.props(i) & PROP_NESTED != 0 {
            // Its time is its enclosing pause's, counted there; what it shows is evidence.
            d = 0.0;
        } else {
            // Grouped here, in the pass that reads the findings: polars' filter and
            // `group_by(cause)` made a 210 MB JRockit log's summary 5 % (one core) and 8 %
            // (two) slower and its two-core peak 220 MB where it is 134, over the file's size.
            all_ms += d;
            let row = row_slot(&mut row_of, cid);
            match causes.get_mut(*row as usize) {
                Some(r) => {
                    r.1 += 1;
                    r.2 += d;
                    r.3 = r.3.max(d);
                }
                None => {
                    *row = causes.len() as u32;
                    causes.push((cid, 1, d, d));
                }
            }
        }
        let name = c.name.get(i);
        let flags = c.flags.get(i).unwrap_or(0) as u8;
        // The findings this row shows, a bit each in `ev`'s order (an array of bools built
        // and read back per row was a fifth of this pass: a store-forwarding stall).
        let hits = u8::from(says(cid, EXPLICIT))
            | u8::from(flags & FLAG_CONCURRENT_MODE_FAILURE != 0) << 1
            | u8::from(flags & FLAG_PROMOTION_FAILED != 0) << 2
            | u8::from(flags & FLAG_TO_SPACE_EXHAUSTED != 0 || says(name, TO_SPACE)) << 3
            | u8::from(says(cid, HUMONGOUS)) << 4
            | u8::from(says(cid, METADATA)) << 5
            | u8::from(concurrent && c.props(i) & PROP_FULL_COLLECTION != 0) << 6;
        if hits != 0 {
            for (k, e) in ev.iter_mut().enumerate() {
                if hits >> k & 1 == 1 {
                    e.add(d, line);
                }
            }
        }
    }
    causes.sort_by(|a, b| {
        b.2.total_cmp(&a.2)
            .then_with(|| f.string(a.0).cmp(f.string(b.0)))
    });
    let causes = causes
        .into_iter()
        .map(|(id, count, total, max)| CauseRow {
            cause: (id != 0).then(|| f.string(id).to_string()),
            count,
            pause_total_ms: any_pause.then(|| clean(total)),
            collection_pause_mean_ms: any_pause.then(|| clean(total / count as f64)),
            collection_pause_max_ms: any_pause.then(|| clean(max)),
            share_pct: (all_ms > 0.0).then(|| clean(100.0 * total / all_ms)),
        })
        .collect();
    // --- Safepoints whose threads took long to stop (`ttsp_ms`; a frame made without the
    // column, in tests, has none): the reach, not the safepoint's whole stop, is the
    // evidence's time.
    let mut ttsp = Evidence::default();
    if let Ok(col) = f.df.column(TTSP_MS) {
        let reach: Num<Float64Type> = Num::cast(col)?;
        // A log without them (a scalar null): nothing to look at.
        if !matches!(reach, Num::Const(None)) {
            for i in 0..n {
                if let Some(r) = reach.get(i).filter(|&r| r > LONG_TTSP_MS) {
                    if c.props(i) & PROP_SAFEPOINT != 0 {
                        ttsp.add(r, c.line(i));
                    }
                }
            }
        }
    }
    Ok(ReadOff {
        causes,
        ev,
        over,
        ttsp,
    })
}

pub fn diag(f: &GcFrame, o: &DiagOptions) -> PolarsResult<GcDiag> {
    if f.df.height() == 0 {
        return Ok(GcDiag::default());
    }
    diag_with(f, &Cols::of(&f.df)?, o)
}

/// What the passes over the pauses and collections in time give (`timed_passes`).
struct Timed {
    /// The intervals' length and (first index, count), where there are intervals.
    grid: Option<(f64, (i64, usize))>,
    allocated: Option<u64>,
    timed_kb: u64,
    /// Per run: the first collection's end, the last one's start.
    spans: Vec<(u32, f64, f64)>,
    alloc_kb: Option<Vec<f64>>,
    /// Pause seconds per interval and each interval's first pause line.
    pause_bins: Option<(Vec<f64>, Vec<Option<u64>>)>,
}

/// The allocation pass and the pauses' spread over the intervals, side by side, within the
/// log's `bounds`, and `beside` (the passes that need no bounds) after them. Hand loops: a
/// row's figure is split over every interval its time crosses, in proportion (a row lands in
/// several groups, which no polars aggregation does), and each collection is paired with the
/// one before it in its run.
fn timed_passes<R: Send>(
    c: &Cols,
    n: usize,
    o: &DiagOptions,
    bounds: &Bounds,
    beside: impl FnOnce() -> R + Send,
) -> (PolarsResult<Timed>, R) {
    let end = |i: usize| c.t.get(i).map(|t| t + c.dur(i) / 1000.0);
    let span = bounds.t_hi - bounds.t_lo;
    let len = match o.interval_s {
        Some(s) => Some(s),
        None if span.is_finite() && span > 0.0 => {
            let ms = super::perf::auto_interval_ms((span * 1000.0).ceil() as i64, bounds.n_heap);
            // Whole hours enough to keep within `MAX_INTERVALS` where even hours are too
            // many (a damaged stamp can make a span of centuries): coarse figures, never a
            // failed analysis over an option nobody gave.
            let auto = ms as f64 / 1000.0;
            Some(if span / auto < MAX_INTERVALS {
                auto
            } else {
                (span / MAX_INTERVALS / 3600.0).ceil() * 3600.0
            })
        }
        None => None,
    }
    .filter(|l| *l > 0.0 && span.is_finite() && span >= 0.0);
    let grid = match len.map(|len| grid(bounds.t_lo, bounds.t_hi, len).map(|g| (len, g))) {
        Some(Err(e)) => return (Err(e), beside()),
        g => g.and_then(Result::ok),
    };

    // --- Allocation: collections with heap figures, in time order (line order when some
    // have no time), each paired with the one before it in the same JVM run. Sorted only
    // when the log is out of order (it mostly is not).
    let in_order = (bounds.timed && bounds.by_time) || (!bounds.timed && bounds.by_line);
    let order: Option<Vec<u32>> = if in_order {
        None
    } else {
        let mut v: Vec<u32> = (0..n as u32).filter(|&i| c.is_heap(i as usize)).collect();
        if bounds.timed {
            // Stable: ties keep the frame's order.
            v.sort_by(|&a, &b| {
                let t = |i: u32| c.t.get(i as usize).unwrap_or(0.0);
                t(a).total_cmp(&t(b))
            });
        } else {
            v.sort_by_key(|&i| c.line(i as usize));
        }
        Some(v)
    };
    // The allocation pass, the promotion pass and the pauses' spread over the intervals
    // read the frame apart: side by side (with the summary's own pass beside all of them, a
    // 2.9 M-row log's diagnostics took 0.56 s on one core).
    let alloc_pass = || {
        let mut alloc_kb = grid.map(|(_, (_, count))| vec![0.0; count]);
        let per = grid.map(|(len, (first, _))| (Per::new(len), first));
        let mut allocated: Option<u64> = None;
        // The time measured in: per run, first collection's end to last one's start.
        let mut spans: Vec<(u32, f64, f64)> = Vec::new();
        // Each run's row in `spans`, by run (`row_slot`).
        let mut span_of: Vec<u32> = Vec::new();
        let mut timed_kb = 0u64;
        let mut prev: Option<usize> = None;
        let mut step = |i: usize| {
            let Some(p) = prev.replace(i) else { return };
            if c.run.get(p) != c.run.get(i) {
                return;
            }
            // Young figures only between collections that are not full: a failed young
            // collection's young "after" (`ParNew (promotion failed): 5000K->5000K`) is not what
            // the full collection left.
            let full = |j: usize| c.kind(j) == Some(Kind::Full);
            let young = (!full(p) && !full(i))
                .then(|| c.yb.get(i).zip(c.ya.get(p)))
                .flatten();
            let Some((before, after)) = young.or_else(|| c.hb.get(i).zip(c.ha.get(p))) else {
                return;
            };
            let kb = before.saturating_sub(after);
            *allocated.get_or_insert(0) += kb;
            let (Some(a), Some(b)) = (end(p), c.t.get(i)) else {
                return;
            };
            timed_kb += kb;
            let run = c.run.get(i).unwrap_or(0);
            let row = row_slot(&mut span_of, run);
            match spans.get_mut(*row as usize) {
                Some(s) => {
                    s.1 = s.1.min(a);
                    s.2 = s.2.max(b);
                }
                None => {
                    *row = spans.len() as u32;
                    spans.push((run, a, b));
                }
            }
            if let (Some(buckets), Some((per, first))) = (alloc_kb.as_mut(), per) {
                spread(buckets, first, per, a, b, kb as f64);
            }
        };
        // Plain loops: through `filter(..).for_each(&mut step)` the step was a call per row.
        match &order {
            Some(v) => {
                for &i in v {
                    step(i as usize);
                }
            }
            None => {
                for i in 0..n {
                    if c.is_heap(i) {
                        step(i);
                    }
                }
            }
        }
        (allocated, timed_kb, spans, alloc_kb)
    };

    // GC overhead: pause seconds per interval (and each interval's first pause line), to be
    // judged over the interval's part of the log's time.
    let pause_pass = || {
        let (len, (first, count)) = grid?;
        let mut bins = PauseBins::new(Per::new(len), first, count, LONG_PAUSE);
        for i in 0..n {
            if !c.is_pause(i) {
                continue;
            }
            let Some(t) = c.t.get(i) else { continue };
            bins.add(t, c.dur(i) / 1000.0, c.line(i));
        }
        Some(bins.finish())
    };
    // The allocation pass, the longest and one piece, is the one left for a core that comes
    // free (on two cores, the summary's, after the pauses' figures): this thread takes the
    // pause pass and then `beside`'s passes, which the other core can still share. (The other
    // way round, a 200 MB JRockit R28 log's two cores ended 8-12 ms apart: the allocation pass
    // here, 73 ms, and the free core alone on the pause pass and then the causes.)
    let ((pause_bins, rest), (allocated, timed_kb, spans, alloc_kb)) =
        rayon::join(|| rayon::join(pause_pass, beside), alloc_pass);
    let timed = Timed {
        grid,
        allocated,
        timed_kb,
        spans,
        alloc_kb,
        pause_bins,
    };
    (Ok(timed), rest)
}

/// `diag`, reading `c` (the frame's columns, shared with the summary).
pub(super) fn diag_with(f: &GcFrame, c: &Cols, o: &DiagOptions) -> PolarsResult<GcDiag> {
    let n = f.df.height();
    let mut out = GcDiag::default();
    if n == 0 {
        return Ok(out);
    }

    // The passes over the rows, side by side as far as they need nothing of each other (one
    // after the other, a 2.9 M-row JRockit log's diagnostics kept one core busy and the other
    // idle for most of their 0.4 s): the time bounds, then the allocation and pause passes
    // that need them, then the promotion and the live set beside the causes and the findings
    // read off each row.
    let bounds = Bounds::of(c, n);
    let (timed, (read, (pts, promoted))) = timed_passes(c, n, o, &bounds, || {
        rayon::join(
            || read_off(f, c, n, o),
            || rayon::join(|| live_set_points(c, n), || promoted_kb(c, n)),
        )
    });
    let (read, timed) = (read?, timed?);
    out.allocated_kb = timed.allocated;
    let elapsed: f64 = timed.spans.iter().map(|s| (s.2 - s.1).max(0.0)).sum();
    out.promoted_kb = promoted;
    if elapsed > 0.0 {
        out.alloc_rate_kb_per_s = Some(clean(timed.timed_kb as f64 / elapsed));
        out.promotion_rate_kb_per_s = promoted.map(|p| clean(p as f64 / elapsed));
    }

    let mut overhead = Evidence::default();
    if let Some((len, (first, count))) = timed.grid {
        out.alloc_interval_s = Some(clean(len));
        let per = Per::new(len);
        let lo_of = |k: usize| per.start(first, k);
        if let (true, Some(kb)) = (elapsed > 0.0, &timed.alloc_kb) {
            let mut cov = vec![0.0; count];
            for &(_, a, b) in &timed.spans {
                // The intervals the run's span reaches into (one more each side; the others'
                // overlap is 0): every interval for every run is quadratic in a log restarted
                // every few collections.
                let (from, to) = match (a.is_finite() && b.is_finite(), count) {
                    (true, 1..) => {
                        let k = |t: f64| {
                            per.floor(t)
                                .saturating_sub(first)
                                .clamp(0, count as i64 - 1)
                        };
                        (
                            (k(a) - 1).max(0) as usize,
                            (k(b) + 1).min(count as i64 - 1) as usize,
                        )
                    }
                    _ => (0, count.saturating_sub(1)),
                };
                for (k, cv) in cov.iter_mut().enumerate().take(to + 1).skip(from) {
                    let lo = lo_of(k);
                    *cv += overlap(a, b, lo, lo + len);
                }
            }
            let mut rates: Vec<f64> = kb
                .iter()
                .zip(&cov)
                .filter(|(_, c)| **c > 1e-9)
                .map(|(k, c)| k / c)
                .collect();
            let max = rates.iter().copied().max_by(f64::total_cmp);
            // The summary's linear quantiles (numpy's default), the same arithmetic.
            let q = super::gc::linear_quantiles(&mut rates, &[0.5, 0.95]);
            out.alloc_rate_p50_kb_per_s = q[0].map(clean);
            out.alloc_rate_p95_kb_per_s = q[1].map(clean);
            out.alloc_rate_max_kb_per_s = max.map(clean);
        }
        // GC overhead, judged where the interval's part of the log's time is at least half an
        // interval.
        let (paused, first_line) = timed.pause_bins.unwrap_or_default();
        for k in 0..count {
            let lo = lo_of(k);
            let cv = overlap(bounds.t_lo, bounds.t_hi, lo, lo + len);
            let (Some(&p), Some(&fl)) = (paused.get(k), first_line.get(k)) else {
                continue;
            };
            if cv >= len / 2.0 && p / cv * 100.0 > OVERHEAD_PCT {
                overhead.add(p * 1000.0, fl.unwrap_or(0));
            }
        }
    }

    // --- Live set: heap after each full or old collection, and its trend.
    out.live_set_collections = pts.len() as u64;
    out.live_set_kb = pts.last().map(|p| p.1 as u64);
    let mut growth = Evidence::default();
    let span = pts.first().zip(pts.last()).map_or(0.0, |(a, b)| b.0 - a.0);
    if pts.len() >= LIVE_SET_MIN_POINTS && span >= LIVE_SET_MIN_SPAN_S {
        // Least squares over the points the evidence needs anyway (a frame of them for
        // polars would be a second copy).
        let m = pts.len() as f64;
        let (mx, my) = (
            pts.iter().map(|p| p.0).sum::<f64>() / m,
            pts.iter().map(|p| p.1).sum::<f64>() / m,
        );
        let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
        let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        if sxx > 0.0 {
            let slope = sxy / sxx;
            out.live_set_slope_kb_per_h = Some(clean(slope * 3600.0));
            // Growing: the fitted growth over the points a tenth of the first live set or
            // more.
            let first = pts[0].1;
            let rise = slope * span;
            if slope > 0.0 && first > 0.0 && rise >= 0.1 * first {
                for p in &pts {
                    growth.add(c.dur(p.2), c.line(p.2));
                }
            }
        }
    }

    out.causes = read.causes;
    // `FINDING_IDS` lists the findings in this order.
    out.findings = read
        .ev
        .into_iter()
        .chain([read.over, overhead, read.ttsp, growth])
        .zip(FINDING_IDS)
        .filter_map(|(e, id)| e.finding(id))
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pauses over many intervals (`LongPauses`) give what spreading each pause an interval
    /// at a time gives: the same seconds (to rounding) and the same first lines, for long
    /// pauses that overlap one another and short ones, start before the grid or end past it,
    /// on an interval length that is no power of two.
    #[test]
    fn long_pauses_as_an_interval_at_a_time() {
        let (per, first, count) = (Per::new(0.3), 5_i64, 700_usize);
        let mut fast = PauseBins::new(per, first, count, LONG_PAUSE);
        let mut slow = PauseBins::new(per, first, count, usize::MAX);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rnd = |m: f64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 1_000_000) as f64 / 1e6 * m
        };
        for line in 1..=400_u64 {
            let t = first as f64 * per.len - 20.0 + rnd(260.0);
            let d = if line % 3 == 0 { rnd(120.0) } else { rnd(2.0) };
            fast.add(t, d, line);
            slow.add(t, d, line);
        }
        assert!(fast.long.reach.len() > 50, "{}", fast.long.reach.len());
        let ((fast, fast_l), (slow, slow_l)) = (fast.finish(), slow.finish());
        assert_eq!(fast_l, slow_l);
        for (k, (a, b)) in fast.iter().zip(&slow).enumerate() {
            assert!(
                (a - b).abs() <= 1e-9 * b.abs().max(1.0),
                "interval {k}: {a} {b}"
            );
        }
        // Intervals no pause reaches stay exactly 0.
        assert!(slow
            .iter()
            .zip(&fast)
            .all(|(a, b)| (*a == 0.0) == (*b == 0.0)));
    }

    fn frame(text: &str) -> GcFrame {
        crate::columns::gc_frame(
            crate::parse::hotspot::FAMILY,
            &crate::parse::parse_one(crate::parse::hotspot::FAMILY, text.as_bytes()),
        )
        .unwrap()
    }

    /// `Cols::of` builds the class bytes in pieces of `CLASS_PIECE` rows: each row's byte
    /// is its own record, kind, `in_collection` and heap figures, across piece edges and in
    /// a frame sliced off another (whose validity bits start part-way into a byte).
    #[test]
    fn class_bytes_in_pieces_are_each_rows_own() {
        let n = 2 * CLASS_PIECE + 1000;
        let records = [
            Record::Pause,
            Record::Collection,
            Record::Concurrent,
            Record::Safepoint,
        ];
        let kinds = [Kind::Young, Kind::Full, Kind::Old, Kind::Other];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut log = crate::model::GcLog::default();
        for i in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            log.events.push(crate::model::GcEvent {
                record: records[(x % 4) as usize],
                kind: kinds[(x >> 2) as usize % 4],
                in_collection: x >> 4 & 1 == 1,
                heap_before_kb: (x >> 5 & 3 != 0).then_some(100),
                heap_after_kb: (x >> 7 & 3 != 0).then_some(50),
                uptime_s: Some(i as f64),
                line: i as u64 + 1,
                ..crate::model::GcEvent::default()
            });
        }
        let f = crate::columns::LogColumns::of_events(&log.events, 1)
            .finish(&log)
            .unwrap();
        let want = |e: &crate::model::GcEvent| {
            let heap = e.heap_before_kb.is_some() && e.heap_after_kb.is_some();
            e.record.code()
                | e.kind.code() << CLASS_KIND_SHIFT
                | if e.in_collection { CLASS_IN_COLL } else { 0 }
                | if heap { CLASS_HEAP } else { 0 }
        };
        let c = Cols::of(&f.df).unwrap();
        assert_eq!(c.class.len(), n);
        for (i, e) in log.events.iter().enumerate() {
            assert_eq!(c.class(i), want(e), "row {i}");
        }
        let sliced = f.df.slice(3, n - 3);
        let c = Cols::of(&sliced).unwrap();
        for (i, e) in log.events.iter().enumerate().skip(3) {
            assert_eq!(c.class(i - 3), want(e), "row {i} of the slice");
        }
    }

    #[test]
    fn floor_by_multiplication_is_the_division_floored() {
        // Interval lengths the automatic choice makes and odd ones; stamps on interval
        // boundaries, a bit either side of them, and in between, at uptimes up to years.
        let lens = [
            0.001,
            0.01,
            0.1,
            1.0,
            3.0,
            7.3,
            60.0,
            0.3,
            1.0 / 3.0,
            86_400.0,
        ];
        let mut checked = 0;
        for &len in &lens {
            let per = Per::new(len);
            for k in (-50i64..5000).chain([1 << 20, 1 << 30, 123_456_789]) {
                let on = k as f64 * len;
                let near = [
                    on,
                    f64::from_bits(on.to_bits() + 1),
                    f64::from_bits(on.to_bits().wrapping_sub(1)),
                ];
                for x in near
                    .into_iter()
                    .chain([on + len * 0.5, on + len * 0.999_999_9, -on])
                {
                    assert_eq!(per.floor(x), floor_i64(x / len), "x {x} len {len}");
                    let ceil = floor_i64(-(x / len)).saturating_neg();
                    assert_eq!(
                        per.floor_ceil(x),
                        (floor_i64(x / len), ceil),
                        "x {x} len {len}"
                    );
                    checked += 1;
                }
            }
            for x in [
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                1e300,
                -1e300,
                0.0,
                -0.0,
            ] {
                assert_eq!(per.floor(x), floor_i64(x / len), "x {x} len {len}");
                let ceil = floor_i64(-(x / len)).saturating_neg();
                assert_eq!(
                    per.floor_ceil(x),
                    (floor_i64(x / len), ceil),
                    "x {x} len {len}"
                );
            }
        }
        assert!(checked > 100_000);
    }

    #[test]
    fn spread_puts_each_part_in_its_interval() {
        // 30 K over 0.5..3.5 s in 1 s intervals from 0: 5, 10, 10, 5.
        let mut b = vec![0.0; 4];
        spread(&mut b, 0, Per::new(1.0), 0.5, 3.5, 30.0);
        assert_eq!(b, vec![5.0, 10.0, 10.0, 5.0]);
        // An empty stretch: all of it where it is; the grid starting at interval 2.
        let mut b = vec![0.0; 2];
        spread(&mut b, 2, Per::new(1.0), 3.2, 3.2, 7.0);
        assert_eq!(b, vec![0.0, 7.0]);
        assert_eq!(overlap(0.0, 1.0, 0.5, 2.0), 0.5);
        assert_eq!(overlap(0.0, 1.0, 2.0, 3.0), 0.0);
    }

    #[test]
    fn too_many_intervals_is_an_error_not_a_hang() {
        let f = frame(
            "1.000: [GC 100K->50K(200K), 0.0100000 secs]\n\
             100000.000: [GC 150K->60K(200K), 0.0100000 secs]\n",
        );
        let o = DiagOptions {
            interval_s: Some(0.001),
            ..DiagOptions::default()
        };
        assert!(diag(&f, &o).is_err());
        // The default interval for a 1e5 s span: an hour (under 300 hourly points).
        let d = diag(&f, &DiagOptions::default()).unwrap();
        assert_eq!(d.alloc_interval_s, Some(3600.0));
        // 150 - 50 = 100 K between them.
        assert_eq!(d.allocated_kb, Some(100));
    }

    #[test]
    fn logs_without_figures_leave_them_null() {
        // No heap figures (a pause-only log line), no time stamps.
        let f = frame(
            "[GC 100K->50K(200K), 0.0100000 secs]\n\
             [GC 180K->60K(200K), 0.0200000 secs]\n",
        );
        let d = diag(&f, &DiagOptions::default()).unwrap();
        // Allocated is known (line order), a rate is not.
        assert_eq!(d.allocated_kb, Some(130));
        assert_eq!(d.alloc_rate_kb_per_s, None);
        assert_eq!(d.promoted_kb, None);
        assert_eq!(d.live_set_slope_kb_per_h, None);
        assert!(d.findings.is_empty());
        assert_eq!(
            diag(&GcFrame::default(), &DiagOptions::default()).ok(),
            Some(GcDiag::default())
        );
    }

    #[test]
    fn collections_are_paired_in_time_order() {
        // The 2 s collection is printed after the 3 s one. In time order: 200 - 50 = 150,
        // then 300 - 70 = 230 (line order would give 250 + 140 = 390).
        let f = frame(
            "1.000: [GC 100K->50K(400K), 0.0100000 secs]\n\
             3.000: [GC 300K->60K(400K), 0.0100000 secs]\n\
             2.000: [GC 200K->70K(400K), 0.0100000 secs]\n",
        );
        let d = diag(&f, &DiagOptions::default()).unwrap();
        assert_eq!(d.allocated_kb, Some(380));
    }

    #[test]
    fn intervals_do_not_cross_a_jvm_restart() {
        // Run 1: 100->50 at 10 s, 150->60 at 20 s (100 K); restart; 300->70 at 1 s, 170->80 at
        // 5 s (100 K). The pair across the restart (300 - 60) is no interval.
        let f = frame(
            "10.000: [GC 100K->50K(400K), 0.1000000 secs]\n\
             20.000: [GC 150K->60K(400K), 0.1000000 secs]\n\
             1.000: [GC 300K->70K(400K), 0.1000000 secs]\n\
             5.000: [GC 170K->80K(400K), 0.1000000 secs]\n",
        );
        let d = diag(&f, &DiagOptions::default()).unwrap();
        assert_eq!(d.allocated_kb, Some(200));
        // Measured over 10.1..20 s and 1.1..5 s: 9.9 + 3.9 s.
        let r = d.alloc_rate_kb_per_s.unwrap();
        assert!((r - 200.0 / 13.8).abs() < 1e-9, "{r}");
    }
}
