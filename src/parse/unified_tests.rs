//! Tests of `unified.rs`.

use super::*;

/// The whole log as one block (`parse::parse_one`).
fn parse(buf: &[u8]) -> GcLog {
    crate::parse::parse_one(FAMILY, buf)
}
use crate::model::GcEvent;

fn of(log: &GcLog, r: Record) -> Vec<&GcEvent> {
    log.events.iter().filter(|e| e.record == r).collect()
}
fn pauses(log: &GcLog) -> Vec<&GcEvent> {
    of(log, Record::Pause)
}
fn total_ms(evs: &[&GcEvent]) -> f64 {
    evs.iter().map(|e| e.duration_ms).sum()
}
fn name<'a>(log: &'a GcLog, e: &GcEvent) -> &'a str {
    log.strings.get(e.name)
}
fn cause<'a>(log: &'a GcLog, e: &GcEvent) -> &'a str {
    log.strings.get(e.cause)
}
fn collector<'a>(log: &'a GcLog, e: &GcEvent) -> &'a str {
    log.strings.get(e.collector)
}
fn meta<'a>(log: &'a GcLog, key: &str) -> Option<&'a str> {
    log.meta
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}
fn kinds(evs: &[&GcEvent]) -> Vec<Kind> {
    evs.iter().map(|e| e.kind).collect()
}

#[test]
fn serial_young_full_and_nested_full() {
    let log = parse(
        b"[0.015s][info][gc] Using Serial\n\
[0.250s][info][gc] GC(0) Pause Young (Allocation Failure) 30M->12M(100M) 10.500ms\n\
[0.400s][info][gc,start] GC(1) Pause Young (Allocation Failure)\n\
[0.400s][info][gc,start] GC(2) Pause Full (Allocation Failure)\n\
[0.400s][info][gc,phases,start] GC(2) Phase 1: Mark live objects\n\
[0.409s][info][gc,phases] GC(2) Phase 1: Mark live objects 4.000ms\n\
[0.410s][info][gc] GC(2) Pause Full (Allocation Failure) 80M->20M(100M) 9.750ms\n\
[0.410s][info][gc,heap] GC(1) DefNew: 27648K->0K(30720K)\n\
[0.410s][info][gc] GC(1) Pause Young (Allocation Failure) 80M->20M(100M) 10.250ms\n\
[0.600s][info][gc] GC(3) Pause Full (System.gc()) 40M->15M(100M) 20.000ms\n",
    );
    assert_eq!(log.lines, 10);
    assert_eq!(log.skipped_lines, 0);
    assert_eq!(meta(&log, "collector"), Some("Serial"));
    let p = pauses(&log);
    // GC(2) ran inside GC(1): one stop, 10.25 ms, counted once and as a full GC.
    assert_eq!(p.len(), 3);
    assert_eq!(kinds(&p), [Kind::Young, Kind::Full, Kind::Full]);
    assert!(close(total_ms(&p), 10.5 + 10.25 + 20.0));
    let y = p[0];
    assert_eq!(name(&log, y), "Pause Young");
    assert_eq!(cause(&log, y), "Allocation Failure");
    assert_eq!(collector(&log, y), "Serial");
    assert_eq!(y.gc_id, Some(0));
    assert!(close(y.uptime_s.unwrap(), 0.250 - 0.0105));
    assert_eq!(y.wall_ms, None);
    assert_eq!(
        (y.heap_before_kb, y.heap_after_kb, y.heap_total_kb),
        (Some(30720), Some(12288), Some(102400))
    );
    assert_eq!(y.line, 2);
    let nested = p[1];
    assert_eq!(nested.gc_id, Some(1));
    assert_eq!(name(&log, nested), "Pause Young");
    assert!(close(nested.duration_ms, 10.25));
    assert!(close(nested.uptime_s.unwrap(), 0.400)); // from the [gc,start] line
    let f = p[2];
    assert_eq!(cause(&log, f), "System.gc()");
    assert_eq!(name(&log, f), "Pause Full");
    assert!(close(f.uptime_s.unwrap(), 0.580));
}

#[test]
fn parallel_young_then_separate_full() {
    let log = parse(
        b"[0.020s][info][gc] Using Parallel\n\
[1.000s][info][gc] GC(0) Pause Young (Allocation Failure) 64M->16M(245M) 5.000ms\n\
[2.000s][info][gc] GC(1) Pause Young (Allocation Failure) 80M->70M(245M) 8.000ms\n\
[2.015s][info][gc] GC(2) Pause Full (Ergonomics) 70M->40M(245M) 14.500ms\n",
    );
    let p = pauses(&log);
    assert_eq!(kinds(&p), [Kind::Young, Kind::Young, Kind::Full]);
    assert!(close(total_ms(&p), 27.5));
    assert_eq!(cause(&log, p[2]), "Ergonomics");
    assert_eq!(collector(&log, p[2]), "Parallel");
    assert_eq!(p[2].heap_before_kb, Some(71680));
    assert_eq!(p[2].heap_after_kb, Some(40960));
    assert_eq!(p[2].heap_total_kb, Some(250880));
    assert!(close(p[2].uptime_s.unwrap(), 2.0005));
}

#[test]
fn cms_cycle() {
    let log = parse(
        b"[0.020s][info][gc] Using Concurrent Mark Sweep\n\
[0.300s][info][gc] GC(0) Pause Young (Allocation Failure) 40M->30M(150M) 6.000ms\n\
[0.500s][info][gc] GC(1) Pause Initial Mark 90M->90M(150M) 0.200ms\n\
[0.500s][info][gc] GC(1) Concurrent Mark\n\
[0.503s][info][gc] GC(1) Concurrent Mark 3.000ms\n\
[0.503s][info][gc] GC(1) Concurrent Preclean\n\
[0.504s][info][gc] GC(1) Concurrent Preclean 0.400ms\n\
[0.504s][info][gc] GC(1) Concurrent Abortable Preclean\n\
[0.510s][info][gc] GC(1) Pause Remark (CMS Final Remark) 100M->100M(150M) 1.500ms\n\
[0.510s][info][gc] GC(1) Concurrent Sweep\n\
[0.512s][info][gc] GC(1) Concurrent Sweep 2.000ms\n\
[0.512s][info][gc] GC(1) Concurrent Reset\n\
[0.513s][info][gc] GC(1) Concurrent Reset 0.500ms\n",
    );
    assert_eq!(meta(&log, "collector"), Some("CMS"));
    let p = pauses(&log);
    assert_eq!(kinds(&p), [Kind::Young, Kind::InitialMark, Kind::Remark]);
    assert!(close(total_ms(&p), 7.7));
    assert_eq!(name(&log, p[1]), "Pause Initial Mark");
    assert_eq!(cause(&log, p[1]), "");
    assert_eq!(name(&log, p[2]), "Pause Remark");
    assert_eq!(cause(&log, p[2]), "CMS Final Remark");
    assert_eq!(collector(&log, p[2]), "CMS");
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 4);
    assert!(close(total_ms(&c), 5.9));
    assert_eq!(name(&log, c[0]), "Concurrent Mark");
    assert_eq!(c[0].kind, Kind::Old);
    assert_eq!(c[0].gc_id, Some(1));
    assert!(close(c[0].uptime_s.unwrap(), 0.500));
    assert_eq!(name(&log, c[3]), "Concurrent Reset");
}

#[test]
fn g1_jdk9_to_16_style() {
    let log = parse(
            b"[0.010s][info][gc,heap] Heap region size: 1M\n\
[0.012s][info][gc     ] Using G1\n\
[0.012s][info][gc,heap,coops] Heap address: 0x00000000f8000000, size: 128 MB, Compressed Oops mode: 32-bit\n\
[0.100s][info][safepoint    ] Application time: 0.0800000 seconds\n\
[0.100s][info][gc,start     ] GC(0) Pause Young (G1 Evacuation Pause)\n\
[0.100s][info][gc,task      ] GC(0) Using 4 workers of 4 for evacuation\n\
[0.104s][info][gc,phases    ] GC(0)   Pre Evacuate Collection Set: 0.0ms\n\
[0.104s][info][gc,phases    ] GC(0)   Evacuate Collection Set: 3.5ms\n\
[0.104s][info][gc,heap      ] GC(0) Eden regions: 20->0(18)\n\
[0.104s][info][gc,metaspace ] GC(0) Metaspace: 3000K->3000K(1056768K)\n\
[0.104s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 20M->5M(128M) 4.000ms\n\
[0.104s][info][gc,cpu       ] GC(0) User=0.01s Sys=0.00s Real=0.00s\n\
[0.104s][info][safepoint    ] Total time for which application threads were stopped: 0.0042500 seconds, Stopping threads took: 0.0000500 seconds\n\
[0.200s][info][gc           ] GC(1) Pause Initial Mark (G1 Evacuation Pause) 60M->55M(128M) 5.000ms\n\
[0.200s][info][gc           ] GC(2) Concurrent Cycle\n\
[0.200s][info][gc,marking   ] GC(2) Concurrent Mark (0.200s)\n\
[0.230s][info][gc,marking   ] GC(2) Concurrent Mark (0.200s, 0.230s) 30.000ms\n\
[0.231s][info][gc,start     ] GC(2) Pause Remark\n\
[0.232s][info][gc           ] GC(2) Pause Remark 70M->70M(128M) 1.000ms\n\
[0.240s][info][gc           ] GC(2) Pause Cleanup 72M->40M(128M) 0.250ms\n\
[0.241s][info][gc           ] GC(2) Concurrent Cycle 41.000ms\n\
[0.300s][info][gc           ] GC(3) Pause Mixed (G1 Evacuation Pause) 50M->30M(128M) 6.000ms\n\
[0.400s][info][gc           ] GC(4) To-space exhausted\n\
[0.400s][info][gc           ] GC(4) Pause Young (G1 Evacuation Pause) 127M->128M(128M) 9.000ms\n\
[0.420s][info][gc           ] GC(5) Pause Full (Allocation Failure) 128M->30M(128M) 20.000ms\n",
        );
    assert_eq!(log.skipped_lines, 0);
    assert_eq!(meta(&log, "heap_region_size_kb"), Some("1024"));
    assert_eq!(meta(&log, "heap_max_kb"), Some("131072"));
    assert_eq!(meta(&log, "collector"), Some("G1"));
    let p = pauses(&log);
    assert_eq!(
        kinds(&p),
        [
            Kind::Young,
            Kind::InitialMark,
            Kind::Remark,
            Kind::Cleanup,
            Kind::Mixed,
            Kind::Young,
            Kind::Full
        ]
    );
    assert!(close(total_ms(&p), 45.25));
    assert_eq!(name(&log, p[0]), "Pause Young");
    assert_eq!(cause(&log, p[0]), "G1 Evacuation Pause");
    assert!(close(p[0].uptime_s.unwrap(), 0.100));
    assert!(close(p[2].uptime_s.unwrap(), 0.231));
    assert!(close(p[3].uptime_s.unwrap(), 0.24 - 0.00025));
    assert_eq!(p[3].heap_after_kb, Some(40960));
    assert_eq!(name(&log, p[4]), "Pause Mixed");
    assert_eq!(cause(&log, p[6]), "Allocation Failure");
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 2);
    assert_eq!(name(&log, c[0]), "Concurrent Mark"); // its own (start, end) times dropped
    assert!(close(c[0].uptime_s.unwrap(), 0.200));
    assert_eq!(name(&log, c[1]), "Concurrent Cycle");
    assert!(close(c[1].duration_ms, 41.0));
    assert!(close(c[1].uptime_s.unwrap(), 0.200));
    let s = of(&log, Record::Safepoint);
    assert_eq!(s.len(), 1);
    assert!(close(s[0].duration_ms, 4.25));
    assert!(close(s[0].uptime_s.unwrap(), 0.104 - 0.00425));
    assert_eq!(s[0].name, 0);
}

