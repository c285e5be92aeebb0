use super::*;

/// The whole log as one block (`parse::parse_one`).
fn parse(buf: &[u8]) -> GcLog {
    crate::parse::parse_one(FAMILY, buf)
}
use crate::model::Kind;

/// Parse, and check that every line is counted once.
fn one(s: &str) -> GcLog {
    bytes(s.as_bytes())
}

fn bytes(b: &[u8]) -> GcLog {
    let log = parse(b);
    accounted(&log);
    log
}

fn accounted(log: &GcLog) {
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines,
        "lines {} != record {} + ignored {} + skipped {}",
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines
    );
}

/// (lines, record lines, ignored lines, skipped lines).
fn counts(log: &GcLog) -> (u64, u64, u64, u64) {
    (
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines,
    )
}

fn pauses(log: &GcLog) -> Vec<&GcEvent> {
    log.events
        .iter()
        .filter(|e| e.record == Record::Pause)
        .collect()
}

/// The collections run inside another's stop.
fn nested(log: &GcLog) -> Vec<&GcEvent> {
    log.events
        .iter()
        .filter(|e| e.record == Record::Nested)
        .collect()
}

#[test]
fn plain_verbose_gc() {
    let log = one("[GC 325407K->83000K(776768K), 0.2300771 secs]\n[Full GC 267628K->83769K(776768K), 1.8479984 secs]\n");
    let p = pauses(&log);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].kind, Kind::Young);
    assert!((p[0].duration_ms - 230.0771).abs() < 1e-9);
    assert_eq!(p[0].heap_before_kb, Some(325407));
    assert_eq!(p[0].heap_after_kb, Some(83000));
    assert_eq!(p[0].heap_total_kb, Some(776768));
    assert_eq!(p[1].kind, Kind::Full);
    assert!((p[1].duration_ms - 1847.9984).abs() < 1e-9);
    assert_eq!(log.skipped_lines, 0);
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn serial_details_young_and_full() {
    let log = one("12.345: [GC 12.345: [DefNew: 3968K->384K(4032K), 0.0054310 secs] 7808K->4547K(12928K), 0.0055540 secs]\n\
                   20.500: [Full GC 20.500: [Tenured: 8000K->5000K(10000K), 0.1200000 secs] 9000K->5000K(14000K), [Perm : 2000K->2000K(16384K)], 0.1210000 secs]\n");
    let p = pauses(&log);
    assert_eq!(p.len(), 2);
    assert_eq!(
        (p[0].kind, log.strings.get(p[0].collector)),
        (Kind::Young, "DefNew")
    );
    assert_eq!(p[0].uptime_s, Some(12.345));
    assert!(close(p[0].duration_ms, 5.554));
    assert_eq!(
        (p[0].heap_before_kb, p[0].heap_after_kb, p[0].heap_total_kb),
        (Some(7808), Some(4547), Some(12928))
    );
    assert_eq!(
        (p[1].kind, log.strings.get(p[1].collector)),
        (Kind::Full, "Tenured")
    );
    assert!(close(p[1].duration_ms, 121.0));
    assert_eq!(p[1].heap_total_kb, Some(14000));
}

#[test]
fn parallel_with_date_stamps_causes_and_comma_decimals() {
    let log = one("2015-03-04T09:13:59.445+0100: 55047.616: [GC (Allocation Failure) [PSYoungGen: 540800K->1217K(617472K)] 592910K->53464K(2015744K), 0.0082230 secs] [Times: user=0.02 sys=0.00, real=0.01 secs]\n\
                   2015-03-04T09:14:00.000+0100: 55048,171: [Full GC (Ergonomics) [PSYoungGen: 1217K->0K(617472K)] [ParOldGen: 52247K->50000K(1398272K)] 53464K->50000K(2015744K), [Metaspace: 2563K->2563K(1056768K)], 0,2500000 secs] [Times: user=0,50 sys=0,00, real=0,25 secs]\n");
    let p = pauses(&log);
    assert_eq!(p.len(), 2);
    assert_eq!(log.strings.get(p[0].cause), "Allocation Failure");
    assert_eq!(log.strings.get(p[0].collector), "PSYoungGen");
    assert_eq!(
        crate::parse::num::format_wall_ms(p[0].wall_ms.unwrap()),
        "2015-03-04T09:13:59.445"
    );
    assert!(close(p[0].duration_ms, 8.223));
    assert_eq!(p[1].kind, Kind::Full);
    assert_eq!(log.strings.get(p[1].cause), "Ergonomics");
    assert_eq!(log.strings.get(p[1].collector), "ParOldGen");
    assert_eq!(p[1].uptime_s, Some(55048.171));
    assert!(close(p[1].duration_ms, 250.0));
    assert_eq!(
        (p[1].heap_before_kb, p[1].heap_after_kb),
        (Some(53464), Some(50000))
    );
}

#[test]
fn cms_cycle_with_embedded_concurrent_phase_and_failure() {
    let text = "0.708: [GC [1 CMS-initial-mark: 91890K(131072K)] 109176K(249088K), 0.0004006 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n\
0.708: [CMS-concurrent-mark-start]\n\
0.714: [CMS-concurrent-mark: 0.006/0.007 secs] [Times: user=0.00 sys=0.00, real=0.01 secs]\n\
0.769: [GC 0.769: [ParNew: 118006K->118006K(118016K), 0.0000176 secs]0.769: [CMS0.769: [CMS-concurrent-abortable-preclean: 0.001/0.055 secs] [Times: user=0.02 sys=0.00, real=0.06 secs]\n\
 (concurrent mode failure): 91890K->20323K(131072K), 0.0186232 secs] 209896K->20323K(249088K), [CMS Perm : 2561K->2560K(21248K)], 0.0187293 secs] [Times: user=0.01 sys=0.00, real=0.02 secs]\n\
1.593: [GC[YG occupancy: 15176 K (118016 K)]1.593: [Rescan (parallel) , 0.0003847 secs]1.594: [weak refs processing, 0.0000057 secs] [1 CMS-remark: 115034K(131072K)] 130210K(249088K), 0.0005792 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n";
    let log = one(text);
    let p = pauses(&log);
    assert_eq!(
        p.iter().map(|e| e.kind).collect::<Vec<_>>(),
        vec![Kind::InitialMark, Kind::Full, Kind::Remark]
    );
    assert!(close(p[0].duration_ms, 0.4006));
    assert!(close(p[1].duration_ms, 18.7293));
    assert_eq!(log.strings.get(p[1].collector), "CMS");
    assert_eq!(
        (p[1].heap_before_kb, p[1].heap_after_kb),
        (Some(209896), Some(20323))
    );
    assert!(close(p[2].duration_ms, 0.5792));
    let conc: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Concurrent)
        .collect();
    assert_eq!(conc.len(), 2);
    // cpu/wall: the wall-clock part is the phase's duration.
    assert!(close(conc[0].duration_ms, 7.0));
    assert_eq!(
        log.strings.get(conc[1].name),
        "CMS-concurrent-abortable-preclean"
    );
    assert!(close(conc[1].uptime_s.unwrap(), 0.769 - 0.055));
    assert!(close(conc[1].duration_ms, 55.0));
    assert_eq!(log.skipped_lines, 0);
}

#[test]
fn event_split_by_tenuring_distribution_and_heap_at_gc() {
    let text = "{Heap before GC invocations=3 (full 0):\n par new generation   total 118016K, used 118008K [0x00000000eae00000, 0x00000000f2e00000, 0x00000000f2e00000)\n  eden space 104960K, 100% used [0x00000000eae00000, 0x00000000f1480000, 0x00000000f1480000)\n\
1.565: [GC 1.565: [ParNew\n\
Desired survivor size 6684672 bytes, new threshold 1 (max 15)\n\
- age   1:   13369344 bytes,   13369344 total\n\
: 118008K->13040K(118016K), 0.0281748 secs] 194351K->128075K(249088K), 0.0282363 secs] [Times: user=0.03 sys=0.02, real=0.03 secs]\n\
Heap after GC invocations=4 (full 0):\n par new generation   total 118016K, used 13040K [0x00000000eae00000, 0x00000000f2e00000, 0x00000000f2e00000)\n}\n";
    let log = one(text);
    let p = pauses(&log);
    assert_eq!(p.len(), 1);
    assert_eq!(log.strings.get(p[0].collector), "ParNew");
    assert!(close(p[0].duration_ms, 28.2363));
    assert_eq!(p[0].heap_after_kb, Some(128075));
    assert_eq!(p[0].line, 4);
    assert_eq!(log.skipped_lines, 0);
}

#[test]
fn adaptive_size_policy_glued_to_the_event_line() {
    let text = "2015-03-04T09:13:59.445+0100: 55047,616: [GC (Allocation Failure)AdaptiveSizePolicy::compute_survivor_space_size_and_thresh:  survived: 1246904  promoted: 139280  overflow: falseAdaptiveSizeStart: 55047,624 collection: 21\n\
  avg_survived_padded_avg: 75561280,000000  avg_promoted_padded_avg: 10916049,000000\n\
Desired survivor size 76021760 bytes, new threshold 1 (max 15)\n\
AdaptiveSizeStop: collection: 21\n\
 [PSYoungGen: 540800K->1217K(617472K)] 592910K->53464K(2015744K), 0,0082230 secs] [Times: user=0,02 sys=0,00, real=0,01 secs]\n\
2015-03-04T09:13:59.454+0100: 55047,624: Total time for which application threads were stopped: 0,0091380 seconds\n";
    let log = one(text);
    let p = pauses(&log);
    assert_eq!(p.len(), 1);
    assert!(close(p[0].duration_ms, 8.223));
    assert_eq!(p[0].uptime_s, Some(55047.616));
    let sp: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Safepoint)
        .collect();
    assert_eq!(sp.len(), 1);
    assert!(close(sp[0].duration_ms, 9.138));
}

