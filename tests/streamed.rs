//! A GC log read in blocks gives what one pass over it gives, event for event and line for
//! line, wherever the block edges fall: inside multi-line HotSpot events, inside JRockit
//! `[gcpause]` groups, inside unified `GC(n)` phase groups.

mod common;

use gcperf::model::{GcEvent, GcLog};
use gcperf::parse::family::{GcFormat, GC_FAMILIES};
use gcperf::parse::stream::{parse_in_blocks, parse_in_blocks_flushing, Events, Joiner, Parser};
use gcperf::parse::{hotspot, ibm_text, j9_xml, jrockit, unified};
use std::path::Path;

/// An event with its strings spelled out (ids differ between the two readings).
fn spelled(log: &GcLog, events: &[GcEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let mut e2 = e.clone();
            let (c, k, n) = (e.collector, e.cause, e.name);
            e2.collector = 0;
            e2.cause = 0;
            e2.name = 0;
            e2.invented_id = false;
            format!(
                "{e2:?} collector={:?} cause={:?} name={:?}",
                log.strings.get(c),
                log.strings.get(k),
                log.strings.get(n)
            )
        })
        .collect()
}

fn counts(l: &GcLog) -> (u64, u64, u64, u64, Vec<(u64, String)>) {
    let mut meta = l.meta.clone();
    meta.sort();
    (
        l.lines,
        l.record_lines,
        l.ignored_lines,
        l.skipped_lines,
        l.bad.iter().map(|b| (b.line, b.text.clone())).collect(),
    )
}

/// A reading in blocks (`how`) gave the one-pass log: its line counts and its events.
fn same_as_one(what: &str, how: &str, one: &GcLog, want: &[String], log: &GcLog, got: &[GcEvent]) {
    assert_eq!(counts(log), counts(one), "{what}, {how}: line counts");
    let got = spelled(log, got);
    if got != want {
        let i = got
            .iter()
            .zip(want)
            .position(|(a, b)| a != b)
            .unwrap_or(got.len().min(want.len()));
        panic!(
            "{what}, {how}: {} events vs {} one-pass; first difference at {i}:\n  blocks: {:?}\n  one:    {:?}",
            got.len(),
            want.len(),
            got.get(i),
            want.get(i)
        );
    }
}

/// Every block size in `sizes` gives the one-pass result; returns the blocks and how many of
/// them were read on by the parser of the block before, for the smallest size.
fn same_in_blocks(format: GcFormat, buf: &[u8], sizes: &[usize], what: &str) -> (u64, u64) {
    let one = gcperf::parse::parse_one(format, buf);
    let want = spelled(&one, &one.events);
    let mut stats = (0, 0);
    for &size in sizes {
        let (log, sink, st) = parse_in_blocks(format, buf, size, Events::default());
        if size == sizes[0] {
            stats = (st.blocks, st.continued);
        }
        let how = format!("blocks of {size}");
        same_as_one(what, &how, &one, &want, &log, &sink.events);
    }
    // Blocks whose parsers move their settled events to columns after every line (1), every
    // 16 events, and every 64 with a few held back (JRockit keeps 2, so that an old
    // collection written after the nursery collections inside it goes before them without
    // taking the columns back): the columns and the events held give the one-pass events.
    for &size in [sizes[0], sizes[sizes.len() / 2], sizes[sizes.len() - 1]].iter() {
        for flush_at in [1, 16, 64] {
            let (log, sink, _) =
                parse_in_blocks_flushing(format, buf, size, flush_at, Events::default());
            let how = format!("blocks of {size}, columns from {flush_at} events");
            same_as_one(what, &how, &one, &want, &log, &sink.events);
        }
    }
    // Every line a block of its own: an edge inside every multi-line event, every JRockit
    // `[gcpause]` group and every unified `GC(n)` group.
    let mut j = Joiner::new(format, Events::default());
    for line in buf.split_inclusive(|&b| b == b'\n') {
        j.block(line, Parser::reusing(format, line, Vec::new()));
    }
    let (log, sink) = j.finish();
    assert_eq!(
        counts(&log),
        counts(&one),
        "{what}, a block per line: line counts"
    );
    assert!(
        spelled(&log, &sink.events) == want,
        "{what}, a block per line: events differ"
    );
    stats
}

