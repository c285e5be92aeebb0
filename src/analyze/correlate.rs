//! GC pauses on the request timeline (`gcperf correlate`): a GC log and the performance logs of
//! the same run put on one clock, each request's GC time found by an interval join, and the
//! figures that say how much of the slow tail GC explains.
//!
//! # One clock: what `wall_ms` and `end_ms` hold
//!
//! Both frames hold wall-clock times as "milliseconds since the epoch" of a *naive* clock:
//! - HotSpot date stamps (`2012-09-21T10:00:05.123+0300: 5.123: [GC ...`) and unified `[time]`
//!   decorations: the host's local time as written; the `+0300` is read past and dropped
//!   (`parse::num::iso_datetime_prefix`), so `wall_ms` is local time taken as UTC. A unified log
//!   decorated with `[utctime]` only writes `+0000`: its `wall_ms` is UTC. `[timemillis]` /
//!   `[timenanos]` are true epoch stamps: UTC.
//! - JRockit `[Thu Feb 21 15:06:32 2013]` prefixes: local time, whole seconds, written when
//!   the line is (the end of what it reports); no offset anywhere.
//! - Semicolon perf log (`[id];2012-09-21 10:00:05.300;...`): the host's local time.
//! - JMeter `timeStamp` and Grinder `Start time (ms since Epoch)`: true epoch ms, UTC.
//!
//! The zone a GC log's stamps are in is read once, from the head of what its loader read
//! (`parse::zone::gc_zone`, kept as `load::Loaded::zone`: standard input too). Every side is then put on the *host's local clock*: a side in local time
//! (semicolon log, JRockit, `--gc-start`) as it is; a side in UTC+z (epoch stamps: z = 0; an ISO
//! stamp with its offset) moved by `host − z`, where `host` is `--tz`, else the GC log's own
//! offset, else (no way to know) +0000, said so in `Clock`.
//!
//! # The join
//!
//! A request spans `[end − total, end]`, a pause `[start, start + duration]`; they overlap when
//! the intersection is longer than zero. Pauses are sorted by start with a running maximum of
//! their ends; for each request two binary searches give the pauses that can touch it, and only
//! those are visited: O((R + K) log P) for R requests, P pauses and K overlapping pairs, in
//! parallel over chunks of requests. A request's GC time is the length of the union of its
//! pauses' intersections (pauses that overlap each other, as rounded stamps can, are not
//! counted twice).

use super::perf::q;
use crate::frame::{gc, perf, GcFrame, PerfFrame};
use crate::model::{GcClock, Kind, Record};
use crate::parse::num::format_wall_ms;
use polars::prelude::*;
use rayon::prelude::*;
use serde::Serialize;

use crate::parse::zone::{zone_text, Zone};

/// A GC log to correlate.
pub struct GcSide<'a> {
    pub frame: &'a GcFrame,
    pub clock: GcClock,
    /// `gc_zone` of its head.
    pub zone: Zone,
}

/// A performance log to correlate.
pub struct PerfSide<'a> {
    pub frame: &'a PerfFrame,
    /// Its end times are epoch ms (UTC: JMeter, Grinder), not local dates.
    pub utc: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// A request is slow when its total is over this (ms).
    pub over_ms: f64,
    /// JVM start on the host's local clock (epoch ms, local taken as UTC): places a GC log
    /// without date stamps.
    pub gc_start_ms: Option<i64>,
    /// The host's offset (`--tz`), minutes.
    pub tz_min: Option<i32>,
    /// Correlate safepoint stops too, as their own category.
    pub safepoints: bool,
    /// Correlate thread stalls (ZGC `Allocation Stall`) too, as their own category: a stall
    /// stops one thread, so a request overlapping one may not have been the stalled one.
    pub stalls: bool,
    /// Requests ending within this many seconds of the first one are left out.
    pub skip_s: f64,
    /// Only requests ending at or after / before this time (host clock).
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            over_ms: 50.0,
            gc_start_ms: None,
            tz_min: None,
            safepoints: false,
            stalls: false,
            skip_s: 0.0,
            from_ms: None,
            to_ms: None,
        }
    }
}

/// How the two logs were put on one clock (the JSON's `clock`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Clock {
    /// `date stamps` or `--gc-start`.
    pub gc: &'static str,
    /// The zone of the GC log's stamps (`+0300`); null for local time without an offset.
    pub gc_zone: Option<String>,
    /// Per performance log: `local time` or `epoch (UTC)`.
    pub perf: Vec<&'static str>,
    /// The host's offset the UTC sides were moved to; null when every side was local.
    pub host_offset: Option<String>,
    /// Where `host_offset` came from: `--tz`, `the GC log's stamps`, `assumed (no --tz)`.
    pub host_offset_from: Option<&'static str>,
    /// Added to the GC log's times (ms).
    pub gc_shift_ms: i64,
    /// Added to each performance log's times (ms).
    pub perf_shift_ms: Vec<i64>,
    /// The JVM start given with `--gc-start`, when it was used.
    pub gc_start: Option<String>,
    /// `--gc-start` was given but the GC log's own stamps were used.
    pub gc_start_ignored: bool,
    /// JVM restarts in the GC log: with `--gc-start`, the later runs are placed end to end
    /// after the first (their real starts are unknown).
    pub restarts: u64,
}

/// Why there is nothing to correlate.
#[derive(Debug, thiserror::Error)]
pub enum CorrelateError {
    #[error("the GC log has no date stamps: give the JVM start with --gc-start \"2012-09-21 10:00:00\" (host local time)")]
    NeedGcStart,
    #[error("the GC log has no pauses with a time")]
    NoPauses,
    #[error("no requests in the performance logs (or none in the time window)")]
    NoRequests,
    /// The logs' spans do not meet: the times are the host clock's.
    #[error("the logs do not overlap in time")]
    NoOverlap {
        gc_first_ms: i64,
        gc_last_ms: i64,
        perf_first_ms: i64,
        perf_last_ms: i64,
    },
    #[error(transparent)]
    Polars(#[from] PolarsError),
}

/// Pauses sorted by start, with the running maximum of their ends (the join's second search):
/// the index of the interval join, which polars has no kernel for, built by hand with it.
#[derive(Debug, Clone, Default)]
pub struct Pauses {
    pub start: Vec<f64>,
    pub end: Vec<f64>,
    max_end: Vec<f64>,
    /// The latest end of each block of `SKIP_BLOCK` pauses, the leaves of a tree of maxima
    /// (node `k`'s children are `2k` and `2k + 1`; the leaves begin at half its length): the
    /// pauses that ended before a request are passed over a block or more at a time. Visited
    /// one by one, every pause after a long one was visited for every later request (a pause
    /// of 20 h, then 100,000 pauses and requests: 10 s).
    skip: Vec<f64>,
    /// `Kind::code()`.
    pub kind: Vec<i8>,
}

/// Pauses in a leaf of `Pauses::skip` (a 32nd of the pauses' count in leaves, up to a power of
/// two, as many again in inner nodes).
const SKIP_BLOCK: usize = 32;

/// Pause end `e` is not after `a`: the pause cannot touch a request from `a` (a NaN end can).
#[inline(always)]
fn ended_by(e: f64, a: f64) -> bool {
    e <= a
}

/// `Pauses::skip` for the ends `end`: a NaN end is taken for the latest (it is not passed over).
fn skip_tree(end: &[f64]) -> Vec<f64> {
    let leaves = end.len().div_ceil(SKIP_BLOCK).next_power_of_two();
    let mut t = vec![f64::NEG_INFINITY; 2 * leaves];
    for (b, block) in end.chunks(SKIP_BLOCK).enumerate() {
        t[leaves + b] = block
            .iter()
            .map(|&e| if e.is_nan() { f64::INFINITY } else { e })
            .fold(f64::NEG_INFINITY, f64::max);
    }
    for k in (1..leaves).rev() {
        t[k] = t[2 * k].max(t[2 * k + 1]);
    }
    t
}

impl Pauses {
    /// From starts, durations (ms) and kinds, side by side, in any order. In start order (a
    /// log's pauses nearly always are) the vectors become the pauses' own, the ends written
    /// over the durations: tuples sorted apart would hold every pause twice (70 MB more for
    /// a 210 MB JRockit log's 2.9 M pauses).
    pub fn of_columns(start: Vec<f64>, mut dur: Vec<f64>, kind: Vec<i8>) -> Self {
        let n = start.len().min(dur.len()).min(kind.len());
        if !start.is_sorted_by(|a, b| a.total_cmp(b).is_le()) || dur.len() != n || kind.len() != n {
            let v = (0..n).map(|i| (start[i], dur[i], kind[i])).collect();
            return Pauses::new(v);
        }
        let mut max_end = Vec::with_capacity(n);
        let mut m = f64::NEG_INFINITY;
        for (s, d) in start.iter().zip(dur.iter_mut()) {
            *d += s;
            m = m.max(*d);
            max_end.push(m);
        }
        Pauses {
            skip: skip_tree(&dur),
            start,
            end: dur,
            max_end,
            kind,
        }
    }

