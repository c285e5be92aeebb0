//! gcperf against GCViewer 1.36 on the real logs in `../shared/corpus/` (test data owned by the
//! GCViewer project; read in place, never copied here).
//!
//! The contract: for at least 95% of the files GCViewer could read, our collection or pause
//! count equals GCViewer's `gc_pauses` and our pause total is within 1% of its
//! `gc_pause_total_s`. Each remaining difference is listed in `DISAGREEMENTS` with the reason
//! and which tool is right; the test checks that those files still give the figures we
//! worked out by hand, so an explanation can't go stale silently.

use gcperf::analyze::gc::summary;
use std::collections::HashMap;
mod common;

use common::{corpus_dir, load};
use std::path::{Path, PathBuf};

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
///
/// Issue 15 (nesting decided by the stamps, not print order) changed no figure here: every
/// event printed inside an open one in these logs ran inside it by its stamps (the CMS
/// scavenges before remark; the unified young-into-full GCs), and none is a remark printed
/// after its young collection ended. That case (a ParNew read as 1673.055 ms instead of its
/// 1821.497) is in no corpus file; `fixtures/hotspot/cms-remark-printed-inside-open-parnew.log`
/// holds its shape.
const DISAGREEMENTS: &[(&str, u64, f64, &str)] = &[
    (
        "SampleSun1_6_0G1_partial_toSpaceOverflow.txt",
        1,
        2.71976,
        "gcperf is right. The file holds one pause, `4.010: [GC pause (partial) (to-space overflow), \
         0.00271976 secs]`, and its detail block. GCViewer does not recognise the partial \
         to-space-overflow event and instead takes the block's two `[Other: 0.1 ms]` and \
         `[Other: 1.7 ms]` lines for pauses: 2 pauses, 1.8 ms, max 1.7 ms, throughput -5.88 %.",
    ),
    (
        "SampleSun1_6_0G1_partial_initialMarkToSpaceOverflow.txt",
        1,
        5.88343,
        "gcperf is right. One pause, `84.653: [GC pause (partial) (to-space overflow) \
         (initial-mark), 0.00588343 secs]`; GCViewer counts the detail lines `[Other: 0.1 ms]` and \
         `[Other: 3.4 ms]` instead (2 pauses, 3.5 ms, throughput -2.94 %).",
    ),
    (
        "SampleJRockit1_6_verbose_gc_mode_gencon.txt",
        15,
        734.808,
        "gcperf is right. The R28 `[memory ]` lines say `sum of pauses X ms, longest pause Y ms`; \
         GCViewer's JRockit 1.6 reader takes the number after `longest pause` as the collection's \
         pause, so a collection with two pauses counts one (OC#1: OC:Initial 87.771 + OC:Main \
         8.750 = 96.521 ms, GCViewer 87.771 ms). Its 638.548 ms is exactly the sum of the longest \
         pauses; our 734.808 ms is the sum of the 44 itemised `[pau]` pauses (= the sums of pauses).",
    ),
    (
        "SampleJRockit1_5_20_memstats2.txt",
        12,
        5440.163,
        "gcperf is right. The log is cut after the `[gcpause] [YC#12]` lines, before YC#12's \
         `[memory ]` line. GCViewer ignores gcpause lines and so loses YC#12; its `[pau]` line \
         shows a 108.262 ms stop that happened, which we keep. The other 11 collections agree to \
         the microsecond.",
    ),
    (
        "sample-ujl-serial-gc-defaults.txt",
        8,
        66.124,
        "gcperf is right. When a young collection fails over into a full one, unified logging \
         writes `GC(3) Pause Full ... 7.097ms` and then `GC(2) Pause Young ... 7.236ms`: the \
         young pause's time includes the nested full GC's. It is one stop (7.236 ms), which \
         GCViewer counts as two pauses and sums to 14.333 ms. The difference, 17.814 ms over 3 \
         such pairs, is exactly the nested full GCs' time.",
    ),
    (
        "sample-ujl-serial-gc-all,safepoint,os+cpu.txt",
        3,
        27.858,
        "gcperf is right: one young collection failing over into a full one (GC(2) containing \
         GC(3)) is one stop; the safepoint line that follows says 7.307 ms stopped in total, yet \
         GCViewer counts two pauses summing to 14.105 ms (6.987 ms counted twice).",
    ),
    (
        "sample-ujl-cms-gc-all,safepoint,os+cpu.txt",
        10,
        62.454,
        "gcperf is right: as in the Serial logs, two ParNew collections failed over into full \
         collections nested inside them; GCViewer counts the nested full GCs (9.509 + 15.029 ms) \
         a second time.",
    ),
    (
        "sample-ujl-g1-gc-defaults.txt",
        10,
        38.15,
        "gcperf is right; the totals agree (38.150 ms). With `-Xlog:gc` only, G1 writes \
         `GC(11) To-space exhausted` before the pause line; GCViewer takes each of the three such \
         lines for a pause of 0 s (13 pauses). They are a note about the pause that follows.",
    ),
];

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
        // Null without pauses (ZGC under `-Xlog:gc` has collections but no pause lines):
        // GCViewer sums those as 0.
        let total_ms = s.pause_total_ms.unwrap_or(0.0);
        // Compare the same thing GCViewer sums: per collection (JRockit sums of pauses equal
        // the sum of the individual pauses).
        let total_ok = (total_ms / 1000.0 - total_s).abs() <= 0.01 * total_s.abs().max(1e-6);
        if count_ok && total_ok {
            agree += 1;
            assert!(
                !DISAGREEMENTS.iter().any(|d| d.0 == name),
                "{name} agrees now: drop it from DISAGREEMENTS"
            );
        } else if let Some(d) = DISAGREEMENTS.iter().find(|d| d.0 == name) {
            assert!(
                (s.collections == d.1 || s.pauses == d.1) && (total_ms - d.2).abs() < 1e-6 * d.2.max(1.0),
                "{name}: expected our figures {} / {} ms ({}), got collections {} pauses {} total {} ms",
                d.1, d.2, d.3, s.collections, s.pauses, total_ms
            );
        } else {
            report.push(format!(
                "{name}: GCViewer {n} pauses {total_s} s; gcperf collections {} pauses {} total {} s",
                s.collections,
                s.pauses,
                total_ms / 1000.0
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
    // Every file GCViewer reads either agrees or is a listed GCViewer error; the agreement
    // itself must not fall (102 of 110 when the list above was written).
    assert!(agree >= 102, "only {agree}/{readable} agree");
    assert!(
        we_read_those >= 3,
        "gcperf reads fewer of GCViewer's unreadable files"
    );
}

/// GCViewer's IBM JDK 1.4.2 sample: one full-heap pause per `<AF[n]>` or `<CON[n]>` block,
/// its time the block's `completed in N ms`. By hand (`grep -o "completed in [0-9]* ms" |
/// awk`): 2,841 blocks (2,584 AF, 257 CON), 1,447,368 ms in all, the longest 128,368 ms; the
/// CON blocks 39,360 ms. GCViewer's own test of this file is disabled there and expects 2,884
/// events; no line of the file outside the 2,841 blocks is a stop (the others are `<GC[0]>`
/// system-heap notes and 8 `<  Stop-the-allocations ...>` notes inside concurrent marks).
#[test]
fn ibm_1_4_2_sample_pauses_are_its_completed_blocks() {
    let Some(dir) = corpus_dir() else { return };
    let l = load(&dir.join("gc/openj9/SampleIBM1_4_2.txt")).unwrap();
    assert_eq!(l.format.as_str(), "ibm-text");
    let s = summary(&l.frame).unwrap();
    assert_eq!(s.pauses, 2841);
    assert!(
        s.pause_total_ms
            .is_some_and(|t| (t - 1_447_368.0).abs() < 1e-6),
        "{:?}",
        s.pause_total_ms
    );
    assert_eq!(s.pause_max_ms, Some(128_368.0));
    assert_eq!(l.log.skipped_lines, 0);
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

#[test]
fn rotated_parts_joined_equal_the_manually_merged_log() {
    let Some(dir) = corpus_dir() else { return };
    let hs = dir.join("gc/hotspot");
    // Given out of order, with the two header-only parts of the set among them.
    let parts: Vec<PathBuf> = [7, 3, 1, 6, 2, 5, 4]
        .iter()
        .map(|i| hs.join(format!("SampleSun1_8_0Series-Part{i}.txt")))
        .chain([hs.join("SampleSun1_8_0RollingLogfile.txt")])
        .collect();
    let (joined, errors) = gcperf::load::load_joined(&parts);
    // Part7 and RollingLogfile hold only the rotation headers.
    assert_eq!(errors.len(), 2);
    let joined = joined.expect("joined");
    let joined = joined.gc().expect("a GC log");
    let merged = load(&hs.join("SampleSun1_8_0Series-ManuallyMerged.txt")).unwrap();
    let (a, b) = (
        summary(&joined.frame).unwrap(),
        summary(&merged.frame).unwrap(),
    );
    assert_eq!(a, b);
    // GCViewer on the merged file: 536 pauses, 2.656598 s. Three of its pauses are the
    // young collections CMS ran inside its remarks (`-XX:+CMSScavengeBeforeRemark`: `[GC (CMS
    // Final Remark) [YG occupancy: ...][GC (CMS Final Remark) [ParNew: ...]`): one stop each
    // with its remark, so 533 pauses (issue 35), and as GCViewer's total is the remarks'
    // less those collections plus them, the same 2.656598 s.
    assert_eq!(a.pauses, 533);
    assert_eq!(a.collections, 536);
    assert!((a.pause_total_ms.unwrap() - 2656.598).abs() < 0.001);
}

/// Taurus's tab-delimited JTL: a header split by tabs, four samples, all successes. By hand:
/// elapsed 1008, 268, 296, 253 ms (mean 456.25); the last ends at 1488473416509 + 253 ms.
#[test]
fn tab_delimited_jtl_is_read_by_its_header() {
    let Some(dir) = corpus_dir() else { return };
    let Ok(gcperf::load::Input::Perf(l)) =
        gcperf::load::load_any(&dir.join("perf/jmeter-csv/taurus-tabs.jtl"))
    else {
        panic!("not a performance log");
    };
    assert_eq!(l.format.as_str(), "jmeter-jtl");
    assert_eq!((l.log.lines, l.log.skipped_lines), (5, 0));
    let df = &l.frame.df;
    let total = df.column(gcperf::frame::perf::TOTAL_MS).unwrap();
    let total: Vec<f64> = total.f64().unwrap().into_no_null_iter().collect();
    assert_eq!(total, [1008.0, 268.0, 296.0, 253.0]);
    let end = df.column(gcperf::frame::perf::END_MS).unwrap();
    assert_eq!(end.i64().unwrap().get(3), Some(1_488_473_416_762));
    let ok = df.column(gcperf::frame::perf::OK).unwrap();
    assert!(ok.bool().unwrap().iter().all(|b| b == Some(true)));
}

/// Gatling's text logs of 2.3, 3.4 and 3.5: every `REQUEST` line a request, its time the end
/// stamp minus the start. The figures are awk's over the files (`$1=="REQUEST"`: count, and
/// the mean of the stamp before the status minus the one before that). The 3.12 binary log is
/// refused by name.
#[test]
fn gatling_text_logs_are_their_request_lines() {
    let Some(dir) = corpus_dir() else { return };
    for (name, requests, mean) in [
        ("nuxeo-simulation-v2.3.log", 1000, 50.788),
        ("nuxeo-simulation-small-v3.4.log", 31, 6460.0 / 31.0),
        ("taurus-gatling-3-000-simulation.log", 243, 15923.0 / 243.0),
    ] {
        let Ok(gcperf::load::Input::Perf(l)) =
            gcperf::load::load_any(&dir.join("perf/gatling").join(name))
        else {
            panic!("{name}: not a performance log");
        };
        assert_eq!(l.format.as_str(), "gatling", "{name}");
        assert_eq!(l.log.skipped_lines, 0, "{name}");
        let total = l.frame.df.column(gcperf::frame::perf::TOTAL_MS).unwrap();
        let total = total.f64().unwrap();
        assert_eq!(total.len(), requests, "{name}");
        let got = total.into_no_null_iter().sum::<f64>() / requests as f64;
        assert!((got - mean).abs() < 1e-9, "{name}: {got} != {mean}");
    }
    let binary = dir.join("perf/gatling/gatling-3.12-binary-simulation.log");
    let err = gcperf::load::load_any(&binary).err().expect("refused");
    assert!(
        err.to_string().contains("binary Gatling simulation.log"),
        "{err}"
    );
}

/// KirillY's k6 `--out json`: its 61 `http_req_duration` points are the requests (Python's
/// `json` over the file: 61 points, values summing to 594,906.598 ms, all `expected_response`
/// true with status 200); the other 788 lines are the format's own.
#[test]
fn k6_json_requests_are_its_duration_points() {
    let Some(dir) = corpus_dir() else { return };
    let Ok(gcperf::load::Input::Perf(l)) =
        gcperf::load::load_any(&dir.join("perf/k6/KirillY-k6-results.json"))
    else {
        panic!("not a performance log");
    };
    assert_eq!(l.format.as_str(), "k6-json");
    assert_eq!((l.log.lines, l.log.skipped_lines), (849, 0));
    let total = l.frame.df.column(gcperf::frame::perf::TOTAL_MS).unwrap();
    let total = total.f64().unwrap();
    assert_eq!(total.len(), 61);
    let sum: f64 = total.into_no_null_iter().sum();
    assert!((sum - 594_906.598_319).abs() < 1e-3, "{sum}");
    let ok = l.frame.df.column(gcperf::frame::perf::OK).unwrap();
    assert!(ok.bool().unwrap().iter().all(|b| b == Some(true)));
}

/// Taurus's k6 `--out csv`: 4 `http_req_duration` rows (awk: mean 120.905972 ms), two of them
/// failed DNS lookups (`expected_response` false, status 0, error `lookup: no such host`).
#[test]
fn k6_csv_requests_are_its_duration_rows() {
    let Some(dir) = corpus_dir() else { return };
    let Ok(gcperf::load::Input::Perf(l)) =
        gcperf::load::load_any(&dir.join("perf/k6/taurus-k6_kpi.csv"))
    else {
        panic!("not a performance log");
    };
    assert_eq!(l.format.as_str(), "k6-csv");
    assert_eq!((l.log.lines, l.log.skipped_lines), (61, 0));
    let total = l.frame.df.column(gcperf::frame::perf::TOTAL_MS).unwrap();
    let total: Vec<f64> = total.f64().unwrap().into_no_null_iter().collect();
    assert_eq!(total, [245.591442, 238.032448, 0.0, 0.0]);
    let ok = l.frame.df.column(gcperf::frame::perf::OK).unwrap();
    let ok: Vec<Option<bool>> = ok.bool().unwrap().iter().collect();
    assert_eq!(ok, [Some(true), Some(true), Some(false), Some(false)]);
}

/// Pauses of a J9 / OpenJ9 XML log by a plain scan of its text: R26 on, one per
/// `<exclusive-end` and its `durationms`; J9 5.0, one per `<af `, `<sys ` or `<con
/// event="collection"` element and its own `<time totalms=` (the one indented two spaces).
fn j9_scan(text: &str) -> (u64, f64, f64) {
    let attr = |line: &str, name: &str| -> f64 {
        let k = format!("{name}=\"");
        let i = line.find(&k).expect("attribute") + k.len();
        let j = line[i..].find('"').expect("quote") + i;
        line[i..j].parse().expect("figure")
    };
    let (mut n, mut total, mut max) = (0u64, 0f64, 0f64);
    for line in text.lines() {
        let d = if line.starts_with("<exclusive-end") {
            attr(line, "durationms")
        } else if line.starts_with("  <time totalms=") {
            attr(line, "totalms")
        } else {
            continue;
        };
        n += 1;
        total += d;
        max = max.max(d);
    }
    let heads = text
        .lines()
        .filter(|l| {
            l.starts_with("<af ")
                || l.starts_with("<sys ")
                || l.starts_with("<con event=\"collection\"")
        })
        .count() as u64;
    let exclusive = text
        .lines()
        .filter(|l| l.starts_with("<exclusive-end"))
        .count() as u64;
    assert_eq!(n, heads + exclusive, "every J9 5.0 stop has its time");
    (n, total, max)
}

/// Every J9 / OpenJ9 XML log of the corpus reads as `j9-xml`, its pauses those a plain scan
/// of its text finds; the IBM 1.4.2 text log beside them stays `ibm-text`.
#[test]
fn j9_xml_corpus_pauses_are_its_stops() {
    let Some(dir) = corpus_dir() else { return };
    let dir = dir.join("gc/openj9");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("openj9 corpus folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut n = 0;
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let l = load(&p).unwrap();
        if name == "SampleIBM1_4_2.txt" {
            assert_eq!(l.format.as_str(), "ibm-text");
            continue;
        }
        assert_eq!(l.format.as_str(), "j9-xml", "{name}");
        let text = std::fs::read_to_string(&p).unwrap();
        let (pauses, total, max) = j9_scan(&text);
        let s = summary(&l.frame).unwrap();
        assert_eq!(s.pauses, pauses, "{name}");
        let t = s.pause_total_ms.unwrap();
        assert!((t - total).abs() < 1e-6, "{name}: {t} vs {total}");
        assert_eq!(s.pause_max_ms, Some(max), "{name}");
        n += 1;
    }
    assert_eq!(n, 6);
}

fn j9_events(name: &str) -> Option<gcperf::model::GcLog> {
    let dir = corpus_dir()?;
    let buf = std::fs::read(dir.join("gc/openj9").join(name)).unwrap();
    Some(gcperf::parse::parse_one(
        gcperf::parse::j9_xml::FAMILY,
        &buf,
    ))
}

/// GCViewer's figures for its J9 samples (its `TestDataReaderIBMJ9_5_0`,
/// `TestDataReaderIBM_J9_R26`, `TestDataReaderIBM_J9_R28`), and where gcperf differs, why.
#[test]
fn j9_xml_corpus_agrees_with_gcviewer() {
    use gcperf::model::{Kind, Record};
    let Some(l) = j9_events("SampleIBMJ9_5_0af-global-200811_07.txt") else {
        return;
    };
    // GCViewer: one full GC of 0.035912 s; before (52428800 − 2621440) / 1024 = 48640 KB,
    // total 51200 KB; after (52428800 − 40481192) / 1024 = 11667.6, which GCViewer cuts to
    // 11667 where gcperf rounds to the nearest, 11668. Both take the `<af>`'s own `<tenured>`
    // after the `<gc>` (40481192 free), not the `<gc>`'s (40481224).
    assert_eq!(l.events.len(), 1);
    let e = &l.events[0];
    assert_eq!(
        (e.record, e.kind, e.duration_ms),
        (Record::Pause, Kind::Full, 35.912)
    );
    assert_eq!(
        (e.heap_before_kb, e.heap_after_kb, e.heap_total_kb),
        (Some(48640), Some(11668), Some(51200))
    );
    assert_eq!(l.skipped_lines, 0);

    // GCViewer: one event of 0.00529 s and one warning: the line `Calculated native library
    // name as: am_ibm_16`, which gcperf skips and counts.
    let l = j9_events("SampleIBMJ9_R26_GAFP1_full_header.txt").unwrap();
    assert_eq!(l.events.len(), 1);
    assert_eq!(l.events[0].duration_ms, 5.29);
    assert_eq!(l.events[0].kind, Kind::Young);
    assert_eq!(l.skipped_lines, 1);
    assert_eq!(l.bad[0].line, 93);

    // GCViewer: 2 events, the first 0.025388 s, young; total 536870912 bytes = 524288 KB,
    // before 536870912 − 401882552 = 134988360 bytes (131824.6 KB → 131825), after
    // 536870912 − 457545744 = 79325168 (77466.0 → 77466); the nursery 134217728 = 131072 KB
    // before, 134217728 − 55663192 = 78554536 (76713.4 → 76713) after; the second 1.272 s
    // later.
    let l = j9_events("SampleIBMJ9_R28_af_scavenge_full_header.txt").unwrap();
    assert_eq!(l.events.len(), 2);
    let e = &l.events[0];
    assert_eq!(
        (e.record, e.kind, e.duration_ms),
        (Record::Pause, Kind::Young, 25.388)
    );
    assert_eq!(
        (e.heap_before_kb, e.heap_after_kb, e.heap_total_kb),
        (Some(131825), Some(77466), Some(524288))
    );
    assert_eq!(
        (e.young_before_kb, e.young_after_kb),
        (Some(131072), Some(76713))
    );
    assert_eq!(
        l.events[1].wall_ms.unwrap() - e.wall_ms.unwrap(),
        1272,
        "2015-12-31T15:22:48.229 − 15:22:46.957"
    );
    assert_eq!(l.strings.get(e.collector), "gencon");

    // GCViewer: one event of 1.182375 s, which it marks concurrent. gcperf counts it a pause:
    // the time between `<exclusive-start>` and `<exclusive-end>` is exclusive access, the
    // application stopped; the `<concurrent-collection-start>` in it says that this stop
    // ends a concurrent global collection (its mark ran concurrently before it), as IBM
    // 1.4.2's `<CON[n]>` block does.
    let l = j9_events("SampleIBMJ9_R28_concurrent_collection.txt").unwrap();
    assert_eq!(l.events.len(), 1);
    let e = &l.events[0];
    assert_eq!(
        (e.record, e.kind, e.duration_ms),
        (Record::Pause, Kind::Full, 1182.375)
    );
    assert_eq!(l.strings.get(e.cause), "Concurrent collection");
    // 6442450944 − 12883968 = 6429566976 bytes = 6278874 KB → 6442450944 − 5069413376 =
    // 1373037568 = 1340857 KB.
    assert_eq!(
        (e.heap_before_kb, e.heap_after_kb),
        (Some(6278874), Some(1340857))
    );
}

/// A corpus access log read as `family`: (requests, sum of their times, errors).
fn access_figures(dir: &Path, name: &str, family: &str) -> (usize, f64, usize) {
    let Ok(gcperf::load::Input::Perf(l)) =
        gcperf::load::load_any(&dir.join("perf/access").join(name))
    else {
        panic!("{name}: not a performance log");
    };
    assert_eq!(l.format.as_str(), family, "{name}");
    assert_eq!(l.log.skipped_lines, 0, "{name}");
    let total = l.frame.df.column(gcperf::frame::perf::TOTAL_MS).unwrap();
    let total: Vec<f64> = total.f64().unwrap().into_no_null_iter().collect();
    let ok = l.frame.df.column(gcperf::frame::perf::OK).unwrap();
    let errors = ok
        .bool()
        .unwrap()
        .iter()
        .filter(|b| *b == Some(false))
        .count();
    (total.len(), total.iter().sum(), errors)
}

/// The corpus's access logs whose lines carry the request's time, each against a scan of
/// its own written here with plain string splitting: IIS (lnav's W3C log of the Advanced
/// Logging module: 3 data lines, `TimeTakenMS` last, 109+0+359 = 468 ms; statuses 200, 301,
/// 404), HAProxy (13 HTTP lines, the first `a/b/c/d/e` word's last number: 8,344 ms, all
/// 200; 3 start-up lines and an SSL handshake failure are HAProxy's own), uWSGI (19 lines,
/// the number before `msecs`, or before `micros` / 1000: 664.068 ms, all 200).
#[test]
fn access_logs_are_their_request_lines() {
    let Some(dir) = corpus_dir() else { return };
    let text = |name: &str| std::fs::read_to_string(dir.join("perf/access").join(name)).unwrap();
    // IIS: the lines that are not directives; the time taken is the last field.
    let iis = text("lnav-logfile_w3c.3");
    let data: Vec<&str> = iis
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let sum: f64 = data
        .iter()
        .map(|l| l.split_whitespace().last().unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!((data.len(), sum), (3, 468.0));
    assert_eq!(
        access_figures(&dir, "lnav-logfile_w3c.3", "access-iis"),
        (3, 468.0, 0)
    );
    // HAProxy: the first word of five `/`-separated numbers is the timers; the total last.
    let timers = |w: &str| {
        let p: Vec<&str> = w.split('/').collect();
        (p.len() == 5 && p.iter().all(|x| x.parse::<i64>().is_ok()))
            .then(|| p[4].parse::<f64>().unwrap())
    };
    let haproxy = text("lnav-logfile_haproxy.0");
    let totals: Vec<f64> = haproxy
        .lines()
        .filter_map(|l| l.split_whitespace().find_map(timers))
        .collect();
    assert_eq!((totals.len(), totals.iter().sum::<f64>()), (13, 8344.0));
    assert_eq!(
        access_figures(&dir, "lnav-logfile_haproxy.0", "access-haproxy"),
        (13, 8344.0, 0)
    );
    // uWSGI: the number before the unit.
    let uwsgi = text("lnav-logfile_uwsgi.0");
    let mut times = Vec::new();
    for l in uwsgi.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        for i in 1..w.len() {
            match w[i] {
                "msecs" => times.push(w[i - 1].parse::<f64>().unwrap()),
                "micros" => times.push(w[i - 1].parse::<f64>().unwrap() / 1000.0),
                _ => {}
            }
        }
    }
    let sum: f64 = times.iter().sum();
    assert_eq!(times.len(), 19);
    assert!((sum - 664.068).abs() < 1e-9, "{sum}");
    let (n, got, errors) = access_figures(&dir, "lnav-logfile_uwsgi.0", "access-uwsgi");
    assert_eq!((n, errors), (19, 0));
    assert!((got - sum).abs() < 1e-9, "{got}");
}