const SIZES: [usize; 6] = [97, 300, 1000, 4096, 20_000, 1 << 20];

/// G1 summaries (`[Eden: ...]`) after runs of safepoints, in blocks and with columns taken
/// between lines: each gives its heap to the pause the one-pass parse gives it to.
#[test]
fn g1_summaries_after_safepoints_in_blocks() {
    let mut buf = String::new();
    for p in 0..40 {
        let t = f64::from(p) * 10.0;
        buf += &format!("{t:.3}: [GC pause (G1 Evacuation Pause) (young), 0.0100000 secs]\n");
        for i in 0..(p % 7) * 5 {
            buf += &format!(
                "{:.3}: Total time for which application threads were stopped: 0.0001000 seconds, Stopping threads took: 0.0000100 seconds\n",
                t + 1.0 + f64::from(i) * 0.01
            );
            if i % 3 == 0 {
                buf += &format!(
                    "   [Eden: 1.0M(2.0M)->0.0B(2.0M) Survivors: 0.0B->0.0B Heap: {}.0M(512.0M)->{}.0M(512.0M)]\n",
                    p * 10 + i,
                    p + i
                );
            }
        }
    }
    same_in_blocks(
        hotspot::FAMILY,
        buf.as_bytes(),
        &SIZES,
        "G1 summaries after safepoints",
    );
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn check_dir(format: GcFormat, dir: &Path) -> usize {
    let mut n = 0;
    for p in files(dir) {
        let Ok(buf) = std::fs::read(&p) else { continue };
        let detected = gcperf::input::detect(&buf);
        if detected != Some(gcperf::input::Detected::Gc(format)) {
            continue;
        }
        same_in_blocks(format, &buf, &SIZES, &p.display().to_string());
        n += 1;
    }
    n
}

/// Every family of the registry, over its fixtures (`fixtures/<name>/`, `fixtures/<name>-*/`)
/// and the regression files of `fixtures/bad/` it detects as its own.
#[test]
fn fixtures_read_in_blocks_equal_one_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for &format in GC_FAMILIES {
        let name = format.as_str();
        let n: usize = common::family_dirs(&root, name)
            .iter()
            .map(|d| check_dir(format, d))
            .sum();
        assert!(n >= 2, "{name}: only {n} fixtures checked");
        check_dir(format, &root.join("bad"));
    }
    // Unified logs with other decorations, tags among them or not.
    let n = check_dir(unified::FAMILY, &root.join("unified-decorations"));
    assert_eq!(n, 7, "unified-decorations: {n} fixtures checked");
}

#[test]
fn corpus_read_in_blocks_equals_one_pass() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    for &format in GC_FAMILIES {
        let name = format.as_str();
        let dir = corpus.join("gc").join(name);
        if !dir.is_dir() {
            eprintln!("{name}: no corpus folder {}: skipped", dir.display());
            continue;
        }
        let n = check_dir(format, &dir);
        assert!(n >= 1, "{name}: no corpus log of it in {}", dir.display());
    }
    let n = check_dir(
        unified::FAMILY,
        &corpus.join("gc").join("unified-decorations"),
    );
    assert!(n >= 2, "unified-decorations: only {n} corpus logs checked");
    // IBM's logs, text and XML, share a folder.
    let openj9 = corpus.join("gc").join("openj9");
    assert_eq!(check_dir(ibm_text::FAMILY, &openj9), 1, "openj9: ibm-text");
    assert_eq!(check_dir(j9_xml::FAMILY, &openj9), 6, "openj9: j9-xml");
}