    /// The first pause from `j` on that does not end by `a` (`len()` if none).
    fn live_from(&self, j: usize, a: f64) -> usize {
        let n = self.end.len();
        let block = j / SKIP_BLOCK;
        let block_end = ((block + 1) * SKIP_BLOCK).min(n);
        if let Some(k) = (j..block_end).find(|&k| !ended_by(self.end[k], a)) {
            return k;
        }
        // The first block after `j`'s with a later end: up the tree while the subtree holds
        // none (to its right neighbour, or its parent's when it is a right child), then down.
        let leaves = self.skip.len() / 2;
        let mut i = leaves + block + 1;
        if i >= self.skip.len() {
            return n;
        }
        while ended_by(self.skip[i], a) {
            while i & 1 == 1 {
                i >>= 1;
            }
            if i == 0 {
                return n;
            }
            i += 1;
        }
        while i < leaves {
            i *= 2;
            if ended_by(self.skip[i], a) {
                i += 1;
            }
        }
        let from = (i - leaves) * SKIP_BLOCK;
        (from..n).find(|&k| !ended_by(self.end[k], a)).unwrap_or(n)
    }

    /// From (start ms, duration ms, kind) in any order.
    pub fn new(mut v: Vec<(f64, f64, i8)>) -> Self {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (start, (dur, kind)) = v.into_iter().map(|(s, d, k)| (s, (d, k))).unzip();
        Pauses::of_columns(start, dur, kind)
    }

    pub fn len(&self) -> usize {
        self.start.len()
    }

    pub fn is_empty(&self) -> bool {
        self.start.is_empty()
    }
}

/// What the join gives: per request, its GC time and how many pauses touch it; per pause, how
/// many requests and slow requests it touches.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Joined {
    pub ms: Vec<f64>,
    pub hits: Vec<u32>,
    pub requests: Vec<u32>,
    pub slow: Vec<u32>,
}

/// Requests `[lo[i], hi[i]]` against `p`: see the module documentation.
pub fn join(lo: &[f64], hi: &[f64], slow: &[bool], p: &Pauses) -> Joined {
    join_kind(lo, hi, slow, p, None)
}

/// `join` against the pauses of `p` of one kind (all of them: None): pauses of other kinds
/// are passed over where they fall, as if `p` held only that kind's; the per-pause counts
/// are over all of `p`'s pauses (0 for the others).
pub fn join_kind(lo: &[f64], hi: &[f64], slow: &[bool], p: &Pauses, kind: Option<i8>) -> Joined {
    let n = lo.len().min(hi.len()).min(slow.len());
    let np = p.len();
    if np == 0 {
        return Joined {
            ms: vec![0.0; n],
            hits: vec![0; n],
            ..Joined::default()
        };
    }
    let chunk = (n / (rayon::current_num_threads() * 4)).max(65_536);
    let parts: Vec<(Vec<f64>, Vec<u32>, Touched)> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let r = c * chunk..((c + 1) * chunk).min(n);
            let (mut ms_of, mut hits_of) =
                (Vec::with_capacity(r.len()), Vec::with_capacity(r.len()));
            let mut touched = Touched::default();
            for i in r {
                let (a, b) = (lo[i], hi[i]);
                let (mut ms, mut hits) = (0.0, 0u32);
                if b > a {
                    // First pause that can reach past `a`; first that starts at or after `b`.
                    let j0 = p.max_end.partition_point(|&e| e <= a);
                    let j1 = p.start.partition_point(|&s| s < b);
                    let mut covered = a;
                    let mut j = j0;
                    while j < j1 {
                        let (s, e) = (p.start[j], p.end[j]);
                        if ended_by(e, a) {
                            // Before the request, behind a pause that ends later (the one
                            // `j0` is): on to the next pause that does not end by `a`.
                            j = p.live_from(j + 1, a);
                            continue;
                        }
                        let at = j;
                        j += 1;
                        if e.min(b) - s.max(a) <= 0.0 || kind.is_some_and(|k| p.kind[at] != k) {
                            continue;
                        }
                        hits += 1;
                        let t = touched.at(at);
                        t.0 += 1;
                        t.1 += u32::from(slow[i]);
                        let (from, to) = (s.max(covered), e.min(b));
                        if to > from {
                            ms += to - from;
                            covered = to;
                        }
                    }
                }
                // To a nanosecond, as durations are (`frame::round_ms`): 12.3 ms read as
                // 12.300000000000182 would print so.
                ms_of.push((ms * 1e6).round() / 1e6);
                hits_of.push(hits);
            }
            (ms_of, hits_of, touched)
        })
        .collect();
    let mut all = Joined {
        ms: Vec::with_capacity(n),
        hits: Vec::with_capacity(n),
        requests: vec![0; np],
        slow: vec![0; np],
    };
    for (ms, hits, touched) in parts {
        all.ms.extend(ms);
        all.hits.extend(hits);
        let at = touched.lo;
        for (k, (r, s)) in touched.v.into_iter().enumerate() {
            all.requests[at + k] += r;
            all.slow[at + k] += s;
        }
    }
    all
}

/// A chunk of requests' counts per pause (requests, slow requests), for the pauses `lo..lo +
/// v.len()` it touched: counters for every pause would be two vectors of the pauses' length
/// per chunk (185 MB for 1 M requests in 8 chunks against 2.9 M pauses).
#[derive(Default)]
struct Touched {
    lo: usize,
    v: Vec<(u32, u32)>,
}

impl Touched {
    #[inline(always)]
    fn at(&mut self, j: usize) -> &mut (u32, u32) {
        let k = j.wrapping_sub(self.lo);
        if k < self.v.len() {
            return &mut self.v[k];
        }
        self.grow(j)
    }
    /// Room for pause `j`: past the end, or before the start by at least as much again as
    /// held (requests out of time order then cost amortised time, not a shift each).
    #[cold]
    fn grow(&mut self, j: usize) -> &mut (u32, u32) {
        if self.v.is_empty() {
            self.lo = j;
        } else if j < self.lo {
            let lo = j.min(self.lo.saturating_sub(self.v.len()));
            self.v
                .splice(0..0, std::iter::repeat_n((0, 0), self.lo - lo));
            self.lo = lo;
        }
        let k = j - self.lo;
        if k >= self.v.len() {
            self.v.resize(k + 1, (0, 0));
        }
        &mut self.v[k]
    }
}

/// The figures reported overall, per operation and per pause kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    pub requests: u64,
    /// Requests whose total is over `slow_ms`.
    pub slow_requests: u64,
    /// Slow requests overlapping at least one pause.
    pub slow_with_gc: u64,
    /// Of the slow requests.
    pub slow_with_gc_pct: Option<f64>,
    /// Requests not slow that overlap a pause.
    pub fast_with_gc: u64,
    /// Slow requests that would not be slow without their GC time (`total − gc ≤ slow_ms`).
    pub slow_only_by_gc: u64,
    /// GC time inside slow requests (ms), and per slow request.
    pub gc_ms_in_slow: f64,
    pub gc_ms_in_slow_mean: Option<f64>,
    /// The slow requests' total time, and the shares of it that were GC and database.
    pub slow_total_ms: f64,
    pub gc_share_of_slow_pct: Option<f64>,
    /// Null where the log has no Java/DB split.
    pub db_ms_in_slow: Option<f64>,
    pub db_share_of_slow_pct: Option<f64>,
    /// p99 of the total, and of `total − GC time`: what removing GC would buy.
    pub p99_ms: Option<f64>,
    pub p99_without_gc_ms: Option<f64>,
}

/// A pause and the requests it stalled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PauseHit {
    /// Start, host clock.
    pub start: String,
    pub start_ms: f64,
    pub duration_ms: f64,
    pub kind: &'static str,
    pub requests: u64,
    pub slow_requests: u64,
}

/// A category of pauses (a kind, or safepoints).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PauseFigures {
    pub kind: &'static str,
    /// Pauses within the performance logs' span (first request start to last end).
    pub pauses: u64,
    pub pause_ms: f64,
    pub pauses_hitting_requests: u64,
    pub longest_pause: Option<PauseHit>,
    #[serde(flatten)]
    pub figures: Figures,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OperationFigures {
    pub operation: String,
    #[serde(flatten)]
    pub figures: Figures,
}