#[test]
fn g1_detailed_block_and_concurrent_cycle() {
    let text = "2014-07-24T13:49:45.090+0400: 92457.841: [GC pause (G1 Evacuation Pause) (young), 0.0345663 secs]\n\
   [Parallel Time: 33.1 ms, GC Workers: 4]\n\
  [GC Worker Start (ms): Min: 92457841.5, Avg: 92457841.5, Max: 92457841.6, Diff: 0.1]\n\
   [Code Root Fixup: 0.0 ms]\n\
   [Other: 1.2 ms]\n\
   [Eden: 1024.0M(1024.0M)->0.0B(1024.0M) Survivors: 50.0M->50.0M Heap: 3122.3M(4096.0M)->2098.2M(4096.0M)]\n\
 [Times: user=0.13 sys=0.00, real=0.03 secs]\n\
92458.000: [GC pause (G1 Humongous Allocation) (young) (initial-mark) 2100M->2090M(4096M), 0.0100000 secs]\n\
92458.010: [GC concurrent-root-region-scan-start]\n\
92458.020: [GC concurrent-mark-end, 0.0123450 secs]\n\
92458.030: [GC remark, 0.0012340 secs]\n\
92458.040: [GC cleanup 30M->28M(100M), 0.0004560 secs]\n\
92459.000: [GC pause (G1 Evacuation Pause) (mixed) 2000M->1500M(4096M), 0.0500000 secs]\n\
92460.000: [Full GC (Allocation Failure)  4095M->3000M(4096M), 2.5000000 secs]\n";
    let log = one(text);
    let p = pauses(&log);
    let kinds: Vec<_> = p.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        vec![
            Kind::Young,
            // `(young) (initial-mark)`: issue 13's one rule with unified logging.
            Kind::InitialMark,
            Kind::Remark,
            Kind::Cleanup,
            Kind::Mixed,
            Kind::Full
        ]
    );
    assert!(close(p[0].duration_ms, 34.5663));
    // 3122.3M = 3197235.2K, 2098.2M = 2148556.8K, rounded to whole KB.
    assert_eq!(
        (p[0].heap_before_kb, p[0].heap_after_kb, p[0].heap_total_kb),
        (Some(3197235), Some(2148557), Some(4194304))
    );
    assert_eq!(log.strings.get(p[0].cause), "G1 Evacuation Pause");
    assert_eq!(log.strings.get(p[1].cause), "G1 Humongous Allocation");
    assert_eq!(
        log.strings.get(p[1].name),
        "GC pause (young) (initial-mark)"
    );
    assert_eq!(
        (p[3].heap_before_kb, p[3].heap_total_kb),
        (Some(30720), Some(102400))
    );
    assert!(close(p[5].duration_ms, 2500.0));
    let conc: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Concurrent)
        .collect();
    assert_eq!(conc.len(), 1);
    assert!(close(conc[0].duration_ms, 12.345));
    assert_eq!(log.skipped_lines, 0);
}

#[test]
fn incremental_cms_and_incgc_train() {
    let text = "0.000: [GC 0.000: [ParNew: 7808K->830K(8128K), 0.0102350 secs] 7808K->830K(260032K) icms_dc=0 , 0.0103610 secs]\n\
[GC 0.123: [DefNew: 2000K->200K(2048K), 0.0100000 secs]0.133: [Train: 5000K->4800K(20000K), 0.0050000 secs] 7000K->5000K(22048K), 0.0160000 secs]\n\
[Full GC 1.234: [Train MSC: 15000K->8000K(20000K), 0.3000000 secs] 16000K->8000K(22048K), 0.3010000 secs]\n";
    let log = one(text);
    let p = pauses(&log);
    assert_eq!(
        p.iter().map(|e| e.kind).collect::<Vec<_>>(),
        vec![Kind::Young, Kind::Young, Kind::Full]
    );
    assert!(close(p[0].duration_ms, 10.361));
    assert_eq!(p[0].heap_total_kb, Some(260032));
    assert!(close(p[1].duration_ms, 16.0));
    assert_eq!(log.strings.get(p[1].collector), "DefNew");
    assert_eq!(log.strings.get(p[2].collector), "Train MSC");
}

#[test]
fn promotion_failures_become_full_collections() {
    let text = "5.000: [GC 5.000: [ParNew (promotion failed): 118016K->118016K(118016K), 0.1000000 secs]5.100: [CMS: 120000K->80000K(131072K), 0.9000000 secs] 238000K->80000K(249088K), [CMS Perm : 2560K->2560K(21248K)], 1.0000000 secs]\n\
6.000: [GC-- [PSYoungGen: 100000K->100000K(100000K)] 300000K->310000K(320000K), 0.2000000 secs]\n";
    let p_log = one(text);
    let p = pauses(&p_log);
    assert_eq!(p[0].kind, Kind::Full);
    assert_eq!(p_log.strings.get(p[0].collector), "CMS");
    assert!(close(p[0].duration_ms, 1000.0));
    assert_eq!(p[1].kind, Kind::Young);
    assert!(close(p[1].duration_ms, 200.0));
}

#[test]
fn jdk131_generation_figures() {
    let log = one("[GC 30463K->3108K(1571712K) eden 30463K->0K survivor 0K->1152K tenured 0K->1956K, 0.1282309 secs]\n\
[Full GC invoke=1 size=80 <permanent generation full> 27606K->4744K(1571712K) new 25649K->0K(31616K) tenured 1956K->4744K(1540096K) permanent 5119K->5119K(5120K), 0.4287939 secs]\n");
    let p = pauses(&log);
    assert_eq!(p.len(), 2);
    assert_eq!(
        (p[0].heap_before_kb, p[0].heap_after_kb, p[0].heap_total_kb),
        (Some(30463), Some(3108), Some(1571712))
    );
    assert_eq!(p[1].kind, Kind::Full);
    assert_eq!(
        (p[1].heap_before_kb, p[1].heap_after_kb),
        (Some(27606), Some(4744))
    );
    assert!(close(p[1].duration_ms, 428.7939));
}

#[test]
fn cms_scavenge_before_remark_is_one_pause_with_a_nested_young_collection() {
    let text = "2015-05-14T18:55:12.588+0200: 1.157: [GC (CMS Final Remark) [YG occupancy: 10451 K (47936 K)]{Heap before GC invocations=22 (full 13):\n\
 par new generation   total 47936K, used 10451K [0x00000000f6400000, 0x00000000f9800000, 0x00000000f9800000)\n\
2015-05-14T18:55:12.588+0200: 1.158: [GC (CMS Final Remark) 1.158: [ParNew: 10451K->10451K(47936K), 0.0000303 secs] 111291K->111291K(154432K), 0.0000778 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n\
Heap after GC invocations=23 (full 13):\n\
}\n\
1.158: [Rescan (parallel) , 0.0002732 secs]1.158: [weak refs processing, 0.0000176 secs][1 CMS-remark: 100839K(106496K)] 111291K(154432K), 0.0019970 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n";
    let log = one(text);
    // One stop: the remark's 1.997 ms, which include the young collection's 0.0778 ms (1.158
    // to 1.1580778 lies in 1.157 to 1.158997).
    let p = pauses(&log);
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].kind, p[0].uptime_s), (Kind::Remark, Some(1.157)));
    assert!(close(p[0].duration_ms, 1.997));
    assert_eq!(log.strings.get(p[0].cause), "CMS Final Remark");
    let y = nested(&log);
    assert_eq!(y.len(), 1);
    assert_eq!((y[0].kind, y[0].uptime_s), (Kind::Young, Some(1.158)));
    assert!(close(y[0].duration_ms, 0.0778));
}

#[test]
fn safepoint_of_more_than_a_second_and_at_line_end() {
    let log = one("100.000: Total time for which application threads were stopped: 1.2345678 seconds, Stopping threads took: 0.0001000 seconds\n\
                   Total time for which application threads were stopped: ");
    let sp: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Safepoint)
        .collect();
    assert_eq!(sp.len(), 1);
    assert!(close(sp[0].duration_ms, 1234.5678));
    // The stamp is the end of the stop.
    assert!(close(sp[0].uptime_s.unwrap(), 100.0 - 1.2345678));
}

#[test]
fn bad_input_never_panics() {
    for input in [
        &b""[..],
        b"\xff\xfe\x00garbage\n[GC",
        b"[GC 1K->",
        b"[Full GC [[[[[[",
        b"]]]]] secs] [GC , secs]",
        b"12.3: [GC 12.3: [ParNew: 1K->2K(3K), 0.1 secs] 4K->5K(6K), 0.2 sec",
    ] {
        accounted(&parse(input));
    }
    // Random bytes, deterministic.
    let mut x: u64 = 0x9E3779B97F4A7C15;
    let mut buf = Vec::new();
    for _ in 0..20000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf.push(b"[]GC ->K(0123.,:s\n e"[(x % 20) as usize]);
    }
    accounted(&parse(&buf));
}

#[test]
fn truncated_last_event_still_counts_when_its_pause_is_there() {
    let log = one("1.0: [GC 1.0: [ParNew: 1K->2K(3K), 0.1 secs] 4K->5K(6K), 0.2000000 secs]\n2.0: [GC 2.0: [ParNew: 1K->2K(3K), 0.1 secs]");
    assert_eq!(pauses(&log).len(), 1);
    assert_eq!(log.skipped_lines, 1);
}

// ---------------------------------------------------------------------------------------------
// Hostile input: no panic, linear work, every line counted, no wrong value.
// ---------------------------------------------------------------------------------------------

#[test]
fn hostile_single_lines_never_panic_and_are_skipped() {
    // Format detection feeds single lines of any file (a README) to the parser.
    for line in [
        "notes: [CMS-concurrent-reset secs, then]",
        "1.0: [CMS-concurrent-reset secs, then]",
        "[GC",
        "[Full GC (",
        "[Full GC (Allocation",
        "[CMS-concurrent-x: /",
        "[CMS-concurrent-x: / secs]",
        "[CMS-concurrent-mark: 0.1/ secs]",
        "1.0: [GC concurrent-x: secs]",
        "[",
        "]",
        "#",
        "1.0: #",
        "[GC (a) (b",
        "[GC 1K->",
        "]]]] secs]",
        "[GC [GC [GC",
        "[GC ) secs]",
        "[Pause x, ms]",
        "1.0: [Pause Init Mark, 1e308 ms]",
        "Total time for which application threads were stopped: ",
        "Total time for which application threads were stopped: x seconds",
    ] {
        let log = one(line);
        assert_eq!(counts(&log), (1, 0, 0, 1), "{line:?}");
        assert!(log.events.is_empty(), "{line:?}");
        assert_eq!(log.bad[0].text, line);
    }
}

