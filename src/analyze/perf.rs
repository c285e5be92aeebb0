//! Performance-log figures: requests, errors, latency percentiles, Java/DB split, latency
//! bands, shares over thresholds, throughput, per operation.

use super::{get_f64, share_pct, Band};
use crate::frame::perf::*;
use crate::frame::PerfFrame;
use crate::parse::num::format_wall_ms;
use polars::prelude::*;
use rayon::prelude::*;
use serde::Serialize;

/// The source documents' latency bands (ms): `0` (exactly 0), `0-50`, `50-200`, `200-1000`,
/// `1000-3000`, `3000-10000`, `>10000`.
pub const DEFAULT_BANDS: [f64; 6] = [0.0, 50.0, 200.0, 1000.0, 3000.0, 10000.0];
/// The Trader benchmark's thresholds (ms): share of operations over 50 and over 150 ms.
pub const DEFAULT_OVER: [f64; 2] = [50.0, 150.0];

/// What to count and how.
#[derive(Debug, Clone, PartialEq)]
pub struct PerfOptions {
    /// Band edges, ascending; a leading 0 makes an exactly-0 band.
    pub bands: Vec<f64>,
    pub over: Vec<f64>,
    /// Warm-up to leave out: records ending within this many seconds of the first one.
    pub skip_s: f64,
    /// Only records ending at or after / before this time (epoch ms, log time).
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
    /// Length of the per-interval series' intervals, ms; None: no series.
    pub interval_ms: Option<i64>,
}