/// One correlation: a GC log against the performance logs of the same run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Correlation {
    pub gc_log: String,
    pub perf_logs: Vec<String>,
    pub clock: Clock,
    pub slow_ms: f64,
    /// GC pauses (not safepoints) within the performance logs' span.
    pub pauses: u64,
    pub pause_ms: f64,
    pub pauses_hitting_requests: u64,
    pub longest_pause: Option<PauseHit>,
    #[serde(flatten)]
    pub figures: Figures,
    /// First request start and last request end; first and last GC record (host clock).
    pub perf_first: String,
    pub perf_last: String,
    pub gc_first: String,
    pub gc_last: String,
    /// Requests wholly before the GC log's first record or after its last: the GC log cannot
    /// say whether GC touched them.
    pub requests_outside_gc_log: u64,
    /// GC pauses the clock could not place (no stamp on them).
    pub pauses_untimed: u64,
    pub operations: Vec<OperationFigures>,
    pub kinds: Vec<PauseFigures>,
    /// With `--safepoints`: safepoint stops, never mixed into the GC figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safepoints: Option<PauseFigures>,
    /// With `--stalls`: thread stalls, never mixed into the GC figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stalls: Option<PauseFigures>,
}

/// Both logs on one clock and joined: what the tables and the chart are made from.
pub struct Prepared {
    /// Every time below is ms after this (host clock, epoch ms).
    pub base: i64,
    pub clock: Clock,
    pub over_ms: f64,
    /// The performance logs as one frame, on the host clock, the window applied.
    pub perf: PerfFrame,
    /// Request start and end (host clock, ms), slow or not, in the frame's row order.
    lo: Vec<f64>,
    hi: Vec<f64>,
    slow: Vec<bool>,
    pub gc: Pauses,
    pub joined: Joined,
    /// With `--safepoints`, `--stalls`: the join of those pauses, and the pauses.
    pub safepoints: Option<(Joined, Pauses)>,
    pub stalls: Option<(Joined, Pauses)>,
    gc_first_ms: f64,
    gc_last_ms: f64,
    pauses_untimed: u64,
}

/// The times of a GC frame's rows on the log's wall clock (local or UTC, as written), ms after
/// `base`, as an expression over the frame: null where a row has no time the clock can place.
/// `Err` when the log has no stamps and no JVM start was given; the flag: it has stamps.
fn gc_times(
    f: &GcFrame,
    clock: GcClock,
    gc_start_ms: Option<i64>,
    base: i64,
) -> Result<(Expr, bool), CorrelateError> {
    let wall = f.df.column(gc::WALL_MS)?;
    let ms = |e: Expr| e.round(0, RoundMode::HalfAwayFromZero);
    if wall.null_count() == wall.len() {
        let Some(start) = gc_start_ms else {
            return Err(CorrelateError::NeedGcStart);
        };
        // The runs laid end to end (`t_s`): after a restart the real start is unknown.
        let t = ms(col(gc::T_S) * lit(1000.0) * lit(1e6)) / lit(1e6);
        return Ok((lit((start - base) as f64) + t, false));
    }
    // Per run, wall clock minus uptime: places a row with an uptime but no stamp, and, for
    // JRockit (whole-second stamps written at a line's end, cut not rounded), gives every row
    // the millisecond of its uptime: the largest difference is the nearest to the truth.
    let w = (col(gc::WALL_MS) - lit(base)).cast(DataType::Float64);
    let up = ms(col(gc::START_S) * lit(1000.0));
    let d = w.clone() - up.clone();
    let off = match clock.whole_seconds {
        true => d.max(),
        false => d.drop_nulls().first(),
    };
    let by_uptime = off.over([col(gc::RUN).fill_null(lit(0u32))])? + up;
    Ok(match clock.whole_seconds {
        true => (by_uptime.fill_null(w), true),
        false => (w.fill_null(by_uptime), true),
    })
}

/// The performance logs as one frame: end times moved by each log's shift, operation ids
/// into one list of names.
fn combine(perf: &[PerfSide], shifts: &[i64]) -> PolarsResult<PerfFrame> {
    let mut names: Vec<String> = Vec::new();
    let mut ids: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let mut out: Option<DataFrame> = None;
    for (side, &shift) in perf.iter().zip(shifts) {
        let map: Vec<u32> = side
            .frame
            .operations
            .iter()
            .map(|name| {
                *ids.entry(name.clone()).or_insert_with(|| {
                    names.push(name.clone());
                    names.len() as u32 - 1
                })
            })
            .collect();
        let df = &side.frame.df;
        let op: UInt32Chunked = df
            .column(perf::OPERATION_ID)?
            .u32()?
            .iter()
            .map(|o| o.map(|o| map.get(o as usize).copied().unwrap_or(0)))
            .collect();
        let mut df = df.clone();
        df.with_column(op.with_name(perf::OPERATION_ID.into()).into_column())?;
        if shift != 0 {
            let end = df.column(perf::END_MS)?.i64()?.clone() + shift;
            df.with_column(end.with_name(perf::END_MS.into()).into_column())?;
        }
        match &mut out {
            None => out = Some(df),
            Some(o) => _ = o.vstack_mut_owned(df)?,
        }
    }
    Ok(PerfFrame {
        df: out.unwrap_or_default(),
        operations: names,
    })
}

/// The window (`--skip`, `--from`, `--to`) on the host clock, as `analyze::perf` applies it.
fn window(df: DataFrame, o: &Options) -> PolarsResult<DataFrame> {
    // A request without a time (`model::PERF_CLOCK_MS`) has no place on the clock.
    let lf = super::perf::on_clock(&df, df.clone().lazy())?;
    super::perf::in_window(lf, o.skip_s, o.from_ms, o.to_ms).collect()
}