/// A one-line event and its `[Times: ...]`, 202 bytes.
const EVENT: &str = "2015-03-04T09:13:59.445+0100: 55047.616: [GC (Allocation Failure) [PSYoungGen: 540800K->1217K(617472K)] 592910K->53464K(2015744K), 0.0082230 secs] [Times: user=0.02 sys=0.00, real=0.01 secs]            ";

#[test]
fn a_two_megabyte_line_of_events_is_read_whole() {
    let n = MAX_EVENTS_PER_LINE;
    let line = EVENT.repeat(n);
    assert!(line.len() > 2_000_000);
    let log = one(&line);
    assert_eq!(log.events.len(), n);
    assert_eq!(counts(&log), (1, 1, 0, 0));
    assert!(log.events.iter().all(|e| close(e.duration_ms, 8.223)));
    assert!(log.events.iter().all(|e| e.uptime_s == Some(55047.616)));
}

#[test]
fn a_line_with_more_events_than_the_cap_is_damage() {
    let text = format!("{}\n{EVENT}\n", EVENT.repeat(MAX_EVENTS_PER_LINE + 1));
    let log = one(&text);
    // Line 1 is skipped whole, none of its events kept; line 2 is read.
    assert_eq!(counts(&log), (2, 1, 0, 1));
    assert_eq!(log.events.len(), 1);
    assert_eq!(log.events[0].line, 2);
    assert_eq!(log.bad[0].line, 1);
    // The same with concurrent phases, which are cut out before events are read.
    let conc = "1.0: [CMS-concurrent-mark: 0.006/0.007 secs] ";
    let log = one(&conc.repeat(MAX_EVENTS_PER_LINE + 1));
    assert_eq!((counts(&log), log.events.len()), ((1, 0, 0, 1), 0));
    let log = one(&conc.repeat(MAX_EVENTS_PER_LINE));
    assert_eq!(
        (counts(&log), log.events.len()),
        ((1, 1, 0, 0), MAX_EVENTS_PER_LINE)
    );
}

#[test]
fn deeply_nested_events_are_skipped_without_recursion() {
    let n = 50_000;
    // Never closed: an open event that never gets a pause.
    let log = one(&"[GC 1.0: ".repeat(n));
    assert_eq!((counts(&log), log.events.len()), ((1, 0, 0, 1), 0));
    // Closed: 50,000 whole events inside each other, each with its pause.
    let text = format!("{}{}", "[GC 1.0: ".repeat(n), "0.1 secs]".repeat(n));
    let log = one(&text);
    assert_eq!((counts(&log), log.events.len()), ((1, 0, 0, 1), 0));
    // Two levels, the least nesting that is damage; one level is read (below).
    let log = one("1.0: [GC 1.0: [GC 1.0: [GC 1.0: [ParNew: 1K->2K(3K), 0.1 secs] 1K->2K(3K), 0.2 secs] 4K->5K(6K), 0.3 secs] 4K->5K(6K), 0.4 secs]");
    assert_eq!((counts(&log), log.events.len()), ((1, 0, 0, 1), 0));
    // One per line: each open event is lost when the next starts.
    let log = one(&"1.0: [GC 1.0: [GC\n".repeat(n));
    assert_eq!(
        (counts(&log), log.events.len()),
        ((n as u64, 0, 0, n as u64), 0)
    );
}

#[test]
fn an_event_with_more_parts_than_any_real_one_is_damage() {
    let event = |n: usize| format!("1.0: [GC {}4K->5K(6K), 0.2000000 secs]", "[x] ".repeat(n));
    let log = one(&event(MAX_CHILDREN));
    assert_eq!((counts(&log), log.events.len()), ((1, 1, 0, 0), 1));
    let log = one(&event(MAX_CHILDREN + 1));
    assert_eq!((counts(&log), log.events.len()), ((1, 0, 0, 1), 0));
}

#[test]
fn one_nested_event_inside_an_event_is_read_as_a_nested_collection() {
    let log = one("1.157: [GC (CMS Final Remark) [YG occupancy: 10451 K (47936 K)]1.158: [GC (CMS Final Remark) 1.158: [ParNew: 10451K->10451K(47936K), 0.0000303 secs] 111291K->111291K(154432K), 0.0000778 secs]1.158: [Rescan (parallel) , 0.0002732 secs][1 CMS-remark: 100839K(106496K)] 111291K(154432K), 0.0019970 secs]");
    assert_eq!(kinds_ms(&log), [(Kind::Remark, 1.997)]);
    let y = nested(&log);
    assert_eq!(y.len(), 1);
    assert_eq!((y[0].kind, y[0].uptime_s), (Kind::Young, Some(1.158)));
    assert!(close(y[0].duration_ms, 0.0778));
    assert_eq!(counts(&log), (1, 1, 0, 0));
}

#[test]
fn control_bytes_inside_an_expression_skip_it() {
    // Read naively, `0.00\0 62122 secs` is a pause of 62,122 s.
    let log =
        one("1.0: [GC 1K->2K(3K), 0.00\0 62122 secs]\n2.0: [GC 1K->2K(3K), 0.0100000 secs]\n");
    assert_eq!(counts(&log), (2, 1, 0, 1));
    assert_eq!(pauses(&log).len(), 1);
    assert!(close(pauses(&log)[0].duration_ms, 10.0));
    // Over two lines: both lines of the event are skipped.
    let log =
        one("1.0: [GC 1.0: [ParNew: 1K->2K(3K), 0.1 secs]\n 4K->5K(6K), 0.00\x01 62122 secs]\n");
    assert_eq!((counts(&log), log.events.len()), ((2, 0, 0, 2), 0));
    // Concurrent phases, safepoints and Shenandoah lines alike.
    for line in [
        "1.0: [CMS-concurrent-mark: 0.1/0.00\0 5 secs]",
        "1.0: Total time for which application threads were stopped: 0.00\0 62122 seconds",
        "1.0: [Pause Init Mark\x7f, 3.341 ms]",
    ] {
        let log = one(line);
        assert_eq!(
            (counts(&log), log.events.len()),
            ((1, 0, 0, 1), 0),
            "{line:?}"
        );
    }
    // A tab is not damage.
    let log = one("1.0: [GC 1K->2K(3K),\t0.1000000 secs]");
    assert_eq!((counts(&log), log.events.len()), ((1, 1, 0, 0), 1));
}

#[test]
fn a_number_must_start_after_a_separator() {
    // `1e308 secs` is not 308 s (nor 1e308 s).
    for line in [
        "1.0: [GC 1K->2K(3K), 1e308 secs]",
        "1.0: [GC 1K->2K(3K), x0.5 secs]",
        "1.0: [GC 1K->2K(3K), -0.5 secs]",
        "1.0: [CMS-concurrent-mark: 0.1/1e308 secs]",
    ] {
        let log = one(line);
        assert_eq!(
            (counts(&log), log.events.len()),
            ((1, 0, 0, 1), 0),
            "{line:?}"
        );
    }
    // After `=`, `(`, `,` or a space it is one.
    let log = one("1.0: [GC 1K->2K(3K),0.5 secs]\n2.0: [GC 1K->2K(3K) real=0.25 secs]\n");
    let d: Vec<f64> = pauses(&log).iter().map(|e| e.duration_ms).collect();
    assert_eq!(d, vec![500.0, 250.0]);
}

#[test]
fn four_hundred_digit_figures_are_skipped_not_read() {
    let big = "9".repeat(400);
    for line in [
        format!("1.0: [GC 1K->2K(3K), {big} secs]"),
        format!("{big}: [GC 1K->2K(3K), 0.1 secs]"),
        format!("1.0: [GC {big}K->2K(3K), 0.1 secs]"),
        format!("1.0: [GC 1K->2K({big}K), 0.1 secs]"),
        format!("1.0: [CMS-concurrent-mark: 0.1/{big} secs]"),
        format!("1.0: Total time for which application threads were stopped: {big} seconds"),
        format!("1.0: [Concurrent marking, {big} ms]"),
    ] {
        let log = one(&line);
        assert_eq!(
            (counts(&log), log.events.len()),
            ((1, 0, 0, 1), 0),
            "{line}"
        );
    }
    // The G1 summary line carrying such a heap: the pause keeps its own figures.
    let log = one(&format!(
        "1.0: [GC pause (young), 0.0100000 secs]\n   [Eden: 1M(2M)->0B(2M) Survivors: 0B->1M Heap: {big}M(4M)->1M(4M)]\n"
    ));
    assert_eq!(counts(&log), (2, 1, 0, 1));
    assert_eq!(pauses(&log)[0].heap_before_kb, None);
    // Many leading zeros are not many digits.
    let log = one(&format!(
        "1.0: [GC 1K->2K(3K), {}0.5 secs]",
        "0".repeat(400)
    ));
    assert_eq!(pauses(&log)[0].duration_ms, 500.0);
}

#[test]
fn impossible_dates_are_not_wall_clock_stamps() {
    let log = one("2012-02-31T10:00:00.000+0100: 1.0: [GC 1K->2K(3K), 0.1 secs]\n2012-02-29T10:00:00.000+0100: 2.0: [GC 1K->2K(3K), 0.1 secs]\n");
    let p = pauses(&log);
    assert_eq!((p[0].wall_ms, p[0].uptime_s), (None, Some(1.0)));
    assert_eq!(
        crate::parse::num::format_wall_ms(p[1].wall_ms.unwrap()),
        "2012-02-29T10:00:00.000"
    );
}

