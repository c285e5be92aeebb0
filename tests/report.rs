//! `gcperf report` end to end on a folder of runs as people have them: real GC logs of three
//! JVM families from the corpus (one gzipped), generated performance logs whose figures are
//! known, an empty file and random bytes. Every input gets a row in summary.csv (errors in
//! their rows), every chart index.html shows exists as a PNG, and the batch exits 0.

mod common;

use assert_cmd::Command;
use std::io::Write;
use std::path::{Path, PathBuf};

fn corpus_gc() -> Option<PathBuf> {
    common::corpus_dir().map(|d| d.join("gc"))
}

/// A semicolon performance log of `n` requests, one a second from 10:00:00, totals cycling
/// 10, 20, ..., 100 ms, every tenth one failed; plus one line that is not a record.
fn perf_log(n: u32) -> String {
    let mut s = String::new();
    for i in 0..n {
        let total = 10 * (i % 10 + 1);
        s.push_str(&format!(
            "[{i:032X}];2012-09-21 10:{:02}:{:02}.000;{total};{};{};1;{};{}\n",
            i / 60,
            i % 60,
            total / 2,
            total - total / 2,
            if i % 2 == 0 {
                "getContract"
            } else {
                "saveOrder"
            },
            if i % 10 == 9 { "e-timeout" } else { "" }
        ));
    }
    s.push_str("[cut];2012-09-21 10:5\n");
    s
}

/// RFC 4180 fields of one CSV line (the report's files quote only where needed).
fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

