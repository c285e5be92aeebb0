use super::*;
use crate::model::PerfLog;
use crate::parse::perf::{parse, parse_block};

const MIXED: &[u8] = include_bytes!("../../fixtures/jmeter-xml/mixed.jtl");
const DAMAGED: &[u8] = include_bytes!("../../fixtures/jmeter-xml/damaged.jtl");

fn accounted(what: &str, log: &PerfLog, buf: &[u8]) {
    assert_eq!(log.lines, count(buf), "{what}: lines");
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines,
        "{what}: {} lines = {} record + {} ignored + {} skipped",
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines
    );
}

/// (line, operation, end ms, elapsed, ok, error) of every record.
type Row = (u64, String, i64, f64, bool, Option<String>);

fn rows(log: &PerfLog) -> Vec<Row> {
    log.records
        .iter()
        .map(|r| {
            (
                r.line,
                log.strings.get(r.operation).to_string(),
                r.end_ms,
                r.total_ms,
                r.ok,
                r.error.map(|e| log.strings.get(e).to_string()),
            )
        })
        .collect()
}

fn counts(log: &PerfLog) -> (u64, u64, u64, u64) {
    (
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines,
    )
}

const T0: i64 = 1_700_000_000_000;

/// The fixture's seven requests, worked out from its text: end = ts + t; the sub-samples of
/// `Product page` and of the transaction are not requests of their own.
fn mixed_rows() -> Vec<Row> {
    let s = |x: &str| x.to_string();
    vec![
        (3, s("Home"), T0 + 120, 120.0, true, None),
        (5, s("Login & token"), T0 + 150 + 340, 340.0, true, None),
        (
            6,
            s("Search"),
            T0 + 600 + 450,
            450.0,
            false,
            // A 200 response failed by its assertion: the assertion's message, its
            // entities replaced; the passing assertion before it has none.
            Some(s("Test failed: text expected to contain /<results>/")),
        ),
        (
            20,
            s("Checkout"),
            T0 + 1200 + 95,
            95.0,
            false,
            Some(s("503/Service \"Unavailable\"")),
        ),
        (
            30,
            s("Product page"),
            T0 + 2000 + 800,
            800.0,
            false,
            // Failed through a sub-sample; its own code is a success and it has no assertion
            // of its own (the sub-sample's message is not its).
            Some(s("Assertion failed")),
        ),
        (
            47,
            s("Transaction: buy"),
            T0 + 3000 + 1500,
            1500.0,
            false,
            Some(s(
                "500/Number of samples in transaction : 2, number of failing samples : 1",
            )),
        ),
        (51, s("Home"), T0 + 4000 + 60, 60.0, true, None),
    ]
}

#[test]
fn reads_the_requests_of_the_mixed_fixture() {
    let log = parse(JMETER_XML, MIXED);
    assert_eq!(rows(&log), mixed_rows());
    // Records: lines 3, 5, 6-19 (Search with its assertions), 20-28 (Checkout's tag over nine
    // lines), 30-46 (Product page and its sub-samples), 47-50, 51: 1+1+14+9+17+4+1 = 47.
    // Ignored: the declaration, `<testResults>`, the comment, the blank line 29,
    // `</testResults>`.
    assert_eq!(counts(&log), (52, 47, 5, 0));
    accounted("mixed", &log, MIXED);
}

#[test]
fn damage_is_skipped_and_counted_and_what_is_good_kept() {
    let log = parse(JMETER_XML, DAMAGED);
    let got: Vec<(u64, String, Option<String>)> =
        rows(&log).into_iter().map(|r| (r.0, r.1, r.5)).collect();
    assert_eq!(
        got,
        vec![
            (3, "A".to_string(), None),
            (10, "B".to_string(), Some("500/Server Error".to_string())),
        ]
    );
    // Skipped: a negative elapsed (4), a success flag neither true nor false (5), an
    // attribute twice (6), text (7), the request never closed (8) and its child (9), one
    // with a mismatched end tag (11), an element of no request (12), the request the file's
    // cut leaves open (13) and its lines (14-16).
    assert_eq!(counts(&log), (16, 2, 2, 12));
    let bad: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
    assert_eq!(bad[..4], [4, 5, 6, 7]);
    accounted("damaged", &log, DAMAGED);
}

