//! Service-level objectives (`--slo p95<=50ms,error_pct<1`): parsed once, judged against each
//! run's figures (the `gc` and `perf` objects of `summary --format json`), one verdict per
//! objective and run (and per operation where asked). Also the pause target: pauses longer
//! than a run's target (JRockit's `Deterministic GC target pause time`, or `--pause-target`).

use super::clean;
use crate::analyze::gc::GcSummary;
use crate::analyze::perf::{Operation, PerfSummary};
use crate::frame::gc::{DURATION_MS, RECORD};
use crate::frame::GcFrame;
use crate::model::Record;
use polars::prelude::*;
use serde::Serialize;

/// How a figure is compared with its limit. `==` compares the figure as printed at full
/// precision (12 significant digits): meant for counts (`errors==0`, `full_collections==0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cmp {
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "==")]
    Eq,
}

impl Cmp {
    pub fn as_str(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "==",
        }
    }
    fn holds(self, v: f64, limit: f64) -> bool {
        match self {
            Cmp::Lt => v < limit,
            Cmp::Le => v <= limit,
            Cmp::Gt => v > limit,
            Cmp::Ge => v >= limit,
            Cmp::Eq => v == limit,
        }
    }
}

/// The unit a figure is in, from its key's suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Ms,
    S,
    Pct,
    /// Counts, KiB, rates: a plain number.
    Plain,
}

impl Unit {
    fn of(key: &str) -> Unit {
        if key == "throughput_per_s" {
            Unit::Plain
        } else if key.ends_with("_ms") || key.contains("_ms_") {
            Unit::Ms
        } else if key.ends_with("_s") {
            Unit::S
        } else if key.ends_with("_pct") {
            Unit::Pct
        } else {
            Unit::Plain
        }
    }
    fn as_str(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Pct => "%",
            Unit::Plain => "",
        }
    }
}

/// The numeric keys of the `gc` object an objective may name.
pub const GC_KEYS: [&str; 23] = [
    "collections",
    "pauses",
    "pause_total_ms",
    "pause_max_ms",
    "pause_mean_ms",
    "pause_p50_ms",
    "pause_p95_ms",
    "pause_p99_ms",
    "full_collections",
    "concurrent_phases",
    "safepoint_pauses",
    "safepoint_total_ms",
    "restarts",
    "span_s",
    "throughput_pct",
    "heap_max_kb",
    "pause_target_ms",
    "pauses_over_target",
    "pauses_over_target_pct",
    "stalls",
    "stall_total_ms",
    "stall_max_ms",
    "ttsp_max_ms",
];

/// The numeric keys `analyze::diag` adds to the `gc` object (allocation, promotion, live set).
pub const DIAG_KEYS: [&str; 11] = [
    "allocated_kb",
    "alloc_rate_kb_per_s",
    "alloc_rate_p50_kb_per_s",
    "alloc_rate_p95_kb_per_s",
    "alloc_rate_max_kb_per_s",
    "alloc_interval_s",
    "promoted_kb",
    "promotion_rate_kb_per_s",
    "live_set_collections",
    "live_set_kb",
    "live_set_slope_kb_per_h",
];

/// The numeric keys of the `perf` object (and `over_<N>ms_pct` for any N).
pub const PERF_KEYS: [&str; 17] = [
    "requests",
    "errors",
    "error_pct",
    "inconsistent",
    "span_s",
    "throughput_per_s",
    "total_ms_sum",
    "java_ms_sum",
    "db_ms_sum",
    "db_share_pct",
    "db_calls_sum",
    "total_ms_mean",
    "total_ms_p50",
    "total_ms_p90",
    "total_ms_p95",
    "total_ms_p99",
    "total_ms_max",
];

/// Reads one of an operation's figures.
pub type OpField = fn(&Operation) -> Option<f64>;