#[test]
fn g1_jdk17_pause_types_and_causes() {
    let log = parse(
            b"[0.500s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 3.456ms\n\
[0.600s][info][gc] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) 100M->90M(256M) 4.000ms\n\
[0.700s][info][gc] GC(3) Pause Young (Prepare Mixed) (G1 Evacuation Pause) 120M->80M(256M) 5.000ms\n\
[0.800s][info][gc] GC(4) Pause Young (Mixed) (G1 Evacuation Pause) 90M->40M(256M) 6.000ms\n\
[0.900s][info][gc] GC(5) Pause Young (Normal) (G1 Preventive Collection) 50M->20M(256M) 2.500ms\n\
[1.000s][info][gc] GC(6) Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation) 255M->256M(256M) 7.000ms\n\
[1.100s][info][gc] GC(7) Pause Full (G1 Compaction Pause) 256M->100M(256M) 50.000ms\n",
        );
    let p = pauses(&log);
    assert_eq!(
        kinds(&p),
        [
            Kind::Young,
            Kind::InitialMark,
            Kind::Young,
            Kind::Mixed,
            Kind::Young,
            Kind::Young,
            Kind::Full
        ]
    );
    let names: Vec<&str> = p.iter().map(|e| name(&log, e)).collect();
    assert_eq!(
        names,
        [
            "Pause Young (Normal)",
            "Pause Young (Concurrent Start)",
            "Pause Young (Prepare Mixed)",
            "Pause Young (Mixed)",
            "Pause Young (Normal)",
            "Pause Young (Normal) (Evacuation Failure: Allocation)",
            "Pause Full"
        ]
    );
    let causes: Vec<&str> = p.iter().map(|e| cause(&log, e)).collect();
    assert_eq!(
        causes,
        [
            "G1 Evacuation Pause",
            "G1 Humongous Allocation",
            "G1 Evacuation Pause",
            "G1 Evacuation Pause",
            "G1 Preventive Collection",
            "G1 Evacuation Pause",
            "G1 Compaction Pause"
        ]
    );
    assert!(close(total_ms(&p), 77.956));
    assert_eq!(p[0].heap_before_kb, Some(24576));
    assert_eq!(p[0].heap_after_kb, Some(3072));
    assert_eq!(p[0].heap_total_kb, Some(262144));
    assert_eq!(p[0].gc_id, Some(0));
    assert_eq!(p[6].gc_id, Some(7));
    // No `Using` line: guessed from the pause names.
    assert_eq!(collector(&log, p[0]), "G1");
    assert_eq!(meta(&log, "collector_inferred"), Some("G1"));
}

#[test]
fn shenandoah() {
    let log = parse(
        b"[0.003s][info][gc] Using Shenandoah\n\
[1.000s][info][gc,start] GC(0) Concurrent reset\n\
[1.001s][info][gc] GC(0) Concurrent reset 0.500ms\n\
[1.001s][info][gc,start] GC(0) Pause Init Mark (unload classes)\n\
[1.001s][info][gc] GC(0) Pause Init Mark (unload classes) 0.227ms\n\
[1.031s][info][gc] GC(0) Concurrent marking (unload classes) 30.000ms\n\
[1.032s][info][gc] GC(0) Pause Final Mark (unload classes) 0.500ms\n\
[1.032s][info][gc] GC(0) Concurrent cleanup 200M->150M(256M) 0.100ms\n\
[1.040s][info][gc] GC(0) Concurrent evacuation 8.000ms\n\
[1.040s][info][gc] GC(0) Pause Init Update Refs 0.020ms\n\
[1.050s][info][gc] GC(0) Concurrent update references 10.000ms\n\
[1.050s][info][gc] GC(0) Pause Final Update Refs 0.150ms\n\
[1.050s][info][gc,stats] Pause Init Mark (G)                  250 us\n\
[2.000s][info][gc] Cancelling GC: Allocation Failure\n\
[2.012s][info][gc] GC(1) Pause Degenerated GC (Mark) 10M->5M(20M) 11.373ms\n\
[3.000s][info][gc,start] GC(2) Pause Full (System.gc())\n\
[3.010s][info][gc] GC(2) Pause Full (System.gc()) 30M->10M(256M) 10.000ms\n",
    );
    assert_eq!(log.skipped_lines, 0);
    let p = pauses(&log);
    assert_eq!(
        kinds(&p),
        [
            Kind::InitialMark,
            Kind::Remark,
            Kind::Other,
            Kind::Other,
            Kind::Other,
            Kind::Full
        ]
    );
    let names: Vec<&str> = p.iter().map(|e| name(&log, e)).collect();
    assert_eq!(
        names,
        [
            "Pause Init Mark (unload classes)",
            "Pause Final Mark (unload classes)",
            "Pause Init Update Refs",
            "Pause Final Update Refs",
            "Pause Degenerated GC (Mark)",
            "Pause Full"
        ]
    );
    assert!(close(
        total_ms(&p),
        0.227 + 0.5 + 0.02 + 0.15 + 11.373 + 10.0
    ));
    assert_eq!(cause(&log, p[0]), "");
    assert_eq!(cause(&log, p[4]), "");
    assert_eq!(cause(&log, p[5]), "System.gc()");
    assert!(close(p[5].uptime_s.unwrap(), 3.0));
    assert_eq!(p[4].heap_before_kb, Some(10240));
    assert_eq!(collector(&log, p[4]), "Shenandoah");
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 5);
    assert!(close(total_ms(&c), 48.6));
    assert!(close(c[0].uptime_s.unwrap(), 1.000));
    assert_eq!(name(&log, c[1]), "Concurrent marking (unload classes)");
    assert_eq!(name(&log, c[2]), "Concurrent cleanup");
    assert_eq!(c[2].heap_before_kb, Some(204800));
    assert_eq!(c[2].heap_after_kb, Some(153600));
}

#[test]
fn collector_guessed_without_using_line() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"[1.000s][info][gc] Cancelling concurrent GC: System.gc()\n\
[1.010s][info][gc] GC(0) Pause Full (System.gc()) 10M->2M(64M) 8.000ms\n",
            "Shenandoah",
        ),
        (
            b"[1.000s][info][gc,phases] GC(0) Pause Mark Start 0.010ms\n",
            "ZGC",
        ),
        (
            b"[1.000s][info][gc] GC(0) Pause Full (Ergonomics) 10M->2M(64M) 8.000ms\n",
            "Parallel",
        ),
        (
            b"[1.000s][info][gc] GC(0) Pause Initial Mark 10M->10M(64M) 0.100ms\n",
            "CMS",
        ),
    ];
    for (text, want) in cases {
        let log = parse(text);
        assert_eq!(collector(&log, &log.events[0]), *want);
        assert_eq!(meta(&log, "collector_inferred"), Some(*want));
        assert_eq!(meta(&log, "collector"), None);
    }
    // Serial or Parallel young pauses alone: no guess.
    let log =
        parse(b"[1.000s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->2M(64M) 8.000ms\n");
    assert_eq!(log.events[0].collector, 0);
    assert!(log.meta.is_empty());
}