#[test]
fn labels_are_cut_at_256_bytes_on_a_character_boundary() {
    let log = one(&format!(
        "1.0: [GC ({}) 1K->2K(3K), 0.1 secs]\n2.0: [GC ({}) 1K->2K(3K), 0.1 secs]\n",
        "x".repeat(1000),
        "€".repeat(400)
    ));
    let p = pauses(&log);
    assert_eq!(log.strings.get(p[0].cause), "x".repeat(256));
    // 85 three-byte characters are 255 bytes; the 86th would end past 256.
    assert_eq!(log.strings.get(p[1].cause), "€".repeat(85));
}

#[test]
fn an_open_event_holding_more_than_a_mebibyte_is_given_up() {
    let piece = format!("1K->2K {}\n", "x".repeat(4000));
    let event = |n: usize| {
        format!(
            "1.0: [GC 1.0: [ParNew: 1K->2K(3K), 0.1 secs]\n{}4K->5K(6K), 0.2000000 secs]\n",
            piece.repeat(n)
        )
    };
    // 200 lines of 4 KB: read, every line part of it.
    let log = one(&event(200));
    assert_eq!(counts(&log), (202, 202, 0, 0));
    assert!(close(pauses(&log)[0].duration_ms, 200.0));
    // 300 lines: past 1 MiB after 262 of them, given up; the lines after it are not an event.
    let log = one(&event(300));
    assert!(pauses(&log).is_empty());
    assert_eq!(counts(&log), (302, 0, 0, 302));
    assert_eq!(log.bad[0].line, 1);
}

#[test]
fn a_second_log_family_after_a_hotspot_log_is_skipped_line_by_line() {
    let hotspot = "0.294: [GC 0.294: [ParNew: 104960K->13042K(118016K), 0.0284337 secs] 104960K->34501K(249088K), 0.0285898 secs]\n\
0.500: [GC 0.500: [ParNew: 104960K->13042K(118016K), 0.0100000 secs] 104960K->34501K(249088K), 0.0100000 secs]\n";
    let parts: [(&str, u64); 4] = [
        (
            "[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
[INFO ][memory ] [YC#1] 0.536-0.547: YC 2048KB->1024KB (65536KB), 0.011 s, sum of pauses 10.520 ms\n\
[memory ][Tue Mar 12 10:15:02 2013][04711] heap size: 1048576K, maximal heap size: 1048576K\n\
[Wed Nov 16 15:02:13 2005][28637][memory ] GC strategy: parallel\n\
[gcpause] [YC#12] 1.000-1.108: pause 108.262 ms\n",
            5,
        ),
        (
            "[0.207s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n\
[2024-03-05T14:11:18.004+0100][0.004s][info][gc          ] Using G1\n\
[1,474s][info][safepoint         ] Total time for which application threads were stopped: 0,0001 seconds\n\
[info][gc] GC(1) Pause Full (System.gc()) 10M->5M(128M) 20.000ms\n\
[gc,start    ] GC(2) Pause Young (Normal) (G1 Evacuation Pause)\n",
            5,
        ),
        (
            "[2C6108C41B28CF16BBD1A9833FF14118];2012-10-05 12:00:03.530;16;1;15;1;saveOrder;\n\
[A2];2012-09-21 12:04:03.308;13;8;5;1;getContract;e- java.lang.OutOfMemoryError after [GC 1K->2K(3K), 0.1 secs]\n",
            2,
        ),
        (
            "1348221842468,75,Buy,200,OK,DayTrader Users 1-1,text,true,,3828,442,5,5,http://localhost:9080/daytrader/app?action=buy,68,0,0\n\
0, 0, 1, 1348221842308, 63, 0, 200, 5234, 0, 2, 0, 61, 1\n",
            2,
        ),
    ];
    for (foreign, n) in parts {
        let log = one(&format!("{hotspot}{foreign}{hotspot}"));
        assert_eq!(counts(&log), (4 + n, 4, 0, n), "{foreign}");
        assert_eq!(log.events.len(), 4, "{foreign}");
        assert!(log.events.iter().all(|e| e.record == Record::Pause));
    }
    // A foreign line while an event is open is skipped; the event still closes.
    let log = one("1.0: [GC 1.0: [ParNew: 1K->2K(3K), 0.1 secs]\n[memory ] 9.385: Nursery GC 1K->2K (3K), 1 ms\n 4K->5K(6K), 0.2000000 secs]\n");
    assert_eq!(counts(&log), (3, 2, 0, 1));
    assert!(close(pauses(&log)[0].duration_ms, 200.0));
}

#[test]
fn detail_lines_count_with_the_event_they_follow() {
    let g1 = "1.0: [GC pause (young), 0.0100000 secs]\n   [Parallel Time: 9.1 ms, GC Workers: 4]\n      [GC Worker Start (ms): Min: 1.5, Avg: 1.5, Max: 1.6, Diff: 0.1]\n   [Eden: 1024.0M(1024.0M)->0.0B(1024.0M) Survivors: 50.0M->50.0M Heap: 3122.3M(4096.0M)->2098.2M(4096.0M)]\n [Times: user=0.13 sys=0.00, real=0.03 secs]\n";
    let log = one(g1);
    assert_eq!(counts(&log), (5, 5, 0, 0));
    // Without an event before them (a log cut before it), or after a skipped one: ignored.
    let cut = g1.split_once('\n').unwrap().1;
    assert_eq!(counts(&one(cut)), (4, 0, 4, 0));
    let bad = g1.replace("0.0100000 secs", "1e308 secs");
    assert_eq!(counts(&one(&bad)), (5, 0, 4, 1));
    // Not HotSpot's brackets: `[INFO] ...`, a JRockit memory map line.
    let log = one("[INFO] Deserialization Total time: 18 ms\n [00000000a0000000 - 00000000e0000000] rw-- (pagesize=0x1000)\n");
    assert_eq!(counts(&log), (2, 0, 0, 2));
    // Indented JVM output is ignored; an indented piece of an event without its start is not.
    let log = one("  Using 2 of 2 workers for init marking\n (concurrent mode failure): 91890K->20323K(131072K), 0.0186232 secs]\n");
    assert_eq!(counts(&log), (2, 0, 1, 1));
}

/// Skipped lines per HotSpot file, and what the parser skipped before every line was counted
/// (where different, why).
const SKIPPED: &[(&str, u64)] = &[
    // Was 88 (issue 35: Shenandoah's settings, pacer notes and exit statistics are routine
    // lines); left: three `, [Metaspace: ...]` tails whose records the statistics cut off.
    ("SampleOpenJdk1_8_0-332.txt", 3),
    // Was 24: Shenandoah's exit statistics (issue 35).
    ("SampleOpenJdk1_8_0ShenandoahDetailsShutdown.txt", 0),
    // Was 15: PrintCMSInitiationStatistics' lines (issue 35).
    (
        "SampleSun1_7_0CMSTenuringDistributionInitiationStatistics.txt",
        0,
    ),
    ("SampleSun1_7_0G1_DateStamp_Detailed-mixedLine2.txt", 1),
    ("SampleSun1_7_0G1_PrintHeapAtGC_withConcurrent.txt", 1),
    ("SampleSun1_8_0Parallel_Apple.txt", 1),
    // Was 1: `:    [GC concurrent-mark-start]`, a stray `:` left beside a phase start.
    ("SampleSun1_6_0G1_Detailed-mixedLine3.txt", 0),
    // Was 4: concurrent phases after a PrintGCID stamp (`0.204: #4: [GC concurrent-...]`).
    ("SampleSun1_8_0G1PrintGCID.txt", 0),
];

#[test]
fn every_line_of_every_hotspot_fixture_and_corpus_file_is_counted_once() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("fixtures/hotspot"))
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    let corpus = root.join("../shared/corpus/gc/hotspot");
    match std::fs::read_dir(&corpus) {
        Ok(rd) => files.extend(rd.map(|e| e.expect("entry").path())),
        Err(_) => eprintln!("skipping the corpus: none at {}", corpus.display()),
    }
    files.sort();
    let mut lines = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let buf = crate::input::read(f).expect("readable");
        let log = parse(&buf);
        assert_eq!(log.lines, crate::parse::lines::count(&buf), "{name}");
        assert_eq!(
            log.lines,
            log.record_lines + log.ignored_lines + log.skipped_lines,
            "{name}: {:?}",
            counts(&log)
        );
        let want = SKIPPED.iter().find(|s| s.0 == name).map_or(0, |s| s.1);
        assert_eq!(log.skipped_lines, want, "{name}: {:?}", log.bad);
        lines += log.lines;
    }
    assert!(lines > 0);
}

// Issue 15: an event printed while another is open is nested in it only when the times say
// so. HotSpot logs have no comment lines (a free-text line would be skipped), so each
// fixture is described here.

/// Pauses (kind, ms) in the order read.
fn kinds_ms(log: &GcLog) -> Vec<(Kind, f64)> {
    pauses(log)
        .iter()
        .map(|e| (e.kind, e.duration_ms))
        .collect()
}

fn total(log: &GcLog) -> f64 {
    pauses(log).iter().map(|e| e.duration_ms).sum()
}

/// `cms-remark-printed-inside-open-parnew.log`, 13 lines: a CMS initial mark (15 ms, line
/// 1), a concurrent mark (lines 2-3), then a ParNew at 1295.880 (line 4) split by two
/// tenuring lines (5-6) and, on line 7, a whole remark stamped 1297.708 (148.442 ms) before
/// the ParNew's closing line 8 (`1.8214970 secs`). The ParNew ended at 1295.880 + 1.821497 =
/// 1297.701497, before the remark began (1297.708 > 1297.701497 + 0.001, the stamps'
/// precision; `real=1.83` agrees): two stops one after the other, each with its full time
/// (subtracting the remark gave 1673.055 ms). Lines 9-13: the same shape with an initial
/// mark at 1300.053 inside a ParNew that ran 1300.000 to 1300.0502 (12 ms and 50.2 ms).
#[test]
fn a_remark_printed_inside_an_open_parnew_that_had_ended_is_sequential() {
    let log = bytes(include_bytes!(
        "../../fixtures/hotspot/cms-remark-printed-inside-open-parnew.log"
    ));
    // Record lines 1-4, 7-9, 12-13; the four tenuring lines ignored.
    assert_eq!(counts(&log), (13, 9, 4, 0));
    let p = kinds_ms(&log);
    assert_eq!(p.len(), 5);
    // Each event is pushed when it closes: the remark before the ParNew around it.
    assert_eq!(p[0], (Kind::InitialMark, 15.0));
    assert_eq!(p[1].0, Kind::Remark);
    assert!(close(p[1].1, 148.442));
    assert_eq!(p[2].0, Kind::Young);
    assert!(close(p[2].1, 1821.497));
    assert_eq!(p[3], (Kind::InitialMark, 12.0));
    assert_eq!(p[4].0, Kind::Young);
    assert!(close(p[4].1, 50.2));
    let ps = pauses(&log);
    assert_eq!(
        (
            ps[1].uptime_s,
            ps[2].uptime_s,
            ps[3].uptime_s,
            ps[4].uptime_s
        ),
        (Some(1297.708), Some(1295.880), Some(1300.053), Some(1300.0))
    );
    // 15 + 148.442 + 1821.497 + 12 + 50.2.
    assert!(close(total(&log), 2047.139));
    let conc: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Concurrent)
        .collect();
    assert_eq!(conc.len(), 1);
    assert!(close(conc[0].duration_ms, 2485.0));
}

