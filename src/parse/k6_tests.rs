//! Tests of `k6.rs`. Figures worked out by hand from `fixtures/k6-json/results.json` (instants
//! as epoch ms with Python's `datetime.fromisoformat`).

use super::*;

fn read() -> PerfLog {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/k6-json/results.json");
    parse(&std::fs::read(path).unwrap())
}

#[test]
fn requests_are_the_http_req_duration_points() {
    let log = read();
    let rows: Vec<_> = log
        .records
        .iter()
        .map(|r| {
            (
                log.strings.get(r.operation).to_string(),
                r.total_ms,
                r.end_ms,
                r.error.map(|e| log.strings.get(e).to_string()),
            )
        })
        .collect();
    let row = |n: &str, ms: f64, end: i64, e: Option<&str>| {
        (n.to_string(), ms, end, e.map(str::to_string))
    };
    assert_eq!(
        rows,
        [
            row("home", 120.5, 1724300040500, None),
            // `expected_response` false: the status is the error.
            row("login", 80.0, 1724300041250, Some("404")),
            // k6's own error text where it wrote one.
            row("pay", 60000.0, 1724300101000, Some("request timeout")),
            // No `expected_response` (k6 before 0.31): 400 and over failed.
            row("legacy", 10.0, 1724300102000, Some("500")),
            // No `name`: the URL.
            row("http://shop/unnamed", 200.25, 1724300103500, None),
        ]
    );
    assert!(log.records.iter().all(|r| r.ok == r.error.is_none()));
    // 3 declarations and 3 other points are the format's; a line of no k6 object and a
    // request of negative time are skipped.
    assert_eq!(
        (
            log.lines,
            log.record_lines,
            log.ignored_lines,
            log.skipped_lines
        ),
        (13, 5, 6, 2)
    );
    assert_eq!(log.bad.iter().map(|b| b.line).collect::<Vec<_>>(), [12, 13]);
}

#[test]
fn recognised_owned_and_not() {
    let k = &K6Json;
    assert!(k.recognises(br#"{"type":"Metric","data":{"name":"vus"},"metric":"vus"}"#));
    assert!(k.recognises(br#"{"metric":"vus","type":"Point","data":{"time":"2024-08-22T01:14:00Z","value":1,"tags":{}}}"#));
    assert!(!k.recognises(br#"{"type":"Other","metric":"vus"}"#));
    assert!(!k.recognises(br#"{"level":"info","msg":"hello"}"#));
    assert!(!k.recognises(b"{not json"));
    assert!(k.owns(br#"{"metric":"vus","type":"Point"}"#));
    assert!(!k.owns(b"[GC 123K->45K(1024K), 0.0012 secs]"));
}

#[test]
fn instants_with_offsets() {
    assert_eq!(instant_ms("1970-01-01T00:00:01.999999999Z"), Some(1999));
    assert_eq!(instant_ms("1970-01-01T01:00:00+01:00"), Some(0));
    assert_eq!(instant_ms("1969-12-31T23:59:59Z"), None);
    assert_eq!(instant_ms("yesterday"), None);
}

#[test]
fn csv_requests_are_the_http_req_duration_rows() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/k6-csv/results.csv");
    let log = parse_csv(None, &std::fs::read(path).unwrap(), true).log;
    let rows: Vec<_> = log
        .records
        .iter()
        .map(|r| {
            (
                log.strings.get(r.operation).to_string(),
                r.total_ms,
                r.end_ms,
                r.error.map(|e| log.strings.get(e).to_string()),
            )
        })
        .collect();
    let row = |n: &str, ms: f64, end: i64, e: Option<&str>| {
        (n.to_string(), ms, end, e.map(str::to_string))
    };
    assert_eq!(
        rows,
        [
            row("home", 120.5, 1724300040000, None),
            row("login", 80.0, 1724300041000, Some("404")),
            // The error's text quoted, a comma inside.
            row(
                "pay",
                60000.0,
                1724300101000,
                Some("request timeout, after 60s")
            ),
        ]
    );
    // The header and four other metrics' rows are the format's; a row of no metric and a
    // request of negative time are skipped.
    assert_eq!(
        (
            log.lines,
            log.record_lines,
            log.ignored_lines,
            log.skipped_lines
        ),
        (10, 3, 5, 2)
    );
}

#[test]
fn csv_columns_by_the_header_and_stamps_by_their_digits() {
    let buf = b"timestamp,metric_value,metric_name,status\n\
        1724300040123,5.5,http_req_duration,500\n\
        1724300040123456,6.5,http_req_duration,200\n\
        2024-08-22T04:14:00.5Z,7.5,http_req_duration,200\n";
    let log = parse_csv(None, buf, true).log;
    let got: Vec<_> = log
        .records
        .iter()
        .map(|r| (r.end_ms, r.total_ms, r.ok))
        .collect();
    // No `expected_response` column: a 500 failed. No name or url: an empty operation.
    assert_eq!(
        got,
        [
            (1724300040123, 5.5, false),
            (1724300040123, 6.5, true),
            (1724300040500, 7.5, true)
        ]
    );
    assert_eq!(csv_time_ms(b"1724300040"), Some(1724300040000));
    assert_eq!(csv_time_ms(b"1724300040123456789"), Some(1724300040123));
    assert_eq!(csv_time_ms(b"17243"), None);
}