/// An operation's figures (`perf --by op`) by key, in the order operations.csv has them:
/// the objectives' per-operation keys and that file's columns.
pub const OP_FIELDS: [(&str, OpField); 18] = [
    ("count", |o| Some(o.count as f64)),
    ("errors", |o| Some(o.errors as f64)),
    ("total_ms_sum", |o| Some(o.total_ms_sum)),
    ("java_ms_sum", |o| o.java_ms_sum),
    ("db_ms_sum", |o| o.db_ms_sum),
    ("db_calls_sum", |o| o.db_calls_sum.map(|v| v as f64)),
    ("total_ms_mean", |o| Some(o.total_ms_mean)),
    ("total_ms_p95", |o| Some(o.total_ms_p95)),
    ("total_ms_max", |o| Some(o.total_ms_max)),
    ("db_share_pct", |o| o.db_share_pct),
    ("error_pct", |o| Some(o.error_pct)),
    ("throughput_per_s", |o| o.throughput_per_s),
    ("total_ms_min", |o| Some(o.total_ms_min)),
    ("total_ms_p50", |o| Some(o.total_ms_p50)),
    ("total_ms_p90", |o| Some(o.total_ms_p90)),
    ("total_ms_p99", |o| Some(o.total_ms_p99)),
    ("java_ms_mean", |o| o.java_ms_mean),
    ("db_ms_mean", |o| o.db_ms_mean),
];

/// A log kind an objective is judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    Gc,
    Perf,
}

/// One objective: `METRIC OP VALUE[unit]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Objective {
    /// As given (blanks removed): names the objective in every output.
    pub text: String,
    /// The metric as given (lower case): a key or an alias.
    pub metric: String,
    pub cmp: Cmp,
    /// The limit as given, and its unit (`ms`, `s`, `%` or none).
    value: f64,
    unit: Option<&'static str>,
    /// `over_<N>ms_pct`: N.
    pub over_ms: Option<f64>,
}

/// Why an objective cannot be read or judged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("--slo {text:?}: {why}")]
pub struct SloError {
    pub text: String,
    pub why: String,
}

fn fail<T>(text: &str, why: impl Into<String>) -> Result<T, SloError> {
    Err(SloError {
        text: text.to_string(),
        why: why.into(),
    })
}

/// Aliases: the request's total time for performance logs, the pause duration for GC logs.
fn alias(metric: &str, kind: LogKind) -> Option<Option<&'static str>> {
    let (gc, perf) = match metric {
        "p50" => (Some("pause_p50_ms"), "total_ms_p50"),
        "p90" => (None, "total_ms_p90"),
        "p95" => (Some("pause_p95_ms"), "total_ms_p95"),
        "p99" => (Some("pause_p99_ms"), "total_ms_p99"),
        "max" => (Some("pause_max_ms"), "total_ms_max"),
        "mean" => (Some("pause_mean_ms"), "total_ms_mean"),
        _ => return None,
    };
    Some(match kind {
        LogKind::Gc => gc,
        LogKind::Perf => Some(perf),
    })
}

/// `over_150ms_pct` → 150.
fn over_threshold(metric: &str) -> Option<f64> {
    let n = metric.strip_prefix("over_")?.strip_suffix("ms_pct")?;
    let v: f64 = n.parse().ok()?;
    (v.is_finite() && v >= 0.0 && !n.starts_with('+')).then_some(v)
}

impl Objective {
    /// The key of the figure this objective reads for a log of `kind`; None when that kind
    /// has no such figure.
    pub fn key(&self, kind: LogKind) -> Option<String> {
        if let Some(k) = alias(&self.metric, kind) {
            return k.map(str::to_string);
        }
        if self.over_ms.is_some() {
            return (kind == LogKind::Perf).then(|| self.metric.clone());
        }
        let keys: &[&str] = match kind {
            LogKind::Gc => &GC_KEYS,
            LogKind::Perf => &PERF_KEYS,
        };
        let diag = kind == LogKind::Gc && DIAG_KEYS.contains(&self.metric.as_str());
        (keys.contains(&self.metric.as_str()) || diag).then(|| self.metric.clone())
    }

    /// The key of an operation's figure (`perf --by op`), if operations have it.
    fn op_key(&self) -> Option<&'static str> {
        // An alias reads the request's total time, as on the run.
        let m = match self.metric.as_str() {
            "requests" => "count",
            m => alias(m, LogKind::Perf).flatten().unwrap_or(m),
        };
        OP_FIELDS.iter().map(|f| f.0).find(|k| *k == m)
    }

    /// The limit in the figure's unit (`0.05s` is 50 for a key in ms).
    pub fn limit(&self, key: &str) -> f64 {
        let v = match (Unit::of(key), self.unit) {
            (Unit::Ms, Some("s")) => self.value * 1000.0,
            (Unit::S, Some("ms")) => self.value / 1000.0,
            _ => self.value,
        };
        clean(v)
    }

    /// The names of the kinds whose logs have this figure.
    pub fn kinds(&self) -> Vec<LogKind> {
        [LogKind::Gc, LogKind::Perf]
            .into_iter()
            .filter(|k| self.key(*k).is_some())
            .collect()
    }
}