impl Default for PerfOptions {
    fn default() -> Self {
        PerfOptions {
            bands: DEFAULT_BANDS.to_vec(),
            over: DEFAULT_OVER.to_vec(),
            skip_s: 0.0,
            from_ms: None,
            to_ms: None,
            interval_ms: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Over {
    pub ms: f64,
    pub count: u64,
    /// Full precision: 0.0001 % must survive; None without requests.
    pub share_pct: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Operation {
    pub name: String,
    pub count: u64,
    pub errors: u64,
    pub total_ms_sum: f64,
    pub java_ms_sum: Option<f64>,
    pub db_ms_sum: Option<f64>,
    pub db_calls_sum: Option<u64>,
    pub total_ms_mean: f64,
    pub total_ms_p95: f64,
    pub total_ms_max: f64,
    /// DB time over the time of the records whose split fits in it (`split_fits`), %.
    pub db_share_pct: Option<f64>,
    /// errors / count, %.
    pub error_pct: f64,
    /// count / the log's span (the first request's start to the last one's end, of the whole
    /// log, in the window): the operation's share of the load as a rate; None for a log
    /// without a span.
    pub throughput_per_s: Option<f64>,
    pub total_ms_min: f64,
    pub total_ms_p50: f64,
    pub total_ms_p90: f64,
    pub total_ms_p99: f64,
    /// Mean Java and DB time per request (semicolon log only): the sums over the count.
    pub java_ms_mean: Option<f64>,
    pub db_ms_mean: Option<f64>,
}

/// The `perf` object of the JSON contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerfSummary {
    pub requests: u64,
    pub errors: u64,
    pub error_pct: Option<f64>,
    pub inconsistent: u64,
    /// The first request's start (its end less its time, to the millisecond below) and the
    /// last request's end, local time as the log writes it.
    pub first: Option<String>,
    pub last: Option<String>,
    /// From `first` to `last`, seconds (as JMeter's dashboard reckons a test's span).
    pub span_s: Option<f64>,
    /// requests / `span_s`.
    pub throughput_per_s: Option<f64>,
    pub total_ms_sum: f64,
    pub java_ms_sum: Option<f64>,
    pub db_ms_sum: Option<f64>,
    /// DB time over the time of the records whose split fits in it (`split_fits`), %.
    pub db_share_pct: Option<f64>,
    pub db_calls_sum: Option<u64>,
    pub total_ms_mean: Option<f64>,
    pub total_ms_p50: Option<f64>,
    pub total_ms_p90: Option<f64>,
    pub total_ms_p95: Option<f64>,
    pub total_ms_p99: Option<f64>,
    pub total_ms_max: Option<f64>,
    pub over: Vec<Over>,
    pub bands: Vec<Band>,
    pub operations: Vec<Operation>,
    /// The per-interval series, when an interval was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intervals: Option<Vec<Interval>>,
    /// The failed requests by message, most frequent first (`perf --by error`).
    pub error_messages: Vec<ErrorMessage>,
    /// The requests' times (those `total_ms_p*` are of) as a mergeable distribution
    /// (`analyze::sketch`): a fleet's percentiles from its runs' summaries. Null without
    /// requests.
    pub total_ms_sketch: Option<super::sketch::Sketch>,
}

/// The failed requests of one message: how many, and in which operations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorMessage {
    /// The `e-` text, JMeter's `code/message` (or assertion message), The Grinder's error
    /// count and HTTP code; empty where the log gives none (a bare `e-`).
    pub message: String,
    pub count: u64,
    /// Of all failed requests, %.
    pub errors_pct: f64,
    /// Of all requests, %.
    pub requests_pct: f64,
    /// The operations it failed in with their counts, most first (then by name).
    pub operations: Vec<ErrorIn>,
}

/// How often a message was an operation's failure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorIn {
    pub operation: String,
    pub count: u64,
}

/// The linear quantile `p` of `e` (numpy's default).
pub(super) fn q(e: Expr, p: f64) -> Expr {
    e.quantile(lit(p), QuantileMethod::Linear)
}

/// The options' warm-up and time window keep none of the frame's records, though it has some
/// (a window past the log's end): the command should say so, not show zeros without a word.
pub fn window_leaves_none(df: &DataFrame, o: &PerfOptions) -> PolarsResult<bool> {
    if df.height() == 0 || (o.skip_s <= 0.0 && o.from_ms.is_none() && o.to_ms.is_none()) {
        return Ok(false);
    }
    let n = selected(df, o).select([len().alias("n")]).collect()?;
    Ok(n.column("n")?.get(0)?.extract::<u64>() == Some(0))
}

/// The records the options keep (warm-up, time window).
fn selected(df: &DataFrame, o: &PerfOptions) -> LazyFrame {
    in_window(df.clone().lazy(), o.skip_s, o.from_ms, o.to_ms)
}

/// The requests of `lf` in a window, by their end: after the first `skip_s` seconds (from
/// the first end), at or after `from_ms`, before `to_ms`. A request without a time is in no
/// window (`model::PERF_CLOCK_MS`). `perf`, `summary`, `correlate` and the batch's windows
/// all select so.
pub(crate) fn in_window(
    mut lf: LazyFrame,
    skip_s: f64,
    from_ms: Option<i64>,
    to_ms: Option<i64>,
) -> LazyFrame {
    if skip_s > 0.0 {
        let cut = col(END_MS).min().cast(DataType::Float64) + lit(skip_s * 1000.0);
        lf = lf.filter(col(END_MS).cast(DataType::Float64).gt_eq(cut));
    }
    if let Some(f) = from_ms {
        lf = lf.filter(col(END_MS).gt_eq(lit(f)));
    }
    if let Some(t) = to_ms {
        lf = lf.filter(col(END_MS).lt(lit(t)));
    }
    lf
}

/// `lf` without the requests that have no time (`model::PERF_CLOCK_MS`), for the
/// figures over time; unfiltered where every request of `df` has one.
pub(crate) fn on_clock(df: &DataFrame, lf: LazyFrame) -> PolarsResult<LazyFrame> {
    Ok(match df.column(END_MS)?.null_count() {
        0 => lf,
        _ => lf.filter(col(END_MS).is_not_null()),
    })
}

/// Whether a record's DB time is a part of its total, and so of the DB share
/// (`db_share_pct`): a record whose Java + DB matches its total, or falls short of it (time
/// outside both). One whose Java + DB exceeds its total (flagged `inconsistent`: 300 ms of DB
/// in a 100 ms request) claims more time than it took: its DB time is no share of anything,
/// and counted, it took the share over 100 %. It stays in every other figure.
fn split_fits() -> Expr {
    let parts = col(JAVA_MS).fill_null(lit(0.0)) + col(DB_MS);
    col(INCONSISTENT).not().or(parts.lt_eq(col(TOTAL_MS)))
}

/// Whether a record of `df` is flagged inconsistent. Most logs have none (a column all false,
/// or no column in tests' hand-made frames): their DB share is read without `split_fits`,
/// whose filter copies the columns.
fn any_flagged(df: &DataFrame) -> bool {
    match df.column(INCONSISTENT) {
        Ok(Column::Scalar(s)) => s.scalar().value().extract_bool().unwrap_or(false),
        Ok(c) => c.as_materialized_series().bool().is_ok_and(|b| b.any()),
        Err(_) => false,
    }
}

/// Whether `df`'s DB share leaves a record out (`split_fits`): it has DB times and a
/// flagged record.
fn share_flagged(df: &DataFrame) -> bool {
    let db = df.column(DB_MS).is_ok_and(|c| c.null_count() < c.len());
    db && any_flagged(df)
}

/// Sums, counts, mean and max of the times of `df`'s records, the same for the whole log and
/// per operation.
fn time_sums(df: &DataFrame, share: bool) -> Vec<Expr> {
    let t = col(TOTAL_MS);
    // What reads a column no record has (the Java/DB split outside semicolon logs) is left
    // out: polars reads it through an array of nulls, the first of which zeroes its global
    // 8 MiB buffer (2,300 page faults, 5 ms of a small access log's 13). Its count is 0, so
    // what would be read is not.
    let none = |name: &str| df.column(name).is_ok_and(|c| c.null_count() == c.len());
    let sum = |name: &str| match none(name) {
        true => lit(0.0),
        false => col(name).sum(),
    };
    let flagged = share_flagged(df);
    // Without `share`, a flagged log's DB share is left to the caller.
    let shared = share || !flagged;
    let mut sums = vec![
        t.clone().sum().alias("total_sum"),
        sum(JAVA_MS).alias("java_sum"),
        sum(DB_MS).alias("db_sum"),
        col(JAVA_MS).count().alias("java_n"),
        col(DB_MS).count().alias("db_n"),
        sum(DB_CALLS).alias("calls_sum"),
        col(DB_CALLS).count().alias("calls_n"),
        // The DB share is over the records whose split fits in their time (`split_fits`: all
        // in a semicolon log, so no copy is made, unless one is flagged). Selected by
        // `is_not_null`: `is_null` of a column without nulls makes polars zero its 8 MB
        // buffer of zeros, as above.
        match (none(DB_MS) || !shared, flagged) {
            (true, _) => lit(0.0),
            (false, false) => t.clone().filter(col(DB_MS).is_not_null()).sum(),
            (false, true) => t
                .clone()
                .filter(col(DB_MS).is_not_null().and(split_fits()))
                .sum(),
        }
        .alias("total_with_db"),
        t.clone().mean().alias("mean"),
        t.max().alias("max"),
    ];
    // The share's DB time where it is not `db_sum`.
    if flagged && shared {
        sums.push(col(DB_MS).filter(split_fits()).sum().alias("db_in_share"));
    }
    sums
}

pub fn summary(pf: &PerfFrame, o: &PerfOptions) -> PolarsResult<PerfSummary> {
    let lf = selected(&pf.df, o).cache();
    let t = col(TOTAL_MS);
    let mut aggs = vec![
        // Booleans are summed as they are: casting first would copy a column per figure.
        len().alias("requests"),
        col(OK).not().sum().alias("errors"),
        col(INCONSISTENT).sum().alias("inconsistent"),
    ];
    // A flagged log's DB share is the operations' pass's (`Whole`): as two filters in
    // this query, it copied the columns on one core (perf-2m's two-core summary +9 %).
    aggs.extend(time_sums(&pf.df, false));
    for (i, &ms) in o.over.iter().enumerate() {
        aggs.push(t.clone().gt(lit(ms)).sum().alias(format!("over{i}")));
    }
    // Latency bands from cumulative counts (t ≤ edge) in the same pass: a band is the
    // difference of two neighbours, and no per-row band column is built.
    for (i, &e) in o.bands.iter().enumerate() {
        aggs.push(t.clone().lt_eq(lit(e)).sum().alias(format!("le{i}")));
    }
    // The percentiles read the selected times in place, all four in one set of passes: as
    // four polars quantiles, each copied the column and selected in it on one core (0.10 s
    // of a 2 M-request log's 0.5 s, the other core idle). The operations' passes read the
    // other columns here (selected, they are the frame's own, not copies).
    let sel = lf
        .clone()
        .select(
            [
                END_MS,
                TOTAL_MS,
                OPERATION_ID,
                OK,
                JAVA_MS,
                DB_MS,
                DB_CALLS,
                ERROR_ID,
                INCONSISTENT,
            ]
            .map(col),
        )
        .collect()?;
    let ends = sel.column(END_MS)?.i64()?;
    let times = sel.column(TOTAL_MS)?.f64()?;
    // The span is JMeter's dashboard's: the first request's start (its end less its time) to
    // the last one's end; over the ends alone, a 7 s test's 6 s gave 104.6 requests/s where
    // the dashboard says 83.1. Read in place: as a query, the starts were a column of their
    // own (32 MB more at a 2 M-request log's peak).
    let first_last = || {
        let first = match (ends.cont_slice(), times.cont_slice()) {
            // Most logs: one chunk each, no nulls, read as slices (an iterator of options was
            // 15 ms of a 2 M-request log).
            (Ok(e), Ok(t)) => e
                .iter()
                .zip(t)
                .map(|(&e, &t)| e as f64 - t)
                .reduce(f64::min),
            _ => ends
                .iter()
                .zip(times.iter())
                .filter_map(|(e, t)| Some(e? as f64 - t?))
                .reduce(f64::min),
        };
        (first, ends.max().map(|v| v as f64))
    };
    // The operations' passes, the longest part, from the start on one core; the figures'
    // query, the span, the percentiles' passes and the sketch on the other, one after
    // another as cores come free (the operations' passes started last, a 2 M-request log's
    // summary ended with them alone on one core for 40 ms).
    let (operations, (out, ((first, last), (pct, sketch)))) = rayon::join(
        || operations(&sel, pf, share_flagged(&pf.df)),
        || {
            rayon::join(
                || lf.clone().select(aggs).collect(),
                || {
                    rayon::join(first_last, || {
                        rayon::join(
                            || super::gc::quantiles_of(times, &[0.50, 0.90, 0.95, 0.99]),
                            || match times.cont_slice() {
                                Ok(v) => super::sketch::Sketch::of_slice(v),
                                Err(_) => super::sketch::Sketch::of(times.iter().flatten()),
                            },
                        )
                    })
                },
            )
        },
    );
    let span_s = match (first, last) {
        (Some(a), Some(b)) if b > a => Some((b - a) / 1000.0),
        _ => None,
    };
    let (out, (mut operations, failed, whole)) = (out?, operations?);
    for op in &mut operations {
        op.throughput_per_s = span_s.filter(|s| *s > 0.0).map(|s| op.count as f64 / s);
    }
    let n = |name: &str| get_f64(&out, name).unwrap_or(0.0) as u64;
    let (errors, requests) = (n("errors"), n("requests"));
    let error_messages = error_messages(failed, pf, errors, requests);
    let (first, last) = (first.map(|v| v.floor() as i64), last.map(|v| v as i64));
    let opt_sum = |v: &str, count: &str| (n(count) > 0).then(|| get_f64(&out, v).unwrap_or(0.0));
    let db_sum = opt_sum("db_sum", "db_n");
    let (db_in_share, total_with_db) = match whole.flagged {
        true => (db_sum.map(|_| whole.db_in_share.sum), whole.with_db.sum),
        false => (db_sum, get_f64(&out, "total_with_db").unwrap_or(0.0)),
    };
    let over = o
        .over
        .iter()
        .enumerate()
        .map(|(i, &ms)| {
            let c = n(&format!("over{i}"));
            Over {
                ms,
                count: c,
                share_pct: share_pct(c, requests),
            }
        })
        .collect();
    let mut below = 0;
    let mut counts: Vec<u64> = (0..o.bands.len())
        .map(|i| {
            let le = n(&format!("le{i}"));
            let c = le.saturating_sub(below);
            below = le;
            c
        })
        .collect();
    counts.push(requests.saturating_sub(below));
    let bands = super::bands_of(&o.bands, counts);
    Ok(PerfSummary {
        requests,
        errors,
        error_pct: share_pct(errors, requests),
        inconsistent: n("inconsistent"),
        first: first.map(format_wall_ms),
        last: last.map(format_wall_ms),
        span_s,
        throughput_per_s: span_s.map(|s| requests as f64 / s),
        total_ms_sum: get_f64(&out, "total_sum").unwrap_or(0.0),
        java_ms_sum: opt_sum("java_sum", "java_n"),
        db_ms_sum: db_sum,
        db_share_pct: db_in_share
            .and_then(|d| (total_with_db > 0.0).then(|| d * 100.0 / total_with_db)),
        db_calls_sum: (n("calls_n") > 0).then(|| n("calls_sum")),
        total_ms_mean: get_f64(&out, "mean"),
        total_ms_p50: pct[0],
        total_ms_p90: pct[1],
        total_ms_p95: pct[2],
        total_ms_p99: pct[3],
        total_ms_max: get_f64(&out, "max"),
        over,
        bands,
        operations,
        error_messages,
        intervals: o.interval_ms.map(|ms| intervals(pf, o, ms)).transpose()?,
        total_ms_sketch: sketch,
    })
}

/// Per operation: counts, sums, extremes and percentiles of the selected records, and the
/// failed ones counted by message and operation, in two passes over the columns as they are.
/// polars' group-by (hash groups, then a gather per aggregate; its threads split by group, so
/// the busiest operation's was one thread's) took 110 ms of a 2 M-request log's `summary` on
/// one core and on two, a quarter of the two-core run; these passes take ~55 ms. The sums are
/// polars' group sums (Kahan's, in row order), so the doubles are the same.
/// `whole`: also the whole log's DB share sums (`Whole`).
fn operations(
    df: &DataFrame,
    pf: &PerfFrame,
    whole: bool,
) -> PolarsResult<(Vec<Operation>, Failures, Whole)> {
    use crate::frame::{Flag, Num};
    let id = Num::<UInt32Type>::col(df, OPERATION_ID)?;
    let ok = Flag::of(df.column(OK)?)?;
    let total = Num::<Float64Type>::col(df, TOTAL_MS)?;
    let java = Num::<Float64Type>::col(df, JAVA_MS)?;
    let db = Num::<Float64Type>::col(df, DB_MS)?;
    let calls = Num::<UInt64Type>::col(df, DB_CALLS)?;
    let message = Num::<UInt32Type>::col(df, ERROR_ID)?;
    // Read where a record is flagged (`split_fits`).
    let flagged = match any_flagged(df) {
        true => Some(Flag::of(df.column(INCONSISTENT)?)?),
        false => None,
    };
    let mut failed = Failures::new();
    let (whole_asked, mut whole) = (whole, Whole::default());
    // Each operation's group, numbered as first met.
    let mut group_of: Vec<usize> = vec![usize::MAX; pf.operations.len()];
    let mut groups: Vec<(u32, OpSums)> = Vec::new();
    for i in 0..df.height() {
        let op = id.get(i).unwrap_or(0);
        let k = op as usize;
        if k >= group_of.len() {
            group_of.resize(k + 1, usize::MAX);
        }
        if group_of[k] == usize::MAX {
            group_of[k] = groups.len();
            groups.push((op, OpSums::default()));
        }
        let s = &mut groups[group_of[k]].1;
        s.count += 1;
        if ok.get(i) == Some(false) {
            s.errors += 1;
            *failed.entry((message.get(i), op)).or_default() += 1;
        }
        let (d, j) = (db.get(i), java.get(i));
        // `split_fits`, as the summary reads it.
        let fits = |t: f64| {
            flagged.as_ref().and_then(|f| f.get(i)) != Some(true)
                || j.unwrap_or(0.0) + d.unwrap_or(0.0) <= t
        };
        if let Some(t) = total.get(i) {
            s.total.add(t);
            s.times += 1;
            s.min = Some(s.min.map_or(t, |m| m.min(t)));
            s.max = Some(s.max.map_or(t, |m| m.max(t)));
            if let Some(v) = d.filter(|_| fits(t)) {
                s.with_db.add(t);
                s.db_in_share.add(v);
                if whole_asked {
                    whole.with_db.add(t);
                    whole.db_in_share.add(v);
                }
            }
        }
        if let Some(v) = j {
            s.java.add(v);
            s.java_n += 1;
        }
        if let Some(v) = d {
            s.db.add(v);
            s.db_n += 1;
        }
        if let Some(v) = calls.get(i) {
            s.calls += v;
            s.calls_n += 1;
        }
    }
    // The times laid out group after group, each group's percentiles selected in its part.
    let mut at: Vec<usize> = groups
        .iter()
        .scan(0, |a, (_, s)| {
            *a += s.times;
            Some(*a - s.times)
        })
        .collect();
    let mut times = vec![0.0; groups.iter().map(|(_, s)| s.times).sum()];
    for i in 0..df.height() {
        let g = group_of[id.get(i).unwrap_or(0) as usize];
        if let Some(t) = total.get(i) {
            times[at[g]] = t;
            at[g] += 1;
        }
    }
    let mut parts = Vec::with_capacity(groups.len());
    let mut rest = times.as_mut_slice();
    for (_, s) in &groups {
        let (part, r) = rest.split_at_mut(s.times);
        parts.push(part);
        rest = r;
    }
    let pct: Vec<Vec<Option<f64>>> = parts
        .into_par_iter()
        .map(|v| super::gc::linear_quantiles(v, &[0.50, 0.90, 0.95, 0.99]))
        .collect();
    let mut ops: Vec<Operation> = groups
        .into_iter()
        .zip(pct)
        .map(|((op, s), p)| {
            let n = s.count as f64;
            let mean_of = |sum: f64, present: u64| (present > 0 && n > 0.0).then(|| sum / n);
            let at = |i: usize| p.get(i).copied().flatten().unwrap_or(0.0);
            let with_db = s.with_db.sum;
            Operation {
                name: pf.operation(op).to_string(),
                count: s.count,
                errors: s.errors,
                total_ms_sum: s.total.sum,
                java_ms_sum: (s.java_n > 0).then_some(s.java.sum),
                db_ms_sum: (s.db_n > 0).then_some(s.db.sum),
                db_calls_sum: (s.calls_n > 0).then_some(s.calls),
                // 0 where no record has a time (the sum is then 0).
                total_ms_mean: s.total.sum / s.times.max(1) as f64,
                total_ms_p95: at(2),
                total_ms_max: s.max.unwrap_or(0.0),
                db_share_pct: (s.db_n > 0 && with_db > 0.0)
                    .then(|| s.db_in_share.sum * 100.0 / with_db),
                // A group holds a record (count ≥ 1): its share is always known.
                error_pct: s.errors as f64 * 100.0 / s.count as f64,
                // `summary`'s, once the span is known.
                throughput_per_s: None,
                total_ms_min: s.min.unwrap_or(0.0),
                total_ms_p50: at(0),
                total_ms_p90: at(1),
                total_ms_p99: at(3),
                java_ms_mean: mean_of(s.java.sum, s.java_n),
                db_ms_mean: mean_of(s.db.sum, s.db_n),
            }
        })
        .collect();
    // Busiest first (by time spent), then by name: a stable order for tables and charts.
    ops.sort_by(|a, b| {
        b.total_ms_sum
            .total_cmp(&a.total_ms_sum)
            .then_with(|| a.name.cmp(&b.name))
    });
    whole.flagged = whole_asked;
    Ok((ops, failed, whole))
}

/// The whole log's DB share sums (`OpSums::with_db`, `db_in_share`), kept where the log's
/// share leaves a record out (`share_flagged`; else the summary's query reads it unfiltered).
#[derive(Default)]
struct Whole {
    flagged: bool,
    with_db: Kahan,
    db_in_share: Kahan,
}

/// Failed records by (message, operation): a message's id (none where the record gave none)
/// and the operation's.
type Failures = std::collections::HashMap<(Option<u32>, u32), u64>;

/// One operation's figures as `operations` reads them.
#[derive(Default)]
struct OpSums {
    count: u64,
    errors: u64,
    /// Records with a time (all, the column having no nulls).
    times: usize,
    total: Kahan,
    min: Option<f64>,
    max: Option<f64>,
    /// The times and DB times of the records with a DB time that fits in their time
    /// (`split_fits`): the DB share's denominator and numerator.
    with_db: Kahan,
    db_in_share: Kahan,
    java: Kahan,
    java_n: u64,
    db: Kahan,
    db_n: u64,
    calls: u64,
    calls_n: u64,
}

/// A running sum as polars' group sums add floats (Kahan's compensation; the error kept only
/// while finite).
#[derive(Default, Clone, Copy)]
struct Kahan {
    sum: f64,
    err: f64,
}

impl Kahan {
    fn add(&mut self, x: f64) {
        let y = x - self.err;
        let sum = self.sum + y;
        let err = (sum - self.sum) - y;
        self.sum = sum;
        if err.is_finite() {
            self.err = err;
        }
    }
}

/// The failed requests grouped by message and operation (`operations`' count), folded into
/// one row per message.
fn error_messages(
    failed: Failures,
    pf: &PerfFrame,
    errors: u64,
    requests: u64,
) -> Vec<ErrorMessage> {
    let mut by: std::collections::BTreeMap<String, Vec<ErrorIn>> = Default::default();
    for ((message, op), count) in failed {
        // A failed request without a message (a format or a row without one): empty text.
        let message = message.map(|e| pf.operation(e)).unwrap_or("").to_string();
        by.entry(message).or_default().push(ErrorIn {
            operation: pf.operation(op).to_string(),
            count,
        });
    }
    let mut rows: Vec<ErrorMessage> = by
        .into_iter()
        .map(|(message, mut operations)| {
            operations.sort_by(|a, b| (b.count, &a.operation).cmp(&(a.count, &b.operation)));
            let count = operations.iter().map(|o| o.count).sum();
            ErrorMessage {
                message,
                count,
                // A message's row holds a failed request (requests ≥ errors ≥ count ≥ 1):
                // its shares are always known.
                errors_pct: count as f64 * 100.0 / errors as f64,
                requests_pct: count as f64 * 100.0 / requests as f64,
                operations,
            }
        })
        .collect();
    rows.sort_by(|a, b| (b.count, &a.message).cmp(&(a.count, &b.message)));
    rows
}

/// One interval of the per-interval series (`--interval`): the two-hour chart's points.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Interval {
    /// Interval start, epoch ms (log time), a multiple of the interval length: 1-minute
    /// intervals start on the minute, as a reader of the log's clock expects.
    pub start_ms: i64,
    /// `start_ms` as ISO 8601 local time, as `first`/`last` are written.
    pub start: String,
    pub requests: u64,
    pub errors: u64,
    /// Seconds of the interval inside the log's span (first to last record): the first and
    /// last intervals are partly empty, and dividing by the whole interval would show a dip
    /// in throughput that the application never had.
    pub covered_s: f64,
    /// requests / covered_s; None where less than a quarter of the interval is covered (a
    /// record or two in the first millisecond of an interval are not a rate).
    pub throughput_per_s: Option<f64>,
    /// None for intervals without requests (a gap in the chart, not a zero).
    pub total_ms_mean: Option<f64>,
    pub total_ms_p99: Option<f64>,
    pub total_ms_max: Option<f64>,
}