/// Two blocks cut at `k` (a line end), the second read from where the first left off: what
/// one pass gives.
fn in_two(buf: &[u8], k: usize) -> (Vec<Row>, (u64, u64, u64, u64), Vec<u64>) {
    let first = parse_block(JMETER_XML, None, &buf[..k], false);
    assert!(first.log.lines <= count(&buf[..k]));
    let from = k - first.unread;
    assert!(
        from == 0 || matches!(buf[from - 1], b'\n' | b'\r'),
        "unread from a line start"
    );
    let second = parse_block(JMETER_XML, first.header.as_deref(), &buf[from..], true);
    assert_eq!(second.unread, 0);
    let mut r = rows(&first.log);
    let shift = first.log.lines;
    r.extend(rows(&second.log).into_iter().map(|mut x| {
        x.0 += shift;
        x
    }));
    let (a, b) = (counts(&first.log), counts(&second.log));
    let mut bad: Vec<u64> = first.log.bad.iter().map(|b| b.line).collect();
    bad.extend(second.log.bad.iter().map(|b| b.line + shift));
    // The first few, as a log keeps them.
    bad.truncate(crate::model::BAD_LINES_KEPT);
    (r, (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3), bad)
}

#[test]
fn a_cut_at_any_line_end_reads_as_one_pass() {
    for (name, buf) in [("mixed", MIXED), ("damaged", DAMAGED)] {
        let one = parse(JMETER_XML, buf);
        let bad: Vec<u64> = one.bad.iter().map(|b| b.line).collect();
        let want = (rows(&one), counts(&one), bad);
        for k in (0..=buf.len()).filter(|&k| k == 0 || buf[k - 1] == b'\n') {
            assert_eq!(in_two(buf, k), want, "{name} cut at byte {k}");
        }
    }
}

#[test]
fn a_request_open_at_a_block_end_is_left_unread_from_its_line() {
    // Cut after Search's assertion: Search (line 6) is read with the next block.
    let cut = MIXED
        .windows(20)
        .position(|w| w == b"  <responseData clas")
        .unwrap();
    let b = parse_block(JMETER_XML, None, &MIXED[..cut], false);
    assert_eq!(b.log.records.len(), 2);
    assert_eq!(counts(&b.log), (5, 2, 3, 0));
    let line6 = MIXED
        .windows(17)
        .position(|w| w == b"<httpSample t=\"45")
        .unwrap();
    assert_eq!(b.unread, cut - line6);
    // Read as the last block, the same bytes are a cut log: Search's lines are skipped.
    let b = parse_block(JMETER_XML, None, &MIXED[..cut], true);
    assert_eq!((b.unread, b.log.records.len()), (0, 2));
    // Lines 6 (its start tag) to 17 (the cut).
    assert_eq!(counts(&b.log), (17, 2, 3, 12));
}

#[test]
fn a_request_opening_after_another_on_its_line_takes_that_line_to_the_next_block() {
    let buf = b"<testResults>\n<httpSample t=\"1\" ts=\"1700000000000\" lb=\"a\"/><httpSample t=\"2\" ts=\"1700000000001\" lb=\"b\">\n  <httpSample t=\"1\" ts=\"1700000000001\" lb=\"c\"/>\n</httpSample>\n</testResults>\n";
    let k = buf
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(2)
        .map(|(i, _)| i + 1)
        .unwrap();
    let first = parse_block(JMETER_XML, None, &buf[..k], false);
    assert_eq!((first.log.records.len(), first.log.lines), (0, 1));
    assert_eq!(first.unread, k - 14);
    let one = parse(JMETER_XML, buf);
    let ops: Vec<String> = rows(&one).into_iter().map(|r| r.1).collect();
    assert_eq!(ops, ["a", "b"]);
    assert_eq!(counts(&one), (5, 3, 2, 0));
    assert_eq!(in_two(buf, k).0, rows(&one));
}

