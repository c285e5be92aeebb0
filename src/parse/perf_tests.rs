//! Tests of `perf.rs`.

use super::*;
use crate::parse::num::format_wall_ms;

/// One record as (end, total, java, db, db calls, operation, ok, inconsistent, line).
type Row = (
    String,
    f64,
    Option<f64>,
    Option<f64>,
    Option<u32>,
    String,
    bool,
    bool,
    u64,
);

fn rows(log: &PerfLog) -> Vec<Row> {
    log.records
        .iter()
        .map(|r| {
            (
                format_wall_ms(r.end_ms),
                r.total_ms,
                r.java_ms,
                r.db_ms,
                r.db_calls,
                log.strings.get(r.operation).to_string(),
                r.ok,
                r.inconsistent,
                r.line,
            )
        })
        .collect()
}

fn semi(s: &str) -> PerfLog {
    parse(SEMICOLON, s.as_bytes())
}

/// A semicolon record as the web service writes it (the user's example) and a successful one.
const EXAMPLE: &str = "[7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
                           [7842BD261FD27732B848D3E904F42A5A];2012-09-21 12:04:03.000;40;10;30;1;getContract;\n";

fn example_rows() -> Vec<Row> {
    vec![
        (
            "2012-09-21T12:04:02.308".into(),
            813.0,
            Some(78.0),
            Some(735.0),
            Some(2),
            "loadCustomersList".into(),
            false,
            false,
            1,
        ),
        (
            "2012-09-21T12:04:03.000".into(),
            40.0,
            Some(10.0),
            Some(30.0),
            Some(1),
            "getContract".into(),
            true,
            false,
            2,
        ),
    ]
}

#[test]
fn semicolon_record_fields() {
    let log = semi(EXAMPLE);
    assert_eq!(rows(&log), example_rows());
    assert_eq!((log.lines, log.skipped_lines), (2, 0));
    assert!(log.bad.is_empty());
}

#[test]
fn semicolon_crlf() {
    let log = semi(&EXAMPLE.replace('\n', "\r\n"));
    assert_eq!(rows(&log), example_rows());
    assert_eq!((log.lines, log.skipped_lines), (2, 0));
    // Without trailing `;` the operation ends at the CR, which must not stick to it.
    let log = semi("[1];2012-09-21 12:04:03.000;40;10;30;1;getContract\r\n");
    assert_eq!(log.strings.get(log.records[0].operation), "getContract");
    assert!(log.records[0].ok);
}

#[test]
fn semicolon_bom() {
    let text = format!("\u{FEFF}{EXAMPLE}");
    assert!(text.as_bytes().starts_with(b"\xEF\xBB\xBF"));
    let log = semi(&text);
    assert_eq!(rows(&log), example_rows());
    assert_eq!(log.skipped_lines, 0);
    assert_eq!(detect(text.as_bytes()), Some(SEMICOLON));
}

#[test]
fn semicolon_blank_lines() {
    let text = format!("\n   \n{}\n\t\n", EXAMPLE.replace('\n', "\n\n"));
    let log = semi(&text);
    let lines: Vec<u64> = log.records.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![3, 5]);
    assert_eq!(log.skipped_lines, 0);
    assert_eq!(log.lines, 8);
}

#[test]
fn semicolon_header_line() {
    for header in [
        "id;time;total;java;db;dbcalls;operation;error",
        "request_id;timestamp;total_ms;java_ms;plsql_ms;db_calls;operation;error",
        "ID; TIME; TOTAL; JAVA; DB; DB CALLS; OPERATION",
    ] {
        let log = semi(&format!("{header}\n{EXAMPLE}"));
        assert_eq!(log.records.len(), 2, "{header}");
        assert_eq!(log.records[0].line, 2);
        assert_eq!(log.skipped_lines, 0, "{header}");
    }
    // A header-like line with digits where times go is not a header: counted.
    let log = semi(&format!("id;time;1;java;db;calls;op\n{EXAMPLE}"));
    assert_eq!(log.skipped_lines, 1);
    assert_eq!(log.bad[0].line, 1);
}

#[test]
fn semicolon_missing_trailing_semicolon() {
    let log = semi(
        "[A1];2012-09-21 12:04:03.000;40;10;30;1;getContract\n\
             [A2];2012-09-21 12:04:04.500;55;5;50;3;saveOrder;e-\n",
    );
    let r = rows(&log);
    assert_eq!(
        r[0],
        (
            "2012-09-21T12:04:03.000".into(),
            40.0,
            Some(10.0),
            Some(30.0),
            Some(1),
            "getContract".into(),
            true,
            false,
            1
        )
    );
    assert_eq!((r[1].5.as_str(), r[1].6), ("saveOrder", false));
    assert_eq!(log.skipped_lines, 0);
}

#[test]
fn semicolon_id_without_brackets() {
    let log = semi(
            "7842BD261FD27732B848D3E904F42A59;2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
             req-17;2012-09-21 12:04:03.000;40;10;30;1;getContract;\n",
        );
    assert_eq!(rows(&log), example_rows());
}

#[test]
fn semicolon_comma_millis() {
    let log = semi(
        &EXAMPLE
            .replace("02.308", "02,308")
            .replace("03.000", "03,000"),
    );
    assert_eq!(rows(&log), example_rows());
}

#[test]
fn semicolon_layout_prefix() {
    // The logging framework's own stamp (12:04:02,310) is not the record's time (.308).
    let log = semi(
            "2012-09-21 12:04:02,310 INFO [perf] [7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
             INFO;2012-09-21 12:04:03,001;main;[7842BD261FD27732B848D3E904F42A5A];2012-09-21 12:04:03.000;40;10;30;1;getContract;\n",
        );
    assert_eq!(rows(&log), example_rows());
    assert_eq!(log.skipped_lines, 0);
}

