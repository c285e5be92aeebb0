//! GC figures: the per-file summary, the breakdown per pause kind and collector, the
//! pause-duration distribution.

use super::Band;
use crate::frame::gc::*;
use crate::frame::GcFrame;
use crate::model::{Kind, Record};
use polars::prelude::*;
use serde::Serialize;

/// Default pause-duration bands, ms.
pub const DEFAULT_BANDS: [f64; 6] = [10.0, 50.0, 100.0, 200.0, 500.0, 1000.0];

/// The `gc` object of the JSON contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GcSummary {
    /// GC events: whole collections (a JRockit collection with itemised pauses counts once).
    pub collections: u64,
    /// Stop-the-world GC pauses (individual pauses where the log itemises them).
    pub pauses: u64,
    /// The pauses' time; null without pauses, as `pause_max_ms` and `pause_mean_ms` are: in a
    /// window holding none, or where the log has collections but no pause lines (ZGC under
    /// `-Xlog:gc`: its pauses happened, the log does not say how long).
    pub pause_total_ms: Option<f64>,
    /// Longest single pause.
    pub pause_max_ms: Option<f64>,
    pub pause_mean_ms: Option<f64>,
    pub pause_p50_ms: Option<f64>,
    pub pause_p95_ms: Option<f64>,
    pub pause_p99_ms: Option<f64>,
    pub full_collections: u64,
    pub concurrent_phases: u64,
    pub safepoint_pauses: u64,
    pub safepoint_total_ms: f64,
    /// JVM restarts seen in the log (its uptime went back to 0): the log holds `restarts + 1`
    /// runs.
    pub restarts: u64,
    /// First event's start to last event's end, seconds; after a restart, the runs' spans
    /// summed (the time between runs, JVM down or starting, is no one's).
    pub span_s: Option<f64>,
    /// Share of the span outside GC pauses, percent; null when the span is unknown, the log
    /// has no pauses, or the span holds under a millisecond outside them.
    pub throughput_pct: Option<f64>,
    pub heap_max_kb: Option<u64>,
    /// The run's pause target (the log's own, or `--pause-target`), ms; the pauses longer
    /// than it, count and share of all pauses (`analyze::slo::apply_pause_target`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pause_target_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pauses_over_target: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pauses_over_target_pct: Option<f64>,
    /// Thread stalls and times to safepoint (`stalls`, `stall_total_ms`, `ttsp_max_ms`...).
    #[serde(flatten)]
    pub stalls: Stalls,
    /// Allocation, promotion, live set, causes, findings (`analyze::diag`), their keys in
    /// this object; None where not computed.
    #[serde(flatten)]
    pub diag: Option<super::diag::GcDiag>,
    /// The pauses' durations (those `pause_p*_ms` are of) as a mergeable distribution
    /// (`analyze::sketch`): a fleet's pause percentiles from its runs' summaries. Null
    /// without pauses.
    pub pause_ms_sketch: Option<super::sketch::Sketch>,
}

/// Thread-level stalls (ZGC `Allocation Stall`, `Relocation Stall`: `Record::Stall`) and the
/// safepoints' times to safepoint: figures of their own, never in the pause figures (a stall
/// stops one thread, not the application; a safepoint's reach is part of its stop).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Stalls {
    pub stalls: u64,
    pub stall_total_ms: f64,
    /// Longest stall; null without stalls.
    pub stall_max_ms: Option<f64>,
    /// Longest time to safepoint (`GcEvent::ttsp_ms`); null where no safepoint line says it.
    pub ttsp_max_ms: Option<f64>,
}

/// The stall and time-to-safepoint figures of a frame.
pub fn stalls(f: &GcFrame) -> PolarsResult<Stalls> {
    let df = &f.df;
    let v = durations_of(df, Record::Stall)?;
    // A frame built before the column existed (tests' hand-made frames) has no reaches.
    // Reduced on the column as it is: a column null everywhere (most logs) is a scalar, and
    // materialising it stays cached in the frame (14 MB for a 1.7 M-row CMS log).
    let ttsp_max_ms = match df.column(TTSP_MS) {
        Ok(c) => super::max_f64(c)?,
        _ => None,
    };
    Ok(Stalls {
        stalls: v.len() as u64,
        stall_total_ms: neumaier_sum(&v),
        stall_max_ms: v.iter().copied().reduce(f64::max),
        ttsp_max_ms,
    })
}

/// The name of a kind code read back from a frame.
fn kind_name(code: Option<i8>) -> &'static str {
    code.and_then(|c| u8::try_from(c).ok())
        .and_then(Kind::from_code)
        .map_or("", Kind::as_str)
}

/// Linear quantiles, interpolated between closest ranks (numpy's default: p50 of [1, 2, 3,
/// 4] is 2.5; polars' `QuantileMethod::Linear`, the same arithmetic, so the same doubles) of
/// `v`, reordered here in place: the ranks needed are selected (`select_nth_unstable`, each
/// in what the one before left to its right), where a whole sort of 2.9 M pauses was 3 % of
/// a JRockit log's time at the end of the run, on one core; an expression per quantile
/// copied the column for each (three 70 MB copies of a 2 GB log's pauses at the peak).
pub(super) fn linear_quantiles(v: &mut [f64], ps: &[f64]) -> Vec<Option<f64>> {
    let n = v.len();
    let mut lo = 0;
    for r in quantile_ranks(n, ps) {
        // Everything left of `lo` is already at or below rank `lo`: select within the rest.
        if let Some(rest) = v.get_mut(lo..) {
            if r >= lo && r - lo < rest.len() {
                rest.select_nth_unstable_by(r - lo, f64::total_cmp);
            }
        }
        lo = r + 1;
    }
    interpolate(n, ps, |r| v.get(r).copied())
}

/// `linear_quantiles` of a column's values (its nulls left out), from a copy.
pub(super) fn quantiles_of(c: &Float64Chunked, ps: &[f64]) -> Vec<Option<f64>> {
    let mut v = Vec::with_capacity(c.len() - c.null_count());
    for a in c.downcast_iter() {
        match a.validity().filter(|b| b.unset_bits() > 0) {
            None => v.extend_from_slice(a.values()),
            Some(_) => v.extend(a.iter().flatten().copied()),
        }
    }
    linear_quantiles(&mut v, ps)
}

/// Where quantile `p` of `n` values falls: its rank as a float, the rank below, and whether
/// it falls between that rank and the next.
fn quantile_at(n: usize, p: f64) -> (f64, usize, bool) {
    let float_idx = n.saturating_sub(1) as f64 * p;
    let idx = (float_idx as usize).min(n.saturating_sub(1));
    (float_idx, idx, float_idx.ceil() as usize != idx)
}

/// The ranks the quantiles `ps` of `n` values read, sorted, each once.
fn quantile_ranks(n: usize, ps: &[f64]) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let mut ranks: Vec<usize> = ps
        .iter()
        .flat_map(|&p| {
            let (_, idx, between) = quantile_at(n, p);
            [Some(idx), (between && idx + 1 < n).then_some(idx + 1)]
        })
        .flatten()
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

/// The quantiles `ps` of `n` values from the values at their ranks, interpolated between
/// closest ranks as `linear_quantiles` does.
pub(super) fn interpolate(
    n: usize,
    ps: &[f64],
    value: impl Fn(usize) -> Option<f64>,
) -> Vec<Option<f64>> {
    ps.iter()
        .map(|&p| {
            if n == 0 {
                return None;
            }
            let (float_idx, idx, between) = quantile_at(n, p);
            let lower = value(idx)?;
            if !between {
                return Some(lower);
            }
            let upper = value(idx + 1)?;
            Some(if lower == upper {
                lower
            } else {
                (float_idx - idx as f64) * (upper - lower) + lower
            })
        })
        .collect()
}