/// Most rows `intervals` makes (about 150 MB of them).
pub const MAX_INTERVALS: i64 = 1_000_000;

/// What the error for an interval too short for the log's span ends with: the commands tell
/// it by this (`too_many_intervals`) from an analysis that failed, as the user's to change.
pub const TOO_MANY_INTERVALS: &str = "choose a longer interval";

/// Whether an analysis's error `message` is the one for an interval too short for the log's
/// span.
pub fn too_many_intervals(message: &str) -> bool {
    message.contains(TOO_MANY_INTERVALS)
}

/// The per-interval series: every interval from the first record's to the last record's,
/// empty ones included (requests 0), so that a stall shows as a gap. More than
/// `MAX_INTERVALS` is an error asking for a longer interval.
pub fn intervals(pf: &PerfFrame, o: &PerfOptions, interval_ms: i64) -> PolarsResult<Vec<Interval>> {
    Ok(intervals_with(pf, o, interval_ms, &[])?.0)
}

/// `intervals`, and in the same query each interval's percentiles `pcts` (0-100) of the
/// total times (None for an interval without requests), one vector per interval.
#[allow(clippy::type_complexity)]
fn intervals_with(
    pf: &PerfFrame,
    o: &PerfOptions,
    interval_ms: i64,
    pcts: &[f64],
) -> PolarsResult<(Vec<Interval>, Vec<Vec<Option<f64>>>)> {
    if interval_ms <= 0 {
        polars_bail!(ComputeError: "interval must be positive");
    }
    let t = col(TOTAL_MS);
    let mut aggs = vec![
        len().alias("requests"),
        col(OK).not().sum().alias("errors"),
        t.clone().mean().alias("mean"),
        q(t.clone(), 0.99).alias("p99"),
        t.clone().max().alias("max"),
        col(END_MS).min().alias("first"),
        col(END_MS).max().alias("last"),
    ];
    aggs.extend(
        pcts.iter()
            .enumerate()
            .map(|(i, &p)| q(t.clone(), p / 100.0).alias(format!("q{i}"))),
    );
    let out = on_clock(&pf.df, selected(&pf.df, o))?
        .group_by([col(END_MS).floor_div(lit(interval_ms)).alias("slot")])
        .agg(aggs)
        .sort(["slot"], SortMultipleOptions::default())
        .collect()?;
    if out.height() == 0 {
        return Ok((Vec::new(), Vec::new()));
    }
    let f = |n: &str| -> PolarsResult<Float64Chunked> {
        Ok(out.column(n)?.cast(&DataType::Float64)?.f64()?.clone())
    };
    let i64col = |n: &str| -> PolarsResult<Int64Chunked> {
        Ok(out.column(n)?.cast(&DataType::Int64)?.i64()?.clone())
    };
    let (slot, first, last) = (i64col("slot")?, i64col("first")?, i64col("last")?);
    let [requests, errors, mean, p99, max] = ["requests", "errors", "mean", "p99", "max"].map(f);
    let (requests, errors, mean, p99, max) = (requests?, errors?, mean?, p99?, max?);
    let n = out.height();
    let (Some(s0), Some(s1), Some(first_ms), Some(last_ms)) =
        (slot.get(0), slot.get(n - 1), first.get(0), last.get(n - 1))
    else {
        return Ok((Vec::new(), Vec::new()));
    };
    // Every interval from the first to the last is a row: a log whose dates span centuries
    // (damage, or a clock reset) would ask for billions of them.
    let count = s1.saturating_sub(s0).saturating_add(1);
    if count > MAX_INTERVALS {
        polars_bail!(
            ComputeError: "the log spans {count} intervals of {interval_ms} ms (from {} to {}), \
                           more than {MAX_INTERVALS}: {TOO_MANY_INTERVALS}",
            format_wall_ms(first_ms),
            format_wall_ms(last_ms)
        );
    }
    let rated = |covered_s: f64| covered_s > 0.0 && covered_s * 4000.0 >= interval_ms as f64;
    let mut rows: Vec<Interval> = (s0..=s1)
        .map(|s| {
            let start_ms = s * interval_ms;
            let lo = start_ms.max(first_ms);
            let hi = (start_ms + interval_ms).min(last_ms);
            let covered_s = (hi - lo).max(0) as f64 / 1000.0;
            Interval {
                start_ms,
                start: format_wall_ms(start_ms),
                covered_s,
                throughput_per_s: rated(covered_s).then_some(0.0),
                ..Interval::default()
            }
        })
        .collect();
    let qs = (0..pcts.len())
        .map(|k| f(&format!("q{k}")))
        .collect::<PolarsResult<Vec<Float64Chunked>>>()?;
    let mut quantiles = vec![vec![None; pcts.len()]; rows.len()];
    for i in 0..n {
        let Some(s) = slot.get(i) else { continue };
        let k = (s - s0) as usize;
        let Some(row) = rows.get_mut(k) else { continue };
        let r = requests.get(i).unwrap_or(0.0) as u64;
        row.requests = r;
        row.errors = errors.get(i).unwrap_or(0.0) as u64;
        row.throughput_per_s = rated(row.covered_s).then(|| r as f64 / row.covered_s);
        row.total_ms_mean = mean.get(i);
        row.total_ms_p99 = p99.get(i);
        row.total_ms_max = max.get(i);
        if let Some(qk) = quantiles.get_mut(k) {
            for (v, c) in qk.iter_mut().zip(&qs) {
                *v = c.get(i);
            }
        }
    }
    Ok((rows, quantiles))
}