#[test]
fn semicolon_bad_lines_skipped_and_counted() {
    let text = "\
[1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;
[2];2012-09-21 12:04:02.308;813;78;735
[3];2012-09-21 12:04:02.308;81x;78;735;2;loadCustomersList;
[4];2012-09-21 12:04:02.308;-813;78;735;2;loadCustomersList;
[5];2012-09-31 12:04:02.308;813;78;735;2;loadCustomersList;
[6];2012-13-01 12:04:02.308;813;78;735;2;loadCustomersList;
[7];2012-09-21 25:04:02.308;813;78;735;2;loadCustomersList;
[8];2013-02-29 12:04:02.308;813;78;735;2;loadCustomersList;
java.lang.NullPointerException
\tat ru.example.CustomerService.load(CustomerService.java:42)
[11];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;x-
[12];2012-09-21 12:04:02.308;813;78;735;2;;
[13];2012-09-21 12:04:02.308;813;78;735;2.5;loadCustomersList;
[14];2012-02-29 23:59:59.999;813;78;735;2;getContract;
";
    let log = semi(text);
    let r = rows(&log);
    assert_eq!(r.len(), 2);
    assert_eq!((r[0].0.as_str(), r[0].8), ("2012-09-21T12:04:02.308", 1));
    // 2012 is a leap year: 29 February exists.
    assert_eq!((r[1].0.as_str(), r[1].8), ("2012-02-29T23:59:59.999", 14));
    assert_eq!(log.skipped_lines, 12);
    assert_eq!(log.lines, 14);
    let bad: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
    assert_eq!(bad, vec![2, 3, 4, 5, 6]);
    assert_eq!(log.bad[0].text, "[2];2012-09-21 12:04:02.308;813;78;735");
}

#[test]
fn semicolon_inconsistent_flagged() {
    let log = semi(
        "[1];2012-09-21 12:04:02.308;813;78;700;2;loadCustomersList;\n\
             [2];2012-09-21 12:04:02.309;813;78;735;2;loadCustomersList;\n\
             [3];2012-09-21 12:04:02.310;10,5;0,2;10,3;1;getContract;\n\
             [4];2012-09-21 12:04:02.311;10.5;0.2;10.4;1;getContract;\n",
    );
    let flags: Vec<(f64, bool)> = log
        .records
        .iter()
        .map(|r| (r.total_ms, r.inconsistent))
        .collect();
    // Kept, flagged; decimal times that add up are not flagged for float rounding.
    assert_eq!(
        flags,
        vec![(813.0, true), (813.0, false), (10.5, false), (10.5, true)]
    );
    assert_eq!(log.records[2].java_ms, Some(0.2));
    assert_eq!(log.skipped_lines, 0);
}

#[test]
fn semicolon_error_text_with_semicolons() {
    let log = semi(
            "[1];2012-09-21 12:07:07.454;369;97;272;11;getContract;e-ORA-20001: Клиент не найден; код 17\n\
             [2];2012-09-21 12:07:08.000;10;5;5;1;saveOrder;e-a;b;c;\n",
        );
    let r = rows(&log);
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].5.as_str(), r[0].6, r[0].1),
        ("getContract", false, 369.0)
    );
    assert_eq!((r[1].5.as_str(), r[1].6), ("saveOrder", false));
    assert_eq!(log.skipped_lines, 0);
    // "", two names and the two messages (the closing `;` is not part of one).
    assert_eq!(log.strings.len(), 5);
    let msg = |i: usize| log.records[i].error.map(|e| log.strings.get(e).to_string());
    assert_eq!(
        msg(0).as_deref(),
        Some("ORA-20001: Клиент не найден; код 17")
    );
    assert_eq!(msg(1).as_deref(), Some("a;b;c"));
}

#[test]
fn semicolon_truncated_last_line() {
    // Cut in the date: skipped and counted.
    let log =
        semi("[1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;\n[2];2012-09-21 12:0");
    assert_eq!(log.records.len(), 1);
    assert_eq!((log.lines, log.skipped_lines, log.bad[0].line), (2, 1, 2));
    // Cut in the operation name: could be `loadCust` or anything longer, so not taken.
    let log = semi("[1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;\n[2];2012-09-21 12:04:03.000;40;10;30;1;loadCust");
    assert_eq!((log.records.len(), log.skipped_lines), (1, 1));
    // Complete up to its `;` (or its `e-`): taken even without the final line break.
    let log = semi("[2];2012-09-21 12:04:03.000;40;10;30;1;getContract;");
    assert_eq!((log.records.len(), log.lines), (1, 1));
    let log = semi("[2];2012-09-21 12:04:03.000;40;10;30;1;getContract;e-Connection re\r");
    assert_eq!((log.records.len(), log.records[0].ok), (1, false));
}

fn jtl(s: &str) -> PerfLog {
    parse(JMETER_JTL, s.as_bytes())
}

const JTL_HEADER: &str = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

#[test]
fn jtl_full_header_and_quoting() {
    let text = format!(
            "{JTL_HEADER}\r\n\
             1348221842308,120,Home,200,OK,Users 1-1,text,true,,5120,431,5,5,http://localhost:9080/daytrader/app,98,0,2\r\n\
             1348221842308,813,\"Sell, confirm\",500,\"Internal \"\"Server\"\" Error\",Users 1-2,text,false,\"Test failed: expected \"\"ok, done\"\"\",310,402,5,5,http://localhost:9080/daytrader/app?action=sell,700,0,1\r\n\
             1348221843000,95,\"Say \"\"hi\"\", then buy\",200,OK,Users 1-3,text,true,,5120,431,5,5,http://x,90,0,0\r\n"
        );
    let log = jtl(&text);
    assert_eq!(
        rows(&log),
        vec![
            (
                "2012-09-21T10:04:02.428".into(),
                120.0,
                None,
                None,
                None,
                "Home".into(),
                true,
                false,
                2
            ),
            (
                "2012-09-21T10:04:03.121".into(),
                813.0,
                None,
                None,
                None,
                "Sell, confirm".into(),
                false,
                false,
                3
            ),
            (
                "2012-09-21T10:04:03.095".into(),
                95.0,
                None,
                None,
                None,
                "Say \"hi\", then buy".into(),
                true,
                false,
                4
            ),
        ]
    );
    assert_eq!((log.lines, log.skipped_lines), (4, 0));
    assert_eq!(detect(text.as_bytes()), Some(JMETER_JTL));
}