/// The sum of `v` with the rounding error of each addition carried along (Neumaier's
/// compensated sum): as good as the exact sum rounded once, where a running sum drifts.
fn neumaier_sum(v: &[f64]) -> f64 {
    let mut s = Neumaier::default();
    v.iter().for_each(|&x| s.add(x));
    s.value()
}

/// A running Neumaier sum (see `neumaier_sum`).
#[derive(Debug, Clone, Copy, Default)]
struct Neumaier {
    sum: f64,
    carry: f64,
}

impl Neumaier {
    fn add(&mut self, x: f64) {
        let t = self.sum + x;
        self.carry += if self.sum.abs() >= x.abs() {
            (self.sum - t) + x
        } else {
            (x - t) + self.sum
        };
        self.sum = t;
    }
    fn value(self) -> f64 {
        self.sum + self.carry
    }
}

/// A float column of the frame as it is (a scalar spread out).
fn floats(df: &DataFrame, name: &str) -> PolarsResult<Float64Chunked> {
    Ok(df.column(name)?.as_materialized_series().f64()?.clone())
}

/// The durations of the rows of one record, in row order: read off the columns' slices
/// (polars' optional iterators were 2 % of a 2.9 M-row summary), and a log of one record
/// (a scalar column: JRockit 1.4.2's collections) without materialising its codes.
fn durations_of(df: &DataFrame, record: Record) -> PolarsResult<Vec<f64>> {
    let d = Durations::of(df, record)?;
    // Counted first, then copied into a vector of that size: collected as they came, the
    // vector doubled its way there, the copies it left behind 8 MB more at a 1.7 M-row
    // log's peak.
    let mut v = Vec::with_capacity(d.count());
    d.each(|x| v.push(x));
    Ok(v)
}

/// The durations of the rows of one record, read where they are in the frame (see
/// `durations_of`), as often as needed.
struct Durations<'a> {
    rec: crate::frame::Num<'a, Int8Type>,
    dur: crate::frame::Num<'a, Float64Type>,
    n: usize,
    code: i8,
}

impl<'a> Durations<'a> {
    fn of(df: &'a DataFrame, record: Record) -> PolarsResult<Self> {
        Ok(Durations {
            rec: crate::frame::Num::col(df, RECORD)?,
            dur: crate::frame::Num::col(df, DURATION_MS)?,
            n: df.height(),
            code: record.code() as i8,
        })
    }

    fn count(&self) -> usize {
        let mut n = 0;
        self.each(|_| n += 1);
        n
    }

    fn each<F: FnMut(f64)>(&self, mut f: F) {
        use crate::frame::Num;
        let code = self.code;
        // Over the slices where the columns have no nulls (most logs); a log of one record
        // (JRockit 1.4.2's collections) has its code as a scalar.
        match (&self.rec, &self.dur) {
            (Num::Const(r), Num::Slice { vals, valid: None }) => {
                if *r == Some(code) {
                    vals.iter().copied().for_each(f);
                }
            }
            (
                Num::Slice {
                    vals: r,
                    valid: None,
                },
                Num::Slice {
                    vals: d,
                    valid: None,
                },
            ) => {
                for (&r, &d) in r.iter().zip(d.iter()) {
                    if r == code {
                        f(d);
                    }
                }
            }
            _ => {
                for i in 0..self.n {
                    if self.rec.get(i) == Some(code) {
                        if let Some(d) = self.dur.get(i) {
                            f(d);
                        }
                    }
                }
            }
        }
    }
}

/// The latest end (`t_s` + duration) of any event, without a column of ends (8 bytes a row).
fn latest_end(df: &DataFrame) -> PolarsResult<Option<f64>> {
    let (t, dur) = (floats(df, T_S)?, floats(df, DURATION_MS)?);
    // As `t + d / 1000` in a polars expression: the same operations on the same doubles.
    if let (Ok(t), Ok(d)) = (t.cont_slice(), dur.cont_slice()) {
        // No nulls (most logs): over the slices (polars' optional iterators were half of it).
        return Ok(t
            .iter()
            .zip(d)
            .map(|(t, d)| t + d / 1000.0)
            .reduce(f64::max));
    }
    Ok(t.iter()
        .zip(dur.iter())
        .filter_map(|(t, d)| Some(t? + d? / 1000.0))
        .reduce(f64::max))
}

pub fn summary(f: &GcFrame) -> PolarsResult<GcSummary> {
    Ok(summary_with(f, |_| ())?.0)
}

/// The summary and the diagnostics side by side, reading one set of the frame's columns: the
/// summary's passes over the pauses (one core's work) fill the time the diagnostics' uneven
/// halves leave a core idle, and the rows' class bytes (1 B a row, 17 MB for a 2 GB log) are
/// made once.
pub fn summary_and_diag(
    f: &GcFrame,
    o: &super::diag::DiagOptions,
) -> PolarsResult<(GcSummary, super::diag::GcDiag)> {
    let (s, d) = summary_with(f, |c| super::diag::diag_with(f, c, o))?;
    Ok((s, d?))
}

/// The summary, and `beside` given the frame's columns (`Cols`) as the summary reads them.
fn summary_with<R: Send>(
    f: &GcFrame,
    beside: impl FnOnce(&super::diag::Cols) -> R + Send,
) -> PolarsResult<(GcSummary, R)> {
    let df = &f.df;
    // The pauses' figures from one copy of their durations (filtered copies in the query,
    // one per figure, were 23-70 MB more at a 210 MB log's peak): a compensated sum (as
    // exact as polars' pairwise one, tested on every fixture and corpus log), the max and
    // the quantiles of the same copy.
    // The pauses' figures beside the counts and the other passes over the frame: two tasks
    // that a core come free takes one of (one after the other, the summary of a 200 MB
    // JRockit R27 log kept one core busy while the diagnostics' passes had ended on the other).
    let pause_figures = || {
        let mut d = durations_of(df, Record::Pause)?;
        let (mut sum, mut max) = (Neumaier::default(), None::<f64>);
        let mut sketch = super::sketch::Builder::default();
        for &x in &d {
            sum.add(x);
            sketch.add(x);
            max = Some(max.map_or(x, |m| if x.total_cmp(&m).is_ge() { x } else { m }));
        }
        let n = d.len();
        let q = linear_quantiles(&mut d, &[0.50, 0.95, 0.99]);
        let total = sum.value();
        let mean = (n > 0).then(|| total / n as f64);
        PolarsResult::Ok((total, max, mean, q, sketch.finish()))
    };
    let the_rest = |cols: &super::diag::Cols| {
        let end = latest_end(df)?;
        // Counted and reduced off the columns, not through a query: the lazy engine's first
        // use pages in 13 MB of its code (a third of a unified log's peak RSS), for sums and
        // counts.
        let mut c = counts(cols);
        c.collections = cols.collections(c.collections);
        let t_min = floats(df, T_S)?.min();
        let restarts = restarts(f)?;
        let span_s = if restarts > 0 {
            // One span per run, summed.
            Some(run_spans(df)?)
        } else {
            t_min.map(|m| end.unwrap_or(f64::NAN) - m)
        };
        let heap_max_kb = super::max_f64(df.column(HEAP_TOTAL_KB)?)?.filter(|v| v.is_finite());
        PolarsResult::Ok((
            c,
            restarts,
            span_s,
            heap_max_kb,
            safepoint_total(df)?,
            stalls(f)?,
        ))
    };
    // The pauses' figures need no `Cols`: they begin at once while the other core makes them
    // (one hand-over from the stream's threads to the pool, not two: each can find the other
    // core's thread asleep, and on a 2-vCPU VM a woken thread waited up to 4 ms for the
    // idle core).
    let (pauses, rest) = rayon::join(pause_figures, || {
        let cols = super::diag::Cols::of(df)?;
        let (rest, r) = rayon::join(|| the_rest(&cols), || beside(&cols));
        PolarsResult::Ok((rest?, r))
    });
    let (total, max, mean, q, pause_ms_sketch) = pauses?;
    let ((c, restarts, span_s, heap_max_kb, safepoint_total, stalls), beside) = rest?;
    let finite = |v: Option<f64>| v.filter(|v| v.is_finite());
    // Never negative, never infinite, never invented: without pauses in the log (ZGC under
    // `-Xlog:gc` prints cycles only) the paused time is unknown, and a span that is the
    // pauses themselves (a log of one pause) has no time outside them to take a share of.
    let throughput_pct = span_s
        .filter(|&s| c.pauses > 0 && s * 1000.0 - total >= MIN_RUNNING_MS)
        .map(|s| (100.0 * (s - total / 1000.0) / s).clamp(0.0, 100.0));
    Ok((
        GcSummary {
            collections: c.collections,
            pauses: c.pauses,
            // A sum over no pauses says nothing: a window past the log's end, a log of
            // safepoints alone or of ZGC cycles without pause lines has none, and 0 ms would
            // pass `pause_total_ms<=10ms` on a run that shows no pause at all.
            pause_total_ms: (c.pauses > 0).then(|| finite(Some(total)).unwrap_or(0.0)),
            pause_max_ms: max,
            pause_mean_ms: mean,
            pause_p50_ms: q.first().copied().flatten(),
            pause_p95_ms: q.get(1).copied().flatten(),
            pause_p99_ms: q.get(2).copied().flatten(),
            full_collections: c.full,
            concurrent_phases: c.concurrent,
            safepoint_pauses: c.safepoints,
            safepoint_total_ms: finite(safepoint_total).unwrap_or(0.0),
            restarts,
            span_s: finite(span_s),
            throughput_pct: finite(throughput_pct),
            heap_max_kb: heap_max_kb.map(|v| v as u64),
            pause_target_ms: None,
            pauses_over_target: None,
            pauses_over_target_pct: None,
            stalls,
            diag: None,
            pause_ms_sketch,
        },
        beside,
    ))
}

