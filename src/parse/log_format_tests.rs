//! Tests of `log_format.rs`: each kind of format with figures worked out by hand.

use super::*;

fn read(spec: &str, buf: &[u8]) -> PerfLog {
    let f = LogFormat::parse(spec).unwrap();
    parse(&f, buf, Rules::DEFAULT)
}

/// (operation, ms, end, error).
fn rows(log: &PerfLog) -> Vec<(String, f64, i64, Option<String>)> {
    log.records
        .iter()
        .map(|r| {
            (
                log.strings.get(r.operation).to_string(),
                r.total_ms,
                r.end_ms,
                r.error.map(|e| log.strings.get(e).to_string()),
            )
        })
        .collect()
}

fn row(op: &str, ms: f64, end: i64, e: Option<&str>) -> (String, f64, i64, Option<String>) {
    (op.to_string(), ms, end, e.map(str::to_string))
}

/// Apache `%D` is µs and `%t` the start: 12:00:00 at -0200 is 14:00:00 UTC
/// (1709647200000 = `date -u -d '2024-03-05 14:00:00' +%s` × 1000), plus 250 ms (250000
/// µs); the second line's 503 failed, 1.5 s (1500000 µs) after 12:00:01.
#[test]
fn apache_d_is_microseconds_from_the_start() {
    let log = read(
        r#"apache:%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D"#,
        b"10.0.0.1 - - [05/Mar/2024:12:00:00 -0200] \"GET /products/42?x=1 HTTP/1.1\" 200 512 \"-\" \"curl/8\" 250000\n\
          10.0.0.2 - bob [05/Mar/2024:12:00:01 -0200] \"POST /orders HTTP/1.1\" 503 0 \"https://a.b/\" \"Mozilla/5.0 (X11)\" 1500000\n\
          not a line of it\n",
    );
    assert_eq!(
        rows(&log),
        [
            row("GET /products/{id}", 250.0, 1709647200250, None),
            row("POST /orders", 1500.0, 1709647202500, Some("503")),
        ]
    );
    assert_eq!((log.lines, log.record_lines, log.skipped_lines), (3, 2, 1));
    assert_eq!(log.bad[0].line, 3);
}

