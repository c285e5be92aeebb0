//! Tests of `ibm_text.rs`. Figures worked out by hand from the fixtures (bytes / 1024, to the
//! nearest KB; wall clocks from `date -u -d '2007-03-13 09:41:07' +%s`).

use super::*;

/// One pass over a whole log, as every input goes (one block through the joiner).
fn parse(buf: &[u8]) -> GcLog {
    crate::parse::parse_one(FAMILY, buf)
}

fn s(log: &GcLog, i: u32) -> &str {
    log.strings.get(i)
}

fn accounted(log: &GcLog) -> (u64, u64, u64, u64) {
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines
    );
    (
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines,
    )
}

/// (duration ms, before, after, total KB, wall s, gc id, cause, name, line) of each event.
type Row<'a> = (f64, u64, u64, u64, i64, Option<u64>, &'a str, &'a str, u64);

fn rows(log: &GcLog) -> Vec<Row<'_>> {
    log.events
        .iter()
        .map(|e| {
            assert_eq!((e.record, e.kind), (Record::Pause, Kind::Full));
            assert_eq!(e.uptime_s, None);
            (
                e.duration_ms,
                e.heap_before_kb.unwrap(),
                e.heap_after_kb.unwrap(),
                e.heap_total_kb.unwrap(),
                e.wall_ms.unwrap() / 1000,
                e.gc_id,
                s(log, e.cause),
                s(log, e.name),
                e.line,
            )
        })
        .collect()
}

const AF: &str = "Allocation Failure";

/// Three allocation failures in a 512 MiB heap (536870912 bytes = 524288 KB).
#[test]
fn optthruput_fixture_read_by_hand() {
    let log = parse(include_bytes!("../../fixtures/ibm-text/optthruput-af.log"));
    // 34 lines: 3 blocks of 8, 12 and 8 lines; 3 `Expanded System Heap` lines and 3 blank.
    assert_eq!(accounted(&log), (34, 28, 6, 0));
    #[rustfmt::skip]
    let want: Vec<Row> = vec![
        // AF[1]: 536870912 - 503316480 = 33554432 B in use at the failure = 32768 K;
        // after, 536870912 - 524288000 = 12582912 B = 12288 K. The stop: 34 ms (the
        // collection's own 31 ms is in it).
        (34.0, 32768, 12288, 524288, 1173778867, Some(1), AF, "AF", 4),
        // AF[2]: 536870912 - 1048576 = 535822336 B = 523264 K; after 137363456 B =
        // 134144 K (the class lines before `Bytes Traced` are its lines).
        (327.0, 523264, 134144, 524288, 1173778871, Some(2), AF, "AF", 13),
        // AF[3]: 534773760 B = 522240 K; after 266862760 B = 260608.16 K, 260608.
        (166.0, 522240, 260608, 524288, 1173778881, Some(3), AF, "AF", 26),
    ];
    assert_eq!(rows(&log), want);
}