/// Least time outside the pauses for a throughput, ms: the stamps' finest unit (below it, the
/// share is rounding error: 5.7e-14 % of a log of one pause).
const MIN_RUNNING_MS: f64 = 1.0;

/// The summary's counts of rows by record and kind.
#[derive(Default)]
struct Counts {
    collections: u64,
    pauses: u64,
    full: u64,
    concurrent: u64,
    safepoints: u64,
}

fn counts(c: &super::diag::Cols) -> Counts {
    let mut n = Counts::default();
    // By class: the rows of each class counted once, each class's record and kind looked
    // at once (tested per row, this was 2 % of a 2.9 M-row log's summary).
    for (class, k) in c.class_counts() {
        let r = c.class_record(class);
        let collection = c.class_is_collection(class);
        n.collections += u64::from(collection) * k;
        n.pauses += u64::from(r == Some(Record::Pause)) * k;
        n.full += u64::from(c.class_is_full_collection(class)) * k;
        n.concurrent += u64::from(r == Some(Record::Concurrent)) * k;
        n.safepoints += u64::from(r == Some(Record::Safepoint)) * k;
    }
    n
}

/// The safepoints' time: their durations summed as polars sums a column (the same kernel
/// over the same values in the same order as the query's filtered sum was).
fn safepoint_total(df: &DataFrame) -> PolarsResult<Option<f64>> {
    let v = durations_of(df, Record::Safepoint)?;
    Ok(Float64Chunked::from_vec("".into(), v).sum())
}

/// How many times the JVM restarted within the log (runs less one).
pub fn restarts(f: &GcFrame) -> PolarsResult<u64> {
    // Reduced on the column as it is: a scalar `run` (one run) is never spread out.
    let max = f.df.column(RUN)?.max_reduce()?;
    Ok(max.value().extract::<u64>().unwrap_or(0))
}

/// Where each run after the first begins: (line, uptime in seconds as the log writes it).
pub fn run_starts(f: &GcFrame) -> PolarsResult<Vec<(u64, Option<f64>)>> {
    // One run (nearly every log): nothing to find. The query below filters `run` spread
    // out to a row each, with the columns it reads: on a 210 MB CMS log, 16 MB at the peak
    // and 70 ms of every `summary` that does not pass `-q`.
    if restarts(f)? == 0 {
        return Ok(Vec::new());
    }
    let out =
        f.df.clone()
            .lazy()
            .filter(col(RUN).gt(lit(0u32)))
            .group_by([col(RUN)])
            .agg([
                col(LINE).min().alias("line"),
                col(START_S)
                    .sort_by([col(LINE)], SortMultipleOptions::default())
                    .first()
                    .alias("u"),
            ])
            .sort([RUN], Default::default())
            .collect()?;
    let lines = out.column("line")?.cast(&DataType::UInt64)?.u64()?.clone();
    let ups = out.column("u")?.f64()?.clone();
    Ok((0..out.height())
        .filter_map(|i| lines.get(i).map(|l| (l, ups.get(i))))
        .collect())
}

/// The runs' spans (first start to last end within each run), summed, seconds.
fn run_spans(df: &DataFrame) -> PolarsResult<f64> {
    let end = col(T_S) + col(DURATION_MS) / lit(1000.0);
    let out = df
        .clone()
        .lazy()
        .group_by([col(RUN)])
        .agg([(end.max() - col(T_S).min()).alias("span")])
        .collect()?;
    // Summed here, in run order: groups come out in any order, and a float sum taken in
    // another order may differ in its last digit from one run of gcperf to the next.
    let runs = out.column(RUN)?.cast(&DataType::UInt32)?;
    let spans = out.column("span")?.cast(&DataType::Float64)?;
    let mut by_run: Vec<(u32, f64)> = runs
        .u32()?
        .iter()
        .zip(spans.f64()?.iter())
        .filter_map(|(r, s)| Some((r?, s?)))
        .collect();
    by_run.sort_by_key(|&(r, _)| r);
    Ok(by_run.iter().map(|&(_, s)| s).sum())
}

/// One row of the breakdown per pause kind and collector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindRow {
    pub kind: String,
    pub collector: String,
    pub count: u64,
    pub sum_ms: f64,
    pub mean_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
}

/// Pauses grouped by kind and collector, largest total first.
pub fn breakdown(f: &GcFrame) -> PolarsResult<Vec<KindRow>> {
    // Passes over the columns as they are, each pause's duration copied into its group's
    // list, not a polars group-by (its row-encoded keys and index lists took 0.3 GB more
    // than the frame for a 2 GB log): a GC log has a handful of groups. The lists are
    // counted first: grown as they came, they and the copies growing left behind were 46 MB
    // at a 2.8 M-pause log's peak, against 23 MB.
    let mut p = Pauses::of(f)?;
    let mut each: Vec<(Neumaier, f64, usize)> = Vec::new();
    p.each(|g, d| {
        if g == each.len() {
            each.push((Neumaier::default(), f64::NEG_INFINITY, 0));
        }
        if let Some((sum, max, count)) = each.get_mut(g) {
            // Compensated: a plain running sum of 3.5 M pauses was off in the 12th digit.
            sum.add(d);
            *max = max.max(d);
            *count += 1;
        }
    });
    let mut values: Vec<Vec<f64>> = each.iter().map(|e| Vec::with_capacity(e.2)).collect();
    p.each(|g, d| {
        if let Some(v) = values.get_mut(g) {
            v.push(d);
        }
    });
    let groups = p.groups;
    let mut rows: Vec<KindRow> = groups
        .iter()
        .filter_map(|(&(k, c), &g)| {
            let (sum, max, count) = each.get(g)?;
            let (sum, count) = (sum.value(), *count);
            let p95 = linear_quantiles(values.get_mut(g)?, &[0.95])
                .pop()
                .flatten();
            Some(KindRow {
                kind: kind_name(k).to_string(),
                collector: f.string(c).to_string(),
                count: count as u64,
                sum_ms: sum,
                mean_ms: sum / count as f64,
                p95_ms: p95.unwrap_or(0.0),
                max_ms: *max,
            })
        })
        .collect();
    // Largest total first, then by kind and collector name (sorted here, by name, not by
    // the codes the groups were made of).
    rows.sort_by(|a, b| {
        b.sum_ms
            .total_cmp(&a.sum_ms)
            .then_with(|| a.kind.cmp(&b.kind))
            .then_with(|| a.collector.cmp(&b.collector))
    });
    Ok(rows)
}

