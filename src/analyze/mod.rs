//! Analyses: polars lazy queries over the frames built in `frame`.

pub mod compare;
pub mod correlate;
pub mod diag;
pub mod gc;
pub mod perf;
pub mod sketch;
pub mod slo;
pub mod window;

use polars::prelude::*;

/// A number as users see it, without the binary noise of float arithmetic (`2047.139`, not
/// the sum's `2047.1390000000001`): rounded to 12 significant digits, far above what a log
/// measures (µs of a 10^6 s run) and far below where sums and quotients of f64 go wrong
/// (the 16th-17th digit). Values that are already short print as they were; integers below
/// 2^53 (counts, KiB, epoch ms) are kept whatever their digits; NaN and infinities untouched.
/// A value within about 1e-16 of a tie (13th digit 5, then zeros) may round either way.
pub fn clean(v: f64) -> f64 {
    const EXACT_INT: f64 = 9_007_199_254_740_992.0; // 2^53
    if !v.is_finite() || v == 0.0 || (v.fract() == 0.0 && v.abs() < EXACT_INT) {
        return v;
    }
    // Fast (millions of event cells and exported rows): k = a·10^m rounded to a 12-digit
    // integer, then k / 10^m, a division of two exact values and so the f64 nearest the
    // 12-digit decimal, as parsing it would give. Powers of ten up to 1e22 are exact; log10
    // may be one off near a power of ten, which the bounds on k catch.
    let a = v.abs();
    let mut m = 11 - a.log10().floor() as i32;
    for _ in 0..3 {
        let Some(p) = POW10.get(m.unsigned_abs() as usize) else {
            break;
        };
        let k = if m >= 0 { a * p } else { a / p }.round();
        if k >= 1e12 {
            m -= 1;
        } else if k < 1e11 {
            m += 1;
        } else {
            return if m >= 0 { k / p } else { k * p }.copysign(v);
        }
    }
    // Huge and tiny magnitudes: decimal rounding by formatting, no power of ten to overflow.
    match format!("{v:.11e}").parse::<f64>() {
        Ok(c) if c.is_finite() => c,
        _ => v,
    }
}

/// 10^0 ..= 10^22, the powers of ten an f64 holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// First value of a column of a one-row result, as f64 (None when null or absent).
pub(crate) fn get_f64(df: &DataFrame, name: &str) -> Option<f64> {
    let c = df.column(name).ok()?.cast(&DataType::Float64).ok()?;
    let v = c.f64().ok()?.get(0)?;
    v.is_finite().then_some(v)
}

/// The largest value of a column as it is, as f64; None where every row is null. An all-null
/// column is not reduced at all: polars reduces a scalar through a one-value series, whose
/// null buffer is the first use of its global zeroed buffer, 8 MiB it allocates, fills and
/// never frees (2,000 page faults, 4-5 ms, a third of a small log's run).
pub(crate) fn max_f64(c: &Column) -> PolarsResult<Option<f64>> {
    if c.null_count() == c.len() {
        return Ok(None);
    }
    Ok(c.max_reduce()?.value().extract::<f64>())
}

/// A band of durations: how many fell in it and their share of all, percent (full
/// precision: 0.0001 % must survive); no share where there is nothing to share (`share_pct`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Band {
    pub label: String,
    pub count: u64,
    pub share_pct: Option<f64>,
}

/// The bands of `edges` (`band_labels`) holding `counts`, one more than the edges.
pub fn bands_of(edges: &[f64], counts: Vec<u64>) -> Vec<Band> {
    let total: u64 = counts.iter().sum();
    band_labels(edges)
        .into_iter()
        .zip(counts)
        .map(|(label, count)| Band {
            label,
            count,
            share_pct: share_pct(count, total),
        })
        .collect()
}

/// `count` as a percentage of `of`, full precision; None where `of` is 0: a share of no
/// requests or no pauses cannot be known (0 % would pass `over_50ms_pct<=10` on a run with
/// nothing in it), while a count of 0 out of some is a known 0 %.
pub(crate) fn share_pct(count: u64, of: u64) -> Option<f64> {
    (of > 0).then(|| count as f64 * 100.0 / of as f64)
}

/// Band labels: with edges [0, 50, 200] → "0", "0-50", "50-200", ">200"; without the leading
/// 0 → "0-50", "50-200", ">200". A value t is in a-b when a < t ≤ b (the first band from 0
/// includes 0).
pub fn band_labels(edges: &[f64]) -> Vec<String> {
    let f = |v: f64| crate::report::num(v, None);
    let mut out = Vec::with_capacity(edges.len() + 1);
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

/// `x.floor() as i64`, without the libm call `floor` is on x86-64's baseline (no SSE4.1
/// rounding instruction): it was 2 % of a JRockit log's summary, called per pause, and
/// a fifth of a 2 M-request log's sketch as `ceil`.
#[inline(always)]
pub(super) fn floor_i64(x: f64) -> i64 {
    let i = x as i64;
    i - i64::from((i as f64) > x)
}