/// `cms-scavenge-before-remark.log`, 10 lines. Lines 1-8: a remark at 10.000 whose line is
/// cut by a heap dump (lines 2-3, ignored); its young collection (line 4, 10.000, 20.5 ms)
/// is split by tenuring lines (5-6, ignored) and closes on line 7; the remark closes on line
/// 8 with 35 ms, which include the young collection's 20.5 (10.000 to 10.0205 lies inside
/// 10.000 to 10.035): one stop of 35 ms, the young collection nested in it. Lines 9-10: the
/// one-line form, the young collection (20.000, 10.2 ms) inside the remark's brackets, the
/// remark 18 ms in all.
#[test]
fn scavenge_before_remark_ran_inside_the_remark_and_is_nested() {
    let log = bytes(include_bytes!(
        "../../fixtures/hotspot/cms-scavenge-before-remark.log"
    ));
    assert_eq!(counts(&log), (10, 6, 4, 0));
    assert_eq!(kinds_ms(&log), [(Kind::Remark, 35.0), (Kind::Remark, 18.0)]);
    let y = nested(&log);
    assert_eq!(
        (y.len(), y[0].kind, y[1].kind),
        (2, Kind::Young, Kind::Young)
    );
    assert!(close(y[0].duration_ms, 20.5) && close(y[1].duration_ms, 10.2));
    // Two stops of 35 and 18 ms, counted once each.
    assert!(close(total(&log), 53.0));
}

/// `cms-scavenge-before-remark-jdk8.log`, 9 lines, JDK 8 with `-XX:+CMSScavengeBeforeRemark`:
/// three header lines (ignored); a ParNew at 100.000 of 293.16 ms (line 4); an initial mark
/// at 110.000 of 50 ms (line 5); the concurrent mark (lines 6-7, 2000 ms); a remark opened at
/// 120.000 (line 8) holding a whole young collection at 120.000 of 159.0607 ms, closed on
/// line 9 with 362.9243 ms. The young collection ends at 120.1590607, inside the remark's
/// 120.000 to 120.3629243: one stop of 362.9243 ms, the longest pause (not 293.16, which
/// the remark less its young collection, 203.8636, would leave).
#[test]
fn jdk8_scavenge_before_remark_is_one_stop_of_the_remarks_duration() {
    let log = bytes(include_bytes!(
        "../../fixtures/hotspot/cms-scavenge-before-remark-jdk8.log"
    ));
    assert_eq!(counts(&log), (9, 6, 3, 0));
    let p = kinds_ms(&log);
    let kinds: Vec<Kind> = p.iter().map(|k| k.0).collect();
    assert_eq!(kinds, [Kind::Young, Kind::InitialMark, Kind::Remark]);
    for (got, want) in p.iter().zip([293.16, 50.0, 362.9243]) {
        assert!(close(got.1, want), "{got:?} != {want}");
    }
    let y = nested(&log);
    assert_eq!(y.len(), 1);
    assert_eq!((y[0].kind, y[0].uptime_s), (Kind::Young, Some(120.0)));
    assert!(close(y[0].duration_ms, 159.0607));
    assert_eq!(
        (y[0].heap_before_kb, y[0].heap_after_kb),
        (Some(3835802), Some(2700000))
    );
    // 293.16 + 50 + 362.9243
    assert!(close(total(&log), 706.0843));
}

/// `g1-full-gc-with-concurrent-lines.log`, 11 lines: an initial-mark young pause (10 ms,
/// lines 1-3 with its `[Eden: ...]` and `[Times: ...]`), the concurrent root-region scan
/// (lines 4-5, 12 ms) and mark start (line 6); then a Full GC opens on line 7 at 25.100,
/// with `[GC concurrent-mark-end, 0.3380000 secs]` printed inside it, the mark's abort
/// notice on line 8 (ignored: no duration) and the Full GC's figures on line 9 (1200 ms),
/// its detail lines 10-11. The concurrent phases are not pauses: nothing is subtracted from
/// the Full GC, and the mark keeps its 338 ms (25.012 to 25.350).
#[test]
fn a_g1_full_gc_interleaved_with_concurrent_lines_keeps_its_time() {
    let log = bytes(include_bytes!(
        "../../fixtures/hotspot/g1-full-gc-with-concurrent-lines.log"
    ));
    assert_eq!(counts(&log), (11, 10, 1, 0));
    // A G1 young pause that starts a marking cycle is an initial mark (issue 13: as unified
    // logging's `Pause Young (Concurrent Start)`).
    assert_eq!(
        kinds_ms(&log),
        [(Kind::InitialMark, 10.0), (Kind::Full, 1200.0)]
    );
    let full = pauses(&log)[1];
    assert_eq!(full.uptime_s, Some(25.1));
    assert_eq!(
        (full.heap_before_kb, full.heap_after_kb),
        (Some(1020 * 1024), Some(512 * 1024))
    );
    let conc: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Concurrent)
        .map(|e| (log.strings.get(e.name), e.duration_ms, e.uptime_s))
        .collect();
    assert_eq!(
        conc,
        [
            ("GC concurrent-root-region-scan-end", 12.0, Some(25.0)),
            ("GC concurrent-mark-end", 338.0, Some(25.012)),
        ]
    );
}

#[test]
fn nesting_is_decided_by_wall_clock_when_there_is_no_uptime() {
    // PrintGCDateStamps alone: the ParNew ran 12:00:00.000 to .500; a remark stamped .502
    // (more than a millisecond after its end) is sequential; one stamped .499 (its 0.5 ms
    // end within the ParNew's) is nested.
    let text = |remark: &str| {
        format!(
            "2024-01-01T12:00:00.000+0000: [GC 2024-01-01T12:00:00.000+0000: [ParNew\n\
             2024-01-01T12:00:00.{remark}+0000: [GC[YG occupancy: 3 K (7 K)][1 CMS-remark: 4K(9K)] 7K(16K), 0.0005000 secs]\n\
             : 7K->1K(7K), 0.4990000 secs] 9K->3K(16K), 0.5000000 secs]\n"
        )
    };
    let log = one(&text("502"));
    assert_eq!(kinds_ms(&log), [(Kind::Remark, 0.5), (Kind::Young, 500.0)]);
    assert!(nested(&log).is_empty());
    // Nested: one stop, the ParNew's 500 ms; the remark is a collection inside it.
    let log = one(&text("499"));
    assert_eq!(kinds_ms(&log), [(Kind::Young, 500.0)]);
    assert_eq!(nested(&log).len(), 1);
    assert_eq!(nested(&log)[0].kind, Kind::Remark);
}

#[test]
fn nesting_tolerance_is_the_stamps_precision() {
    // A ParNew at 5.00 (two decimals: a 10 ms unit) lasting 100 ms, and a remark printed
    // inside it that starts 5 ms after it ended: within the stamps' precision, nested. With
    // three decimals (5.000) the same remark is 5 ms past a 1 ms unit: sequential.
    let text = |start: &str, remark: &str| {
        format!(
            "{start}: [GC {start}: [ParNew\n\
             {remark}: [GC[YG occupancy: 3 K (7 K)][1 CMS-remark: 4K(9K)] 7K(16K), 0.0020000 secs]\n\
             : 7K->1K(7K), 0.0990000 secs] 9K->3K(16K), 0.1000000 secs]\n"
        )
    };
    let log = one(&text("5.00", "5.105"));
    assert_eq!(kinds_ms(&log), [(Kind::Young, 100.0)]);
    assert_eq!(nested(&log).len(), 1);
    let log = one(&text("5.000", "5.105"));
    assert_eq!(kinds_ms(&log), [(Kind::Remark, 2.0), (Kind::Young, 100.0)]);
    assert!(nested(&log).is_empty());
}

#[test]
fn without_stamps_print_order_decides_nesting() {
    // No clock to compare: an event printed inside another is taken to have run inside it.
    let log = one("[GC [ParNew\n\
                   [GC[YG occupancy: 3 K (7 K)][1 CMS-remark: 4K(9K)] 7K(16K), 0.0020000 secs]\n\
                   : 7K->1K(7K), 0.0990000 secs] 9K->3K(16K), 0.1000000 secs]\n");
    assert_eq!(kinds_ms(&log), [(Kind::Young, 100.0)]);
    assert_eq!(nested(&log).len(), 1);
    assert!(close(nested(&log)[0].duration_ms, 2.0));
}

// The scanners rewritten for speed, against the plain versions they replaced, on inputs
// made of the bytes and fragments they look for.

/// A small deterministic generator (xorshift).
struct Gen(u64);
impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A string of `n` pieces drawn from `parts`.
    fn text(&mut self, parts: &[&[u8]], n: u64) -> Vec<u8> {
        let mut v = Vec::new();
        for _ in 0..self.next() % n {
            v.extend_from_slice(parts[(self.next() % parts.len() as u64) as usize]);
        }
        v
    }
}