/// Apache `%{ms}T` and `%T` (whole seconds).
#[test]
fn apache_t_units() {
    let line = b"h - - [05/Mar/2024:14:00:00 +0000] \"GET / HTTP/1.1\" 200 7\n";
    let ms = read(r#"apache:%h %l %u %t "%r" %>s %{ms}T"#, line);
    // 7 ms after 14:00:00 UTC.
    assert_eq!(rows(&ms), [row("GET /", 7.0, 1709647200007, None)]);
    let s = read(r#"apache:%h %l %u %t "%r" %>s %T"#, line);
    assert_eq!(rows(&s), [row("GET /", 7000.0, 1709647207000, None)]);
}

/// Tomcat `%D` is ms: 120 ms after 10:00:00 +0100 (09:00:00 UTC = 1709629200000).
#[test]
fn tomcat_d_is_milliseconds() {
    let log = read(
        r#"tomcat:%h %l %u %t "%r" %s %b %D"#,
        b"10.0.0.1 - - [05/Mar/2024:10:00:00 +0100] \"GET /api/users/7 HTTP/1.1\" 404 - 120\n",
    );
    assert_eq!(
        rows(&log),
        [row("GET /api/users/{id}", 120.0, 1709629200120, None)]
    );
}

/// nginx: `$request_time` in s and `$time_local` the end; without it the upstreams' list
/// summed (0.100 + 0.004 = 104 ms), `-` none (skipped).
#[test]
fn nginx_request_and_upstream_times() {
    let log = read(
        r#"nginx:$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time"#,
        b"10.0.0.1 - - [05/Mar/2024:14:00:00 +0000] \"GET /a/1 HTTP/1.1\" 500 12 \"-\" \"curl\" 0.250\n",
    );
    assert_eq!(
        rows(&log),
        [row("GET /a/{id}", 250.0, 1709647200000, Some("500"))]
    );
    let log = read(
        r#"nginx:$remote_addr [$time_local] "$request" $status $upstream_response_time"#,
        b"10.0.0.1 [05/Mar/2024:14:00:00 +0000] \"GET / HTTP/1.1\" 200 0.100, 0.004\n\
          10.0.0.1 [05/Mar/2024:14:00:01 +0000] \"GET / HTTP/1.1\" 200 -\n",
    );
    assert_eq!(rows(&log), [row("GET /", 104.0, 1709647200000, None)]);
    assert_eq!(log.skipped_lines, 1);
    let log = read(
        r#"nginx:$msec $request_method $request_uri $status $request_time"#,
        b"1709647200.500 GET /x?y 200 0.010\n",
    );
    assert_eq!(rows(&log), [row("GET /x", 10.0, 1709647200500, None)]);
}

/// `regex:` with named groups: an ISO time with its offset, µs.
#[test]
fn regex_named_groups() {
    let log = read(
        r"regex:^(?P<time>\S+) (?P<method>\S+) (?P<path>\S+) (?P<status>\d+) (?P<elapsed_us>\d+)$",
        b"2024-03-05T16:00:00.250+02:00 GET /p/3 200 1500\n",
    );
    assert_eq!(rows(&log), [row("GET /p/{id}", 1.5, 1709647200250, None)]);
}

/// Bad formats are refused, naming the problem.
#[test]
fn bad_formats_name_the_problem() {
    let err = |s: &str| LogFormat::parse(s).err().unwrap();
    assert!(err("apache").contains("KIND:FORMAT"));
    assert!(err("iis:%h").contains("not a --log-format kind"));
    assert!(err(r#"apache:%h %t "%r" %>s %b"#).contains("no field of the request's time"));
    assert!(err("tomcat:combined").contains("no field of the request's time"));
    assert!(err("nginx:combined").contains("no field of the request's time"));
    assert!(err("apache:%h %t %D %Z").contains("%Z: not a directive"));
    assert!(err("apache:%h %{%d/%b}t %D").contains("only %t"));
    assert!(err("regex:(?P<elapsed_ms>").starts_with("regex: "));
    assert!(err(r"regex:(?P<elapsed_ms>\d+)").contains("no group time"));
    assert!(err("apache:%h %D").contains("no time"));
}

/// A common log is refused without its format, saying which to give.
#[test]
fn common_logs_are_refused_saying_what_to_give() {
    let timed =
        b"h - - [30/Jan/2014:10:28:30 -0200] \"POST /a HTTP/1.1\" 200 2732 8266\n".repeat(3);
    assert!(common_log_refusal(&timed)
        .unwrap()
        .contains("--log-format 'apache:"));
    let combined =
        b"h - - [20/Jul/2009:22:59:26 +0000] \"GET /a HTTP/1.0\" 200 134 \"-\" \"gPXE/0.9.7\"\n"
            .repeat(3);
    assert!(common_log_refusal(&combined)
        .unwrap()
        .contains("writes no request time"));
    assert!(common_log_refusal(b"[GC 100K->50K(200K), 0.01 secs]\n").is_none());
}

/// Tomcat 10's µs `%D` given as `%{us}T`: 120000 µs = 120 ms; Tomcat's `%T` is seconds with
/// a fraction (0.125 s = 125 ms); both after 10:00:00 +0100 = 09:00:00 UTC.
#[test]
fn tomcat_us_and_fractional_seconds() {
    let line = b"10.0.0.1 - - [05/Mar/2024:10:00:00 +0100] \"GET / HTTP/1.1\" 200 - 120000\n";
    let log = read(r#"tomcat:%h %l %u %t "%r" %s %b %{us}T"#, line);
    assert_eq!(rows(&log), [row("GET /", 120.0, 1709629200120, None)]);
    let line = b"10.0.0.1 - - [05/Mar/2024:10:00:00 +0100] \"GET / HTTP/1.1\" 200 - 0.125\n";
    let log = read(r#"tomcat:%h %l %u %t "%r" %s %b %T"#, line);
    assert_eq!(rows(&log), [row("GET /", 125.0, 1709629200125, None)]);
}

/// nginx's `$time_iso8601` is the end, its offset applied: 16:00:00+02:00 is 14:00 UTC.
#[test]
fn nginx_iso_time_is_the_end() {
    let log = read(
        r#"nginx:$time_iso8601 "$request" $status $request_time"#,
        b"2024-03-05T16:00:00+02:00 \"DELETE /carts/5 HTTP/2.0\" 204 0.002\n",
    );
    assert_eq!(
        rows(&log),
        [row("DELETE /carts/{id}", 2.0, 1709647200000, None)]
    );
}