#[test]
fn crlf_lone_cr_and_a_byte_order_mark_read_alike() {
    let want = rows(&parse(JMETER_XML, MIXED));
    for eol in [&b"\r\n"[..], b"\r"] {
        let mut b = b"\xEF\xBB\xBF".to_vec();
        for l in MIXED.split_inclusive(|&c| c == b'\n') {
            b.extend_from_slice(l.strip_suffix(b"\n").unwrap_or(l));
            b.extend_from_slice(eol);
        }
        let log = parse(JMETER_XML, &b);
        assert_eq!(rows(&log), want);
        assert_eq!(counts(&log), (52, 47, 5, 0));
        let body = &b[3..];
        for k in (1..=body.len()).filter(|&k| body[k - 1] == b'\n' || body[k - 1] == b'\r') {
            // A cut between `\r` and `\n` is no line end: blocks are cut after the `\n`.
            if body.get(k) == Some(&b'\n') {
                continue;
            }
            assert_eq!(in_two(body, k).0, want, "cut at {k}");
        }
    }
}

#[test]
fn a_flood_of_empty_lines_is_ignored() {
    let mut b = MIXED[..MIXED.len() - 15].to_vec();
    b.extend(std::iter::repeat_n(b'\n', 100_000));
    b.extend(b"\r\n\r\n   \t\n");
    b.extend(&MIXED[MIXED.len() - 15..]);
    let log = parse(JMETER_XML, &b);
    assert_eq!(log.records.len(), 7);
    assert_eq!(counts(&log), (52 + 100_003, 47, 5 + 100_003, 0));
}

#[test]
fn hostile_inputs_never_panic_and_every_line_is_counted() {
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("one <", b"<".to_vec()),
        ("unclosed tag", b"<httpSample t=\"1\" ts=\"17".to_vec()),
        (
            "unclosed quote",
            b"<httpSample t=\"1\nts=\"1700000000000\"/>\n".to_vec(),
        ),
        ("nested deep", {
            let mut v = b"<testResults>\n<httpSample t=\"1\" ts=\"1700000000000\">\n".to_vec();
            for _ in 0..10_000 {
                v.extend(b"<sample>");
            }
            v.extend(b"\n</testResults>\n");
            v
        }),
        (
            "end tags only",
            b"</httpSample>\n</sample>\n</testResults>\n".repeat(50),
        ),
        (
            "bad markup",
            b"<!x>\n<!-- never closed\n<![CDATA[\n<?pi\n".to_vec(),
        ),
        (
            "entities",
            b"<httpSample t=\"1\" ts=\"1700000000000\" lb=\"&bogus; &#xZZ; & \"/>\n".to_vec(),
        ),
        (
            "not utf-8",
            b"<httpSample t=\"1\" ts=\"1700000000000\" lb=\"\xFF\xFE&amp;\"/>\n".to_vec(),
        ),
    ];
    let mut next = {
        let mut x = 0x6a6d_7872u64;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    };
    cases.push(("random bytes", (0..200_000).map(|_| next() as u8).collect()));
    // Random bytes over the fixture's.
    for i in 0..200 {
        let mut b = MIXED.to_vec();
        for _ in 0..1 + i % 8 {
            let k = (next() % b.len() as u64) as usize;
            b[k] = next() as u8;
        }
        cases.push(("flipped", b));
    }
    for (what, b) in &cases {
        let log = parse(JMETER_XML, b);
        accounted(what, &log, b);
        assert!(log
            .records
            .iter()
            .all(|r| r.total_ms.is_finite() && r.total_ms >= 0.0));
        // In two blocks too, wherever the cut.
        for k in (0..=b.len())
            .filter(|&k| k == 0 || b[k - 1] == b'\n')
            .step_by(7)
        {
            let (r, c, _) = in_two(b, k);
            assert_eq!((r, c), (rows(&log), counts(&log)), "{what} cut at {k}");
        }
    }
    // The two requests of "entities": kept, the malformed entities as written.
    let log = parse(JMETER_XML, &cases[7].1);
    assert_eq!(rows(&log)[0].1, "&bogus; &#xZZ; &");
    let log = parse(JMETER_XML, &cases[8].1);
    assert_eq!(rows(&log)[0].1, "\u{FFFD}\u{FFFD}&");
}

#[test]
fn a_cut_log_keeps_what_came_before_the_damage() {
    let whole = parse(JMETER_XML, MIXED);
    for k in 0..=MIXED.len() {
        let log = parse(JMETER_XML, &MIXED[..k]);
        accounted("cut", &log, &MIXED[..k]);
        // Every request that ends before the cut is kept as it is.
        let r = rows(&log);
        assert!(whole_prefix(&rows(&whole), &r), "cut at {k}: {r:?}");
    }
}