/// The pauses with a duration, by (kind, collector), for `breakdown`: a group's number is the
/// order in which a pass met it first (the same in every pass).
struct Pauses<'a> {
    rec: crate::frame::Num<'a, Int8Type>,
    kind: crate::frame::Num<'a, Int8Type>,
    coll: crate::frame::IdReader<'a>,
    dur: crate::frame::Num<'a, Float64Type>,
    n: usize,
    groups: std::collections::BTreeMap<(Option<i8>, u32), usize>,
}

impl<'a> Pauses<'a> {
    fn of(f: &'a GcFrame) -> PolarsResult<Self> {
        use crate::frame::{IdReader, Num};
        let df = &f.df;
        Ok(Pauses {
            rec: Num::col(df, RECORD)?,
            kind: Num::col(df, KIND)?,
            coll: IdReader::of(df.column(COLLECTOR)?)?,
            dur: Num::col(df, DURATION_MS)?,
            n: df.height(),
            groups: Default::default(),
        })
    }

    fn each(&mut self, mut f: impl FnMut(usize, f64)) {
        let pause = Some(Record::Pause.code() as i8);
        // Rows mostly repeat the group of the row before: looked up only when it changes.
        let mut last: Option<((Option<i8>, u32), usize)> = None;
        for i in 0..self.n {
            if self.rec.get(i) != pause {
                continue;
            }
            let Some(d) = self.dur.get(i) else { continue };
            let key = (self.kind.get(i), self.coll.get(i));
            let g = match last {
                Some((k, g)) if k == key => g,
                _ => {
                    let next = self.groups.len();
                    let g = *self.groups.entry(key).or_insert(next);
                    last = Some((key, g));
                    g
                }
            };
            f(g, d);
        }
    }
}

/// Pauses per duration band (all bands listed, empty ones with 0).
pub fn bands(f: &GcFrame, edges: &[f64]) -> PolarsResult<Vec<Band>> {
    // Counted in one pass over the pauses' durations, not a query (its filtered copy and band
    // column were 35 MB at a 2.9 M-row log's peak). A value falls in the first band whose
    // upper edge it does not pass (a < t <= b, see `band_labels`); past every edge (or not
    // a number), in the last.
    let df = &f.df;
    use crate::frame::Num;
    let rec: Num<Int8Type> = Num::col(df, RECORD)?;
    let dur: Num<Float64Type> = Num::col(df, DURATION_MS)?;
    let pause = Record::Pause.code() as i8;
    let mut counts = vec![0u64; edges.len() + 1];
    for i in (0..df.height()).filter(|&i| rec.get(i) == Some(pause)) {
        let b = dur.get(i).and_then(|d| edges.iter().position(|&e| d <= e));
        if let Some(slot) = counts.get_mut(b.unwrap_or(edges.len())) {
            *slot += 1;
        }
    }
    Ok(super::bands_of(edges, counts))
}

/// Band edges that fit a log's pauses when none are given: the 1-2-5 steps (0.01, 0.02,
/// 0.05, 0.1, ...) between its shortest and longest pause, every other decade's where they are
/// more than `MAX_FITTED` (1-10-100...), thinned further if still too many. A log whose pauses
/// all fall within one step, or with no pause, gets the default edges. (575 ZGC pauses under
/// a millisecond all fell in the default's 0-10.)
pub fn fitted_bands(f: &GcFrame) -> PolarsResult<Vec<f64>> {
    let d = col(DURATION_MS);
    let timed = d.clone().is_finite().and(d.clone().gt(lit(0.0)));
    let out =
        f.df.clone()
            .lazy()
            .filter(is_record(Record::Pause).and(timed))
            .select([d.clone().min().alias("lo"), d.max().alias("hi")])
            .collect()?;
    let (lo, hi) = (super::get_f64(&out, "lo"), super::get_f64(&out, "hi"));
    Ok(fitted_edges(lo.unwrap_or(f64::INFINITY), hi.unwrap_or(0.0)))
}

/// The rows of one record, as an expression.
pub(super) fn is_record(r: Record) -> Expr {
    col(RECORD).eq(lit(r.code() as i8))
}

/// Most bands a fitted histogram has (edges + 1).
const MAX_FITTED: usize = 10;

fn fitted_edges(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi > lo) {
        return DEFAULT_BANDS.to_vec();
    }
    // Decimal steps parsed from their text, so that 0.02 is the double nearest 0.02 and
    // prints so.
    let step = |m: u32, k: i32| format!("{m}e{k}").parse::<f64>().unwrap_or(f64::NAN);
    let within = |mantissas: &[u32]| -> Vec<f64> {
        let k0 = lo.log10().floor() as i32;
        let k1 = hi.log10().ceil() as i32;
        (k0..=k1)
            .flat_map(|k| mantissas.iter().map(move |&m| step(m, k)))
            .filter(|&e| e > lo && e < hi)
            .collect()
    };
    let mut edges = within(&[1, 2, 5]);
    if edges.len() >= MAX_FITTED {
        edges = within(&[1]);
    }
    if edges.len() >= MAX_FITTED {
        let every = edges.len().div_ceil(MAX_FITTED - 1);
        edges = edges.into_iter().step_by(every).collect();
    }
    if edges.is_empty() {
        return DEFAULT_BANDS.to_vec();
    }
    edges
}

/// Heap occupancy around collections, KB.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct HeapSummary {
    /// Largest heap capacity the log shows.
    pub capacity_max_kb: Option<u64>,
    /// Largest occupancy before a collection (how full the heap got).
    pub before_max_kb: Option<u64>,
    /// Largest and mean occupancy after a collection.
    pub after_max_kb: Option<u64>,
    pub after_mean_kb: Option<f64>,
    /// Largest occupancy after a full collection: an upper bound of the live set.
    pub after_full_max_kb: Option<u64>,
    /// Mean KB freed per collection.
    pub freed_mean_kb: Option<f64>,
}

pub fn heap(f: &GcFrame) -> PolarsResult<HeapSummary> {
    use crate::frame::{Flag, Num, UCol};
    let df = &f.df;
    // One pass over the columns as the frame holds them: the query's filtered and cast
    // copies (five at once) were 60-120 MB at a 210 MB log's peak. The heap figures are
    // whole K, so the sums below are exact and the means are what polars' were.
    let rec: Num<Int8Type> = Num::col(df, RECORD)?;
    let kind: Num<Int8Type> = Num::col(df, KIND)?;
    let itemised = Flag::of(df.column(IN_COLLECTION)?)?;
    let (total, before, after) = (
        UCol::of(df.column(HEAP_TOTAL_KB)?)?,
        UCol::of(df.column(HEAP_BEFORE_KB)?)?,
        UCol::of(df.column(HEAP_AFTER_KB)?)?,
    );
    let (collection, pause) = (Record::Collection.code() as i8, Record::Pause.code() as i8);
    let full = Kind::Full.code() as i8;
    let mut h = HeapSummary::default();
    let (mut after_sum, mut after_n) = (0u128, 0u64);
    let (mut freed_sum, mut freed_n) = (0i128, 0u64);
    let max = |m: &mut Option<u64>, v: Option<u64>| *m = (*m).max(v);
    for i in 0..df.height() {
        max(&mut h.capacity_max_kb, total.get(i));
        // Collections and non-itemised pauses carry the heap figures (itemised pauses
        // repeat none).
        let r = rec.get(i);
        let gc = r == Some(collection) || (r == Some(pause) && itemised.get(i) == Some(false));
        if !gc {
            continue;
        }
        let (b, a) = (before.get(i), after.get(i));
        max(&mut h.before_max_kb, b);
        max(&mut h.after_max_kb, a);
        if kind.get(i) == Some(full) {
            max(&mut h.after_full_max_kb, a);
        }
        if let Some(a) = a {
            after_sum += u128::from(a);
            after_n += 1;
            if let Some(b) = b {
                freed_sum += i128::from(b) - i128::from(a);
                freed_n += 1;
            }
        }
    }
    let finite = |v: f64| v.is_finite().then_some(v);
    h.after_mean_kb = (after_n > 0)
        .then(|| after_sum as f64 / after_n as f64)
        .and_then(finite);
    h.freed_mean_kb = (freed_n > 0)
        .then(|| freed_sum as f64 / freed_n as f64)
        .and_then(finite);
    Ok(h)
}

