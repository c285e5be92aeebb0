//! No option accepted and ignored: an option for one kind of log is refused (exit 2) where no
//! input of that kind was read, one for charts not drawn is refused, a tag or label names one
//! column, an interval too fine for a log is the user's to change (exit 2), and standard input
//! is read once, under its `--stdin-name` in every message.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn fx(rel: &str) -> String {
    fixture(rel).display().to_string()
}

fn gcperf() -> Command {
    Command::cargo_bin("gcperf").expect("binary")
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let o = gcperf().args(args).output().expect("run");
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn refused(args: &[&str], says: &str) {
    let r = run(args);
    assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
    assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
}

const PERF: &str = "perf/soap-before.log";
const GC: &str = "unified/g1-jdk17.log";

/// An option of GC logs where only performance logs were read, and the other way round:
/// refused in `summary`, `compare` and `chart`, in the words the access-log options use.
#[test]
fn an_option_for_a_kind_no_input_is_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c").display().to_string();
    let (perf, after, gc) = (fx(PERF), fx("perf/soap-after.log"), fx(GC));
    let (perf, after, gc) = (perf.as_str(), after.as_str(), gc.as_str());
    let serial = fx("hotspot/serial-diag.log");
    let serial = serial.as_str();
    let png = dir.path().join("lc.png");
    let png_s = png.display().to_string();
    let (out, png_s) = (out.as_str(), png_s.as_str());
    const GC_ONLY: &str = "applies to GC logs, and no input was read as one";
    const PERF_ONLY: &str = "applies to performance logs, and no input was read as one";
    for (args, says) in [
        (
            vec!["summary", "-q", "--pause-target", "10ms", perf],
            GC_ONLY,
        ),
        (
            vec!["compare", "-q", "--pause-target", "10ms", perf, after],
            GC_ONLY,
        ),
        (
            vec!["summary", "-q", "--latency-bands", "5,10", gc],
            PERF_ONLY,
        ),
        (vec!["summary", "-q", "--over", "5", gc], PERF_ONLY),
        (vec!["compare", "-q", "--over", "5", gc, serial], PERF_ONLY),
        (
            vec!["chart", "-q", "-o", out, "--pause-bands", "5,10", perf],
            GC_ONLY,
        ),
        (
            vec!["chart", "-q", "-o", out, "--pause-target", "5ms", perf],
            GC_ONLY,
        ),
        (
            vec!["chart", "-q", "-o", out, "--latency-bands", "5,10", gc],
            PERF_ONLY,
        ),
        (
            vec![
                "compare",
                "-q",
                "--chart",
                png_s,
                "--load-curve",
                gc,
                serial,
            ],
            PERF_ONLY,
        ),
    ] {
        refused(&args, says);
    }
    // No empty "0 runs" load curve was written.
    assert!(!png.exists());
    // With a log of the kind among the inputs, each is used. g1-jdk17's pauses are 4.25,
    // 5.5, 6, 2, 0.5, 7, 8, 25 and 3 ms: one over 10 ms.
    let r = run(&[
        "summary",
        "-q",
        "-f",
        "json",
        "--pause-target",
        "10ms",
        "--over",
        "5",
        perf,
        gc,
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v[1]["gc"]["pause_target_ms"], 10.0);
    assert_eq!(v[1]["gc"]["pauses_over_target"], 1);
    assert_eq!(v[0]["perf"]["over"][0]["ms"], 5.0);
}

/// `--interval` sets a performance log's per-interval series, which a row (or column) per log
/// has no place for: in text and CSV it is refused unless it sets figures shown (a GC log's
/// allocation rates in summary; in compare, those --sort or --slo name).
#[test]
fn interval_is_refused_where_no_figure_shows_it() {
    let (perf, after) = (fx(PERF), fx("perf/soap-after.log"));
    let diag = fx("unified/g1-diag.log");
    let (perf, after, diag) = (perf.as_str(), after.as_str(), diag.as_str());
    for format in ["table", "csv", "markdown"] {
        refused(
            &["summary", "-q", "-f", format, "--interval", "1m", perf],
            "the series is in --format json",
        );
        refused(
            &[
                "compare",
                "-q",
                "-f",
                format,
                "--interval",
                "1m",
                perf,
                after,
            ],
            "the series is in --format json",
        );
        refused(
            &["compare", "-q", "-f", format, "--interval", "2s", diag],
            "the series is in --format json",
        );
    }
    // JSON holds the series: soap-before's requests end from 12:00:03 to 12:17:04, 18
    // one-minute intervals (12:00 to 12:17).
    let r = run(&["summary", "-q", "-f", "json", "--interval", "1m", perf]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v[0]["perf"]["intervals"].as_array().unwrap().len(), 18);
    // A GC log's allocation rates are per interval: summary's CSV shows the interval asked.
    let r = run(&["summary", "-q", "-f", "csv", "--interval", "2s", diag]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut lines = r.stdout.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = head.iter().position(|h| *h == "alloc_interval_s").unwrap();
    assert_eq!(row[at], "2");
    // compare ranks by an allocation rate's percentile: the interval is used.
    let r = run(&[
        "compare",
        "-q",
        "--interval",
        "2s",
        "--sort",
        "alloc_rate_p95_kb_per_s",
        diag,
        &fx(GC),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// A chart option drawn on charts not asked for is refused, as `--slo` is.
#[test]
fn chart_options_for_charts_not_drawn_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    let out = out.as_str();
    let (perf, gc) = (fx(PERF), fx(GC));
    let (perf, gc) = (perf.as_str(), gc.as_str());
    for (args, says) in [
        (
            vec!["--percentiles", "99", perf],
            "--percentiles is drawn on the load-curve chart: add --kind load-curve",
        ),
        (
            vec!["--kind", "pauses", "--pause-bands", "5,10", gc],
            "add --kind pause-histogram",
        ),
        (
            vec!["--kind", "heap", "--pause-target", "5ms", gc],
            "add --kind pauses",
        ),
        (
            vec!["--kind", "split", "--latency-bands", "5,10", perf],
            "add --kind latency-histogram",
        ),
        (
            vec!["--kind", "split", "--interval", "1m", perf],
            "--interval is drawn on the timeline or load-curve chart",
        ),
        (vec!["--kind", "heap", "--log-y", gc], "--log-y is drawn"),
    ] {
        let mut a = vec!["chart", "-q", "-o", out];
        a.extend(args);
        refused(&a, says);
    }
    let r = run(&[
        "chart",
        "-q",
        "-o",
        out,
        "--kind",
        "load-curve",
        "--percentiles",
        "99",
        perf,
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// The comparison with a GC run grows taller than `--size` for the run's rows: said, not
/// silent. (200x150 with one performance and one GC run: 200x257, as grown_size makes it.)
#[test]
fn compare_chart_grown_taller_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("c.png");
    let r = run(&[
        "compare",
        "-q",
        "--chart",
        &png.display().to_string(),
        "--size",
        "200x150",
        &fx(PERF),
        &fx(GC),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let b = std::fs::read(&png).unwrap();
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    assert_eq!((be(16), be(20)), (200, 257));
    assert!(
        r.stderr
            .contains("drawn 200x257, taller than --size 200x150: the rows of its 1 GC run"),
        "{}",
        r.stderr
    );
    // Drawn at the size asked: nothing said.
    let r = run(&[
        "compare",
        "-q",
        "--chart",
        &png.display().to_string(),
        "--size",
        "400x300",
        &fx(PERF),
    ]);
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
}

/// The first line of CSV output, and the header of each Markdown table.
fn headers(text: &str, csv: bool) -> Vec<String> {
    if csv {
        return text
            .lines()
            .next()
            .map(|l| l.split(',').map(str::to_string).collect())
            .unwrap_or_default();
    }
    let lines: Vec<&str> = text.lines().collect();
    let rule = |l: &str| l.starts_with("|") && l.chars().all(|c| "|-: ".contains(c));
    let mut out = Vec::new();
    for w in lines
        .windows(2)
        .filter(|w| rule(w[1]) && w[1].contains('-'))
    {
        out.extend(
            w[0].trim_matches('|')
                .split('|')
                .map(|h| h.trim().to_string()),
        );
    }
    out
}

/// Every column any table of any command writes, in CSV and Markdown, is a name `--tag`
/// refuses: a tag of it would be a second column of that name. (The runs' labels, given
/// here as names no tag can have, are data, not gcperf's names.)
#[test]
fn every_column_name_is_refused_as_a_tag() {
    let dir = tempfile::tempdir().unwrap();
    let d = |s: &str| dir.path().join(s).display().to_string();
    let (perf, after, gc) = (fx(PERF), fx("perf/soap-after.log"), fx(GC));
    let (stalls, jtl) = (
        fx("unified/zgc-jdk17-stalls.log"),
        fx("perf/jmeter-daytrader.jtl"),
    );
    let (cgc, cperf) = (
        fx("correlate/run-gc.log.gz"),
        fx("correlate/run-perf.log.gz"),
    );
    let (perf, after, gc, stalls, jtl) = (
        perf.as_str(),
        after.as_str(),
        gc.as_str(),
        stalls.as_str(),
        jtl.as_str(),
    );
    let slo_out = d("slo.csv");
    let mut commands: Vec<Vec<String>> = Vec::new();
    let mut add = |a: &[&str]| commands.push(a.iter().map(|s| s.to_string()).collect());
    for log in [perf, jtl] {
        for by in ["op", "band", "over", "error", "interval"] {
            add(&["perf", "--by", by, "--interval", "1m", log]);
        }
    }
    for log in [gc, stalls] {
        for by in ["kind", "band", "cause", "finding"] {
            add(&["gc", "--by", by, log]);
        }
    }
    add(&[
        "summary",
        "--pause-target",
        "1ms",
        perf,
        gc,
        stalls,
        "/nonexistent",
    ]);
    add(&["summary", "--slo", "p95<=50ms", "--slo-out", &slo_out, perf]);
    add(&[
        "compare",
        "--labels",
        "r-1,r-2,r-3",
        "--baseline",
        "r-1",
        perf,
        after,
        gc,
    ]);
    let (g1, g2) = (format!("g-1={perf}"), format!("g-2={after}"));
    add(&["compare", "--group", &g1, "--group", &g2]);
    add(&[
        "correlate",
        "--safepoints",
        "--stalls",
        "--gc",
        &cgc,
        "--perf",
        &cperf,
    ]);
    add(&["chart", "-o", &d("charts"), perf]);
    let mut seen = std::collections::BTreeSet::new();
    for c in &commands {
        for (format, csv) in [("csv", true), ("markdown", false)] {
            let o = gcperf()
                .args(c)
                .args(["-q", "-f", format])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&o.stdout);
            let hs = headers(&text, csv);
            assert!(!hs.is_empty(), "{c:?} -f {format}: {text}");
            seen.extend(hs);
        }
    }
    let slo = std::fs::read_to_string(&slo_out).unwrap();
    seen.extend(headers(&slo, true));
    // A tag's name: letters, digits and _, not starting with a digit.
    let name = |h: &str| {
        h.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let free: Vec<&String> = seen
        .iter()
        .filter(|h| name(h) && !gcperf::report::tags::reserved(h))
        .collect();
    assert!(free.is_empty(), "columns a --tag may take: {free:?}");
    // The ones the issue named, refused on the command line.
    for (cmd, tag) in [
        (vec!["perf", "-f", "csv", "--by", "band"], "band_ms=x"),
        (
            vec!["perf", "-f", "csv", "--by", "interval", "--interval", "1m"],
            "covered_s=x",
        ),
        (vec!["summary", "--slo", "p95<=50ms"], "verdict=x"),
    ] {
        let mut a = cmd.clone();
        a.extend(["--tag", tag, perf]);
        refused(&a, "is a column of gcperf's own");
    }
}

/// A tag name given twice, and a label given twice, are refused: each names one column.
#[test]
fn a_tag_or_label_given_twice_is_refused() {
    let (perf, after, gc) = (fx(PERF), fx("perf/soap-after.log"), fx(GC));
    let (perf, after, gc) = (perf.as_str(), after.as_str(), gc.as_str());
    for cmd in ["summary", "gc"] {
        refused(
            &[
                cmd, "-q", "-f", "csv", "--tag", "host=a", "--tag", "host=b", gc,
            ],
            "--tag host: the tag name is given twice",
        );
    }
    refused(
        &[
            "export",
            "-q",
            "-o",
            "/nonexistent/x.parquet",
            "--tag",
            "run=1",
            "--tag",
            "run=2",
            gc,
        ],
        "--tag run: the tag name is given twice",
    );
    refused(
        &[
            "compare",
            "-q",
            "-f",
            "csv",
            "--labels",
            "a,a",
            "--baseline",
            "a",
            perf,
            after,
        ],
        "--labels a: the label is given twice",
    );
    // Two tags of two names: both columns, after file.
    let r = run(&[
        "summary", "-q", "-f", "csv", "--tag", "host=a", "--tag", "run=7", gc,
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.starts_with("file,host,run,kind,"), "{}", r.stdout);
}

/// soap-before.log spans 12:00:03.188 to 12:17:04.018: 1 020 831 intervals of 1 ms, over
/// the 1 000 000 the series may have. The file was read: the interval is the user's to
/// change, exit 2 (not 1, nothing readable); the other inputs' output is still written.
#[test]
fn an_interval_too_fine_for_the_log_is_a_usage_error() {
    let (perf, gc) = (fx(PERF), fx(GC));
    let (perf, gc) = (perf.as_str(), gc.as_str());
    let says = "the log spans 1020831 intervals of 1 ms";
    refused(&["perf", "-q", "--interval", "1ms", perf], says);
    refused(
        &["summary", "-q", "-f", "json", "--interval", "1ms", perf],
        says,
    );
    let r = run(&["summary", "-q", "-f", "csv", "--interval", "1ms", perf, gc]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains(says), "{}", r.stderr);
    // g1-jdk17's row: 9 pauses.
    let row = r.stdout.lines().find(|l| l.contains("g1-jdk17")).unwrap();
    assert!(row.contains(",gc,unified,"), "{row}");
    // A minute is fine.
    let r = run(&["perf", "-q", "--interval", "1m", "--by", "interval", perf]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// Standard input is read once and named by `--stdin-name` in its error too.
#[test]
fn standard_input_once_and_by_its_name() {
    let gc = std::fs::read(fixture(GC)).unwrap();
    gcperf()
        .args(["summary", "--stdin-name", "foo.log", "-"])
        .write_stdin("")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "gcperf: foo.log: no GC or performance records found",
        ))
        .stderr(predicate::str::contains("gcperf: -:").not());
    gcperf()
        .args(["summary", "--stdin-name", "foo.log", "-", "-"])
        .write_stdin(gc.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "standard input (-) is given more than once",
        ));
    gcperf()
        .args(["summary", "--files-from", "-"])
        .write_stdin(format!("{}\n-\n", fx(GC)))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the list cannot name it (-)"));
    // A list in a file naming `-` once reads standard input once.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list");
    std::fs::write(&list, "-\n").unwrap();
    gcperf()
        .args(["summary", "-q", "-f", "csv", "--stdin-name", "foo.log"])
        .arg("--files-from")
        .arg(&list)
        .write_stdin(gc.clone())
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\nfoo.log,gc,unified,"));
    gcperf()
        .args(["summary", "--files-from"])
        .arg(&list)
        .arg("-")
        .write_stdin(gc)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "standard input (-) is given more than once",
        ));
}
