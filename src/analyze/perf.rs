//! Performance-log figures: requests, errors, latency percentiles, Java/DB split, latency
//! bands, shares over thresholds, throughput, per operation.

use super::get_f64;
use crate::frame::perf::*;
use crate::parse::num::format_wall_ms;
use polars::prelude::*;
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
}

impl Default for PerfOptions {
    fn default() -> Self {
        PerfOptions {
            bands: DEFAULT_BANDS.to_vec(),
            over: DEFAULT_OVER.to_vec(),
            skip_s: 0.0,
            from_ms: None,
            to_ms: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Over {
    pub ms: f64,
    pub count: u64,
    /// Full precision: 0.0001 % must survive.
    pub share_pct: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerfBand {
    pub label: String,
    pub count: u64,
    pub share_pct: f64,
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
    pub db_share_pct: Option<f64>,
}

/// The `perf` object of the JSON contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerfSummary {
    pub requests: u64,
    pub errors: u64,
    pub error_pct: Option<f64>,
    pub inconsistent: u64,
    pub first: Option<String>,
    pub last: Option<String>,
    pub span_s: Option<f64>,
    pub throughput_per_s: Option<f64>,
    pub total_ms_sum: f64,
    pub java_ms_sum: Option<f64>,
    pub db_ms_sum: Option<f64>,
    pub db_share_pct: Option<f64>,
    pub db_calls_sum: Option<u64>,
    pub total_ms_mean: Option<f64>,
    pub total_ms_p50: Option<f64>,
    pub total_ms_p90: Option<f64>,
    pub total_ms_p95: Option<f64>,
    pub total_ms_p99: Option<f64>,
    pub total_ms_max: Option<f64>,
    pub over: Vec<Over>,
    pub bands: Vec<PerfBand>,
    pub operations: Vec<Operation>,
}

/// Band labels: with edges [0, 50, 200] → "0", "0-50", "50-200", ">200"; without the leading
/// 0 → "0-50", "50-200", ">200". A value t is in a-b when a < t ≤ b.
pub fn band_labels(edges: &[f64]) -> Vec<String> {
    let f = |v: f64| crate::report::num(v, None);
    let mut out = Vec::new();
    let mut lo = 0.0;
    for (i, &e) in edges.iter().enumerate() {
        if i == 0 && e == 0.0 {
            out.push("0".to_string());
            continue;
        }
        out.push(format!("{}-{}", f(lo), f(e)));
        lo = e;
    }
    out.push(format!(">{}", f(lo)));
    out
}

fn q(e: Expr, p: f64) -> Expr {
    e.quantile(lit(p), QuantileMethod::Linear)
}

/// The records the options keep (warm-up, time window).
fn selected(df: &DataFrame, o: &PerfOptions) -> LazyFrame {
    let mut lf = df.clone().lazy();
    if o.skip_s > 0.0 {
        let cut = col(END_MS).min().cast(DataType::Float64) + lit(o.skip_s * 1000.0);
        lf = lf.filter(col(END_MS).cast(DataType::Float64).gt_eq(cut));
    }
    if let Some(f) = o.from_ms {
        lf = lf.filter(col(END_MS).gt_eq(lit(f)));
    }
    if let Some(t) = o.to_ms {
        lf = lf.filter(col(END_MS).lt(lit(t)));
    }
    lf
}

pub fn summary(df: &DataFrame, o: &PerfOptions) -> PolarsResult<PerfSummary> {
    let lf = selected(df, o).cache();
    let t = col(TOTAL_MS);
    let mut aggs = vec![
        len().cast(DataType::UInt64).alias("requests"),
        col(OK).not().cast(DataType::UInt64).sum().alias("errors"),
        col(INCONSISTENT)
            .cast(DataType::UInt64)
            .sum()
            .alias("inconsistent"),
        col(END_MS).min().alias("first"),
        col(END_MS).max().alias("last"),
        t.clone().sum().alias("total_sum"),
        col(JAVA_MS).sum().alias("java_sum"),
        col(DB_MS).sum().alias("db_sum"),
        col(JAVA_MS).count().alias("java_n"),
        col(DB_MS).count().alias("db_n"),
        col(DB_CALLS)
            .cast(DataType::UInt64)
            .sum()
            .alias("calls_sum"),
        col(DB_CALLS).count().alias("calls_n"),
        // Java/DB split over the records that have it.
        t.clone()
            .filter(col(DB_MS).is_not_null())
            .sum()
            .alias("total_with_db"),
        t.clone().mean().alias("mean"),
        q(t.clone(), 0.50).alias("p50"),
        q(t.clone(), 0.90).alias("p90"),
        q(t.clone(), 0.95).alias("p95"),
        q(t.clone(), 0.99).alias("p99"),
        t.clone().max().alias("max"),
    ];
    for (i, &ms) in o.over.iter().enumerate() {
        aggs.push(
            t.clone()
                .gt(lit(ms))
                .cast(DataType::UInt64)
                .sum()
                .alias(format!("over{i}")),
        );
    }
    let out = lf.clone().select(aggs).collect()?;
    let requests = get_f64(&out, "requests").unwrap_or(0.0) as u64;
    let share = |c: u64| {
        if requests > 0 {
            c as f64 * 100.0 / requests as f64
        } else {
            0.0
        }
    };
    let n = |name: &str| get_f64(&out, name).unwrap_or(0.0) as u64;
    let first = get_f64(&out, "first").map(|v| v as i64);
    let last = get_f64(&out, "last").map(|v| v as i64);
    let span_s = match (first, last) {
        (Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1000.0),
        _ => None,
    };
    let errors = n("errors");
    let total_sum = get_f64(&out, "total_sum").unwrap_or(0.0);
    let opt_sum = |v: &str, count: &str| (n(count) > 0).then(|| get_f64(&out, v).unwrap_or(0.0));
    let db_sum = opt_sum("db_sum", "db_n");
    let total_with_db = get_f64(&out, "total_with_db").unwrap_or(0.0);
    let over = o
        .over
        .iter()
        .enumerate()
        .map(|(i, &ms)| {
            let c = n(&format!("over{i}"));
            Over {
                ms,
                count: c,
                share_pct: share(c),
            }
        })
        .collect();
    let band_counts = lf
        .clone()
        .select([super::band_index(col(TOTAL_MS), &o.bands).alias("band")])
        .group_by([col("band")])
        .agg([len().cast(DataType::UInt64).alias("count")])
        .collect()?;
    let labels = band_labels(&o.bands);
    let mut counts = vec![0u64; labels.len()];
    {
        let b = band_counts.column("band")?.cast(&DataType::UInt32)?;
        let c = band_counts.column("count")?.cast(&DataType::UInt64)?;
        let (b, c) = (b.u32()?, c.u64()?);
        for i in 0..band_counts.height() {
            if let (Some(bi), Some(ci)) = (b.get(i), c.get(i)) {
                // With a leading 0 edge, "0" is t ≤ 0, i.e. exactly 0 for valid times.
                if let Some(slot) = counts.get_mut(bi as usize) {
                    *slot = ci;
                }
            }
        }
    }
    let bands = labels
        .into_iter()
        .zip(counts)
        .map(|(label, count)| PerfBand {
            label,
            count,
            share_pct: share(count),
        })
        .collect();
    Ok(PerfSummary {
        requests,
        errors,
        error_pct: (requests > 0).then(|| share(errors)),
        inconsistent: n("inconsistent"),
        first: first.map(format_wall_ms),
        last: last.map(format_wall_ms),
        span_s,
        throughput_per_s: span_s.map(|s| requests as f64 / s),
        total_ms_sum: total_sum,
        java_ms_sum: opt_sum("java_sum", "java_n"),
        db_ms_sum: db_sum,
        db_share_pct: db_sum.and_then(|d| (total_with_db > 0.0).then(|| d * 100.0 / total_with_db)),
        db_calls_sum: (n("calls_n") > 0).then(|| n("calls_sum")),
        total_ms_mean: get_f64(&out, "mean"),
        total_ms_p50: get_f64(&out, "p50"),
        total_ms_p90: get_f64(&out, "p90"),
        total_ms_p95: get_f64(&out, "p95"),
        total_ms_p99: get_f64(&out, "p99"),
        total_ms_max: get_f64(&out, "max"),
        over,
        bands,
        operations: operations(lf)?,
    })
}

fn operations(lf: LazyFrame) -> PolarsResult<Vec<Operation>> {
    let t = col(TOTAL_MS);
    let out = lf
        .group_by([col(OPERATION)])
        .agg([
            len().cast(DataType::UInt64).alias("count"),
            col(OK).not().cast(DataType::UInt64).sum().alias("errors"),
            t.clone().sum().alias("total_sum"),
            col(JAVA_MS).sum().alias("java_sum"),
            col(DB_MS).sum().alias("db_sum"),
            col(DB_MS).count().cast(DataType::UInt64).alias("db_n"),
            col(JAVA_MS).count().cast(DataType::UInt64).alias("java_n"),
            col(DB_CALLS)
                .cast(DataType::UInt64)
                .sum()
                .alias("calls_sum"),
            col(DB_CALLS)
                .count()
                .cast(DataType::UInt64)
                .alias("calls_n"),
            t.clone()
                .filter(col(DB_MS).is_not_null())
                .sum()
                .alias("total_with_db"),
            t.clone().mean().alias("mean"),
            q(t.clone(), 0.95).alias("p95"),
            t.max().alias("max"),
        ])
        .sort_by_exprs(
            [col("total_sum"), col(OPERATION)],
            SortMultipleOptions::default().with_order_descending_multi([true, false]),
        )
        .collect()?;
    let names = out.column(OPERATION)?.str()?.clone();
    let f = |n: &str| -> PolarsResult<Float64Chunked> {
        Ok(out.column(n)?.cast(&DataType::Float64)?.f64()?.clone())
    };
    let (count, errors, total, java, db, db_n, java_n, calls, calls_n, twd, mean, p95, max) = (
        f("count")?,
        f("errors")?,
        f("total_sum")?,
        f("java_sum")?,
        f("db_sum")?,
        f("db_n")?,
        f("java_n")?,
        f("calls_sum")?,
        f("calls_n")?,
        f("total_with_db")?,
        f("mean")?,
        f("p95")?,
        f("max")?,
    );
    let g = |c: &Float64Chunked, i: usize| c.get(i).unwrap_or(0.0);
    Ok((0..out.height())
        .map(|i| {
            let has_db = g(&db_n, i) > 0.0;
            Operation {
                name: names.get(i).unwrap_or("").to_string(),
                count: g(&count, i) as u64,
                errors: g(&errors, i) as u64,
                total_ms_sum: g(&total, i),
                java_ms_sum: (g(&java_n, i) > 0.0).then(|| g(&java, i)),
                db_ms_sum: has_db.then(|| g(&db, i)),
                db_calls_sum: (g(&calls_n, i) > 0.0).then(|| g(&calls, i) as u64),
                total_ms_mean: g(&mean, i),
                total_ms_p95: g(&p95, i),
                total_ms_max: g(&max, i),
                db_share_pct: (has_db && g(&twd, i) > 0.0).then(|| g(&db, i) * 100.0 / g(&twd, i)),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_seed() {
        assert_eq!(
            band_labels(&DEFAULT_BANDS),
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
        assert_eq!(band_labels(&[50.0, 200.0]), vec!["0-50", "50-200", ">200"]);
    }
}