/// Two heap areas, concurrent collections, `System.gc()`, a failure that expands the heap,
/// one that gives up, and a block cut in its `mark:` line at the end of the log.
#[test]
fn optavgpause_variants_read_by_hand() {
    let log = parse(include_bytes!(
        "../../fixtures/ibm-text/optavgpause-variants.log"
    ));
    // 72 lines (the last without its end): 7 blocks of 8, 7, 14, 7, 12, 9 and 6 lines; blank
    // lines, one `Expanded System Heap`, one `Stop-the-allocations` note ignored.
    assert_eq!(accounted(&log), (72, 63, 9, 0));
    let con = "Concurrent collection";
    #[rustfmt::skip]
    let want: Vec<Row> = vec![
        // AF[1], `action=1 (0/1021313024) (52428800/52428800)`: the two areas summed,
        // 1073741824 - 52428800 = 1021313024 B = 997376 K in use; after, 1073741824 -
        // 664797184 = 408944640 B = 399360 K; 1 GiB = 1048576 K.
        (129.0, 997376, 399360, 1048576, 1182175371, Some(1), AF, "AF", 3),
        // CON[1]: its head's figures, 1073741824 - (31457280 + 41943040) = 1000341504 B
        // = 976896 K; after 463470592 B = 452608 K. A stop, with no AF number.
        (104.0, 976896, 452608, 1048576, 1182175377, None, con, "CON", 12),
        // AF[2]: `action=2 (5242880/1073741824)`: 1068498944 B = 1043456 K; after
        // 953155584 B = 930816 K. The `managing` lines after the collection and the
        // heap's expansion (to 1207959552) are its lines; the total is the `freed`
        // line's. 1421 ms: the collection's 1406 and the expansion.
        (1421.0, 1043456, 930816, 1048576, 1182175380, Some(2), AF, "AF", 20),
        // SYS[1]: no `(free/total)` before the collection: in use after (1207959552 -
        // 934281216 = 273678336 B = 267264 K) plus freed (679477248 B) = 953155584 B =
        // 930816 K. The heap is 1207959552 B = 1179648 K since the expansion.
        (171.0, 930816, 267264, 1179648, 1182175386, None, "System.gc()", "SYS", 35),
        // AF[3], the failure that gave up (`action=6`, `insufficient heap space`):
        // 905969664 B = 884736 K; after 889192448 B = 868352 K.
        (2253.0, 884736, 868352, 1179648, 1182175388, Some(3), AF, "AF", 44),
        // CON[2]: 1207959552 - 12582912 = 1195376640 B = 1167360 K; after 1153433600 B
        // = 1126400 K; its `action=3` / `action=4` lines after the collection are its.
        (193.0, 1167360, 1126400, 1179648, 1182175393, None, con, "CON", 57),
        // AF[4], cut: its `freed` line was read, so the stop is its collection's 236 ms.
        // 1207959552 - 20971520 = 1186988032 B = 1159168 K; after 1082130432 B =
        // 1056768 K.
        (236.0, 1159168, 1056768, 1179648, 1182175394, Some(4), AF, "AF", 67),
    ];
    assert_eq!(rows(&log), want);
    let total: f64 = log.events.iter().map(|e| e.duration_ms).sum();
    assert_eq!(
        total,
        129.0 + 104.0 + 1421.0 + 171.0 + 2253.0 + 193.0 + 236.0
    );
}

/// A block cut before its collection's `freed` line gives no pause: its lines are skipped,
/// the blocks before it kept.
#[test]
fn block_cut_before_its_collection_ended_is_skipped() {
    let log = parse(
        b"<AF[1]: Allocation Failure. need 16 bytes, 0 ms since last AF or CON>\n\
          <AF[1]: managing allocation failure, action=0 (1024/4096)>\n\
          \x20 <GC(1): GC cycle started Mon Jun 18 14:02:51 2007\n\
          \x20 <GC(1): freed 2048 bytes, 75% free (3072/4096), in 5 ms>\n\
          <AF[1]: completed in 6 ms>\n\
          <AF[2]: Allocation Failure. need 16 bytes, 9 ms since last AF or CON>\n\
          <AF[2]: managing allocation failure, action=0 (0/4096)>\n\
          <GC(2): Bytes Traced =0 (Foreground: 0+ Background: 0) State = 3 >\n\
          \x20 <GC(2): GC cycle started Mon Jun 18 14:02:52 2007\n",
    );
    assert_eq!(accounted(&log), (9, 5, 0, 4));
    assert_eq!(log.events.len(), 1);
    let e = &log.events[0];
    // 4096 - 1024 = 3072 B = 3 K before; 1024 B = 1 K after; 4 K.
    assert_eq!(
        (
            e.duration_ms,
            e.heap_before_kb,
            e.heap_after_kb,
            e.heap_total_kb
        ),
        (6.0, Some(3), Some(1), Some(4))
    );
    // The report names the cut block's head.
    assert_eq!(log.bad.len(), 1);
    assert_eq!(log.bad[0].line, 6);
    assert!(log.bad[0].text.starts_with("<AF[2]: Allocation Failure."));
}

