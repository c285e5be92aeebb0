//! Issue 13's analyses end to end: allocation and promotion rates, the live set and its
//! trend, pause time per cause and the findings, on fixtures written for them (every expected
//! value worked out by hand from the log text in the comments) and on corpus logs (worked out
//! by a short script here, independently of the parsers).

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("gcperf")
        .expect("binary")
        .args(args)
        .output()
        .expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The `gc` object of `summary --format json` for one file.
fn gc_json(path: &Path, extra: &[&str]) -> Value {
    let p = path.to_str().unwrap();
    let mut a = vec!["summary", "-q", "--format", "json", p];
    a.extend(extra);
    let (code, out) = run(&a);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    v[0]["gc"].clone()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(got: &Value, want: f64) {
    let g = f(got);
    assert!(
        (g - want).abs() <= 1e-6 * want.abs().max(1.0),
        "got {g}, want {want}"
    );
}

/// (cause, count, pause_total_ms, collection_pause_max_ms) of each cause row, in order.
fn causes(g: &Value) -> Vec<(String, u64, f64, f64)> {
    g["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["cause"].as_str().unwrap_or("-").to_string(),
                c["count"].as_u64().unwrap(),
                f(&c["pause_total_ms"]),
                f(&c["collection_pause_max_ms"]),
            )
        })
        .collect()
}

/// (id, count, total_ms, first_lines) of each finding, in order.
fn findings(g: &Value) -> Vec<(String, u64, f64, Vec<u64>)> {
    g["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["id"].as_str().unwrap().to_string(),
                x["count"].as_u64().unwrap(),
                f(&x["total_ms"]),
                x["first_lines"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_u64().unwrap())
                    .collect(),
            )
        })
        .collect()
}

fn row(c: &str, n: u64, total: f64, max: f64) -> (String, u64, f64, f64) {
    (c.to_string(), n, total, max)
}

fn finding(id: &str, n: u64, total: f64, lines: &[u64]) -> (String, u64, f64, Vec<u64>) {
    (id.to_string(), n, total, lines.to_vec())
}

#[test]
fn serial_rates_live_set_causes_and_explicit_gc() {
    let g = gc_json(&fixture("hotspot/serial-diag.log"), &[]);
    // Collections (start, ms, heap before->after, young before->after):
    //   1: 1 s, 10 ms, 10000->4000, DefNew 8000->1000
    //   2: 3 s, 20 ms, 12000->6000, DefNew 9000->1000
    //   3: 5 s, 40 ms, 8000->3000 (Full GC, Tenured only)
    //   4: 7 s, 10 ms, 11000->4500, DefNew 8000->500
    //   5: 9 s, 60 ms, 12600->3600 (Full GC)
    // Allocated: 1->2 young 9000-1000 = 8000; 2->3 (a full GC: heap) 8000-6000 = 2000;
    // 3->4 heap 11000-3000 = 8000; 4->5 heap 12600-4500 = 8100; total 26100 K over
    // 1.010 s (first end) to 9.000 s (last start) = 7.99 s.
    assert_eq!(g["allocated_kb"].as_u64(), Some(26100));
    close(&g["alloc_rate_kb_per_s"], 26100.0 / 7.99);
    // Per 1 s interval (span 8.06 s: 1 s intervals), each interval's allocation spread over
    // the time between its collections: [1,2) and [2,3) 8000/1.99 K/s; [3,4) and [4,5)
    // 2000/1.98; [5,6) and [6,7) 8000/1.96; [7,8) and [8,9) 8100/1.99. Sorted, p50 is the mean
    // of the 4th and 5th (both 8000/1.99), p95 at rank 6.65, max 8000/1.96.
    assert_eq!(f(&g["alloc_interval_s"]), 1.0);
    close(&g["alloc_rate_p50_kb_per_s"], 8000.0 / 1.99);
    close(
        &g["alloc_rate_p95_kb_per_s"],
        8100.0 / 1.99 + 0.65 * (8000.0 / 1.96 - 8100.0 / 1.99),
    );
    close(&g["alloc_rate_max_kb_per_s"], 8000.0 / 1.96);
    // Promoted (old after - old before) on the young ones: 1: (4000-1000)-(10000-8000) = 1000;
    // 2: (6000-1000)-(12000-9000) = 2000; 4: (4500-500)-(11000-8000) = 1000.
    assert_eq!(g["promoted_kb"].as_i64(), Some(4000));
    close(&g["promotion_rate_kb_per_s"], 4000.0 / 7.99);
    // Live set after the full GCs: 3000 K at 5 s, 3600 K at 9 s. Two points 4 s apart make
    // no trend (issue 35: it was 540000 K/h, 150 K/s extrapolated to an hour).
    assert_eq!(g["live_set_collections"].as_u64(), Some(2));
    assert_eq!(g["live_set_kb"].as_u64(), Some(3600));
    assert!(g["live_set_slope_kb_per_h"].is_null());
    assert_eq!(
        causes(&g),
        vec![
            row("Allocation Failure", 4, 100.0, 60.0),
            row("System.gc()", 1, 40.0, 40.0)
        ]
    );
    close(&g["causes"][0]["share_pct"], 100.0 * 100.0 / 140.0);
    close(&g["causes"][1]["collection_pause_mean_ms"], 40.0);
    // A Serial run: its full GCs are no finding; 40 ms in 1 s is under 5 %.
    assert_eq!(findings(&g), vec![finding("explicit-gc", 1, 40.0, &[3])]);
}

#[test]
fn parallel_rates_and_metadata_gc() {
    let g = gc_json(&fixture("hotspot/parallel-diag.log"), &[]);
    // Young 1: 2 s, PSYoungGen 6000->1000, heap 6000->2000 (promoted 1000 - 0 = 1000);
    // young 2: 4 s, 7000->1000, heap 8000->3500 (promoted 2500 - 1000 = 1500);
    // full 3: 6 s, heap 7500->2500; young 4: 8 s, 6000->500, heap 8500->3500 (promoted
    // 3000 - 2500 = 500); full 5: 10 s (Metadata GC Threshold), heap 3500->2000.
    // Allocated: 1->2 young 7000-1000 = 6000; 2->3 heap 7500-3500 = 4000; 3->4 heap
    // 8500-2500 = 6000; 4->5 heap 3500-3500 = 0: 16000 K over 2.010..10.000 s = 7.99 s.
    assert_eq!(g["allocated_kb"].as_u64(), Some(16000));
    close(&g["alloc_rate_kb_per_s"], 16000.0 / 7.99);
    assert_eq!(g["promoted_kb"].as_i64(), Some(3000));
    close(&g["promotion_rate_kb_per_s"], 3000.0 / 7.99);
    // Live set 2500 K at 6 s, 2000 K at 10 s: two points, no trend (issue 35).
    assert!(g["live_set_slope_kb_per_h"].is_null());
    assert_eq!(
        causes(&g),
        vec![
            row("Allocation Failure", 3, 40.0, 20.0),
            row("Ergonomics", 1, 30.0, 30.0),
            row("Metadata GC Threshold", 1, 30.0, 30.0)
        ]
    );
    assert_eq!(findings(&g), vec![finding("metadata-gc", 1, 30.0, &[5])]);
}