/// `part` is `whole`'s first records (the last one may be gone with the cut).
fn whole_prefix(whole: &[Row], part: &[Row]) -> bool {
    part.len() <= whole.len() && whole[..part.len()] == *part
}

#[test]
fn an_attribute_of_50_mb_is_read_and_a_request_of_50_mb_with_children_skipped() {
    let request = |mb: usize, tail: &[u8]| {
        let mut b =
            b"<testResults>\n<httpSample t=\"5\" ts=\"1700000000000\" s=\"true\" lb=\"".to_vec();
        b.extend(std::iter::repeat_n(b'x', mb << 20));
        b.extend(tail);
        b.extend(b"<httpSample t=\"6\" ts=\"1700000000001\" lb=\"next\"/>\n</testResults>\n");
        b
    };
    // A request of one element: read, its label cut.
    let b = request(50, b"\" rc=\"200\"/>\n");
    let log = parse(JMETER_XML, &b);
    let r = rows(&log);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].1.len(), crate::parse::limits::MAX_LABEL_BYTES);
    assert_eq!(r[1].1, "next");
    assert_eq!(counts(&log), (4, 2, 2, 0));
    // With sub-elements, over `MAX_SAMPLE_BYTES`: damage, its lines skipped (the first shown
    // cut), the next one read; in one pass and as a block with more to come alike.
    let b = request(50, b"\">\n  <assertionResult/>\n</httpSample>\n");
    for last in [true, false] {
        let blk = parse_block(JMETER_XML, None, &b, last);
        assert_eq!(rows(&blk.log).len(), 1, "{last}");
        assert_eq!(counts(&blk.log), (6, 1, 2, 3), "{last}");
        assert_eq!(blk.log.bad[0].line, 2);
        assert!(blk.log.bad[0].text.len() <= 200);
    }
}

/// Floods of markup that never ends: each line costs a bounded read, not one to the end of
/// the log (a request never closed, a tag whose quote never closes, a comment never closed).
#[test]
fn floods_of_unclosed_markup_are_read_in_linear_time() {
    for (what, line) in [
        (
            "requests",
            &b"<httpSample t=\"1\" ts=\"1700000000000\" lb=\"a\">\n"[..],
        ),
        (
            "nested requests",
            b"  <sample t=\"1\" ts=\"1700000000000\">\n",
        ),
        ("quotes", b"<httpSample t=\"\n"),
        ("comments", b"<!--\n"),
        ("tags", b"<x\n"),
    ] {
        let mut b = line.repeat((4 << 20) / line.len());
        b.extend(b"<httpSample t=\"6\" ts=\"1700000000001\" lb=\"next\"/> >\n");
        let t = std::time::Instant::now();
        let log = parse(JMETER_XML, &b);
        accounted(what, &log, &b);
        let secs = t.elapsed().as_secs_f64();
        assert!(secs < 20.0, "{what}: {secs} s");
        let blk = parse_block(JMETER_XML, None, &b, false);
        assert_eq!(
            blk.log.lines + count(&b[b.len() - blk.unread..]),
            log.lines,
            "{what}"
        );
    }
}

#[test]
fn detection_and_lines_of_a_request_belong_to_no_other_family() {
    use crate::input::{detect, parts, Detected};
    assert_eq!(detect(MIXED), Some(Detected::Perf(JMETER_XML)));
    assert_eq!(crate::parse::perf::detect(MIXED), Some(JMETER_XML));
    // A response body quoting a GC log: its lines are inside the request, not a GC log's
    // part of the file.
    let mut b = b"<?xml version=\"1.0\"?>\n<testResults version=\"1.2\">\n".to_vec();
    for i in 0..5 {
        b.extend(
            format!(
                "<httpSample t=\"1\" ts=\"17000000{i:05}\" lb=\"gc.log\">\n  <responseData class=\"java.lang.String\">\
                 2012-09-21T12:00:0{i}.000+0000: 1.2{i}: [GC 1024K-&gt;512K(2048K), 0.0100000 secs]\n\
                 2012-09-21T12:00:0{i}.500+0000: 1.7{i}: [GC 1024K-&gt;512K(2048K), 0.0100000 secs]\n\
                 [0.01{i}s][info][gc] GC(0) Pause Young (Normal) 24M-&gt;4M(256M) 3.000ms\n\
                 </responseData>\n</httpSample>\n"
            )
            .as_bytes(),
        );
    }
    b.extend(b"</testResults>\n");
    assert_eq!(detect(&b), Some(Detected::Perf(JMETER_XML)));
    let p = parts(&b);
    assert_eq!(p.len(), 1, "{p:?}");
    let log = parse(JMETER_XML, &b);
    assert_eq!((log.records.len(), log.skipped_lines), (5, 0));
}

