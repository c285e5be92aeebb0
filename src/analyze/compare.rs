//! Comparing runs: one figure of each run by name (`--sort`), the runs ranked by it, repeats
//! of one configuration averaged (`--group`), each run's change against a baseline.
//! Figures are named as `--slo` names them (the keys of the `gc`/`perf` JSON objects,
//! `over_<N>ms_pct`, and the aliases p50, p95, max...), read by the same code.

use crate::analyze::gc::GcSummary;
use crate::analyze::perf::PerfSummary;
use crate::analyze::slo;

/// `--sort FIGURE[:asc|:desc]`.
#[derive(Debug, Clone, PartialEq)]
pub struct SortKey {
    /// As given (`p95`, `pause_total_ms`).
    pub figure: String,
    pub descending: bool,
    objective: slo::Objective,
}

impl SortKey {
    /// `pause_total_ms`, `pause_total_ms:asc` (lowest first, the default) or
    /// `throughput_pct:desc` (highest first). A name that is no figure is an error naming it.
    pub fn parse(s: &str) -> Result<SortKey, String> {
        let t = s.trim();
        let (figure, descending) = match t.rsplit_once(':') {
            Some((f, "desc")) => (f.trim(), true),
            Some((f, "asc")) => (f.trim(), false),
            Some((_, o)) => {
                return Err(format!(
                    "--sort {t:?}: {o:?} is not an order: use FIGURE, FIGURE:asc or FIGURE:desc"
                ))
            }
            None => (t, false),
        };
        // The objective parser knows every figure name and alias; the limit is a dummy.
        let objective = slo::parse(&[format!("{figure}>=0")])
            .ok()
            .and_then(|mut v| v.pop())
            .ok_or_else(|| {
                format!(
                    "--sort {t:?}: {figure:?} is not a figure: use a key of the gc or perf object \
                     of `summary --format json` (pause_total_ms, pause_max_ms, total_ms_p95, \
                     throughput_per_s...), over_<N>ms_pct, or p50, p90, p95, p99, max, mean"
                )
            })?;
        Ok(SortKey {
            figure: figure.to_ascii_lowercase(),
            descending,
            objective,
        })
    }

    /// The objective standing for the figure (its `over_ms` needs adding to `--over`).
    pub fn objective(&self) -> &slo::Objective {
        &self.objective
    }

    /// The figure of one run, None where the run has no such figure.
    pub fn value(&self, gc: Option<&GcSummary>, perf: Option<&PerfSummary>) -> Option<f64> {
        slo::evaluate(std::slice::from_ref(&self.objective), gc, perf, false)
            .into_iter()
            .find_map(|v| v.value)
    }

    /// The figure's key for a kind (`p95` is `pause_p95_ms` for GC logs).
    pub fn key(&self, kind: slo::LogKind) -> Option<String> {
        self.objective.key(kind)
    }

    /// "lowest" or "highest": what comes first.
    pub fn first_word(&self) -> &'static str {
        if self.descending {
            "highest"
        } else {
            "lowest"
        }
    }
}

/// The order of runs by their figures `values` (stable: equal figures keep their order; runs
/// without the figure last, in their order).
pub fn ranking(values: &[Option<f64>], descending: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| missing_last(values[a], values[b], descending));
    idx
}

/// Two figures in order, ascending or `descending`; a missing one after any present.
pub fn missing_last(a: Option<f64>, b: Option<f64>, descending: bool) -> std::cmp::Ordering {
    match (a, b) {
        (Some(x), Some(y)) if descending => y.total_cmp(&x),
        (Some(x), Some(y)) => x.total_cmp(&y),
        // Present (not none) first.
        _ => a.is_none().cmp(&b.is_none()),
    }
}

/// Repeats of one configuration: the mean of their figures and the range (min, max), over
/// the repeats that have the figure; None when none has it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// Repeats the figure was averaged over.
    pub n: usize,
}

pub fn spread(values: &[Option<f64>]) -> Option<Spread> {
    let v: Vec<f64> = values.iter().flatten().copied().collect();
    if v.is_empty() {
        return None;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    Some(Spread {
        mean: super::clean(mean),
        min: v.iter().copied().fold(f64::INFINITY, f64::min),
        max: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        n: v.len(),
    })
}

/// A figure's change against the baseline's: absolute, and in % of the baseline (None when
/// the baseline is 0).
pub fn delta(base: Option<f64>, v: Option<f64>) -> Option<(f64, Option<f64>)> {
    let (b, v) = (base?, v?);
    let abs = super::clean(v - b);
    let pct = (b != 0.0).then(|| super::clean((v - b) / b.abs() * 100.0));
    Some((abs, pct))
}

/// The percentiles a run's summary has (`--percentiles`).
pub const PERCENTILES: [u32; 4] = [50, 90, 95, 99];

/// A run's percentile of the request's total time (ms): 50, 90, 95 or 99.
pub fn percentile(p: &PerfSummary, pct: u32) -> Option<f64> {
    match pct {
        50 => p.total_ms_p50,
        90 => p.total_ms_p90,
        95 => p.total_ms_p95,
        99 => p.total_ms_p99,
        _ => None,
    }
}

/// The limits of objectives on one of `pcts` (`p95<=50ms`, `total_ms_p95<0.05s`): (index
/// into `pcts`, limit in ms, objective text), read as `--slo` judges them.
pub fn percentile_limits(objectives: &[slo::Objective], pcts: &[u32]) -> Vec<(usize, f64, String)> {
    objectives
        .iter()
        .filter_map(|o| {
            let key = o.key(slo::LogKind::Perf)?;
            let i = pcts.iter().position(|p| key == format!("total_ms_p{p}"))?;
            Some((i, o.limit(&key), o.text.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_keys_name_figures_and_orders() {
        let k = SortKey::parse("pause_total_ms").unwrap();
        assert!(!k.descending);
        assert_eq!(k.key(slo::LogKind::Gc).as_deref(), Some("pause_total_ms"));
        let k = SortKey::parse("p95:desc").unwrap();
        assert!(k.descending);
        assert_eq!(k.key(slo::LogKind::Gc).as_deref(), Some("pause_p95_ms"));
        assert_eq!(k.key(slo::LogKind::Perf).as_deref(), Some("total_ms_p95"));
        assert!(SortKey::parse("pause_total_ms:up").is_err());
        assert!(SortKey::parse("no_such_figure").is_err());
        assert!(SortKey::parse("").is_err());
    }

    #[test]
    fn rankings_are_stable_and_put_missing_last() {
        let v = [Some(3.0), None, Some(1.0), Some(3.0), Some(2.0)];
        assert_eq!(ranking(&v, false), [2, 4, 0, 3, 1]);
        assert_eq!(ranking(&v, true), [0, 3, 4, 2, 1]);
        assert!(ranking(&[], false).is_empty());
    }

    #[test]
    fn spreads_and_deltas() {
        let s = spread(&[Some(1.0), None, Some(2.0), Some(6.0)]).unwrap();
        assert_eq!((s.mean, s.min, s.max, s.n), (3.0, 1.0, 6.0, 3));
        assert_eq!(spread(&[None, None]), None);
        assert_eq!(delta(Some(200.0), Some(150.0)), Some((-50.0, Some(-25.0))));
        assert_eq!(delta(Some(0.0), Some(5.0)), Some((5.0, None)));
        assert_eq!(delta(None, Some(5.0)), None);
    }
}