/// One interval as a point of a run's load curve: its throughput and the response-time
/// percentiles asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadInterval {
    pub start_ms: i64,
    pub requests: u64,
    /// As `Interval::throughput_per_s`: None for an interval too little covered to be a rate.
    pub throughput_per_s: Option<f64>,
    /// The percentiles (`pcts`, each 0-100) of the interval's total times; None when it has
    /// no requests.
    pub percentiles: Vec<Option<f64>>,
}

/// The per-interval series with percentiles of each interval's response times: the load
/// curve of a single run, one point per interval (`chart --kind load-curve`). Percentiles are
/// polars' linear ones, as the summary's.
pub fn load_intervals(
    pf: &PerfFrame,
    o: &PerfOptions,
    interval_ms: i64,
    pcts: &[f64],
) -> PolarsResult<Vec<LoadInterval>> {
    let (rows, quantiles) = intervals_with(pf, o, interval_ms, pcts)?;
    Ok(rows
        .into_iter()
        .zip(quantiles)
        .map(|(r, percentiles)| LoadInterval {
            start_ms: r.start_ms,
            requests: r.requests,
            throughput_per_s: r.throughput_per_s,
            percentiles,
        })
        .collect())
}

/// Interval lengths the two-hour chart picks from when none is given: round clock units.
pub const AUTO_INTERVALS_MS: [i64; 9] = [
    1_000, 5_000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000,
];

