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
/// one of these names would make one name mean two things.
pub fn reserved(key: &str) -> bool {
    const OTHERS: [&str; 24] = [
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