/// A log over several blocks, read from a file (plain and gzip) as every command reads it,
/// gives the frame of the one-pass parse, row for row: block edges fall wherever 2 MiB ends,
/// so inside HotSpot multi-line events, JRockit `[gcpause]` groups and unified `GC(n)` groups.
#[test]
fn streamed_files_plain_and_gzip_equal_one_pass() {
    use std::io::Write;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    for (format, name) in [
        (
            hotspot::FAMILY,
            "hotspot/cms-remark-printed-inside-open-parnew.log",
        ),
        (hotspot::FAMILY, "hotspot/jdk142-parnew-cms-incremental.log"),
        (jrockit::FAMILY, "jrockit/r28-gencon-gcpause.log"),
        (jrockit::FAMILY, "jrockit/r26-gencon.log"),
        (unified::FAMILY, "unified/g1-jdk17.log"),
        // A stop logged twice (a young GC inside a CMS remark) wherever a block edge falls.
        (
            hotspot::FAMILY,
            "hotspot/cms-scavenge-before-remark-jdk8.log",
        ),
        (
            unified::FAMILY,
            "unified/cms-scavenge-before-remark-jdk11.log",
        ),
        (unified::FAMILY, "unified/serial-young-into-full.log"),
        // Without tags: no line says where a GC's logging starts.
        (
            unified::FAMILY,
            "unified-decorations/g1-jdk17-time-uptime-level.log",
        ),
    ] {
        let one = std::fs::read(root.join(name)).unwrap();
        // Repeated past three blocks; an odd-sized tail shifts the edges off copy bounds.
        let mut buf = Vec::new();
        while buf.len() < 7 << 20 {
            buf.extend_from_slice(&one);
        }
        buf.extend_from_slice(&one[..one.len() / 3]);
        let whole = gcperf::parse::parse_one(format, &buf);
        // The frame of the log in memory (its blocks cut there, not where the reader cut).
        let (log, cols, _) = parse_in_blocks(
            format,
            &buf,
            gcperf::parse::BLOCK,
            gcperf::columns::LogColumns::default(),
        );
        let want = cols.finish(&log).unwrap();
        let plain = dir.path().join("plain.log");
        std::fs::write(&plain, &buf).unwrap();
        let gz = dir.path().join("gzipped.log.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&buf).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        for p in [&plain, &gz] {
            let gcperf::load::Input::Gc(l) = gcperf::load::load_any(p).unwrap() else {
                panic!("{name}: not read as a GC log");
            };
            assert_eq!(counts(&l.log), counts(&whole), "{name} {}", p.display());
            assert!(
                l.frame.df.equals_missing(&want.df) && l.frame.strings == want.strings,
                "{name} {}: frames differ",
                p.display()
            );
        }
    }
}

/// A `-Xlog:gc` log (one line per GC, no `[gc,start]` lines: every pause line is an end whose
/// start no block holds) read in blocks: the one-pass result, and blocks read on by the block
/// before only where an edge falls inside a concurrent cycle (before: every block, 1 core).
#[test]
fn xlog_gc_without_start_lines_reads_in_parallel_blocks() {
    let mut buf = b"[0.010s][info][gc] Using G1\n".to_vec();
    let (mut t, mut id) = (0.5f64, 0u64);
    let mut cycles = 0u64;
    while buf.len() < 3 << 20 {
        if id % 40 == 39 {
            // Initial mark, then a cycle whose start and end lines enclose a young pause,
            // a remark and a cleanup of its own id.
            let c = id + 1;
            buf.extend_from_slice(format!(
                "[{t:.3}s][info][gc] GC({id}) Pause Young (Concurrent Start) (G1 Evacuation Pause) 80M->79M(128M) 5.011ms\n\
                 [{t:.3}s][info][gc] GC({c}) Concurrent Cycle\n\
                 [{:.3}s][info][gc] GC({}) Pause Young (Normal) (G1 Evacuation Pause) 90M->88M(128M) 3.819ms\n\
                 [{:.3}s][info][gc] GC({c}) Pause Remark 113M->113M(128M) 0.939ms\n\
                 [{:.3}s][info][gc] GC({c}) Pause Cleanup 114M->70M(128M) 0.367ms\n\
                 [{:.3}s][info][gc] GC({c}) Concurrent Cycle 20.140ms\n",
                t + 0.005, c + 1, t + 0.015, t + 0.020, t + 0.0201
            ).as_bytes());
            id += 3;
            cycles += 1;
            t += 0.05;
        } else {
            buf.extend_from_slice(
                format!("[{t:.3}s][info][gc] GC({id}) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3.456ms\n")
                    .as_bytes(),
            );
            id += 1;
            t += 0.25;
        }
    }
    let one = gcperf::parse::parse_one(unified::FAMILY, &buf);
    // Every GC line is a record: pauses and the cycles.
    let lines = buf.iter().filter(|&&b| b == b'\n').count() as u64;
    assert_eq!(
        one.events.len() as u64,
        lines - 1 - cycles,
        "a cycle's two lines are one event"
    );
    let (blocks, continued) = same_in_blocks(unified::FAMILY, &buf, &[64 << 10, 1000], "-Xlog:gc");
    assert!(blocks >= 40, "{blocks} blocks");
    assert!(
        continued * 4 <= blocks,
        "{continued} of {blocks} blocks read on"
    );
}