/// The interval of the two-hour chart when none is asked for, from the span (first to last
/// record, ms) and the number of requests:
///
/// 1. of `AUTO_INTERVALS_MS`, the one giving between 60 and 300 points (`ceil(span /
///    interval)`, at least 1) nearest to 120 points on a log scale; a span too short for 60
///    one-second points gets 1 s, one too long for 300 hourly points gets 1 h;
/// 2. then the next longer one, as long as the points would average fewer than 10 requests
///    and the longer interval still gives 20 points or more: a mean and a p99 of three
///    requests are noise, and a sparse log reads better with fewer, fuller points.
pub fn auto_interval_ms(span_ms: i64, requests: u64) -> i64 {
    let c = &AUTO_INTERVALS_MS;
    let points = |iv: i64| ((span_ms.max(0) + iv - 1) / iv).max(1) as u64;
    let off_120 = |iv: i64| (points(iv) as f64 / 120.0).ln().abs();
    let mut i = (0..c.len())
        .filter(|&i| (60..=300).contains(&points(c[i])))
        .min_by(|&a, &b| off_120(c[a]).total_cmp(&off_120(c[b])))
        .unwrap_or(if points(c[0]) < 60 { 0 } else { c.len() - 1 });
    while i + 1 < c.len() && requests < 10 * points(c[i]) && points(c[i + 1]) >= 20 {
        i += 1;
    }
    c[i]
}

/// One bar of the Java/DB split chart: an operation's mean time per request, split into its
/// Java and database parts where the log has them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OperationSplit {
    pub name: String,
    pub count: u64,
    pub total_ms_mean: f64,
    /// None where the log has no Java/DB split (JMeter, The Grinder).
    pub java_ms_mean: Option<f64>,
    pub db_ms_mean: Option<f64>,
    pub db_share_pct: Option<f64>,
}

