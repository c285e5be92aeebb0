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
//!
//! k6's `--out csv` holds the same samples a row each (`metric_name,timestamp,metric_value,
//! check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,
//! ...`, columns found by the header's names, k6's order without one): the `http_req_duration`
//! rows are the requests, read as the JSON's points; the timestamp is Unix seconds (k6's
//! default `timeFormat`; milli-, micro- and nanoseconds by their digits, or RFC 3339), so
//! a request's end is known to the second only where the log was written so.

use super::family::{Handle, OwnedStart, PerfBlock, PerfFamily, PerfFormat};
use super::limits::{cap_label, MAX_WALL_MS};
use super::lines::lines;
use super::num::trim;
use super::perf::{csv_block, csv_record, unescape_field, CsvRow, Field};
use crate::model::{PerfLog, PerfRecord, MAX_DURATION_MS};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::HashMap;

/// k6's JSON output (`--out json`).
pub const FAMILY: PerfFormat = Handle(&K6Json);

/// k6's CSV output (`--out csv`).
pub const CSV: PerfFormat = Handle(&K6Csv);

struct K6Json;
struct K6Csv;

/// The metric whose points are requests.
const REQUEST_METRIC: &[u8] = b"http_req_duration";

impl PerfFamily for K6Json {
    fn name(&self) -> &'static str {
        "k6-json"
    }
    fn about(&self) -> &'static str {
        "k6 `--out json` results"
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
        PerfBlock::from(parse(buf))
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

/// A request's error key where it failed: failed where `expected` (k6's `expected_response`)
/// is `false`, or without it (k6 before 0.31) where the status is 0 or 400 and over; the key
/// is k6's error text where it wrote one, else the status.
fn failure(
    expected: Option<String>,
    status: Option<String>,
    error: Option<String>,
) -> Option<String> {
    let failed = match expected.as_deref() {
        Some("false") => true,
        Some(_) => false,
        None => status
            .as_deref()
            .and_then(|s| s.parse::<u32>().ok())
            .is_some_and(|s| s == 0 || s >= 400),
    };
    failed.then(|| error.or(status).unwrap_or_else(|| "failed".into()))
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
        let error = failure(
            tag(tags, "expected_response"),
            tag(tags, "status"),
            tag(tags, "error").filter(|e| !e.is_empty()),
        );
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
        // Most lines are other metrics' points: told from their head alone, and read whole
        // (once) only where they may be a request.
        let o = if memchr::memmem::find(line, REQUEST_METRIC).is_some() {
            object(line)
        } else {
            head(line).map(|h| Object {
                kind: h.kind,
                metric: h.metric,
                data: None,
            })
        };
        let Some(o) = o else {
            log.skip(no, line);
            continue;
        };
        match request(&o) {
            None => log.ignored_lines += 1,
            Some(None) => log.skip(no, line),
            Some(Some(r)) => {
                push(&mut log, r, no);
                log.record_lines += 1;
            }
        }
    }
    log.lines = it.line_no();
    log
}

impl PerfFamily for K6Csv {
    fn name(&self) -> &'static str {
        "k6-csv"
    }
    fn about(&self) -> &'static str {
        "k6 `--out csv` results"
    }

    /// Its header, or a request's row in k6's order.
    fn recognises(&self, line: &[u8]) -> bool {
        let mut fields = Vec::new();
        CsvCols::of_header(line, &mut fields).is_some()
            || (line.starts_with(b"http_req_duration,")
                && csv_row(line, &mut fields, &CsvCols::DEFAULT).is_some())
    }

    /// Its header and request rows: no GC log writes a line starting so.
    fn owns(&self, line: &[u8]) -> bool {
        line.starts_with(b"metric_name,timestamp,") || line.starts_with(b"http_req_")
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"mh")
    }

    fn parse_block(&self, header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock {
        parse_csv(header, buf, last)
    }
}

/// Where a k6 CSV's columns are.
#[derive(Debug, Clone, Copy)]
struct CsvCols {
    metric: usize,
    time: usize,
    value: usize,
    error: Option<usize>,
    expected: Option<usize>,
    name: Option<usize>,
    status: Option<usize>,
    url: Option<usize>,
}

impl CsvCols {
    /// k6's order (`metric_name,timestamp,metric_value,check,error,error_code,
    /// expected_response,group,method,name,proto,scenario,service,status,subproto,
    /// tls_version,url,extra_tags`).
    const DEFAULT: CsvCols = CsvCols {
        metric: 0,
        time: 1,
        value: 2,
        error: Some(4),
        expected: Some(6),
        name: Some(9),
        status: Some(13),
        url: Some(16),
    };

