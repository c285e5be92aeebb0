//! Analyses: polars lazy queries over the frames built in `frame`.

pub mod compare;
pub mod correlate;
pub mod gc;
pub mod perf;
pub mod slo;

use polars::prelude::*;

/// First value of a column of a one-row result, as f64 (None when null or absent).
pub(crate) fn get_f64(df: &DataFrame, name: &str) -> Option<f64> {
    let c = df.column(name).ok()?.cast(&DataType::Float64).ok()?;
    let v = c.f64().ok()?.get(0)?;
    v.is_finite().then_some(v)
}

/// Pause-duration bands: `edges` [10, 50] give "0-10", "10-50", ">50"; a value t falls in the
/// band a-b when a < t ≤ b (the first band includes 0).
pub fn band_labels(edges: &[f64]) -> Vec<String> {
    let fmt = |v: f64| {
        if v.fract() == 0.0 {
            format!("{}", v as i64)
        } else {
            format!("{v}")
        }
    };
    let mut out = Vec::with_capacity(edges.len() + 1);
    let mut lo = 0.0;
    for &e in edges {
        out.push(format!("{}-{}", fmt(lo), fmt(e)));
        lo = e;
    }
    out.push(format!(">{}", fmt(lo)));
    out
}

/// Polars expression giving each value's band index (see `band_labels`).
pub(crate) fn band_index(value: Expr, edges: &[f64]) -> Expr {
    let mut e = lit(edges.len() as u32);
    for (i, &edge) in edges.iter().enumerate().rev() {
        e = when(value.clone().lt_eq(lit(edge)))
            .then(lit(i as u32))
            .otherwise(e);
    }
    e
}
