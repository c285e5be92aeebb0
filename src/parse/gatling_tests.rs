//! Tests of `gatling.rs`. Figures worked out by hand from the fixtures (end stamp minus start
//! stamp; the 2.0 log's last stamp minus its first).

use super::*;

fn read(name: &str) -> PerfLog {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/gatling")
        .join(name);
    parse(&std::fs::read(path).unwrap())
}

/// Each record as (operation, time, end, ok, error), and the line accounting.
fn rows(log: &PerfLog) -> Vec<(String, f64, i64, bool, Option<String>)> {
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines
    );
    log.records
        .iter()
        .map(|r| {
            (
                log.strings.get(r.operation).to_string(),
                r.total_ms,
                r.end_ms,
                r.ok,
                r.error.map(|e| log.strings.get(e).to_string()),
            )
        })
        .collect()
}

fn row(op: &str, ms: f64, end: i64, err: Option<&str>) -> (String, f64, i64, bool, Option<String>) {
    (op.into(), ms, end, err.is_none(), err.map(str::to_string))
}

#[test]
fn version_3_5_requests_groups_and_errors() {
    let log = read("v3.5-simulation.log");
    assert_eq!(
        rows(&log),
        [
            row("Home", 451.0, 1611903781828, None),
            row("Search", 100.0, 1611903782000, None),
            row("Checkout / Cart", 200.0, 1611903782210, None),
            row(
                "Checkout / Pay",
                190.0,
                1611903782410,
                Some("status.find.in(200,201,202,203,204,205,206,207,208,209,304), but actually found 500")
            ),
            row("Checkout / Confirm / Receipt", 80.0, 1611903782500, Some("KO")),
        ]
    );
    // RUN, two USER, GROUP, ERROR, ASSERTION; a line of no kind and a request that ends
    // before it starts.
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
fn version_3_0_user_id_before_the_groups() {
    assert_eq!(
        rows(&read("v3.0-simulation.log")),
        [
            row("request_1", 134.0, 1541503207601, None),
            row(
                "request_2",
                50.0,
                1541503207750,
                Some("i.g.h.c.i.RequestTimeoutException: Request timeout after 60000 ms")
            ),
        ]
    );
}

#[test]
fn version_2_3_scenario_and_user_before_the_groups() {
    assert_eq!(
        rows(&read("v2.3-simulation.log")),
        [
            row("Create File", 123.0, 1526391735276, None),
            row(
                "Docs / Get File",
                27.0,
                1526391735334,
                Some("j.n.ConnectException: Connection refused")
            ),
        ]
    );
}

#[test]
fn version_2_0_four_stamps() {
    assert_eq!(
        rows(&read("v2.0-simulation.log")),
        [
            row("login", 250.0, 1388534400350, None),
            row("logout", 560.0, 1388534400960, Some("Check failed")),
        ]
    );
}

#[test]
fn lines_that_are_no_request() {
    let no = |l: &str| assert_eq!(request(l.as_bytes(), &mut Vec::new()), None, "{l}");
    // No status, a status without stamps, stamps too short or too long, a 10 000-field line.
    no("REQUEST\t\tHome\t1611903781377\t1611903781828");
    no("REQUEST\t\tHome\tsoon\tlater\tOK\t ");
    no("REQUEST\t\tHome\t161190\t161191\tOK\t ");
    no("REQUEST\t\tHome\t16119037813770\t16119037818280\tOK\t ");
    no("REQUEST\t\tHome\t1611903781377\t1611903781828\tMAYBE\t ");
    no(&format!(
        "REQUEST{}\t1611903781377\t1611903781828\tOK",
        "\tx".repeat(10_000)
    ));
    // A day at most.
    no("REQUEST\t\tHome\t1611903781377\t1612903781828\tOK\t ");
    let mut f = Vec::new();
    let r = request(
        b"REQUEST\t\tHome\t1611903781377\t1611903781828\tOK\r",
        &mut f,
    );
    assert_eq!(
        r.map(|r| (r.name, r.message)),
        Some((&b"Home"[..], &b""[..]))
    );
}

#[test]
fn recognised_and_owned() {
    let g = &Gatling;
    assert!(g.recognises(b"RUN\tc.Sim\tsim\t1611903780943\t \t3.5.1"));
    assert!(g.recognises(b"REQUEST\t\tHome\t1611903781377\t1611903781828\tOK\t "));
    assert!(!g.recognises(b"RUN\tc.Sim"));
    assert!(!g.recognises(b"USER\tUsers\tSTART\t1611903781314"));
    assert!(g.owns(b"USER\tUsers\tSTART\t1611903781314"));
    assert!(!g.owns(b"USERS 12"));
}