#[test]
fn glued_noise_cut_equals_searching_each_needle() {
    let reference = |line: &[u8], from: usize| -> usize {
        let mut end = line.len();
        for n in GLUED_NOISE {
            if let Some(i) = memchr::memmem::find(&line[from..end], n) {
                end = from + i;
            }
        }
        if end < line.len() && end > from + 1 && line[end - 1] == b'[' {
            end -= 1;
        }
        end
    };
    let mut parts: Vec<&[u8]> = vec![
        b"[GC ",
        b"0.1: ",
        b"[DefNew: 1K->2K(3K), 0.1 secs]",
        b"[",
        b"v",
        b"z",
        b"{",
        b"A",
        b"B",
        b"f",
        b"Size",
        b"Heap",
        b" GC:",
        b"survivor",
        b"Desired ",
        b"Adaptive",
        b"After",
        b"Before",
    ];
    parts.extend(GLUED_NOISE);
    for n in GLUED_NOISE {
        assert!(glued_noise_in(n), "{}", String::from_utf8_lossy(n));
        assert!(!glued_noise_in(&n[1..]) && !glued_noise_in(&n[..n.len() - 1]));
    }
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    for _ in 0..50_000 {
        let line = g.text(&parts, 12);
        let from = (g.next() as usize) % (line.len() + 1);
        assert_eq!(
            cut_glued_noise(&line, from).len(),
            reference(&line, from),
            "{:?} from {from}",
            String::from_utf8_lossy(&line)
        );
    }
}

#[test]
fn control_bytes_found_as_byte_by_byte() {
    let mut g = Gen(0x2545_f491_4f6c_dd1d);
    for _ in 0..100_000 {
        let len = (g.next() % 90) as usize;
        let v: Vec<u8> = (0..len)
            .map(|_| match g.next() % 40 {
                0 => (g.next() % 0x20) as u8,
                1 => 0x7f,
                2 => b'\t',
                3 => 0x80 + (g.next() % 0x80) as u8,
                _ => b' ' + (g.next() % 0x5f) as u8,
            })
            .collect();
        let want = v.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f);
        assert_eq!(has_control(&v), want, "{v:?}");
    }
}

#[test]
fn concurrent_records_found_as_by_three_searches() {
    let parts: &[&[u8]] = &[
        b"[CMS-concurrent-mark: 0.1/0.1 secs]",
        b"[GC concurrent-mark-start]",
        b"[ASCMS-concurrent-sweep]",
        b"concurrent-",
        b"CMS-",
        b"[GC ",
        b"[AS",
        b"[",
        b"1.0: ",
        b"x",
    ];
    let reference = |line: &[u8], pos: usize| {
        [
            &b"[CMS-concurrent-"[..],
            b"[GC concurrent-",
            b"[ASCMS-concurrent-",
        ]
        .iter()
        .filter_map(|n| memchr::memmem::find(&line[pos..], n).map(|i| pos + i))
        .min()
    };
    let mut g = Gen(0x1234_5678_9abc_def1);
    for _ in 0..50_000 {
        let line = g.text(parts, 10);
        let pos = (g.next() as usize) % (line.len() + 1);
        assert_eq!(
            next_concurrent_open(&line, pos, None),
            reference(&line, pos),
            "{:?} from {pos}",
            String::from_utf8_lossy(&line)
        );
    }
}

#[test]
fn split_closes_where_the_brackets_balance() {
    let parts: &[&[u8]] = &[b"[", b"]", b"[GC ", b"x", b"1.0: ", b"[DefNew: 1K->2K(3K)]"];
    let mut g = Gen(0x0dd_ba11_cafe_f00d);
    let (mut top, mut children) = (Vec::new(), Vec::new());
    for _ in 0..50_000 {
        let mut text = b"[".to_vec();
        text.extend(g.text(parts, 12));
        let end = split(&text, &mut top, &mut children).expect("few children");
        assert_eq!(
            end,
            balanced_end(&text),
            "{:?}",
            String::from_utf8_lossy(&text)
        );
        // Every child lies inside the expression, between its brackets.
        let limit = end.unwrap_or(text.len());
        assert!(children.iter().all(|&(a, b)| a <= b && b < limit));
    }
}

#[test]
fn a_g1_logs_full_gc_is_g1s_and_a_bare_full_gc_names_no_collector() {
    // JDK 8 G1 with details: the full GC's line names no generation.
    let log = one(
        "1.000: [GC pause (G1 Evacuation Pause) (young), 0.0100000 secs]\n\
         2.000: [Full GC (Allocation Failure)  4095M->3000M(4096M), 2.5000000 secs]\n",
    );
    let coll: Vec<&str> = log
        .events
        .iter()
        .map(|e| log.strings.get(e.collector))
        .collect();
    assert_eq!(coll, ["G1", "G1"]);
    assert_eq!(log.events[1].kind, Kind::Full);
    // The same line in a log without G1 pauses (`-verbose:gc` of any collector): unknown.
    let log = one("2.000: [Full GC 4095K->3000K(4096K), 2.5000000 secs]\n");
    assert_eq!(log.strings.get(log.events[0].collector), "");
    // A named generation is kept, G1 or not.
    let log = one(
        "1.000: [GC pause (G1 Evacuation Pause) (young), 0.0100000 secs]\n\
         2.000: [Full GC [PSYoungGen: 100K->0K(200K)] 300K->150K(600K), 0.2000000 secs]\n",
    );
    assert_eq!(log.strings.get(log.events[1].collector), "PSYoungGen");
}

// Issue 13.

/// JDK 8 G1 `(young) (initial-mark)`: `initial-mark`, as unified logging's `Pause Young
/// (Concurrent Start)`; `(mixed)` stays mixed, a plain `(young)` young.
#[test]
fn g1_initial_mark_pause_is_initial_mark() {
    let log = one(
        "2.410: [GC pause (G1 Humongous Allocation) (young) (initial-mark), 0.0100000 secs]\n\
3.000: [GC pause (G1 Evacuation Pause) (young), 0.0200000 secs]\n\
4.000: [GC pause (G1 Evacuation Pause) (mixed), 0.0300000 secs]\n",
    );
    let p = pauses(&log);
    assert_eq!(
        p.iter().map(|e| e.kind).collect::<Vec<_>>(),
        [Kind::InitialMark, Kind::Young, Kind::Mixed]
    );
    assert_eq!(log.strings.get(p[0].cause), "G1 Humongous Allocation");
    let unified = crate::parse::parse_one(crate::parse::unified::FAMILY,
        b"[2.410s][info][gc] GC(0) Pause Young (Concurrent Start) (G1 Humongous Allocation) 10M->5M(20M) 10.000ms\n",
    );
    assert_eq!(unified.events[0].kind, Kind::InitialMark);
}

/// `fixtures/hotspot/cms-printgcid.log`: the `#N: ` GC ids of -XX:+PrintGCID are not
/// uptimes: pauses at 0.100, 0.115, 0.127, 0.168 (11, 2, 40, 3 ms), concurrent phases from
/// their `-start` lines (0.117, 0.125, 0.171, 0.176; 8, 1, 5, 8 ms). They are the events'
/// `gc_id`s: the young GCs #0 and #2, the CMS cycle #1 (its initial mark, remark and phases).
#[test]
fn cms_printgcid_fixture() {
    let log = bytes(include_bytes!("../../fixtures/hotspot/cms-printgcid.log"));
    assert_eq!(log.skipped_lines, 0);
    let p = pauses(&log);
    let got: Vec<(Kind, f64, f64)> = p
        .iter()
        .map(|e| (e.kind, e.uptime_s.unwrap(), e.duration_ms))
        .collect();
    let want = [
        (Kind::Young, 0.100, 11.0),
        (Kind::InitialMark, 0.115, 2.0),
        (Kind::Young, 0.127, 40.0),
        (Kind::Remark, 0.168, 3.0),
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert!(
            g.0 == w.0 && close(g.1, w.1) && close(g.2, w.2),
            "{g:?} != {w:?}"
        );
    }
    let c: Vec<(f64, f64)> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Concurrent)
        .map(|e| (e.uptime_s.unwrap(), e.duration_ms))
        .collect();
    let want = [(0.117, 8.0), (0.125, 1.0), (0.171, 5.0), (0.176, 8.0)];
    assert_eq!(c.len(), 4);
    for (g, w) in c.iter().zip(&want) {
        assert!(close(g.0, w.0) && close(g.1, w.1), "{g:?} != {w:?}");
    }
    // No event anywhere near the `#2:` a misread id would give.
    assert!(log.events.iter().all(|e| e.uptime_s.unwrap() < 0.2));
    let ids: Vec<Option<u64>> = p.iter().map(|e| e.gc_id).collect();
    assert_eq!(ids, [Some(0), Some(1), Some(2), Some(1)]);
    assert!(log
        .events
        .iter()
        .filter(|e| e.record == Record::Concurrent)
        .all(|e| e.gc_id == Some(1)));
    // Without PrintGCID, no id.
    let plain = one("0.100: [GC (Allocation Failure) 0.100: [ParNew: 2752K->320K(3072K), 0.0100000 secs] 2752K->1500K(9920K), 0.0110000 secs]\n");
    assert_eq!(pauses(&plain)[0].gc_id, None);
}

/// `Stopping threads took:` is the safepoint's time to safepoint.
#[test]
fn safepoint_reach_of_jdk8() {
    let log = one("1.223: Total time for which application threads were stopped: 0.0127000 seconds, Stopping threads took: 0.0000310 seconds\n\
2.620: Total time for which application threads were stopped: 0.0239000 seconds\n");
    let s: Vec<Option<f64>> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Safepoint)
        .map(|e| e.ttsp_ms)
        .collect();
    assert_eq!(s.len(), 2);
    assert!(close(s[0].unwrap(), 0.031));
    assert_eq!(s[1], None);
}

#[test]
fn bracket_depth_is_counted_across_chunks() {
    // 40,000 opening brackets cross the 16 K chunks the count is summed in; the closing ones
    // and other bytes between them.
    let mut s = vec![b'['; 40_000];
    assert_eq!(depth_of(&s), 40_000);
    s.extend(std::iter::repeat_n(b']', 39_999));
    s.extend_from_slice(b"x[y]z]");
    assert_eq!(depth_of(&s), 0);
    assert_eq!(depth_of(b"1.0: [GC [ParNew: 1K->0K(2K)"), 2);
    assert_eq!(depth_of(b""), 0);
}