#[test]
fn jtl_columns_by_name_fewer_and_reordered() {
    let log = jtl("label,success,elapsed,timeStamp\n\
             Home,true,120,1348221842308\n\
             Buy,FALSE,813,1348221842308\n");
    let r = rows(&log);
    assert_eq!(
        r[0],
        (
            "2012-09-21T10:04:02.428".into(),
            120.0,
            None,
            None,
            None,
            "Home".into(),
            true,
            false,
            2
        )
    );
    assert_eq!(
        (r[1].0.as_str(), r[1].5.as_str(), r[1].6),
        ("2012-09-21T10:04:03.121", "Buy", false)
    );
    // A BOM before the header does not hide it.
    let log = jtl("\u{FEFF}label,success,elapsed,timeStamp\nHome,true,120,1348221842308\n");
    assert_eq!((log.records.len(), log.skipped_lines), (1, 0));
    // Without `success` and `label` columns: nothing says a sample failed, no name.
    let log = jtl("elapsed,timeStamp\n120,1348221842308\n");
    assert_eq!(
        (log.records[0].ok, log.strings.get(log.records[0].operation)),
        (true, "")
    );
}

#[test]
fn jtl_date_string_timestamp() {
    let log = jtl(&format!(
            "{JTL_HEADER}\n2012/09/21 12:04:02.308,813,Quote,200,OK,Users 1-1,text,true,,5120,431,5,5,http://x,98,0,2\n"
        ));
    let r = rows(&log);
    // A text stamp is local time, taken as UTC like the semicolon log's dates.
    assert_eq!(
        (r[0].0.as_str(), r[0].1, r[0].5.as_str()),
        ("2012-09-21T12:04:03.121", 813.0, "Quote")
    );
    assert_eq!(log.skipped_lines, 0);
}

#[test]
fn jtl_without_header_default_order() {
    let text = "1348221842308,120,Home,200,OK,Users 1-1,text,true,,5120,431,5,5,http://x,98,0,2\n\
                    1348221842308,813,Buy,500,Error,Users 1-1,text,false\n";
    let log = jtl(text);
    let r = rows(&log);
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].0.as_str(), r[0].5.as_str(), r[0].6),
        ("2012-09-21T10:04:02.428", "Home", true)
    );
    assert_eq!(
        (r[1].0.as_str(), r[1].5.as_str(), r[1].6),
        ("2012-09-21T10:04:03.121", "Buy", false)
    );
    assert_eq!(detect(text.as_bytes()), Some(JMETER_JTL));
}

#[test]
fn jtl_quoted_field_spanning_lines() {
    let log = jtl(&format!(
            "{JTL_HEADER}\n\
             1348221842308,813,Buy,500,Error,Users 1-1,text,false,\"Assertion failed:\nline two\r\nline three\",1,1,1,1,http://x,1,0,0\n\
             1348221843000,95,Home,200,OK,Users 1-1,text,true,,1,1,1,1,http://x,1,0,0\n"
        ));
    let lines: Vec<(u64, bool)> = log.records.iter().map(|r| (r.line, r.ok)).collect();
    assert_eq!(lines, vec![(2, false), (5, true)]);
    assert_eq!((log.lines, log.skipped_lines), (5, 0));
}

#[test]
fn jtl_bad_rows_skipped_and_counted() {
    let log = jtl(&format!(
        "{JTL_HEADER}\n\
             1348221842308,abc,Home,200,OK,U,text,true\n\
             1348221842308,-5,Home,200,OK,U,text,true\n\
             1348221842308,120,Home,200,OK,U,text,maybe\n\
             1348221842308,120,Home\n\
             1348221842308,120,\"Home\"x,200,OK,U,text,true\n\
             2012/02/30 12:00:00.000,120,Home,200,OK,U,text,true\n\
             1348221842308,120,Home,200,OK,U,text,true\n\
             1348221842308,120,\"never closed,200,OK,U,text,true\n\
             1348221843000,95,Home,200,OK,U,text,true\n"
    ));
    let lines: Vec<u64> = log.records.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![8, 10]);
    assert_eq!(log.skipped_lines, 7);
    let bad: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
    assert_eq!(bad, vec![2, 3, 4, 5, 6]);
    assert_eq!(log.lines, 10);
}

fn grinder(s: &str) -> PerfLog {
    parse(GRINDER, s.as_bytes())
}

#[test]
fn grinder_rows() {
    let text = "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, HTTP response code, HTTP response length\n\
                    0, 0, 1, 1348221842308, 63, 0, 200, 5234\n\
                    1, 0, 12, 1348221842308, 813, 1, 500, 310\n\
                    1, 0, 2, 1348221842308, 81\n\
                    0, 0, 2, 1348221843000, 95, 0, 200, 1000\n";
    let log = grinder(text);
    assert_eq!(
        rows(&log),
        vec![
            (
                "2012-09-21T10:04:02.371".into(),
                63.0,
                None,
                None,
                None,
                "test 1".into(),
                true,
                false,
                2
            ),
            (
                "2012-09-21T10:04:03.121".into(),
                813.0,
                None,
                None,
                None,
                "test 12".into(),
                false,
                false,
                3
            ),
            (
                "2012-09-21T10:04:03.095".into(),
                95.0,
                None,
                None,
                None,
                "test 2".into(),
                true,
                false,
                5
            ),
        ]
    );
    assert_eq!((log.lines, log.skipped_lines, log.bad[0].line), (5, 1, 4));
    assert_eq!(detect(text.as_bytes()), Some(GRINDER));
    // Without the header: the standard column order, also for detection.
    let rows_only = "0, 0, 1, 1348221842308, 63, 0\n";
    let log = grinder(rows_only);
    assert_eq!(log.records.len(), 1);
    assert_eq!(
        format_wall_ms(log.records[0].end_ms),
        "2012-09-21T10:04:02.371"
    );
    assert_eq!(detect(rows_only.as_bytes()), Some(GRINDER));
}

/// Sums of the fixtures' totals, as their generator computed them.
fn total(log: &PerfLog) -> f64 {
    log.records.iter().map(|r| r.total_ms).sum()
}

fn op_count(log: &PerfLog, name: &str) -> usize {
    log.records
        .iter()
        .filter(|r| log.strings.get(r.operation) == name)
        .count()
}