#[test]
fn zgc_single_generation() {
    let log = parse(
        b"[0.010s][info][gc,init] Initial Capacity: 256M\n\
[0.010s][info][gc,init] Max Capacity: 4096M\n\
[0.010s][info][gc] Using The Z Garbage Collector\n\
[1.000s][info][gc,start] GC(0) Garbage Collection (Warmup)\n\
[1.001s][info][gc,phases] GC(0) Pause Mark Start 0.012ms\n\
[1.011s][info][gc,phases] GC(0) Concurrent Mark 10.000ms\n\
[1.011s][info][gc,phases] GC(0) Pause Mark End 0.034ms\n\
[1.015s][info][gc,phases] GC(0) Concurrent Select Relocation Set 3.500ms\n\
[1.015s][info][gc,phases] GC(0) Pause Relocate Start 0.054ms\n\
[1.020s][info][gc,phases] GC(0) Concurrent Relocate 5.000ms\n\
[1.020s][info][gc,heap] GC(0) Min Capacity: 8M(0%)\n\
[1.020s][info][gc,heap] GC(0)  Capacity:      256M (6%)          256M (6%)\n\
[1.020s][info][gc] GC(0) Garbage Collection (Warmup) 200M(5%)->60M(1%)\n\
[2.000s][info][gc] Allocation Stall (main) 3.250ms\n",
    );
    assert_eq!(meta(&log, "collector"), Some("ZGC"));
    assert_eq!(meta(&log, "heap_initial_kb"), Some("262144"));
    assert_eq!(meta(&log, "heap_max_kb"), Some("4194304"));
    assert_eq!(meta(&log, "heap_min_kb"), None); // per-GC line, not the header
    let p = pauses(&log);
    assert_eq!(kinds(&p), [Kind::InitialMark, Kind::Remark, Kind::Other]);
    assert!(close(total_ms(&p), 0.1));
    assert_eq!(name(&log, p[2]), "Pause Relocate Start");
    assert_eq!(collector(&log, p[0]), "ZGC");
    assert!(close(p[0].uptime_s.unwrap(), 1.001 - 0.000012));
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 3);
    assert!(close(total_ms(&c), 18.5));
}

#[test]
fn zgc_generational() {
    let log = parse(
        b"[0.007s][info][gc] Using The Z Garbage Collector\n\
[1.000s][info][gc] GC(0) Minor Collection (Allocation Rate)\n\
[1.000s][info][gc,phases] GC(0) y: Young Generation\n\
[1.000s][info][gc,phases] GC(0) y: Pause Mark Start 0.011ms\n\
[1.005s][info][gc,phases] GC(0) y: Concurrent Mark 5.000ms\n\
[1.005s][info][gc,phases] GC(0) y: Pause Mark End 0.009ms\n\
[1.007s][info][gc,phases] GC(0) y: Pause Relocate Start 0.010ms\n\
[1.010s][info][gc,phases] GC(0) y: Young Generation 100M(2%)->20M(0%) 0.010s\n\
[1.010s][info][gc] GC(0) Minor Collection (Allocation Rate) 100M(2%)->20M(0%) 0.010s\n\
[2.000s][info][gc] GC(1) Major Collection (Proactive)\n\
[2.000s][info][gc,phases] GC(1) Y: Pause Mark Start (Major) 0.020ms\n\
[2.010s][info][gc,phases] GC(1) Y: Pause Mark End 0.030ms\n\
[2.020s][info][gc,phases] GC(1) O: Concurrent Mark 4.000ms\n\
[2.020s][info][gc,phases] GC(1) O: Pause Mark End 0.040ms\n\
[2.030s][info][gc,phases] GC(1) O: Pause Relocate Start 0.050ms\n\
[2.040s][info][gc] GC(1) Major Collection (Proactive) 300M(7%)->100M(2%) 0.040s\n",
    );
    let p = pauses(&log);
    assert_eq!(
        kinds(&p),
        [
            Kind::InitialMark,
            Kind::Remark,
            Kind::Other,
            Kind::InitialMark,
            Kind::Remark,
            Kind::Remark,
            Kind::Other
        ]
    );
    assert!(close(total_ms(&p), 0.17));
    assert_eq!(name(&log, p[0]), "y: Pause Mark Start");
    assert_eq!(name(&log, p[3]), "Y: Pause Mark Start (Major)");
    assert_eq!(cause(&log, p[3]), "");
    assert_eq!(name(&log, p[5]), "O: Pause Mark End");
    assert_eq!(p[5].gc_id, Some(1));
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 4);
    assert_eq!(name(&log, c[0]), "y: Concurrent Mark");
    assert_eq!(c[0].kind, Kind::Young);
    let minor = c[1];
    assert_eq!(name(&log, minor), "Minor Collection");
    assert_eq!(cause(&log, minor), "Allocation Rate");
    assert_eq!(minor.kind, Kind::Young);
    assert!(close(minor.duration_ms, 10.0));
    assert!(close(minor.uptime_s.unwrap(), 1.0));
    assert_eq!(minor.heap_before_kb, Some(102400));
    assert_eq!(minor.heap_after_kb, Some(20480));
    assert_eq!(minor.heap_total_kb, None);
    assert_eq!(name(&log, c[2]), "O: Concurrent Mark");
    assert_eq!(c[2].kind, Kind::Old);
    assert_eq!(c[3].kind, Kind::Old);
    assert_eq!(cause(&log, c[3]), "Proactive");
    assert!(close(c[3].duration_ms, 40.0));
}

#[test]
fn decoration_styles() {
    // 2019-03-05T14:11:18.470 taken as UTC = 1551795078470 ms since the epoch.
    const WALL: i64 = 1_551_795_078_470;
    let pause = "GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 2.000ms";
    let cases: &[(&str, Option<f64>, Option<i64>)] = &[
        ("[0.200s][info][gc]", Some(0.2), None),
        ("[0,200s][info][gc]", Some(0.2), None),
        ("[200ms][info][gc]", Some(0.2), None),
        ("[200000000ns][info][gc]", Some(0.2), None),
        ("[2019-03-05T14:11:18.470+0100][info][gc]", None, Some(WALL)),
        (
            "[2019-03-05T14:11:18.470+0100][2019-03-05T13:11:18.470+0000][0.200s]",
            Some(0.2),
            Some(WALL),
        ),
        ("[1551795078470ms][gc]", None, Some(WALL)),
        ("[1551795078470000000ns][200ms]", Some(0.2), Some(WALL)),
        (
            "[2019-03-05T14:11:18.470+0100][0.200s][12345][12346][debug][gc,start     ]",
            Some(0.2),
            Some(WALL),
        ),
        (
            "[0.200s][myhost.example.com][42][warning][gc]",
            Some(0.2),
            None,
        ),
        ("[info][gc]", None, None),
        ("[gc]", None, None),
    ];
    for (deco, up, wall) in cases {
        let line = format!("{deco} {pause}\n");
        let log = parse(line.as_bytes());
        assert_eq!(log.skipped_lines, 0, "{deco}");
        let p = pauses(&log);
        assert_eq!(p.len(), 1, "{deco}");
        match up {
            Some(u) => assert!(close(p[0].uptime_s.unwrap(), u - 0.002), "{deco}"),
            None => assert_eq!(p[0].uptime_s, None, "{deco}"),
        }
        assert_eq!(p[0].wall_ms, wall.map(|w| w - 2), "{deco}");
        assert!(close(p[0].duration_ms, 2.0));
    }
    // Durations in s and us, and a comma decimal separator.
    let log = parse(
        b"[1,474s][info][gc] GC(0) Pause Full (System.gc()) 10M->1M(128M) 6,572ms\n\
[2.000s][info][gc] GC(1) Pause Young (Allocation Failure) 10M->1M(128M) 0.25s\n\
[3.000s][info][gc] GC(2) Pause Young (Allocation Failure) 10M->1M(128M) 750us\n",
    );
    let p = pauses(&log);
    assert_eq!(p.len(), 3);
    assert!(close(p[0].duration_ms, 6.572));
    assert!(close(p[0].uptime_s.unwrap(), 1.474 - 0.006572));
    assert!(close(p[1].duration_ms, 250.0));
    assert!(close(p[2].duration_ms, 0.75));
}

#[test]
fn safepoints_both_styles() {
    let log = parse(
            b"[1.000s][info][safepoint] Application time: 0.5000000 seconds\n\
[1.000s][info][safepoint] Entering safepoint region: G1CollectForAllocation\n\
[1.003s][info][safepoint] Leaving safepoint region\n\
[1.003s][info][safepoint] Total time for which application threads were stopped: 0.0031250 seconds, Stopping threads took: 0.0001000 seconds\n\
[1.100s][info][safepoint,cleanup] updating inline caches, 0.0000290 secs\n\
[1.500s][info][safepoint] Total time for which application threads were stopped: 0,0005000 seconds, Stopping threads took: 0,0000100 seconds\n\
[2023-05-01T12:00:02.000+0000][2.000s][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 123456 ns, Reaching safepoint: 1234 ns, At safepoint: 56789 ns, Total: 58023 ns\n\
[3.000s][info][safepoint   ] Safepoint \"ZMarkStartYoung\", Time since last: 1000000 ns, Reaching safepoint: 20000 ns, Cleanup: 5000 ns, At safepoint: 15000 ns, Total: 40000 ns\n",
        );
    assert_eq!(log.skipped_lines, 0);
    assert!(pauses(&log).is_empty());
    let s = of(&log, Record::Safepoint);
    assert_eq!(s.len(), 4);
    assert!(close(s[0].duration_ms, 3.125));
    assert!(close(s[0].uptime_s.unwrap(), 1.003 - 0.003125));
    assert_eq!(name(&log, s[0]), "G1CollectForAllocation");
    assert!(close(s[1].duration_ms, 0.5));
    assert_eq!(s[1].name, 0);
    assert!(close(s[2].duration_ms, 0.058023));
    assert_eq!(name(&log, s[2]), "G1CollectForAllocation");
    // 2023-05-01 = 19478 days after the epoch; minus the rounded 0 ms.
    assert_eq!(
        s[2].wall_ms,
        Some(19478 * 86_400_000 + 12 * 3_600_000 + 2_000)
    );
    assert!(close(s[3].duration_ms, 0.04));
    assert_eq!(name(&log, s[3]), "ZMarkStartYoung");
    assert_eq!(s[3].kind, Kind::Other);
    assert_eq!(s[3].collector, 0);
}