/// Points to draw over time, already reduced to at most a few per pixel column.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChartSeries {
    /// The x axis: seconds since JVM start (or since the first event), or the event's index
    /// when the log has no time stamps at all.
    pub x_is_index: bool,
    /// (kind, points (x, pause ms)), kinds in a fixed order.
    pub pauses: Vec<(String, Vec<(f64, f64)>)>,
    /// (kind, pauses of that kind in the log): the legend's counts, which reduced points
    /// would understate.
    pub counts: Vec<(String, u64)>,
    pub heap: Vec<HeapPoint>,
}

/// Heap figures of one collection (or one pixel column of them), KB.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HeapPoint {
    pub x: f64,
    pub before: Option<f64>,
    pub after: Option<f64>,
    pub capacity: Option<f64>,
}

/// Pause and heap series for charts: every point when there are fewer than `4 × columns`,
/// else per column the longest pause of each kind (the one a reader must see) and the heap's
/// highest before / lowest after / highest capacity.
pub fn series(f: &GcFrame, columns: usize) -> PolarsResult<ChartSeries> {
    use crate::frame::{Flag, Num, UCol};
    // Two passes over the columns as the frame holds them, the reduced points gathered per
    // pixel column: the queries' filtered copies, bucket columns and group-bys were held at
    // once (a 210 MB log's pause or heap chart peaked at 360 MB, the frame 90 MB).
    let df = &f.df;
    let n_rows = df.height();
    let t: Num<Float64Type> = Num::col(df, T_S)?;
    let has_t = df.column(T_S)?.null_count() < n_rows;
    let x_of = |i: usize| if has_t { t.get(i) } else { Some(i as f64) };
    let rec: Num<Int8Type> = Num::col(df, RECORD)?;
    let kind: Num<Int8Type> = Num::col(df, KIND)?;
    let dur: Num<Float64Type> = Num::col(df, DURATION_MS)?;
    let itemised = Flag::of(df.column(IN_COLLECTION)?)?;
    let (hb, ha, ht) = (
        UCol::of(df.column(HEAP_BEFORE_KB)?)?,
        UCol::of(df.column(HEAP_AFTER_KB)?)?,
        UCol::of(df.column(HEAP_TOTAL_KB)?)?,
    );
    let (pause, safepoint) = (Record::Pause.code() as i8, Record::Safepoint.code() as i8);
    // Any record with heap figures except an itemised pause (its collection has them) and a
    // safepoint: collections, pauses, and cycles such as ZGC's "Minor Collection".
    let heap_row = |i: usize| {
        (hb.get(i).is_some() || ha.get(i).is_some())
            && rec.get(i) != Some(safepoint)
            && itemised.get(i) == Some(false)
    };
    // First pass: pauses by kind, and the time range of the points of each chart.
    let mut by_code = [0u64; 256];
    let mut n = 0usize;
    let (mut pause_range, mut heap_range) = (Range::EMPTY, Range::EMPTY);
    for i in 0..n_rows {
        let is_pause = rec.get(i) == Some(pause);
        if is_pause {
            n += 1;
            if let Some(k) = kind.get(i) {
                by_code[k as u8 as usize] += 1;
            }
        }
        if let Some(x) = x_of(i) {
            if is_pause {
                pause_range.add(x);
            }
            if heap_row(i) {
                heap_range.add(x);
            }
        }
    }
    let counts: Vec<(String, u64)> = (0..256)
        .filter(|&c| by_code[c] > 0)
        .map(|c| (kind_name(Some(c as u8 as i8)).to_string(), by_code[c]))
        .collect();
    let cols = columns.max(1);
    let reduce = n > cols * 4;
    let point = |i: usize| HeapPoint {
        x: 0.0,
        before: hb.get(i).map(|v| v as f64),
        after: ha.get(i).map(|v| v as f64),
        capacity: ht.get(i).map(|v| v as f64),
    };
    // Per kind (in the order first seen) its points; reduced: per kind and column the longest
    // pause at its own time (the first of equal ones), per column the heap's mean time,
    // highest before, lowest after, highest capacity.
    let mut slot_of = [usize::MAX; 256];
    let mut kinds: Vec<i8> = Vec::new();
    let mut pts: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut longest: Vec<Vec<Option<(f64, f64)>>> = Vec::new();
    let mut heap: Vec<HeapPoint> = Vec::new();
    let mut heap_cols: Vec<Option<(Neumaier, u64, HeapPoint)>> =
        vec![None; if reduce { cols } else { 0 }];
    for i in 0..n_rows {
        let Some(x) = x_of(i) else { continue };
        if rec.get(i) == Some(pause) {
            if let (Some(k), Some(d)) = (kind.get(i), dur.get(i)) {
                let code = k as u8 as usize;
                if slot_of[code] == usize::MAX {
                    slot_of[code] = kinds.len();
                    kinds.push(k);
                    pts.push(Vec::new());
                    longest.push(vec![None; if reduce { cols } else { 0 }]);
                }
                let s = slot_of[code];
                if reduce {
                    let c = &mut longest[s][pause_range.column(x, cols)];
                    if c.is_none_or(|(best, _)| d > best) {
                        *c = Some((d, x));
                    }
                } else {
                    pts[s].push((x, d));
                }
            }
        }
        if heap_row(i) {
            let p = point(i);
            if reduce {
                let c = &mut heap_cols[heap_range.column(x, cols)];
                let (sum, k, q) = c.get_or_insert((Neumaier::default(), 0, p));
                sum.add(x);
                *k += 1;
                q.before = either(q.before, p.before, f64::max);
                q.after = either(q.after, p.after, f64::min);
                q.capacity = either(q.capacity, p.capacity, f64::max);
            } else {
                heap.push(HeapPoint { x, ..p });
            }
        }
    }
    if reduce {
        for (s, cols) in longest.into_iter().enumerate() {
            pts[s] = cols.into_iter().flatten().map(|(d, x)| (x, d)).collect();
            pts[s].sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        heap = heap_cols
            .into_iter()
            .flatten()
            .map(|(sum, k, p)| HeapPoint {
                x: sum.value() / k as f64,
                ..p
            })
            .collect();
        heap.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    let mut by_kind: Vec<(String, Vec<(f64, f64)>)> = kinds
        .iter()
        .zip(pts)
        .map(|(&k, v)| (kind_name(Some(k)).to_string(), v))
        .collect();
    by_kind.sort_by_key(|(k, _)| ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()));
    Ok(ChartSeries {
        x_is_index: !has_t,
        pauses: by_kind,
        counts,
        heap,
    })
}

/// The order of the pause chart's kinds (its legend's), others after them.
const ORDER: [&str; 8] = [
    "young",
    "mixed",
    "initial-mark",
    "remark",
    "cleanup",
    "old",
    "full",
    "other",
];

/// The lesser (`f64::min`) or greater (`f64::max`) of two figures, either one where the other
/// is missing.
fn either(a: Option<f64>, b: Option<f64>, pick: fn(f64, f64) -> f64) -> Option<f64> {
    a.zip(b).map(|(a, b)| pick(a, b)).or(a).or(b)
}

/// The time range of a chart's points, and the pixel column of a time within it.
#[derive(Debug, Clone, Copy)]
struct Range {
    lo: f64,
    hi: f64,
}

impl Range {
    const EMPTY: Range = Range {
        lo: f64::INFINITY,
        hi: f64::NEG_INFINITY,
    };
    fn add(&mut self, x: f64) {
        self.lo = self.lo.min(x);
        self.hi = self.hi.max(x);
    }
    /// `x`'s column of `cols` over the range: the last point, at the right edge, in the last
    /// column, not one of its own past it; a range of one time, all in the first.
    fn column(&self, x: f64, cols: usize) -> usize {
        let span = self.hi - self.lo;
        let span = if span > 0.0 { span } else { 1.0 };
        let b = ((x - self.lo) / span * cols as f64).floor();
        // `as` saturates (and takes NaN to 0): never past the last column.
        (b as usize).min(cols - 1)
    }
}

#[cfg(test)]
mod tests {

    fn hotspot_frame(text: &str) -> GcFrame {
        crate::columns::gc_frame(
            crate::parse::hotspot::FAMILY,
            &crate::parse::parse_one(crate::parse::hotspot::FAMILY, text.as_bytes()),
        )
        .unwrap()
    }

    #[test]
    fn fitted_band_edges_by_hand() {
        // ZGC-like: 0.004 to 0.9 ms: the 1-2-5 steps between, 0.005 ... 0.5.
        assert_eq!(
            fitted_edges(0.004, 0.9),
            vec![0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5]
        );
        // 3 ms to 25 s: 1-2-5 gives 12 edges (5 .. 20000), too many: decades 10 .. 10000.
        assert_eq!(
            fitted_edges(3.0, 25_000.0),
            vec![10.0, 100.0, 1000.0, 10000.0]
        );
        // 0.001 ms to 1e7 ms: 9 decades between (0.01 .. 1e6), under 10: kept.
        assert_eq!(fitted_edges(0.001, 1e7).len(), 9);
        // 1e-5 to 1e9: 13 decades, thinned to every other: 7.
        assert_eq!(
            fitted_edges(1e-5, 1e9),
            vec![1e-4, 1e-2, 1.0, 100.0, 1e4, 1e6, 1e8]
        );
        // Within one step, one pause, none: the defaults.
        assert_eq!(fitted_edges(3.1, 4.8), DEFAULT_BANDS.to_vec());
        assert_eq!(fitted_edges(5.0, 5.0), DEFAULT_BANDS.to_vec());
        assert_eq!(fitted_edges(f64::INFINITY, 0.0), DEFAULT_BANDS.to_vec());
        // Labels print as the steps are written.
        assert_eq!(
            crate::analyze::band_labels(&fitted_edges(0.004, 0.03)),
            ["0-0.005", "0.005-0.01", "0.01-0.02", ">0.02"]
        );
    }

    #[test]
    fn summary_beside_diagnostics_is_each_alone() {
        // Every fixture of each family (restarts, diagnostics' findings, itemised pauses,
        // safepoints): one set of columns read by both sides at once gives what each gives
        // alone, with and without a pause target's and an interval's figures.
        let logs = crate::gc_fixture_logs();
        for (path, log, f) in &logs {
            for interval_s in [None, Some(0.5)] {
                let o = crate::analyze::diag::DiagOptions {
                    interval_s,
                    pause_target_ms: Some(20.0),
                    meta: log.meta.clone(),
                };
                let (s, d) = summary_and_diag(f, &o).unwrap();
                assert_eq!(s, summary(f).unwrap(), "{}", path.display());
                assert_eq!(
                    d,
                    crate::analyze::diag::diag(f, &o).unwrap(),
                    "{}",
                    path.display()
                );
            }
        }
        let n = logs.len();
        assert!(n >= 20, "{n} fixtures");
    }

    #[test]
    fn jvm_restart_starts_a_run_and_spans_are_summed_per_run() {
        // Run 1: 10.0 s to 20.2 s (10.2 s); the JVM restarts; run 2: 1.0 s to 5.05 s (4.05 s).
        let df = hotspot_frame(
            "10.000: [GC 100K->50K(200K), 0.1000000 secs]\n\
             20.000: [GC 100K->50K(200K), 0.2000000 secs]\n\
             1.000: [GC 100K->50K(200K), 0.0500000 secs]\n\
             5.000: [GC 100K->50K(200K), 0.0500000 secs]\n",
        );
        let s = summary(&df).unwrap();
        assert_eq!(s.restarts, 1);
        assert_eq!(s.pauses, 4);
        let span = s.span_s.unwrap();
        assert!((span - 14.25).abs() < 1e-9, "{span}");
        // 0.4 s of pauses in 14.25 s.
        let tp = s.throughput_pct.unwrap();
        assert!((tp - 100.0 * 13.85 / 14.25).abs() < 1e-9, "{tp}");
        assert_eq!(run_starts(&df).unwrap(), vec![(3, Some(1.0))]);
        // On the time axis run 2 follows run 1's end (20.2 s).
        let tc = df.df.column(T_S).unwrap().f64().unwrap().clone();
        let t: Vec<Option<f64>> = (0..tc.len()).map(|i| tc.get(i)).collect();
        assert!((t[2].unwrap() - 21.2).abs() < 1e-9 && (t[3].unwrap() - 25.2).abs() < 1e-9);
    }

    #[test]
    fn one_event_printed_late_is_not_a_restart() {
        // The 2.0 s stamp goes back, but the next event is at 21 s again: no restart, and the
        // span is the plain first start to last end (2.0 s to 21.1 s).
        let df = hotspot_frame(
            "10.000: [GC 100K->50K(200K), 0.1000000 secs]\n\
             20.000: [GC 100K->50K(200K), 0.1000000 secs]\n\
             2.000: [GC 100K->50K(200K), 0.1000000 secs]\n\
             21.000: [GC 100K->50K(200K), 0.1000000 secs]\n",
        );
        let s = summary(&df).unwrap();
        assert_eq!(s.restarts, 0);
        assert!((s.span_s.unwrap() - 19.1).abs() < 1e-9);
        // A small step back (threads printing out of order) is not one either.
        let df = hotspot_frame(
            "10.000: [GC 100K->50K(200K), 0.1000000 secs]\n\
             9.500: [GC 100K->50K(200K), 0.1000000 secs]\n\
             9.600: [GC 100K->50K(200K), 0.1000000 secs]\n",
        );
        assert_eq!(summary(&df).unwrap().restarts, 0);
        // The last event going back, with nothing after it to confirm (a log cut inside its
        // last stamp: `29289` of `292896.105`): not a restart; the span is 2.0 s to 20.1 s.
        let df = hotspot_frame(
            "10.000: [GC 100K->50K(200K), 0.1000000 secs]\n\
             20.000: [GC 100K->50K(200K), 0.1000000 secs]\n\
             2.000: [GC 100K->50K(200K), 0.1000000 secs]\n",
        );
        let s = summary(&df).unwrap();
        assert_eq!(s.restarts, 0);
        assert!((s.span_s.unwrap() - 18.1).abs() < 1e-9, "{:?}", s.span_s);
    }

    use super::*;

    #[test]
    fn quantiles_of_a_column_leave_its_nulls_out() {
        // By hand: [4, null, 1] and [3, 2] as two chunks -> the values 1, 2, 3, 4: p50 2.5,
        // p0 1, p100 4; nothing for a column of nulls or of no rows.
        let mut c =
            Float64Chunked::from_iter_options("d".into(), [Some(4.0), None, Some(1.0)].into_iter());
        c.append(&Float64Chunked::from_slice("d".into(), &[3.0, 2.0]))
            .unwrap();
        assert_eq!(c.chunks().len(), 2);
        let q = quantiles_of(&c, &[0.5, 0.0, 1.0]);
        assert_eq!(q, vec![Some(2.5), Some(1.0), Some(4.0)]);
        let nulls = Float64Chunked::full_null("d".into(), 3);
        assert_eq!(quantiles_of(&nulls, &[0.5]), vec![None]);
        assert_eq!(
            quantiles_of(&Float64Chunked::from_slice("d".into(), &[]), &[0.5]),
            vec![None]
        );
    }

    #[test]
    fn selected_quantiles_are_polars_linear_quantiles() {
        // By hand: [1, 2, 3, 4] -> p50 at rank 1.5: 2.5; p95 at 2.85: 3.85; p0 and p100 the
        // ends; nothing for no values.
        let mut v = vec![4.0, 1.0, 3.0, 2.0];
        let q = linear_quantiles(&mut v, &[0.5, 0.95, 0.0, 1.0]);
        assert_eq!((q[0], q[2], q[3]), (Some(2.5), Some(1.0), Some(4.0)));
        // 3 * 0.95 is 2.8499999999999996 in binary: 3.85 within its noise.
        assert!(q[1].is_some_and(|p95| (p95 - 3.85).abs() < 1e-12), "{q:?}");
        assert_eq!(linear_quantiles(&mut [], &[0.5]), vec![None]);
        assert_eq!(linear_quantiles(&mut [7.25], &[0.99]), vec![Some(7.25)]);
        // The same doubles as polars' own, on values with ties and awkward fractions.
        let vals: Vec<f64> = (0..1001u32)
            .map(|i| f64::from((i * 7919) % 1009) / 7.0 + f64::from(i % 3) * 0.1)
            .collect();
        for p in [0.5, 0.95, 0.99, 0.333, 0.001] {
            let want = Series::new("x".into(), &vals)
                .f64()
                .unwrap()
                .quantile(p, QuantileMethod::Linear)
                .unwrap();
            let got = linear_quantiles(&mut vals.clone(), &[p])[0];
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "p{p}");
        }
        // Several at once, in any order (each rank selected in what the one before left).
        let ps = [0.99, 0.5, 0.333, 0.95, 0.001, 0.5, 1.0, 0.0];
        let got = linear_quantiles(&mut vals.clone(), &ps);
        for (p, g) in ps.iter().zip(got) {
            let want = Series::new("x".into(), &vals)
                .f64()
                .unwrap()
                .quantile(*p, QuantileMethod::Linear)
                .unwrap();
            assert_eq!(g.map(f64::to_bits), want.map(f64::to_bits), "p{p}");
        }
    }

    #[test]
    fn fitted_bands_and_pauses_over_a_target_read_the_pauses_only() {
        // Pauses of 4, 30, 30 and 200 ms around a concurrent phase of 600 ms (not a pause).
        let f = hotspot_frame(
            "1.000: [GC 1.000: [ParNew: 100K->10K(200K), 0.0040000 secs] 300K->210K(600K), 0.0040000 secs]\n\
             2.000: [GC 2.000: [ParNew: 100K->10K(200K), 0.0300000 secs] 300K->210K(600K), 0.0300000 secs]\n\
             3.000: [CMS-concurrent-mark: 0.600/0.600 secs]\n\
             4.000: [GC 4.000: [ParNew: 100K->10K(200K), 0.0300000 secs] 300K->210K(600K), 0.0300000 secs]\n\
             5.000: [GC 5.000: [ParNew: 100K->10K(200K), 0.2000000 secs] 300K->210K(600K), 0.2000000 secs]\n",
        );
        assert_eq!(summary(&f).unwrap().concurrent_phases, 1);
        // The 1-2-5 steps strictly between 4 and 200 ms (with the phase, 200 and 500 too).
        assert_eq!(
            fitted_bands(&f).unwrap(),
            vec![5.0, 10.0, 20.0, 50.0, 100.0]
        );
        // Longer than the target: a pause of exactly the target meets it.
        let over = |t| crate::analyze::slo::pauses_over(&f, t).unwrap();
        assert_eq!(
            (over(3.9), over(4.0), over(30.0), over(200.0)),
            (4, 3, 1, 0)
        );
    }

    #[test]
    fn breakdown_ties_are_ordered_by_kind_and_collector_name_not_code() {
        // Three groups of 10 ms: codes and ids would put young (0) before full (3), and ParNew
        // (interned first) before DefNew.
        let f = hotspot_frame(
            "1.000: [GC 1.000: [ParNew: 100K->10K(200K), 0.0100000 secs] 300K->210K(600K), 0.0100000 secs]\n\
             2.000: [GC 2.000: [DefNew: 100K->10K(200K), 0.0100000 secs] 300K->210K(600K), 0.0100000 secs]\n\
             3.000: [Full GC 3.000: [Tenured: 100K->10K(200K), 0.0100000 secs] 300K->210K(600K), 0.0100000 secs]\n\
             4.000: [GC 4.000: [PSYoungGen: 100K->10K(200K)] 300K->210K(600K), 0.0200000 secs]\n",
        );
        let rows: Vec<(String, String)> = breakdown(&f)
            .unwrap()
            .into_iter()
            .map(|r| (r.kind, r.collector))
            .collect();
        let want: Vec<(String, String)> = [
            ("young", "PSYoungGen"),
            ("full", "Tenured"),
            ("young", "DefNew"),
            ("young", "ParNew"),
        ]
        .iter()
        .map(|&(k, c)| (k.to_string(), c.to_string()))
        .collect();
        // The largest total (20 ms) first, then the ties by name.
        assert_eq!(rows, want);
    }

    #[test]
    fn breakdown_of_many_groups_met_in_turn() {
        // 300 collectors (groups 0..=299, each met again in the second round), each with two
        // young pauses a round apart, g + 1 and g + 1.5 ms, and a collection between the
        // rounds (not a pause: in no group). By hand: count 2, sum 2g + 2.5, max g + 1.5,
        // p95 g + 1 + 0.95 * 0.5 = g + 1.475. The same with 3 collectors.
        use crate::model::{GcEvent, GcLog};
        for groups in [300u32, 3] {
            let mut log = GcLog::default();
            let mut line = 0u64;
            for round in 0..2 {
                for g in 0..groups {
                    line += 1;
                    let d = f64::from(g) + 1.0 + 0.5 * f64::from(round);
                    let mut e = GcEvent::new(Record::Pause, Kind::Young, d, line);
                    e.uptime_s = Some(line as f64);
                    e.collector = log.strings.intern(&format!("C{g:03}"));
                    log.events.push(e);
                }
                line += 1;
                let mut c = GcEvent::new(Record::Collection, Kind::Old, 1000.0, line);
                c.uptime_s = Some(line as f64);
                log.events.push(c);
            }
            let f = crate::columns::gc_frame(crate::parse::hotspot::FAMILY, &log).unwrap();
            let rows = breakdown(&f).unwrap();
            assert_eq!(rows.len(), groups as usize);
            for r in &rows {
                let g: u32 = r.collector[1..].parse().unwrap();
                let g = f64::from(g);
                assert_eq!(r.kind, "young");
                assert_eq!(r.count, 2, "{}", r.collector);
                assert_eq!(r.sum_ms, 2.0 * g + 2.5, "{}", r.collector);
                assert_eq!(r.max_ms, g + 1.5, "{}", r.collector);
                assert!(
                    (r.p95_ms - (g + 1.475)).abs() < 1e-9,
                    "{} {}",
                    r.collector,
                    r.p95_ms
                );
            }
            // Largest total first.
            assert_eq!(rows[0].collector, format!("C{:03}", groups - 1));
        }
    }

    #[test]
    fn reduced_series_keeps_true_counts_and_the_longest_pause_time() {
        // 50 young pauses of 10 ms at 1..=50 s and full GCs of 50 ms at 14.2 s and 99 ms at
        // 17.3 s (one column: 13.25-25.5 s), drawn into 4 columns: reduced (52 > 4 x 4).
        let mut text = String::new();
        for t in 1..=50 {
            text.push_str(&format!(
                "{t}.000: [GC 1000K->500K(2000K), 0.0100000 secs]\n"
            ));
            if t == 14 {
                text.push_str("14.200: [Full GC 1000K->400K(2000K), 0.0500000 secs]\n");
            }
            if t == 17 {
                text.push_str("17.300: [Full GC 1000K->400K(2000K), 0.0990000 secs]\n");
            }
        }
        let log = crate::parse::parse_one(crate::parse::hotspot::FAMILY, text.as_bytes());
        let df = crate::columns::gc_frame(crate::parse::hotspot::FAMILY, &log).unwrap();
        let s = series(&df, 4).unwrap();
        let count = |k: &str| s.counts.iter().find(|(kk, _)| kk == k).map(|(_, n)| *n);
        assert_eq!((count("young"), count("full")), (Some(50), Some(2)));
        let young = &s.pauses.iter().find(|(k, _)| k == "young").unwrap().1;
        // Four columns over the 49 s span; the last pause (50 s) joins the last column.
        assert_eq!(young.len(), 4);
        let full = &s.pauses.iter().find(|(k, _)| k == "full").unwrap().1;
        // The longer full GC's own time and duration, not its column's mean time (15.75 s).
        assert_eq!(full.len(), 1);
        assert!(
            (full[0].0 - 17.3).abs() < 1e-9 && (full[0].1 - 99.0).abs() < 1e-9,
            "{full:?}"
        );
        // Each young point is its column's longest pause at that pause's own time.
        assert!(young
            .iter()
            .all(|&(x, d)| x.fract() == 0.0 && (d - 10.0).abs() < 1e-9));
    }

    /// `series` as polars queries (what it was): the reference for `series_matches_the_queries`.
    fn series_query(f: &GcFrame, columns: usize) -> PolarsResult<ChartSeries> {
        let df = &f.df;
        let has_t = df.column(T_S)?.null_count() < df.height();
        let x = if has_t {
            col(T_S)
        } else {
            let idx: Vec<f64> = (0..df.height()).map(|i| i as f64).collect();
            lit(Series::new("x".into(), idx))
        };
        let base = df.clone().lazy().with_column(x.alias("x"));
        let pause = is_record(Record::Pause);
        let n_pauses = df
            .clone()
            .lazy()
            .filter(pause.clone())
            .select([len().alias("n")])
            .collect()?;
        let n = super::super::get_f64(&n_pauses, "n").unwrap_or(0.0) as usize;
        let limit = columns.max(1) * 4;
        let bucket = {
            let span = col("x").max() - col("x").min();
            let b = ((col("x") - col("x").min())
                / when(span.clone().gt(lit(0.0)))
                    .then(span)
                    .otherwise(lit(1.0))
                * lit(columns.max(1) as f64))
            .floor();
            // The last event sits exactly at the right edge: it belongs to the last column, not
            // to a column of its own past it.
            let last = lit((columns.max(1) - 1) as f64);
            when(b.clone().gt(last.clone()))
                .then(last)
                .otherwise(b)
                .alias("bucket")
        };
        let pauses_df = if n <= limit {
            base.clone()
                .filter(pause.clone().and(col("x").is_not_null()))
                .select([col(KIND), col("x"), col(DURATION_MS)])
                .collect()?
        } else {
            base.clone()
                .filter(pause.and(col("x").is_not_null()))
                .with_column(bucket.clone())
                .group_by([col("bucket"), col(KIND)])
                .agg([
                    // The longest pause of the column, at its own time (its label says when).
                    col("x")
                        .sort_by(
                            [col(DURATION_MS)],
                            SortMultipleOptions::default().with_order_descending(true),
                        )
                        .first()
                        .alias("x"),
                    col(DURATION_MS).max().alias(DURATION_MS),
                ])
                .select([col(KIND), col("x"), col(DURATION_MS)])
                .sort(["x"], Default::default())
                .collect()?
        };
        let heap_df = {
            // Any record with heap figures except an itemised pause (its collection has them) and
            // a safepoint: collections, pauses, and cycles such as ZGC's "Minor Collection".
            let with_heap = col(HEAP_BEFORE_KB)
                .is_not_null()
                .or(col(HEAP_AFTER_KB).is_not_null())
                .and(is_record(Record::Safepoint).not())
                .and(col(IN_COLLECTION).not());
            let lf = base.filter(with_heap.and(col("x").is_not_null())).select([
                col("x"),
                col(HEAP_BEFORE_KB).cast(DataType::Float64).alias("before"),
                col(HEAP_AFTER_KB).cast(DataType::Float64).alias("after"),
                col(HEAP_TOTAL_KB).cast(DataType::Float64).alias("total"),
            ]);
            if n <= limit {
                lf.collect()?
            } else {
                lf.with_column(bucket)
                    .group_by([col("bucket")])
                    .agg([
                        col("x").mean(),
                        col("before").max(),
                        col("after").min(),
                        col("total").max(),
                    ])
                    .sort(["x"], Default::default())
                    .collect()?
            }
        };
        let count_df = df
            .clone()
            .lazy()
            .filter(is_record(Record::Pause))
            .group_by([col(KIND)])
            .agg([len().cast(DataType::UInt64).alias("n")])
            .collect()?;
        let (ck, cn) = (
            count_df.column(KIND)?.cast(&DataType::Int8)?,
            count_df.column("n")?.u64()?.clone(),
        );
        let ck = ck.i8()?;
        let counts: Vec<(String, u64)> = (0..count_df.height())
            .filter_map(|i| Some((kind_name(Some(ck.get(i)?)).to_string(), cn.get(i)?)))
            .collect();
        let kinds = pauses_df.column(KIND)?.cast(&DataType::Int8)?;
        let kinds = kinds.i8()?;
        let xs = pauses_df.column("x")?.f64()?.clone();
        let ds = pauses_df.column(DURATION_MS)?.f64()?.clone();
        let mut by_kind: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for i in 0..pauses_df.height() {
            let (Some(k), Some(x), Some(d)) = (kinds.get(i), xs.get(i), ds.get(i)) else {
                continue;
            };
            let k = kind_name(Some(k));
            match by_kind.iter_mut().find(|(kk, _)| kk == k) {
                Some((_, v)) => v.push((x, d)),
                None => by_kind.push((k.to_string(), vec![(x, d)])),
            }
        }
        by_kind.sort_by_key(|(k, _)| ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()));
        let hx = heap_df.column("x")?.f64()?.clone();
        let hb = heap_df.column("before")?.f64()?.clone();
        let ha = heap_df.column("after")?.f64()?.clone();
        let ht = heap_df.column("total")?.f64()?.clone();
        let heap = (0..heap_df.height())
            .filter_map(|i| {
                hx.get(i).map(|x| HeapPoint {
                    x,
                    before: hb.get(i),
                    after: ha.get(i),
                    capacity: ht.get(i),
                })
            })
            .collect();
        Ok(ChartSeries {
            x_is_index: !has_t,
            pauses: by_kind,
            counts,
            heap,
        })
    }

    /// The one-pass series give every fixture's points as the queries did, unreduced and
    /// reduced to a few columns (the longest pause of a column: the queries' sort picked one of
    /// equal ones; the pass, the first: the fixtures have no such tie).
    #[test]
    fn series_matches_the_queries() {
        let mut seen = 0;
        for (path, _, f) in crate::gc_fixture_logs() {
            for cols in [1, 3, 800] {
                let mut got = series(&f, cols).unwrap();
                let mut want = series_query(&f, cols).unwrap();
                got.counts.sort();
                want.counts.sort();
                assert_eq!(got, want, "{} at {cols} columns", path.display());
                seen += 1;
            }
        }
        assert!(seen > 20, "{seen}");
    }
}