/// Put the logs on one clock and join them.
pub fn prepare(g: &GcSide, perf: &[PerfSide], o: &Options) -> Result<Prepared, CorrelateError> {
    // Times are kept relative to `base` (near the first request): ms since 1970 are 1.3e12,
    // where an f64 holds a 12.3 ms pause's end only to 2e-4 ms.
    let mut base = i64::MAX;
    for p in perf {
        if let Some(m) = p.frame.df.column(perf::END_MS)?.i64()?.min() {
            base = base.min(m);
        }
    }
    if base == i64::MAX {
        return Err(CorrelateError::NoRequests);
    }
    let (times, stamped) = gc_times(g.frame, g.clock, o.gc_start_ms, base)?;
    // Zones: the GC log's (local when placed by --gc-start), each perf log's.
    let gc_zone = if stamped { g.zone } else { Zone::Local };
    let perf_zone: Vec<Zone> = perf
        .iter()
        .map(|p| if p.utc { Zone::Offset(0) } else { Zone::Local })
        .collect();
    let needs_host = std::iter::once(gc_zone)
        .chain(perf_zone.iter().copied())
        .any(|z| matches!(z, Zone::Offset(_)));
    let (host, host_from) = match (o.tz_min, gc_zone) {
        (Some(t), _) => (Some(t), Some("--tz")),
        (None, Zone::Offset(z)) => (Some(z), Some("the GC log's stamps")),
        (None, Zone::Local) if needs_host => (Some(0), Some("assumed (no --tz)")),
        _ => (None, None),
    };
    let shift = |z: Zone| match (z, host) {
        (Zone::Offset(z), Some(h)) => i64::from(h - z) * 60_000,
        _ => 0,
    };
    let gc_shift = shift(gc_zone);
    let perf_shift: Vec<i64> = perf_zone.iter().map(|&z| shift(z)).collect();
    let restarts = super::gc::restarts(g.frame)?;
    let clock = Clock {
        gc: if stamped { "date stamps" } else { "--gc-start" },
        gc_zone: match gc_zone {
            Zone::Offset(z) => Some(zone_text(z)),
            Zone::Local => None,
        },
        perf: perf
            .iter()
            .map(|p| if p.utc { "epoch (UTC)" } else { "local time" })
            .collect(),
        host_offset: host.filter(|_| needs_host).map(zone_text),
        host_offset_from: host_from.filter(|_| needs_host),
        gc_shift_ms: gc_shift,
        perf_shift_ms: perf_shift.clone(),
        gc_start: o.gc_start_ms.filter(|_| !stamped).map(format_wall_ms),
        gc_start_ignored: stamped && o.gc_start_ms.is_some(),
        restarts,
    };

    // The GC side: pauses (and safepoints, stalls) on the host clock, and the log's span.
    // The clock's columns are worked out once, for the bounds and each record's pauses.
    let (t, d) = (col("_t"), col("_d"));
    let gc_cols = g
        .frame
        .df
        .clone()
        .lazy()
        .select([
            (times + lit(gc_shift as f64)).alias("_t"),
            col(gc::DURATION_MS).fill_null(lit(0.0)).alias("_d"),
            col(gc::KIND)
                .cast(DataType::Int8)
                .fill_null(lit(Kind::Other.code() as i8))
                .alias("_k"),
            col(gc::RECORD),
        ])
        .collect()?
        .lazy();
    let is = super::gc::is_record;
    let bounds = gc_cols
        .clone()
        .select([
            t.clone().min().alias("first"),
            (t.clone() + d).max().alias("last"),
            is(Record::Pause)
                .and(t.clone().is_null())
                .sum()
                .cast(DataType::Float64)
                .alias("untimed"),
        ])
        .collect()?;
    let first = super::get_f64(&bounds, "first").unwrap_or(f64::INFINITY);
    let last = super::get_f64(&bounds, "last").unwrap_or(f64::NEG_INFINITY);
    let untimed = super::get_f64(&bounds, "untimed").unwrap_or(0.0) as u64;
    let pauses_of = |r: Record| -> PolarsResult<Pauses> {
        let p = gc_cols
            .clone()
            .filter(is(r).and(t.clone().is_not_null()))
            .collect()?;
        Ok(Pauses::of_columns(
            p.column("_t")?.f64()?.into_no_null_iter().collect(),
            p.column("_d")?.f64()?.into_no_null_iter().collect(),
            p.column("_k")?.i8()?.into_no_null_iter().collect(),
        ))
    };
    let gc = pauses_of(Record::Pause)?;
    if gc.is_empty() {
        return Err(CorrelateError::NoPauses);
    }
    let safepoints = o
        .safepoints
        .then(|| pauses_of(Record::Safepoint))
        .transpose()?;
    let stalls = o.stalls.then(|| pauses_of(Record::Stall)).transpose()?;
    drop(gc_cols);

    // The perf side: one frame on the host clock, the window applied.
    let mut pf = combine(perf, &perf_shift)?;
    pf.df = window(pf.df, o)?;
    if pf.df.height() == 0 {
        return Err(CorrelateError::NoRequests);
    }
    let total: Vec<f64> = pf
        .df
        .column(perf::TOTAL_MS)?
        .f64()?
        .iter()
        .map(|v| v.unwrap_or(0.0))
        .collect();
    let hi: Vec<f64> = pf
        .df
        .column(perf::END_MS)?
        .i64()?
        .iter()
        .map(|e| (e.unwrap_or(0) - base) as f64)
        .collect();
    let lo: Vec<f64> = hi.iter().zip(&total).map(|(h, t)| h - t).collect();
    let slow: Vec<bool> = total.iter().map(|&t| t > o.over_ms).collect();
    let (p_first, p_last) = span(&lo, &hi);
    if p_last < first || p_first > last {
        return Err(CorrelateError::NoOverlap {
            gc_first_ms: base + first.floor() as i64,
            gc_last_ms: base + last.ceil() as i64,
            perf_first_ms: base + p_first.floor() as i64,
            perf_last_ms: base + p_last.ceil() as i64,
        });
    }
    let joined = join(&lo, &hi, &slow, &gc);
    let joined_too = |s: Option<Pauses>| s.map(|s| (join(&lo, &hi, &slow, &s), s));
    let (safepoints, stalls) = (joined_too(safepoints), joined_too(stalls));
    Ok(Prepared {
        base,
        clock,
        over_ms: o.over_ms,
        perf: pf,
        lo,
        hi,
        slow,
        gc,
        joined,
        safepoints,
        stalls,
        gc_first_ms: first,
        gc_last_ms: last,
        pauses_untimed: untimed,
    })
}

const OVERLAP_MS: &str = "_gc_ms";
const HITS: &str = "_gc_hits";

/// The requests with a join's columns, for the figures' queries.
fn requests_frame(p: &Prepared, j: &Joined) -> PolarsResult<DataFrame> {
    let mut df = p
        .perf
        .df
        .select([perf::OPERATION_ID, perf::TOTAL_MS, perf::DB_MS])?;
    df.with_column(Float64Chunked::from_slice(OVERLAP_MS.into(), &j.ms).into_column())?;
    df.with_column(UInt32Chunked::from_slice(HITS.into(), &j.hits).into_column())?;
    Ok(df)
}

/// The aggregations of `Figures` (p99s apart: they copy a column each).
fn figure_aggs(over: f64) -> Vec<Expr> {
    let t = col(perf::TOTAL_MS);
    let slow = t.clone().gt(lit(over));
    let hit = col(HITS).gt(lit(0u32));
    vec![
        len().alias("requests"),
        slow.clone().sum().alias("slow"),
        slow.clone().and(hit.clone()).sum().alias("slow_with"),
        slow.clone().not().and(hit).sum().alias("fast_with"),
        slow.clone()
            .and((t.clone() - col(OVERLAP_MS)).lt_eq(lit(over)))
            .sum()
            .alias("slow_only"),
        col(OVERLAP_MS)
            .filter(slow.clone())
            .sum()
            .alias("gc_in_slow"),
        t.clone().filter(slow.clone()).sum().alias("slow_total"),
        col(perf::DB_MS)
            .filter(slow.clone())
            .sum()
            .alias("db_in_slow"),
        col(perf::DB_MS).filter(slow).count().alias("db_n"),
        col(perf::DB_MS).count().alias("db_any"),
        q(t.clone(), 0.99).alias("p99"),
        q(t - col(OVERLAP_MS), 0.99).alias("p99_without"),
    ]
}

/// A frame of `figure_aggs`, its columns cast once: cast again for each row, the figures
/// per operation were quadratic in the operations (50,000 of them: 6.3 s).
struct FigureCols {
    requests: Float64Chunked,
    slow: Float64Chunked,
    slow_with: Float64Chunked,
    fast_with: Float64Chunked,
    slow_only: Float64Chunked,
    gc_in_slow: Float64Chunked,
    slow_total: Float64Chunked,
    db_any: Float64Chunked,
    /// Read only for a row with DB times.
    db_in_slow: Option<Float64Chunked>,
    p99: Float64Chunked,
    p99_without: Float64Chunked,
}

impl FigureCols {
    fn of(out: &DataFrame) -> PolarsResult<Self> {
        let c = |name: &str| -> PolarsResult<Float64Chunked> {
            Ok(out.column(name)?.cast(&DataType::Float64)?.f64()?.clone())
        };
        Ok(FigureCols {
            slow: c("slow")?,
            slow_total: c("slow_total")?,
            gc_in_slow: c("gc_in_slow")?,
            db_any: c("db_any")?,
            db_in_slow: c("db_in_slow").ok(),
            slow_with: c("slow_with")?,
            requests: c("requests")?,
            fast_with: c("fast_with")?,
            slow_only: c("slow_only")?,
            p99: c("p99")?,
            p99_without: c("p99_without")?,
        })
    }

    /// Row `i` as `Figures`.
    fn at(&self, i: usize) -> Figures {
        let v = |c: &Float64Chunked| c.get(i).filter(|x| x.is_finite());
        let n = |c: &Float64Chunked| v(c).unwrap_or(0.0) as u64;
        let slow = n(&self.slow);
        let slow_total = v(&self.slow_total).unwrap_or(0.0);
        let gc_in_slow = v(&self.gc_in_slow).unwrap_or(0.0);
        let has_db = n(&self.db_any) > 0;
        let db_in_slow = has_db.then(|| self.db_in_slow.as_ref().and_then(v).unwrap_or(0.0));
        let share = |x: f64| (slow_total > 0.0).then(|| x * 100.0 / slow_total);
        let slow_with = n(&self.slow_with);
        Figures {
            requests: n(&self.requests),
            slow_requests: slow,
            slow_with_gc: slow_with,
            slow_with_gc_pct: (slow > 0).then(|| slow_with as f64 * 100.0 / slow as f64),
            fast_with_gc: n(&self.fast_with),
            slow_only_by_gc: n(&self.slow_only),
            gc_ms_in_slow: gc_in_slow,
            gc_ms_in_slow_mean: (slow > 0).then(|| gc_in_slow / slow as f64),
            slow_total_ms: slow_total,
            gc_share_of_slow_pct: share(gc_in_slow),
            db_ms_in_slow: db_in_slow,
            db_share_of_slow_pct: db_in_slow.and_then(share),
            p99_ms: v(&self.p99),
            p99_without_gc_ms: v(&self.p99_without),
        }
    }
}

/// The overall figures of a join.
fn overall(p: &Prepared, j: &Joined) -> PolarsResult<Figures> {
    let out = requests_frame(p, j)?
        .lazy()
        .select(figure_aggs(p.over_ms))
        .collect()?;
    Ok(FigureCols::of(&out)?.at(0))
}