#[test]
fn phase_and_detail_lines_are_not_pauses() {
    let log = parse(
        b"[0.207s][info][gc,phases    ] GC(0)   Pre Evacuate Collection Set: 0.0ms\n\
[0.207s][info][gc,phases    ] GC(0)   Other: 0.3ms\n\
[0.300s][info][gc,phases    ] GC(9) Phase 1: Mark live objects 1.234ms\n\
[0.300s][info][gc,phases,start] GC(9) Phase 2: Compute new object addresses\n\
[0.300s][info][gc,stats     ] Pause Init Mark (G)                 963 us\n\
[0.300s][info][gc,stats     ] Pause Final Mark (N)               2.5ms\n\
[0.300s][info][gc,init      ] Pause Target: 200ms\n\
[0.300s][info][gc,cpu       ] GC(9) User=0.00s Sys=0.00s Real=0.01s\n\
[0.300s][info][gc,heap      ] GC(9) Eden regions: 14->0(8)\n\
[0.300s][info][gc,metaspace ] GC(9) Metaspace: 3644K->3644K(1056768K)\n\
[0.300s][info][gc,ergo      ] Pacer for Idle. Initial: 2M, Alloc Tax Rate: 1.0x\n\
[0.300s][info][gc           ] GC(9) To-space exhausted\n\
[0.300s][info][gc,start     ] GC(10) Pause Young (Normal) (G1 Evacuation Pause)\n\
[0.301s][info][os,cpu       ] CPU:total 4 (initial active 4)\n\
[0.301s][info][class,load   ] java.lang.Object source: jrt:/java.base\n\
[0.301s][info][gc,stats     ] \n",
    );
    assert_eq!(log.lines, 16);
    assert_eq!(log.skipped_lines, 0);
    assert!(log.events.is_empty());
}

#[test]
fn header_meta() {
    let log = parse(
        b"[0.004s][info][gc] Using G1\n\
[0.005s][info][gc,init] Version: 17.0.1+12 (release)\n\
[0.005s][info][gc,init] CPUs: 4 total, 4 available\n\
[0.005s][info][gc,init] Memory: 16G\n\
[0.005s][info][gc,init] Heap Region Size: 2M\n\
[0.005s][info][gc,init] Heap Min Capacity: 8M\n\
[0.005s][info][gc,init] Heap Initial Capacity: 256M\n\
[0.005s][info][gc,init] Heap Max Capacity: 4G\n\
[0.005s][info][gc,init] Parallel Workers: 4\n\
[0.005s][info][gc,init] Using deprecated non-generational mode\n\
[0.006s][info][gc] Using G1\n\
[0.007s][info][gc,init] Initialize Shenandoah heap: 248M initial, 7168K min, 3953M max\n",
    );
    let want = [
        ("collector", "G1"),
        ("jvm_version", "17.0.1+12 (release)"),
        ("cpus", "4 total, 4 available"),
        ("memory_kb", "16777216"),
        ("heap_region_size_kb", "2048"),
        ("heap_min_kb", "8192"),
        ("heap_initial_kb", "262144"),
        ("heap_max_kb", "4194304"),
        ("parallel_workers", "4"),
        ("heap_initial_kb", "253952"),
        ("heap_min_kb", "7168"),
        ("heap_max_kb", "4047872"),
    ];
    let got: Vec<(&str, &str)> = log
        .meta
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn application_output_and_crash_lines_are_skipped() {
    let log = parse(
        b"Hello from the application\n\
\n\
[INFO] Building project\n\
[main] INFO com.example.App - started\n\
   \n\
[0.100s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
# A fatal error has been detected by the Java Runtime Environment:\n\
OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot loader classes\n\
[0.100s\n\
[0.1s][\n",
    );
    assert_eq!(log.lines, 10);
    assert_eq!(log.skipped_lines, 7);
    assert_eq!(log.bad.len(), 5);
    assert_eq!(log.bad[0].line, 1);
    assert_eq!(log.bad[0].text, "Hello from the application");
    assert_eq!(log.bad[1].line, 3);
    assert_eq!(pauses(&log).len(), 1);
}

#[test]
fn empty_and_blank_input() {
    let log = parse(b"");
    assert_eq!((log.lines, log.skipped_lines, log.events.len()), (0, 0, 0));
    let log = parse(b"\n\r\n  \n");
    assert_eq!((log.lines, log.skipped_lines, log.events.len()), (3, 0, 0));
}

#[test]
fn truncated_last_line() {
    let full = b"[0.100s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
[0.200s][info][gc] GC(1) Pause Young (Allocation Failure) 12M->6M(20M) 2.500ms";
    // Cut anywhere: never a panic, never a wrong second pause.
    for cut in 0..=full.len() {
        let log = parse(&full[..cut]);
        let p = pauses(&log);
        assert!(p.len() <= 2);
        if p.len() == 2 {
            assert_eq!(cut, full.len());
            assert!(close(p[1].duration_ms, 2.5));
        }
    }
    let log = parse(full);
    assert_eq!(log.lines, 2);
    assert_eq!(pauses(&log).len(), 2);
}

#[test]
fn non_utf8_bytes() {
    let log = parse(
        b"[0.100s][info][gc] GC(0) Pause Young (Alloc\xff\xfe) 10M->5M(20M) 1.000ms\n\
[0.2\xc3s][info][gc] GC(1) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
\xff\xfe\xfd garbage \x80\n\
[0.300s][info][safepoint] Safepoint \"Op\xe9\", Time since last: 1 ns, Total: 1000 ns\n",
    );
    assert_eq!(log.lines, 4);
    assert_eq!(log.skipped_lines, 2);
    let p = pauses(&log);
    assert_eq!(p.len(), 1);
    assert_eq!(cause(&log, p[0]), "Alloc\u{fffd}\u{fffd}");
    let s = of(&log, Record::Safepoint);
    assert_eq!(s.len(), 1);
    assert_eq!(name(&log, s[0]), "Op\u{fffd}");
}

#[test]
fn random_bytes_do_not_panic() {
    // xorshift: deterministic noise, biased towards the characters the parser looks at.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let alphabet = b"[]()GCPause ->0123456789.,msKMG:\"\n\xff";
    for round in 0..300 {
        let mut buf = Vec::new();
        for _ in 0..(round * 7 % 400) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = if x.is_multiple_of(3) {
                (x >> 8) as u8
            } else {
                alphabet[(x >> 16) as usize % alphabet.len()]
            };
            buf.push(b);
        }
        let log = parse(&buf);
        assert_eq!(log.lines, super::super::lines::count(&buf));
    }
    // And mutations of a real-looking line.
    let line = b"[2019-03-05T14:11:18.470+0100][0.200s][info][gc] GC(3) Pause Young (Concurrent Start) (G1 Humongous Allocation) 24M(5%)->3M(1%)(256M) 3.456ms";
    for i in 0..line.len() {
        for b in [b'[', b']', b'(', b')', b' ', b'\xff', b'-', b'>'] {
            let mut v = line.to_vec();
            v[i] = b;
            parse(&v);
            parse(&v[..i]);
        }
    }
}

#[test]
fn g1_jdk17_fixture() {
    let log = parse(include_bytes!("../../fixtures/unified/g1-jdk17.log"));
    assert_eq!(log.lines, 165);
    assert_eq!(log.skipped_lines, 0);
    let p = pauses(&log);
    assert_eq!(p.len(), 9);
    assert!(close(total_ms(&p), 61.25));
    assert_eq!(
        kinds(&p),
        [
            Kind::Young,
            Kind::Young,
            Kind::InitialMark,
            Kind::Remark,
            Kind::Cleanup,
            Kind::Young,
            Kind::Mixed,
            Kind::Full,
            Kind::Young
        ]
    );
    // 2024-03-05T14:11:18.500 as UTC: 19787 days after the epoch + 51078.5 s.
    assert_eq!(p[0].wall_ms, Some(1_709_647_878_500));
    assert!(close(p[0].uptime_s.unwrap(), 0.5));
    assert_eq!(name(&log, p[0]), "Pause Young (Normal)");
    assert_eq!(cause(&log, p[2]), "G1 Humongous Allocation");
    assert_eq!(p[3].gc_id, Some(3));
    assert!(close(p[3].uptime_s.unwrap(), 1.549));
    let full = p[7];
    assert_eq!(name(&log, full), "Pause Full");
    assert_eq!(cause(&log, full), "System.gc()");
    assert_eq!(
        (full.heap_before_kb, full.heap_after_kb, full.heap_total_kb),
        (Some(71680), Some(20480), Some(131072))
    );
    assert!(close(full.uptime_s.unwrap(), 3.0));
    assert_eq!(full.wall_ms, Some(1_709_647_878_500 + 2_500));
    assert!(p.iter().all(|e| collector(&log, e) == "G1"));
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 8);
    assert!(close(total_ms(&c), 189.52));
    assert_eq!(name(&log, c[7]), "Concurrent Mark Cycle");
    assert!(close(c[7].uptime_s.unwrap(), 1.506));
    let s = of(&log, Record::Safepoint);
    assert_eq!(s.len(), 10);
    assert!(close(total_ms(&s), 63.55));
    assert_eq!(name(&log, s[8]), "G1CollectFull");
    assert_eq!(meta(&log, "collector"), Some("G1"));
    assert_eq!(meta(&log, "jvm_version"), Some("17.0.9+9 (release)"));
    assert_eq!(meta(&log, "memory_kb"), Some("32671744"));
    assert_eq!(meta(&log, "heap_max_kb"), Some("524288"));
    assert_eq!(meta(&log, "heap_region_size_kb"), Some("1024"));
    assert_eq!(meta(&log, "concurrent_refinement_workers"), Some("8"));
}

#[test]
fn zgc_jdk21_fixture() {
    let log = parse(include_bytes!("../../fixtures/unified/zgc-jdk21.log"));
    assert_eq!(log.lines, 128);
    assert_eq!(log.skipped_lines, 0);
    let p = pauses(&log);
    assert_eq!(p.len(), 11);
    assert!(close(total_ms(&p), 0.214));
    let count = |k: Kind| p.iter().filter(|e| e.kind == k).count();
    assert_eq!(
        (
            count(Kind::InitialMark),
            count(Kind::Remark),
            count(Kind::Other)
        ),
        (3, 4, 4)
    );
    assert!(p
        .iter()
        .all(|e| e.cause == 0 && collector(&log, e) == "ZGC"));
    assert_eq!(name(&log, p[3]), "Y: Pause Mark Start (Major)");
    assert_eq!(name(&log, p[6]), "O: Pause Mark End");
    assert_eq!(name(&log, p[8]), "y: Pause Mark Start");
    let s = of(&log, Record::Safepoint);
    assert_eq!(s.len(), 12);
    assert!(close(total_ms(&s), 0.85));
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 25);
    assert!(close(total_ms(&c), 148.011));
    assert_eq!(c.iter().filter(|e| e.kind == Kind::Young).count(), 17);
    let minor = c
        .iter()
        .find(|e| name(&log, e) == "Minor Collection")
        .unwrap();
    assert_eq!(cause(&log, minor), "Allocation Rate");
    assert!(close(minor.uptime_s.unwrap(), 1.0));
    // 2024-06-01T08:00:01.000 as UTC: 19875 days after the epoch + 28801 s.
    assert_eq!(minor.wall_ms, Some(1_717_228_801_000));
    assert_eq!(minor.heap_before_kb, Some(212_992));
    assert_eq!(minor.heap_after_kb, Some(77_824));
    let major = c
        .iter()
        .find(|e| name(&log, e) == "Major Collection")
        .unwrap();
    assert_eq!(cause(&log, major), "Proactive");
    assert_eq!(major.kind, Kind::Old);
    assert!(close(major.duration_ms, 38.0));
    assert_eq!(meta(&log, "collector"), Some("ZGC"));
    assert_eq!(meta(&log, "jvm_version"), Some("21.0.2+13-LTS (release)"));
    assert_eq!(meta(&log, "heap_max_kb"), Some("4194304"));
}

