//! Issue 13, parser and window parts, end to end: `--skip`, `--from`, `--to` on every command
//! that reads GC logs (each accepted option changes what it prints), `--format` on `chart`
//! and `report`, thread stalls and times to safepoint, and the PrintGCID, initial-mark and
//! ZGC regressions. Every figure is worked out by hand from the fixture's text.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn gcperf() -> Command {
    Command::cargo_bin("gcperf").expect("binary")
}

/// stdout of a successful run.
fn ok(args: &[&str]) -> String {
    let out = gcperf().args(args).output().expect("run");
    assert!(
        out.status.success(),
        "{args:?}: stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    serde_json::from_str(&ok(&a)).expect("json")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

/// The `gc` object of `summary` for one file, with extra arguments.
fn gc_of(file: &Path, extra: &[&str]) -> Value {
    let mut a = vec!["summary", file.to_str().unwrap()];
    a.extend_from_slice(extra);
    json(&a)[0]["gc"].clone()
}

/// jdk8-parallel-datestamps.log, by hand: pauses (uptime, wall clock, ms)
///   1.210 10:15:02.114 12.345 | 2.596 10:15:03.500 23.456 | 4.996 10:15:05.900 150
///   8.096 10:15:09.000 8      | 8.104 10:15:09.008 90
/// and four safepoint stops ending at 1.223, 2.620, 5.146, 8.194 (12.7, 23.9, 150.4, 98.5 ms:
/// starting at 1.2103, 2.5961, 4.9956, 8.0955), their `Stopping threads took` 0.031, 0.025,
/// 0.020, 0.030 ms.
const PARALLEL: &str = "hotspot/jdk8-parallel-datestamps.log";

#[test]
fn summary_window_on_a_gc_log_by_uptime_and_wall_clock() {
    let p = fixture(PARALLEL);
    let all = gc_of(&p, &[]);
    assert_eq!(all["pauses"], 5);
    close(f(&all["pause_total_ms"]), 283.801);
    // Longest reach of the four safepoints.
    close(f(&all["ttsp_max_ms"]), 0.031);
    // --skip 3s: the first record starts at 1.210, so records from 4.210 on: 4.996, 8.096,
    // 8.104 (150 + 8 + 90) and the safepoints from 4.9956 on.
    let g = gc_of(&p, &["--skip", "3s"]);
    assert_eq!(g["pauses"], 3);
    close(f(&g["pause_total_ms"]), 248.0);
    assert_eq!(g["safepoint_pauses"], 2);
    // span: 4.9956 (the safepoint around the full GC starts before it) to 8.194.
    close(f(&g["span_s"]), 8.194 - 4.9956);
    // --from as an uptime: the same records from 4 s on.
    let g = gc_of(&p, &["--from", "4s"]);
    assert_eq!(
        (g["pauses"].as_u64(), g["safepoint_pauses"].as_u64()),
        (Some(3), Some(2))
    );
    // --to as an uptime: starting before 8.1 s: 12.345 + 23.456 + 150 + 8.
    let g = gc_of(&p, &["--to", "8.1"]);
    assert_eq!(g["pauses"], 4);
    close(f(&g["pause_total_ms"]), 193.801);
    // --from as a time (the date stamps): from 10:15:03 on, the last four pauses.
    let g = gc_of(&p, &["--from", "2016-01-11T10:15:03"]);
    assert_eq!(g["pauses"], 4);
    close(f(&g["pause_total_ms"]), 271.456);
    assert_eq!(g["safepoint_pauses"], 3);
    // --to as a time: before 10:15:05, the first two pauses and their safepoints; the longest
    // reach of those two is 0.031.
    let g = gc_of(&p, &["--to", "2016-01-11 10:15:05.000"]);
    assert_eq!(g["pauses"], 2);
    close(f(&g["pause_total_ms"]), 35.801);
    assert_eq!(g["safepoint_pauses"], 2);
    // Both: [2 s, 8.1 s) by uptime: 23.456 + 150 + 8.
    let g = gc_of(&p, &["--from", "2s", "--to", "8.1s"]);
    assert_eq!(g["pauses"], 3);
    close(f(&g["pause_total_ms"]), 181.456);
}

#[test]
fn a_bound_the_log_has_no_clock_for_leaves_it_out_saying_so() {
    // The CMS fixture has uptimes only: a wall-clock bound cannot apply.
    let p = fixture("hotspot/cms-printgcid.log");
    let out = gcperf()
        .args(["gc", "--from", "2017-01-01T00:00:00", p.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a time and the log has no date stamps"),
        "{err}"
    );
    // A performance log has no uptime: an uptime bound leaves it out of `summary`, and is an
    // error for `perf`, which reads nothing else.
    let perf = fixture("perf/soap-after.log");
    let out = gcperf()
        .args(["summary", "--from", "10s", perf.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a performance log has no uptime"));
    let out = gcperf()
        .args(["perf", "--to", "10s", perf.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // No stamps at all: --skip has nothing to count from. Date stamps only: an uptime bound
    // cannot apply, a time can (the second pause, at 10:00:05).
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.log");
    std::fs::write(
        &plain,
        "[GC 325407K->83000K(776768K), 0.2300771 secs]\n[Full GC 267628K->83769K(776768K), 1.8479984 secs]\n",
    )
    .unwrap();
    let out = gcperf()
        .args(["summary", "--skip", "1s", plain.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--skip: the log has no time stamps"));
    let dated = dir.path().join("dated.log");
    std::fs::write(
        &dated,
        "2016-01-11T10:00:00.000+0100: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0100000 secs]\n\
2016-01-11T10:00:05.000+0100: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0200000 secs]\n",
    )
    .unwrap();
    let out = gcperf()
        .args(["summary", "--from", "3s", dated.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("is an uptime and the log has no uptime stamps"));
    let g = gc_of(&dated, &["--from", "2016-01-11T10:00:03"]);
    assert_eq!(g["pauses"], 1);
    close(f(&g["pause_total_ms"]), 20.0);
    // --skip goes by the wall clock where there is no uptime: 3 s after 10:00:00.
    let g = gc_of(&dated, &["--skip", "3s"]);
    assert_eq!(g["pauses"], 1);
    // A bound that is neither a time nor an uptime is a usage error.
    let out = gcperf()
        .args(["summary", "--from", "yesterday", p.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `gc`: the breakdown and the event rows of the window only.
#[test]
fn gc_takes_skip_from_and_to() {
    let p = fixture(PARALLEL);
    let s = p.to_str().unwrap();
    let pauses = |extra: &[&str]| {
        let mut a = vec!["gc", s];
        a.extend_from_slice(extra);
        json(&a)[0]["gc"]["pauses"].as_u64().unwrap()
    };
    assert_eq!(pauses(&[]), 5);
    assert_eq!(pauses(&["--skip", "3s"]), 3);
    assert_eq!(pauses(&["--from", "2016-01-11T10:15:03"]), 4);
    assert_eq!(pauses(&["--to", "8.1"]), 4);
    // --events: one row per pause in the window (header + 2 rows before 10:15:05).
    let ev = ok(&["gc", "--events", "--to", "2016-01-11T10:15:05", s]);
    assert_eq!(ev.lines().count(), 3, "{ev}");
    assert!(ev.lines().nth(2).unwrap().contains(",2.596,"), "{ev}");
}

/// `compare`: each run's figures of its window.
#[test]
fn compare_takes_skip_from_and_to() {
    let p = fixture(PARALLEL);
    let s = p.to_str().unwrap();
    let pauses = |extra: &[&str]| {
        let mut a = vec!["compare", s];
        a.extend_from_slice(extra);
        let v = json(&a);
        let run = &v[0];
        run["gc"]["pauses"]
            .as_u64()
            .unwrap_or_else(|| panic!("{v}"))
    };
    assert_eq!(pauses(&[]), 5);
    assert_eq!(pauses(&["--skip", "3s"]), 3);
    assert_eq!(pauses(&["--from", "4s"]), 3);
    assert_eq!(pauses(&["--to", "2016-01-11T10:15:05"]), 2);
}

/// `chart`: the charts of the window differ from the whole log's; `--format json` lists the
/// files written as a JSON array, `--format csv` as a `path` column.
#[test]
fn chart_takes_the_window_and_honours_format() {
    let p = fixture(PARALLEL);
    let s = p.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let draw = |sub: &str, extra: &[&str]| -> Vec<u8> {
        let out = dir.path().join(sub);
        let mut a = vec!["chart", s, "--out", out.to_str().unwrap()];
        a.extend_from_slice(extra);
        let listed = ok(&a);
        assert_eq!(listed.lines().count(), 3, "{listed}");
        std::fs::read(out.join("jdk8-parallel-datestamps-pauses.png")).unwrap()
    };
    let all = draw("all", &[]);
    for (sub, extra) in [
        ("skip", &["--skip", "3s"][..]),
        ("from", &["--from", "4s"][..]),
        ("to", &["--to", "2016-01-11T10:15:05"][..]),
    ] {
        assert_ne!(draw(sub, extra), all, "{sub}: the chart did not change");
    }
    let out = dir.path().join("json");
    let v: Value = serde_json::from_str(&ok(&[
        "chart",
        s,
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3);
    assert!(
        names[0].ends_with("jdk8-parallel-datestamps-pauses.png"),
        "{names:?}"
    );
    let csv = ok(&[
        "chart",
        s,
        "--out",
        out.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert_eq!(csv.lines().next(), Some("path"));
    assert_eq!(csv.lines().count(), 4);
}

/// `report`: summary.csv holds the window's figures; `--format json` lists the files written.
#[test]
fn report_takes_the_window_and_honours_format() {
    let p = fixture(PARALLEL);
    let s = p.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pauses = |sub: &str, extra: &[&str]| -> String {
        let out = dir.path().join(sub);
        let mut a = vec!["report", s, "--out", out.to_str().unwrap()];
        a.extend_from_slice(extra);
        ok(&a);
        let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let row: Vec<&str> = lines.next().unwrap().split(',').collect();
        let i = head.iter().position(|h| *h == "pauses").unwrap();
        row[i].to_string()
    };
    assert_eq!(pauses("all", &[]), "5");
    assert_eq!(pauses("skip", &["--skip", "3s"]), "3");
    assert_eq!(pauses("from", &["--from", "2016-01-11T10:15:03"]), "4");
    assert_eq!(pauses("to", &["--to", "8.1s"]), "4");
    let out = dir.path().join("json");
    let v: Value = serde_json::from_str(&ok(&[
        "report",
        s,
        "--out",
        out.to_str().unwrap(),
        "-f",
        "json",
    ]))
    .unwrap();
    let listed: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(
        listed.iter().any(|p| p.ends_with("summary.csv")),
        "{listed:?}"
    );
    assert!(
        listed.iter().any(|p| p.ends_with("index.html")),
        "{listed:?}"
    );
}

/// `export`: the window's GC records only (5 pauses + 4 safepoints in all).
#[test]
fn export_takes_skip_from_and_to() {
    use polars::prelude::{ParquetReader, SerReader};
    let p = fixture(PARALLEL);
    let s = p.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let rows = |name: &str, extra: &[&str]| -> usize {
        let out = dir.path().join(name);
        let mut a = vec!["export", s, "--out", out.to_str().unwrap()];
        a.extend_from_slice(extra);
        ok(&a);
        ParquetReader::new(std::fs::File::open(&out).unwrap())
            .finish()
            .unwrap()
            .height()
    };
    assert_eq!(rows("all.parquet", &[]), 9);
    // From 4.210: 3 pauses, 2 safepoints.
    assert_eq!(rows("skip.parquet", &["--skip", "3s"]), 5);
    // From 10:15:03: 4 pauses, 3 safepoints.
    assert_eq!(rows("from.parquet", &["--from", "2016-01-11T10:15:03"]), 7);
    // Before 2 s: the first pause and its safepoint.
    assert_eq!(rows("to.parquet", &["--to", "2s"]), 2);
}

/// `export` cuts performance-log requests by their end, as `perf` does: the fixture's last
/// request is left out by `--to` at its end time.
#[test]
fn export_window_on_a_performance_log() {
    use polars::prelude::{ParquetReader, SerReader};
    let p = fixture("perf/soap-after.log");
    let dir = tempfile::tempdir().unwrap();
    let all_out = dir.path().join("all.parquet");
    ok(&[
        "export",
        p.to_str().unwrap(),
        "--out",
        all_out.to_str().unwrap(),
    ]);
    let all = ParquetReader::new(std::fs::File::open(&all_out).unwrap())
        .finish()
        .unwrap();
    let end: Vec<i64> = all
        .column("end_ms")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .flatten()
        .collect();
    let last = *end.iter().max().unwrap();
    let at_last = end.iter().filter(|e| **e == last).count();
    let to = crate_time(last);
    let cut_out = dir.path().join("cut.parquet");
    ok(&[
        "export",
        p.to_str().unwrap(),
        "--to",
        &to,
        "--out",
        cut_out.to_str().unwrap(),
    ]);
    let cut = ParquetReader::new(std::fs::File::open(&cut_out).unwrap())
        .finish()
        .unwrap();
    assert_eq!(cut.height(), all.height() - at_last);
    // An uptime bound cannot apply to requests: the log is left out, nothing to export.
    let out = gcperf()
        .args(["export", p.to_str().unwrap(), "--from", "5s", "--out"])
        .arg(dir.path().join("none.parquet"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// Epoch ms as `2012-09-21T12:00:00.000`.
fn crate_time(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

/// The CMS log with `-XX:+PrintGCID` (`0.117: #1: [CMS-concurrent-mark-start]`): the ids are
/// not uptimes. By hand: pauses 11 + 2 + 40 + 3 = 56 ms; the log runs from the first young
/// GC at 0.100 to the end of the concurrent reset, 0.176 + 0.008 = 0.184: span 0.084 s,
/// throughput (84 - 56) / 84 = 33.33 %. (Read as uptimes, `#2:` would stretch the span to
/// about 2 s and the throughput to 97 %.)
#[test]
fn printgcid_stamps_are_not_uptimes() {
    let g = gc_of(&fixture("hotspot/cms-printgcid.log"), &[]);
    assert_eq!(g["pauses"], 4);
    assert_eq!(g["concurrent_phases"], 4);
    close(f(&g["pause_total_ms"]), 56.0);
    close(f(&g["span_s"]), 0.084);
    close(f(&g["throughput_pct"]), 100.0 * 28.0 / 84.0);
}

/// JDK 8 G1 `(young) (initial-mark)` is `initial-mark`, as unified logging's `Pause Young
/// (Concurrent Start)` is.
#[test]
fn g1_initial_mark_is_one_kind_in_both_families() {
    let kinds = |file: &str| -> Vec<(String, u64, f64)> {
        let v = json(&["gc", fixture(file).to_str().unwrap()]);
        v[0]["by_kind"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| {
                (
                    k["kind"].as_str().unwrap().to_string(),
                    k["count"].as_u64().unwrap(),
                    f(&k["sum_ms"]),
                )
            })
            .collect()
    };
    // jdk8-g1-details.log: young 34.5663 (1), initial-mark 10 (the Humongous Allocation
    // pause at 2.410), remark 2, cleanup 1, mixed 50, full 2500.
    let k = kinds("hotspot/jdk8-g1-details.log");
    let im: Vec<_> = k.iter().filter(|r| r.0 == "initial-mark").collect();
    assert_eq!(im.len(), 1, "{k:?}");
    assert_eq!(im[0].1, 1);
    close(im[0].2, 10.0);
    let young: Vec<_> = k.iter().filter(|r| r.0 == "young").collect();
    assert_eq!((young.len(), young[0].1), (1, 1), "{k:?}");
    close(young[0].2, 34.5663);
}

/// fixtures/unified/zgc-jdk17-stalls.log by hand: stalls 12.5 + 7.5 (Allocation) + 0.75
/// (Relocation) = 20.75 ms, longest 12.5; safepoint totals 0.18 + 2.55 + 0.07 + 0.015 =
/// 2.815 ms, reaches 0.15, 2.5, 0.04, 0.01 ms (longest 2.5); pauses 0.02 + 0.04 + 0.03; the
/// cycle from its `gc,start` line at 1.000, its capacity 3954M = 4048896 K (Relocate End).
#[test]
fn zgc_stalls_and_time_to_safepoint() {
    let p = fixture("unified/zgc-jdk17-stalls.log");
    let g = gc_of(&p, &[]);
    assert_eq!(g["stalls"], 3);
    close(f(&g["stall_total_ms"]), 20.75);
    close(f(&g["stall_max_ms"]), 12.5);
    assert_eq!(g["safepoint_pauses"], 4);
    close(f(&g["safepoint_total_ms"]), 2.815);
    close(f(&g["ttsp_max_ms"]), 2.5);
    // Stalls are not pauses: 3 pauses, 0.09 ms.
    assert_eq!(g["pauses"], 3);
    close(f(&g["pause_total_ms"]), 0.09);
    assert_eq!(g["heap_max_kb"], 4048896);
    // 1.000 (the cycle's start) to 2.000 (the end of the last safepoint).
    close(f(&g["span_s"]), 1.0);
    // The stall rows and the cycle's row.
    let ev = ok(&["gc", "--events", "--all-records", p.to_str().unwrap()]);
    let stalls: Vec<&str> = ev.lines().filter(|l| l.contains(",stall,")).collect();
    assert_eq!(stalls.len(), 3, "{ev}");
    assert!(
        stalls[0].contains(",1.0175,,12.5,other,ZGC,,Allocation Stall,"),
        "{}",
        stalls[0]
    );
    assert!(
        stalls[2].contains(",1.03925,,0.75,other,ZGC,,Relocation Stall,"),
        "{}",
        stalls[2]
    );
    // Each safepoint's reach in the last column: 0.15, 2.5, 0.04, 0.01 ms.
    let reach: Vec<&str> = ev
        .lines()
        .filter(|l| l.contains(",safepoint,"))
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(reach, ["0.15", "2.5", "0.04", "0.01"]);
    assert!(ev.lines().next().unwrap().ends_with(",line,ttsp_ms"));
    let cycle = ev.lines().find(|l| l.contains(",collection,")).unwrap();
    assert!(
        cycle.contains(",collection,1,,0.09,other,ZGC,Allocation Rate,Garbage Collection,2969600,1228800,4048896,0,24"),
        "{cycle}"
    );
    // The text outputs show them too.
    let text = ok(&["summary", p.to_str().unwrap()]);
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("stalls  stall_total_ms  ttsp_max_ms"),
        "{text}"
    );
    assert!(text.contains("20.750"), "{text}");
    let md = ok(&["summary", "-f", "markdown", p.to_str().unwrap()]);
    assert!(
        md.contains("| stalls | stall_total_ms | ttsp_max_ms |"),
        "{md}"
    );
    let csv = ok(&["summary", "-f", "csv", p.to_str().unwrap()]);
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let at = |k: &str| row[head.iter().position(|h| *h == k).unwrap()];
    assert_eq!(
        (at("stalls"), at("stall_total_ms"), at("ttsp_max_ms")),
        ("3", "20.75", "2.5")
    );
    let gc = ok(&["gc", p.to_str().unwrap()]);
    assert!(
        gc.contains("stalls (threads waiting for the collector, not pauses): 3, 20.750 ms in total, longest 12.500 ms"),
        "{gc}"
    );
    assert!(gc.contains("longest time to safepoint 2.500 ms"), "{gc}");
    // Objectives may name them: 20.75 ms of stalls fail `< 10` (exit 3); a reach of 2.5 ms
    // passes `<= 2.5`.
    let out = gcperf()
        .args(["summary", p.to_str().unwrap(), "--slo", "ttsp_max_ms<=2.5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = gcperf()
        .args(["summary", p.to_str().unwrap(), "--slo", "stall_total_ms<10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    // Windows by uptime: stalls start at 1.0175, 1.0235, 1.03925; safepoints at 1.00082,
    // 1.01845, 1.03593, 1.999985.
    let g = gc_of(&p, &["--from", "1.03"]);
    assert_eq!(
        (g["stalls"].as_u64(), g["safepoint_pauses"].as_u64()),
        (Some(1), Some(2))
    );
    close(f(&g["ttsp_max_ms"]), 0.04);
    let g = gc_of(&p, &["--to", "1.03"]);
    assert_eq!(g["stalls"], 2);
    close(f(&g["stall_total_ms"]), 20.0);
    close(f(&g["ttsp_max_ms"]), 2.5);
}

/// `correlate`: stalls are never pauses; with `--stalls` they are a category of their own.
/// By hand: the pause 12:00:00.900-01.000 (100 ms) overlaps request A1 (00.850-01.050, slow);
/// the stall 04.500-05.000 (500 ms) overlaps A2 (04.800-05.100, slow) by 200 ms; GC(1) at
/// 09.999 is after the last request (09.000).
#[test]
fn correlate_keeps_stalls_apart() {
    let dir = tempfile::tempdir().unwrap();
    let gc = dir.path().join("gc.log");
    std::fs::write(
        &gc,
        "[2012-10-05T12:00:00.000+0000][info][gc] Using The Z Garbage Collector\n\
[2012-10-05T12:00:01.000+0000][info][gc,phases] GC(0) Pause Mark Start 100.000ms\n\
[2012-10-05T12:00:05.000+0000][info][gc] Allocation Stall (main) 500.000ms\n\
[2012-10-05T12:00:10.000+0000][info][gc,phases] GC(1) Pause Mark Start 1.000ms\n",
    )
    .unwrap();
    let perf = dir.path().join("app.log");
    std::fs::write(
        &perf,
        "[A1];2012-10-05 12:00:01.050;200;100;100;1;saveOrder;\n\
[A2];2012-10-05 12:00:05.100;300;200;100;1;saveOrder;\n\
[A3];2012-10-05 12:00:07.000;10;5;5;1;saveOrder;\n\
[A4];2012-10-05 12:00:09.000;20;10;10;1;saveOrder;\n",
    )
    .unwrap();
    let (g, p) = (gc.to_str().unwrap(), perf.to_str().unwrap());
    let plain = json(&["correlate", "--gc", g, "--perf", p]);
    let c = &plain[0];
    assert_eq!(
        (c["pauses"].as_u64(), c["slow_with_gc"].as_u64()),
        (Some(1), Some(1))
    );
    close(f(&c["pause_ms"]), 100.0);
    assert!(c.get("stalls").is_none(), "{c}");
    let with = json(&["correlate", "--gc", g, "--perf", p, "--stalls"]);
    let c = &with[0];
    // The GC figures are the same; the stalls have their own.
    assert_eq!(
        (c["pauses"].as_u64(), c["slow_with_gc"].as_u64()),
        (Some(1), Some(1))
    );
    close(f(&c["gc_ms_in_slow"]), 100.0);
    let s = &c["stalls"];
    assert_eq!(s["kind"], "stall");
    assert_eq!(
        (s["pauses"].as_u64(), s["slow_with_gc"].as_u64()),
        (Some(1), Some(1))
    );
    close(f(&s["pause_ms"]), 500.0);
    close(f(&s["gc_ms_in_slow"]), 200.0);
    let csv = ok(&["correlate", "--gc", g, "--perf", p, "--stalls", "-f", "csv"]);
    assert!(
        csv.lines().any(|l| l.contains(",stalls,stall,4,2,1,")),
        "{csv}"
    );
}

#[test]
fn a_window_that_leaves_nothing_says_so() {
    // The Parallel fixture runs from 1.21 s to about 8 s of uptime: an hour's warm-up leaves
    // no record. Said on stderr; the row has no lone units, and no pause total: a sum over
    // no pauses is empty, as the longest is.
    let p = fixture("hotspot/jdk8-parallel-datestamps.log");
    let o = gcperf()
        .args(["gc", p.to_str().unwrap(), "--skip", "1h"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("jdk8-parallel-datestamps.log: no GC records in the time window"),
        "{err}"
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "0 collections, 0 pauses, \u{2013} paused in total, longest \u{2013}, throughput \u{2013}"
        ),
        "{out}"
    );
    // A window that keeps records says nothing of the kind.
    let o = gcperf()
        .args(["gc", p.to_str().unwrap(), "--skip", "2s"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&o.stderr).contains("no GC records"));
}

/// `compare` shows the stalls where a run has any (the ZGC fixture: 3, 20.75 ms, longest
/// 12.5, as `zgc_stalls_and_time_to_safepoint` works out; a run without stalls 0, 0 and
/// none), and no stall rows where no run has one.
#[test]
fn compare_shows_stalls_where_a_run_has_them() {
    let z = fixture("unified/zgc-jdk17-stalls.log");
    let g1 = fixture("unified/g1-jdk17.log");
    let csv = ok(&[
        "compare",
        "-q",
        "--format",
        "csv",
        z.to_str().unwrap(),
        g1.to_str().unwrap(),
    ]);
    let row = |m: &str| -> Option<String> {
        csv.lines()
            .find(|l| l.starts_with(&format!("gc,{m},")))
            .map(|l| l[format!("gc,{m},").len()..].to_string())
    };
    assert_eq!(row("stalls").as_deref(), Some("3,0"), "{csv}");
    assert_eq!(row("stall_total_ms").as_deref(), Some("20.75,0"), "{csv}");
    assert_eq!(row("stall_max_ms").as_deref(), Some("12.5,"), "{csv}");
    let plain = ok(&[
        "compare",
        "-q",
        "--format",
        "csv",
        g1.to_str().unwrap(),
        fixture(PARALLEL).to_str().unwrap(),
    ]);
    assert!(!plain.contains("stall"), "{plain}");
}

/// The same for a performance log: soap-before.log's requests end from 12:00:03.188 to about
/// 12:17 on 2012-09-21, so `--from 2012-09-21T13:00:00` keeps none of them, and an hour's
/// warm-up none either; `--from 12:10` keeps the later ones and says nothing.
#[test]
fn a_window_that_leaves_no_request_says_so() {
    let p = fixture("perf/soap-before.log");
    let run = |cmd: &str, window: &[&str]| {
        let mut a = vec![cmd, p.to_str().unwrap()];
        a.extend_from_slice(window);
        let o = gcperf().args(&a).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{a:?}");
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let said = "/perf/soap-before.log: no requests in the time window (--skip, --from, --to)";
    for cmd in ["perf", "summary"] {
        let (out, err) = run(cmd, &["--from", "2012-09-21T13:00:00"]);
        assert!(err.contains(said), "{cmd}: {err}");
        if cmd == "perf" {
            assert!(out.contains(": 0 requests, 0 errors"), "{out}");
        }
        let (_, err) = run(cmd, &["--skip", "1h"]);
        assert!(err.contains(said), "{cmd} --skip: {err}");
        let (_, err) = run(cmd, &["--from", "2012-09-21T12:10:00"]);
        assert!(!err.contains("no requests"), "{cmd}: {err}");
    }
}

/// The lines saying a window leaves an input nothing come in the inputs' order, each in its
/// input's turn, whichever worker finished first: 24 logs, two commands, three runs each, the
/// same stderr every time and the names in folder order.
#[test]
fn window_notes_come_in_the_inputs_order() {
    let dir = tempfile::tempdir().unwrap();
    let gc = fixture("hotspot/jdk8-parallel-datestamps.log");
    let perf = fixture("perf/soap-before.log");
    for i in 1..=12 {
        std::fs::copy(&gc, dir.path().join(format!("g{i:02}.log"))).unwrap();
        std::fs::copy(&perf, dir.path().join(format!("p{i:02}.log"))).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    for cmd in ["summary", "perf"] {
        let said = |o: &std::process::Output| -> Vec<String> {
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .filter(|l| l.contains("in the time window"))
                .map(|l| l.split('/').next_back().unwrap_or(l).to_string())
                .collect()
        };
        let first = gcperf().args([cmd, d, "--skip", "1h"]).output().unwrap();
        let lines = said(&first);
        let want = match cmd {
            "summary" => 24,
            _ => 12,
        };
        assert_eq!(lines.len(), want, "{cmd}: {lines:?}");
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted, "{cmd}: not in the inputs' order");
        for _ in 0..2 {
            let again = gcperf().args([cmd, d, "--skip", "1h"]).output().unwrap();
            assert_eq!(again.stderr, first.stderr, "{cmd}");
        }
    }
}