#[test]
fn report_of_a_mixed_folder_has_a_row_per_input_and_every_chart() {
    let Some(corpus) = corpus_gc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir_all(runs.join("gc")).unwrap();
    std::fs::create_dir_all(runs.join("perf")).unwrap();
    // Real GC logs (copied into the temporary folder only), one of them gzipped.
    let gc = [
        "hotspot/SampleSun1_7_0_40PrintGCCause.txt",
        "jrockit/SampleJRockit1_5_12_gencon.txt",
        "unified/sample-ujl-g1-gc-defaults.txt",
    ];
    for (i, rel) in gc.iter().enumerate() {
        let text = std::fs::read(corpus.join(rel)).unwrap();
        let name = Path::new(rel)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if i == 1 {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            enc.write_all(&text).unwrap();
            std::fs::write(
                runs.join("gc").join("jrockit-gencon.gz"),
                enc.finish().unwrap(),
            )
            .unwrap();
        } else {
            std::fs::write(runs.join("gc").join(name), text).unwrap();
        }
    }
    std::fs::write(runs.join("perf/before.log"), perf_log(600)).unwrap();
    std::fs::write(runs.join("perf/after.log"), perf_log(1200)).unwrap();
    std::fs::write(runs.join("empty.log"), b"").unwrap();
    // Bytes that are no log: fixed, so the test is the same every time.
    let noise: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(runs.join("noise.bin"), noise).unwrap();

    let out = dir.path().join("report");
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["report", "-q", "--out"])
        .arg(&out)
        .arg(&runs)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("reported 5 of 7 inputs"), "{stderr}");

    // summary.csv: a row per input, in path order, the errors in their rows.
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut lines = csv.lines();
    let header = fields(lines.next().unwrap());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<Vec<String>> = lines.map(fields).collect();
    assert_eq!(rows.len(), 7, "{csv}");
    let row = |file_end: &str| {
        rows.iter()
            .find(|r| r[0].ends_with(file_end))
            .unwrap_or_else(|| panic!("no row for {file_end}"))
    };
    for bad in ["empty.log", "noise.bin"] {
        assert_eq!(row(bad)[col("error")], "no GC or performance records found");
    }
    for r in &rows {
        let failed = r[0].ends_with("empty.log") || r[0].ends_with("noise.bin");
        assert_eq!(r[col("error")].is_empty(), !failed, "{r:?}");
    }
    // The generated logs' figures, worked out from the generator: 600 requests one a second
    // (span 599.010 s: the first starts 10 ms before its stamp), 60 failed; totals 10..100
    // ms, so over 50 ms: 50 of every 100.
    let before = row("perf/before.log");
    assert_eq!(before[col("kind")], "perf");
    assert_eq!(before[col("requests")], "600");
    assert_eq!(before[col("errors")], "60");
    assert_eq!(before[col("skipped_lines")], "1");
    // 600 / 599.01 = 1.00165272699954..., to 12 significant digits (no float noise).
    assert_eq!(before[col("throughput_per_s")], "1.001652727");
    assert_eq!(before[col("over_50ms_pct")], "50");
    assert_eq!(row("perf/after.log")[col("requests")], "1200");
    assert_eq!(row("jrockit-gencon.gz")[col("format")], "jrockit");
    assert_eq!(
        row("SampleSun1_7_0_40PrintGCCause.txt")[col("format")],
        "hotspot"
    );
    assert_eq!(
        row("sample-ujl-g1-gc-defaults.txt")[col("format")],
        "unified"
    );
    for r in rows.iter().filter(|r| r[col("kind")] == "gc") {
        assert!(r[col("pauses")].parse::<u64>().unwrap() > 0, "{r:?}");
    }

    // operations.csv: a row per perf file and operation, counts from the generator.
    let ops = std::fs::read_to_string(out.join("operations.csv")).unwrap();
    let ops: Vec<Vec<String>> = ops.lines().skip(1).map(fields).collect();
    assert_eq!(ops.len(), 4);
    assert!(ops
        .iter()
        .any(|r| r[0].ends_with("after.log") && r[1] == "saveOrder" && r[2] == "600"));

    // index.html: every chart it shows exists as a PNG, every chart written is shown, and the
    // page needs nothing from a network or from scripts.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    let srcs: Vec<&str> = html
        .split("src=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    // 3 GC logs x 3 charts + 2 perf logs x 3 charts.
    assert_eq!(srcs.len(), 15, "{srcs:?}");
    for s in &srcs {
        let bytes = std::fs::read(out.join(s)).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{s} is not a PNG");
    }
    let written = std::fs::read_dir(out.join("charts")).unwrap().count();
    assert_eq!(written, srcs.len());
    for bad in ["empty.log", "noise.bin"] {
        assert!(html.contains(bad), "the page names {bad}");
    }

    // Nothing readable at all: exit 1, still a report naming the inputs.
    let only_bad = dir.path().join("bad");
    std::fs::create_dir_all(&only_bad).unwrap();
    std::fs::write(only_bad.join("empty.log"), b"").unwrap();
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["report", "-q", "--out"])
        .arg(dir.path().join("report2"))
        .arg(&only_bad)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let csv = std::fs::read_to_string(dir.path().join("report2/summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 2);
}

/// Issue 38: a folder mixing every kind of log added for it (IBM 1.4.2 text and J9/OpenJ9 XML
/// GC logs; JMeter XML and CSV with another delimiter, Gatling, k6 JSON and CSV, IIS, HAProxy,
/// uWSGI and Caddy access logs; fixtures copied) reported in one run: every input a row of
/// its own format in summary.csv, exit 0.
#[test]
fn report_of_every_new_kind() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let kinds = [
        ("ibm-text/optthruput-af.log", "ibm-text"),
        ("j9-xml/gencon-r28.xml", "j9-xml"),
        ("j9-xml-5.0/af-sys-con.xml", "j9-xml"),
        ("jmeter-xml/mixed.jtl", "jmeter-xml"),
        ("jmeter-jtl-delimiters/pipe-headerless.jtl", "jmeter-jtl"),
        ("gatling/v3.0-simulation.log", "gatling"),
        ("k6-json/results.json", "k6-json"),
        ("k6-csv/results.csv", "k6-csv"),
        ("access-iis/u_ex240305.log", "access-iis"),
        ("access-haproxy/haproxy.log", "access-haproxy"),
        ("access-uwsgi/uwsgi.log", "access-uwsgi"),
        ("access-caddy/access.log", "access-caddy"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    for (i, (rel, _)) in kinds.iter().enumerate() {
        let name = format!("{i:02}-{}", rel.replace('/', "-"));
        std::fs::copy(root.join(rel), runs.join(name)).unwrap();
    }
    let out = dir.path().join("report");
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["report", "-q", "--out"])
        .arg(&out)
        .arg(&runs)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("reported 12 of 12 inputs"), "{stderr}");
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rows: Vec<Vec<String>> = csv.lines().skip(1).map(fields).collect();
    assert_eq!(rows.len(), kinds.len(), "{csv}");
    let format_col = fields(csv.lines().next().unwrap())
        .iter()
        .position(|h| h == "format")
        .unwrap();
    for (row, (rel, format)) in rows.iter().zip(kinds) {
        assert_eq!(row[format_col], format, "{rel}");
    }
    assert!(out.join("index.html").is_file());
}