/// Damage inside and between blocks: unreadable figures, a line of another block, a
/// collection's line outside any block, a lost `completed in` line, another family's line.
#[test]
fn damaged_lines_are_skipped_and_blocks_kept() {
    let log = parse(
        b"\x20 <GC(0): freed 1 bytes, 0% free (0/1), in 1 ms>\n\
          <AF[1]: completed in 3 ms>\n\
          <AF[1]: Allocation Failure. need 16 bytes, 0 ms since last AF or CON>\n\
          <AF[1]: managing allocation failure, action=0 (lots/4096)>\n\
          <AF[1]: managing allocation failure, action=0 (1024/4096)>\n\
          <AF[1]: something new>\n\
          <AF[7]: completed in 1 ms>\n\
          \x20 <GC(1): GC cycle started Mon Feb 31 14:02:51 2007\n\
          \x20 <GC(1): freed lots of bytes>\n\
          \x20 <GC(1): freed 2048 bytes, 75% free (3072/4096), in 5 ms>\n\
          12.3: [GC 1K->2K(3K), 0.1 secs]\n\
          <AF[1]: completed in soon>\n\
          <AF[1]: completed in 6 ms>\n\
          \x20 <GC[1]: Expanded System Heap by 65536 bytes\n\
          \x20 <GC[1]: Shrunk System Heap\n\
          <AF[2]: Allocation Failure. need 16 bytes, 9 ms since last AF or CON>\n\
          <AF[2]: managing allocation failure, action=0 (2048/4096)>\n\
          \x20 <GC(2): freed 1024 bytes, 75% free (3072/4096), in 4 ms>\n\
          <AF[3]: Allocation Failure. need 16 bytes, 9 ms since last AF or CON>\n\
          <AF[3]: completed in 2 ms>\n",
    );
    // Skipped: lines 1-2 (a block's lines before any head), 4 (its figures unreadable),
    // 6 (a form not known), 7 (another block's), 8 (no such date), 9 (unreadable), 11
    // (HotSpot), 12 (no duration), 15 (a system-heap line not known). AF[2] lost its
    // `completed in`: its collection's 4 ms. AF[3] has no figures.
    assert_eq!(accounted(&log), (20, 9, 1, 10));
    let got: Vec<_> = log
        .events
        .iter()
        .map(|e| {
            (
                e.gc_id,
                e.duration_ms,
                e.heap_before_kb,
                e.heap_after_kb,
                e.wall_ms,
                e.line,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (Some(1), 6.0, Some(3), Some(1), None, 3),
            (Some(2), 4.0, Some(2), Some(1), None, 16),
            (Some(3), 2.0, None, None, None, 19),
        ]
    );
}

/// The lines this family claims, and none of the others'.
#[test]
fn recognises_its_lines_only() {
    let f = FAMILY;
    for line in [
        &b"<AF[12]: Allocation Failure. need 528 bytes, 0 ms since last AF or CON>"[..],
        b"  <GC(1): GC cycle started Wed Oct  4 12:07:17 2006",
        b"<GC(1): Bytes Traced =0 (Foreground: 0+ Background: 0) State = 3 >",
        b"  <GC[0]: Expanded System Heap by 65536 bytes",
        b"<CON[1]: completed in 155 ms>",
        b"<SYS[2]: System.gc() called>",
        b"<  Stop-the-allocations for initialization boost (trace rate  25.73)>",
    ] {
        assert!(f.recognises(line), "{}", String::from_utf8_lossy(line));
    }
    for line in [
        &b"12.3: [GC 1K->2K(3K), 0.1 secs]"[..],
        b"[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms",
        b"[0.5s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 6.3ms",
        b"<af type=\"tenured\" id=\"1\" timestamp=\"Nov 28 21:43:48 2008\" intervalms=\"0.000\">",
        b"<gc type=\"global\" id=\"1\" totalid=\"1\" intervalms=\"0.000\">",
        b"<AF[]: Allocation Failure.",
        b"<AF[1] Allocation Failure.",
        b"<GC(x): freed",
        b"",
    ] {
        assert!(!f.recognises(line), "{}", String::from_utf8_lossy(line));
    }
    assert!(f.safe_start(b"<AF[3]: Allocation Failure. need 8 bytes, 5 ms since last AF or CON>"));
    assert!(
        f.safe_start(b"<CON[1]: Concurrent collection, (1/2) (3/4), 5 ms since last CON or AF>")
    );
    assert!(!f.safe_start(b"<CON[1]: Concurrent collection, action=3 (1/2)>"));
    assert!(!f.safe_start(b"<AF[3]: completed in 90 ms>"));
    assert!(!f.safe_start(b"  <GC(3): freed 1 bytes, 0% free (0/1), in 1 ms>"));
    assert!(f.owns(b"<AF[3]: completed in 90 ms>"));
    assert!(!f.owns(b"  <GC(3): mark: 1 ms, sweep: 0 ms, compact: 0 ms>"));
}

/// GCViewer's `DataReaderIBM1_4_2` on the real sample, worked out with a script that runs
/// its state machine over the file: 2884 events, 1428.729 s, the longest 124.405 s. It makes
/// an event of every `GC cycle started` (2841: 2584 in AF blocks, 257 in CON blocks) with
/// the collection's own `in N ms` as its pause, and one more of each `managing allocation
/// failure, action=3` line (43, all after their block's collection) with the block's
/// `completed in` less that collection's time. So its total is ours less the rest of the
/// stops of the 2798 blocks without an `action=3` line (18639 ms: `completed in` minus the
/// collection's time, summed over them), its count ours plus 43, and its longest the 128368
/// ms stop of AF[1042] less its collection's 3963 ms. We count a stop once with its whole
/// time, as the log gives it (`<AF[n]: completed in N ms>`): GCViewer cuts 43 stops in two.
///
/// `grep -c 'completed in' SampleIBM1_4_2.txt` = 2841 (2584 `<AF[`, 257 `<CON[`); the sum
/// of their figures 1447368 ms, the largest 128368.
#[test]
fn corpus_sample_against_gcviewer() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.join("gcviewer-reference.csv").is_file() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "corpus missing at {}: CI must have ../shared/corpus",
            dir.display()
        );
        eprintln!("skipping: no corpus at {}", dir.display());
        return;
    }
    let buf = std::fs::read(dir.join("gc/openj9/SampleIBM1_4_2.txt")).unwrap();
    assert_eq!(
        crate::input::detect(&buf),
        Some(crate::input::Detected::Gc(FAMILY))
    );
    let log = parse(&buf);
    let (lines, _, _, skipped) = accounted(&log);
    assert_eq!(lines, crate::parse::lines::count(&buf));
    assert_eq!(skipped, 0, "{:?}", log.bad);
    let n = log.events.len();
    let total: f64 = log.events.iter().map(|e| e.duration_ms).sum();
    let max = log.events.iter().map(|e| e.duration_ms).fold(0.0, f64::max);
    assert_eq!((n, total, max), (2841, 1_447_368.0, 128_368.0));
    let (gcv_n, gcv_total, gcv_max) = (2884, 1_428_729.0, 124_405.0);
    assert_eq!(n + 43, gcv_n);
    assert_eq!(total - 18_639.0, gcv_total);
    assert_eq!(max - 3963.0, gcv_max);
    let con = log.strings.find("CON").unwrap();
    assert_eq!(log.events.iter().filter(|e| e.name == con).count(), 257);
    assert!(log
        .events
        .iter()
        .all(|e| e.wall_ms.is_some() && e.heap_before_kb.is_some() && e.heap_after_kb.is_some()));
    // AF[1]: (1073674752 - 1010684672) B = 61513.75 K -> 61514 before; GCViewer's
    // `freed + total - free`, the same bytes, truncated to 61513.
    let e = &log.events[0];
    assert_eq!(
        (e.gc_id, e.duration_ms, e.heap_before_kb, e.heap_after_kb),
        (Some(1), 52.0, Some(61514), Some(22389))
    );
    assert_eq!(e.wall_ms, Some(1_159_963_637_000));
    // Read in blocks, at any edge, it gives the one pass's events.
    for size in [1000, 1 << 16] {
        let (joined, sink, _) = crate::parse::stream::parse_in_blocks_flushing(
            FAMILY,
            &buf,
            size,
            64,
            crate::parse::stream::Events::default(),
        );
        assert_eq!(accounted(&joined), accounted(&log));
        assert_eq!(sink.events.len(), n);
        assert!(sink.events.iter().zip(&log.events).all(|(a, b)| (
            a.line,
            a.duration_ms,
            a.heap_after_kb,
            a.gc_id
        ) == (
            b.line,
            b.duration_ms,
            b.heap_after_kb,
            b.gc_id
        )));
    }
}