#[test]
fn cms_promotion_and_concurrent_mode_failures() {
    let g = gc_json(&fixture("hotspot/cms-diag.log"), &[]);
    // Collections with heap figures: 1 s ParNew 5000->1500 (young 5000->500); 3 s the
    // promotion failure (a full collection) 14000->4000; 5 s ParNew 9000->4900 (young
    // 5000->400); 6 s the concurrent mode failure 9000->3000. The initial mark has none.
    // Allocated (heap, each pair touching a full GC): 14000-1500 = 12500, 9000-4000 = 5000,
    // 9000-4900 = 4100: 21600 K over 1.010..6.000 s = 4.99 s.
    assert_eq!(g["allocated_kb"].as_u64(), Some(21600));
    close(&g["alloc_rate_kb_per_s"], 21600.0 / 4.99);
    // Promoted: (1500-500)-(5000-5000) = 1000; (4900-400)-(9000-5000) = 500.
    assert_eq!(g["promoted_kb"].as_i64(), Some(1500));
    close(&g["promotion_rate_kb_per_s"], 1500.0 / 4.99);
    // Live set 4000 K at 3 s, 3000 K at 6 s: two points, no trend (issue 35).
    assert!(g["live_set_slope_kb_per_h"].is_null());
    assert_eq!(
        causes(&g),
        vec![
            row("Allocation Failure", 4, 540.0, 300.0),
            row("CMS Initial Mark", 1, 1.0, 1.0)
        ]
    );
    close(&g["causes"][0]["share_pct"], 100.0 * 540.0 / 541.0);
    // Full GCs in a CMS run (lines 5 and 7); the interval [3, 4) s is 22 % paused; [6, 7)
    // holds only 0.3 s of the log, too little to judge.
    assert_eq!(
        findings(&g),
        vec![
            finding("concurrent-mode-failure", 1, 300.0, &[7]),
            finding("promotion-failure", 1, 220.0, &[5]),
            finding("full-gc", 2, 520.0, &[5, 7]),
            finding("gc-overhead", 1, 220.0, &[5]),
        ]
    );
}

#[test]
fn g1_jdk8_humongous_to_space_exhausted_and_full_gc() {
    let g = gc_json(&fixture("hotspot/g1-jdk8-diag.log"), &[]);
    // Heap (M): 10->4 at 1 s, 12->6 at 2 s, 20->18 at 3 s, 60->30 at 4 s (full), 40->32 at 6 s.
    // Allocated: 8 + 14 + 42 + 10 = 74 M = 75776 K over 1.010..6.000 s = 4.99 s.
    assert_eq!(g["allocated_kb"].as_u64(), Some(75776));
    close(&g["alloc_rate_kb_per_s"], 75776.0 / 4.99);
    // G1 without young-generation figures (`-XX:+PrintGC`): promotion unknown, null.
    assert!(g["promoted_kb"].is_null() && g["promotion_rate_kb_per_s"].is_null());
    // One full GC: a live set, no trend.
    assert_eq!(g["live_set_kb"].as_u64(), Some(30720));
    assert!(g["live_set_slope_kb_per_h"].is_null());
    assert_eq!(
        causes(&g),
        vec![
            row("Allocation Failure", 1, 500.0, 500.0),
            row("G1 Evacuation Pause", 3, 140.0, 100.0),
            row("G1 Humongous Allocation", 1, 20.0, 20.0)
        ]
    );
    // [3, 4) s 10 % paused, [4, 5) s 50 %.
    assert_eq!(
        findings(&g),
        vec![
            finding("to-space-exhausted", 1, 100.0, &[3]),
            finding("humongous", 1, 20.0, &[2]),
            finding("full-gc", 1, 500.0, &[4]),
            finding("gc-overhead", 2, 600.0, &[3, 4]),
        ]
    );
}

#[test]
fn unified_g1_rates_causes_and_findings() {
    let g = gc_json(&fixture("unified/g1-diag.log"), &[]);
    // Lines give the end; starts are 0.990, 1.980, 2.900, 4.990 s. Heap (M): 10->4, 12->6,
    // 20->8, 16->9. Allocated 8 + 14 + 8 = 30 M = 30720 K over 1.000..4.990 s = 3.99 s.
    assert_eq!(g["allocated_kb"].as_u64(), Some(30720));
    close(&g["alloc_rate_kb_per_s"], 30720.0 / 3.99);
    assert!(g["promoted_kb"].is_null());
    assert_eq!(g["live_set_kb"].as_u64(), Some(8192));
    // Ties (20 ms) by name.
    assert_eq!(
        causes(&g),
        vec![
            row("System.gc()", 1, 100.0, 100.0),
            row("G1 Evacuation Pause", 2, 20.0, 10.0),
            row("G1 Humongous Allocation", 1, 20.0, 20.0)
        ]
    );
    // The full GC of a G1 run ("Using G1"); [2, 3) s holds the 100 ms full GC: 10 %.
    assert_eq!(
        findings(&g),
        vec![
            finding("explicit-gc", 1, 100.0, &[4]),
            finding("humongous", 1, 20.0, &[3]),
            finding("full-gc", 1, 100.0, &[4]),
            finding("gc-overhead", 1, 100.0, &[4]),
        ]
    );
}