/// Every line counted exactly once.
fn accounted(log: &GcLog) -> bool {
    log.lines == log.record_lines + log.ignored_lines + log.skipped_lines
}

/// (record, ignored, skipped) lines.
fn counts(log: &GcLog) -> (u64, u64, u64) {
    assert!(accounted(log), "{} lines", log.lines);
    (log.record_lines, log.ignored_lines, log.skipped_lines)
}

const G1_PAUSE: &str = "GC(0) Pause Young (Normal) (G1 Evacuation Pause)";

#[test]
fn trailing_junk_after_the_duration() {
    let log = parse(
        b"[0.500s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 5.500msx\n\
[0.600s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 5.500ms (junk)\n\
[0.700s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 5.500ms 3\n\
[0.800s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M)\n\
[0.900s][info][gc] GC(4) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) NaNms\n\
[1.000s][info][gc] GC(5) Pause Young (Normal) (G1 Evacuation Pause) 2 24M->4M(256M) 1.000ms\n\
[1.100s][info][gc] GC(6) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M)x 1.000ms\n\
[1.200s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 5.500 ms\n\
[1.300s][info][gc] GC(8) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 5.500ms (x1)\n\
[1.400s][info][gc] GC(9) Pause Young (Normal) (G1 Evacuation Pause 24M->4M(256M) 5.500ms\n\
[1.500s][info][gc,start] GC(10) Pause Young (Normal) (G1 Evacuation Pause)\n\
[1.502s][info][gc] GC(10) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 2.000ms\n\
[1.600s][info][gc] GC(11) Concurrent Mark 3.000msx\n\
[1.700s][info][gc] GC(11) Concurrent Mark (1.600s, 1.700s) 100.000ms\n",
    );
    // Read: GC(1) (junk after a blank, no digit in it), GC(7) (its unit after a blank),
    // GC(10) with its start line, GC(11)'s second line. Every other line is shaped like an
    // event but cannot be read.
    assert_eq!(counts(&log), (5, 0, 9));
    let bad: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
    assert_eq!(bad, [1, 3, 4, 5, 6]);
    let p = pauses(&log);
    assert_eq!(p.len(), 3);
    assert_eq!(p[0].gc_id, Some(1));
    assert!(close(p[0].duration_ms, 5.5));
    assert_eq!(name(&log, p[0]), "Pause Young (Normal)");
    assert_eq!(cause(&log, p[0]), "G1 Evacuation Pause");
    assert_eq!(p[0].heap_after_kb, Some(4096));
    // `5.500 ms`: the same pause as `5.500ms`, named alike.
    assert_eq!(p[1].gc_id, Some(7));
    assert!(close(p[1].duration_ms, 5.5));
    assert_eq!(name(&log, p[1]), "Pause Young (Normal)");
    assert_eq!(p[1].heap_after_kb, Some(4096));
    assert_eq!(p[2].gc_id, Some(10));
    assert!(close(p[2].uptime_s.unwrap(), 1.5));
    let c = of(&log, Record::Concurrent);
    assert_eq!(c.len(), 1);
    assert!(close(c[0].duration_ms, 100.0));
}

#[test]
fn nul_padding_around_lines() {
    // A crashed JVM's preallocated file: NULs after a line, before the next JVM's first line,
    // and after the last line.
    let log = parse(
        b"[0.500s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 5.500ms\0\0\0\n\
\0\0\0\0[0.600s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 2.000ms\0\n\
[0.700s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 5.5\x0000ms\n\
\0\0\0\0\0\0",
    );
    assert_eq!(log.lines, 4);
    // A NUL inside the number: skipped; the NUL-only last line: blank.
    assert_eq!(counts(&log), (2, 1, 1));
    assert_eq!(log.bad[0].line, 3);
    let p = pauses(&log);
    assert_eq!(p.len(), 2);
    assert!(close(total_ms(&p), 7.5));
}

#[test]
fn durations_that_cannot_be_true_are_skipped() {
    let ones = "1".repeat(400);
    let mut text = String::new();
    for d in [
        "NaNms",
        "nanms",
        "infms",
        "-infms",
        "Infinityms",
        "-1.000ms",
        "1e308ms",
        "1e400ms",
    ] {
        text += &format!("[0.5s][info][gc] {G1_PAUSE} 24M->4M(256M) {d}\n");
    }
    text += &format!("[0.5s][info][gc] {G1_PAUSE} 24M->4M(256M) {ones}ms\n");
    text += &format!("[0.5s][info][gc] {G1_PAUSE} 24M->4M(256M) 0.{ones}ms\n"); // 0.111... ms
    text += &format!("[0.5s][info][gc] {G1_PAUSE} 24M->4M(256M) 86400001ms\n");
    text += &format!("[0.5s][info][gc] {G1_PAUSE} 24M->4M(256M) 86400000ms\n"); // a day: kept
                                                                                // 2^53 + 2 (2^53 + 1 reads as 2^53 in a double).
    text += &format!("[0.5s][info][gc] {G1_PAUSE} 9007199254740994K->4M(256M) 1ms\n");
    text += &format!("[0.5s][info][gc] {G1_PAUSE} 9007199254740992K->4M(256M) 1ms\n"); // 2^53 K
    text += &format!("[0.5s][info][gc] {G1_PAUSE} {ones}K->4M(256M) 1ms\n");
    text += "[0.5s][info][gc] GC(1) Concurrent Mark 1e308ms\n";
    text += "[0.5s][info][gc] GC(1) Concurrent Mark -5ms\n";
    text += "[0.5s][info][gc] GC(2) Garbage Collection (Warmup) NaNM(5%)->60M(1%)\n";
    text += "[0.5s][info][safepoint] Total time for which application threads were stopped: NaN seconds, Stopping threads took: 0.0000500 seconds\n";
    text += "[0.5s][info][safepoint] Total time for which application threads were stopped: -0.5 seconds, Stopping threads took: 0.0000500 seconds\n";
    text += "[0.5s][info][safepoint] Total time for which application threads were stopped: 1e308 seconds, Stopping threads took: 0.0000500 seconds\n";
    text += "[0.5s][info][safepoint] Safepoint \"Op\", Time since last: 1 ns, Total: inf ns\n";
    text += "[0.5s][info][safepoint] Safepoint \"Op\", Time since last: 1 ns, Total: 1000 ns\n"; // kept
    let log = parse(text.as_bytes());
    assert_eq!(log.lines, 23);
    // All but the 0.111 ms and one-day pauses, the 2^53 K heap and the 1 us safepoint.
    assert_eq!(counts(&log), (4, 0, 19));
    let p = pauses(&log);
    let d: Vec<f64> = p.iter().map(|e| e.duration_ms).collect();
    assert_eq!(d.len(), 3);
    assert!((d[0] - 0.111_111_111_111_111_1).abs() < 1e-12);
    assert_eq!(d[1], 86_400_000.0);
    assert_eq!(p[2].heap_before_kb, Some(1 << 53));
    assert_eq!(of(&log, Record::Safepoint).len(), 1);
    assert!(of(&log, Record::Concurrent).is_empty());
    assert!(of(&log, Record::Collection).is_empty());
}

#[test]
fn decorations_that_cannot_be_true_are_skipped() {
    let pause = "GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 2.000ms";
    let cases = [
        ("[2024-02-30T10:00:00.000+0000][info][gc]", false),
        ("[2023-02-29T10:00:00.000+0000][info][gc]", false),
        ("[2024-04-31T10:00:00.000+0000][info][gc]", false),
        ("[2024-02-29T10:00:00.000+0000][info][gc]", true),
        ("[2024-02-29T24:00:00.000+0000][info][gc]", false),
        ("[-1.000s][info][gc]", false),
        ("[+1.000s][info][gc]", false),
        ("[NaNs][info][gc]", false),
        ("[infs][info][gc]", false),
        ("[1e400s][info][gc]", false),
        ("[1e308s][info][gc]", false),
        ("[99999999999999999999ms][info][gc]", false),
        ("[999999999999999999999999ns][info][gc]", false),
        ("[1551795078470ms][info][gc]", true),
    ];
    for (deco, read) in cases {
        let log = parse(format!("{deco} {pause}\n").as_bytes());
        assert_eq!(pauses(&log).len(), usize::from(read), "{deco}");
        assert_eq!(
            counts(&log),
            (u64::from(read), 0, u64::from(!read)),
            "{deco}"
        );
    }
}