#[test]
fn noise_words_are_found_anywhere_in_a_line() {
    for (t, want) in [
        (&b"a [0x00000000f8000000, 0x0000000100000000)"[..], true),
        (b"0x12 without its bracket", false),
        (b"2016-01-01 GC log file created /tmp/gc.log", true),
        (b"GC log fil", false),
        (b"x 1.0: [PSAdaptiveSizeStart: 2.0]", true),
        (b"AdaptiveSiz", false),
        (b"fz x fff zzz", false),
        (b"", false),
    ] {
        assert_eq!(holds_noise_word(t), want, "{}", String::from_utf8_lossy(t));
    }
}

/// Lines HotSpot's routine print options write (issue 35), one of each shape: whatever the
/// option, a line counted as ignored, never as not understood, and the records around it
/// read as without it.
const ROUTINE: &[&str] = &[
    // PrintCMSInitiationStatistics
    "CMSCollector shouldConcurrentCollect: 10.021",
    "time_until_cms_gen_full 12.3456789",
    "free=823456789",
    "contiguous_available=812345678",
    "promotion_rate=1.23456e+07",
    "cms_allocation_rate=0",
    "occupancy=0.3456789",
    "initiatingOccupancy=0.7500000",
    "initiatingPermOccupancy=0.9200000",
    "cms_time_since_begin=5.1234567",
    "cms_time_since_end=4.0123456",
    "metadata initialized 0",
    // PrintCMSStatistics
    " (cardTable: 12 cards, re-scanned 12 cards, 1 iterations)",
    "Finished cms space scanning in 1th thread: 0.050 sec",
    "Finished young gen rescan work in 0th thread: 0.002 sec",
    "CMS marking stack overflow (benign) at 4194304",
    "Marking stack overflow (benign) (pmc_pc=0, pmc_rm=12, kac=0, kac_preclean=0)",
    "Work queue overflow (benign) (pmc_rm=1542, kac=0)",
    // PrintFLSStatistics
    "Statistics for BinaryTreeDictionary:",
    "Total Free Space: 98000000",
    "Tree      Height: 1",
    "CMS: Large Block: 0x00000007bd6b71f0; Proximity: 0x00000007560c73f0 -> 0x00000007580cee20",
    "CMS: Large block 0x00000007bd658970",
    // PrintTenuringDistribution, PrintAdaptiveSizePolicy
    "Desired survivor size 4358144 bytes, new threshold 6 (max 6)",
    "- age   1:    2100000 bytes,    2100000 total",
    "AdaptiveSizeStop: collection: 1 ",
    // PrintClassHistogram*FullGC
    " num     #instances         #bytes  class name",
    "   1:         52496       12345678  [C",
    "   2:         12000        2345678  [Ljava.lang.Object;",
    "1000:             1             16  com.example.Foo",
    "Total        117497       16555372",
    // PrintSafepointStatistics
    "         vmop                    [threads: total initially_running wait_to_block]    [time: spin block sync cleanup vmop] page_trap_count",
    "9.999: GenCollectForAllocation          [      25          1              1    ]      [     0     0     0     0    20    ]  0   ",
    "Polling page always armed",
    "GenCollectForAllocation            2",
    "Maximum sync time      0 ms",
    // PrintJNIGCStalls
    "15.000: Setting _needs_gc. Thread \"main\" 1 locked.",
    "15.001: Allocation failed. Thread \"worker-1\" is stalled by JNI critical section, 1 locked.",
    "15.002: Thread \"main\" is performing GC after exiting critical section, 0 locked",
    "Allocation failed. Thread \"worker-1\" is stalled by JNI critical section.",
    // PrintParallelOldGCPhaseTimes, PrintOldPLAB, PrintGCTaskTimeStamps, PrintTLAB
    "15.000: [pre compact, 0.0000390 secs]",
    "0[3]: 6/61264/16",
    "[3]: 65",
    "VM-Thread 12345678901 12345679001 12345680001",
    "GC-Thread 0 entries: 3",
    "\t[ steal-task 12345679000 12345679500 ]",
    "TLAB: gc thread: 0x00007f2a4c00a800 [id: 12345] desired_size: 512KB slow allocs: 0  refill waste: 8192B alloc: 0.99999    25600KB refills: 1 waste  0.3% gc: 1560B slow: 0B fast: 0B",
    "TLAB totals: thrds: 2  refills: 41 max: 40 slow allocs: 2 max 2 waste:  1.4% gc: 31560B max: 30000B slow: 2000B max: 2000B fast: 0B max: 0B",
    // CMSDumpAtPromotionFailure
    "=========================",
    "Block layout in CMS Heap:",
    "0x00000006c5330000: live object of size 12.",
    "0x00000006c5330080: free block of size 1024.",
    // PrintCompressedOopsMode, PrintCommandLineFlags, the GC locker, the overhead limit
    "heap address: 0x00000006c0000000, size: 4096 MB, Compressed Oops mode: Zero based, Oop shift amount: 3",
    "Narrow klass base: 0x0000000000000000, Narrow klass shift: 3",
    "-XX:InitialHeapSize=268435456 -XX:MaxHeapSize=4294967296 -XX:+PrintCommandLineFlags -XX:+UseParallelGC ",
    "GC locker: Trying a full collection because scavenge failed",
    "GC time would exceed GCTimeLimit of 98%",
    // Shenandoah's own output in a JDK 8 log
    "Pacer for Idle. Initial: 81735K, Alloc Tax Rate: 1.0x",
    "Trigger: Free (398M) is below minimum threshold (399M) ",
    "Pause Init Mark (G)                8027 us",
    "Concurrent Marking          =  8083.29 s (a =  4155932 us) (n =  1945) (lvls, us =  3183594,  4121094,  4140625,  4179688,  4427827)",
    "1945 successful and 0 degenerated concurrent markings",
];

/// Each routine line between two ParNew collections, inside an open one (where tenuring
/// output goes), and inside an open Parallel young collection: ignored, and the records as
/// without it — 20.5 + 18.5 ms of ParNew (heap after 410000 and 418000 K), 18.32 + 15 ms of
/// PSYoungGen (5104 and 9000 K).
#[test]
fn routine_print_option_lines_are_ignored_wherever_they_fall() {
    let r1 = "10.000: [GC (Allocation Failure) 10.000: [ParNew: 52000K->8000K(76672K), 0.0200000 secs] 452000K->410000K(1256320K), 0.0205000 secs] [Times: user=0.06 sys=0.00, real=0.02 secs]";
    let r2 = "20.000: [GC (Allocation Failure) 20.000: [ParNew: 60000K->7000K(76672K), 0.0180000 secs] 470000K->418000K(1256320K), 0.0185000 secs] [Times: user=0.05 sys=0.00, real=0.02 secs]";
    let open = "10.000: [GC (Allocation Failure) 10.000: [ParNew";
    let close_ = ": 52000K->8000K(76672K), 0.0200000 secs] 452000K->410000K(1256320K), 0.0205000 secs] [Times: user=0.06 sys=0.00, real=0.02 secs]";
    let ps_open = "10.000: [GC (Allocation Failure) ";
    let ps_close = " [PSYoungGen: 33280K->5096K(38400K)] 33280K->5104K(125952K), 0.0183200 secs] [Times: user=0.05 sys=0.01, real=0.02 secs]";
    let ps2 = "20.000: [GC (Allocation Failure) [PSYoungGen: 38376K->5088K(38400K)] 38384K->9000K(125952K), 0.0150000 secs] [Times: user=0.04 sys=0.00, real=0.02 secs]";
    let read = |log: &GcLog| -> Vec<(String, f64, Option<u64>)> {
        pauses(log)
            .iter()
            .map(|e| {
                (
                    log.strings.get(e.collector).to_string(),
                    (e.duration_ms * 1e4).round() / 1e4,
                    e.heap_after_kb,
                )
            })
            .collect()
    };
    let parnew = |a: u64, b: u64| {
        vec![
            ("ParNew".to_string(), 20.5, Some(a)),
            ("ParNew".to_string(), 18.5, Some(b)),
        ]
    };
    for line in ROUTINE {
        let between = one(&format!("{r1}\n{line}\n{r2}\n"));
        assert_eq!(counts(&between), (3, 2, 1, 0), "between: {line}");
        assert_eq!(read(&between), parnew(410000, 418000), "between: {line}");
        let inside = one(&format!("{open}\n{line}\n{close_}\n{r2}\n"));
        assert_eq!(counts(&inside), (4, 3, 1, 0), "inside ParNew: {line}");
        assert_eq!(
            read(&inside),
            parnew(410000, 418000),
            "inside ParNew: {line}"
        );
        let ps = one(&format!("{ps_open}\n{line}\n{ps_close}\n{ps2}\n"));
        assert_eq!(counts(&ps), (4, 3, 1, 0), "inside PSYoungGen: {line}");
        assert_eq!(
            read(&ps),
            vec![
                ("PSYoungGen".to_string(), 18.32, Some(5104)),
                ("PSYoungGen".to_string(), 15.0, Some(9000)),
            ],
            "inside PSYoungGen: {line}"
        );
    }
}

/// A line shaped like print-option output that also holds a record's marks is not taken for
/// it: damage to a record stays not understood, and a record stays a record.
#[test]
fn print_option_shapes_holding_a_record_are_not_ignored() {
    for line in [
        "occupancy=0.5 1000K->500K(2000K)",
        "Total        117497       16555372 1000K->500K(2000K)",
        "Finished 1000K->500K(2000K) in 1th thread: 0.050 sec",
    ] {
        let log = one(&format!("{line}\n"));
        assert_eq!(counts(&log), (1, 0, 0, 1), "{line}");
    }
    // A whole collection after the shape: read.
    let log = one("TLAB totals: thrds: 2 [GC 1000K->500K(2000K), 0.0100000 secs]\n");
    assert_eq!(counts(&log), (1, 1, 0, 0));
    assert_eq!(kinds_ms(&log), [(Kind::Young, 10.0)]);
}