#[test]
fn jrockit_rates_live_set_growth_and_explicit_gc() {
    let g = gc_json(&fixture("jrockit/r28-diag.log"), &[]);
    // YC 1 s 100000->40000, YC 3 s 120000->60000, OC 5 s 90000->30000 (System.gc()), YC 7 s
    // 110000->50000, OC 9 s 120000->45000, OC 11 s 125000->60000. Allocated 80000 + 30000 +
    // 80000 + 70000 + 80000 = 340000 K over 1.010..11.000 s = 9.99 s.
    assert_eq!(g["allocated_kb"].as_u64(), Some(340000));
    close(&g["alloc_rate_kb_per_s"], 340000.0 / 9.99);
    // JRockit logs no young-generation figures.
    assert!(g["promoted_kb"].is_null());
    // Live set (5, 30000), (9, 45000), (11, 60000): three points, but 6 s of log, no trend
    // (issue 35: it was 90000 * 3 / 56 K/s, 5.8 GB/h, and fired live-set-growth).
    assert_eq!(g["live_set_collections"].as_u64(), Some(3));
    assert!(g["live_set_slope_kb_per_h"].is_null());
    assert_eq!(
        causes(&g),
        vec![
            row("Allocation request failed", 5, 240.0, 100.0),
            row("System.gc() called", 1, 100.0, 100.0)
        ]
    );
    // [5, 6) and [9, 10) s are 10 % paused; [11, 12) holds 0.1 s of the log only.
    assert_eq!(
        findings(&g),
        vec![
            finding("explicit-gc", 1, 100.0, &[7]),
            finding("gc-overhead", 2, 200.0, &[7, 11]),
        ]
    );
}

#[test]
fn a_clean_log_has_no_findings_and_the_pause_target_fires_over_it() {
    // Three young collections, 10 ms each, 10 s apart: nothing to report.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("clean.log");
    std::fs::write(
        &p,
        "10.000: [GC (Allocation Failure) [PSYoungGen: 6000K->1000K(7000K)] 6000K->2000K(20000K), 0.0100000 secs]\n\
         20.000: [GC (Allocation Failure) [PSYoungGen: 7000K->1000K(7000K)] 8000K->2500K(20000K), 0.0100000 secs]\n\
         30.000: [GC (Allocation Failure) [PSYoungGen: 7000K->1000K(7000K)] 8500K->3000K(20000K), 0.0120000 secs]\n",
    )
    .unwrap();
    let g = gc_json(&p, &[]);
    assert_eq!(g["findings"], serde_json::json!([]));
    // Allocated 7000-1000 twice over 10.010..30.000 s; promoted 1000 + 500 + 500.
    assert_eq!(g["allocated_kb"].as_u64(), Some(12000));
    assert_eq!(g["promoted_kb"].as_i64(), Some(2000));
    // No full collection: no live set.
    assert_eq!(g["live_set_collections"].as_u64(), Some(0));
    assert!(g["live_set_kb"].is_null() && g["live_set_slope_kb_per_h"].is_null());
    // Over an 11 ms target: the 12 ms pause of line 3.
    let g = gc_json(&p, &["--pause-target", "11ms"]);
    assert_eq!(
        findings(&g),
        vec![finding("over-pause-target", 1, 12.0, &[3])]
    );
    // --interval is honoured: 20 s intervals.
    let (code, out) = run(&[
        "gc",
        "-q",
        "--interval",
        "20s",
        "--format",
        "json",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(f(&v[0]["gc"]["alloc_interval_s"]), 20.0);
}

#[test]
fn gc_by_cause_and_finding_tables_and_summary_csv() {
    let p = fixture("hotspot/serial-diag.log");
    let p = p.to_str().unwrap();
    let (code, out) = run(&["gc", "-q", "--by", "cause", "--format", "csv", p]);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("file,cause,count,pause_total_ms,collection_pause_mean_ms,collection_pause_max_ms,share_pct")
    );
    assert!(lines
        .next()
        .unwrap()
        .ends_with(",Allocation Failure,4,100,25,60,71.4285714286"));
    assert!(lines
        .next()
        .unwrap()
        .ends_with(",System.gc(),1,40,40,40,28.5714285714"));
    let (_, out) = run(&["gc", "-q", "--by", "finding", "--format", "csv", p]);
    assert!(out.contains(",explicit-gc,1,40,3\n"), "{out}");
    // Text: the figures in the units people read (26100 KB = 25.5 MB, 3266.583 KB/s = 3.2
    // MB/s, 4000 KB = 3.9 MB, 500.626 KB/s under a MB: 501 KB/s, 3600 KB = 3.5 MB) and both
    // tables after the breakdowns.
    let (_, out) = run(&["gc", "-q", p]);
    assert!(
        out.contains("allocation: 25.5 MB in total, 3.2 MB/s mean"),
        "{out}"
    );
    assert!(
        out.contains("promotion: 3.9 MB in total, 501 KB/s"),
        "{out}"
    );
    assert!(out.contains("live set: 2 full/old collections, last 3.5 MB, trend \u{2013}"));
    assert!(out.contains("explicit-gc"), "{out}");
    // Summary CSV: the figures without float noise.
    let (_, out) = run(&["summary", "-q", "--format", "csv", p]);
    let mut l = out.lines();
    let head: Vec<&str> = l.next().unwrap().split(',').collect();
    let vals: Vec<&str> = l.next().unwrap().split(',').collect();
    let get = |k: &str| vals[head.iter().position(|h| *h == k).unwrap()];
    assert_eq!(get("allocated_kb"), "26100");
    assert_eq!(get("alloc_rate_kb_per_s"), "3266.58322904");
    assert_eq!(get("promoted_kb"), "4000");
    assert_eq!(get("live_set_slope_kb_per_h"), "");
    assert_eq!(get("findings"), "explicit-gc:1");
}

// ------------------------------------------------------------------------------------------
// Corpus logs, the figures worked out here from the text with a regex.
// ------------------------------------------------------------------------------------------

struct Coll {
    t: f64,
    ms: f64,
    full: bool,
    young: Option<(u64, u64)>,
    heap: (u64, u64),
}

/// Allocated K as `analyze::diag` defines it, the time measured in, and promoted K.
fn by_hand(c: &[Coll]) -> (u64, f64, Option<i64>) {
    let mut alloc = 0u64;
    for w in c.windows(2) {
        let (p, i) = (&w[0], &w[1]);
        let (b, a) = match (p.young, i.young) {
            (Some(py), Some(iy)) if !p.full && !i.full => (iy.0, py.1),
            _ => (i.heap.0, p.heap.1),
        };
        alloc += b.saturating_sub(a);
    }
    let elapsed = match (c.first(), c.last()) {
        (Some(a), Some(b)) => b.t - (a.t + a.ms / 1000.0),
        _ => 0.0,
    };
    let mut promoted = None;
    for x in c.iter().filter(|x| !x.full) {
        if let Some((yb, ya)) = x.young {
            *promoted.get_or_insert(0i64) +=
                (x.heap.1 as i64 - ya as i64) - (x.heap.0 as i64 - yb as i64);
        }
    }
    (alloc, elapsed, promoted)
}

#[test]
fn corpus_rates_agree_with_a_script() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let re = regex::Regex::new(
        r"^([0-9.]+): \[(Full GC|GC--|GC) (?:\[PSYoungGen: (\d+)K->(\d+)K\(\d+K\)\] )?(?:\[(?:ParOldGen|PSOldGen): [^\]]*\] )?(\d+)K->(\d+)K\(\d+K\)(?: \[PSPermGen: [^\]]*\])?, ([0-9.]+) secs\]",
    )
    .unwrap();
    for name in [
        "SampleSun1_4_2NoFullGC.txt",
        "SampleSun1_5_0ParallelOldGC.txt",
        "SampleSun1_5_0PromotionFailure.txt",
    ] {
        let p = dir.join("gc/hotspot").join(name);
        let text = std::fs::read_to_string(&p).unwrap();
        let c: Vec<Coll> = text
            .lines()
            .filter_map(|l| re.captures(l))
            .map(|m| {
                let u = |i: usize| m.get(i).map(|x| x.as_str().parse::<u64>().unwrap());
                Coll {
                    t: m[1].parse().unwrap(),
                    ms: m[7].parse::<f64>().unwrap() * 1000.0,
                    full: &m[2] == "Full GC",
                    young: u(3).zip(u(4)),
                    heap: (u(5).unwrap(), u(6).unwrap()),
                }
            })
            .collect();
        let g = gc_json(&p, &[]);
        // The script read every collection.
        assert_eq!(g["collections"].as_u64(), Some(c.len() as u64), "{name}");
        let (alloc, elapsed, promoted) = by_hand(&c);
        if c.len() < 2 {
            // One collection: nothing allocated between two.
            assert!(g["allocated_kb"].is_null() && g["alloc_rate_kb_per_s"].is_null());
        } else {
            assert_eq!(g["allocated_kb"].as_u64(), Some(alloc), "{name}");
            close(&g["alloc_rate_kb_per_s"], alloc as f64 / elapsed);
        }
        assert_eq!(g["promoted_kb"].as_i64(), promoted, "{name}");
        // One cause row (these logs print none) with every pause.
        let total: f64 = c.iter().map(|x| x.ms).sum();
        let rows = causes(&g);
        assert_eq!(rows.len(), 1, "{name}");
        assert_eq!(rows[0].1, c.len() as u64);
        assert!((rows[0].2 - total).abs() < 1e-6, "{name}");
        // Live set: the full GCs' heap after, least squares by hand.
        let pts: Vec<(f64, f64)> = c
            .iter()
            .filter(|x| x.full)
            .map(|x| (x.t, x.heap.1 as f64))
            .collect();
        assert_eq!(g["live_set_collections"].as_u64(), Some(pts.len() as u64));
        // A trend from three points or more, two minutes apart or more (issue 35).
        let apart = pts.last().map_or(0.0, |l| l.0) - pts.first().map_or(0.0, |f| f.0);
        if pts.len() < 3 || apart < 120.0 {
            assert!(g["live_set_slope_kb_per_h"].is_null(), "{name}");
        } else {
            let n = pts.len() as f64;
            let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
            let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
            let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
            let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
            close(&g["live_set_slope_kb_per_h"], sxy / sxx * 3600.0);
        }
    }
}

