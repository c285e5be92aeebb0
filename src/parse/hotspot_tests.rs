use super::*;
use crate::model::Kind;

fn one(s: &str) -> GcLog {
    parse(s.as_bytes())
}

fn pauses(log: &GcLog) -> Vec<&GcEvent> {
    log.events
        .iter()
        .filter(|e| e.record == Record::Pause)
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
            Kind::Young,
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
fn cms_scavenge_before_remark_counts_both_pauses() {
    let text = "2015-05-14T18:55:12.588+0200: 1.157: [GC (CMS Final Remark) [YG occupancy: 10451 K (47936 K)]{Heap before GC invocations=22 (full 13):\n\
 par new generation   total 47936K, used 10451K [0x00000000f6400000, 0x00000000f9800000, 0x00000000f9800000)\n\
2015-05-14T18:55:12.588+0200: 1.158: [GC (CMS Final Remark) 1.158: [ParNew: 10451K->10451K(47936K), 0.0000303 secs] 111291K->111291K(154432K), 0.0000778 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n\
Heap after GC invocations=23 (full 13):\n\
}\n\
1.158: [Rescan (parallel) , 0.0002732 secs]1.158: [weak refs processing, 0.0000176 secs][1 CMS-remark: 100839K(106496K)] 111291K(154432K), 0.0019970 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n";
    let log = one(text);
    let p = pauses(&log);
    assert_eq!(p.len(), 2);
    assert_eq!((p[0].kind, p[0].uptime_s), (Kind::Young, Some(1.158)));
    assert!(close(p[0].duration_ms, 0.0778));
    assert_eq!((p[1].kind, p[1].uptime_s), (Kind::Remark, Some(1.157)));
    // The remark's 1.997 ms include the young collection's 0.0778 ms.
    assert!(close(p[1].duration_ms, 1.997 - 0.0778));
    assert!(close(p[0].duration_ms + p[1].duration_ms, 1.997));
    assert_eq!(log.strings.get(p[1].cause), "CMS Final Remark");
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
        let _ = parse(input);
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
    let _ = parse(&buf);
}

#[test]
fn truncated_last_event_still_counts_when_its_pause_is_there() {
    let log = one("1.0: [GC 1.0: [ParNew: 1K->2K(3K), 0.1 secs] 4K->5K(6K), 0.2000000 secs]\n2.0: [GC 2.0: [ParNew: 1K->2K(3K), 0.1 secs]");
    assert_eq!(pauses(&log).len(), 1);
    assert_eq!(log.skipped_lines, 1);
}