/// Parse `--slo` expressions (already split at commas). A malformed one, or one naming a
/// figure no log has, is an error naming it.
pub fn parse(exprs: &[String]) -> Result<Vec<Objective>, SloError> {
    exprs
        .iter()
        .filter(|e| !e.trim().is_empty())
        .map(|e| parse_one(e))
        .collect()
}

fn parse_one(expr: &str) -> Result<Objective, SloError> {
    let text: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(at) = text.find(['<', '>', '=', '!']) else {
        return fail(
            &text,
            "no comparison: write METRIC OP VALUE, e.g. p95<=50ms (OP: <, <=, >, >=, ==)",
        );
    };
    let metric = text[..at].to_ascii_lowercase();
    let rest = &text[at..];
    let op_len = rest
        .bytes()
        .take_while(|b| matches!(b, b'<' | b'>' | b'=' | b'!'))
        .count();
    let op = &rest[..op_len];
    let every = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq];
    let Some(cmp) = every.into_iter().find(|c| c.as_str() == op) else {
        return fail(
            &text,
            format!("unknown comparison {op:?}: use <, <=, >, >= or =="),
        );
    };
    if metric.is_empty() {
        return fail(&text, "no metric before the comparison, e.g. p95<=50ms");
    }
    if !metric
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    {
        return fail(&text, format!("{metric:?} is not a metric name"));
    }
    let v = &rest[op_len..];
    let num_len = v
        .bytes()
        .take_while(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
        .count();
    let (num, unit) = v.split_at(num_len);
    let Some(value) = num.parse::<f64>().ok().filter(|x| x.is_finite()) else {
        return fail(
            &text,
            format!("{v:?} is not a number (with ms, s or % after it where it fits)"),
        );
    };
    let unit = match unit.to_ascii_lowercase().as_str() {
        "" => None,
        "ms" => Some("ms"),
        "s" => Some("s"),
        "%" => Some("%"),
        u => return fail(&text, format!("unknown unit {u:?}: ms, s or %")),
    };
    let o = Objective {
        metric: metric.clone(),
        cmp,
        value,
        unit,
        over_ms: over_threshold(&metric),
        text: text.clone(),
    };
    let kinds = o.kinds();
    if kinds.is_empty() {
        return fail(
            &text,
            format!(
                "unknown metric {metric:?}: a key of the gc or perf object of `summary --format \
                 json` (pause_max_ms, total_ms_p95, throughput_pct...), over_<N>ms_pct, or \
                 p50, p90, p95, p99, max, mean"
            ),
        );
    }
    // The unit must fit every figure the metric names.
    for k in kinds {
        let key = o.key(k).unwrap_or_default();
        let fits = matches!(
            (Unit::of(&key), unit),
            (_, None) | (Unit::Ms | Unit::S, Some("ms" | "s")) | (Unit::Pct, Some("%"))
        );
        if !fits {
            let what = match Unit::of(&key) {
                Unit::Ms | Unit::S => "a time: ms or s",
                Unit::Pct => "a share: % or none",
                Unit::Plain => "a plain number: no unit",
            };
            return fail(
                &text,
                format!("{key} is {what}, not {:?}", unit.unwrap_or_default()),
            );
        }
    }
    Ok(o)
}

/// The `--over` thresholds the objectives need (`over_<N>ms_pct`), added to `over` if not in it.
pub fn add_over(objectives: &[Objective], over: &mut Vec<f64>) {
    for n in objectives.iter().filter_map(|o| o.over_ms) {
        if !over.contains(&n) {
            over.push(n);
        }
    }
}

/// One objective judged on one run (or one operation of it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub objective: String,
    /// The figure read (`total_ms_p95` for `p95` on a performance log).
    pub metric: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    pub op: Cmp,
    /// The figure, as printed at full precision; null when the run has none (no requests,
    /// no pauses, no pause target): then the objective fails.
    pub value: Option<f64>,
    /// The limit in the figure's unit.
    pub limit: f64,
    pub unit: &'static str,
    pub pass: bool,
}

fn judge(o: &Objective, key: &str, value: Option<f64>, operation: Option<String>) -> Verdict {
    let value = value.filter(|v| v.is_finite()).map(clean);
    let limit = o.limit(key);
    Verdict {
        objective: o.text.clone(),
        metric: key.to_string(),
        operation,
        op: o.cmp,
        value,
        limit,
        unit: Unit::of(key).as_str(),
        pass: value.is_some_and(|v| o.cmp.holds(v, limit)),
    }
}