#[test]
fn corpus_promotion_failures_are_counted_as_the_text_shows() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let p = dir
        .join("gc/hotspot")
        .join("SampleSun1_7_0CMS_PrintTenuringDistributionPromotionFailure.txt");
    let text = std::fs::read_to_string(&p).unwrap();
    let want = text.matches("promotion failed").count() as u64;
    assert!(want > 0);
    let g = gc_json(&p, &[]);
    let pf = findings(&g)
        .into_iter()
        .find(|x| x.0 == "promotion-failure")
        .expect("promotion-failure");
    assert_eq!(pf.1, want);
}

#[test]
fn unified_young_figures_and_to_space_exhausted_lines() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("serial.log");
    std::fs::write(
        &p,
        "[0.100s][info][gc] Using Serial\n\
         [1.000s][info][gc,start] GC(0) Pause Young (Allocation Failure)\n\
         [1.010s][info][gc,heap] GC(0) DefNew: 8192K->1024K(9216K)\n\
         [1.010s][info][gc,heap] GC(0) Tenured: 0K->2048K(20480K)\n\
         [1.010s][info][gc] GC(0) Pause Young (Allocation Failure) 8M->3M(29M) 10.000ms\n\
         [3.000s][info][gc,start] GC(1) Pause Young (Allocation Failure)\n\
         [3.020s][info][gc,heap] GC(1) DefNew: 9216K->1024K(9216K)\n\
         [3.020s][info][gc,heap] GC(1) Tenured: 2048K->3072K(20480K)\n\
         [3.020s][info][gc] GC(1) Pause Young (Allocation Failure) 11M->4M(29M) 20.000ms\n",
    )
    .unwrap();
    let g = gc_json(&p, &[]);
    // Promoted: GC(0) (3072-1024)-(8192-8192) = 2048; GC(1) (4096-1024)-(11264-9216) = 1024.
    assert_eq!(g["promoted_kb"].as_i64(), Some(3072));
    // Allocated: young 9216 - 1024 between them, over 1.010..3.000 s.
    assert_eq!(g["allocated_kb"].as_u64(), Some(8192));
    close(&g["alloc_rate_kb_per_s"], 8192.0 / 1.99);
    close(&g["promotion_rate_kb_per_s"], 3072.0 / 1.99);

    let p = dir.path().join("g1.log");
    std::fs::write(
        &p,
        "[0.100s][info][gc] Using G1\n\
         [1.000s][info][gc,start] GC(0) Pause Young (Normal) (G1 Evacuation Pause)\n\
         [1.010s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 10M->4M(64M) 10.000ms\n\
         [3.000s][info][gc,start] GC(1) Pause Young (Normal) (G1 Evacuation Pause)\n\
         [3.003s][info][gc] GC(1) To-space exhausted\n\
         [3.005s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 60M->62M(64M) 5.000ms\n",
    )
    .unwrap();
    let g = gc_json(&p, &[]);
    // The pause's line (6) is the evidence; G1 region counts are no young figures in K.
    assert_eq!(
        findings(&g),
        vec![finding("to-space-exhausted", 1, 5.0, &[6])]
    );
    assert!(g["promoted_kb"].is_null());
}

