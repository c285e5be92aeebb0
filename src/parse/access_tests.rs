//! Tests of `access.rs`. Figures worked out by hand from `fixtures/access-*/` (instants as
//! epoch ms with `date -u -d '2024-03-05 10:00:01' +%s` = 1709632801).

use super::*;

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn read(f: PerfFormat, buf: &[u8], rules: Rules) -> PerfLog {
    match f.as_str() {
        "access-iis" => parse_iis(None, buf, rules).log,
        "access-haproxy" => parse_lines(buf, rules, haproxy_line),
        "access-uwsgi" => parse_lines(buf, rules, uwsgi_line),
        "access-caddy" => parse_lines(buf, rules, caddy_line),
        other => panic!("{other}"),
    }
}

/// (operation, ms, end, error) of every record.
type Row = (String, f64, i64, Option<String>);

fn rows(log: &PerfLog) -> Vec<Row> {
    log.records
        .iter()
        .map(|r| {
            assert_eq!(r.ok, r.error.is_none());
            (
                log.strings.get(r.operation).to_string(),
                r.total_ms,
                r.end_ms,
                r.error.map(|e| log.strings.get(e).to_string()),
            )
        })
        .collect()
}

fn row(op: &str, ms: f64, end: i64, e: Option<&str>) -> Row {
    (op.to_string(), ms, end, e.map(str::to_string))
}

fn counts(log: &PerfLog) -> (u64, u64, u64, u64) {
    (
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines,
    )
}

fn mean_max(log: &PerfLog) -> (f64, f64) {
    let sum: f64 = log.records.iter().map(|r| r.total_ms).sum();
    let max = log.records.iter().map(|r| r.total_ms).fold(0.0, f64::max);
    (sum / log.records.len() as f64, max)
}

/// Two `#Fields:` headers: the second, shorter one reads the lines after it. 4 directives
/// and the header, then 4 requests, a `#Date` and a new header, then 2 requests: 12 lines, 6
/// records, 6 ignored. Times 120+80+1500+15+300+5 = 2020 ms: mean 336.67, max 1500; 503 and
/// 500 are the errors (404 is not); `date`/`time` are UTC and the end.
#[test]
fn iis_fields_headers_read_the_lines_after_them() {
    let log = read(
        IIS,
        &fixture("fixtures/access-iis/u_ex240305.log"),
        Rules::DEFAULT,
    );
    assert_eq!(counts(&log), (12, 6, 6, 0));
    assert_eq!(
        rows(&log),
        [
            row("GET /products/{id}", 120.0, 1709632801000, None),
            // The query (`color=red`) is a field of its own: the stem alone names it.
            row("GET /products/{id}", 80.0, 1709632802000, None),
            // A UUID segment folded.
            row("POST /cart/{id}/items", 1500.0, 1709632803000, Some("503")),
            // A quoted user agent with spaces is one field.
            row("GET /index.html", 15.0, 1709632804000, None),
            row("GET /products/{id}", 300.0, 1709632805000, Some("500")),
            row("GET /", 5.0, 1709632806250, None),
        ]
    );
    let (mean, max) = mean_max(&log);
    assert!((mean - 2020.0 / 6.0).abs() < 1e-9, "{mean}");
    assert_eq!(max, 1500.0);
}

/// A block is read with the header the blocks before it left, and leaves the last it read.
#[test]
fn iis_block_reads_with_the_header_before_it() {
    let header = b"#Fields: date time cs-method cs-uri-stem sc-status time-taken";
    let b = parse_iis(
        Some(header),
        b"2024-03-05 10:00:05 GET /a/9 200 7\n#Fields: date time cs-uri-stem time-taken\n2024-03-05 10:00:06 /b 3\n",
        Rules::DEFAULT,
    );
    assert_eq!(counts(&b.log), (3, 2, 1, 0));
    assert_eq!(
        rows(&b.log),
        [
            row("GET /a/{id}", 7.0, 1709632805000, None),
            // No method, no status: the path alone, never failed.
            row("/b", 3.0, 1709632806000, None),
        ]
    );
    assert_eq!(
        b.header.as_deref(),
        Some(&b"#Fields: date time cs-uri-stem time-taken"[..])
    );
    // Without a header a data line cannot be read: skipped.
    let b = parse_iis(None, b"2024-03-05 10:00:05 GET /a 200 7\n", Rules::DEFAULT);
    assert_eq!(counts(&b.log), (1, 0, 0, 1));
}