/// Mean Java and database time per request of each operation, longest mean total first (then
/// by name). A log has the split on every record or on none (it is per format), so the sums
/// divided by the request count are the means.
pub fn split(ops: &[Operation]) -> Vec<OperationSplit> {
    let mut out: Vec<OperationSplit> = ops
        .iter()
        .filter(|o| o.count > 0)
        .map(|o| {
            let mean = |s: Option<f64>| s.map(|v| v / o.count as f64);
            OperationSplit {
                name: o.name.clone(),
                count: o.count,
                total_ms_mean: o.total_ms_mean,
                java_ms_mean: mean(o.java_ms_sum),
                db_ms_mean: mean(o.db_ms_sum),
                db_share_pct: o.db_share_pct,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.total_ms_mean
            .total_cmp(&a.total_ms_mean)
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_seed() {
        assert_eq!(
            crate::analyze::band_labels(&DEFAULT_BANDS),
            vec![
                "0",
                "0-50",
                "50-200",
                "200-1000",
                "1000-3000",
                "3000-10000",
                ">10000"
            ]
        );
        assert_eq!(
            crate::analyze::band_labels(&[50.0, 200.0]),
            vec!["0-50", "50-200", ">200"]
        );
    }

    fn frame(text: &str) -> PerfFrame {
        let log = crate::parse::perf::parse(crate::parse::perf::SEMICOLON, text.as_bytes());
        crate::columns::perf_frame(&log).unwrap()
    }

    #[test]
    fn intervals_over_a_century_are_an_error_not_millions_of_rows() {
        // 1995 to 2095 in minutes: 52.6 million intervals.
        let pf = frame(
            "[a];1995-09-21 12:00:30.000;100;40;60;1;op;\n\
             [b];2095-09-21 12:00:45.000;300;100;200;2;op;\n",
        );
        let e = intervals(&pf, &PerfOptions::default(), 60_000).unwrap_err();
        assert!(e.to_string().contains("choose a longer interval"), "{e}");
        // By the year it is 101 rows.
        let rows = intervals(&pf, &PerfOptions::default(), 365 * 86_400_000).unwrap();
        assert_eq!(rows.len(), 101);
        assert_eq!(rows.iter().map(|r| r.requests).sum::<u64>(), 2);
    }

    #[test]
    fn a_request_stamped_before_1990_or_after_2099_has_no_time_but_counts() {
        // [b] at 1970-01-01 00:00:00.031 (JMeter's stamp of a sample that failed with an
        // exception) and [d] in 2100: no time; [a] and [c] a minute apart give the span,
        // 61.5 s from [a]'s start (12:00:30.000 - 100 ms) to [c]'s end.
        let pf = frame(
            "[a];2012-09-21 12:00:30.000;100;40;60;1;op;\n\
             [b];1970-01-01 00:00:00.031;31;10;21;1;op;e-\n\
             [c];2012-09-21 12:01:31.400;50;20;30;1;op;\n\
             [d];2100-01-01 00:00:00.000;20;10;10;1;op;\n",
        );
        let end = pf.df.column(END_MS).unwrap();
        assert_eq!(end.null_count(), 2);
        let ends: Vec<Option<i64>> = end.i64().unwrap().iter().collect();
        assert_eq!(
            ends,
            vec![Some(1_348_228_830_000), None, Some(1_348_228_891_400), None]
        );
        let o = PerfOptions::default();
        let s = summary(&pf, &o).unwrap();
        assert_eq!((s.requests, s.errors), (4, 1));
        assert_eq!(s.span_s, Some(61.5));
        assert_eq!(s.throughput_per_s, Some(4.0 / 61.5));
        assert_eq!(s.total_ms_max, Some(100.0));
        // The minute series: [a] in 12:00, [c] in 12:01; [b] in none.
        let rows = intervals(&pf, &o, 60_000).unwrap();
        let n: Vec<u64> = rows.iter().map(|r| r.requests).collect();
        assert_eq!(n, vec![1, 1]);
        // A window leaves it out: from 12:00 on, two requests.
        let from = PerfOptions {
            from_ms: Some(1_348_228_800_000),
            ..PerfOptions::default()
        };
        assert_eq!(summary(&pf, &from).unwrap().requests, 2);
    }

    #[test]
    fn interval_series_by_hand() {
        // Minute 12:00: records at :30.000 (100 ms), :45.000 (300 ms, failed);
        // minute 12:01: nothing; minute 12:02: :00.000 (50 ms), :30.000 (70 ms).
        let pf = frame(
            "[a];2012-09-21 12:00:30.000;100;40;60;1;op;\n\
             [b];2012-09-21 12:00:45.000;300;100;200;2;op;e-\n\
             [c];2012-09-21 12:02:00.000;50;20;30;1;op;\n\
             [d];2012-09-21 12:02:30.000;70;30;40;1;op;\n",
        );
        let o = PerfOptions::default();
        let rows = intervals(&pf, &o, 60_000).unwrap();
        let starts: Vec<&str> = rows.iter().map(|r| r.start.as_str()).collect();
        assert_eq!(
            starts,
            [
                "2012-09-21T12:00:00.000",
                "2012-09-21T12:01:00.000",
                "2012-09-21T12:02:00.000"
            ]
        );
        let r = &rows[0];
        // Covered: from the first record (:30) to the minute's end = 30 s; 2 requests.
        assert_eq!((r.requests, r.errors, r.covered_s), (2, 1, 30.0));
        assert_eq!(r.throughput_per_s, Some(2.0 / 30.0));
        assert_eq!(r.total_ms_mean, Some(200.0));
        // p99 of {100, 300}, linear: 100 + 0.99 * 200 = 298.
        assert!((r.total_ms_p99.unwrap() - 298.0).abs() < 1e-9);
        assert_eq!(r.total_ms_max, Some(300.0));
        // The empty minute is a row with 0 requests, throughput 0, no latency.
        let r = &rows[1];
        assert_eq!(
            (r.requests, r.covered_s, r.throughput_per_s),
            (0, 60.0, Some(0.0))
        );
        assert_eq!((r.total_ms_mean, r.total_ms_max), (None, None));
        // Last minute: covered from 12:02:00 to the last record at :30 = 30 s.
        let r = &rows[2];
        assert_eq!((r.requests, r.covered_s), (2, 30.0));
        assert_eq!(r.throughput_per_s, Some(2.0 / 30.0));
        assert_eq!((r.total_ms_mean, r.total_ms_max), (Some(60.0), Some(70.0)));

        // Warm-up left out (skip 10 s, up to :40): the series starts with the record at :45.
        let skip = PerfOptions {
            skip_s: 10.0,
            ..PerfOptions::default()
        };
        let rows = intervals(&pf, &skip, 60_000).unwrap();
        assert_eq!((rows[0].requests, rows[0].covered_s), (1, 15.0));
        // 15 s of a 60 s interval is a quarter: still rated.
        assert_eq!(rows[0].throughput_per_s, Some(1.0 / 15.0));
        // Less than a quarter covered: no rate (one record in a 1 ms sliver is not 1000/s).
        let sliver = frame(
            "[a];2012-09-21 12:00:00.000;10;5;5;1;op;\n\
             [b];2012-09-21 12:00:59.000;10;5;5;1;op;\n\
             [c];2012-09-21 12:01:00.010;10;5;5;1;op;\n",
        );
        let rows = intervals(&sliver, &o, 60_000).unwrap();
        assert_eq!(
            (rows[0].covered_s, rows[0].throughput_per_s),
            (60.0, Some(2.0 / 60.0))
        );
        assert_eq!((rows[1].requests, rows[1].covered_s), (1, 0.01));
        assert_eq!(rows[1].throughput_per_s, None);
        assert!(intervals(&pf, &o, 0).is_err());
    }

    #[test]
    fn load_intervals_by_hand() {
        // Minute 12:00: 4 requests of 10, 20, 30, 40 ms from :00 to :45; minute 12:01: none;
        // minute 12:02: 1 request of 500 ms at :00 (covered 0 s: no rate).
        let pf = frame(
            "[a];2012-09-21 12:00:00.000;10;5;5;1;op;\n\
             [b];2012-09-21 12:00:15.000;20;5;5;1;op;\n\
             [c];2012-09-21 12:00:30.000;30;5;5;1;op;\n\
             [d];2012-09-21 12:00:45.000;40;5;5;1;op;\n\
             [e];2012-09-21 12:02:00.000;500;5;5;1;op;\n",
        );
        let rows = load_intervals(&pf, &PerfOptions::default(), 60_000, &[50.0, 95.0]).unwrap();
        assert_eq!(rows.len(), 3);
        let r = &rows[0];
        // Covered from :00 to the minute's end, 60 s: 4 / 60 a second.
        assert_eq!((r.requests, r.throughput_per_s), (4, Some(4.0 / 60.0)));
        // Linear p50 of 10..40: rank 1.5 → 25; p95: rank 2.85 → 30 + 0.85 × 10 = 38.5.
        assert_eq!(r.percentiles[0], Some(25.0));
        assert!((r.percentiles[1].unwrap() - 38.5).abs() < 1e-9);
        assert_eq!((rows[1].requests, rows[1].percentiles[0]), (0, None));
        assert_eq!(rows[2].percentiles, vec![Some(500.0), Some(500.0)]);
        assert_eq!(rows[2].throughput_per_s, None);
        // The warm-up left out (first 20 s): the minute keeps 30 and 40 ms, p50 35.
        let skip = PerfOptions {
            skip_s: 20.0,
            ..PerfOptions::default()
        };
        let rows = load_intervals(&pf, &skip, 60_000, &[50.0]).unwrap();
        assert_eq!((rows[0].requests, rows[0].percentiles[0]), (2, Some(35.0)));
    }

    #[test]
    fn summary_carries_the_series_only_when_asked() {
        let pf = frame("[a];2012-09-21 12:00:30.000;100;40;60;1;op;\n");
        assert!(summary(&pf, &PerfOptions::default())
            .unwrap()
            .intervals
            .is_none());
        let o = PerfOptions {
            interval_ms: Some(60_000),
            ..PerfOptions::default()
        };
        let rows = summary(&pf, &o).unwrap().intervals.unwrap();
        // One record: nothing of the interval is covered, so no rate.
        assert_eq!(
            (rows.len(), rows[0].requests, rows[0].throughput_per_s),
            (1, 1, None)
        );
    }

    #[test]
    fn auto_interval_by_hand() {
        const S: i64 = 1000;
        // Two hours, a million requests: 30 s gives 240 points, 1 m 120, 5 m 24; of the two
        // in 60..=300, 120 points is the nearest to 120.
        assert_eq!(auto_interval_ms(7200 * S, 1_000_000), 60 * S);
        // Twenty minutes, 100 000 requests: 5 s → 240, 10 s → 120 (nearest), 30 s → 40.
        assert_eq!(auto_interval_ms(1200 * S, 100_000), 10 * S);
        // The same span with 480 requests: 10 s points would hold 4 requests each (< 10) and
        // 30 s still gives 40 points (≥ 20), so 30 s; its points hold 12 requests (≥ 10), so
        // it stops there.
        assert_eq!(auto_interval_ms(1200 * S, 480), 30 * S);
        // Points are counted rounding up: 20 min + 1 ms at 10 s is 121 points, 400 requests
        // at 30 s are 41 points of 9.8 (< 10) and 1 m gives 21 (≥ 20): 1 m.
        assert_eq!(auto_interval_ms(1200 * S + 1, 400), 60 * S);
        assert_eq!(auto_interval_ms(1200 * S, 400), 30 * S);
        // 300 s: 1 s → 300 points and 5 s → 60, both in range; ln(300/120) = 0.92,
        // ln(120/60) = 0.69, so 5 s.
        assert_eq!(auto_interval_ms(300 * S, 1_000_000), 5 * S);
        // 43 s (the JMeter fixture), 200 requests: 1 s gives 43 points, under 60: 1 s; 4.7
        // requests a point is sparse, but 5 s would give 9 points (< 20), so 1 s stays.
        assert_eq!(auto_interval_ms(43 * S, 200), S);
        // One request, no span: 1 s.
        assert_eq!(auto_interval_ms(0, 1), S);
        assert_eq!(auto_interval_ms(-5, 0), S);
        // Thirty days: 720 hourly points, more than 300: 1 h is the longest there is.
        assert_eq!(auto_interval_ms(30 * 24 * 3600 * S, 10_000_000), 3600 * S);
        // Sparse and long: 2 h with 500 requests: 1 m → 120 points of 4; 5 m → 24 points
        // (≥ 20) of 21 requests: 5 m.
        assert_eq!(auto_interval_ms(7200 * S, 500), 300 * S);
    }

    #[test]
    fn operation_figures_and_errors_by_message_by_hand() {
        // slow: 300 (ok), 500 (e-timeout), 100 (e-timeout); fast: 50 (e-), 70 (ok).
        // The log spans the first request's start, 12:00:30.000 − 300 ms = 12:00:29.700, to
        // the last one's end, 12:00:34 = 4.3 s.
        let pf = frame(
            "[a];2012-09-21 12:00:30.000;300;100;200;2;slow;\n\
             [b];2012-09-21 12:00:31.000;500;100;400;2;slow;e-timeout\n\
             [c];2012-09-21 12:00:32.000;100;40;60;1;slow;e-timeout;\n\
             [d];2012-09-21 12:00:33.000;50;20;30;1;fast;e-\n\
             [e];2012-09-21 12:00:34.000;70;30;40;1;fast;\n",
        );
        let s = summary(&pf, &PerfOptions::default()).unwrap();
        let slow = s.operations.iter().find(|o| o.name == "slow").unwrap();
        assert_eq!((slow.count, slow.errors), (3, 2));
        assert!((slow.error_pct - 200.0 / 3.0).abs() < 1e-9);
        assert_eq!(slow.throughput_per_s, Some(3.0 / 4.3));
        // Sorted 100, 300, 500: min 100, p50 300, p90 at rank 1.8 → 300 + 0.8·200 = 460,
        // p99 at 1.98 → 496.
        assert_eq!((slow.total_ms_min, slow.total_ms_p50), (100.0, 300.0));
        assert!((slow.total_ms_p90 - 460.0).abs() < 1e-9);
        assert!((slow.total_ms_p99 - 496.0).abs() < 1e-9);
        // Java (100+100+40)/3 = 80, DB (200+400+60)/3 = 220.
        assert_eq!(
            (slow.java_ms_mean, slow.db_ms_mean),
            (Some(80.0), Some(220.0))
        );
        // Three failures: "timeout" twice (both slow), the bare `e-` once (fast).
        let m: Vec<String> = s
            .error_messages
            .iter()
            .map(|e| {
                let ops: Vec<String> = e
                    .operations
                    .iter()
                    .map(|o| format!("{} {}", o.operation, o.count))
                    .collect();
                format!("{:?} {}: {}", e.message, e.count, ops.join(", "))
            })
            .collect();
        assert_eq!(m, ["\"timeout\" 2: slow 2", "\"\" 1: fast 1"]);
        assert!((s.error_messages[0].errors_pct - 200.0 / 3.0).abs() < 1e-9);
        assert!((s.error_messages[0].requests_pct - 40.0).abs() < 1e-9);
        // Left out by the window, a failure is not counted.
        let later = PerfOptions {
            skip_s: 2.5,
            ..PerfOptions::default()
        };
        let s = summary(&pf, &later).unwrap();
        assert_eq!(s.error_messages.len(), 1);
        assert_eq!(
            (
                s.error_messages[0].message.as_str(),
                s.error_messages[0].count
            ),
            ("", 1)
        );
    }

    fn u32_at(df: &DataFrame, name: &str, i: usize) -> Option<u32> {
        df.column(name).unwrap().u32().unwrap().get(i)
    }

    /// The operations' figures are polars' group-by's, double for double: generated records
    /// with fractional times, records without a Java, DB or calls figure, failures with and
    /// without a message, more operations than a byte numbers, one of them most records, and
    /// records flagged inconsistent whose Java + DB exceeds their time (out of the DB share).
    #[test]
    fn operations_are_the_figures_of_a_polars_group_by() {
        let n = 30_000;
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut total, mut java, mut db, mut calls) = (vec![], vec![], vec![], vec![]);
        let (mut op, mut ok, mut error, mut flagged) = (vec![], vec![], vec![], vec![]);
        for _ in 0..n {
            let r = next();
            op.push(if r % 3 == 0 { 7 } else { (r >> 8) as u32 % 300 });
            // Flagged records short enough that most of their splits exceed them (out of the
            // DB share), some not (in it).
            let short = r % 17 == 0;
            flagged.push(short);
            total.push((r >> 20) as f64 % if short { 4e3 } else { 1e6 } / 7.0);
            java.push((r % 5 != 0).then(|| (r >> 30) as f64 % 1e4 / 3.0));
            db.push((r % 7 != 0).then(|| (r >> 40) as f64 % 1e4 / 9.0));
            calls.push((r % 11 != 0).then_some(r >> 50));
            ok.push(r % 13 != 0);
            error.push((r % 13 == 0 && r % 2 == 0).then_some(300 + (r >> 4) as u32 % 3));
        }
        let df = DataFrame::new(
            n,
            vec![
                Int64Chunked::from_vec(END_MS.into(), (0..n as i64).collect()).into_column(),
                Float64Chunked::from_vec(TOTAL_MS.into(), total).into_column(),
                Float64Chunked::from_iter_options(JAVA_MS.into(), java.into_iter()).into_column(),
                Float64Chunked::from_iter_options(DB_MS.into(), db.into_iter()).into_column(),
                UInt64Chunked::from_iter_options(DB_CALLS.into(), calls.into_iter()).into_column(),
                UInt32Chunked::from_vec(OPERATION_ID.into(), op).into_column(),
                BooleanChunked::from_slice(OK.into(), &ok).into_column(),
                UInt32Chunked::from_iter_options(ERROR_ID.into(), error.into_iter()).into_column(),
                BooleanChunked::from_slice(INCONSISTENT.into(), &flagged).into_column(),
            ],
        )
        .unwrap();
        let pf = PerfFrame {
            df,
            operations: (0..303).map(|i| format!("name{i}")).collect(),
        };
        let (ops, failed, _) = operations(&pf.df, &pf, false).unwrap();
        let t = col(TOTAL_MS);
        let want = pf
            .df
            .clone()
            .lazy()
            .group_by([col(OPERATION_ID)])
            .agg(
                [len().alias("count"), col(OK).not().sum().alias("errors")]
                    .into_iter()
                    .chain(time_sums(&pf.df, true))
                    .chain([t.clone().min().alias("min")])
                    .chain([0.5, 0.9, 0.95, 0.99].map(|p| q(t.clone(), p).alias(format!("p{p}"))))
                    .collect::<Vec<_>>(),
            )
            .collect()
            .unwrap();
        assert_eq!(ops.len(), want.height());
        assert_eq!(ops.len(), 300);
        let f = |name: &str, i: usize| {
            let c = want.column(name).unwrap().cast(&DataType::Float64).unwrap();
            c.f64().unwrap().get(i)
        };
        let mut left_out = 0;
        for i in 0..want.height() {
            let id = u32_at(&want, OPERATION_ID, i).unwrap();
            let o = ops.iter().find(|o| o.name == pf.operation(id)).unwrap();
            let got = [
                Some(o.count as f64),
                Some(o.errors as f64),
                Some(o.total_ms_sum),
                o.java_ms_sum,
                o.db_ms_sum,
                o.db_calls_sum.map(|c| c as f64),
                Some(o.total_ms_mean),
                Some(o.total_ms_min),
                Some(o.total_ms_max),
                Some(o.total_ms_p50),
                Some(o.total_ms_p90),
                Some(o.total_ms_p95),
                Some(o.total_ms_p99),
                o.db_share_pct,
            ];
            left_out += usize::from(f("db_in_share", i) != f("db_sum", i));
            let share = f("db_in_share", i)
                .zip(f("total_with_db", i))
                .map(|(d, w)| d * 100.0 / w);
            let expected = [
                f("count", i),
                f("errors", i),
                f("total_sum", i),
                f("java_sum", i),
                f("db_sum", i),
                f("calls_sum", i),
                f("mean", i),
                f("min", i),
                f("max", i),
                f("p0.5", i),
                f("p0.9", i),
                f("p0.95", i),
                f("p0.99", i),
                share,
            ];
            assert_eq!(got, expected, "operation {id}");
        }
        assert!(left_out > 0, "no operation has a split over its time");
        let by_message = pf
            .df
            .clone()
            .lazy()
            .filter(col(OK).not())
            .group_by([col(ERROR_ID), col(OPERATION_ID)])
            .agg([len().alias("n")])
            .collect()
            .unwrap();
        assert_eq!(failed.len(), by_message.height());
        for i in 0..by_message.height() {
            let e = u32_at(&by_message, ERROR_ID, i);
            let op = u32_at(&by_message, OPERATION_ID, i).unwrap();
            let n = by_message
                .column("n")
                .unwrap()
                .cast(&DataType::UInt64)
                .unwrap();
            assert_eq!(failed.get(&(e, op)).copied(), n.u64().unwrap().get(i));
        }
        assert!(failed.keys().any(|k| k.0.is_none()) && failed.keys().any(|k| k.0.is_some()));
    }

    #[test]
    fn split_means_sorted_by_total() {
        let pf = frame(
            "[a];2012-09-21 12:00:30.000;100;40;60;1;fast;\n\
             [b];2012-09-21 12:00:31.000;300;100;200;2;slow;\n\
             [c];2012-09-21 12:00:32.000;500;100;400;2;slow;\n\
             [d];2012-09-21 12:00:33.000;50;20;30;1;fast;\n",
        );
        let s = summary(&pf, &PerfOptions::default()).unwrap();
        let rows = split(&s.operations);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["slow", "fast"]);
        // slow: Java (100+100)/2 = 100, DB (200+400)/2 = 300, total 400.
        assert_eq!(
            (
                rows[0].java_ms_mean,
                rows[0].db_ms_mean,
                rows[0].total_ms_mean
            ),
            (Some(100.0), Some(300.0), 400.0)
        );
        // fast: Java 30, DB 45, total 75.
        assert_eq!(
            (
                rows[1].java_ms_mean,
                rows[1].db_ms_mean,
                rows[1].total_ms_mean
            ),
            (Some(30.0), Some(45.0), 75.0)
        );
    }
}

/// A run's Application Performance Index, as JMeter's dashboard reckons it: a request is
/// satisfied when it succeeded within `t_ms`, tolerated when it succeeded within `f_ms`,
/// else (slower, or failed) frustrated; the score is (satisfied + tolerated / 2) / requests.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Apdex {
    pub t_ms: f64,
    pub f_ms: f64,
    pub satisfied: u64,
    pub tolerated: u64,
    pub requests: u64,
    /// None for a run without requests.
    pub score: Option<f64>,
}

