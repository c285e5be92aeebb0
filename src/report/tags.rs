//! `--tag KEY=VALUE`: constant identifiers (host, run, build) on every row a command writes,
//! so that the outputs of many hosts or runs can be put together and told apart. A command
//! sets them once (`set`); every table written through `Output::writer` gets a column per tag
//! after its `file` column (first where it has none), and every JSON object `json` writes at
//! the top (or in its top-level array) a field per tag. Parquet export adds them as columns
//! itself (`report::export`).

use super::Table;
use std::sync::RwLock;

static TAGS: RwLock<Vec<(String, String)>> = RwLock::new(Vec::new());

/// The tags of this run's outputs (none: outputs as they always were).
pub fn set(tags: &[(String, String)]) {
    if let Ok(mut t) = TAGS.write() {
        *t = tags.to_vec();
    }
}

/// The tags set, in the order given.
pub fn get() -> Vec<(String, String)> {
    TAGS.read().map(|t| t.clone()).unwrap_or_default()
}

/// Names gcperf's own tables, JSON objects and Parquet files use for their columns: a tag of
/// one of these names would make one name mean two things (two columns of one name, a JSON
/// field written over).
pub fn reserved(key: &str) -> bool {
    const OTHERS: &[&str] = &[
        "label",
        "section",
        "metric",
        "operation",
        "cause",
        "finding",
        "band",
        "start",
        "count",
        "objective",
        "value",
        "op",
        "limit",
        "unit",
        "pass",
        "kind",
        "gc",
        "perf",
        "slo",
        "tags",
        "message",
        "records",
        "part",
        "interval",
        // The other tables' columns (`perf --by`, `gc --by`, `correlate`, the verdicts, a
        // command's list of files written): tests/options_used.rs checks every header is here.
        "band_ms",
        "collection_pause_max_ms",
        "collection_pause_mean_ms",
        "covered_s",
        "db_calls_sum",
        "db_mean_ms",
        "db_ms_in_slow",
        "db_ms_mean",
        "db_share_of_slow_pct",
        "errors_pct",
        "fast_with_gc",
        "first_lines",
        "gc_log",
        "gc_ms_in_slow",
        "gc_ms_in_slow_mean",
        "gc_share_of_slow_pct",
        "java_mean_ms",
        "java_ms_mean",
        "longest_pause_ms",
        "longest_pause_requests",
        "longest_pause_start",
        "max_ms",
        "mean_ms",
        "min_ms",
        "operations",
        "p50_ms",
        "p90_ms",
        "p95_ms",
        "p99_ms",
        "p99_without_gc_ms",
        "path",
        "pause_ms",
        "pauses_hitting_requests",
        "per_s",
        "requests_pct",
        "scope",
        "share_pct",
        "slow",
        "slow_only_by_gc",
        "slow_requests",
        "slow_total_ms",
        "slow_with_gc",
        "slow_with_gc_pct",
        "start_s",
        "sum_ms",
        "total_ms_min",
        "ttsp_ms",
        "verdict",
        "wall_time",
    ];
    let summary = super::summary::all_columns();
    OTHERS.contains(&key)
        || key.starts_with("over_")
        || summary.iter().any(|c| c == key)
        || super::export::GC_COLUMNS.iter().any(|c| c.name == key)
        || super::export::PERF_COLUMNS.iter().any(|c| c.name == key)
        || super::export::FILES_COLUMNS.iter().any(|c| c.name == key)
}

/// `t` with a column per tag after its `file` column (first where it has none); `t` itself
/// when no tags are set.
pub fn table(t: &Table) -> std::borrow::Cow<'_, Table> {
    let tags = get();
    if tags.is_empty() {
        return std::borrow::Cow::Borrowed(t);
    }
    let at = t
        .headers
        .iter()
        .position(|h| h == "file")
        .map_or(0, |i| i + 1);
    let mut out = t.clone();
    for (k, (key, value)) in tags.iter().enumerate() {
        out.headers.insert(at + k, key.clone());
        out.numeric.insert(at + k, false);
        for r in &mut out.rows {
            r.insert((at + k).min(r.len()), value.clone());
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A JSON value with the tags as fields of its object, or of each object of its array.
pub fn json(mut v: serde_json::Value) -> serde_json::Value {
    let tags = get();
    let put = |o: &mut serde_json::Map<String, serde_json::Value>| {
        for (k, val) in &tags {
            o.insert(k.clone(), serde_json::Value::String(val.clone()));
        }
    };
    match &mut v {
        serde_json::Value::Object(o) => put(o),
        serde_json::Value::Array(a) => a
            .iter_mut()
            .filter_map(serde_json::Value::as_object_mut)
            .for_each(put),
        _ => {}
    }
    v
}