    /// `line` is a header naming `metric_name`, `timestamp` and `metric_value`: its columns.
    fn of_header(line: &[u8], fields: &mut Vec<Field>) -> Option<CsvCols> {
        if !line.starts_with(b"metric_name,")
            && crate::parse::num::find(line, b"metric_name").is_none()
        {
            return None;
        }
        csv_record(line, 0, false, b',', fields)
            .ok()
            .filter(|r| !r.too_many)?;
        let find = |name: &[u8]| {
            fields
                .iter()
                .position(|f| line.get(f.start..f.end).is_some_and(|t| trim(t) == name))
        };
        Some(CsvCols {
            metric: find(b"metric_name")?,
            time: find(b"timestamp")?,
            value: find(b"metric_value")?,
            error: find(b"error"),
            expected: find(b"expected_response"),
            name: find(b"name"),
            status: find(b"status"),
            url: find(b"url"),
        })
    }
}

/// A k6 timestamp as epoch ms: Unix seconds, milli-, micro- or nanoseconds by its digits, or
/// an RFC 3339 instant.
fn csv_time_ms(f: &[u8]) -> Option<i64> {
    if f.iter().all(u8::is_ascii_digit) {
        let v: i64 = std::str::from_utf8(f).ok()?.parse().ok()?;
        let ms = match f.len() {
            9..=10 => v.checked_mul(1000)?,
            12..=13 => v,
            15..=16 => v / 1000,
            18..=19 => v / 1_000_000,
            _ => return None,
        };
        return (0..=MAX_WALL_MS).contains(&ms).then_some(ms);
    }
    instant_ms(std::str::from_utf8(f).ok()?)
}

/// A row of `fields` (split from `buf`) read by `cols`: `None` if it is not one of k6's rows;
/// `Some(None)` for a row of another metric, `Some(Some(_))` for a request.
fn csv_row(buf: &[u8], fields: &mut Vec<Field>, cols: &CsvCols) -> Option<Option<Request>> {
    csv_record(buf, 0, false, b',', fields)
        .ok()
        .filter(|r| !r.too_many)?;
    csv_request(buf, fields, cols)
}

/// `csv_row` of fields already split.
fn csv_request(buf: &[u8], fields: &[Field], cols: &CsvCols) -> Option<Option<Request>> {
    // A field as it stands (k6 quotes only texts with commas, quotes or line ends): the
    // rows of other metrics, most of a log, are read without a copy.
    let raw = |i: usize| -> Option<Cow<'_, [u8]>> {
        let f = *fields.get(i)?;
        if !f.escaped {
            return buf.get(f.start..f.end).map(|t| Cow::Borrowed(trim(t)));
        }
        let mut out = Vec::new();
        unescape_field(buf, f, &mut out);
        Some(Cow::Owned(trim(&out).to_vec()))
    };
    let text = |i: usize| raw(i).map(|t| String::from_utf8_lossy(&t).into_owned());
    let metric = raw(cols.metric)?;
    let end_ms = csv_time_ms(&raw(cols.time)?)?;
    let value: f64 = std::str::from_utf8(&raw(cols.value)?).ok()?.parse().ok()?;
    if *metric != *REQUEST_METRIC {
        let known = !metric.is_empty()
            && metric
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'{' || b == b'}');
        return (known && value.is_finite()).then_some(None);
    }
    if !(0.0..=MAX_DURATION_MS).contains(&value) {
        return None;
    }
    let opt = |i: Option<usize>| i.and_then(text).filter(|t| !t.is_empty());
    let error = failure(opt(cols.expected), opt(cols.status), opt(cols.error));
    Some(Some(Request {
        end_ms,
        ms: value,
        name: opt(cols.name).or_else(|| opt(cols.url)).unwrap_or_default(),
        error,
    }))
}

fn parse_csv(header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock {
    let cols = header
        .and_then(|h| CsvCols::of_header(h, &mut Vec::new()))
        .unwrap_or(CsvCols::DEFAULT);
    let mut state = (cols, header.map(<[u8]>::to_vec));
    let (log, unread) = csv_block(
        buf,
        last,
        &mut state,
        |_| b',',
        |(cols, in_effect), log, fields, text, line| match fields
            .and_then(|f| csv_request(buf, f, cols))
        {
            Some(Some(r)) => {
                push(log, r, line);
                CsvRow::Record
            }
            Some(None) => CsvRow::Ignored,
            None => match CsvCols::of_header(text, &mut Vec::new()) {
                Some(c) => {
                    *cols = c;
                    *in_effect = Some(text.to_vec());
                    CsvRow::Ignored
                }
                None => CsvRow::Skipped,
            },
        },
    );
    PerfBlock {
        log,
        header: state.1,
        unread,
    }
}

/// A request onto the log.
fn push(log: &mut PerfLog, r: Request, line: u64) {
    let operation = log.strings.intern_bytes(cap_label(r.name.as_bytes()));
    let error = r
        .error
        .as_ref()
        .map(|e| log.strings.intern_bytes(cap_label(e.as_bytes())));
    log.records.push(PerfRecord::request(
        r.end_ms,
        r.ms,
        operation,
        error.is_none(),
        error,
        line,
    ));
}

#[cfg(test)]
#[path = "k6_tests.rs"]
mod tests;
