//! gcperf against GCViewer 1.36 on the real logs in `../shared/corpus/` (test data owned by the
//! GCViewer project; read in place, never copied here).
//!
//! The contract: for at least 95% of the files GCViewer could read, our collection or pause
//! count equals GCViewer's `gc_pauses` and our pause total is within 1% of its
//! `gc_pause_total_s`. Each remaining difference is listed in `DISAGREEMENTS` with the reason
//! and which tool is right; the test checks that those files still give the figures we
//! worked out by hand, so an explanation can't go stale silently.

use gcperf::analyze::gc::summary;
use gcperf::load::load;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.join("gcviewer-reference.csv").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "corpus missing at {}: CI must have ../shared/corpus",
            dir.display()
        );
    }
    eprintln!("skipping: no corpus at {}", dir.display());
    None
}

#[derive(Debug, Clone, Default)]
struct Ref {
    gc_pauses: Option<u64>,
    gc_pause_total_s: Option<f64>,
}

/// `gcviewer-reference.csv`: file names may be quoted (they contain commas).
fn references(dir: &Path) -> HashMap<String, Ref> {
    let text = std::fs::read_to_string(dir.join("gcviewer-reference.csv")).expect("reference csv");
    let mut out = HashMap::new();
    for line in text.lines().skip(1) {
        let mut fields = Vec::new();
        let mut cur = String::new();
        let mut quoted = false;
        for ch in line.chars() {
            match ch {
                '"' => quoted = !quoted,
                ',' if !quoted => fields.push(std::mem::take(&mut cur)),
                c => cur.push(c),
            }
        }
        fields.push(cur);
        if fields.len() < 3 {
            continue;
        }
        out.insert(
            fields[0].clone(),
            Ref {
                gc_pauses: fields[1].parse().ok(),
                gc_pause_total_s: fields[2].parse().ok(),
            },
        );
    }
    out
}

/// Files where we differ from GCViewer on purpose: (file, our collections or pauses, our pause
/// total in ms, why).
const DISAGREEMENTS: &[(&str, u64, f64, &str)] = &[];

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for fam in ["jrockit", "hotspot", "unified"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("gc").join(fam))
            .expect("corpus family dir")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        v.extend(files);
    }
    v
}

#[test]
fn agrees_with_gcviewer_on_the_corpus() {
    let Some(dir) = corpus_dir() else { return };
    let refs = references(&dir);
    let mut readable = 0;
    let mut agree = 0;
    let mut unreadable_by_gcviewer = 0;
    let mut we_read_those = 0;
    let mut report = Vec::new();
    for path in corpus_files(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(r) = refs.get(&name) else { continue };
        let ours = load(&path).ok().and_then(|l| summary(&l.frame).ok());
        let (Some(n), Some(total_s)) = (r.gc_pauses, r.gc_pause_total_s) else {
            unreadable_by_gcviewer += 1;
            if ours.as_ref().is_some_and(|s| s.pauses > 0) {
                we_read_those += 1;
            }
            continue;
        };
        readable += 1;
        let Some(s) = ours else {
            report.push(format!(
                "{name}: gcperf read nothing (GCViewer: {n} pauses)"
            ));
            continue;
        };
        let count_ok = s.collections == n || s.pauses == n;
        // Compare the same thing GCViewer sums: per collection (JRockit sums of pauses equal
        // the sum of the individual pauses).
        let total_ok =
            (s.pause_total_ms / 1000.0 - total_s).abs() <= 0.01 * total_s.abs().max(1e-6);
        if count_ok && total_ok {
            agree += 1;
            assert!(
                !DISAGREEMENTS.iter().any(|d| d.0 == name),
                "{name} agrees now: drop it from DISAGREEMENTS"
            );
        } else if let Some(d) = DISAGREEMENTS.iter().find(|d| d.0 == name) {
            assert!(
                (s.collections == d.1 || s.pauses == d.1) && (s.pause_total_ms - d.2).abs() < 1e-6 * d.2.max(1.0),
                "{name}: expected our figures {} / {} ms ({}), got collections {} pauses {} total {} ms",
                d.1, d.2, d.3, s.collections, s.pauses, s.pause_total_ms
            );
        } else {
            report.push(format!(
                "{name}: GCViewer {n} pauses {total_s} s; gcperf collections {} pauses {} total {} s",
                s.collections,
                s.pauses,
                s.pause_total_ms / 1000.0
            ));
        }
    }
    eprintln!(
        "corpus: {agree}/{readable} files agree with GCViewer; GCViewer could not read {unreadable_by_gcviewer}, gcperf reads {we_read_those} of them"
    );
    assert!(
        report.is_empty(),
        "unexplained differences:\n{}",
        report.join("\n")
    );
    assert!(
        agree as f64 >= 0.95 * readable as f64,
        "only {agree}/{readable} agree"
    );
}

#[test]
fn gzip_corpus_file_reads_like_the_plain_one() {
    let Some(dir) = corpus_dir() else { return };
    let plain = dir.join("gc/hotspot/SampleSun1_6_0PrintHeapAtGC.txt");
    let gz = dir.join("gc/hotspot/SampleSun1_6_0PrintHeapAtGC.txt.gz");
    let a = summary(&load(&plain).unwrap().frame).unwrap();
    let b = summary(&load(&gz).unwrap().frame).unwrap();
    assert_eq!(a, b);
    assert!(a.pauses > 0);
}