/// JDK 9-13 unified logs of Serial/ParNew and CMS: HotSpot writes `Promotion failed`
/// (`[gc,promotion]`, info) inside the young collection that failed, and `Concurrent mode
/// failure` (`[gc]`, debug) inside the full collection CMS fell back to; the classic log's
/// `(promotion failed)` and `(concurrent mode failure)`.
#[test]
fn unified_promotion_and_concurrent_mode_failures() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cms.log");
    std::fs::write(
        &p,
        "[0.100s][info][gc] Using Concurrent Mark Sweep\n\
         [1.000s][info][gc,start] GC(0) Pause Young (Allocation Failure)\n\
         [1.010s][info][gc] GC(0) Pause Young (Allocation Failure) 50M->40M(100M) 10.000ms\n\
         [2.000s][info][gc,start] GC(1) Pause Young (Allocation Failure)\n\
         [2.040s][info][gc,promotion] GC(1) Promotion failed\n\
         [2.050s][info][gc] GC(1) Pause Young (Allocation Failure) 90M->90M(100M) 50.000ms\n\
         [2.050s][info][gc,start] GC(2) Pause Full (Allocation Failure)\n\
         [2.060s][debug][gc] GC(2) Concurrent mode failure\n\
         [2.250s][info][gc] GC(2) Pause Full (Allocation Failure) 90M->30M(100M) 200.000ms\n\
         [3.000s][info][gc,start] GC(3) Pause Young (Allocation Failure)\n\
         [3.010s][info][gc] GC(3) Pause Young (Allocation Failure) 60M->35M(100M) 10.000ms\n",
    )
    .unwrap();
    let g = gc_json(&p, &[]);
    // The pauses' lines are the evidence: GC(1)'s young pause on line 6, GC(2)'s full one on
    // line 9 (a full GC of CMS, a concurrent collector, is `full-gc` too); GC(0) and GC(3)
    // show nothing. (And the 250 ms paused from 2.0 s on are GC overhead: the log's 2.01 s
    // span cut into intervals, the one they fall in starting with line 6.)
    assert_eq!(
        findings(&g),
        vec![
            finding("concurrent-mode-failure", 1, 200.0, &[9]),
            finding("promotion-failure", 1, 50.0, &[6]),
            finding("full-gc", 1, 200.0, &[9]),
            finding("gc-overhead", 1, 250.0, &[6]),
        ]
    );
}

#[test]
fn jrockit_r28_promotion_is_what_its_lines_state() {
    // `[YC#n] YC promoted N objects (XKB).`: the sum of the X, by a regex over the text.
    let p = fixture("jrockit/r28-gencon-gcpause.log");
    let text = std::fs::read_to_string(&p).unwrap();
    let re = regex::Regex::new(r"YC promoted \d+ objects \((\d+)KB\)").unwrap();
    let want: i64 = re
        .captures_iter(&text)
        .map(|c| c[1].parse::<i64>().unwrap())
        .sum();
    assert!(want > 0);
    let g = gc_json(&p, &[]);
    assert_eq!(g["promoted_kb"].as_i64(), Some(want));
    // Over the same time as the allocation rate: both rates' ratio is the figures'.
    let ratio = f(&g["promotion_rate_kb_per_s"]) / f(&g["alloc_rate_kb_per_s"]);
    let want_ratio = want as f64 / f(&g["allocated_kb"]);
    assert!((ratio - want_ratio).abs() < 1e-9, "{ratio} {want_ratio}");
}

/// A Serial log of five full GCs a minute apart (10 to 250 s, 50 ms each), the live set after
/// them 10000, 12000, 14500, 16000, 19000 K.
const GROWING: &str = "\
10.000: [Full GC (Allocation Failure) 10.000: [Tenured: 15000K->10000K(80000K), 0.0500000 secs] 20000K->10000K(100000K), [Metaspace: 2000K->2000K(1056768K)], 0.0500000 secs] [Times: user=0.05 sys=0.00, real=0.05 secs]
70.000: [Full GC (Allocation Failure) 70.000: [Tenured: 17000K->12000K(80000K), 0.0500000 secs] 22000K->12000K(100000K), [Metaspace: 2000K->2000K(1056768K)], 0.0500000 secs] [Times: user=0.05 sys=0.00, real=0.05 secs]
130.000: [Full GC (Allocation Failure) 130.000: [Tenured: 19000K->14500K(80000K), 0.0500000 secs] 24000K->14500K(100000K), [Metaspace: 2000K->2000K(1056768K)], 0.0500000 secs] [Times: user=0.05 sys=0.00, real=0.05 secs]
190.000: [Full GC (Allocation Failure) 190.000: [Tenured: 21500K->16000K(80000K), 0.0500000 secs] 26000K->16000K(100000K), [Metaspace: 2000K->2000K(1056768K)], 0.0500000 secs] [Times: user=0.05 sys=0.00, real=0.05 secs]
250.000: [Full GC (Allocation Failure) 250.000: [Tenured: 23000K->19000K(80000K), 0.0500000 secs] 28000K->19000K(100000K), [Metaspace: 2000K->2000K(1056768K)], 0.0500000 secs] [Times: user=0.05 sys=0.00, real=0.05 secs]
";

/// `text` as a log file in a fresh folder.
fn log_file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("gc.log");
    std::fs::write(&p, text).unwrap();
    (dir, p)
}

#[test]
fn a_live_set_trend_needs_three_points_two_minutes_apart() {
    // Mean t 130 s, mean 14300 K; Sxx = 120² + 60² + 0 + 60² + 120² = 36000; Sxy = (-120)(-4300)
    // + (-60)(-2300) + 0 + 60 * 1700 + 120 * 4700 = 1320000: 36.667 K/s = 132000 K/h. The
    // fitted rise over the 240 s, 8800 K, is over a tenth of the first live set (10000 K):
    // live-set-growth, on all five (250 ms).
    let (_d, p) = log_file(GROWING);
    let g = gc_json(&p, &[]);
    assert_eq!(g["live_set_collections"].as_u64(), Some(5));
    close(&g["live_set_slope_kb_per_h"], 132000.0);
    assert_eq!(
        findings(&g),
        vec![finding("live-set-growth", 5, 250.0, &[1, 2, 3, 4, 5])]
    );
    // The same five full GCs 20 s apart (80 s in all): no trend, no finding.
    let short = GROWING
        .replace("70.000", "30.000")
        .replace("130.000", "50.000")
        .replace("190.000", "70.000")
        .replace("250.000", "90.000");
    let (_d, p) = log_file(&short);
    let g = gc_json(&p, &[]);
    assert_eq!(g["live_set_collections"].as_u64(), Some(5));
    assert!(g["live_set_slope_kb_per_h"].is_null());
    assert_eq!(findings(&g), vec![]);
    // Two of them four minutes apart: two points, no trend.
    let two: String = GROWING
        .lines()
        .enumerate()
        .filter(|(i, _)| *i == 0 || *i == 4)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let (_d, p) = log_file(&two);
    let g = gc_json(&p, &[]);
    assert_eq!(g["live_set_collections"].as_u64(), Some(2));
    assert!(g["live_set_slope_kb_per_h"].is_null());
    assert_eq!(findings(&g), vec![]);
}