/// A numeric key of a serialised figure object.
fn field(obj: &serde_json::Value, key: &str) -> Option<f64> {
    obj.get(key).and_then(serde_json::Value::as_f64)
}

/// Verdicts for one run: each objective its figures have, in the order given; with
/// `per_op`, also each operation's for the objectives operations have a figure for.
pub fn evaluate(
    objectives: &[Objective],
    gc: Option<&GcSummary>,
    perf: Option<&PerfSummary>,
    per_op: bool,
) -> Vec<Verdict> {
    let mut out = Vec::new();
    if objectives.is_empty() {
        return out;
    }
    let gcv = gc.and_then(|g| serde_json::to_value(g).ok());
    // The figures alone: a log's operations, intervals and messages (400,000 distinct
    // operation names made 1.3 GB of JSON values) are judged from the summary itself.
    let figures = perf.map(|p| PerfSummary {
        first: None,
        last: None,
        over: Vec::new(),
        bands: Vec::new(),
        operations: Vec::new(),
        intervals: None,
        error_messages: Vec::new(),
        total_ms_sketch: None,
        ..*p
    });
    let pv = figures.and_then(|p| serde_json::to_value(p).ok());
    for o in objectives {
        if let (Some(g), Some(key)) = (&gcv, o.key(LogKind::Gc)) {
            out.push(judge(o, &key, field(g, &key), None));
        }
        if let (Some(p), Some(pj), Some(key)) = (perf, &pv, o.key(LogKind::Perf)) {
            let v = match o.over_ms {
                Some(n) => p.over.iter().find(|x| x.ms == n).and_then(|x| x.share_pct),
                None => field(pj, &key),
            };
            out.push(judge(o, &key, v, None));
            if let Some(k) = o.op_key().filter(|_| per_op) {
                for op in &p.operations {
                    out.push(judge(o, k, op_field(op, k), Some(op.name.clone())));
                }
            }
        }
    }
    out
}

fn op_field(op: &Operation, key: &str) -> Option<f64> {
    OP_FIELDS
        .iter()
        .find(|f| f.0 == key)
        .and_then(|f| (f.1)(op))
}

/// The pause target of a GC log's run metadata (`pause_target_ms`), if it states one.
pub fn meta_pause_target(meta: &[(String, String)]) -> Option<f64> {
    meta.iter()
        .find(|(k, _)| k == "pause_target_ms")
        .and_then(|(_, v)| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0)
}

/// Sets the pause-target figures of `g`: the pauses longer than `target_ms` (a pause of
/// exactly the target meets it), their count and share of all pauses.
pub fn apply_pause_target(g: &mut GcSummary, f: &GcFrame, target_ms: f64) -> PolarsResult<()> {
    let over = pauses_over(f, target_ms)?;
    g.pause_target_ms = Some(target_ms);
    g.pauses_over_target = Some(over);
    g.pauses_over_target_pct = (g.pauses > 0).then(|| 100.0 * over as f64 / g.pauses as f64);
    Ok(())
}