/// The pause-side figures of a category: within the performance logs' span. A loop over the
/// join's vectors (pauses and their hit counts), which are not a frame.
fn pause_figures(
    p: &Prepared,
    (pauses, code): (&Pauses, Option<i8>),
    j: &Joined,
    kind: &'static str,
) -> PolarsResult<PauseFigures> {
    let (lo, hi) = span(&p.lo, &p.hi);
    let mut count = 0u64;
    let mut ms = 0.0;
    let mut hitting = 0u64;
    let mut longest: Option<usize> = None;
    for i in 0..pauses.len() {
        if pauses.end[i] <= lo || pauses.start[i] >= hi || code.is_some_and(|k| pauses.kind[i] != k)
        {
            continue;
        }
        count += 1;
        let d = pauses.end[i] - pauses.start[i];
        ms += d;
        hitting += u64::from(j.requests.get(i).copied().unwrap_or(0) > 0);
        if longest.is_none_or(|l| d > pauses.end[l] - pauses.start[l]) {
            longest = Some(i);
        }
    }
    Ok(PauseFigures {
        kind,
        pauses: count,
        pause_ms: ms,
        pauses_hitting_requests: hitting,
        longest_pause: longest.map(|i| pause_hit(p.base, pauses, j, i)),
        figures: overall(p, j)?,
    })
}

fn kind_name(code: i8) -> &'static str {
    u8::try_from(code)
        .ok()
        .and_then(Kind::from_code)
        .map_or("other", Kind::as_str)
}

fn pause_hit(base: i64, pauses: &Pauses, j: &Joined, i: usize) -> PauseHit {
    let start = pauses.start[i];
    PauseHit {
        start: format_wall_ms(base + start.floor() as i64),
        start_ms: base as f64 + start,
        duration_ms: pauses.end[i] - start,
        kind: kind_name(pauses.kind[i]),
        requests: u64::from(j.requests.get(i).copied().unwrap_or(0)),
        slow_requests: u64::from(j.slow.get(i).copied().unwrap_or(0)),
    }
}

/// First request start and last request end.
fn span(lo: &[f64], hi: &[f64]) -> (f64, f64) {
    (
        lo.iter().copied().fold(f64::INFINITY, f64::min),
        hi.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

/// Every figure of a prepared correlation; `gc_log` and `perf_logs` name the inputs.
pub fn correlate(p: &Prepared, gc_log: &str, perf_logs: &[String]) -> PolarsResult<Correlation> {
    let all = pause_figures(p, (&p.gc, None), &p.joined, "all")?;
    // Per operation.
    let out = requests_frame(p, &p.joined)?
        .lazy()
        .group_by([col(perf::OPERATION_ID)])
        .agg(figure_aggs(p.over_ms))
        .collect()?;
    let ids = out.column(perf::OPERATION_ID)?.u32()?;
    let cols = FigureCols::of(&out)?;
    let mut operations = Vec::with_capacity(out.height());
    for i in 0..out.height() {
        operations.push(OperationFigures {
            operation: p.perf.operation(ids.get(i).unwrap_or(0)).to_string(),
            figures: cols.at(i),
        });
    }
    // Most GC time in slow requests first, then by name: the operations GC hurts at the top.
    operations.sort_by(|a, b| {
        b.figures
            .gc_ms_in_slow
            .total_cmp(&a.figures.gc_ms_in_slow)
            .then_with(|| a.operation.cmp(&b.operation))
    });
    // Per pause kind: each kind's pauses joined on their own.
    let mut codes: Vec<i8> = p.gc.kind.clone();
    codes.sort_unstable();
    codes.dedup();
    let mut kinds = Vec::with_capacity(codes.len());
    for k in codes {
        let name = kind_name(k);
        if codes_single(&p.gc) {
            kinds.push(PauseFigures {
                kind: name,
                ..all.clone()
            });
            continue;
        }
        // The kind's pauses where they are among the others: a copy of them would be 70 MB
        // more at the peak for a 2.9 M-pause log's young pauses.
        let j = join_kind(&p.lo, &p.hi, &p.slow, &p.gc, Some(k));
        kinds.push(pause_figures(p, (&p.gc, Some(k)), &j, name)?);
    }
    kinds.sort_by(|a, b| b.pause_ms.total_cmp(&a.pause_ms).then(a.kind.cmp(b.kind)));
    let apart = |s: &Option<(Joined, Pauses)>, kind| match s {
        Some((j, s)) => pause_figures(p, (s, None), j, kind).map(Some),
        None => Ok(None),
    };
    let safepoints = apart(&p.safepoints, "safepoint")?;
    let stalls = apart(&p.stalls, "stall")?;
    let (lo, hi) = span(&p.lo, &p.hi);
    let outside =
        p.lo.iter()
            .zip(&p.hi)
            .filter(|(a, b)| **b < p.gc_first_ms || **a > p.gc_last_ms)
            .count() as u64;
    Ok(Correlation {
        gc_log: gc_log.to_string(),
        perf_logs: perf_logs.to_vec(),
        clock: p.clock.clone(),
        slow_ms: p.over_ms,
        pauses: all.pauses,
        pause_ms: all.pause_ms,
        pauses_hitting_requests: all.pauses_hitting_requests,
        longest_pause: all.longest_pause,
        figures: all.figures,
        perf_first: format_wall_ms(p.base + lo.floor() as i64),
        perf_last: format_wall_ms(p.base + hi.ceil() as i64),
        gc_first: format_wall_ms(p.base + p.gc_first_ms.floor() as i64),
        gc_last: format_wall_ms(p.base + p.gc_last_ms.ceil() as i64),
        requests_outside_gc_log: outside,
        pauses_untimed: p.pauses_untimed,
        operations,
        kinds,
        safepoints,
        stalls,
    })
}

/// Every pause of one kind: its figures are the overall ones.
fn codes_single(p: &Pauses) -> bool {
    p.kind.windows(2).all(|w| w[0] == w[1])
}

/// A pause on the chart: the longest of those starting in its slot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PauseMark {
    pub start_ms: f64,
    pub duration_ms: f64,
    pub kind: &'static str,
    /// Pauses in the slot.
    pub count: u32,
}

/// Slow requests on the chart: one mark per small cell of time × log response time, at the
/// first request of the cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlowMark {
    pub end_ms: i64,
    pub total_ms: f64,
    /// Most slow requests of its cell overlap a GC pause.
    pub gc: bool,
}

/// In time order, those with GC last (drawn over the others where they touch); marks of one
/// millisecond by their response time. They come out of a hash map, whose order differs from
/// run to run: ordered on time alone, the same report's chart differed by a pixel or two.
fn order_slow(slow: &mut [SlowMark]) {
    slow.sort_by(|a, b| {
        (a.gc, a.end_ms)
            .cmp(&(b.gc, b.end_ms))
            .then(a.total_ms.total_cmp(&b.total_ms))
    });
}

/// What the correlate chart draws: the two-hour chart's intervals, the pauses, the slow
/// requests; a few thousand points whatever the logs' size.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartData {
    pub intervals: Vec<super::perf::Interval>,
    pub interval_ms: i64,
    pub pauses: Vec<PauseMark>,
    pub slow: Vec<SlowMark>,
    pub slow_ms: f64,
    /// Pauses in the chart's span, and the longest.
    pub pause_count: u64,
    pub pause_max_ms: f64,
    pub slow_requests: u64,
    pub slow_with_gc: u64,
}