#[test]
fn decoration_blocks_read_whole_or_not_at_all() {
    fn read(l: &str) -> Option<(Deco<'_>, &[u8])> {
        decorations(l.as_bytes())
    }
    let msg = |l: &str| read(l).map(|(_, m)| String::from_utf8_lossy(m).into_owned());
    let tags = |l: &str| read(l).map(|(d, _)| String::from_utf8_lossy(d.tags).into_owned());
    // A tag-like block before another decoration is a hostname; the tags are the last block,
    // blanks trimmed; one blank before the message is the separator.
    assert_eq!(tags("[appserver][4242][0.5s] GC(0) x").as_deref(), Some(""));
    assert_eq!(
        tags("[0.5s][info][gc,phases   ]  GC(0) x").as_deref(),
        Some("gc,phases")
    );
    assert_eq!(
        msg("[0.5s][info][gc,phases   ]  GC(0) x").as_deref(),
        Some(" GC(0) x")
    );
    // The first time of each kind counts; epoch milliseconds are told from uptime by size.
    let (d, _) = read("[1.0s][2000ms][1551795078470ms][0ms] x").unwrap();
    assert_eq!(
        (d.uptime_s, d.wall_ms),
        (Some(1.0), Some(1_551_795_078_470))
    );
    let (d, _) = read("[3034ms] x").unwrap();
    assert!(close(d.uptime_s.unwrap(), 3.034) && close(d.uptime_tol, 0.001));
    // Only tag-like blocks: application output unless the tags are HotSpot's GC ones.
    assert!(read("[main] INFO x").is_none());
    assert!(read("[gc,start] GC(0) x").is_some());
    // A decoration of 256 bytes is believed, one of 257 is not.
    assert!(read(&format!("[0.5s][{}] x", "h".repeat(256))).is_some());
    assert!(read(&format!("[0.5s][{}] x", "h".repeat(257))).is_none());
    // A block that cannot be a decoration makes the line none (it does not start the message).
    for bad in [
        "[0.5s][info][gc][12ab] x",
        "[0.5s][42.5] x",
        "[0.5s][my host] x",
        "[0.5s][] x",
        "[0.5s][ ] x",
        "[0.5s][nanms] x",
        "[0.5s][+5] x",
        "[0.5s][info][gc][",
        "[0.5s",
    ] {
        assert!(read(bad).is_none(), "{bad}");
    }
}