#[test]
fn the_new_figures_are_slo_metrics() {
    // 26100 / 7.99 = 3266.58 K/s (see the Serial test): met under 4000, failed under 3000.
    let p = fixture("hotspot/serial-diag.log");
    let p = p.to_str().unwrap();
    assert_eq!(
        run(&["gc", "-q", p, "--slo", "alloc_rate_kb_per_s<4000"]).0,
        0
    );
    assert_eq!(
        run(&["gc", "-q", p, "--slo", "alloc_rate_kb_per_s<3000"]).0,
        3
    );
    // 132000 K/h (see the live-set test): met at 132000, failed under it.
    let (_d, g) = log_file(GROWING);
    let g = g.to_str().unwrap();
    let slo = |o: &str| run(&["summary", "-q", g, "--slo", o]).0;
    assert_eq!(slo("live_set_slope_kb_per_h<=132000"), 0);
    assert_eq!(slo("live_set_slope_kb_per_h<100000"), 3);
}

#[test]
fn report_shows_the_causes_and_findings() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    std::fs::copy(fixture("hotspot/cms-diag.log"), runs.join("cms.log")).unwrap();
    let out = dir.path().join("report");
    let (code, _) = run(&[
        "report",
        "-q",
        runs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let html = std::fs::read_to_string(out.join("runs/cms.html")).unwrap();
    // The CMS fixture's figures (see its test): 21600 K (21.1 MB) allocated, causes, four
    // findings, each explained with what to try.
    assert!(html.contains("allocation: 21.1 MB in total"), "{html}");
    assert!(html.contains("Pause time per cause") && html.contains("CMS Initial Mark"));
    for id in [
        "concurrent-mode-failure",
        "promotion-failure",
        "full-gc",
        "gc-overhead",
    ] {
        assert!(
            html.contains(&format!("<div class=\"finding\" id=\"{id}\">")),
            "{id}"
        );
    }
    assert!(html.contains(
        "<h3>Concurrent mode failure <span class=\"muted\">(concurrent-mode-failure)</span></h3>"
    ));
    assert!(
        html.contains("-XX:CMSInitiatingOccupancyFraction"),
        "what to try"
    );
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        csv.contains(",concurrent-mode-failure:1 promotion-failure:1 full-gc:2 gc-overhead:1,"),
        "{csv}"
    );
}

#[test]
fn g1_jdk8_details_give_young_figures() {
    // Young = Eden + survivors: 8192 + 1024 -> 0 + 2048 and 8192 + 2048 -> 0 + 2048.
    // Promoted: (14336-2048)-(20480-9216) = 1024; (18432-2048)-(24576-10240) = 2048.
    // Allocated, young: 10240 - 2048 = 8192 K over 1.010..3.000 s.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g1.log");
    std::fs::write(
        &p,
        "1.000: [GC pause (G1 Evacuation Pause) (young), 0.0100000 secs]\n\
         \x20  [Parallel Time: 9.0 ms, GC Workers: 4]\n\
         \x20  [Eden: 8192.0K(8192.0K)->0.0B(8192.0K) Survivors: 1024.0K->2048.0K Heap: 20480.0K(65536.0K)->14336.0K(65536.0K)]\n\
         3.000: [GC pause (G1 Evacuation Pause) (young), 0.0200000 secs]\n\
         \x20  [Parallel Time: 19.0 ms, GC Workers: 4]\n\
         \x20  [Eden: 8192.0K(8192.0K)->0.0B(8192.0K) Survivors: 2048.0K->2048.0K Heap: 24576.0K(65536.0K)->18432.0K(65536.0K)]\n",
    )
    .unwrap();
    let g = gc_json(&p, &[]);
    assert_eq!(g["promoted_kb"].as_i64(), Some(3072));
    assert_eq!(g["allocated_kb"].as_u64(), Some(8192));
    close(&g["promotion_rate_kb_per_s"], 3072.0 / 1.99);
}

#[test]
fn long_time_to_safepoint_is_a_finding_with_its_reach() {
    let dir = tempfile::tempdir().unwrap();
    // JDK 17 unified safepoint lines: line 2 reaches its safepoint in 150 ms (over 100),
    // line 3 in 50 ms, line 4 in exactly 100 ms (not over); the reach, not the 151 ms total,
    // is the evidence's time.
    let unified = dir.path().join("ttsp.log");
    std::fs::write(
        &unified,
        "[0.010s][info][gc] Using G1\n\
         [1.000s][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 990000000 ns, Reaching safepoint: 150000000 ns, At safepoint: 1000000 ns, Total: 151000000 ns\n\
         [2.000s][info][safepoint] Safepoint \"Cleanup\", Time since last: 849000000 ns, Reaching safepoint: 50000000 ns, At safepoint: 1000000 ns, Total: 51000000 ns\n\
         [3.000s][info][safepoint] Safepoint \"Cleanup\", Time since last: 949000000 ns, Reaching safepoint: 100000000 ns, At safepoint: 1000000 ns, Total: 101000000 ns\n",
    )
    .unwrap();
    let g = gc_json(&unified, &[]);
    assert_eq!(g["ttsp_max_ms"].as_f64(), Some(150.0));
    let long: Vec<_> = findings(&g)
        .into_iter()
        .filter(|x| x.0 == "long-ttsp")
        .collect();
    assert_eq!(long, vec![finding("long-ttsp", 1, 150.0, &[2])]);
    // JDK 8: `Stopping threads took: 0.2500000 seconds` on line 2 (250 ms).
    let jdk8 = dir.path().join("ttsp8.log");
    std::fs::write(
        &jdk8,
        "1.000: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0123450 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]\n\
         1.300: Total time for which application threads were stopped: 0.2630000 seconds, Stopping threads took: 0.2500000 seconds\n",
    )
    .unwrap();
    let g = gc_json(&jdk8, &[]);
    let long: Vec<_> = findings(&g)
        .into_iter()
        .filter(|x| x.0 == "long-ttsp")
        .collect();
    assert_eq!(long, vec![finding("long-ttsp", 1, 250.0, &[2])]);
    // The ZGC fixture's reaches are at most 2.5 ms: no finding.
    let g = gc_json(&fixture("unified/zgc-jdk17-stalls.log"), &[]);
    assert_eq!(g["ttsp_max_ms"].as_f64(), Some(2.5));
    assert!(findings(&g).iter().all(|x| x.0 != "long-ttsp"));
}