/// A class histogram inside a full GC (`-XX:+PrintClassHistogramBeforeFullGC`/`AfterFullGC`),
/// its array classes' rows (`[C`) holding brackets: the full GC is read whole, 495 ms of CMS,
/// heap 420000 -> 300000 K; the rows and `Total` lines ignored.
#[test]
fn a_class_histogram_inside_a_full_gc_leaves_it_whole() {
    let log = one("15.000: [Full GC (System.gc()) 15.000: [Class Histogram (before full gc): \n\
 num     #instances         #bytes  class name\n\
----------------------------------------------\n\
   1:         52496       12345678  [C\n\
   2:         12000        2345678  [Ljava.lang.Object;\n\
   3:         51000        1224000  java.lang.String\n\
Total        115496       15915356\n\
, 0.0500000 secs]\n\
15.050: [CMS: 400000K->300000K(1179648K), 0.4000000 secs] 420000K->300000K(1256320K), [Metaspace: 3000K->3000K(1056768K)], 0.4950000 secs] [Times: user=0.50 sys=0.00, real=0.50 secs]\n");
    assert_eq!(log.skipped_lines, 0, "{:?}", log.bad);
    let p = pauses(&log);
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].kind, log.strings.get(p[0].collector)),
        (Kind::Full, "CMS")
    );
    assert!(close(p[0].duration_ms, 495.0));
    assert_eq!(
        (p[0].heap_before_kb, p[0].heap_after_kb),
        (Some(420000), Some(300000))
    );
}

/// Print options' output glued onto a generation's name (`[ParNew10.015: [SoftReference...`
/// with PrintReferenceGC, `[ParNew0[3]: ...` with PrintOldPLAB) leaves the name as it is.
#[test]
fn output_glued_onto_a_generation_keeps_its_name() {
    for glued in [
        "10.015: [SoftReference, 0 refs, 0.0000100 secs]10.015: [WeakReference, 3 refs, 0.0000200 secs]",
        "0[3]: 6/61264/16",
    ] {
        let log = one(&format!("10.000: [GC (Allocation Failure) 10.000: [ParNew{glued}: 52000K->8000K(76672K), 0.0200000 secs] 452000K->410000K(1256320K), 0.0205000 secs]\n"));
        let p = pauses(&log);
        assert_eq!(p.len(), 1, "{glued}");
        assert_eq!(log.strings.get(p[0].collector), "ParNew", "{glued}");
        assert_eq!(p[0].young_after_kb, Some(8000), "{glued}");
    }
}

/// The hand-written scanners the grammar (`hotspot_grammar.rs`) replaced, kept as the
/// reference it must read exactly as (issue 36: every output stays the same).
mod scanner {
    use super::{find_arrow, float_prefix};
    use crate::parse::num::size_kb_prefix;

    pub fn number_before(s: &[u8], at: usize) -> Option<(f64, u8)> {
        let mut j = at;
        while j > 0 && (s[j - 1].is_ascii_digit() || s[j - 1] == b'.' || s[j - 1] == b',') {
            j -= 1;
        }
        while j < at && s[j] == b',' {
            j += 1;
        }
        let before = if j == 0 { 0 } else { s[j - 1] };
        if j == at || !matches!(before, 0 | b' ' | b'\t' | b',' | b'=' | b'(' | b'/' | b':') {
            return None;
        }
        match float_prefix(&s[j..at]) {
            Some((v, n)) if n == at - j => Some((v, before)),
            _ => None,
        }
    }

    pub fn heap_triple(s: &[u8]) -> Option<(u64, u64, Option<u64>)> {
        let mut from = 0;
        while let Some(rel) = find_arrow(&s[from..]) {
            let arrow = from + rel;
            let mut j = arrow;
            if j > 0 && matches!(s[j - 1], b'B' | b'K' | b'M' | b'G') {
                j -= 1;
                if j > 0 && matches!(s[j - 1], b'K' | b'M' | b'G') {
                    j -= 1;
                }
            }
            while j > 0 && (s[j - 1].is_ascii_digit() || s[j - 1] == b'.') {
                j -= 1;
            }
            let after_s = &s[arrow + 2..];
            if let (Some((before, _)), Some((after, n))) =
                (size_kb_prefix(&s[j..arrow]), size_kb_prefix(after_s))
            {
                let total = match after_s.get(n) {
                    Some(b'(') => size_kb_prefix(&after_s[n + 1..]).map(|(v, _)| v),
                    _ => None,
                };
                return Some((before, after, total));
            }
            from = arrow + 2;
        }
        None
    }
}

/// Pieces of event text, and the bytes that end or bend a figure, for the comparisons below.
const RECORD_PARTS: &[&[u8]] = &[
    b"[",
    b"]",
    b"(",
    b")",
    b" ",
    b"GC",
    b"GC ",
    b"Full GC",
    b"GC pause",
    b"GC--",
    b"GC remark",
    b"GC cleanup",
    b"x",
    b"-",
    b"->",
    b"1",
    b"12",
    b"0.5",
    b".",
    b",",
    b"K",
    b"M",
    b"B",
    b"G",
    b"KB",
    b"e",
    b" secs",
    b"/",
    b":",
    b"=",
    b"\t",
    b"(young)",
    b"(Allocation Failure)",
    b"[DefNew: 1K->2K(3K), 0.1 secs]",
    b"1024K->512K(2048K)",
    b", 0.0123 secs",
    b"[Times:",
    b" [Times: user=0.01 sys=0.00, real=0.02 secs]",
    b"[Eden: ",
    b"Survivors: ",
    b"24.0M(24.0M)",
];

#[test]
fn the_figure_grammars_read_as_the_scanners() {
    let mut g = Gen(0x0f16_0000_0bad_f00d);
    for _ in 0..300_000 {
        let text = g.text(RECORD_PARTS, 10);
        let show = String::from_utf8_lossy(&text);
        assert_eq!(heap_triple(&text), scanner::heap_triple(&text), "{show:?}");
        for at in memchr::memmem::find_iter(&text, b" secs") {
            let got = number_before(&text, at).map(|(v, b)| (v.to_bits(), b));
            let want = scanner::number_before(&text, at).map(|(v, b)| (v.to_bits(), b));
            assert_eq!(got, want, "{show:?} at {at}");
        }
    }
}

/// Each date stamp's own offset, in quarter hours: across the 2016 Berlin spring DST change
/// (+0100, then +0200), a stamp without an offset, and no date stamp at all. `wall_ms` stays
/// the local time as written (2016-03-27T00:00Z is 1_459_036_800_000).
#[test]
fn each_date_stamp_carries_its_own_offset() {
    let log = parse(
        b"2016-03-27T01:59:59.500+0100: 10.000: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0100000 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]\n\
2016-03-27T03:00:01.250+0200: 12.750: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0100000 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]\n\
2016-03-27T03:00:02.000+0200: 13.500: Total time for which application threads were stopped: 0.0010000 seconds, Stopping threads took: 0.0000100 seconds\n\
2016-03-27T03:00:03.000: 14.000: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0100000 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]\n\
15.000: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->12456K(251392K), 0.0100000 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]\n",
    );
    let got: Vec<(Record, Option<i64>, Option<i8>)> = log
        .events
        .iter()
        .map(|e| (e.record, e.wall_ms, e.utc_offset_qh))
        .collect();
    assert_eq!(
        got,
        [
            // 01:59:59.500 (7,199,500 ms into the day) at +0100.
            (Record::Pause, Some(1_459_043_999_500), Some(4)),
            // 03:00:01.250 at +0200.
            (Record::Pause, Some(1_459_047_601_250), Some(8)),
            // The stop's end, 03:00:02.000, less its 1 ms.
            (Record::Safepoint, Some(1_459_047_601_999), Some(8)),
            // A date written without an offset.
            (Record::Pause, Some(1_459_047_603_000), None),
            (Record::Pause, None, None),
        ]
    );
}

/// Each G1 `[Eden: ...]` summary gives its heap to the last pause before it, however many
/// safepoints came between; a later summary of the same pause overwrites it; after a damaged
/// line (its events taken back) the pause before it is found again.
#[test]
fn g1_summaries_go_to_the_last_pause_past_safepoints() {
    let sp = |t: f64| {
        format!("{t:.3}: Total time for which application threads were stopped: 0.0001000 seconds, Stopping threads took: 0.0000100 seconds\n")
    };
    let eden = |b: u64, a: u64| {
        format!("   [Eden: 1.0M(2.0M)->0.0B(2.0M) Survivors: 0.0B->0.0B Heap: {b}.0M(512.0M)->{a}.0M(512.0M)]\n")
    };
    let mut text =
        String::from("1.000: [GC pause (G1 Evacuation Pause) (young), 0.0100000 secs]\n");
    text += &eden(10, 9);
    for i in 0..50u32 {
        text += &sp(2.0 + f64::from(i) * 0.01);
    }
    text += &eden(8, 7);
    text += "3.000: [GC pause (G1 Evacuation Pause) (young), 0.0200000 secs]\n";
    for i in 0..50u32 {
        text += &sp(4.0 + f64::from(i) * 0.01);
        text += &eden(100 + u64::from(i), 50 + u64::from(i));
    }
    text += "5.000: [GC pause (G1 Evacuation Pause) (young), 0.0300000 secs]\n";
    text += &eden(300, 200);
    // More events on one line than a JVM prints: all taken back, the line skipped.
    text += &"6.000: [GC pause (young), 0.0010000 secs]".repeat(10_001);
    text += "\n";
    text += &sp(7.0);
    text += &eden(400, 300);
    let log = one(&text);
    let heaps: Vec<_> = pauses(&log)
        .iter()
        .map(|e| (e.heap_before_kb, e.heap_after_kb))
        .collect();
    let kb = |m: u64| Some(m * 1024);
    assert_eq!(
        heaps,
        vec![(kb(8), kb(7)), (kb(149), kb(99)), (kb(400), kb(300))]
    );
    assert_eq!(log.skipped_lines, 1);
}