#[test]
fn fixture_soap_before() {
    let buf = include_bytes!("../../fixtures/perf/soap-before.log");
    assert_eq!(detect(buf), Some(SEMICOLON));
    let log = parse(SEMICOLON, buf);
    assert_eq!(log.records.len(), 480);
    // The last line was cut while the log was being written.
    assert_eq!(
        (log.lines, log.skipped_lines, log.bad[0].line),
        (481, 1, 481)
    );
    assert_eq!(total(&log), 348307.0);
    let java: f64 = log.records.iter().filter_map(|r| r.java_ms).sum();
    let db: f64 = log.records.iter().filter_map(|r| r.db_ms).sum();
    let calls: u32 = log.records.iter().filter_map(|r| r.db_calls).sum();
    assert_eq!((java, db, calls), (37807.0, 310492.0, 3174));
    assert_eq!(log.records.iter().filter(|r| !r.ok).count(), 3);
    let inc: Vec<u64> = log
        .records
        .iter()
        .filter(|r| r.inconsistent)
        .map(|r| r.line)
        .collect();
    assert_eq!(inc, vec![132]);
    let in_band = log
        .records
        .iter()
        .filter(|r| (200.0..=1000.0).contains(&r.total_ms))
        .count();
    assert_eq!(in_band, 436);
    assert_eq!(op_count(&log, "loadCustomersList"), 153);
    assert_eq!(op_count(&log, "getContract"), 121);
    assert_eq!(op_count(&log, "saveOrder"), 58);
    assert_eq!(op_count(&log, "getBalance"), 92);
    assert_eq!(op_count(&log, "searchCustomer"), 56);
    assert_eq!(
        format_wall_ms(log.records[0].end_ms),
        "2012-09-21T12:00:03.188"
    );
    assert_eq!(
        format_wall_ms(log.records[479].end_ms),
        "2012-09-21T12:17:04.018"
    );
}

#[test]
fn fixture_soap_after() {
    let buf = include_bytes!("../../fixtures/perf/soap-after.log");
    assert_eq!(detect(buf), Some(SEMICOLON));
    let log = parse(SEMICOLON, buf);
    assert_eq!(
        (log.records.len(), log.lines, log.skipped_lines),
        (520, 520, 0)
    );
    assert_eq!(total(&log), 16709.0);
    assert_eq!(log.records.iter().filter(|r| !r.ok).count(), 2);
    let inc: Vec<u64> = log
        .records
        .iter()
        .filter(|r| r.inconsistent)
        .map(|r| r.line)
        .collect();
    assert_eq!(inc, vec![278]);
    assert_eq!(
        log.records.iter().filter(|r| r.total_ms < 50.0).count(),
        488
    );
    assert_eq!(op_count(&log, "loadCustomersList"), 184);
    assert_eq!(
        format_wall_ms(log.records[0].end_ms),
        "2012-10-05T12:00:03.530"
    );
    assert_eq!(
        format_wall_ms(log.records[519].end_ms),
        "2012-10-05T12:19:29.191"
    );
}

#[test]
fn fixture_jmeter_daytrader() {
    let buf = include_bytes!("../../fixtures/perf/jmeter-daytrader.jtl");
    assert_eq!(detect(buf), Some(JMETER_JTL));
    let log = parse(JMETER_JTL, buf);
    assert_eq!(
        (log.records.len(), log.lines, log.skipped_lines),
        (200, 201, 0)
    );
    assert_eq!(total(&log), 12138.0);
    let failed: Vec<u64> = log
        .records
        .iter()
        .filter(|r| !r.ok)
        .map(|r| r.line)
        .collect();
    assert_eq!(failed, vec![25, 99, 152, 183]);
    assert_eq!(op_count(&log, "Sell, confirm"), 15);
    assert_eq!(op_count(&log, "Quote"), 59);
    assert_eq!(op_count(&log, "Home"), 42);
    // "" and seven labels, and the four failures' messages (see perf --by error's test).
    assert_eq!(log.strings.len(), 12);
    assert_eq!(
        format_wall_ms(log.records[0].end_ms),
        "2012-09-21T10:04:02.543"
    );
    assert_eq!(
        format_wall_ms(log.records[199].end_ms),
        "2012-09-21T10:04:45.323"
    );
}

#[test]
fn fixture_grinder_trader() {
    let buf = include_bytes!("../../fixtures/perf/grinder-data_trader.log");
    assert_eq!(detect(buf), Some(GRINDER));
    let log = parse(GRINDER, buf);
    assert_eq!(
        (log.records.len(), log.lines, log.skipped_lines),
        (200, 201, 0)
    );
    assert_eq!(total(&log), 11452.0);
    assert_eq!(log.records.iter().filter(|r| !r.ok).count(), 3);
    for t in 1..=5 {
        assert_eq!(op_count(&log, &format!("test {t}")), 40);
    }
    assert_eq!(
        format_wall_ms(log.records[0].end_ms),
        "2012-09-21T10:04:02.371"
    );
}

#[test]
fn detect_each_format_past_noise() {
    let semi = format!(
        "Performance log started\n\nid;time;total;java;db;dbcalls;operation;error\n{EXAMPLE}"
    );
    assert_eq!(detect(semi.as_bytes()), Some(SEMICOLON));
    let prefixed = "2012-09-21 12:04:02,310 INFO [perf] [7842BD26];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n";
    assert_eq!(detect(prefixed.as_bytes()), Some(SEMICOLON));
    assert_eq!(
        detect(format!("\n\n{JTL_HEADER}\n").as_bytes()),
        Some(JMETER_JTL)
    );
    let jtl_rows =
        "garbage line\n2012/09/21 12:04:02.308,813,Quote,200,OK,Users 1-1,text,true,,5120\n";
    assert_eq!(detect(jtl_rows.as_bytes()), Some(JMETER_JTL));
    let grinder = "\nThread, Run, Test, Start time (ms since Epoch), Test time, Errors\n";
    assert_eq!(detect(grinder.as_bytes()), Some(GRINDER));
    // Neither a semicolon record (no date), nor a JTL or Grinder row.
    assert_eq!(detect(b"a;b;c;d\n1,2,3\n0, 0, 1, 15, 3, 0\nhello\n"), None);
}