#[test]
fn a_log_without_the_figures_says_so_in_words() {
    // One ZGC collection: no stretch between two collections, no young-generation figures.
    let (code, text) = run(&[
        "gc",
        "-q",
        fixture("unified/zgc-jdk17-stalls.log").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(
        text.contains(
            "allocation: - (the log has no occupancy before and after two collections)\n"
        ),
        "{text}"
    );
    assert!(text.contains("promotion: - (no young collection with young-generation figures)\n"));
    // The Serial fixture has both: figures, no words.
    let (_, text) = run(&[
        "gc",
        "-q",
        fixture("hotspot/serial-diag.log").to_str().unwrap(),
    ]);
    assert!(
        text.contains("allocation: 25.5 MB in total, 3.2 MB/s mean;"),
        "{text}"
    );
    assert!(
        text.contains("promotion: 3.9 MB in total, 501 KB/s"),
        "{text}"
    );
}

/// Issue 35: a figure the log cannot give is null, never 0 or 100 or float noise.
#[test]
fn throughput_needs_pauses_and_time_outside_them() {
    // ZGC under `-Xlog:gc` prints its cycles, never its pauses: 2 collections, no pause, so
    // the time paused is unknown (it was "0 pauses, throughput 100 %").
    let (_d, p) = log_file(
        "[0.010s][info][gc] Using The Z Garbage Collector\n\
         [1.000s][info][gc] GC(0) Garbage Collection (Warmup) 100M(10%)->50M(5%)\n\
         [2.000s][info][gc] GC(1) Garbage Collection (Allocation Rate) 200M(20%)->60M(6%)\n",
    );
    let g = gc_json(&p, &[]);
    assert_eq!(
        (g["collections"].clone(), g["pauses"].clone()),
        (2.into(), 0.into())
    );
    assert!(g["throughput_pct"].is_null(), "{g}");
    // Nor is the time paused 0: unknown, in the summary and per cause (one cycle each).
    assert!(g["pause_total_ms"].is_null(), "{g}");
    for c in g["causes"].as_array().unwrap() {
        assert_eq!(c["count"], 1);
        for k in [
            "pause_total_ms",
            "collection_pause_mean_ms",
            "collection_pause_max_ms",
            "share_pct",
        ] {
            assert!(c[k].is_null(), "{k}: {c}");
        }
    }
    let (_, text) = run(&["gc", "-q", p.to_str().unwrap()]);
    assert!(
        text.contains(
            "2 collections, 0 pauses, \u{2013} paused in total, longest \u{2013}, throughput \u{2013}"
        ),
        "{text}"
    );
    // One pause: the span is the pause itself, 10 ms from 1.000 s (it was 0, or 5.7e-14 %
    // where the sum's rounding differed from the span's).
    let one = "1.000: [GC (Allocation Failure) 1.000: [DefNew: 8000K->1000K(9000K), 0.0100000 secs] 10000K->4000K(29000K), 0.0100000 secs]\n";
    let (_d, p) = log_file(one);
    let g = gc_json(&p, &[]);
    assert_eq!(g["pauses"], 1);
    close(&g["span_s"], 0.01);
    assert!(g["throughput_pct"].is_null(), "{g}");
    // Two pauses back to back (1.000 + 0.5 s, then 1.500 + 0.5 s): no time outside them.
    let (_d, p) = log_file(
        "1.000: [GC (Allocation Failure) 1.000: [DefNew: 8000K->1000K(9000K), 0.5000000 secs] 10000K->4000K(29000K), 0.5000000 secs]\n\
         1.500: [GC (Allocation Failure) 1.500: [DefNew: 8000K->1000K(9000K), 0.5000000 secs] 10000K->4000K(29000K), 0.5000000 secs]\n",
    );
    let g = gc_json(&p, &[]);
    assert!(g["throughput_pct"].is_null(), "{g}");
    // With a second between them: 1 s paused of 2.01 s.
    let (_d, p) = log_file(&format!(
        "{one}2.000: [GC (Allocation Failure) 2.000: [DefNew: 8000K->1000K(9000K), 1.0000000 secs] 10000K->4000K(29000K), 1.0000000 secs]\n"
    ));
    let g = gc_json(&p, &[]);
    close(&g["throughput_pct"], 100.0 * (2.0 - 1.01) / 2.0);
}

/// Issue 35: `collections` is one per `GC(n)` for every collector, ZGC's and Shenandoah's too
/// (a cycle's pauses and phases share its number).
#[test]
fn collections_are_one_per_gc_number() {
    // Generational ZGC (JDK 21): GC(0) a minor collection with 3 pauses, GC(1) a major one
    // with 5, GC(2) a minor one with 3: 3 collections, 11 pauses (it was 11 collections).
    let g = gc_json(&fixture("unified/zgc-jdk21.log"), &[]);
    assert_eq!(
        (g["collections"].clone(), g["pauses"].clone()),
        (3.into(), 11.into())
    );
    // The same cycles under `-Xlog:gc`: no pause line, the cycles still counted (it was 0).
    let (_d, p) = log_file(
        "[0.010s][info][gc] Using The Z Garbage Collector\n\
         [1.018s][info][gc] GC(0) Minor Collection (Allocation Rate) 208M(5%)->76M(2%) 0.018s\n\
         [3.038s][info][gc] GC(1) Major Collection (Proactive) 300M(7%)->110M(3%) 0.038s\n",
    );
    let g = gc_json(&p, &[]);
    assert_eq!(
        (g["collections"].clone(), g["pauses"].clone()),
        (2.into(), 0.into())
    );
    assert!(g["throughput_pct"].is_null());
    // Shenandoah: two cycles of four pauses each and their concurrent phases: 2 collections,
    // 8 pauses (it was 8 and 8).
    let cycle = |id: u32, t: u32| {
        format!(
            "[{t}.000s][info][gc,start] GC({id}) Pause Init Mark (unload classes)\n\
             [{t}.001s][info][gc] GC({id}) Pause Init Mark (unload classes) 0.500ms\n\
             [{t}.003s][info][gc] GC({id}) Concurrent marking roots 2.000ms\n\
             [{t}.010s][info][gc] GC({id}) Pause Final Mark (unload classes) 0.700ms\n\
             [{t}.020s][info][gc] GC({id}) Concurrent evacuation 5.000ms\n\
             [{t}.021s][info][gc] GC({id}) Pause Init Update Refs 0.050ms\n\
             [{t}.030s][info][gc] GC({id}) Concurrent update references 8.000ms\n\
             [{t}.031s][info][gc] GC({id}) Pause Final Update Refs 0.300ms\n"
        )
    };
    let (_d, p) = log_file(&format!(
        "[0.500s][info][gc] Using Shenandoah\n{}{}",
        cycle(0, 1),
        cycle(1, 2)
    ));
    let g = gc_json(&p, &[]);
    assert_eq!(
        (g["collections"].clone(), g["pauses"].clone()),
        (2.into(), 8.into())
    );
    close(&g["pause_total_ms"], 2.0 * (0.5 + 0.7 + 0.05 + 0.3));
    // HotSpot with -XX:+PrintGCID: the CMS cycle's initial mark and remark are both #1's, the
    // ParNews #0 and #2: 3 collections of 4 pauses (it was 4).
    let g = gc_json(&fixture("hotspot/cms-printgcid.log"), &[]);
    assert_eq!(
        (g["collections"].clone(), g["pauses"].clone()),
        (3.into(), 4.into())
    );
}

/// Issue 35: one name, one meaning. `pause_max_ms` is the longest single pause; the cause
/// table's per-collection figures, a JRockit collection's pauses summed, are named apart.
#[test]
fn the_cause_table_names_its_per_collection_figures_apart() {
    // r26-detgc.log (JRockit deterministic GC, a 30 ms target): 12 collections, each with
    // its pauses itemised (48). The longest single pause is line 82's 28.907310 ms; the
    // collection of 13.262-13.613 s (line 24) paused 79.226 ms in four pauses; the 12
    // collections' `sum of pauses` total 605.221 ms. No line names a cause: one row.
    let g = gc_json(&fixture("jrockit/r26-detgc.log"), &[]);
    assert_eq!(
        (g["collections"].clone(), g["pauses"].clone()),
        (12.into(), 48.into())
    );
    close(&g["pause_max_ms"], 28.90731);
    let rows = g["causes"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert!(rows[0]["cause"].is_null() && rows[0].get("pause_max_ms").is_none());
    assert_eq!(rows[0]["count"], 12);
    close(&rows[0]["pause_total_ms"], 605.221);
    close(&rows[0]["collection_pause_max_ms"], 79.226);
    close(&rows[0]["collection_pause_mean_ms"], 605.221 / 12.0);
}

/// A generated log big enough that its figures come from several blocks of the file (2 MiB
/// each) and are worked out here: 300,000 collections 1 s apart (line k at uptime k s), 10 ms
/// each; a burst of 600 ms pauses on lines 262,101-262,200; four explicit full GCs of 100 ms.
/// The pairs, causes, evidence lines and per-interval overhead must not depend on where the
/// rows were cut (blocks here; row chunks, should the passes be split).
#[test]
fn a_big_generated_log_gives_the_figures_worked_out_by_hand() {
    const N: u64 = 300_000;
    let explicit = [262_001, 262_051, 262_301, 300_000];
    let mut text = String::with_capacity(60 * N as usize);
    for line in 1..=N {
        let secs = if (262_101..=262_200).contains(&line) {
            "0.6000000"
        } else {
            "0.0100000"
        };
        text += &if explicit.contains(&line) {
            format!(
                "{line}.000: [Full GC (System.gc()) 150000K->50000K(500000K), 0.1000000 secs]\n"
            )
        } else {
            format!("{line}.000: [GC 150000K->50000K(500000K), {secs} secs]\n")
        };
    }
    let (_d, p) = log_file(&text);
    let (code, out) = run(&[
        "gc",
        "-q",
        "--interval",
        "10s",
        "--format",
        "json",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let g = &v[0]["gc"];
    assert_eq!(g["collections"].as_u64(), Some(N));
    // Every collection paired with the one before: 100,000 K each, over the first one's end
    // (1.010 s) to the last one's start (300,000 s).
    let allocated = (N - 1) * 100_000;
    assert_eq!(g["allocated_kb"].as_u64(), Some(allocated));
    close(
        &g["alloc_rate_kb_per_s"],
        allocated as f64 / (300_000.0 - 1.01),
    );
    // 299,896 pauses of 10 ms, 100 of 600 ms, four of 100 ms.
    assert_eq!(
        causes(g),
        vec![
            row("-", N - 4, 299_896.0 * 10.0 + 100.0 * 600.0, 600.0),
            row("System.gc()", 4, 400.0, 100.0)
        ]
    );
    let by_id = |id: &str| {
        findings(g)
            .into_iter()
            .find(|x| x.0 == id)
            .unwrap_or_else(|| panic!("no {id} in {g}"))
    };
    assert_eq!(
        by_id("explicit-gc"),
        finding("explicit-gc", 4, 400.0, &explicit)
    );
    // Over 5 % of a 10 s interval: [262100, 262110) holds line 262,100's 10 ms and nine of
    // 600 ms (5.41 s); the nine after, ten of 600 ms each (54 s); [262200, 262210), one of
    // 600 ms and nine of 10 ms (0.69 s). Each interval's first pause line.
    let (id, count, total, lines) = by_id("gc-overhead");
    assert_eq!((id.as_str(), count), ("gc-overhead", 11));
    assert!((total - 60_100.0).abs() < 1e-6, "{total}");
    assert_eq!(lines, vec![262_100, 262_110, 262_120, 262_130, 262_140]);
}

#[test]
fn many_causes_each_get_their_own_row() {
    // 600 young collections, 1 s apart: collection i has cause `Cause {i % 300}` and a pause of
    // 1 + (i % 300) / 1000 ms (written with 7 decimals, exact in ms to the microsecond). Each
    // of the 300 causes has two collections of the same pause: count 2, total twice it, max
    // it; the rows run from the longest (`Cause 299`, 1.299 ms) down to `Cause 0` (1 ms).
    let mut text = String::new();
    for i in 0..600u32 {
        let k = i % 300;
        let secs = (1000 + k) as f64 / 1e6;
        text.push_str(&format!(
            "{}.000: [GC (Cause {k}) [PSYoungGen: 1000K->100K(2000K)] 3000K->2000K(8000K), \
             {secs:.7} secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n",
            i + 1
        ));
    }
    let (_d, p) = log_file(&text);
    let got = causes(&gc_json(&p, &[]));
    assert_eq!(got.len(), 300);
    for (r, (cause, n, total, max)) in got.iter().enumerate() {
        let k = 299 - r;
        let ms = (1000 + k) as f64 / 1000.0;
        assert_eq!((cause.as_str(), *n), (format!("Cause {k}").as_str(), 2));
        assert!((total - 2.0 * ms).abs() < 1e-9, "{cause}: {total}");
        assert!((max - ms).abs() < 1e-9, "{cause}: {max}");
    }
}