pub fn apdex(pf: &PerfFrame, o: &PerfOptions, t_ms: f64, f_ms: f64) -> PolarsResult<Apdex> {
    let t = col(TOTAL_MS).cast(DataType::Float64);
    let out = selected(&pf.df, o)
        .select([
            len().alias("n"),
            col(OK).and(t.clone().lt_eq(lit(t_ms))).sum().alias("s"),
            col(OK)
                .and(t.clone().gt(lit(t_ms)))
                .and(t.lt_eq(lit(f_ms)))
                .sum()
                .alias("f"),
        ])
        .collect()?;
    let get = |n: &str| get_f64(&out, n).unwrap_or(0.0) as u64;
    let (requests, satisfied, tolerated) = (get("n"), get("s"), get("f"));
    Ok(Apdex {
        t_ms,
        f_ms,
        satisfied,
        tolerated,
        requests,
        score: (requests > 0)
            .then(|| (satisfied as f64 + tolerated as f64 / 2.0) / requests as f64),
    })
}

/// A run over time, as a table: each interval's requests, errors, throughput and response-time
/// percentiles, and its failed requests by message for the run's most frequent messages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverTime {
    pub interval_ms: i64,
    /// The messages counted per interval, most frequent first; failures with any other
    /// message are `TimeRow::other_errors`.
    pub messages: Vec<String>,
    pub rows: Vec<TimeRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimeRow {
    #[serde(flatten)]
    pub interval: Interval,
    pub total_ms_p50: Option<f64>,
    pub total_ms_p95: Option<f64>,
    /// Failed requests per message of `OverTime::messages`, in that order.
    pub by_message: Vec<u64>,
    pub other_errors: u64,
}