/// `gcperf report -q [extra] -o OUT INPUT`.
fn report_into(out: &Path, extra: &[&str], input: &Path) -> std::process::Output {
    Command::cargo_bin("gcperf")
        .unwrap()
        .args(["report", "-q"])
        .args(extra)
        .arg("-o")
        .arg(out)
        .arg(input)
        .output()
        .unwrap()
}

/// `--out` on a folder that holds an earlier report replaces it wholly: no chart of the
/// earlier inputs stays. A folder holding anything else is refused (exit 2, nothing written,
/// its file untouched) unless --force, which writes beside it.
#[test]
fn report_folder_replaced_or_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let gc = root.join("hotspot/jdk8-g1-details.log");
    let perf = root.join("perf/soap-before.log");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rep");
    let report = |extra: &[&str], input: &Path| report_into(&out, extra, input);
    let charts = || -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(out.join("charts"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(report(&[], &gc).status.code(), Some(0));
    assert!(charts().iter().all(|c| c.starts_with("jdk8-g1-details-")));
    assert!(!charts().is_empty());
    // Again with the performance log: the GC log's charts are gone.
    assert_eq!(report(&[], &perf).status.code(), Some(0));
    let now = charts();
    assert!(
        !now.is_empty() && now.iter().all(|c| c.starts_with("soap-before-")),
        "{now:?}"
    );
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        !index.contains("jdk8-g1-details"),
        "the earlier run is gone"
    );

    // A folder of something else: refused, untouched.
    let other = dir.path().join("photos");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("holiday.jpg"), b"jpeg").unwrap();
    let o = report_into(&other, &[], &gc);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("holiday.jpg") && err.contains("--force"),
        "{err}"
    );
    let names: Vec<_> = std::fs::read_dir(&other).unwrap().collect();
    assert_eq!(names.len(), 1, "nothing written");
    let o = report_into(&other, &["--force"], &gc);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read(other.join("holiday.jpg")).unwrap(), b"jpeg");
    assert!(other.join("index.html").exists());
}

/// A GC log and a performance log are one run only where the GC log covers most of the
/// requests: the first ten minutes of the GC log (09:59:58 to 10:10:04) beside two hours of
/// requests (10:00:00 to 12:00:08) leave 13,000-odd of 14,400 outside: not paired, said why.
/// The whole GC log covers them all: paired, the page's paragraph with no "outside".
#[test]
fn pairing_needs_most_requests_inside_the_gc_log() {
    use std::io::Read;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/correlate");
    let gunzip = |name: &str| {
        let mut s = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(root.join(name)).unwrap())
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    let gc = gunzip("run-gc.log.gz");
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    let head: String = gc.lines().take(100).map(|l| format!("{l}\n")).collect();
    assert!(head
        .lines()
        .last()
        .unwrap()
        .starts_with("2012-09-21T10:10:04"));
    std::fs::write(runs.join("gc.log"), head).unwrap();
    std::fs::write(runs.join("app.log"), gunzip("run-perf.log.gz")).unwrap();
    let out = dir.path().join("rep");
    let o = report_into(&out, &[], &runs);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("gc with app: not correlated: ")
            && err.contains("of its 14400 requests fall outside the GC log's span"),
        "{err}"
    );
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!index.contains("correlate-gc-app.png"), "not paired");
    // The whole GC log: paired.
    std::fs::write(runs.join("gc.log"), &gc).unwrap();
    let o = report_into(&out, &[], &runs);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("not correlated"), "{err}");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("correlate-gc-app.png"), "paired");
    assert!(index.contains("14400 requests, "), "none outside");
}
