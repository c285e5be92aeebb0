//! Every line of every unified, JRockit and performance log we have is counted exactly once:
//! `lines == record_lines + ignored_lines + skipped_lines`, for the fixtures and for the
//! unified and JRockit logs of `../shared/corpus/` (skipped with a message if it is absent);
//! and a streamed semicolon log with old-Mac (CR-only) line ends reads every request.

use gcperf::load::{load_any, Input};
use gcperf::model::GcLog;
use gcperf::parse::{jrockit, perf, unified};
use std::io::Write;
use std::path::Path;
mod common;

fn check_gc(name: &str, log: &GcLog) {
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines,
        "{name}: {} lines = {} record + {} ignored + {} skipped",
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines
    );
    assert!(log.record_lines > 0, "{name}: no record line");
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn perf_fixtures_account_for_every_line() {
    // GC families: `families.rs`, over the registry.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut perf_files = 0;
    for f in files(&root.join("perf")) {
        let buf = std::fs::read(&f).unwrap();
        let format = perf::detect(&buf).expect("a perf fixture");
        let log = perf::parse(format, &buf);
        assert_eq!(
            log.lines,
            log.record_lines + log.ignored_lines + log.skipped_lines,
            "{}",
            f.display()
        );
        assert_eq!(
            log.record_lines,
            log.records.len() as u64,
            "{}",
            f.display()
        );
        perf_files += 1;
    }
    assert_eq!(perf_files, 4);
}

#[test]
fn corpus_accounts_for_every_line() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let mut n = 0;
    for (family, parse) in [
        (
            "unified",
            (|b| gcperf::parse::parse_one(unified::FAMILY, b)) as fn(&[u8]) -> GcLog,
        ),
        ("jrockit", |b| gcperf::parse::parse_one(jrockit::FAMILY, b)),
    ] {
        for f in files(&dir.join("gc").join(family)) {
            let buf = std::fs::read(&f).unwrap();
            let log = parse(&buf);
            check_gc(&f.display().to_string(), &log);
            // Read in blocks (the streamed path's joining), it counts the same.
            let fmt = if family == "unified" {
                gcperf::parse::unified::FAMILY
            } else {
                gcperf::parse::jrockit::FAMILY
            };
            let (merged, _, _) = gcperf::parse::stream::parse_in_blocks(
                fmt,
                &buf,
                4096,
                gcperf::parse::stream::Events::default(),
            );
            assert_eq!(merged.lines, log.lines);
            assert_eq!(merged.skipped_lines, log.skipped_lines);
            n += 1;
        }
    }
    assert_eq!(n, 33);
}

/// A semicolon log over the 1 MiB probe with `\r` line ends only is streamed in blocks: each
/// block must end at a line end, or records are glued or lost at every cut.
#[test]
fn streamed_cr_only_semicolon_log_reads_every_request() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("perf-cr.log");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    const N: u64 = 100_000; // about 7 MB: several blocks
    let mut total = 0u64;
    for i in 0..N {
        let t = i % 1000;
        total += t;
        write!(
            f,
            "[{i:08}];2012-09-21 12:{:02}:{:02}.{:03};{t};0;{t};1;op{};\r",
            i / 60_000 % 60,
            i / 1000 % 60,
            i % 1000,
            i % 7
        )
        .unwrap();
    }
    drop(f);
    let Input::Perf(p) = load_any(&path).unwrap() else {
        panic!("not read as a performance log");
    };
    assert_eq!(p.format, perf::SEMICOLON);
    assert_eq!(p.log.lines, N);
    assert_eq!(p.log.skipped_lines, 0);
    assert_eq!(p.log.record_lines, N);
    assert_eq!(p.frame.df.height() as u64, N);
    let col = p.frame.df.column("total_ms").unwrap();
    let totals = col.f64().unwrap();
    let sum: f64 = (0..totals.len()).filter_map(|i| totals.get(i)).sum();
    assert_eq!(sum, total as f64);
}

/// Lines that hold only white space or NUL padding.
fn blank_lines(buf: &[u8]) -> u64 {
    gcperf::parse::lines::lines(buf)
        .filter(|(_, l)| l.iter().all(|&b| b == 0 || b.is_ascii_whitespace()))
        .count() as u64
}

/// A log of one family read by another family's parser: no record; every line that is not
/// blank is skipped, never ignored.
#[test]
fn lines_of_another_family_are_skipped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let all = |family: &str| files(&root.join(family));
    type Parse = fn(&[u8]) -> (u64, u64, u64, u64);
    fn gc(l: GcLog) -> (u64, u64, u64, u64) {
        (l.lines, l.record_lines, l.ignored_lines, l.skipped_lines)
    }
    fn pf(l: gcperf::model::PerfLog) -> (u64, u64, u64, u64) {
        (l.lines, l.record_lines, l.ignored_lines, l.skipped_lines)
    }
    let unified: Parse = |b| gc(gcperf::parse::parse_one(unified::FAMILY, b));
    let jrockit: Parse = |b| gc(gcperf::parse::parse_one(jrockit::FAMILY, b));
    let semicolon: Parse = |b| pf(perf::parse(perf::SEMICOLON, b));
    let jtl: Parse = |b| pf(perf::parse(perf::JMETER_JTL, b));
    let grinder: Parse = |b| pf(perf::parse(perf::GRINDER, b));
    let cases: [(&str, &[&str], Parse); 5] = [
        ("unified", &["hotspot", "jrockit", "perf"], unified),
        ("jrockit", &["hotspot", "unified", "perf"], jrockit),
        ("semicolon", &["hotspot", "jrockit", "unified"], semicolon),
        ("jtl", &["hotspot", "jrockit", "unified"], jtl),
        ("grinder", &["hotspot", "jrockit", "unified"], grinder),
    ];
    let mut checked = 0;
    for (parser, families, parse) in cases {
        for family in families {
            for f in all(family) {
                let buf = std::fs::read(&f).unwrap();
                let (lines, record, ignored, skipped) = parse(&buf);
                let blank = blank_lines(&buf);
                assert_eq!(
                    (record, ignored, skipped),
                    (0, blank, lines - blank),
                    "{parser} parser on {}",
                    f.display()
                );
                checked += 1;
            }
        }
    }
    // Unified reads 12 HotSpot + 5 JRockit + 4 perf fixtures, JRockit 12 + 7 unified + 4,
    // each perf parser 12 + 5 + 7 (issue 13 added cms-printgcid.log, zgc-jdk17-stalls.log and
    // the six fixtures of the analyses; issue 35 the two scavenge-before-remark logs).
    assert_eq!(checked, 21 + 23 + 3 * 24);
}