#[test]
fn detect_gc_logs_none() {
    let lines: [&[u8]; 5] = [
            b"0.294: [GC 0.294: [ParNew: 104960K->13042K(118016K), 0.0284337 secs] 104960K->34501K(249088K), 0.0285898 secs]\n",
            b"2013-05-22T15:42:34.123+0200: 1.0: [Full GC (System.gc()) 1K->1K(2K), 0.1 secs]\n",
            b"[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n",
            b"[0.207s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n",
            b"[2019-03-05T14:11:18.470+0100][gc] GC(3) Pause Full (System.gc()) 5M->4M(16M) 11.5ms\n",
        ];
    for l in lines {
        assert_eq!(detect(l), None, "{}", String::from_utf8_lossy(l));
    }
    let fixtures: [&[u8]; 8] = [
        include_bytes!("../../fixtures/hotspot/jdk142-parnew-cms-incremental.log"),
        include_bytes!("../../fixtures/hotspot/jdk8-g1-details.log"),
        include_bytes!("../../fixtures/hotspot/jdk8-parallel-datestamps.log"),
        include_bytes!("../../fixtures/jrockit/r26-detgc.log"),
        include_bytes!("../../fixtures/jrockit/r26-gencon.log"),
        include_bytes!("../../fixtures/jrockit/r28-gencon-gcpause.log"),
        include_bytes!("../../fixtures/unified/g1-jdk17.log"),
        include_bytes!("../../fixtures/unified/zgc-jdk21.log"),
    ];
    for (i, f) in fixtures.iter().enumerate() {
        assert_eq!(detect(f), None, "GC fixture {i}");
    }
}

const ALL: [PerfFormat; 3] = [SEMICOLON, JMETER_JTL, GRINDER];

#[test]
fn empty_input() {
    for f in ALL {
        for buf in [&b""[..], b"\n", b"\r\n\r\n", b"\xEF\xBB\xBF"] {
            let log = parse(f, buf);
            assert!(log.records.is_empty());
            assert_eq!(log.skipped_lines, 0, "{f:?} {buf:?}");
        }
    }
    assert_eq!(detect(b""), None);
    assert_eq!(detect(b"\xEF\xBB\xBF\n\n"), None);
}

/// xorshift64*: deterministic pseudo-random bytes.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn run_all(buf: &[u8]) {
    let _ = detect(buf);
    for f in ALL {
        let log = parse(f, buf);
        assert!(log.skipped_lines + log.records.len() as u64 <= log.lines.max(1) * 2);
        assert!(log.bad.len() <= crate::model::BAD_LINES_KEPT);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Pure noise, and noise over an alphabet of the formats' own bytes.
    let alphabet = b";,\"\n\r[]- :./0123456789eE+truefalsTest";
    for round in 0..3000 {
        let len = rng.below(300);
        let buf: Vec<u8> = (0..len)
            .map(|_| {
                if round % 2 == 0 {
                    rng.next() as u8
                } else {
                    alphabet[rng.below(alphabet.len())]
                }
            })
            .collect();
        run_all(&buf);
    }
}

#[test]
fn mutated_records_never_panic() {
    let jtl_text = format!("{JTL_HEADER}\n1348221842308,813,\"Sell, confirm\",500,\"a \"\"b\"\"\",U,text,false,,1,1,1,1,http://x,1,0,0\n");
    let seeds: [&[u8]; 4] = [
            EXAMPLE.as_bytes(),
            jtl_text.as_bytes(),
            b"Thread, Run, Test, Start time (ms since Epoch), Test time, Errors\n0, 0, 1, 1348221842308, 63, 0\n",
            b"2012-09-21 12:04:02,310 INFO [perf] [7842];2012-09-21 12:04:02.308;813;78;735;2;op;e-x\n",
        ];
    let mut rng = Rng(42);
    for seed in seeds {
        // Every truncation.
        for cut in 0..=seed.len() {
            run_all(&seed[..cut]);
        }
        // Random byte edits.
        for _ in 0..2000 {
            let mut b = seed.to_vec();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(b.len());
                match rng.below(3) {
                    0 => b[i] = rng.next() as u8,
                    1 => {
                        b.remove(i);
                    }
                    _ => b.insert(i, b";,\"\n9-"[rng.below(6)]),
                }
            }
            run_all(&b);
        }
    }
}

#[test]
fn non_utf8() {
    // Latin-1 / CP1251 bytes in the operation name and the error text; a binary line.
    let buf = b"[1];2012-09-21 12:04:02.308;813;78;735;2;load\xC7\xE0\xEA\xE0\xE7;e-\xCE\xF8\xE8\xE1\xEA\xE0\n\xFF\xFE\x00\x01;;\n";
    let log = parse(SEMICOLON, buf);
    assert_eq!(log.records.len(), 1);
    assert_eq!(
        log.strings.get(log.records[0].operation),
        "load\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"
    );
    assert!(!log.records[0].ok);
    assert_eq!((log.skipped_lines, log.bad[0].line), (1, 2));
    assert_eq!(detect(buf), Some(SEMICOLON));
    let jtl = b"timeStamp,elapsed,label,success\n1348221842308,120,\xE9t\xE9,true\n";
    let log = parse(JMETER_JTL, jtl);
    assert_eq!(
        log.strings.get(log.records[0].operation),
        "\u{FFFD}t\u{FFFD}"
    );
}

/// (record, ignored, skipped) lines, every line counted once.
fn counts(log: &PerfLog) -> (u64, u64, u64) {
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines,
        "accounting"
    );
    (log.record_lines, log.ignored_lines, log.skipped_lines)
}

const JTL_SHORT: &str = "timeStamp,elapsed,label,success";
const GRINDER_HEADER: &str = "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors";