/// Records whether the joiner asked for the whole log to be put in time order.
#[derive(Default)]
struct SortSpy {
    inner: Events,
    sorted: bool,
}

impl gcperf::columns::Sink for SortSpy {
    fn push_block(
        &mut self,
        cols: Option<gcperf::columns::GcColumns>,
        events: Vec<GcEvent>,
        join: gcperf::columns::Join,
    ) -> Option<Vec<GcEvent>> {
        self.inner.push_block(cols, events, join)
    }
    fn len(&self) -> usize {
        self.inner.len()
    }
    fn sort_by_time(&mut self) {
        self.sorted = true;
        self.inner.sort_by_time();
    }
    fn fill_collector(&mut self, upto: usize, id: u32) {
        self.inner.fill_collector(upto, id);
    }
    fn end_of_log(&mut self, format: GcFormat, log: &GcLog) {
        self.inner.end_of_log(format, log);
    }
}

/// A JRockit log read as one block whose parser moves its settled events to columns as it
/// goes comes out in the one-pass time order by itself: an old collection written after the
/// nursery collections inside it goes before them within the block (among the events held,
/// or with the columns taken back), so the joiner never has to sort the whole log (which
/// would hide a block's order gone wrong: it gives the same events, at a cost).
#[test]
fn jrockit_blocks_with_columns_keep_time_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut dirs = vec![root.join("jrockit")];
    if let Some(corpus) = common::corpus_dir() {
        dirs.push(corpus.join("gc").join("jrockit"));
    }
    let mut reordered = 0;
    for p in dirs.iter().flat_map(|d| files(d)) {
        let Ok(buf) = std::fs::read(&p) else { continue };
        if gcperf::input::detect(&buf) != Some(gcperf::input::Detected::Gc(jrockit::FAMILY)) {
            continue;
        }
        let one = gcperf::parse::parse_one(jrockit::FAMILY, &buf);
        // The one-pass parse moved some events out of line order: this log tests it.
        if one.events.windows(2).any(|w| w[0].line > w[1].line) {
            reordered += 1;
        }
        let want = spelled(&one, &one.events);
        for flush_at in [1, 4, 16, 64, 1024] {
            let (log, spy, _) = parse_in_blocks_flushing(
                jrockit::FAMILY,
                &buf,
                usize::MAX,
                flush_at,
                SortSpy::default(),
            );
            assert!(
                !spy.sorted,
                "{}, columns from {flush_at} events: the joiner sorted the log",
                p.display()
            );
            assert!(
                spelled(&log, &spy.inner.events) == want,
                "{}, columns from {flush_at} events: events differ",
                p.display()
            );
        }
    }
    // Some log must have had events put in time order (out of line order) for this to test it.
    assert!(reordered >= 1, "no log with an old collection written late");
}
