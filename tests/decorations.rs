//! Unified logs written with other decorations than `[time][uptime][level][tags]` (issue 35):
//! `fixtures/unified-decorations/` holds `unified/g1-jdk17.log` with each line re-decorated
//! (its message unchanged), so each must give the original's figures.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("gcperf")
        .expect("binary")
        .args(args)
        .output()
        .expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `summary --format json`'s object for one file.
fn summary(p: &Path) -> Value {
    let (code, out, err) = run(&["summary", "-q", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{}: {err}", p.display());
    let v: Value = serde_json::from_str(&out).unwrap();
    v[0].clone()
}

/// `gc --events --all-records` rows without the file and the clock columns (`start_s`,
/// `wall_time`: which clock a line has is what differs between the decorations).
fn records(p: &Path) -> Vec<String> {
    let (code, out, err) = run(&[
        "gc",
        "-q",
        "--events",
        "--all-records",
        "--format",
        "csv",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            let mut kept = vec![cells[1]];
            kept.extend(&cells[4..]);
            kept.join(",")
        })
        .collect()
}

/// The decoration sets: (file suffix, whether the line has an uptime).
const SETS: [(&str, bool); 7] = [
    ("uptime", true),
    ("time", false),
    ("uptimemillis", true),
    ("uptimenanos", true),
    ("timemillis", false),
    ("time-uptime-level", true),
    ("hostname-pid-tid", true),
];

#[test]
fn every_decoration_set_gives_the_original_figures() {
    let original = summary(&fixture("unified/g1-jdk17.log"));
    let g = &original["gc"];
    // The original by hand: pauses of 4.25, 5.5, 6, 2 (remark), 0.5 (cleanup), 7, 8, 25
    // (full), 3 ms; GC(0) to GC(7), the remark and cleanup both GC(3)'s: 8 collections; ten
    // `Safepoint "..."` lines; its first record at 0.4995 s (a safepoint of 4.5 ms logged at
    // 0.504 s) and its last ending at 3.503 s (3.5 s + 3.25 ms).
    assert_eq!(g["pauses"], 9);
    assert!((g["pause_total_ms"].as_f64().unwrap() - 61.25).abs() < 1e-9);
    assert_eq!(g["pause_max_ms"].as_f64(), Some(25.0));
    assert_eq!(g["collections"], 8);
    assert_eq!(g["safepoint_pauses"], 10);
    assert!((g["span_s"].as_f64().unwrap() - 3.0035).abs() < 1e-9);
    assert_eq!(original["lines"], 165);
    let want_records = records(&fixture("unified/g1-jdk17.log"));
    assert_eq!(want_records.len(), 1 + 27);
    for (set, uptime) in SETS {
        let p = fixture(&format!("unified-decorations/g1-jdk17-{set}.log"));
        let s = summary(&p);
        assert_eq!(s["format"], "unified", "{set}");
        assert_eq!(
            (s["lines"].clone(), s["skipped_lines"].clone()),
            (original["lines"].clone(), original["skipped_lines"].clone()),
            "{set}"
        );
        let got = s["gc"].as_object().unwrap();
        for (k, v) in g.as_object().unwrap() {
            let (a, b) = (v.as_f64(), got.get(k).and_then(Value::as_f64));
            if uptime {
                assert_eq!(got.get(k), Some(v), "{set}: {k}");
            } else if matches!(
                k.as_str(),
                "alloc_rate_p50_kb_per_s" | "alloc_rate_p95_kb_per_s" | "alloc_rate_max_kb_per_s"
            ) {
                // Per-interval rates: without an uptime the JVM's start is unknown, and the
                // intervals count from the first record (0.4995 s of uptime in the original),
                // so they hold other stretches of the same log.
                assert!(a.is_some() && b.is_some(), "{set}: {k}");
            } else if matches!(
                k.as_str(),
                "span_s" | "throughput_pct" | "alloc_rate_kb_per_s"
            ) {
                // Wall-clock decorations are whole milliseconds: a start worked back from a
                // line's time and a sub-millisecond duration (the 4.5 ms safepoint logged at
                // .504) is rounded to one, so the span (3.00425 s against 3.0035) and what is
                // divided by it agree within a millisecond of the span.
                let (a, b) = (a.unwrap(), b.unwrap());
                assert!((a - b).abs() <= a.abs() * 0.001 / 3.0, "{set}: {k} {a} {b}");
            } else if k == "findings" {
                // gc-overhead is judged per interval (above): the others are the same.
                let per_log = |f: &Value| -> Vec<Value> {
                    let all = f.as_array().cloned().unwrap_or_default();
                    all.into_iter()
                        .filter(|x| x["id"] != "gc-overhead")
                        .collect()
                };
                assert_eq!(per_log(v), per_log(&got[k]), "{set}");
                assert_eq!(per_log(v).len(), 3, "{set}");
            } else {
                assert_eq!(got.get(k), Some(v), "{set}: {k}");
            }
        }
        // Record for record: kind, duration, collector, cause, name, heap, GC id, line.
        assert_eq!(records(&p), want_records, "{set}");
    }
}

/// Two held-out JDK 11 logs (eclipse/jifa's test data): `-Xlog:gc:...:uptime` (no tags, no
/// level) and `time,uptime,level` (no tags), read as nothing before issue 35.
#[test]
fn jifa_logs_without_tags_are_read() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    let dir = corpus.join("gc/unified-decorations");
    // `[0.691s] GC(0) Pause Young ...`: 60.851 + 110.104 + 54.967 + 1.307 + 0.293 + 0.885 +
    // 0.811 + 0.826 + 1.262 = 231.306 ms in 9 pauses; the remark and cleanup are GC(3)'s.
    let g = &summary(&dir.join("jifa-11G1PrintGC.log"))["gc"];
    assert_eq!(
        (g["pauses"].clone(), g["collections"].clone()),
        (9.into(), 8.into())
    );
    assert!((g["pause_total_ms"].as_f64().unwrap() - 231.306).abs() < 1e-9);
    assert_eq!(g["pause_max_ms"].as_f64(), Some(110.104));
    // `[2023-...+0800][2.112s][info] GC(2) Pause Initial Mark ...`: 3.410 + 974.417 + 75.082
    // + 390.715 = 1443.624 ms in 4 pauses (GC(2)'s initial mark and remark, GC(3), GC(4)).
    let g = &summary(&dir.join("jifa-11CMSUpTime.log"))["gc"];
    assert_eq!(
        (g["pauses"].clone(), g["collections"].clone()),
        (4.into(), 3.into())
    );
    assert!((g["pause_total_ms"].as_f64().unwrap() - 1443.624).abs() < 1e-9);
    assert_eq!(g["pause_max_ms"].as_f64(), Some(974.417));
}

/// A line without tags is a GC record by its text: `GC(n) ...` lines and safepoint stops make
/// a log unified, other decorated lines (application output) do not.
#[test]
fn untagged_lines_are_detected_by_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("app.log");
    std::fs::write(
        &p,
        "[0.100s] starting\n[0.200s] listening on 8080\n[0.300s] ready\n[0.400s] request 1\n",
    )
    .unwrap();
    let (code, _, err) = run(&["summary", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let g = dir.path().join("gc.log");
    std::fs::write(
        &g,
        "[0.100s] Using G1\n\
         [0.500s] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 6.363 ms\n\
         [1.500s] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 28M->6M(256M) 3.637ms\n\
         [2.500s] Total time for which application threads were stopped: 0.0001000 seconds, Stopping threads took: 0.0000200 seconds\n",
    )
    .unwrap();
    // Two pauses (the first with a blank before its unit), 10 ms; from 0.493637 s (0.5 s less
    // 6.363 ms) to the safepoint's end at 2.5 s.
    let s = summary(&g);
    assert_eq!(s["format"], "unified");
    assert_eq!(s["skipped_lines"], 0);
    let g = &s["gc"];
    assert_eq!(
        (g["pauses"].clone(), g["safepoint_pauses"].clone()),
        (2.into(), 1.into())
    );
    assert!((g["pause_total_ms"].as_f64().unwrap() - 10.0).abs() < 1e-9);
    assert!((g["span_s"].as_f64().unwrap() - (2.5 - 0.493637)).abs() < 1e-9);
}