#[test]
fn line_accounting_per_format() {
    let log = semi(&format!(
        "id;time;total;java;db;dbcalls;operation;error\n\n{EXAMPLE}garbage\n  \n"
    ));
    assert_eq!(counts(&log), (2, 3, 1));
    let log = jtl(&format!(
        "{JTL_SHORT}\n\n1348221842308,120,\"Multi\nline\",true\nbad,row\n{JTL_SHORT}\n1348221842308,5,x,false\n"
    ));
    // The record spanning two lines is two record lines; the repeated header is ignored.
    assert_eq!(log.lines, 7);
    assert_eq!(counts(&log), (3, 3, 1));
    assert_eq!(log.records[1].line, 7);
    // A bad record spanning two lines: both skipped.
    let log = jtl(&format!(
        "{JTL_SHORT}\n1348221842308,abc,\"Multi\nline\",true\n"
    ));
    assert_eq!(counts(&log), (0, 1, 2));
    let log = grinder(&format!(
        "{GRINDER_HEADER}\n\n0, 0, 1, 1348221842308, 63, 0\nThread, nothing\n0, 0, 1, 1348221842308\n"
    ));
    // A `Thread` line without the columns rows need is no header we can use: skipped.
    assert_eq!(counts(&log), (1, 2, 2));
}

#[test]
fn cr_only_line_ends() {
    // Old Mac line ends in each format: every request read.
    let text = EXAMPLE.replace('\n', "\r");
    let log = semi(&text);
    assert_eq!(rows(&log), example_rows());
    assert_eq!(counts(&log), (2, 0, 0));
    // Without the last line end: the last record is complete (its `;`), so read.
    let log = semi(text.trim_end_matches('\r'));
    assert_eq!((log.records.len(), log.lines), (2, 2));
    let log = semi("[1];2012-09-21 12:04:03.000;40;10;30;1;getContract;\r[2];2012-09-21 12:04:03.000;40;10;30;1;getCon");
    assert_eq!(counts(&log), (1, 0, 1));

    let log = jtl(&format!(
        "{JTL_SHORT}\r1348221842308,120,Home,true\r1348221842308,813,\"Sell,\rconfirm\",false\r\r1348221843000,95,Home,true"
    ));
    let r: Vec<(u64, f64, bool)> = log
        .records
        .iter()
        .map(|r| (r.line, r.total_ms, r.ok))
        .collect();
    assert_eq!(r, [(2, 120.0, true), (3, 813.0, false), (6, 95.0, true)]);
    assert_eq!(log.strings.get(log.records[1].operation), "Sell,\rconfirm");
    assert_eq!(log.lines, 6);
    assert_eq!(counts(&log), (4, 2, 0));
    // Mixed: CRLF, a lone CR, LF.
    let log = jtl(&format!(
        "{JTL_SHORT}\r\n1348221842308,120,Home,true\r1348221842308,121,Home,true\n1348221842308,122,Home,true\r\n"
    ));
    assert_eq!(counts(&log), (3, 1, 0));

    let log = grinder(&format!(
        "{GRINDER_HEADER}\r0, 0, 1, 1348221842308, 63, 0\r1, 0, 2, 1348221842308, 81, 1\r"
    ));
    assert_eq!(log.records.len(), 2);
    assert_eq!(log.records[1].line, 3);
    assert_eq!(counts(&log), (2, 1, 0));
    assert_eq!(detect(text.as_bytes()), Some(SEMICOLON));
}

#[test]
fn nul_padding() {
    let log = semi(&format!("{EXAMPLE}\0\0\0\0"));
    assert_eq!(counts(&log), (2, 1, 0));
    let log = jtl(&format!(
        "{JTL_SHORT}\n1348221842308,120,Home,true\0\0\n1348221842308,120,\"Home\",true\0\n\0\0\0"
    ));
    assert_eq!(log.records.len(), 2);
    assert_eq!(counts(&log), (2, 2, 0));
    let log = grinder(&format!(
        "{GRINDER_HEADER}\n0, 0, 1, 1348221842308, 63, 0\0\0\n\0\0"
    ));
    assert_eq!(counts(&log), (1, 2, 0));
}

#[test]
fn values_that_cannot_be_true_are_skipped() {
    let ones = "1".repeat(400);
    let bad = [
        "NaN",
        "nan",
        "inf",
        "-inf",
        "Infinity",
        "-1",
        "-0.5",
        "1e308",
        "1e400",
        "86400001",
        "86400000.5",
        ones.as_str(),
        "8\u{0}13",
        "81\u{1}3",
    ];
    // Semicolon log: total, Java and DB time each.
    for field in 0..3 {
        for v in bad {
            let mut f = ["813", "78", "735"];
            f[field] = v;
            let line = format!(
                "[1];2012-09-21 12:04:02.308;{};{};{};2;loadCustomersList;\n",
                f[0], f[1], f[2]
            );
            let log = semi(&line);
            assert_eq!(counts(&log), (0, 0, 1), "{line:?}");
        }
    }
    // A day exactly, and a decimal figure with a 400-digit fraction, are believed.
    let log = semi(&format!(
        "[1];2012-09-21 12:04:02.308;86400000;0;86400000;2;op;\n[2];2012-09-21 12:04:02.308;0.{ones};0;0;1;op;\n"
    ));
    assert_eq!(counts(&log), (2, 0, 0));
    assert_eq!(log.records[0].total_ms, 86_400_000.0);
    for v in bad {
        let log = jtl(&format!("{JTL_SHORT}\n1348221842308,{v},Home,true\n"));
        assert_eq!(counts(&log), (0, 1, 1), "jtl {v:?}");
        let log = grinder(&format!(
            "{GRINDER_HEADER}\n0, 0, 1, 1348221842308, {v}, 0\n"
        ));
        assert_eq!(counts(&log), (0, 1, 1), "grinder {v:?}");
    }
    let log = jtl(&format!("{JTL_SHORT}\n1348221842308,86400000,Home,true\n"));
    assert_eq!(counts(&log), (1, 1, 0));
}

#[test]
fn impossible_dates_are_skipped() {
    for date in [
        "2012-02-30 12:04:02.308",
        "2013-02-29 12:04:02.308",
        "2012-04-31 12:04:02.308",
        "2012-09-21 24:04:02.308",
        "2012-09-21 12:60:02.308",
        "2012-00-21 12:04:02.308",
    ] {
        let log = semi(&format!("[1];{date};813;78;735;2;op;\n"));
        assert_eq!(counts(&log), (0, 0, 1), "{date}");
        let log = jtl(&format!(
            "{JTL_SHORT}\n{},120,Home,true\n",
            date.replace('-', "/")
        ));
        assert_eq!(counts(&log), (0, 1, 1), "jtl {date}");
    }
    let log = semi("[1];2012-02-29 12:04:02.308;813;78;735;2;op;\n");
    assert_eq!(counts(&log), (1, 0, 0));
    // Epoch stamps past the year 9999.
    let log = jtl(&format!(
        "{JTL_SHORT}\n253402300800000,120,Home,true\n253402300799000,120,Home,true\n"
    ));
    assert_eq!(counts(&log), (1, 1, 1));
    let log = grinder(&format!(
        "{GRINDER_HEADER}\n0, 0, 1, 253402300800000, 63, 0\n0, 0, 1, 99999999999999999999999, 63, 0\n0, 0, 1, 253402300799000, 63, 0\n"
    ));
    assert_eq!(counts(&log), (1, 1, 2));
}