#[test]
fn its_own_lines_are_told_from_their_start() {
    let f = JMETER_XML;
    for own in [
        &b"<testResults version=\"1.2\">"[..],
        b"</testResults>",
        b"<httpSample t=\"1\" ts=\"2\"/>",
        b"<sample t=\"1\"",
        b"<httpSample",
        b"</httpSample>",
        b"</sample >",
    ] {
        assert!(f.owns(own), "{}", String::from_utf8_lossy(own));
    }
    for other in [
        &b"<samples>"[..],
        b"<httpSampler",
        b"[GC 1024K->512K(2048K), 0.01 secs]",
        b"<?xml version=\"1.0\"?>",
        b"<af type=\"tenured\" id=\"1\">",
    ] {
        assert!(!f.owns(other), "{}", String::from_utf8_lossy(other));
    }
    assert!(f.recognises(b"<testResults>") && f.recognises(b"<sample lb=\"x\"/>"));
    assert!(!f.recognises(b"</httpSample>"));
    // A request's lines in turn: its first is its own, the rest inside it.
    let mut r = f.recogniser().unwrap();
    let got: Vec<Recognised> = [
        &b"<?xml version=\"1.0\"?>"[..],
        b"<testResults version=\"1.2\">",
        b"<httpSample t=\"1\"",
        b"   lb=\"a/>b\" ts=\"1700000000000\">",
        b"<httpSample t=\"1\" ts=\"1700000000000\"/>",
        b"<responseData>[GC 1024K-&gt;512K(2048K), 0.01 secs]",
        b"</responseData></httpSample>",
        b"<sample t=\"1\" ts=\"1700000000000\"/>",
        b"</testResults>",
    ]
    .iter()
    .map(|l| r.line(l))
    .collect();
    use Recognised::{Inside, No, Own};
    assert_eq!(
        got,
        [No, Own, Own, Inside, Inside, Inside, Inside, Own, Own]
    );
}

#[test]
fn resync_state_travels_as_the_header() {
    assert_eq!(Resync(Some(2)).header(), Some(b"below 2".to_vec()));
    assert_eq!(Resync::from_header(Some(b"below 2")), Resync(Some(2)));
    assert_eq!(Resync::from_header(None), Resync(None));
    assert_eq!(
        Resync::from_header(Some(b"timeStamp,elapsed")),
        Resync(None)
    );
    // A block ending inside the children of a request that could not be read leaves them to
    // be skipped by the next: its sub-sample there is not a request.
    let first = b"<httpSample t=\"1\" ts=\"1700000000000\" lb=\"x\"><oops></httpSample>\n  <a/>\n";
    let b = parse_block(JMETER_XML, None, first, false);
    assert_eq!((b.unread, b.header.as_deref()), (0, Some(&b"below 0"[..])));
    assert_eq!(counts(&b.log), (2, 0, 0, 2));
    let next = b"  <httpSample t=\"1\" ts=\"1700000000000\" lb=\"child\"/>\n<sample t=\"2\" ts=\"1700000000000\" lb=\"y\"/>\n";
    let b = parse_block(JMETER_XML, b.header.as_deref(), next, true);
    assert_eq!(rows(&b.log).len(), 1);
    assert_eq!(counts(&b.log), (2, 1, 0, 1));
    assert_eq!(b.header, None);
    // Read after a clean block, the same lines are two requests.
    assert_eq!(
        parse_block(JMETER_XML, None, next, true).log.records.len(),
        2
    );
}