/// Most rows a run's over-time table has: a page, not a data file (the intervals are
/// `AUTO_INTERVALS_MS`, the shortest giving at most this many).
pub const OVER_TIME_ROWS: i64 = 40;

/// The interval of a run's over-time table: of `AUTO_INTERVALS_MS` and then 6 h and a day,
/// the shortest that cuts the span into at most `OVER_TIME_ROWS` intervals; None for a span
/// of more than `OVER_TIME_ROWS` days (a damaged date: no table says anything of that).
pub fn table_interval_ms(span_ms: i64) -> Option<i64> {
    AUTO_INTERVALS_MS
        .iter()
        .copied()
        .chain([21_600_000, 86_400_000])
        .find(|&iv| span_ms.max(0) / iv < OVER_TIME_ROWS)
}

/// `messages`: the messages to count per interval (the run's most frequent ones).
pub fn over_time(
    pf: &PerfFrame,
    o: &PerfOptions,
    interval_ms: i64,
    messages: &[String],
) -> PolarsResult<OverTime> {
    let (rows, quantiles) = intervals_with(pf, o, interval_ms, &[50.0, 95.0])?;
    let mut rows: Vec<TimeRow> = rows
        .into_iter()
        .zip(quantiles)
        .map(|(interval, q)| TimeRow {
            other_errors: interval.errors,
            interval,
            total_ms_p50: q.first().copied().flatten(),
            total_ms_p95: q.get(1).copied().flatten(),
            by_message: vec![0; messages.len()],
        })
        .collect();
    if let (Some(s0), false) = (
        rows.first().map(|r| r.interval.start_ms),
        messages.is_empty(),
    ) {
        let out = selected(&pf.df, o)
            .filter(col(OK).not())
            .group_by([
                col(END_MS).floor_div(lit(interval_ms)).alias("slot"),
                col(ERROR_ID),
            ])
            .agg([len().alias("n")])
            .collect()?;
        let slot = out.column("slot")?.cast(&DataType::Int64)?;
        let err = out.column(ERROR_ID)?.cast(&DataType::UInt32)?;
        let n = out.column("n")?.cast(&DataType::UInt64)?;
        let (slot, err, n) = (slot.i64()?, err.u32()?, n.u64()?);
        for i in 0..out.height() {
            let (Some(s), Some(c)) = (slot.get(i), n.get(i)) else {
                continue;
            };
            let text = err.get(i).map(|e| pf.operation(e)).unwrap_or("");
            let Some(k) = messages.iter().position(|m| m == text) else {
                continue;
            };
            let Some(row) = usize::try_from(s - s0 / interval_ms)
                .ok()
                .and_then(|r| rows.get_mut(r))
            else {
                continue;
            };
            row.by_message[k] += c;
            row.other_errors = row.other_errors.saturating_sub(c);
        }
    }
    Ok(OverTime {
        interval_ms,
        messages: messages.to_vec(),
        rows,
    })
}