#[test]
fn long_names_are_capped() {
    let long = "x".repeat(100_000);
    let log = semi(&format!(
        "[1];2012-09-21 12:04:02.308;813;78;735;2;{long};\n"
    ));
    assert_eq!(counts(&log), (1, 0, 0));
    assert_eq!(log.strings.get(log.records[0].operation).len(), 256);
    // Quoted: 50,000 characters (over 64 KB would be taken for a stray quote).
    let quoted = "x".repeat(50_000);
    let log = jtl(&format!(
        "{JTL_SHORT}\n1348221842308,120,{long},true\n1348221842308,120,\"a\"\"{quoted}\",true\n"
    ));
    assert_eq!(counts(&log), (2, 1, 0));
    assert_eq!(log.strings.get(log.records[0].operation).len(), 256);
    assert_eq!(log.strings.get(log.records[1].operation).len(), 256);
    assert!(log
        .strings
        .get(log.records[1].operation)
        .starts_with("a\"xxx"));
    // Multi-byte characters: cut at a character boundary.
    let wide = "ж".repeat(1000);
    let log = semi(&format!(
        "[1];2012-09-21 12:04:02.308;813;78;735;2;{wide};\n"
    ));
    assert_eq!(log.strings.get(log.records[0].operation), "ж".repeat(128));
}