#[test]
fn a_quote_missing_costs_its_line_not_the_requests_after_it() {
    let buf = b"<testResults>\n<httpSample t=\"1\" ts=\"1700000000000\" lb=\"a rc=\"200\"/>\n<httpSample t=\"2\" ts=\"1700000000001\" lb=\"b\"/>\n<httpSample t=\"3\" ts=\"1700000000002\" lb=\"c\">\n  <httpSample t=\"1\" ts=\"1700000000002\" lb=\"c1\"/>\n</httpSample>\n<sample t=\"4\" ts=\"1700000000003\" lb=\"d\" s=true>\n  <sample t=\"1\" ts=\"1700000000003\" lb=\"d1\"/>\n</sample>\n<sample t=\"5\" ts=\"1700000000004\" lb=\"e\"/>\n</testResults>\n";
    let log = parse(JMETER_XML, buf);
    let ops: Vec<String> = rows(&log).into_iter().map(|r| r.1).collect();
    // `d`'s unquoted value: its line and its child's skipped, `</sample>` with them.
    assert_eq!(ops, ["b", "c", "e"]);
    assert_eq!(counts(&log), (11, 5, 2, 4));
    accounted("quote", &log, buf);
}

/// A log written without line breaks (`xmllint --noblanks`, a re-save): the declaration, the
/// root and every request on one line read as the fixture's lines do.
#[test]
fn a_log_on_one_line_reads_as_its_lines_do() {
    let one: Vec<u8> = MIXED.iter().copied().filter(|&b| b != b'\n').collect();
    use crate::input::{detect, Detected};
    assert_eq!(detect(&one), Some(Detected::Perf(JMETER_XML)));
    let log = parse(JMETER_XML, &one);
    let want: Vec<Row> = mixed_rows()
        .into_iter()
        .map(|r| (1, r.1, r.2, r.3, r.4, r.5))
        .collect();
    assert_eq!(rows(&log), want);
    assert_eq!(counts(&log), (1, 1, 0, 0));
    // Many requests on one line cost each its own bytes, not a scan to the line's end: 16 MB
    // of them took minutes so.
    let sample = b"<httpSample t=\"5\" ts=\"1700000000000\" s=\"true\" lb=\"a\" rc=\"200\"/>";
    let mut big = b"<?xml version=\"1.0\"?><testResults version=\"1.2\">".to_vec();
    let n = (16 << 20) / sample.len();
    for _ in 0..n {
        big.extend_from_slice(sample);
    }
    big.extend_from_slice(b"</testResults>");
    let t = std::time::Instant::now();
    let log = parse(JMETER_XML, &big);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!((log.records.len(), counts(&log)), (n, (1, 1, 0, 0)));
    assert!(secs < 10.0, "{secs} s");
}

/// A request never closed, then a tag whose quotes never pair, again and again (a fuzz
/// case's shape): each unit reads as it does alone, and the reads of the requests that do
/// not close stay within a few times the log (they grew with its square: 2,000 units took
/// 1.2 s, 20,000 would take two minutes).
#[test]
fn requests_never_closed_among_broken_quotes_are_read_in_linear_time() {
    let unit: &[u8] = b"<testResults version=\"1.2\">\n\
        <httpSample t=\"100\" ts=\"1700000000000\" s=\"true\" lb=\"A\" rc=\"200\" rm=\"OK\"/>\n\
        <httpSample t=\"300\" ts=\"1700000000700\" s=\"true\" lb=\"cut\" rc=\"200\" rm=\"OK\">\n\
        \x20 <assertionResult>\n\
        \x20   <failure>false\n\
        _home\" rc=\"200\" rm=\"OK\"/>\n\
        <httpSample t=\"160\" ts=\"1700000000800\" s=\"true\" lb=\"B\" rc=\"200\" rm=\"OK\"/>\n\
        <httpSample t=\"1483\" ts=\"1700000000900\" s=\"true\" lb=\"jakarta<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    let head: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    // By hand, one unit: A (line 3) and B (line 8) are requests; the request never closed
    // (4), its lines (5, 6), the text after them (7) and the tag whose quotes never pair (9)
    // are skipped; the declaration and the root tag are ignorable.
    let one = [head, unit].concat();
    let log = parse(JMETER_XML, &one);
    let got: Vec<(u64, String)> = rows(&log).into_iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(got, vec![(3, "A".to_string()), (8, "B".to_string())]);
    assert_eq!(counts(&log), (9, 2, 2, 5));
    let bad: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
    assert_eq!(bad[..3], [4, 5, 6]);
    let n = 20_000u64;
    let mut many = head.to_vec();
    for _ in 0..n {
        many.extend_from_slice(unit);
    }
    let t = std::time::Instant::now();
    let log = parse(JMETER_XML, &many);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(log.records.len() as u64, 2 * n);
    assert_eq!(counts(&log), (8 * n + 1, 2 * n, n + 1, 5 * n));
    accounted("units", &log, &many);
    assert!(secs < 10.0, "{secs} s");
}