#[test]
fn lines_of_other_families_are_skipped() {
    let log = parse(
        b"[0.100s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
12.345: [GC (Allocation Failure) 12.345: [ParNew: 100K->10K(200K), 0.0100000 secs] 100K->10K(300K), 0.0100000 secs]\n\
2013-05-22T15:42:34.123+0200: 1.0: [Full GC (System.gc()) 1K->1K(2K), 0.1 secs]\n\
[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
[INFO ][memory ] [YC#1] 306.486-306.915: YC 4264185KB->1261907KB (25165824KB), 0.429 s, sum of pauses 428.647 ms\n\
[memory ][Thu Feb 21 15:06:32 2013][11844] 6.290-6.424: GC 3128161K->296406K (3145728K), sum of pauses 59.084 ms\n\
[7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
[A1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;\n\
1348221842308,120,Home,200,OK,Users 1-1,text,true,,5120\n\
[0.200s][info][gc] 12.345: [GC (Allocation Failure) 100K->10K(300K), 0.0100000 secs]\n\
[0.200s][info][gc] [memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n",
    );
    assert_eq!(counts(&log), (1, 0, 10));
    assert_eq!(pauses(&log).len(), 1);
}

#[test]
fn line_accounting_records_details_and_ignorable_lines() {
    let log = parse(
        b"[0.004s][info][gc] Using G1\n\
[0.005s][info][gc,init] Version: 17.0.1+12 (release)\n\
[0.006s][info][os,cpu] CPU:total 4 (initial active 4)\n\
\n\
[0.100s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)\n\
[0.101s][info][gc,phases   ] GC(0)   Evacuate Collection Set: 3.5ms\n\
[0.102s][info][gc,heap     ] GC(0) Eden regions: 20->0(18)\n\
[0.104s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 20M->5M(128M) 4.000ms\n\
[0.104s][info][gc,cpu      ] GC(0) User=0.01s Sys=0.00s Real=0.00s\n\
[0.104s][info][safepoint   ] Safepoint \"G1CollectForAllocation\", Time since last: 1 ns, Total: 4250000 ns\n\
[0.200s][info][gc,heap     ] GC(1) Heap before GC invocations=1 (full 0)\n\
[0.200s][info][gc,heap     ] GC(1) Eden regions: 20->0(18)\n\
[0.300s][info][gc,start    ] GC(2) Pause Young (Normal) (G1 Evacuation Pause)\n\
[0.300s][info][safepoint   ] Application time: 0.0800000 seconds\n\
[0.300s][info][gc,stats    ] Pause Init Mark (G)                  250 us\n",
    );
    // Records: GC(0)'s five lines and the safepoint. Ignored: the header, os,cpu, the blank
    // line, GC(1) and GC(2) (no event: a heap dump, a pause the log ends in), Application
    // time, the stats table.
    assert_eq!(log.lines, 15);
    assert_eq!(counts(&log), (6, 9, 0));
    assert_eq!(pauses(&log).len(), 1);
}

#[test]
fn open_gc_groups_are_bounded() {
    // 3000 GCs whose detail lines come before their events; the lowest ones are settled
    // early (their lines held so far are ignored), the rest are records.
    let mut text = String::new();
    for i in 0..3000 {
        text += &format!("[1.000s][info][gc,heap] GC({i}) Eden regions: 20->0(18)\n");
    }
    for i in 0..3000 {
        text += &format!(
            "[2.000s][info][gc] GC({i}) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n"
        );
    }
    let log = parse(text.as_bytes());
    assert_eq!(pauses(&log).len(), 3000);
    // 1976 GCs were settled (no event yet: ignored) while the detail lines came; the other
    // 1024 kept theirs: 3000 event lines + 1024 detail lines are records.
    assert_eq!(counts(&log), (3000 + 1024, 3000 - 1024, 0));
}

#[test]
fn long_names_are_capped() {
    let long = "x".repeat(100_000);
    let log = parse(
        format!(
            "[0.004s][info][gc] Using X{long}\n\
[0.100s][info][gc] GC(0) Pause Young {long} (Allocation {long}) 10M->5M(20M) 1.000ms\n\
[0.104s][info][safepoint] Safepoint \"{long}\", Time since last: 1 ns, Total: 1000 ns\n\
[0.104s][info][gc,init] Version: {long}\n"
        )
        .as_bytes(),
    );
    assert_eq!(counts(&log), (2, 2, 0));
    let p = pauses(&log);
    assert_eq!(name(&log, p[0]).len(), 256);
    assert!(name(&log, p[0]).starts_with("Pause Young xxx"));
    assert_eq!(cause(&log, p[0]).len(), 256);
    assert_eq!(collector(&log, p[0]).len(), 256);
    assert_eq!(name(&log, of(&log, Record::Safepoint)[0]).len(), 256);
    assert!(log.meta.iter().all(|(_, v)| v.len() <= 256));
    // A name of multi-byte characters is cut at a character boundary.
    let wide = "é".repeat(1000);
    let log = parse(format!("[0.1s][info][gc] GC(0) Pause Young ({wide}) 1.000ms\n").as_bytes());
    let c = cause(&log, pauses(&log)[0]);
    assert_eq!(c, "é".repeat(128));
}

/// A line of 20 MB in several shapes: read or skipped as one line, in linear time (checked
/// once by hand on the release build: each parse takes tens of milliseconds; not asserted).
#[test]
fn twenty_megabyte_lines() {
    const N: usize = 20 << 20;
    let time = |what: &str, buf: &[u8]| {
        let t = std::time::Instant::now();
        let log = parse(buf);
        eprintln!("{what}: {:?}", t.elapsed());
        log
    };
    // A pause whose name is 20 MB of words: read, the name capped.
    let mut line = b"[0.5s][info][gc] GC(0) Pause Young".to_vec();
    while line.len() < N {
        line.extend_from_slice(b" Young");
    }
    line.extend_from_slice(b" (Allocation Failure) 10M->5M(20M) 1.500ms\n");
    let log = time("long name", &line);
    assert_eq!(counts(&log), (1, 0, 0));
    assert_eq!(name(&log, pauses(&log)[0]).len(), 256);
    // The duration is 20 MB of digits; the heap figure is; the cause holds 20 MB of digits.
    let digits = "7".repeat(N);
    for (what, text) in [
        (
            "digits duration",
            format!("[0.5s][info][gc] {G1_PAUSE} {digits}ms\n"),
        ),
        (
            "digits heap",
            format!("[0.5s][info][gc] {G1_PAUSE} {digits}K->1K(2K) 1ms\n"),
        ),
        (
            "digits uptime",
            format!("[{digits}s][info][gc] {G1_PAUSE} 1ms\n"),
        ),
    ] {
        let log = time(what, text.as_bytes());
        assert_eq!(counts(&log), (0, 0, 1), "{what}");
    }
    let text = format!("[0.5s][info][gc] GC(0) Pause Young ({digits}) 1ms\n");
    let log = time("digits cause", text.as_bytes());
    assert_eq!(counts(&log), (1, 0, 0));
    assert_eq!(cause(&log, pauses(&log)[0]).len(), 0); // a digit-led group is no cause
                                                       // Brackets, parentheses, blanks, decorations without end.
    for (what, fill, want) in [
        ("[", b'[', (0, 0, 1)),
        ("(", b'(', (0, 0, 0)),
        (")", b')', (0, 0, 0)),
        (" ", b' ', (0, 0, 0)),
    ] {
        let mut line = b"[0.5s][info][gc] GC(0) Pause Young ".to_vec();
        if what == "[" {
            line.clear();
        }
        line.resize(N, fill);
        let log = time(what, &line);
        let (r, i, s) = want;
        // An unclosed `(` or a lone `)` run without digits is a start line (a detail of GC(0),
        // which has no event: ignored); blanks after the name likewise.
        assert_eq!(counts(&log), (r, i + u64::from(what != "["), s), "{what}");
    }
    // 20 MB of decorations.
    let mut line = Vec::new();
    while line.len() < N {
        line.extend_from_slice(b"[info]");
    }
    line.extend_from_slice(b"[gc] GC(0) Pause Young (Allocation Failure) 1.000ms");
    let log = time("decorations", &line);
    assert_eq!(counts(&log), (1, 0, 0));
    // A million short GC lines in one buffer: linear too.
    let mut buf = Vec::new();
    for i in 0..200_000u32 {
        buf.extend_from_slice(
            format!("[{i}.000s][info][gc] GC({i}) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n").as_bytes(),
        );
    }
    let log = time("200k lines", &buf);
    assert_eq!(counts(&log), (200_000, 0, 0));
}

#[test]
fn fixtures_account_for_every_line() {
    let fixtures: [&[u8]; 2] = [
        include_bytes!("../../fixtures/unified/g1-jdk17.log"),
        include_bytes!("../../fixtures/unified/zgc-jdk21.log"),
    ];
    for f in fixtures {
        let log = parse(f);
        assert!(accounted(&log));
        assert_eq!(log.skipped_lines, 0);
        assert!(log.record_lines > log.ignored_lines);
    }
}

// Issue 15: a full GC logged inside an open young GC(n) is folded into it only when the
// times say it ran inside it. Unified logging has no comment lines (an undecorated line is
// skipped), so each fixture is described here.

/// `serial-young-into-full.log`, 10 lines: `Using Serial` (ignored), GC(3) a young pause of
/// 4 ms (lines 2-3), then GC(4) starts at 1.000 (line 4); GC(5), a full GC, starts at 1.001
/// (line 5, phases on 6-7) and ends at 1.007 after 6 ms (line 8); GC(4)'s heap line (9) and
/// its end at 1.008 after 8 ms (line 10). GC(5) began inside GC(4)'s 1.000 to 1.008 and ended
/// within it: one stop of 8 ms, a full GC; 4 + 8 = 12 ms in all.
#[test]
fn young_into_full_fixture_is_one_stop() {
    let log = parse(include_bytes!(
        "../../fixtures/unified/serial-young-into-full.log"
    ));
    assert_eq!(counts(&log), (9, 1, 0));
    let p = pauses(&log);
    assert_eq!(kinds(&p), [Kind::Young, Kind::Full]);
    assert_eq!((p[0].gc_id, p[1].gc_id), (Some(3), Some(4)));
    assert!(close(p[1].duration_ms, 8.0));
    assert!(close(p[1].uptime_s.unwrap(), 1.0));
    assert!(close(total_ms(&p), 12.0));
}

/// `serial-full-opened-after-young-ended.log`, 6 lines: GC(8) starts at 3.000 and lasts
/// 5 ms (ended 3.005), but its end line (6, after its heap line 5) is written only after
/// GC(9), a full GC that started at 3.007 (line 3) and ended at 3.011 (line 4). GC(9)
/// started 2 ms after GC(8) ended, more than the stamps' 1 ms: two stops, 4 + 5 = 9 ms.
#[test]
fn full_gc_opened_after_the_young_one_ended_is_its_own_stop() {
    let log = parse(include_bytes!(
        "../../fixtures/unified/serial-full-opened-after-young-ended.log"
    ));
    assert_eq!(counts(&log), (5, 1, 0));
    let p = pauses(&log);
    assert_eq!(kinds(&p), [Kind::Full, Kind::Young]);
    assert_eq!((p[0].gc_id, p[1].gc_id), (Some(9), Some(8)));
    assert!(close(p[0].duration_ms, 4.0));
    assert!(close(p[1].duration_ms, 5.0));
    assert!(close(total_ms(&p), 9.0));
}

#[test]
fn young_into_full_tolerance_is_the_stamps_precision() {
    // GC(1) starts at 2.000 and lasts 5 ms (to 2.005); GC(2) lasts 1 ms.
    let log_of = |full_start: &str, full_end: &str| {
        parse(
            format!(
                "[2.000s][info][gc,start] GC(1) Pause Young (Allocation Failure)\n\
                 [{full_start}s][info][gc,start] GC(2) Pause Full (Allocation Failure)\n\
                 [{full_end}s][info][gc] GC(2) Pause Full (Allocation Failure) 9M->3M(16M) 1.000ms\n\
                 [2.010s][info][gc] GC(1) Pause Young (Allocation Failure) 9M->3M(16M) 5.000ms\n"
            )
            .as_bytes(),
        )
    };
    // Starts 2.004, ends 2.005 with the young one: nested.
    assert_eq!(kinds(&pauses(&log_of("2.004", "2.005"))), [Kind::Full]);
    // Starts as the young one ends (2.005) and ends 1 ms after it: within the stamps' 1 ms
    // unit, nested.
    assert_eq!(kinds(&pauses(&log_of("2.005", "2.006"))), [Kind::Full]);
    // Starts 2 ms after: sequential.
    assert_eq!(
        kinds(&pauses(&log_of("2.007", "2.008"))),
        [Kind::Full, Kind::Young]
    );
}

#[test]
fn young_into_full_by_wall_clock_and_without_any_clock() {
    let text = |deco: [&str; 4]| {
        format!(
            "[{}][info][gc,start] GC(1) Pause Young (Allocation Failure)\n\
             [{}][info][gc,start] GC(2) Pause Full (Allocation Failure)\n\
             [{}][info][gc] GC(2) Pause Full (Allocation Failure) 9M->3M(16M) 3.000ms\n\
             [{}][info][gc] GC(1) Pause Young (Allocation Failure) 9M->3M(16M) 5.000ms\n",
            deco[0], deco[1], deco[2], deco[3]
        )
    };
    let t = |ms: u32| format!("2024-01-01T00:00:02.{ms:03}+0000");
    // Wall clock only: GC(2) from .001 to .004 inside GC(1)'s .000 to .005.
    let log = parse(text([t(0), t(1), t(4), t(5)].each_ref().map(|s| s.as_str())).as_bytes());
    assert_eq!(kinds(&pauses(&log)), [Kind::Full]);
    // GC(2) from .008, after GC(1) ended at .005.
    let log = parse(text([t(0), t(8), t(11), t(12)].each_ref().map(|s| s.as_str())).as_bytes());
    assert_eq!(kinds(&pauses(&log)), [Kind::Full, Kind::Young]);
    // Level and tags only: no clock, the ids and durations decide (folded).
    let log = parse(
        b"[info][gc] GC(2) Pause Full (Allocation Failure) 9M->3M(16M) 3.000ms\n\
          [info][gc] GC(1) Pause Young (Allocation Failure) 9M->3M(16M) 5.000ms\n",
    );
    assert_eq!(kinds(&pauses(&log)), [Kind::Full]);
    assert!(close(total_ms(&pauses(&log)), 5.0));
}

// Issue 13: thread stalls, times to safepoint, ZGC cycle rows.

/// `zgc-jdk17-stalls.log`, 25 lines: 4 header lines (ignored), 21 record lines (every line of
/// GC(0), which has events; three stall lines; four safepoints).
#[test]
fn zgc_jdk17_stalls_fixture() {
    let log = parse(include_bytes!(
        "../../fixtures/unified/zgc-jdk17-stalls.log"
    ));
    assert_eq!((log.lines, counts(&log)), (25, (21, 4, 0)));
    let s = of(&log, Record::Stall);
    assert_eq!(s.len(), 3);
    assert_eq!(
        s.iter().map(|e| name(&log, e)).collect::<Vec<_>>(),
        ["Allocation Stall", "Allocation Stall", "Relocation Stall"]
    );
    assert!(close(total_ms(&s), 20.75));
    // Logged at their end: 1.030 - 12.5 ms.
    assert!(close(s[0].uptime_s.unwrap(), 1.0175));
    assert!(s
        .iter()
        .all(|e| e.gc_id.is_none() && collector(&log, e) == "ZGC"));
    // Not pauses: three of those, 0.09 ms.
    let p = pauses(&log);
    assert_eq!(p.len(), 3);
    assert!(close(total_ms(&p), 0.09));
    // Safepoints: Total is the stop, Reaching safepoint its reach, kept apart.
    let sp = of(&log, Record::Safepoint);
    let reach: Vec<Option<f64>> = sp.iter().map(|e| e.ttsp_ms).collect();
    assert_eq!(reach, [Some(0.15), Some(2.5), Some(0.04), Some(0.01)]);
    assert!(close(total_ms(&sp), 2.815));
    assert!(close(sp[1].duration_ms, 2.55));
    // The cycle: from its `gc,start` line, the capacity of its `Capacity:` row's Relocate
    // End column (3954M), its time the sum of its pauses (after link_cycles).
    let c = of(&log, Record::Collection);
    assert_eq!(c.len(), 1);
    assert!(close(c[0].uptime_s.unwrap(), 1.0));
    assert_eq!(c[0].heap_total_kb, Some(3954 * 1024));
    assert_eq!(
        (c[0].heap_before_kb, c[0].heap_after_kb),
        (Some(2900 * 1024), Some(1200 * 1024))
    );
    assert!(close(c[0].duration_ms, 0.09));
}

/// The statistics line `Allocation Stalls: 0 0 0 0` is no stall; a stall whose figure
/// cannot be read is skipped, never dropped; a stall under a GC id belongs to that GC.
#[test]
fn stall_lines_are_records_or_counted() {
    let log = parse(
        b"[1.018s][info][gc,alloc] GC(0) y: Allocation Stalls:          0                0\n\
[2.000s][info][gc] Allocation Stall (main) 2.5msx\n\
[3.000s][info][gc] GC(4) Relocation Stall (worker#1) 1.000ms\n\
[4.000s][info][gc] Allocation Stall (main)\n",
    );
    assert_eq!(counts(&log), (1, 1, 2));
    let s = of(&log, Record::Stall);
    assert_eq!(s.len(), 1);
    assert_eq!((s[0].gc_id, s[0].line), (Some(4), 3));
    assert!(close(s[0].duration_ms, 1.0));
}

/// JDK 9-16: `Total time ... stopped: X seconds, Stopping threads took: Y seconds`.
#[test]
fn jdk11_safepoint_reach() {
    let log = parse(
        b"[1.000s][info][safepoint] Total time for which application threads were stopped: 0.0012000 seconds, Stopping threads took: 0.0004000 seconds\n\
[2.000s][info][safepoint] Total time for which application threads were stopped: 0.0010000 seconds\n\
[3.000s][info][safepoint] Total time for which application threads were stopped: 0.0010000 seconds, Stopping threads took: x seconds\n",
    );
    assert_eq!(counts(&log), (2, 0, 1));
    let sp = of(&log, Record::Safepoint);
    assert!(close(sp[0].duration_ms, 1.2));
    assert!(close(sp[0].ttsp_ms.unwrap(), 0.4));
    assert_eq!(sp[1].ttsp_ms, None);
}

/// A ZGC cycle's row starts at its `gc,start` line (it was stamped with its end line's time),
/// and takes the capacity of the `Capacity:` row printed for it (a row of two columns: the
/// last); a `Capacity:` row of another GC is not its.
#[test]
fn zgc_cycle_start_and_capacity() {
    let log = parse(
        b"[1.000s][info][gc,start] GC(0) Garbage Collection (Warmup)\n\
[1.020s][info][gc,heap] GC(0)  Capacity:      256M (6%)          512M (12%)\n\
[1.020s][info][gc] GC(0) Garbage Collection (Warmup) 200M(5%)->60M(1%)\n\
[2.020s][info][gc,heap] GC(1)  Capacity:      300M (6%)\n\
[3.020s][info][gc] GC(2) Garbage Collection (Proactive) 200M(5%)->60M(1%)\n",
    );
    let c = of(&log, Record::Collection);
    assert_eq!(c.len(), 2);
    assert!(close(c[0].uptime_s.unwrap(), 1.0));
    assert_eq!(c[0].heap_total_kb, Some(512 * 1024));
    // No start line: its end; the capacity row was GC(1)'s.
    assert!(close(c[1].uptime_s.unwrap(), 3.02));
    assert_eq!(c[1].heap_total_kb, None);
}

#[test]
fn failure_notes_flag_their_pauses() {
    use crate::model::{FLAG_CONCURRENT_MODE_FAILURE, FLAG_PROMOTION_FAILED};
    let log = parse(
        b"[2.000s][info][gc,start     ] GC(1) Pause Young (Allocation Failure)\n\
[2.040s][info][gc,promotion ] GC(1) Promotion failed\n\
[2.040s][info][gc,heap      ] GC(1) ParNew: 9216K->9216K(9216K)\n\
[2.050s][info][gc           ] GC(1) Pause Young (Allocation Failure) 90M->90M(100M) 50.000ms\n\
[2.050s][info][gc,start     ] GC(2) Pause Full (Allocation Failure)\n\
[2.060s][debug][gc          ] GC(2) Concurrent mode failure\n\
[2.250s][info][gc           ] GC(2) Pause Full (Allocation Failure) 90M->30M(100M) 200.000ms\n\
[3.010s][info][gc           ] GC(3) Pause Young (Allocation Failure) 60M->35M(100M) 10.000ms\n",
    );
    assert_eq!(log.skipped_lines, 0);
    // Every line a record line: the notes belong to GCs that have events.
    assert_eq!(log.record_lines, 8);
    let p = pauses(&log);
    assert_eq!(kinds(&p), [Kind::Young, Kind::Full, Kind::Young]);
    assert_eq!(p[0].flags, FLAG_PROMOTION_FAILED);
    assert_eq!(p[0].young_before_kb, Some(9216));
    assert_eq!(p[1].flags, FLAG_CONCURRENT_MODE_FAILURE);
    assert_eq!(p[2].flags, 0);
    // The note is not a concurrent phase.
    assert!(of(&log, Record::Concurrent).is_empty());
}

/// `cms-scavenge-before-remark-jdk11.log`, 17 lines: the `Using` header (ignored); GC(4) a
/// young pause of 5 ms (lines 2-5); GC(5)'s initial mark (1 ms, 6-7) and concurrent mark
/// (8-9); its remark starts at 10.200 (line 10), and inside it GC(6), a young collection
/// (`-XX:+CMSScavengeBeforeRemark`) from 10.200 of 0.040 ms (11-14); the remark ends at
/// 10.233 with 32.705 ms (line 15), 10.200 to 10.232705, which holds GC(6)'s 10.200 to
/// 10.20004: one stop of 32.705 ms, GC(6) nested in it. The sweep (16-17) follows.
#[test]
fn a_young_gc_inside_a_cms_remark_is_nested_in_its_stop() {
    let log = parse(include_bytes!(
        "../../fixtures/unified/cms-scavenge-before-remark-jdk11.log"
    ));
    assert_eq!(counts(&log), (16, 1, 0));
    let p = pauses(&log);
    let got: Vec<(Option<u64>, Kind)> = p.iter().map(|e| (e.gc_id, e.kind)).collect();
    assert_eq!(
        got,
        [
            (Some(4), Kind::Young),
            (Some(5), Kind::InitialMark),
            (Some(5), Kind::Remark)
        ]
    );
    assert!(close(p[2].duration_ms, 32.705));
    assert!(close(p[2].uptime_s.unwrap(), 10.2));
    let n = of(&log, Record::Nested);
    assert_eq!(n.len(), 1);
    assert_eq!((n[0].gc_id, n[0].kind), (Some(6), Kind::Young));
    assert!(close(n[0].duration_ms, 0.04));
    assert_eq!(cause(&log, n[0]), "CMS Final Remark");
    // 5 + 1 + 32.705, the young collection's 0.040 once, in the remark's.
    let total: f64 = p.iter().map(|e| e.duration_ms).sum();
    assert!(close(total, 38.705));
}

/// A young pause logged after a remark that had ended before it began is a stop of its own.
#[test]
fn a_young_gc_after_a_remark_is_not_nested() {
    let log = parse(
        b"[10.200s][info][gc,start] GC(5) Pause Remark\n\
[10.233s][info][gc] GC(5) Pause Remark 107M->107M(225M) 32.705ms\n\
[10.240s][info][gc,start] GC(6) Pause Young (Allocation Failure)\n\
[10.245s][info][gc] GC(6) Pause Young (Allocation Failure) 108M->100M(225M) 5.000ms\n",
    );
    assert_eq!(pauses(&log).len(), 2);
    assert!(of(&log, Record::Nested).is_empty());
}

/// Each `[time]`/`[utctime]` decoration's own offset, in quarter hours, across the 2016 Berlin
/// spring DST change: a concurrent cycle takes its start line's stamp and offset, `[time]`
/// before `[utctime]` keeps the local one's, a date without an offset and an epoch stamp
/// (`[timemillis]`) carry none. `wall_ms` is the local time as written, less the duration
/// for an end line (2016-03-27T00:00Z is 1_459_036_800_000).
#[test]
fn each_time_decoration_carries_its_own_offset() {
    let log = parse(
        b"[2016-03-27T01:59:59.500+0100][10.000s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 10.000ms\n\
[2016-03-27T01:59:59.900+0100][10.400s][info][gc] GC(1) Concurrent Cycle\n\
[2016-03-27T03:00:01.250+0200][12.750s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 10.000ms\n\
[2016-03-27T03:00:01.400+0200][12.900s][info][gc] GC(1) Concurrent Cycle 2500.000ms\n\
[2016-03-27T03:00:02.000][13.500s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 10.000ms\n\
[2016-03-27T03:00:03.000+0200][2016-03-27T01:00:03.000+0000][14.000s][info][gc] GC(4) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 10.000ms\n\
[2016-03-27T01:00:04.000+0000][15.000s][info][gc] GC(5) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 10.000ms\n\
[1459047605000ms][16.000s][info][gc] GC(6) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 10.000ms\n",
    );
    // GC id, record, wall clock, offset.
    type Row = (Option<u64>, Record, Option<i64>, Option<i8>);
    let mut got: Vec<Row> = log
        .events
        .iter()
        .map(|e| (e.gc_id, e.record, e.wall_ms, e.utc_offset_qh))
        .collect();
    got.sort_by_key(|g| g.0);
    assert_eq!(
        got,
        [
            // 01:59:59.500 at +0100, less 10 ms.
            (Some(0), Record::Pause, Some(1_459_043_999_490), Some(4)),
            // Started 01:59:59.900 at +0100; ended after the change.
            (
                Some(1),
                Record::Concurrent,
                Some(1_459_043_999_900),
                Some(4)
            ),
            // 03:00:01.250 at +0200, less 10 ms.
            (Some(2), Record::Pause, Some(1_459_047_601_240), Some(8)),
            (Some(3), Record::Pause, Some(1_459_047_601_990), None),
            (Some(4), Record::Pause, Some(1_459_047_602_990), Some(8)),
            // `[utctime]` alone: 01:00:04.000 at +0000.
            (Some(5), Record::Pause, Some(1_459_040_403_990), Some(0)),
            (Some(6), Record::Pause, Some(1_459_047_604_990), None),
        ]
    );
}