/// 6 lines: `Proxy web started.` is HAProxy's own; 5 requests. Ends are the accept date plus
/// the last timer (10:00:00.900 + 100 ms = 10:00:01.000). Times 100+1500+50+0+250 = 1900:
/// mean 380, max 1500. Errors: 502 (its `-1` Tr also says aborted: the status says more) and
/// the `<BADREQ>` with -1 timers and 400 (`aborted`); 404 is no error.
#[test]
fn haproxy_requests_end_at_accept_plus_total() {
    let log = read(
        HAPROXY,
        &fixture("fixtures/access-haproxy/haproxy.log"),
        Rules::DEFAULT,
    );
    assert_eq!(counts(&log), (6, 5, 1, 0));
    assert_eq!(
        rows(&log),
        [
            row("GET /products/{id}", 100.0, 1709632801000, None),
            row("POST /orders", 1500.0, 1709632802500, Some("502")),
            row("GET /products/{id}", 50.0, 1709632802550, None),
            row("<BADREQ>", 0.0, 1709632803900, Some("aborted")),
            // 32 hex digits folded.
            row("GET /users/{id}/profile", 250.0, 1709632804250, None),
        ]
    );
    assert_eq!(mean_max(&log), (380.0, 1500.0));
}

/// `--keep-ids` and `--error-status 400`: paths as written (queries still dropped), and 404,
/// 400 counted as errors (the status, over `aborted`).
#[test]
fn rules_keep_ids_and_lower_the_error_status() {
    let rules = Rules {
        keep_ids: true,
        error_status: 400,
    };
    let log = read(
        HAPROXY,
        &fixture("fixtures/access-haproxy/haproxy.log"),
        rules,
    );
    let got: Vec<(String, Option<String>)> = rows(&log).into_iter().map(|r| (r.0, r.3)).collect();
    let want = [
        ("GET /products/42", None),
        ("POST /orders", Some("502")),
        ("GET /products/7", Some("404")),
        ("<BADREQ>", Some("400")),
        ("GET /users/9f86d081884c7d659a2feaa0c55ad015/profile", None),
    ];
    let want: Vec<(String, Option<String>)> = want
        .iter()
        .map(|(o, e)| (o.to_string(), e.map(str::to_string)))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn ids_fold_by_shape() {
    let op = |m: &str, p: &str, keep: bool| {
        let mut out = Vec::new();
        operation_name(m.as_bytes(), p.as_bytes(), keep, &mut out);
        String::from_utf8(out).unwrap()
    };
    assert_eq!(op("GET", "/products/42", false), "GET /products/{id}");
    assert_eq!(op("GET", "/a/42/b/7?q=1#x", false), "GET /a/{id}/b/{id}");
    assert_eq!(
        op("GET", "/o/3F2504E0-4F89-11D3-9A0C-0305E82C3301", false),
        "GET /o/{id}"
    );
    // 16 hex digits with a digit: an id; a word of hex letters, a short hex word, a name
    // with digits: not.
    assert_eq!(op("GET", "/h/00ff00ff00ff00ff", false), "GET /h/{id}");
    assert_eq!(
        op("GET", "/h/deadbeefdeadbeef", false),
        "GET /h/deadbeefdeadbeef"
    );
    assert_eq!(op("GET", "/h/cafe42", false), "GET /h/cafe42");
    assert_eq!(op("GET", "/v2/users", false), "GET /v2/users");
    assert_eq!(op("GET", "/products/42?x", true), "GET /products/42");
    assert_eq!(op("", "/", false), "/");
}

/// 3 requests; ends are the date (the start, local) plus the time, rounded down to the ms
/// (10:00:01 + 2.5 ms → 10:00:01.002). Times 120 + 2.5 (2500 micros) + 30 = 152.5: mean
/// 50.83, max 120; the 500 failed.
#[test]
fn uwsgi_requests_end_at_their_date_plus_time() {
    let log = read(
        UWSGI,
        &fixture("fixtures/access-uwsgi/uwsgi.log"),
        Rules::DEFAULT,
    );
    assert_eq!(counts(&log), (3, 3, 0, 0));
    assert_eq!(
        rows(&log),
        [
            row("GET /products/{id}", 120.0, 1709632800120, None),
            row("POST /orders", 2.5, 1709632801002, Some("500")),
            row("GET /products/{id}", 30.0, 1709632802030, None),
        ]
    );
    let (mean, max) = mean_max(&log);
    assert!((mean - 152.5 / 3.0).abs() < 1e-9, "{mean}");
    assert_eq!(max, 120.0);
}

/// Caddy's `"logger":"http"` object is the format's; 3 requests: `ts` the end (epoch
/// seconds), `duration` seconds (0.125 s, 1.5 s) or a Go duration text (`"30ms"`). Times
/// 125+1500+30 = 1655: mean 551.67, max 1500; 502 failed.
#[test]
fn caddy_requests_are_its_access_objects() {
    let log = read(
        CADDY,
        &fixture("fixtures/access-caddy/access.log"),
        Rules::DEFAULT,
    );
    assert_eq!(counts(&log), (4, 3, 1, 0));
    assert_eq!(
        rows(&log),
        [
            row("GET /products/{id}", 125.0, 1709632800500, None),
            row("POST /orders", 1500.0, 1709632801250, Some("502")),
            row("GET /products/{id}", 30.0, 1709632802000, None),
        ]
    );
    let (mean, max) = mean_max(&log);
    assert!((mean - 1655.0 / 3.0).abs() < 1e-9, "{mean}");
    assert_eq!(max, 1500.0);
}

/// A time zone on the line: an RFC 3339 `ts` with `+02:00` is 10:00:00.500 UTC; a
/// common-log date's zone is read beside its time (12:00:00 at -0200 is 14:00 UTC; the
/// reader gives the time as written and the zone apart).
#[test]
fn zones_on_the_line() {
    let line = br#"{"level":"info","ts":"2024-03-05T12:00:00.500+02:00","logger":"http.log.access","msg":"handled request","request":{"method":"GET","uri":"/"},"duration":"1.5s","status":200}"#;
    let log = read(CADDY, line, Rules::DEFAULT);
    assert_eq!(rows(&log), [row("GET /", 1500.0, 1709632800500, None)]);
    let (ms, zone, n) = clf_date(b"05/Mar/2024:12:00:00 -0200] x").unwrap();
    assert_eq!((ms, zone, n), (1709640000000, Some(-120), 26));
    let (ms, zone, n) = clf_date(b"05/Mar/2024:10:00:00.900]").unwrap();
    assert_eq!((ms, zone, n), (1709632800900, None, 24));
    assert!(clf_date(b"31/Feb/2024:10:00:00 +0000").is_none());
    assert_eq!(go_duration_ms("1m2.5s"), Some(62_500.0));
    assert_eq!(go_duration_ms("250µs"), Some(0.25));
    assert_eq!(go_duration_ms("3 parsecs"), None);
}

/// A line cut in the middle and lines of no access log are skipped and counted, with their
/// numbers; the lines around them read as before.
#[test]
fn cut_and_garbage_lines_are_skipped_and_counted() {
    for (f, path) in [
        (IIS, "fixtures/access-iis/u_ex240305.log"),
        (HAPROXY, "fixtures/access-haproxy/haproxy.log"),
        (UWSGI, "fixtures/access-uwsgi/uwsgi.log"),
        (CADDY, "fixtures/access-caddy/access.log"),
    ] {
        let buf = fixture(path);
        let whole = read(f, &buf, Rules::DEFAULT);
        let text = String::from_utf8(buf).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        // The last line (a request in every fixture) cut at its middle, a garbage line and
        // a GC line before it.
        let last = lines.pop().unwrap();
        let n = lines.len();
        lines.push("garbage \u{0} ;;; [[".to_string());
        lines.push(
            "2012-09-21T10:00:05.123+0300: 5.123: [GC 1000K->500K(2000K), 0.0100 secs]".into(),
        );
        lines.push(last[..last.len() / 2].to_string());
        let log = read(f, lines.join("\n").as_bytes(), Rules::DEFAULT);
        assert_eq!(log.records.len(), whole.records.len() - 1, "{f}");
        assert_eq!(log.skipped_lines, 3, "{f}");
        let at: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
        assert_eq!(at, [n as u64 + 1, n as u64 + 2, n as u64 + 3], "{f}");
        assert_eq!(
            log.lines,
            log.record_lines + log.ignored_lines + log.skipped_lines,
            "{f}"
        );
    }
}

/// Requests whose figures cannot be true are skipped: a negative or two-day time, a date
/// that does not exist, a four-digit status.
#[test]
fn untrue_figures_are_skipped() {
    let iis = b"#Fields: date time cs-uri-stem sc-status time-taken\n\
        2024-03-05 10:00:01 /a 200 172800001\n\
        2024-02-30 10:00:01 /a 200 1\n\
        2024-03-05 10:00:01 /a 2000 1\n\
        2024-03-05 10:00:01 /a 200 -1\n";
    assert_eq!(
        counts(&parse_iis(None, iis, Rules::DEFAULT).log),
        (5, 0, 1, 4)
    );
    let haproxy = b"Mar  5 10:00:01 lb1 haproxy[1]: 10.0.0.5:1 [05/Mar/2024:10:00:00.900] web~ app/srv1 0/0/1/99/-1 200 512 - - ---- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"\n";
    assert_eq!(
        counts(&read(HAPROXY, haproxy, Rules::DEFAULT)),
        (1, 0, 0, 1)
    );
    let caddy = br#"{"level":"info","ts":1709632800.5,"logger":"http.log.access","request":{"method":"GET","uri":"/"},"duration":-1,"status":200}"#;
    assert_eq!(counts(&read(CADDY, caddy, Rules::DEFAULT)), (1, 0, 0, 1));
}

#[test]
fn recognised_owned_and_not() {
    let iis = fixture("fixtures/access-iis/u_ex240305.log");
    let haproxy = fixture("fixtures/access-haproxy/haproxy.log");
    let uwsgi = fixture("fixtures/access-uwsgi/uwsgi.log");
    let caddy = fixture("fixtures/access-caddy/access.log");
    let first =
        |b: &[u8], k: usize| -> Vec<u8> { b.split(|&c| c == b'\n').nth(k).unwrap().to_vec() };
    assert!(IIS.recognises(&first(&iis, 3)));
    assert!(IIS.owns(&first(&iis, 0)));
    // A data line alone is told only with the header before it.
    assert!(!IIS.recognises(&first(&iis, 4)));
    let mut r = IIS.recogniser().unwrap();
    let seen: Vec<Recognised> = iis
        .split(|&c| c == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| r.line(l))
        .collect();
    assert!(seen.iter().all(|&s| s == Recognised::Own), "{seen:?}");
    assert!(HAPROXY.recognises(&first(&haproxy, 1)));
    assert!(!HAPROXY.recognises(&first(&haproxy, 0)));
    assert!(HAPROXY.owns(&first(&haproxy, 0)));
    assert!(UWSGI.recognises(&first(&uwsgi, 0)));
    assert!(UWSGI.owns(&first(&uwsgi, 0)));
    assert!(CADDY.recognises(&first(&caddy, 1)));
    assert!(!CADDY.recognises(&first(&caddy, 0)));
    assert!(CADDY.owns(&first(&caddy, 1)));
    // The other families' lines are none of these.
    for line in [
        &b"[7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;op;"[..],
        b"1354000000000,123,label,200,OK,t 1-1,text,true,,100,1,1,0",
        b"0, 0, 1, 1348221842308, 63, 0, 200",
        b"{\"type\":\"Point\",\"metric\":\"http_req_duration\",\"data\":{}}",
        b"[2019-03-05T14:11:18.470+0000][info][gc] Using G1",
        b"REQUEST\t\tHome\t1611903781000\t1611903781100\tOK\t ",
    ] {
        for f in [IIS, HAPROXY, UWSGI, CADDY] {
            assert!(
                !f.recognises(line),
                "{f}: {}",
                String::from_utf8_lossy(line)
            );
            assert!(!f.owns(line), "{f}: {}", String::from_utf8_lossy(line));
        }
    }
}