/// Requests paired by `tn` as the JTL's rows are (`perf_tests::jtl_rows_are_paired_by_thread`);
/// a sub-sample is not a request of its own, and a request without `tn` is not counted.
#[test]
fn requests_are_paired_by_thread() {
    let xml = b"<?xml version=\"1.0\"?>\n<testResults version=\"1.2\">\n\
        <httpSample t=\"50\" ts=\"1000\" s=\"true\" lb=\"x\" tn=\"A\">\n\
          <httpSample t=\"40\" ts=\"1001\" s=\"true\" lb=\"sub\" tn=\"A\"/>\n\
        </httpSample>\n\
        <sample t=\"5\" ts=\"1000\" s=\"true\" lb=\"x\" tn=\"B\"/>\n\
        <sample t=\"10\" ts=\"1030\" s=\"true\" lb=\"x\" tn=\"A\"/>\n\
        <sample t=\"5\" ts=\"1100\" s=\"true\" lb=\"x\" tn=\"B\"/>\n\
        <sample t=\"5\" ts=\"1200\" s=\"true\" lb=\"x\"/>\n\
        </testResults>\n";
    let log = parse(JMETER_XML, xml);
    assert_eq!(log.records.len(), 5);
    assert_eq!(
        log.stamps,
        crate::model::StampOrder {
            pairs: 2,
            overlap_as_starts: 1,
            overlap_as_ends: 0
        }
    );
}

/// Every line a request and then a tag whose quote runs on into the next line (damage): read
/// as one pass, each line's first request is a record and the tag after it is taken for its
/// attribute text with the next line's start. A block that is not the last found its last
/// line's tag open, was read again without that line, found the line before open in turn, and
/// so on: once a line, a 1 MB file took 28 s. Cut anywhere, the blocks read as one pass does,
/// and a block of 20,000 such lines is read in linear time.
#[test]
fn tags_open_into_the_next_line_on_every_line_are_read_in_linear_time() {
    let head: &[u8] = b"<?xml version=\"1.0\"?>\n<testResults version=\"1.2\">\n";
    let line: &[u8] = b"<sample t=\"1\" ts=\"1700000000000\" s=\"true\" lb=\"a\"/>\
        <sample t=\"1\" ts=\"1700000000001\" lb=\"x\n";
    let lines = |n: usize| [head, &line.repeat(n)].concat();
    let buf = lines(40);
    let one = parse(JMETER_XML, &buf);
    // By hand: 40 requests, each on a line of its own (lines 3-42); the declaration and the
    // root tag are ignorable.
    assert_eq!(one.records.len(), 40);
    assert_eq!(
        (one.lines, one.record_lines, one.ignored_lines),
        (42, 40, 2)
    );
    let bad: Vec<u64> = one.bad.iter().map(|b| b.line).collect();
    let want = (rows(&one), counts(&one), bad);
    for k in (0..=buf.len()).filter(|&k| k == 0 || buf[k - 1] == b'\n') {
        assert_eq!(in_two(&buf, k), want, "cut at byte {k}");
    }
    let many = lines(20_000);
    let t = std::time::Instant::now();
    let block = parse_block(JMETER_XML, None, &many, false);
    let secs = t.elapsed().as_secs_f64();
    let rest = parse_block(
        JMETER_XML,
        block.header.as_deref(),
        &many[many.len() - block.unread..],
        true,
    );
    assert_eq!(block.log.records.len() + rest.log.records.len(), 20_000);
    assert!(secs < 10.0, "{secs} s");
}