/// How many pauses are longer than `target_ms`.
pub fn pauses_over(f: &GcFrame, target_ms: f64) -> PolarsResult<u64> {
    let over = super::gc::is_record(Record::Pause).and(col(DURATION_MS).gt(lit(target_ms)));
    let out = f.df.clone().lazy().select([over.sum()]).collect()?;
    Ok(super::get_f64(&out, RECORD).map_or(0, |n| n as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(e: &str) -> Result<Objective, SloError> {
        parse_one(e)
    }

    #[test]
    fn expressions_parse_with_units_and_aliases() {
        let o = one("p95 <= 50ms").unwrap();
        assert_eq!((o.text.as_str(), o.cmp), ("p95<=50ms", Cmp::Le));
        assert_eq!(o.key(LogKind::Perf).as_deref(), Some("total_ms_p95"));
        assert_eq!(o.key(LogKind::Gc).as_deref(), Some("pause_p95_ms"));
        assert_eq!(o.limit("total_ms_p95"), 50.0);
        let o = one("pause_max_ms<0.03s").unwrap();
        assert_eq!(o.limit("pause_max_ms"), 30.0);
        assert_eq!(o.key(LogKind::Perf), None);
        let o = one("span_s>=1200000ms").unwrap();
        assert_eq!(o.limit("span_s"), 1200.0);
        let o = one("over_150ms_pct<0.01").unwrap();
        assert_eq!(o.over_ms, Some(150.0));
        assert_eq!(o.key(LogKind::Gc), None);
        let o = one("over_7.5ms_pct<1%").unwrap();
        assert_eq!(o.over_ms, Some(7.5));
        assert_eq!(one("errors==0").unwrap().cmp, Cmp::Eq);
        assert_eq!(one("throughput_pct>=99").unwrap().cmp, Cmp::Ge);
        assert_eq!(one("p90<1").unwrap().kinds(), vec![LogKind::Perf]);
    }

    #[test]
    fn malformed_and_unknown_are_errors_naming_them() {
        for bad in [
            "p95",
            "p95<=",
            "<=50",
            "p95=50",
            "p95=<50",
            "p95<>50",
            "p95<=abc",
            "p95<=50kb",
            "p95<=50ms5",
            "p95<=nan",
            "p95<=inf",
            "p96<=50",
            "pause_max<=30",
            "requests<=5ms",
            "error_pct<1ms",
            "throughput_per_s>=5s",
            "over_ams_pct<1",
            "over_-5ms_pct<1",
        ] {
            let e = one(bad).expect_err(bad);
            assert!(e.to_string().contains(&bad.replace(' ', "")), "{e}");
        }
        assert!(parse(&["p95<=50".into(), "bogus<1".into()]).is_err());
    }

    #[test]
    fn every_numeric_key_of_the_summaries_is_a_metric() {
        let g = GcSummary {
            collections: 1,
            pauses: 1,
            pause_total_ms: Some(1.0),
            pause_max_ms: Some(1.0),
            pause_mean_ms: Some(1.0),
            pause_p50_ms: Some(1.0),
            pause_p95_ms: Some(1.0),
            pause_p99_ms: Some(1.0),
            full_collections: 0,
            concurrent_phases: 0,
            safepoint_pauses: 0,
            safepoint_total_ms: 0.0,
            restarts: 0,
            span_s: Some(1.0),
            throughput_pct: Some(1.0),
            heap_max_kb: Some(1),
            pause_target_ms: Some(1.0),
            pauses_over_target: Some(0),
            pauses_over_target_pct: Some(0.0),
            stalls: Default::default(),
            diag: None,
            pause_ms_sketch: None,
        };
        let v = serde_json::to_value(&g).unwrap();
        for (k, x) in v.as_object().unwrap() {
            if x.is_number() {
                assert!(GC_KEYS.contains(&k.as_str()), "{k}");
            }
        }
        // Every key but the sketch (a distribution, not a figure to judge) is a metric.
        assert_eq!(v.as_object().unwrap().len(), GC_KEYS.len() + 1);
        assert!(v["pause_ms_sketch"].is_null());
    }

    #[test]
    fn verdicts_are_exact_at_the_limit() {
        let o = parse(&["p99<=40".into(), "p99<40".into(), "max>=40ms".into()]).unwrap();
        let g = GcSummary {
            collections: 1,
            pauses: 1,
            pause_total_ms: Some(40.0),
            pause_max_ms: Some(40.0),
            pause_mean_ms: Some(40.0),
            pause_p50_ms: Some(40.0),
            pause_p95_ms: Some(40.0),
            // f64 arithmetic's 40: judged as printed.
            pause_p99_ms: Some(0.1 * 400.0 + 1e-14),
            full_collections: 0,
            concurrent_phases: 0,
            safepoint_pauses: 0,
            safepoint_total_ms: 0.0,
            restarts: 0,
            span_s: None,
            throughput_pct: None,
            heap_max_kb: None,
            pause_target_ms: None,
            pauses_over_target: None,
            pauses_over_target_pct: None,
            stalls: Default::default(),
            diag: None,
            pause_ms_sketch: None,
        };
        let v = evaluate(&o, Some(&g), None, false);
        let pass: Vec<bool> = v.iter().map(|v| v.pass).collect();
        assert_eq!(pass, vec![true, false, true]);
        assert_eq!(v[0].value, Some(40.0));
        // No figure: the objective fails, never passes silently.
        let o = parse(&["pauses_over_target==0".into()]).unwrap();
        let v = evaluate(&o, Some(&g), None, false);
        assert_eq!((v[0].value, v[0].pass), (None, false));
    }
}
