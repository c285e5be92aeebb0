//! k6's `--out json` results: one JSON object a line, a `Metric` declaration or a `Point`
//! (one sample of one metric, with its tags):
//!
//! ```text
//! {"type":"Metric","data":{"name":"http_req_duration","type":"trend",...},"metric":"http_req_duration"}
//! {"metric":"http_req_duration","type":"Point","data":{"time":"2024-08-22T01:14:12.707865571-03:00",
//!  "value":12812.010514,"tags":{"expected_response":"true","method":"POST","name":"http://...",
//!  "status":"200",...}}}
//! ```
//!
//! Each `http_req_duration` point is a request: its value the time in ms, its `time` when it
//! ended (k6 stamps an HTTP request's samples with its end), its `name` tag the operation (the
//! URL unless the script names it). It failed where `expected_response` is `false` (k6's
//! `http_req_failed`), or, in logs of k6 before that tag, where its status is 0 or 400 and
//! over; its error is its `error` tag where k6 wrote one, else its status (`404`), as k6's
//! summary keys them. The other points (the request's phases, checks, iterations, virtual
//! users) and the declarations are lines of the format carrying no request; a line that is
//! not a k6 object is skipped and counted.

use super::family::{Handle, OwnedStart, PerfBlock, PerfFamily, PerfFormat};
use super::limits::{cap_label, MAX_WALL_MS};
use super::lines::lines;
use super::num::trim;
use crate::model::{PerfLog, PerfRecord, MAX_DURATION_MS};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::HashMap;

/// k6's JSON output (`--out json`).
pub const FAMILY: PerfFormat = Handle(&K6Json);

struct K6Json;

/// The metric whose points are requests.
const REQUEST_METRIC: &[u8] = b"http_req_duration";

impl PerfFamily for K6Json {
    fn name(&self) -> &'static str {
        "k6-json"
    }

    /// A k6 object: a metric's declaration or one of its points.
    fn recognises(&self, line: &[u8]) -> bool {
        head(line).is_some()
    }

    /// Its objects start `{"type":` or `{"metric":`; no GC log writes such a line.
    fn owns(&self, line: &[u8]) -> bool {
        line.starts_with(b"{\"type\":\"") || line.starts_with(b"{\"metric\":\"")
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"{")
    }

    fn parse_block(&self, _header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        PerfBlock {
            log: parse(buf),
            ..PerfBlock::default()
        }
    }

    /// A record is one line: a block may start at any line.
    fn streams(&self) -> bool {
        true
    }

    /// Instants with their offsets, kept as UTC.
    fn utc(&self) -> bool {
        true
    }
}

/// One line's object, as far as it is read.
#[derive(Deserialize)]
struct Object<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    metric: Cow<'a, str>,
    #[serde(borrow)]
    data: Option<Data<'a>>,
}

#[derive(Deserialize)]
struct Data<'a> {
    #[serde(borrow)]
    time: Option<Cow<'a, str>>,
    value: Option<f64>,
    #[serde(borrow, default)]
    tags: Option<HashMap<Cow<'a, str>, serde_json::Value>>,
}

/// A line's object without its data (which is passed over, not kept).
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    metric: Cow<'a, str>,
}

/// `line` is a k6 object: a `Metric` or a `Point` naming its metric.
fn head(line: &[u8]) -> Option<Head<'_>> {
    let line = trim(line);
    if line.first() != Some(&b'{') {
        return None;
    }
    let h: Head = serde_json::from_slice(line).ok()?;
    matches!(&*h.kind, "Metric" | "Point").then_some(h)
}

/// `line`'s k6 object, data and all.
fn object(line: &[u8]) -> Option<Object<'_>> {
    let o: Object = serde_json::from_slice(trim(line)).ok()?;
    matches!(&*o.kind, "Metric" | "Point").then_some(o)
}

/// One request's figures.
#[derive(Debug, PartialEq)]
struct Request {
    end_ms: i64,
    ms: f64,
    name: String,
    /// `None` where it succeeded, else its error's key.
    error: Option<String>,
}

/// A tag's text (k6 writes them as strings; a number or a boolean as written).
fn tag(tags: &HashMap<Cow<'_, str>, serde_json::Value>, name: &str) -> Option<String> {
    match tags.get(name)? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Null => None,
        v => Some(v.to_string()),
    }
}

/// An RFC 3339 instant (`2024-08-22T01:14:12.707865571-03:00`) as epoch ms, rounded down.
fn instant_ms(s: &str) -> Option<i64> {
    let t = chrono::DateTime::parse_from_rfc3339(s).ok()?;
    let ms = t.timestamp_millis();
    (0..=MAX_WALL_MS).contains(&ms).then_some(ms)
}

/// The request an `http_req_duration` point is; `None` for any other object, `Some(None)` for
/// such a point whose figures cannot be true.
fn request(o: &Object) -> Option<Option<Request>> {
    if o.kind != "Point" || o.metric.as_bytes() != REQUEST_METRIC {
        return None;
    }
    let read = || {
        let data = o.data.as_ref()?;
        let ms = data.value.filter(|v| (0.0..=MAX_DURATION_MS).contains(v))?;
        let end_ms = instant_ms(data.time.as_deref()?)?;
        let empty = HashMap::new();
        let tags = data.tags.as_ref().unwrap_or(&empty);
        let status = tag(tags, "status");
        let failed = match tag(tags, "expected_response").as_deref() {
            Some("false") => true,
            Some(_) => false,
            None => status
                .as_deref()
                .and_then(|s| s.parse::<u32>().ok())
                .is_some_and(|s| s == 0 || s >= 400),
        };
        let error = failed.then(|| {
            tag(tags, "error")
                .filter(|e| !e.is_empty())
                .or(status.clone())
                .unwrap_or_else(|| "failed".into())
        });
        let name = tag(tags, "name")
            .or_else(|| tag(tags, "url"))
            .unwrap_or_default();
        Some(Request {
            end_ms,
            ms,
            name,
            error,
        })
    };
    Some(read())
}

fn parse(buf: &[u8]) -> PerfLog {
    let mut log = PerfLog::default();
    let mut it = lines(buf);
    // Empty lines are passed over in bulk: a flood of them costs what skipping it costs.
    while let Some((no, line)) = it.next_after_empty(&mut log.ignored_lines) {
        if trim(line).is_empty() {
            log.ignored_lines += 1;
            continue;
        }
        // Most lines are other metrics' points: told from their head alone.
        let Some(h) = head(line) else {
            log.skip(no, line);
            continue;
        };
        if h.kind != "Point" || h.metric.as_bytes() != REQUEST_METRIC {
            log.ignored_lines += 1;
            continue;
        }
        let Some(o) = object(line) else {
            log.skip(no, line);
            continue;
        };
        match request(&o) {
            None => log.ignored_lines += 1,
            Some(None) => log.skip(no, line),
            Some(Some(r)) => {
                let operation = log.strings.intern_bytes(cap_label(r.name.as_bytes()));
                let error = r
                    .error
                    .as_ref()
                    .map(|e| log.strings.intern_bytes(cap_label(e.as_bytes())));
                log.records.push(PerfRecord {
                    end_ms: r.end_ms,
                    total_ms: r.ms,
                    java_ms: None,
                    db_ms: None,
                    db_calls: None,
                    operation,
                    ok: error.is_none(),
                    inconsistent: false,
                    line: no,
                    error,
                });
                log.record_lines += 1;
            }
        }
    }
    log.lines = it.line_no();
    log
}

#[cfg(test)]
#[path = "k6_tests.rs"]
mod tests;