/// A 20 MB line in each format, in several shapes: one line, read or skipped (linear time:
/// checked once by hand on the release build, not asserted).
#[test]
fn twenty_megabyte_lines() {
    const N: usize = 20 << 20;
    let time = |what: &str, f: PerfFormat, buf: &[u8]| {
        let t = std::time::Instant::now();
        let log = parse(f, buf);
        eprintln!("{what}: {:?}", t.elapsed());
        log
    };
    let long = "x".repeat(N);
    let digits = "7".repeat(N);
    let s = SEMICOLON;
    let j = JMETER_JTL;
    let g = GRINDER;
    type Case = (&'static str, PerfFormat, String, (u64, u64, u64));
    let cases: Vec<Case> = vec![
        (
            "semi long op",
            s,
            format!("[1];2012-09-21 12:04:02.308;813;78;735;2;{long};\n"),
            (1, 0, 0),
        ),
        (
            "semi long error",
            s,
            format!("[1];2012-09-21 12:04:02.308;813;78;735;2;op;e-{long}\n"),
            (1, 0, 0),
        ),
        (
            "semi digits",
            s,
            format!("[1];2012-09-21 12:04:02.308;{digits};78;735;2;op;\n"),
            (0, 0, 1),
        ),
        ("semi semicolons", s, ";".repeat(N), (0, 0, 1)),
        (
            "semi dates",
            s,
            ";2012-09-21 12:04:02.308".repeat(N / 24),
            (0, 0, 1),
        ),
        (
            "semi id",
            s,
            format!("{long};2012-09-21 12:04:02.308;1;1;0;1;op;"),
            (1, 0, 0),
        ),
        (
            "jtl long label",
            j,
            format!("{JTL_SHORT}\n1348221842308,120,{long},true\n"),
            (1, 1, 0),
        ),
        (
            "jtl long quoted",
            j,
            format!("{JTL_SHORT}\n1348221842308,120,\"{long}\",true\n"),
            (0, 1, 1),
        ),
        (
            "jtl commas",
            j,
            format!("{JTL_SHORT}\n{}\n", ",".repeat(N)),
            (0, 1, 1),
        ),
        (
            "jtl quotes",
            j,
            format!("{JTL_SHORT}\n{}\n", "\"".repeat(N)),
            (0, 1, 1),
        ),
        (
            "jtl quote pairs",
            j,
            format!("{JTL_SHORT}\n{}\n", "\"\",".repeat(N / 3)),
            (0, 1, 1),
        ),
        (
            "jtl digits",
            j,
            format!("{JTL_SHORT}\n1348221842308,{digits},Home,true\n"),
            (0, 1, 1),
        ),
        (
            "grinder header",
            g,
            format!(
                "Thread{}\n0, 0, 1, 1348221842308, 63, 0\n",
                ", x".repeat(N / 3)
            ),
            (1, 0, 1),
        ),
        ("grinder commas", g, ",".repeat(N), (0, 0, 1)),
        (
            "grinder digits",
            g,
            format!("0, 0, 1, 1348221842308, {digits}, 0\n"),
            (0, 0, 1),
        ),
    ];
    for (what, f, text, want) in cases {
        let log = time(what, f, text.as_bytes());
        assert_eq!(counts(&log), want, "{what}");
        assert!(log.strings.list().iter().all(|s| s.len() <= 256), "{what}");
    }
    // 20 MB of newlines between quotes: one record of a million lines, skipped whole.
    let text = format!(
        "{JTL_SHORT}\n1348221842308,120,\"{}\",true\n",
        "\n".repeat(1 << 20)
    );
    let log = time("jtl quoted lines", j, text.as_bytes());
    // A quoted field over 64 KB is a stray quote: its first line skipped, then every blank
    // line, then the last line (`",true`) skipped.
    assert_eq!(counts(&log), (0, 1 + (1 << 20) - 1, 2));
}

#[test]
fn fixtures_account_for_every_line() {
    let cases: [(PerfFormat, &[u8], u64); 4] = [
        (
            SEMICOLON,
            include_bytes!("../../fixtures/perf/soap-before.log"),
            1,
        ),
        (
            SEMICOLON,
            include_bytes!("../../fixtures/perf/soap-after.log"),
            0,
        ),
        (
            JMETER_JTL,
            include_bytes!("../../fixtures/perf/jmeter-daytrader.jtl"),
            0,
        ),
        (
            GRINDER,
            include_bytes!("../../fixtures/perf/grinder-data_trader.log"),
            0,
        ),
    ];
    for (f, buf, skipped) in cases {
        let log = parse(f, buf);
        let (r, _, s) = counts(&log);
        assert_eq!(s, skipped, "{f:?}");
        assert_eq!(r, log.records.len() as u64, "{f:?}");
    }
}

/// A pair overlaps as starts where the later stamp is before the earlier stamp plus its time,
/// as ends where the later stamp less its time is before the earlier stamp; a millisecond
/// either way is not an overlap. Worked out by hand per pair below.
#[test]
fn thread_pairs_are_counted_both_ways() {
    let mut t = Threads::default();
    let mut o = StampOrder::default();
    t.next(b"a", 1000, 100, &mut o); // a's first: no pair
    t.next(b"b", 1000, 500, &mut o); // b's first
    t.next(b"a", 1050, 40, &mut o); // starts: 1050 < 1100 overlap; ends: 1010 >= 1000
    t.next(b"a", 1089, 10, &mut o); // starts: 1089 is 1090 less one ms; ends: 1079 >= 1050
    t.next(b"b", 1400, 450, &mut o); // starts: 1400 < 1500; ends: 950 < 1000: both
    t.next(b"b", 1900, 499, &mut o); // starts: 1900 >= 1850; ends: 1401 >= 1400
    assert_eq!(
        o,
        StampOrder {
            pairs: 4,
            overlap_as_starts: 2,
            overlap_as_ends: 1
        }
    );
    // Weighed over the first 256 pairs: 300 more on one thread, each overlapping as starts.
    for k in 0..300 {
        t.next(b"c", 2000 + 10 * k, 15, &mut o);
    }
    assert_eq!((o.pairs, o.overlap_as_starts), (256, 2 + 252));
}

/// Ends only on clear evidence: 20 pairs at least, a tenth overlapping as starts, at most one
/// in a hundred as ends.
#[test]
fn stamps_are_ends_only_on_clear_evidence() {
    let o = |pairs, s, e| StampOrder {
        pairs,
        overlap_as_starts: s,
        overlap_as_ends: e,
    };
    assert!(o(20, 2, 0).ends());
    assert!(!o(19, 19, 0).ends());
    assert!(!o(100, 9, 0).ends());
    assert!(o(100, 10, 1).ends());
    assert!(!o(100, 50, 2).ends());
    assert!(!o(0, 0, 0).ends());
}

/// A JTL's rows counted by their `threadName` (found by the header, or fifth in JMeter's order
/// without one), the stamp a start or an end: thread A's second row begins 20 ms into its first
/// read as starts (1000 + 50 > 1030), not as ends (1030 - 10 >= 1000); B's pair overlaps
/// neither way; a row without the column is not counted.
#[test]
fn jtl_rows_are_paired_by_thread() {
    let want = StampOrder {
        pairs: 2,
        overlap_as_starts: 1,
        overlap_as_ends: 0,
    };
    let header = "timeStamp,elapsed,label,threadName,success\n\
                  1000,50,x,A,true\n1000,5,x,B,true\n1030,10,x,A,true\n1100,5,x,B,true\n";
    assert_eq!(jtl(header).stamps, want);
    let headerless = "1000,50,x,200,OK,A,text,true,\n1000,5,x,200,OK,B,text,true,\n\
                      1030,10,x,200,OK,A,text,true,\n1100,5,x,200,OK,B,text,true,\n";
    assert_eq!(jtl(headerless).stamps, want);
    let no_thread = "timeStamp,elapsed,label,success\n1000,50,x,true\n1030,10,x,true\n";
    assert_eq!(jtl(no_thread).stamps, StampOrder::default());
}

/// Quoted fields that run over every line end to a malformed quote far on (`w"q`): the record
/// from each line is malformed there, so each line is skipped in turn (the rows a stray quote
/// would swallow are read from the next line), and the line with the bad quote is a record of
/// no row. Each next line's record meets a field start of the one before (`7` after `y",`)
/// and is not read out to the quote again: 50,000 such lines in linear time.
#[test]
fn records_malformed_far_on_are_not_read_out_again_from_each_line() {
    let text = |n: usize| {
        let mut s = String::from("timeStamp,elapsed,label,success\n1000,5,a,\"x\n");
        s += &"y\",7,b,\"z\n".repeat(n);
        s += "w\"q,1,1,true\n2000,5,ok,true\n";
        s
    };
    // By hand, three chained lines (3-5): the header (1) ignorable, lines 2-6 skipped (2-5
    // malformed at line 6's quote, 6 a record whose stamp is `w"q`), the row at 7 read.
    let log = jtl(&text(3));
    assert_eq!(log.records.len(), 1);
    assert_eq!(log.records[0].line, 7);
    assert_eq!(
        (
            log.lines,
            log.record_lines,
            log.ignored_lines,
            log.skipped_lines
        ),
        (7, 1, 1, 5)
    );
    let n = 50_000;
    let t = std::time::Instant::now();
    let log = jtl(&text(n));
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(log.records.len(), 1);
    assert_eq!(log.skipped_lines, n as u64 + 2);
    assert!(secs < 10.0, "{secs} s");
}

#[test]
fn a_row_left_open_is_a_jtl_row_only_with_a_stamp_a_jtl_row_may_have() {
    // Fields quoted over two lines: in JMeter's default order, the ms stamp of a JTL row opens
    // one; a nanosecond stamp (vegeta's results, 19 digits, past any wall clock gcperf reads)
    // does not, and the line after it is not taken for the inside of a quoted field.
    let lines = |stamp: &str| {
        let mut r = JMETER_JTL.recogniser().expect("JTL reads lines in turn");
        [
            format!("{stamp},5,home,500,\"dial tcp:"),
            "refused\",t1,text,false,,100".to_string(),
        ]
        .map(|l| r.line(l.as_bytes()))
    };
    assert_eq!(
        lines("1709632800000"),
        [Recognised::Own, Recognised::Inside]
    );
    assert_eq!(
        lines("1709632800000000000"),
        [Recognised::No, Recognised::No]
    );
}