/// The chart's data with `slots` time slots across (about the plot's width in pixels) and the
/// given interval (None: chosen as the two-hour chart chooses it).
pub fn chart_data(p: &Prepared, slots: usize, interval_ms: Option<i64>) -> PolarsResult<ChartData> {
    let (lo, hi) = span(&p.lo, &p.hi);
    let requests = p.hi.len() as u64;
    let span_ms = (hi - lo).max(0.0) as i64;
    let iv = interval_ms.unwrap_or_else(|| {
        super::perf::auto_interval_ms(span_ms, requests)
            .max(span_ms / crate::render::charts::MAX_TIMELINE_POINTS + 1)
    });
    let intervals =
        super::perf::intervals(&p.perf, &super::perf::PerfOptions::default(), iv.max(1))?;
    // The chart's time range: the intervals' (whole intervals, clock-aligned).
    let (t0, t1) = match (intervals.first(), intervals.last()) {
        (Some(a), Some(b)) => (
            (a.start_ms - p.base) as f64,
            (b.start_ms + iv - p.base) as f64,
        ),
        _ => (lo, hi),
    };
    let slots = slots.max(1);
    let width = ((t1 - t0) / slots as f64).max(1e-9);
    let slot_of = |t: f64| (((t - t0) / width).floor().max(0.0) as usize).min(slots - 1);
    // The longest pause of each slot, over the join's vectors (not a frame).
    let mut best: Vec<Option<PauseMark>> = vec![None; slots];
    let (mut count, mut max) = (0u64, 0.0f64);
    let g = &p.gc;
    for i in 0..g.len() {
        if g.end[i] <= t0 || g.start[i] >= t1 {
            continue;
        }
        let d = g.end[i] - g.start[i];
        count += 1;
        max = max.max(d);
        let mark = |count| PauseMark {
            start_ms: p.base as f64 + g.start[i],
            duration_ms: d,
            kind: kind_name(g.kind[i]),
            count,
        };
        match &mut best[slot_of(g.start[i])] {
            Some(m) if d > m.duration_ms => *m = mark(m.count + 1),
            Some(m) => m.count += 1,
            cell => *cell = Some(mark(1)),
        }
    }
    // Slow requests: one mark per cell of a slot by 1/40 of a decade of response time (a
    // million dots would be one blot, and slow to draw), marked as overlapping GC where most
    // of the cell's requests do: drawn apart, the highlighted ones would hide the others.
    let mut cells: std::collections::HashMap<(usize, i64), (usize, u32, u32)> =
        std::collections::HashMap::new();
    let (mut n_slow, mut n_gc) = (0u64, 0u64);
    for i in 0..p.hi.len() {
        if !p.slow[i] {
            continue;
        }
        let total = p.hi[i] - p.lo[i];
        let gc = p.joined.hits.get(i).copied().unwrap_or(0) > 0;
        n_slow += 1;
        n_gc += u64::from(gc);
        let key = (
            slot_of(p.hi[i]),
            (total.max(1e-3).log10() * 40.0).floor() as i64,
        );
        let c = cells.entry(key).or_insert((i, 0, 0));
        c.1 += u32::from(gc);
        c.2 += u32::from(!gc);
    }
    let mut slow: Vec<SlowMark> = cells
        .into_values()
        .map(|(i, with, without)| SlowMark {
            end_ms: p.base + p.hi[i] as i64,
            total_ms: p.hi[i] - p.lo[i],
            gc: with >= without,
        })
        .collect();
    order_slow(&mut slow);
    Ok(ChartData {
        intervals,
        interval_ms: iv,
        pauses: best.into_iter().flatten().collect(),
        slow,
        slow_ms: p.over_ms,
        pause_count: count,
        pause_max_ms: max,
        slow_requests: n_slow,
        slow_with_gc: n_gc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::zone::{gc_zone, parse_zone};

    #[test]
    fn slow_marks_come_out_in_one_order_whatever_order_they_came_in() {
        let m = |end_ms: i64, total_ms: f64, gc: bool| SlowMark {
            end_ms,
            total_ms,
            gc,
        };
        let marks = [
            m(10, 300.0, false),
            m(10, 120.0, false),
            m(5, 900.0, true),
            m(10, 200.0, true),
            m(10, 150.0, true),
        ];
        let want = [
            m(10, 120.0, false),
            m(10, 300.0, false),
            m(5, 900.0, true),
            m(10, 150.0, true),
            m(10, 200.0, true),
        ];
        let mut a = marks.to_vec();
        let mut b: Vec<SlowMark> = marks.iter().rev().cloned().collect();
        order_slow(&mut a);
        order_slow(&mut b);
        assert_eq!(a, want);
        assert_eq!(b, want);
    }

    /// `got` is the brute force's `want`: the same hits, requests and slow counts, the same
    /// time in pauses to 1e-9 ms.
    fn agree(got: &Joined, want: &Joined) {
        assert_eq!(got.hits, want.hits);
        assert_eq!(got.requests, want.requests);
        assert_eq!(got.slow, want.slow);
        assert_eq!(got.ms.len(), want.ms.len());
        for (i, (g, w)) in got.ms.iter().zip(&want.ms).enumerate() {
            assert!((g - w).abs() < 1e-9, "{i}");
        }
    }

    /// The truth for `join`: every request against every pause.
    fn brute(lo: &[f64], hi: &[f64], slow: &[bool], p: &[(f64, f64)]) -> Joined {
        let mut out = Joined {
            ms: Vec::new(),
            hits: Vec::new(),
            requests: vec![0; p.len()],
            slow: vec![0; p.len()],
        };
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by(|&a, &b| p[a].0.total_cmp(&p[b].0));
        for i in 0..lo.len() {
            let mut pieces: Vec<(f64, f64)> = Vec::new();
            let mut hits = 0;
            for (r, &j) in order.iter().enumerate() {
                let (s, e) = (p[j].0, p[j].0 + p[j].1);
                let (a, b) = (s.max(lo[i]), e.min(hi[i]));
                if b - a > 0.0 {
                    hits += 1;
                    out.requests[r] += 1;
                    out.slow[r] += u32::from(slow[i]);
                    pieces.push((a, b));
                }
            }
            // Union length of the pieces.
            pieces.sort_by(|x, y| x.0.total_cmp(&y.0));
            let (mut ms, mut cur): (f64, Option<(f64, f64)>) = (0.0, None);
            for (a, b) in pieces {
                cur = match cur {
                    Some((ca, cb)) if a <= cb => Some((ca, cb.max(b))),
                    Some((ca, cb)) => {
                        ms += cb - ca;
                        Some((a, b))
                    }
                    None => Some((a, b)),
                };
            }
            if let Some((a, b)) = cur {
                ms += b - a;
            }
            out.ms.push(ms);
            out.hits.push(hits);
        }
        out
    }

    #[test]
    fn join_by_hand() {
        // Pauses [100, 150], [200, 210], [400, 700]; requests (lo, hi): one inside the first
        // pause, one across the first two, one touching a pause's end only (no overlap), one
        // of zero length inside a pause, one spanning the long pause.
        let p = Pauses::new(vec![(200.0, 10.0, 0), (100.0, 50.0, 3), (400.0, 300.0, 0)]);
        let lo = [110.0, 120.0, 150.0, 120.0, 350.0];
        let hi = [130.0, 205.0, 190.0, 120.0, 800.0];
        let slow = [false, true, true, false, true];
        let j = join(&lo, &hi, &slow, &p);
        assert_eq!(j.ms, vec![20.0, 35.0, 0.0, 0.0, 300.0]);
        assert_eq!(j.hits, vec![1, 2, 0, 0, 1]);
        // Per pause in start order: [100,150] by requests 0, 1; [200,210] by 1; [400,700] by 4.
        assert_eq!(j.requests, vec![2, 1, 1]);
        assert_eq!(j.slow, vec![1, 1, 1]);
    }

    #[test]
    fn pauses_from_columns_are_the_pauses_from_tuples() {
        let same = |a: &Pauses, b: &Pauses| {
            assert_eq!(
                (&a.start, &a.end, &a.max_end, &a.kind),
                (&b.start, &b.end, &b.max_end, &b.kind)
            );
        };
        // In start order, a long pause's end carried past the next (max_end 160, 160, 700).
        let v = vec![(100.0, 60.0, 3), (120.0, 10.5, 0), (400.0, 300.0, 0)];
        let cols = |v: &[(f64, f64, i8)]| {
            Pauses::of_columns(
                v.iter().map(|p| p.0).collect(),
                v.iter().map(|p| p.1).collect(),
                v.iter().map(|p| p.2).collect(),
            )
        };
        let p = cols(&v);
        assert_eq!(p.max_end, vec![160.0, 160.0, 700.0]);
        assert_eq!(p.end, vec![160.0, 130.5, 700.0]);
        same(&p, &Pauses::new(v.clone()));
        // Out of order: sorted as the tuples are.
        let w = vec![v[2], v[0], v[1]];
        same(&cols(&w), &Pauses::new(w.clone()));
    }

    /// A small LCG from `x`, numbers below `m`: the tests need no crate and the same data
    /// each run.
    fn lcg(mut x: u64) -> impl FnMut(u64) -> u64 {
        move |m| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        }
    }

    #[test]
    fn a_kinds_join_is_the_join_of_its_pauses_alone() {
        // Random overlapping pauses of three kinds; 200 000 requests go through four chunks.
        let mut r = lcg(0x2545_F491_4F6C_DD1D);
        let v: Vec<(f64, f64, i8)> = (0..3000)
            .map(|_| (r(100_000) as f64, (r(4000) + 1) as f64 / 4.0, r(3) as i8))
            .collect();
        let n = 200_000;
        let lo: Vec<f64> = (0..n).map(|_| r(100_000) as f64 - 50.0).collect();
        let hi: Vec<f64> = lo.iter().map(|&a| a + r(300) as f64).collect();
        let slow: Vec<bool> = (0..n).map(|_| r(4) == 0).collect();
        let all = Pauses::new(v.clone());
        for k in 0..3i8 {
            let alone = Pauses::new(v.iter().copied().filter(|p| p.2 == k).collect());
            let want = join(&lo, &hi, &slow, &alone);
            let got = join_kind(&lo, &hi, &slow, &all, Some(k));
            assert_eq!((&got.ms, &got.hits), (&want.ms, &want.hits), "kind {k}");
            let of_kind = |c: &[u32]| -> Vec<u32> {
                (0..all.len())
                    .filter(|&j| all.kind[j] == k)
                    .map(|j| c[j])
                    .collect()
            };
            assert_eq!(of_kind(&got.requests), want.requests, "kind {k}");
            assert_eq!(of_kind(&got.slow), want.slow, "kind {k}");
            let others: u32 = (0..all.len())
                .filter(|&j| all.kind[j] != k)
                .map(|j| got.requests[j] + got.slow[j])
                .sum();
            assert_eq!(others, 0);
            assert!(want.hits.iter().any(|&h| h > 1), "overlaps for kind {k}");
        }
    }

    #[test]
    fn join_agrees_with_every_pair_on_random_data_with_overlapping_pauses() {
        let mut r = lcg(0x9E37_79B9_7F4A_7C15);
        // 300 000 requests in chunks of 65 536 go through five chunks of the parallel join.
        let pauses: Vec<(f64, f64)> = (0..400)
            .map(|_| (r(100_000) as f64, (r(2000) + 1) as f64 / 4.0))
            .collect();
        let n = 300_000;
        let lo: Vec<f64> = (0..n).map(|_| r(100_000) as f64 - 50.0).collect();
        let hi: Vec<f64> = lo.iter().map(|&a| a + r(3000) as f64 / 2.0).collect();
        let slow: Vec<bool> = hi.iter().zip(&lo).map(|(b, a)| b - a > 700.0).collect();
        let p = Pauses::new(pauses.iter().map(|&(s, d)| (s, d, 0)).collect());
        let got = join(&lo, &hi, &slow, &p);
        // The brute force on a sample of requests, and per pause on all of them.
        let want = brute(&lo, &hi, &slow, &pauses);
        agree(&got, &want);
        assert!(
            got.hits.iter().any(|&h| h >= 2),
            "no request met two pauses"
        );
    }

    #[test]
    fn join_passes_over_the_pauses_behind_a_long_one_as_if_visited() {
        // Five pauses far longer than the rest among 5,000 (157 blocks of the skip tree): a
        // request meets the pauses near it and the long ones it falls in, as every pair says.
        let mut r = lcg(0xD1B5_4A32_D192_ED03);
        let v: Vec<(f64, f64, i8)> = (0..5000)
            .map(|i| {
                let d = match i % 1000 {
                    0 => 20_000.0 + r(30_000) as f64,
                    _ => (r(40) + 1) as f64 / 4.0,
                };
                (r(100_000) as f64, d, r(2) as i8)
            })
            .collect();
        let n = 20_000;
        let lo: Vec<f64> = (0..n).map(|_| r(100_000) as f64 - 50.0).collect();
        let hi: Vec<f64> = lo.iter().map(|&a| a + r(300) as f64).collect();
        let slow: Vec<bool> = (0..n).map(|_| r(4) == 0).collect();
        let pauses: Vec<(f64, f64)> = v.iter().map(|&(s, d, _)| (s, d)).collect();
        let p = Pauses::new(v.clone());
        let got = join(&lo, &hi, &slow, &p);
        let want = brute(&lo, &hi, &slow, &pauses);
        agree(&got, &want);
        assert!(got.hits.iter().any(|&h| h >= 2));
        for k in 0..2i8 {
            let alone = Pauses::new(v.iter().copied().filter(|p| p.2 == k).collect());
            let want = join(&lo, &hi, &slow, &alone);
            let got = join_kind(&lo, &hi, &slow, &p, Some(k));
            assert_eq!((&got.ms, &got.hits), (&want.ms, &want.hits), "kind {k}");
        }
        // The tree's answer is the first pause not ended by `a`, from anywhere; a NaN end is
        // never passed over.
        let mut ends: Vec<(f64, f64, i8)> = (0..1000)
            .map(|i| (i as f64, (r(50) + (i % 331 == 0) as u64 * 900) as f64, 0))
            .collect();
        ends[700].1 = f64::NAN;
        let q = Pauses::new(ends);
        for j in 0..=q.len() {
            for a in [-1.0, 0.5, 40.0, 333.0, 660.9, 699.5, 900.0, 1200.0, 5000.0] {
                let want = (j..q.len()).find(|&k| !ended_by(q.end[k], a));
                assert_eq!(q.live_from(j, a), want.unwrap_or(q.len()), "{j} {a}");
            }
        }
    }

    #[test]
    fn zones_of_stamps() {
        assert_eq!(parse_zone("+0300"), Some(180));
        assert_eq!(parse_zone("-05:30"), Some(-330));
        assert_eq!(parse_zone("+3"), Some(180));
        assert_eq!(parse_zone("Z"), Some(0));
        assert_eq!(parse_zone("UTC"), Some(0));
        assert_eq!(parse_zone("0300"), None);
        assert_eq!(parse_zone("+1500"), None);
        assert_eq!(parse_zone("+03:7"), None);
        assert_eq!(zone_text(-330), "-0530");
        let hs = b"Java HotSpot(TM) 64-Bit Server VM\n2016-01-11T10:15:02.114+0100: 1.210: [GC (Allocation Failure)";
        assert_eq!(
            gc_zone(hs, crate::parse::hotspot::FAMILY.clock()),
            Zone::Offset(60)
        );
        let uni = b"[2019-03-05T14:11:18.470-0500][0.010s][info][gc] Using G1\n";
        assert_eq!(
            gc_zone(uni, crate::parse::unified::FAMILY.clock()),
            Zone::Offset(-300)
        );
        let utc = b"[2019-03-05T14:11:18.470+0000][info][gc] Using G1\n";
        assert_eq!(
            gc_zone(utc, crate::parse::unified::FAMILY.clock()),
            Zone::Offset(0)
        );
        let millis = b"[1551791478470ms][info][gc] Using G1\n";
        assert_eq!(
            gc_zone(millis, crate::parse::unified::FAMILY.clock()),
            Zone::Offset(0)
        );
        let jr = b"[memory ][Thu Feb 21 15:06:32 2013][11844] 2.100-2.200: GC 10K->5K (20K), 100.000 ms\n";
        assert_eq!(
            gc_zone(jr, crate::parse::jrockit::FAMILY.clock()),
            Zone::Local
        );
        assert_eq!(
            gc_zone(
                b"1.210: [GC 10K->5K(20K), 0.01 secs]\n",
                crate::parse::hotspot::FAMILY.clock()
            ),
            Zone::Local
        );
    }

    fn gc_frame(text: &str) -> GcFrame {
        crate::columns::gc_frame(
            crate::parse::hotspot::FAMILY,
            &crate::parse::parse_one(crate::parse::hotspot::FAMILY, text.as_bytes()),
        )
        .unwrap()
    }

    fn perf_frame(text: &str) -> PerfFrame {
        let log = crate::parse::perf::parse(crate::parse::perf::SEMICOLON, text.as_bytes());
        crate::columns::perf_frame(&log).unwrap()
    }

    const GC: &str = "2012-09-21T10:00:01.000+0300: 1.000: [GC (Allocation Failure) [PSYoungGen: 100K->10K(200K)] 300K->210K(600K), 0.1000000 secs] [Times: user=0.01 sys=0.00, real=0.10 secs]\n\
        2012-09-21T10:00:05.000+0300: 5.000: [Full GC (Ergonomics) [PSYoungGen: 100K->0K(200K)] 300K->150K(600K), 0.5000000 secs] [Times: user=0.01 sys=0.00, real=0.50 secs]\n";

    #[test]
    fn by_hand_with_stamps_and_the_clock_said() {
        // Requests (end, total): a: 10:00:01.050, 100 ms (from .950: 50 ms of the young
        // pause), slow; b: 10:00:03.000, 500 ms, no GC, DB 450: slow by the database;
        // c: 10:00:05.600, 700 ms (from 4.900: the whole 500 ms full GC), slow; d: 10:00:06.000,
        // 20 ms, fast, no GC; e: 10:00:05.100, 40 ms (from 5.060: 40 ms of GC), fast with GC.
        let pf = perf_frame(
            "[a];2012-09-21 10:00:01.050;100;90;10;1;op1;\n\
             [b];2012-09-21 10:00:03.000;500;50;450;1;op2;\n\
             [e];2012-09-21 10:00:05.100;40;40;0;0;op1;\n\
             [c];2012-09-21 10:00:05.600;700;650;50;1;op1;\n\
             [d];2012-09-21 10:00:06.000;20;10;10;1;op2;\n",
        );
        let gf = gc_frame(GC);
        let g = GcSide {
            frame: &gf,
            clock: crate::parse::hotspot::FAMILY.clock(),
            zone: Zone::Offset(180),
        };
        let sides = [PerfSide {
            frame: &pf,
            utc: false,
        }];
        let p = prepare(&g, &sides, &Options::default()).unwrap();
        let c = correlate(&p, "gc.log", &["perf.log".into()]).unwrap();
        assert_eq!(c.clock.gc, "date stamps");
        assert_eq!(c.clock.gc_zone.as_deref(), Some("+0300"));
        // Both local: nothing moved; the host's offset is the GC log's.
        assert_eq!(
            (c.clock.gc_shift_ms, c.clock.perf_shift_ms.clone()),
            (0, vec![0])
        );
        assert_eq!(c.clock.host_offset.as_deref(), Some("+0300"));
        assert_eq!(c.clock.perf, vec!["local time"]);
        let f = &c.figures;
        assert_eq!((f.requests, f.slow_requests, f.slow_with_gc), (5, 3, 2));
        assert_eq!((f.fast_with_gc, f.slow_only_by_gc), (1, 1));
        // 50 + 500 ms of GC in slow requests, of 100 + 500 + 700 ms.
        assert_eq!(f.gc_ms_in_slow, 550.0);
        assert_eq!(f.slow_total_ms, 1300.0);
        assert_eq!(f.db_ms_in_slow, Some(510.0));
        assert_eq!(f.gc_ms_in_slow_mean, Some(550.0 / 3.0));
        // Totals 20 40 100 500 700: p99 at rank 3.96 = 500 + 0.96 * 200 = 692; without GC
        // 20 0 50 500 200 → sorted 0 20 50 200 500: 200 + 0.96 * 300 = 488.
        assert!((f.p99_ms.unwrap() - 692.0).abs() < 1e-9);
        assert!((f.p99_without_gc_ms.unwrap() - 488.0).abs() < 1e-9);
        assert_eq!((c.pauses, c.pauses_hitting_requests), (2, 2));
        let l = c.longest_pause.as_ref().unwrap();
        assert_eq!(
            (l.kind, l.duration_ms, l.requests, l.slow_requests),
            ("full", 500.0, 2, 1)
        );
        assert_eq!(l.start, "2012-09-21T10:00:05.000");
        // Kinds: full first (more pause time), each joined alone.
        let k: Vec<(&str, u64, u64)> = c
            .kinds
            .iter()
            .map(|k| (k.kind, k.figures.slow_with_gc, k.figures.fast_with_gc))
            .collect();
        assert_eq!(k, vec![("full", 1, 1), ("young", 1, 0)]);
        // op1 has all the GC time.
        assert_eq!(c.operations[0].operation, "op1");
        assert_eq!(c.operations[0].figures.gc_ms_in_slow, 550.0);
        assert_eq!(c.operations[1].figures.slow_requests, 1);
        // d starts at 10:00:05.980, after the GC log's last record ends (05.500).
        assert_eq!(c.requests_outside_gc_log, 1);
    }

    #[test]
    fn whole_second_stamps_take_the_millisecond_of_the_uptime() {
        // JRockit writes a line's stamp when it ends, cut to the second; the frame's wall time
        // is the stamp less the collection (09:12:43.990 and 09:12:45.980). At uptimes 1.700
        // and 3.400 s they say the JVM started at or after 09:12:42.290 and 09:12:42.580, the
        // later bound and so the nearer: the 20 ms pause starts at 09:12:45.980 (at 45.690 by
        // the first row's bound), all inside the slow request of 09:12:45.910-46.010, and the
        // 10 ms one at 09:12:44.280.
        let text = "[memory ][Mon Apr 08 09:12:44 2013][21877] [YC#1] 1.700-1.710: YC 100000KB->40000KB (500000KB), 0.010 s, sum of pauses 10.000 ms, longest pause 10.000 ms.\n\
            [memory ][Mon Apr 08 09:12:46 2013][21877] [YC#2] 3.400-3.420: YC 120000KB->60000KB (500000KB), 0.020 s, sum of pauses 20.000 ms, longest pause 20.000 ms.\n";
        let fam = crate::parse::jrockit::FAMILY;
        let gf =
            crate::columns::gc_frame(fam, &crate::parse::parse_one(fam, text.as_bytes())).unwrap();
        let pf = perf_frame("[a];2013-04-08 09:12:46.010;100;100;0;0;op;\n");
        let g = GcSide {
            frame: &gf,
            clock: fam.clock(),
            zone: Zone::Local,
        };
        let sides = [PerfSide {
            frame: &pf,
            utc: false,
        }];
        let p = prepare(&g, &sides, &Options::default()).unwrap();
        let c = correlate(&p, "gc.log", &["perf.log".into()]).unwrap();
        let l = c.longest_pause.as_ref().unwrap();
        assert_eq!(
            (l.start.as_str(), l.duration_ms),
            ("2013-04-08T09:12:45.980", 20.0)
        );
        assert_eq!(c.figures.gc_ms_in_slow, 20.0);
        assert_eq!(c.gc_first, "2013-04-08T09:12:44.280");
    }

    #[test]
    fn no_stamps_needs_a_jvm_start_and_far_apart_logs_say_so() {
        let gf = gc_frame(
            "1.000: [GC (Allocation Failure) [PSYoungGen: 100K->10K(200K)] 300K->210K(600K), 0.1000000 secs]\n",
        );
        let pf = perf_frame("[a];2012-09-21 10:00:01.050;100;90;10;1;op1;\n");
        let g = GcSide {
            frame: &gf,
            clock: crate::parse::hotspot::FAMILY.clock(),
            zone: Zone::Local,
        };
        let sides = [PerfSide {
            frame: &pf,
            utc: false,
        }];
        assert!(matches!(
            prepare(&g, &sides, &Options::default()),
            Err(CorrelateError::NeedGcStart)
        ));
        let start = crate::parse::num::iso_datetime_prefix(b"2012-09-21 10:00:00")
            .unwrap()
            .0;
        let o = Options {
            gc_start_ms: Some(start),
            ..Options::default()
        };
        let c = correlate(&prepare(&g, &sides, &o).unwrap(), "g", &[]).unwrap();
        assert_eq!(c.clock.gc, "--gc-start");
        assert_eq!(c.figures.gc_ms_in_slow, 50.0);
        // A day later: apart.
        let o = Options {
            gc_start_ms: Some(start + 86_400_000),
            ..Options::default()
        };
        match prepare(&g, &sides, &o) {
            Err(CorrelateError::NoOverlap {
                gc_first_ms,
                perf_last_ms,
                ..
            }) => assert_eq!(gc_first_ms - perf_last_ms, 86_400_000 + 1000 - 1050),
            _ => panic!("expected no overlap"),
        }
    }

    #[test]
    fn epoch_stamps_move_to_the_gc_logs_offset_or_tz() {
        // JMeter-like: a semicolon frame flagged as UTC, 07:00:01.050 UTC = 10:00:01.050 at
        // +0300.
        let pf = perf_frame("[a];2012-09-21 07:00:01.050;100;90;10;1;op1;\n");
        let gf = gc_frame(GC);
        let g = GcSide {
            frame: &gf,
            clock: crate::parse::hotspot::FAMILY.clock(),
            zone: Zone::Offset(180),
        };
        let sides = [PerfSide {
            frame: &pf,
            utc: true,
        }];
        let c = correlate(&prepare(&g, &sides, &Options::default()).unwrap(), "g", &[]).unwrap();
        assert_eq!(c.clock.perf_shift_ms, vec![3 * 3_600_000]);
        assert_eq!(c.clock.host_offset.as_deref(), Some("+0300"));
        assert_eq!(c.clock.host_offset_from, Some("the GC log's stamps"));
        assert_eq!(c.figures.gc_ms_in_slow, 50.0);
        // --tz +0100 says the host is at +0100: the GC log's +0300 stamps move back 2 h, the
        // epoch ones forward 1 h, and they meet at 08:00:01.
        let o = Options {
            tz_min: Some(60),
            ..Options::default()
        };
        let c = correlate(&prepare(&g, &sides, &o).unwrap(), "g", &[]).unwrap();
        assert_eq!(
            (c.clock.gc_shift_ms, c.clock.perf_shift_ms[0]),
            (-7_200_000, 3_600_000)
        );
        assert_eq!(c.clock.host_offset_from, Some("--tz"));
        assert_eq!(c.figures.gc_ms_in_slow, 50.0);
    }
}
