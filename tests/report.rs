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

    // index.html ranks the runs, each a link to its page; the pages show every chart
    // written, each a PNG loaded lazily, and link back. Nothing is fetched from a network:
    // no page loads anything but its charts, and its one script is inline.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let pages: Vec<PathBuf> = std::fs::read_dir(out.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(pages.len(), 5, "a page per reported input: {pages:?}");
    let mut srcs = Vec::new();
    for p in &pages {
        let html = std::fs::read_to_string(p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            index.contains(&format!("href=\"runs/{name}\"")),
            "{name} linked"
        );
        assert!(
            html.contains("<a href=\"../index.html\">"),
            "{name} links back"
        );
        for page in [&index, &html] {
            assert!(!page.contains("<script src") && !page.contains("<link"));
            assert!(!page.contains("src=\"http") && !page.contains("url("));
        }
        for img in html.split("<img ").skip(1) {
            assert!(img.contains("loading=\"lazy\""), "{img}");
            let src = img
                .split("src=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            srcs.push(src.strip_prefix("../").unwrap().to_string());
        }
    }
    // Each GC log its pauses and heap (all have heap figures) and a histogram where it has
    // 20 pauses or more; each perf log (600 and 1,200 requests, a Java/DB split) 3 charts.
    let histograms = rows
        .iter()
        .filter(|r| r[col("kind")] == "gc")
        .filter(|r| r[col("pauses")].parse::<u64>().unwrap() >= 20)
        .count();
    assert_eq!(srcs.len(), 3 * 2 + histograms + 2 * 3, "{srcs:?}");
    assert_eq!(
        srcs.iter()
            .filter(|s| s.ends_with("-pause-histogram.png"))
            .count(),
        histograms
    );
    for s in &srcs {
        let bytes = std::fs::read(out.join(s)).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{s} is not a PNG");
    }
    let written = std::fs::read_dir(out.join("charts")).unwrap().count();
    assert_eq!(written, srcs.len());
    for bad in ["empty.log", "noise.bin"] {
        assert!(index.contains(bad), "the index names {bad}");
    }
    // The GC logs ranked by longest pause, worst first, as summary.csv has them.
    let ranked = |id: &str| -> Vec<String> {
        let t = index.split(&format!("id=\"{id}\"")).nth(1).unwrap();
        let t = t.split("</table>").next().unwrap();
        t.split("<tr>")
            .skip(2)
            .map(|r| {
                r.split("\">")
                    .nth(2)
                    .unwrap()
                    .split('<')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let mut gc_rows: Vec<(f64, String)> = rows
        .iter()
        .filter(|r| r[col("kind")] == "gc")
        .map(|r| (r[col("pause_max_ms")].parse().unwrap(), r[0].clone()))
        .collect();
    gc_rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let want: Vec<String> = gc_rows.into_iter().map(|r| r.1).collect();
    assert_eq!(ranked("gc-runs"), want, "{index}");
    // The generated perf logs by p99: after.log's 1,200 requests and before.log's 600 have
    // the same ten totals, so the same p99 (100 ms): ranked by name.
    let perf = ranked("perf-runs");
    assert_eq!(perf.len(), 2);
    assert!(
        perf[0].ends_with("after.log") && perf[1].ends_with("before.log"),
        "{perf:?}"
    );
    // before.log's page: APDEX by hand, every request under T = 500 ms, the 60 failed ones
    // frustrated: 540 / 600. Over time: 599.01 s in 30-s intervals (the shortest of the clock
    // units giving under 40), 20 of them, each 30 requests of which 3 failed ("timeout").
    let before = std::fs::read_to_string(out.join("runs/before.html")).unwrap();
    assert!(
        before.contains("APDEX 0.900 with T 500 ms, F 1500 ms (540 satisfied, 0 tolerated of 600)"),
        "{before}"
    );
    assert!(before.contains("<div class=\"v\">0.900</div><div class=\"k\">APDEX</div>"));
    assert!(before.contains("Per 30 s (by request end)"));
    let over = before.split("id=\"over-time\"").nth(1).unwrap();
    let over = over.split("</table>").next().unwrap();
    let over_rows: Vec<&str> = over.split("<tr>").skip(2).collect();
    assert_eq!(over_rows.len(), 20);
    for r in &over_rows {
        let cells: Vec<&str> = r
            .split("<td")
            .skip(1)
            .map(|c| c.split('>').nth(1).unwrap().split('<').next().unwrap())
            .collect();
        // start, requests, errors, per s, p50, p95, p99, max, timeout.
        assert_eq!((cells[1], cells[2], cells[8]), ("30", "3", "3"), "{r}");
    }
    assert!(
        before.contains("<th class=\"n\" title=\"timeout\">timeout</th>"),
        "{over}"
    );

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
    let pages: Vec<_> = std::fs::read_dir(out.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        pages,
        ["soap-before.html"],
        "the earlier run's page is gone"
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
    let app = || std::fs::read_to_string(out.join("runs/app.html")).unwrap();
    assert!(!app().contains("correlate-gc-app.png"), "not paired");
    assert!(!std::fs::read_to_string(out.join("index.html"))
        .unwrap()
        .contains("#correlate"));
    // The whole GC log: paired.
    std::fs::write(runs.join("gc.log"), &gc).unwrap();
    let o = report_into(&out, &[], &runs);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("not correlated"), "{err}");
    assert!(app().contains("correlate-gc-app.png"), "paired");
    assert!(app().contains("14400 requests, "), "none outside");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("<a href=\"runs/app.html#correlate\">"),
        "{index}"
    );
}

/// Issue 39: the report of a mixed folder (every fixture: GC and performance logs of every
/// family, damaged files, a correlated pair) as a reader sees it, in headless Chromium
/// (`tests/browser/report_check.py`): the index and every run page load from disk with no
/// console error and no network request, every image loads, clicking a column's header
/// sorts the rows, the filter hides rows, every page links back. `.ci/run` installs Chromium
/// and Playwright; elsewhere the test says how to get them and skips.
#[test]
fn the_report_works_in_a_browser() {
    let has = |check: &[&str]| {
        std::process::Command::new(check[0])
            .args(&check[1..])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let chromium = Path::new("/usr/bin/chromium").exists();
    let playwright = has(&["python3", "-c", "import playwright.sync_api"]);
    if !(chromium && playwright) {
        let how = "apt-get install chromium; python3 -m pip install playwright";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI must have Chromium and Playwright ({how})");
        }
        eprintln!("SKIPPED the_report_works_in_a_browser: needs /usr/bin/chromium and python3 with playwright ({how})");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rep");
    let o = report_into(&out, &["--slo", "pause_max_ms<500,p99<200"], &root);
    // Objectives fail: exit 3, the report written all the same.
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let check = std::process::Command::new("python3")
        .arg(root.join("../tests/browser/report_check.py"))
        .arg(&out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&check.stderr)
    );
    // Every page visited (a page per reported run, and the index), every image on them.
    let pages: Vec<String> = std::fs::read_dir(out.join("runs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let images: usize = pages.iter().map(|p| p.matches("<img ").count()).sum();
    assert!(images > 100, "{images}");
    assert!(
        said.contains(&format!("pages {}, images {images}, ", pages.len() + 1)),
        "{said}"
    );
}

/// `--apdex T[:F]`: the generated log's totals are 10, 20, ... 100 ms in turn, the 100 ms
/// one failed. T = 20 ms alone takes F = 4T = 80 ms: per ten requests, 2 satisfied (10, 20),
/// 6 tolerated (30 ... 80), 2 frustrated (90, and the failed 100): (120 + 360 / 2) / 600 =
/// 0.5. T:F given: 20:40 → (120 + 120 / 2) / 600 = 0.3. A T above F, or not a number: exit 2.
#[test]
fn apdex_thresholds_are_the_users() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("run.log");
    std::fs::write(&log, perf_log(600)).unwrap();
    let out = dir.path().join("rep");
    for (arg, want) in [
        (
            "20",
            "APDEX 0.500 with T 20 ms, F 80 ms (120 satisfied, 360 tolerated of 600)",
        ),
        (
            "20:40",
            "APDEX 0.300 with T 20 ms, F 40 ms (120 satisfied, 120 tolerated of 600)",
        ),
    ] {
        let o = report_into(&out, &["--apdex", arg], &log);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let page = std::fs::read_to_string(out.join("runs/run.html")).unwrap();
        assert!(page.contains(want), "{arg}: {page}");
    }
    for bad in ["40:20", "fast", "0", "-5"] {
        let arg = format!("--apdex={bad}");
        let o = report_into(&dir.path().join("never"), &[&arg], &log);
        assert_eq!(o.status.code(), Some(2), "--apdex {bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--apdex"),
            "{bad}"
        );
    }
}

/// `--tag`s are on the pages as on the CSVs: the index and each run page say them (escaped),
/// and a report without tags has no such line.
#[test]
fn tags_are_on_the_pages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    let (tagged, plain) = (dir.path().join("t"), dir.path().join("p"));
    let input = root.join("perf/soap-before.log");
    let o = report_into(
        &tagged,
        &["--tag", "host=web<01>", "--tag", "run=42"],
        &input,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = "Tags: <code>host=web&lt;01&gt;</code> · <code>run=42</code>";
    let index = std::fs::read_to_string(tagged.join("index.html")).unwrap();
    assert!(index.contains(line), "no tags line in the index");
    let page = std::fs::read_dir(tagged.join("runs"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert!(std::fs::read_to_string(page).unwrap().contains(line));
    let csv = std::fs::read_to_string(tagged.join("summary.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains("host,run"), "{csv}");
    assert!(report_into(&plain, &[], &input).status.success());
    assert!(!std::fs::read_to_string(plain.join("index.html"))
        .unwrap()
        .contains("Tags:"));
}

/// Three inputs whose stems collide (two `results`, a real `results-2`): three run pages under
/// three names, each about its own input and showing its own charts, and the index links each
/// page, none twice for two runs.
#[test]
fn colliding_stems_get_a_page_each() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    let third = dir.path().join("results-2.log");
    std::fs::copy(root.join("perf/soap-after.log"), &third).unwrap();
    let out = dir.path().join("r");
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["report", "-q", "-o"])
        .arg(&out)
        .arg(root.join("k6-csv/results.csv"))
        .arg(root.join("k6-json/results.json"))
        .arg(&third)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut pages: Vec<String> = std::fs::read_dir(out.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(pages, ["results-2.html", "results-3.html", "results.html"]);
    // Each page names its own file and no other, and its charts are its own stem's.
    let files = ["results.csv", "results.json", "results-2.log"];
    for (stem, file) in ["results", "results-3", "results-2"].iter().zip(files) {
        let page = std::fs::read_to_string(out.join(format!("runs/{stem}.html"))).unwrap();
        assert!(page.contains(file), "runs/{stem}.html does not name {file}");
        for other in files.iter().filter(|f| **f != file) {
            assert!(!page.contains(other), "runs/{stem}.html names {other}");
        }
        let timeline = format!("charts/{stem}-timeline.png");
        assert!(
            page.contains(&timeline),
            "runs/{stem}.html lacks {timeline}"
        );
        assert!(out.join(&timeline).is_file(), "{timeline} missing");
    }
    // The index's rows link the three pages, each as often as the others (a page linked for
    // two runs would be linked twice as often as the rest).
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let links: Vec<usize> = pages
        .iter()
        .map(|p| index.matches(&format!("\"runs/{p}\"")).count())
        .collect();
    assert!(
        links[0] > 0 && links.iter().all(|&n| n == links[0]),
        "{links:?}"
    );
}
