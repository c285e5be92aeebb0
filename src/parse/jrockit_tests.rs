//! Tests of `jrockit.rs`.

use super::*;

/// The whole log as one block (`parse::parse_one`).
fn parse(buf: &[u8]) -> GcLog {
    crate::parse::parse_one(FAMILY, buf)
}

/// (collections, their pause total in ms, pauses, concurrent phases) as downstream counts
/// them: collections = Collection + standalone Pause.
fn totals(log: &GcLog) -> (usize, f64, usize, usize) {
    let (mut n, mut total, mut pauses, mut conc) = (0, 0.0, 0, 0);
    for e in &log.events {
        match e.record {
            Record::Collection => {
                n += 1;
                total += e.duration_ms;
            }
            Record::Pause => {
                pauses += 1;
                if !e.in_collection {
                    n += 1;
                    total += e.duration_ms;
                }
            }
            Record::Concurrent => conc += 1,
            Record::Safepoint | Record::Stall | Record::Nested => {}
        }
    }
    (n, total, pauses, conc)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn meta(log: &GcLog) -> Vec<(&str, &str)> {
    log.meta
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

fn s(log: &GcLog, i: u32) -> &str {
    log.strings.get(i)
}

/// Wall clock of an asctime stamp, seconds since the epoch (from `date -u -d ... +%s`).
fn at(epoch_s: i64) -> i64 {
    epoch_s * 1000
}

#[test]
fn r142_memory_prefix_nursery_and_old() {
    let log = parse(
        b"[memory ] GC strategy: gencon\n\
              [memory ] heap size: 1048576K, maximal heap size: 1048576K, nursery size: 102400K\n\
              [memory ] <s>-<end>: GC <before>K-><after>K (<heap>K), <pause> ms\n\
              [memory ] <s/start> - start time of collection (seconds since jvm start)\n\
              [memory ] <pause>   - total pause time during collection (milliseconds)\n\
              [INFO] Deserialization Total time: 21 ms\n\
              [memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
              \n\
              [memory ] 31.020: Nursery GC 125011K->30112K (1048576K), 48.906 ms\n\
              [memory ] 218.453-219.334: GC 463218K->106254K (1048576K), 147.386 ms\n",
    );
    assert_eq!(log.lines, 10);
    assert_eq!(log.skipped_lines, 1);
    assert_eq!(log.bad[0].line, 6);
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (3, 3, 0));
    assert!(close(total, 249.709));
    let e = &log.events[0];
    assert_eq!(
        (e.record, e.kind, e.in_collection),
        (Record::Pause, Kind::Young, false)
    );
    assert_eq!(
        (e.uptime_s, e.wall_ms, e.duration_ms),
        (Some(9.385), None, 53.417)
    );
    assert_eq!(
        (e.heap_before_kb, e.heap_after_kb, e.heap_total_kb),
        (Some(123930), Some(27087), Some(1048576))
    );
    assert_eq!(
        (s(&log, e.collector), s(&log, e.name), e.cause),
        ("Nursery", "Nursery GC", 0)
    );
    assert_eq!((e.gc_id, e.line), (Some(1), 7));
    let e = &log.events[2];
    assert_eq!(
        (e.record, e.kind, e.uptime_s, e.duration_ms),
        (Record::Pause, Kind::Old, Some(218.453), 147.386)
    );
    assert_eq!((s(&log, e.collector), e.gc_id, e.line), ("GC", Some(3), 10));
    assert_eq!(
        meta(&log),
        [
            ("gc_strategy", "gencon"),
            ("heap_size_kb", "1048576"),
            ("max_heap_size_kb", "1048576"),
            ("nursery_size_kb", "102400")
        ]
    );
}

#[test]
fn r142_stamp_first_prefix_wall_clock_and_strategy_change() {
    let log = parse(
            b"[Wed Nov 16 15:19:08 2005][29147][memory ] GC strategy: System optimized over pausetime\n\
              [Wed Nov 16 15:19:08 2005][29147][memory ] heap size: 32768K, maximal heap size: 65536K, nursery size: 10240K\n\
              [Wed Nov 16 15:19:26 2005][29147][memory ] Changing GC strategy to single generation, concurrent mark and parallel sweep\n\
              [Wed Nov 16 15:19:26 2005][29147][memory ] 18.785-18.888: GC 32260K->4028K (32768K), 24.491 ms\n\
              [Wed Nov 16 15:19:35 2005][29147][memory ] 27.901: Nursery GC 29841K->20485K (32768K), 20.253 ms\n\
              [Wed Nov 16 15:21:51 2005][29147][memory ] \n\
              [Wed Nov 16 15:21:51 2005][29147][memory ] Memory usage report\n\
              [Wed Nov 16 15:21:51 2005][29147][memory ]     number of collections = 24\n\
              [Wed Nov 16 15:21:51 2005][29147][memory ]     maximum GC Pauses =      34.289 , 34.773, 47.713 ms\n",
        );
    assert_eq!((log.lines, log.skipped_lines), (9, 0));
    let (n, total, pauses, _) = totals(&log);
    assert_eq!((n, pauses), (2, 2));
    assert!(close(total, 44.744));
    // 15:19:26 minus the 103 ms span (18.785-18.888).
    let e = &log.events[0];
    assert_eq!(
        (e.kind, e.uptime_s, e.wall_ms),
        (Kind::Old, Some(18.785), Some(at(1132154366) - 103))
    );
    // A nursery line has no end: its pause (20.253 ms) is its span.
    let e = &log.events[1];
    assert_eq!(
        (e.kind, e.uptime_s, e.wall_ms),
        (Kind::Young, Some(27.901), Some(at(1132154375) - 20))
    );
    assert_eq!(
        meta(&log),
        [
            ("gc_strategy", "System optimized over pausetime"),
            ("heap_size_kb", "32768"),
            ("max_heap_size_kb", "65536"),
            ("nursery_size_kb", "10240"),
            (
                "strategy_change",
                "18.785: to single generation, concurrent mark and parallel sweep"
            )
        ]
    );
}

#[test]
fn r27_gcpause_items_before_their_collection() {
    let log = parse(
            b"[memory ][Thu Feb 21 15:06:32 2013][11844] GC mode: Garbage collection optimized for short pausetimes, initial strategy: Concurrent Mark & Sweep\n\
              [memory ][Thu Feb 21 15:06:32 2013][11844] heap size: 3145728K, maximal heap size: 3145728K\n\
              [memory ][Thu Feb 21 15:06:32 2013][11844] <pause>   - total sum of pauses during collection (milliseconds)\n\
              [memory ][Thu Feb 21 15:06:32 2013][11844]             run with -Xverbose:gcpause to see individual pauses\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] old collection phase 1 pause time: 0.812500 ms, (start time: 6.250 s)\n\
              [memory ][Thu Feb 21 15:06:38 2013][11844] Changing GC strategy to Concurrent Mark, Parallel Sweep\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] Threads waited for memory 91.500 ms starting at 6.300 s\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] old collection phase 4-0 pause time: 61.250000 ms, (start time: 6.375 s)\n\
              [gcpause][Thu Feb 21 15:06:38 2013][11844] (pause includes compaction: 15.125 ms (external), update ref: 0.375 ms)\n\
              [memory ][Thu Feb 21 15:06:38 2013][11844] 6.250-6.500: GC 3128161K->296406K (3145728K), sum of pauses 62.063 ms\n",
        );
    assert_eq!((log.lines, log.skipped_lines), (10, 0));
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (1, 2, 0));
    assert!(close(total, 62.063));
    assert_eq!(log.events.len(), 3);
    // Collection first (same start as its first pause), then the pauses in time order.
    let wall = at(1361459198) - 250; // written at the end, 6.500 - 6.250 s
    let c = &log.events[0];
    assert_eq!(
        (c.record, c.kind, c.duration_ms, c.uptime_s),
        (Record::Collection, Kind::Old, 62.063, Some(6.25))
    );
    assert_eq!((c.wall_ms, c.gc_id, c.line), (Some(wall), Some(1), 10));
    assert_eq!(
        (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
        (Some(3128161), Some(296406), Some(3145728))
    );
    let p = &log.events[1];
    assert_eq!(
        (p.record, p.kind, p.in_collection, p.gc_id),
        (Record::Pause, Kind::Old, true, Some(1))
    );
    assert_eq!(
        (p.duration_ms, p.uptime_s, p.wall_ms, p.line),
        (0.8125, Some(6.25), Some(wall), 5)
    );
    assert_eq!(s(&log, p.name), "old collection phase 1");
    let p = &log.events[2];
    assert_eq!(
        (p.in_collection, p.gc_id, p.duration_ms, p.uptime_s),
        (true, Some(1), 61.25, Some(6.375))
    );
    assert_eq!(
        (p.wall_ms, s(&log, p.name)),
        (Some(wall + 125), "old collection phase 4-0")
    );
    assert_eq!(
        meta(&log),
        [
            (
                "gc_mode",
                "Garbage collection optimized for short pausetimes"
            ),
            ("gc_strategy", "Concurrent Mark & Sweep"),
            ("heap_size_kb", "3145728"),
            ("max_heap_size_kb", "3145728"),
            (
                "strategy_change",
                "6.250: to Concurrent Mark, Parallel Sweep"
            )
        ]
    );
}

#[test]
fn r27_info_prefix_without_gcpause() {
    let log = parse(
            b"[INFO ][memory ] GC mode: Static, strategy: Concurrent Mark & Sweep\n\
              [INFO ][memory ] heap size: 3145728K, maximal heap size: 3145728K\n\
              [INFO ][memory ] <s>-<end>: GC <before>K-><after>K (<heap>K), <pause> ms\n\
              [INFO ][memory ]             run with -Xverbose:gcpause to see individual pauses\n\
              [INFO ][memory ] 6.771-6.912: GC 3145728K->296406K (3145728K), sum of pauses 66.000 ms\n\
              [INFO ][memory ] 8.528-8.635: GC 3079893K->629445K (3145728K), sum of pauses 35.480 ms",
        );
    assert_eq!((log.lines, log.skipped_lines), (6, 0));
    let (n, total, pauses, _) = totals(&log);
    assert_eq!((n, pauses), (2, 2));
    assert!(close(total, 101.48));
    let e = &log.events[1];
    assert_eq!(
        (e.record, e.kind, e.in_collection, e.gc_id),
        (Record::Pause, Kind::Old, false, Some(2))
    );
    assert_eq!(
        (e.uptime_s, e.duration_ms, e.wall_ms),
        (Some(8.528), 35.48, None)
    );
    assert_eq!(
        meta(&log)[..2],
        [
            ("gc_mode", "Static"),
            ("gc_strategy", "Concurrent Mark & Sweep")
        ]
    );
}

#[test]
fn r27_nursery_pause_line_follows_its_collection() {
    let log = parse(
            b"[memory ][Mon Feb 18 14:30:06 2013][09776] 21.500: parallel nursery GC 3145728K->3142656K (3145728K), 21.375 ms\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] nursery collection pause time: 21.375250 ms\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] Threads waited for memory 70.250 ms starting at 21.499 s\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] old collection phase 1-0 pause time: 44.125000 ms, (start time: 21.600 s)\n\
              [gcpause][Mon Feb 18 14:30:06 2013][09776] (pause includes compaction: 20.500 ms (internal), update ref: 3.250 ms)\n\
              [memory ][Mon Feb 18 14:30:06 2013][09776] 21.600-21.645: GC 3145728K->1687917K (3145728K), 44.125 ms\n\
              [memory ][Mon Feb 18 14:30:07 2013][09776] 22.310: parallel nursery GC 2649495K->2647957K (3145728K), 12.250 ms\n",
        );
    assert_eq!((log.lines, log.skipped_lines), (7, 0));
    let (n, total, pauses, _) = totals(&log);
    assert_eq!((n, pauses), (3, 3));
    assert!(close(total, 77.75));
    let k: Vec<_> = log
        .events
        .iter()
        .map(|e| (e.record, e.kind, e.in_collection, e.gc_id))
        .collect();
    assert_eq!(
        k,
        [
            (Record::Collection, Kind::Young, false, Some(1)),
            (Record::Pause, Kind::Young, true, Some(1)),
            (Record::Collection, Kind::Old, false, Some(2)),
            (Record::Pause, Kind::Old, true, Some(2)),
            (Record::Pause, Kind::Young, false, Some(3)),
        ]
    );
    let p = &log.events[1];
    assert_eq!(
        (p.duration_ms, p.uptime_s, s(&log, p.name)),
        (21.37525, Some(21.5), "nursery collection")
    );
    assert_eq!(
        (p.wall_ms, log.events[0].wall_ms),
        (Some(at(1361197806) - 21), Some(at(1361197806) - 21))
    );
    assert_eq!(s(&log, log.events[0].collector), "Nursery");
    assert_eq!(log.events[2].wall_ms, Some(at(1361197806) - 45));
    assert_eq!(log.events[3].wall_ms, Some(at(1361197806) - 45));
    assert_eq!(log.events[4].wall_ms, Some(at(1361197807) - 12));
}

#[test]
fn r27_pause_lines_after_or_before_their_collection_line() {
    // The first pause line follows its nursery line (inside its span), the second precedes
    // the next one (outside the first one's span): each goes with its own collection.
    let log = parse(
        b"[memory ] 40.000: parallel nursery GC 600000K->200000K (3145728K), 12.500 ms\n\
              [gcpause] nursery collection pause time: 12.500000 ms, (start time: 40.000 s)\n\
              [gcpause] nursery collection pause time: 9.250000 ms, (start time: 45.000 s)\n\
              [memory ] 45.000: parallel nursery GC 700000K->250000K (3145728K), 9.250 ms\n",
    );
    let (n, total, pauses, _) = totals(&log);
    assert_eq!((n, pauses), (2, 2));
    assert!(close(total, 21.75));
    let k: Vec<_> = log
        .events
        .iter()
        .map(|e| (e.record, e.in_collection, e.gc_id, e.uptime_s, e.line))
        .collect();
    assert_eq!(
        k,
        [
            (Record::Collection, false, Some(1), Some(40.0), 1),
            (Record::Pause, true, Some(1), Some(40.0), 2),
            (Record::Collection, false, Some(2), Some(45.0), 4),
            (Record::Pause, true, Some(2), Some(45.0), 3),
        ]
    );
}

#[test]
fn r27_stale_and_unfinished_pauses_stay_standalone() {
    let log = parse(
        b"[gcpause] old collection phase 1 pause time: 2.500000 ms, (start time: 10.000 s)\n\
              [memory ] 20.000-20.300: GC 900000K->300000K (1048576K), sum of pauses 7.000 ms\n\
              [gcpause] old collection phase 1 pause time: 3.000000 ms, (start time: 30.000 s)\n\
              [gcpause] old collection phase 4-0 pause time: 4.000000 ms, (start time: 30.200 s)\n",
    );
    let (n, total, pauses, _) = totals(&log);
    assert_eq!((n, pauses), (4, 4));
    assert!(close(total, 16.5));
    assert!(log
        .events
        .iter()
        .all(|e| e.record == Record::Pause && !e.in_collection));
    let ids: Vec<_> = log.events.iter().map(|e| e.gc_id).collect();
    assert_eq!(ids, [None, Some(1), None, None]);
}

#[test]
fn r28_gcpause_phases_and_their_collection() {
    let log = parse(
            b"[memory ][Sat Nov 17 16:36:45 2012][20346] GC mode: Garbage collection optimized for short pausetimes, strategy: Generational Concurrent Mark & Sweep.\n\
              [memory ][Sat Nov 17 16:36:45 2012][20346] Heap size: 25165824KB, maximal heap size: 25165824KB, nursery size: 4194304KB.\n\
              [memory ][Sat Nov 17 16:36:45 2012][20346] -: KB->KB (KB), ms, sum of pauses ms.\n\
              [memory ][Sat Nov 17 16:41:52 2012][20346] [YC#1] GC reason: Allocation request failed.\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [---] 400.250 ms (306.500000-306.900000) YC\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [con] 0.004 ms (306.500000-306.500000) YC:PreGC\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [pau] 399.875 ms (306.500000-306.900000) YC:Main\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] [YC#1] [con] 0.062 ms (306.900000-306.900000) YC:PostGC\n\
              [memory ][Sat Nov 17 16:41:52 2012][20346] [YC#1] 306.500-306.900: YC 4264185KB->1261907KB (25165824KB), 0.400 s, sum of pauses 399.875 ms, longest pause 399.875 ms.\n\
              [gcpause][Sat Nov 17 16:41:52 2012][20346] Thread \"AD Thread Pool-Global1\" id=22 idx=0x4c tid=20366 was in TLA-fetch 400.500 ms from 306.500 s (1 GCs).\n",
        );
    assert_eq!((log.lines, log.skipped_lines), (10, 0));
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (1, 1, 2));
    assert!(close(total, 399.875));
    let wall = at(1353170512) - 400;
    let kinds: Vec<_> = log
        .events
        .iter()
        .map(|e| (e.record, s(&log, e.name), e.wall_ms))
        .collect();
    assert_eq!(
        kinds,
        [
            (Record::Collection, "YC", Some(wall)),
            (Record::Concurrent, "YC:PreGC", Some(wall)),
            (Record::Pause, "YC:Main", Some(wall)),
            (Record::Concurrent, "YC:PostGC", Some(wall + 400)),
        ]
    );
    for e in &log.events {
        assert_eq!((e.kind, e.gc_id), (Kind::Young, Some(1)));
        assert_eq!(s(&log, e.cause), "Allocation request failed");
        assert_eq!(s(&log, e.collector), "YC");
    }
    let c = &log.events[0];
    assert_eq!(
        (c.duration_ms, c.uptime_s, c.line),
        (399.875, Some(306.5), 9)
    );
    assert_eq!(
        (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
        (Some(4264185), Some(1261907), Some(25165824))
    );
    let p = &log.events[2];
    assert_eq!(
        (p.in_collection, p.duration_ms, p.uptime_s, p.line),
        (true, 399.875, Some(306.5), 7)
    );
    assert_eq!(log.events[3].duration_ms, 0.062);
    assert_eq!(
        meta(&log),
        [
            (
                "gc_mode",
                "Garbage collection optimized for short pausetimes"
            ),
            ("gc_strategy", "Generational Concurrent Mark & Sweep"),
            ("heap_size_kb", "25165824"),
            ("max_heap_size_kb", "25165824"),
            ("nursery_size_kb", "4194304")
        ]
    );
}

#[test]
fn r28_info_prefix_reason_strategy_and_other_modules() {
    let text = "[WARN ] Use of -Djrockit.optfile is deprecated and discouraged.\n\
            [INFO ][memory ] Running with 32 bit heap and compressed references.\n\
            [INFO ][memory ] Java heap regions:\n \
            [00000000a0000000 - 00000000d0000000] rw-- (pagesize=0x1000)\n \
            768MB committed, 768MB reserved.\n\
            [INFO ][memory ] GC mode: Garbage collection optimized for throughput, strategy: Generational Parallel Mark & Sweep.\n\
            [INFO ][memory ] <start>-<end>: <type> <before>KB-><after>KB (<heap>KB), <time> ms, sum of pauses <pause> ms.\n\
            [INFO ][memory ] [OC#3] Changing GC strategy from: singleparcon to: singleparpar, reason: Emergency parallel sweep requested.\n\
            [INFO ][memory ] [OC#3] GC reason: Allocation request failed (31576 bytes).\n\
            [INFO ][memory ] [OC#3] 27.641: OC started.\n\
            [alloc  ] [OC#3] Pending requests at 'Before OC' - Total: 1, TLAs: 0 (approx 0 bytes), objects: 1 (31576 bytes). Max age: 0.\n\
            [compact] [OC#3] Compaction reason: Normal.\n\
            [nursery] [OC#3] Nursery size remains at 393201KB. Nursery list consists of 5057 parts.\n\
            [INFO ][memory ] [OC#3] Total mark time: 5.125 ms.\n\
            [INFO ][memory ] [OC#3] 27.641-27.656: OC 332952KB->214035KB (524288KB), 0.015 s, sum of pauses 12.625 ms, longest pause 12.500 ms.\n\
            [ERROR][memory ] Throwing OutOfMemory: allocLargeObjectOrArray: [B, size 118101136\n\
            [INFO ][memory ] [YC#7] 30.100-30.125: YC 400000KB->150000KB (524288KB), 0.025 s, sum of pauses 24.750 ms, longest pause 24.750 ms.\n\
            Exception in thread \"main\" java.lang.OutOfMemoryError: allocLargeObjectOrArray: [B, size 118101136\n\
            \tat com.example.Load.main(Load.java:42)\n";
    let log = parse(text.as_bytes());
    assert_eq!((log.lines, log.skipped_lines), (19, 2));
    assert_eq!((log.bad[0].line, log.bad[1].line), (18, 19));
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (2, 2, 0));
    assert!(close(total, 37.375));
    let oc = &log.events[0];
    assert_eq!(
        (oc.record, oc.kind, oc.gc_id, oc.uptime_s),
        (Record::Pause, Kind::Old, Some(3), Some(27.641))
    );
    assert_eq!(
        (s(&log, oc.cause), s(&log, oc.collector), oc.duration_ms),
        ("Allocation request failed", "OC", 12.625)
    );
    let yc = &log.events[1];
    assert_eq!(
        (yc.kind, yc.gc_id, yc.cause, yc.duration_ms),
        (Kind::Young, Some(7), 0, 24.75)
    );
    assert_eq!(
            meta(&log),
            [
                ("gc_mode", "Garbage collection optimized for throughput"),
                ("gc_strategy", "Generational Parallel Mark & Sweep"),
                (
                    "strategy_change",
                    "27.641: from: singleparcon to: singleparpar, reason: Emergency parallel sweep requested."
                )
            ]
        );
}

#[test]
fn r28_truncated_collection_keeps_its_pauses() {
    let log = parse(
        b"[INFO ][gcpause] [YC#12] [---] 95.500 ms (870.400000-870.496000) YC\n\
              [INFO ][gcpause] [YC#12] [con] 0.003 ms (870.400000-870.400000) YC:PreGC\n\
              [INFO ][gcpause] [YC#12] [pau] 95.375 ms (870.400000-870.495000) YC:Main\n\
              [INFO ][gcpause] [YC#12] [con] 0.011 ms (870.4950",
    );
    // The cut last line looks like a phase line but cannot be read.
    assert_eq!((log.lines, log.skipped_lines), (4, 1));
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (1, 1, 1));
    assert!(close(total, 95.375));
    let p = &log.events[1];
    assert_eq!(
        (p.record, p.kind, p.in_collection, p.gc_id),
        (Record::Pause, Kind::Young, false, Some(12))
    );
    assert_eq!((p.uptime_s, s(&log, p.name)), (Some(870.4), "YC:Main"));
}

#[test]
fn nursery_during_old_collection_is_put_in_start_order() {
    let log = parse(
        b"[memory ] 100.100: Nursery GC 20385K->19901K (32768K), 12.250 ms\n\
              [memory ] 100.150: Nursery GC 19901K->19901K (32768K), 10.500 ms\n\
              [memory ] 100.120-100.700: GC 19901K->16717K (32768K), 384.125 ms\n",
    );
    let order: Vec<_> = log
        .events
        .iter()
        .map(|e| (e.uptime_s, e.line, e.kind))
        .collect();
    assert_eq!(
        order,
        [
            (Some(100.1), 1, Kind::Young),
            (Some(100.12), 3, Kind::Old),
            (Some(100.15), 2, Kind::Young)
        ]
    );
}

#[test]
fn prefixes_and_helpers() {
    let p = split_prefix(b"[INFO ][memory ] [OC#1] x");
    assert_eq!(
        (p.module, p.level, p.wall, p.rest),
        (Some(&b"memory"[..]), true, None, &b"[OC#1] x"[..])
    );
    let p = split_prefix(b"[Wed Nov 16 15:19:26 2005][29147][memory ] 1.0");
    assert_eq!(
        (p.module, p.wall, p.rest),
        (Some(&b"memory"[..]), Some(at(1132154366)), &b"1.0"[..])
    );
    let p = split_prefix(b"[gcpause][Thu Feb 21 15:06:38 2013][11844] y");
    assert_eq!(
        (p.module, p.wall, p.rest),
        (Some(&b"gcpause"[..]), Some(at(1361459198)), &b"y"[..])
    );
    let p = split_prefix(b"[INFO] Deserialization");
    assert_eq!((p.module, p.level), (None, false));
    let p = split_prefix(b"[12345] x");
    assert_eq!((p.module, p.rest), (None, &b"[12345] x"[..]));
    assert_eq!(
        split_tag(b"[YC#12] a"),
        (
            Some(Tag {
                young: true,
                id: 12
            }),
            &b"a"[..]
        )
    );
    assert_eq!(split_tag(b"[OC#x] a").0, None);
    assert_eq!(
        cause_text(b"Allocation request failed (31576 bytes)."),
        b"Allocation request failed"
    );
    assert_eq!(cause_text(b"System.gc() called."), b"System.gc() called");
}

#[test]
fn empty_and_blank_input() {
    let log = parse(b"");
    assert_eq!((log.lines, log.skipped_lines, log.events.len()), (0, 0, 0));
    let log = parse(b"\n\r\n  \n");
    assert_eq!((log.lines, log.skipped_lines, log.events.len()), (3, 0, 0));
}

/// A small xorshift generator: deterministic "random" input without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn check_invariants(buf: &[u8]) {
    let log = parse(buf);
    assert_eq!(log.lines, crate::parse::lines::count(buf));
    assert!(log.skipped_lines <= log.lines);
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines
    );
    for e in &log.events {
        assert!(e.duration_ms.is_finite() && e.duration_ms >= 0.0);
        assert!(e.line >= 1 && e.line <= log.lines);
    }
}

#[test]
fn random_bytes_do_not_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for len in [1usize, 7, 100, 4096, 65536] {
        let buf: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        check_invariants(&buf);
    }
    // Random lines from JRockit fragments reach the deeper branches.
    const PARTS: &[&str] = &[
        "[memory ]",
        "[gcpause]",
        "[INFO ]",
        "[nursery]",
        "[Thu Feb 21 15:06:38 2013]",
        "[11844]",
        " ",
        "[YC#",
        "[OC#",
        "7",
        "]",
        " [pau] ",
        " [con] ",
        " [---] ",
        "12.5",
        "-",
        "306.486000",
        " ms",
        " ms (",
        ")",
        ": ",
        "GC ",
        "Nursery GC ",
        "YC ",
        "123K",
        "->",
        "KB",
        " (",
        "), ",
        "sum of pauses ",
        "pause time: ",
        ", (start time: ",
        " s)",
        "GC reason: ",
        "heap size: ",
        "Changing GC strategy ",
        "GC mode: ",
        "strategy: ",
        ",",
        ".",
        "\u{e9}",
        "\n",
        "\n",
        "\r\n",
    ];
    for round in 0..300 {
        let mut buf = Vec::new();
        for _ in 0..(rng.next() % 200) {
            buf.extend_from_slice(PARTS[(rng.next() % PARTS.len() as u64) as usize].as_bytes());
        }
        if round % 3 == 0 {
            buf.push(0xff);
        }
        check_invariants(&buf);
    }
}

#[test]
fn every_truncation_of_a_log_parses() {
    let buf = include_bytes!("../../fixtures/jrockit/r28-gencon-gcpause.log");
    let head = buf.get(..6000).unwrap_or(buf);
    for cut in 0..=head.len() {
        check_invariants(&head[..cut]);
    }
    let buf = include_bytes!("../../fixtures/jrockit/r26-detgc.log");
    for cut in (0..=buf.len()).step_by(3) {
        check_invariants(&buf[..cut]);
    }
}

#[test]
fn non_utf8_bytes_are_tolerated() {
    let log = parse(
            b"[memory ] GC strategy: gen\xffcon\n\
              \xfe\xff[INFO] x\n\
              [gcpause] old \xe9 collection phase 1 pause time: 1.500000 ms, (start time: 9.000 s)\n\
              [memory ] 9.000-9.100: GC 123930K->27087K (1048576K), sum of pauses 1.500 ms\n\
              [memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.4",
        );
    assert_eq!((log.lines, log.skipped_lines), (5, 2));
    assert_eq!(
        log.meta[0],
        ("gc_strategy".to_owned(), "gen\u{fffd}con".to_owned())
    );
    let (n, total, pauses, _) = totals(&log);
    assert_eq!((n, pauses), (1, 1));
    assert!(close(total, 1.5));
    assert_eq!(
        s(&log, log.events[1].name),
        "old \u{fffd} collection phase 1"
    );
}

#[test]
fn fixture_r26_detgc() {
    // Deterministic GC: 12 old collections, each itemised by 4 pauses of at most 30 ms.
    let log = parse(include_bytes!("../../fixtures/jrockit/r26-detgc.log"));
    assert_eq!((log.lines, log.skipped_lines), (86, 0));
    // The `Deterministic GC target pause time: 30 ms` line: the run's pause target.
    assert!(log
        .meta
        .contains(&("pause_target_ms".to_owned(), "30".to_owned())));
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (12, 48, 0));
    assert!(close(total, 605.221));
    let pause_sum: f64 = log
        .events
        .iter()
        .filter(|e| e.record == Record::Pause)
        .map(|e| e.duration_ms)
        .sum();
    assert!(close(pause_sum, 605.220544));
    let max = log
        .events
        .iter()
        .filter(|e| e.record == Record::Pause)
        .map(|e| e.duration_ms)
        .fold(0.0, f64::max);
    assert_eq!(max, 28.90731);
    assert!(log
        .events
        .iter()
        .all(|e| e.kind == Kind::Old && (e.record == Record::Collection || e.in_collection)));
    let c = &log.events[0];
    assert_eq!(
        (c.record, c.uptime_s, c.duration_ms, c.gc_id),
        (Record::Collection, Some(4.2), 46.087, Some(1))
    );
    assert_eq!(
        (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
        (Some(975897), Some(188154), Some(1048576))
    );
    assert_eq!(c.wall_ms, Some(at(1363083306) - 363)); // 10:15:06 minus 4.200-4.563
    let names: Vec<_> = log.events[1..5]
        .iter()
        .map(|e| (s(&log, e.name), e.gc_id))
        .collect();
    assert_eq!(
        names,
        [
            ("old collection phase 1", Some(1)),
            ("old collection phase 3", Some(1)),
            ("old collection phase 4-0", Some(1)),
            ("old collection phase 4-1", Some(1))
        ]
    );
    assert_eq!(log.events[4].wall_ms, Some(at(1363083306) - 363 + 345)); // starts at 4.545
    let last = &log.events[55];
    assert_eq!(
        (last.record, last.uptime_s, last.duration_ms, last.gc_id),
        (Record::Collection, Some(71.407), 49.324, Some(12))
    );
    assert_eq!(
        meta(&log)[0],
        (
            "gc_mode",
            "Garbage collection optimized for deterministic pausetimes"
        )
    );
}

#[test]
fn fixture_r26_gencon() {
    // -Xverbose:memory only: every collection is one standalone pause; one nursery collection
    // runs during an old one and is written before it.
    let log = parse(include_bytes!("../../fixtures/jrockit/r26-gencon.log"));
    assert_eq!((log.lines, log.skipped_lines), (91, 2));
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (70, 70, 0));
    assert!(close(total, 2590.834));
    let young = log.events.iter().filter(|e| e.kind == Kind::Young).count();
    let old: f64 = log
        .events
        .iter()
        .filter(|e| e.kind == Kind::Old)
        .map(|e| e.duration_ms)
        .sum();
    assert_eq!(young, 65);
    assert!(close(old, 1091.055));
    let max = log.events.iter().map(|e| e.duration_ms).fold(0.0, f64::max);
    assert_eq!(max, 274.862);
    assert!(log
        .events
        .windows(2)
        .all(|w| w[0].uptime_s <= w[1].uptime_s));
    assert!(log
        .events
        .iter()
        .all(|e| e.record == Record::Pause && !e.in_collection && e.wall_ms.is_none()));
    assert_eq!(
        meta(&log),
        [
            ("gc_mode", "Static"),
            ("gc_strategy", "Generational Concurrent Mark & Sweep"),
            ("heap_size_kb", "524288"),
            ("max_heap_size_kb", "1048576"),
            ("nursery_size_kb", "65536"),
            (
                "strategy_change",
                "128.734: to Generational Concurrent Mark, Parallel Sweep"
            ),
            (
                "strategy_change",
                "168.679: to Generational Concurrent Mark & Sweep"
            )
        ]
    );
}

#[test]
fn fixture_r28_gencon_gcpause() {
    // 14 YC + 2 OC with their phases, then YC#15 cut off before its [memory ] line.
    let log = parse(include_bytes!(
        "../../fixtures/jrockit/r28-gencon-gcpause.log"
    ));
    assert_eq!((log.lines, log.skipped_lines), (178, 0));
    let (n, total, pauses, conc) = totals(&log);
    assert_eq!((n, pauses, conc), (17, 23, 37));
    assert!(close(total, 773.509 + 42.125));
    let colls: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Collection)
        .collect();
    assert_eq!(colls.len(), 16);
    assert_eq!(colls.iter().filter(|e| e.kind == Kind::Old).count(), 2);
    assert!(colls
        .iter()
        .all(|e| s(&log, e.cause) == "Allocation request failed"));
    let c = colls[0];
    assert_eq!(
        (c.kind, c.gc_id, c.uptime_s, c.duration_ms),
        (Kind::Young, Some(1), Some(11.3), 24.037)
    );
    assert_eq!(
        (c.heap_before_kb, c.heap_after_kb, c.heap_total_kb),
        (Some(281000), Some(186668), Some(1048576))
    );
    assert_eq!(c.wall_ms, Some(at(1365412374) - 24));
    // OC#1: 4 pauses (Initial, Main, SweepSwitch, Cleanup) summing to its 74.915 ms.
    let oc1: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.kind == Kind::Old && e.gc_id == Some(1))
        .collect();
    assert_eq!(oc1[0].record, Record::Collection);
    assert_eq!(
        (oc1[0].duration_ms, oc1[0].uptime_s),
        (74.915, Some(55.881))
    );
    assert_eq!(oc1[0].wall_ms, Some(at(1365412419) - 473));
    let p: Vec<_> = oc1
        .iter()
        .filter(|e| e.record == Record::Pause)
        .map(|e| (s(&log, e.name), e.duration_ms))
        .collect();
    assert_eq!(
        p,
        [
            ("OC:Initial", 9.874),
            ("OC:Main", 64.838),
            ("OC:SweepSwitch", 0.011),
            ("OC:Cleanup", 0.192)
        ]
    );
    assert_eq!(
        oc1.iter()
            .filter(|e| e.record == Record::Concurrent)
            .count(),
        4
    );
    let orphan = log
        .events
        .iter()
        .find(|e| e.record == Record::Pause && !e.in_collection);
    let orphan = orphan.map(|e| (e.kind, e.gc_id, e.uptime_s, e.duration_ms));
    assert_eq!(orphan, Some((Kind::Young, Some(15), Some(96.762), 42.125)));
    assert_eq!(meta(&log)[4], ("nursery_size_kb", "131072"));
    assert_eq!(
        meta(&log)[5],
        (
            "strategy_change",
            "92.074: from: genconcon to: genconpar, reason: Emergency parallel sweep requested."
        )
    );
}

/// (record, ignored, skipped) lines, every line counted once.
fn counts(log: &GcLog) -> (u64, u64, u64) {
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines,
        "accounting"
    );
    (log.record_lines, log.ignored_lines, log.skipped_lines)
}

const NURSERY: &str = "[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms";

#[test]
fn line_accounting() {
    let log = parse(
        format!(
            "[memory ] GC strategy: gencon\n\
[memory ] <s>-<end>: GC <before>K-><after>K (<heap>K), <pause> ms\n\
[memory ] -: KB->KB (KB), ms, sum of pauses ms.\n\
\n\
[INFO ][memory ] [YC#1] 124.644: YC started.\n\
[gcpause] old collection phase 1 pause time: 0.550209 ms, (start time: 6.290 s)\n\
[gcpause] (pause includes compaction: 2.0 ms (internal), update ref: 1.0 ms)\n\
[gcpause] Threads waited for memory 1.0 ms starting at 6.3 s\n\
[gcpause] something we do not know\n\
[nursery] Nursery size increased from 0KB to 393216KB.\n\
[WARN ] Use of -Djrockit.optfile is deprecated\n\
 [00000000a0000000 - 00000000d0000000] rw-- (pagesize=0x1000)\n\
{NURSERY}\n"
        )
        .as_bytes(),
    );
    // Records: the pause line and the collection line. Skipped: the unknown gcpause line.
    assert_eq!(log.lines, 13);
    assert_eq!(counts(&log), (2, 10, 1));
    assert_eq!(log.bad[0].line, 9);
}

#[test]
fn values_that_cannot_be_true_are_skipped() {
    let ones = "1".repeat(400);
    let mut text = String::new();
    for pause in ["NaN", "inf", "-1", "1e308", "86400001", &ones] {
        text += &format!("[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), {pause} ms\n");
    }
    for start in ["NaN", "inf", "-1.0", "1e308", &ones] {
        text += &format!("[memory ] {start}: Nursery GC 123930K->27087K (1048576K), 5.0 ms\n");
    }
    // An end before its start; heap figures over 2^53 K; a 400-digit heap figure.
    text += "[memory ] 6.424-6.290: GC 3128161K->296406K (3145728K), sum of pauses 59.084 ms\n";
    text += "[memory ] 9.385: Nursery GC 9007199254740994K->27087K (1048576K), 5.0 ms\n";
    text += &format!("[memory ] 9.385: Nursery GC {ones}K->27087K (1048576K), 5.0 ms\n");
    // 5.0 itemised pauses; R28 phases.
    for pause in ["NaN", "-1.0", "1e308", &ones] {
        text += &format!(
            "[gcpause] old collection phase 1 pause time: {pause} ms, (start time: 6.290 s)\n"
        );
    }
    text += "[gcpause] old collection phase 1 pause time: 1.0 ms, (start time: -6.290 s)\n";
    for (dur, span) in [
        ("NaN", "306.486000-306.914000"),
        ("1e308", "306.486000-306.914000"),
        ("-5.0", "306.486000-306.914000"),
        ("428.647", "306.914000-306.486000"),
        ("428.647", "1e308-1e309"),
    ] {
        text += &format!("[gcpause] [YC#1] [pau] {dur} ms ({span}) YC:Main\n");
        text += &format!("[gcpause] [YC#1] [---] {dur} ms ({span}) YC\n");
    }
    // Kept: a one-day pause, a 2^53 K heap.
    text += "[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 86400000 ms\n";
    text += "[memory ] 10.0: Nursery GC 9007199254740992K->27087K (1048576K), 5.0 ms\n";
    let log = parse(text.as_bytes());
    // 6 + 5 + 3 collection lines, 5 pause lines, 10 R28 lines, 2 kept.
    assert_eq!(log.lines, 31);
    assert_eq!(counts(&log), (2, 0, 29));
    assert_eq!(log.events.len(), 2);
    assert_eq!(log.events[0].duration_ms, 86_400_000.0);
    assert_eq!(log.events[1].heap_before_kb, Some(1 << 53));
    // An itemised pause that cannot be true does not turn the collection before it into a
    // `Collection`.
    let log = parse(
        b"[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
[gcpause] nursery collection pause time: 1e308 ms\n",
    );
    assert_eq!(counts(&log), (1, 0, 1));
    assert_eq!(log.events[0].record, Record::Pause);
}

#[test]
fn impossible_stamps_are_skipped() {
    let ok = "[memory ][Thu Feb 21 15:06:32 2013][11844] 6.290-6.424: GC 3128161K->296406K (3145728K), sum of pauses 59.084 ms";
    for (bad, stamp) in [
        (false, "Thu Feb 21 15:06:32 2013"),
        (true, "Thu Feb 31 15:06:32 2013"),
        (true, "Thu Feb 29 15:06:32 2013"),
        (false, "Wed Feb 29 15:06:32 2012"),
        (true, "Thu Feb 21 25:06:32 2013"),
        (true, "Thu Feb 21 15:61:32 2013"),
        (true, "Thu Fxb 21 15:06:32 2013"),
    ] {
        let line = ok.replace("Thu Feb 21 15:06:32 2013", stamp);
        let log = parse(line.as_bytes());
        assert_eq!(
            counts(&log),
            (u64::from(!bad), 0, u64::from(bad)),
            "{stamp}"
        );
    }
    // Before the module, and on a line that holds no record.
    let log = parse(
        b"[Thu Feb 30 15:19:08 2005][29147][memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
[memory ][Thu Feb 30 15:06:32 2013][11844] GC strategy: gencon\n",
    );
    assert_eq!(counts(&log), (0, 0, 2));
}

#[test]
fn lines_of_other_families_are_skipped() {
    let log = parse(
        format!(
            "{NURSERY}\n\
[0.100s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
[info][gc] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
[gc     ] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
[INFO ][gc     ] GC(0) Pause Young (Allocation Failure) 10M->5M(20M) 1.000ms\n\
[2019-03-05T14:11:18.470+0100][gc] GC(3) Pause Full (System.gc()) 5M->4M(16M) 11.5ms\n\
12.345: [GC (Allocation Failure) 12.345: [ParNew: 100K->10K(200K), 0.0100000 secs] 100K->10K(300K), 0.0100000 secs]\n\
[memory ] 12.345: [GC 100K->10K(300K), 0.0100000 secs]\n\
[7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
1348221842308,120,Home,200,OK,Users 1-1,text,true,,5120\n"
        )
        .as_bytes(),
    );
    assert_eq!(counts(&log), (1, 0, 9));
}

#[test]
fn nul_padding_around_lines() {
    let log = parse(
        format!("{NURSERY}\0\0\0\n\0\0\0\0{NURSERY}\n[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.4\x0017 ms\n\0\0\0\0").as_bytes(),
    );
    assert_eq!(log.lines, 4);
    assert_eq!(counts(&log), (2, 1, 1));
    assert_eq!(log.events.len(), 2);
}

#[test]
fn pending_pauses_are_bounded() {
    // 10,000 itemised 5.0 pauses whose collection line comes last: only the latest 256 wait
    // for it; the older ones stay standalone pauses.
    let mut text = String::new();
    for i in 0..10_000 {
        text += &format!(
            "[gcpause] old collection phase {i} pause time: 0.5 ms, (start time: {}.{:03} s)\n",
            i / 1000,
            i % 1000
        );
    }
    text += "[memory ] 0.000-10.000: GC 3128161K->296406K (3145728K), sum of pauses 5000.0 ms\n";
    let log = parse(text.as_bytes());
    assert_eq!(counts(&log), (10_001, 0, 0));
    assert_eq!(log.events.len(), 10_001);
    assert_eq!(log.events.iter().filter(|e| e.in_collection).count(), 256);
    assert_eq!(
        log.events
            .iter()
            .filter(|e| e.record == Record::Collection)
            .count(),
        1
    );
}

#[test]
fn long_names_are_capped() {
    let long = "x".repeat(100_000);
    let log = parse(
        format!(
            "[memory ] [YC#1] GC reason: {long} (31576 bytes).\n\
[gcpause] [YC#1] [pau] 1.000 ms (306.486000-306.487000) YC:{long}\n\
[memory ] [YC#1] 306.486-306.915: YC 4264185KB->1261907KB (25165824KB), 0.429 s, sum of pauses 1.000 ms\n\
[gcpause] {long} pause time: 1.0 ms, (start time: 400.0 s)\n\
[memory ] GC strategy: {long}\n"
        )
        .as_bytes(),
    );
    assert_eq!(counts(&log), (3, 2, 0));
    assert!(log.events.iter().all(|e| s(&log, e.name).len() <= 256));
    assert_eq!(s(&log, log.events[1].name).len(), 256);
    assert_eq!(s(&log, log.events[0].cause).len(), 256);
    assert!(log.meta.iter().all(|(_, v)| v.len() <= 256));
}

#[test]
fn meta_is_bounded() {
    let mut text = String::new();
    for i in 0..5000 {
        text += &format!("[memory ] Changing GC strategy to S{i}\n");
    }
    text += NURSERY;
    let log = parse(text.as_bytes());
    assert_eq!(counts(&log), (1, 5000, 0));
    assert_eq!(log.meta.len(), MAX_META);
}

/// A 20 MB line in several shapes: one line each, read or skipped (linear time, checked by
/// hand once on the release build, not asserted).
#[test]
fn twenty_megabyte_lines() {
    const N: usize = 20 << 20;
    let time = |what: &str, buf: &[u8]| {
        let t = std::time::Instant::now();
        let log = parse(buf);
        eprintln!("{what}: {:?}", t.elapsed());
        log
    };
    let digits = "7".repeat(N);
    let long = "x".repeat(N);
    for (what, text, want) in [
        ("digits", format!("[memory ] {digits}"), (0, 0, 1)),
        (
            "digits pause",
            format!("[memory ] 9.385: Nursery GC 1K->1K (2K), {digits} ms"),
            (0, 0, 1),
        ),
        (
            "long phrase",
            format!("[memory ] 9.385: Nursery {long} GC 1K->1K (2K), 1.0 ms"),
            (1, 0, 0),
        ),
        (
            "long pause name",
            format!("[gcpause] {long} pause time: 1.0 ms, (start time: 400.0 s)"),
            (1, 0, 0),
        ),
        ("memory text", format!("[memory ] {long}"), (0, 1, 0)),
        ("gcpause text", format!("[gcpause] {long}"), (0, 0, 1)),
        ("brackets", "[".repeat(N), (0, 0, 1)),
        ("prefix groups", "[INFO ]".repeat(N / 7), (0, 1, 0)),
        (
            "arrows",
            format!("[memory ] 1{}", "->".repeat(N / 2)),
            (0, 0, 1),
        ),
    ] {
        let log = time(what, text.as_bytes());
        assert_eq!(counts(&log), want, "{what}");
    }
}

#[test]
fn fixtures_account_for_every_line() {
    let fixtures: [(&[u8], u64); 3] = [
        (include_bytes!("../../fixtures/jrockit/r26-detgc.log"), 0),
        (include_bytes!("../../fixtures/jrockit/r26-gencon.log"), 2),
        (
            include_bytes!("../../fixtures/jrockit/r28-gencon-gcpause.log"),
            0,
        ),
    ];
    for (f, skipped) in fixtures {
        let log = parse(f);
        assert_eq!(counts(&log).2, skipped);
        assert!(log.record_lines >= log.events.len() as u64 / 2);
    }
}

/// `finish` puts events in (start, collection first, log order) order, an event without a
/// start taking the last start before it, whatever the disorder: compared with a stable sort
/// of the same events, over shapes a log takes (in order, old collections written after the
/// nurseries inside them, runs without a start) and shapes it does not (reversed, one early
/// event far ahead of the rest, heavy ties).
#[test]
fn finish_orders_like_a_stable_sort() {
    // A small deterministic generator (xorshift), so that a failure repeats.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut cases: Vec<Vec<(Option<f64>, bool)>> = vec![
        vec![],
        vec![(Some(1.0), false)],
        (0..50).map(|i| (Some(f64::from(i)), false)).collect(),
        (0..50)
            .map(|i| (Some(f64::from(50 - i)), i % 3 == 0))
            .collect(),
        std::iter::once((Some(1e9), false))
            .chain((0..40).map(|i| (Some(f64::from(i)), false)))
            .collect(),
        (0..60).map(|i| (None, i % 2 == 0)).collect(),
    ];
    for n in [5u64, 40, 300] {
        for _ in 0..200 {
            let mut t = 0.0;
            let v = (0..n)
                .map(|_| {
                    let start = match rnd(10) {
                        // No start (a 5.0 pause line without one).
                        0 => None,
                        // An old collection that began well before the events written before it.
                        1 => Some(t - rnd(30) as f64),
                        // A tie.
                        2 => Some(t),
                        _ => {
                            t += rnd(5) as f64;
                            Some(t)
                        }
                    };
                    (start, rnd(3) == 0)
                })
                .collect();
            cases.push(v);
        }
    }
    for case in cases {
        let mut p = Parser::default();
        for (i, &(start, coll)) in case.iter().enumerate() {
            let record = if coll {
                Record::Collection
            } else {
                Record::Pause
            };
            let mut e = GcEvent::new(record, Kind::Young, 1.0, i as u64 + 1);
            e.uptime_s = start;
            p.log.events.push(e);
        }
        let mut want: Vec<(f64, u8, u64)> = Vec::new();
        let mut last = f64::NEG_INFINITY;
        for (i, &(start, coll)) in case.iter().enumerate() {
            if let Some(s) = start {
                last = s;
            }
            want.push((last, u8::from(!coll), i as u64 + 1));
        }
        want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        p.put_in_order();
        let got: Vec<u64> = p.log.events.iter().map(|e| e.line).collect();
        let want: Vec<u64> = want.iter().map(|w| w.2).collect();
        assert_eq!(got, want, "{case:?}");
    }
}

#[test]
fn pause_target_lines_are_meta() {
    let target = |log: &GcLog| -> Vec<String> {
        log.meta
            .iter()
            .filter(|(k, _)| k == "pause_target_ms")
            .map(|(_, v)| v.clone())
            .collect()
    };
    let log = parse(
        b"Deterministic GC target pause time: 30 ms\n\
          [memory ] Deterministic GC target pause time: 0.025 s\n\
          java -Xverbose:memory -XpauseTarget=40ms -jar app.jar\n\
          -XpauseTarget:15\n\
          [memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 5.400 ms\n",
    );
    assert_eq!(target(&log), vec!["30", "25", "40", "15"]);
    assert_eq!(counts(&log), (1, 4, 0));
    // Targets that cannot be true, or are not targets: skipped lines as before, no meta.
    let log = parse(
        b"Deterministic GC target pause time: -5 ms\n\
          Deterministic GC target pause time: 30 parsecs\n\
          Deterministic GC target pause time: 1e300 ms\n\
          -XpauseTarget 30ms\n\
          -XpauseTarget=\n",
    );
    assert!(target(&log).is_empty());
    assert_eq!(counts(&log), (0, 0, 5));
}

#[test]
fn a_collection_dropped_for_its_promotion_figure_leaves_its_pauses_standalone() {
    // YC#1's promotion figure is over 2^53 K: its collection line cannot be true and is
    // skipped; its pause, read before it, stays a pause of its own (it was once attached
    // to the dropped collection and then counted nowhere). YC#2 is whole.
    let log = parse(
        b"[INFO ][gcpause] [YC#1] [---] 10.500 ms (1.000000-1.010500) YC\n\
          [INFO ][gcpause] [YC#1] [pau] 10.250 ms (1.000000-1.010250) YC:Main\n\
          [INFO ][memory ] [YC#1] YC promoted 5 objects (18014398509481984KB).\n\
          [INFO ][memory ] [YC#1] 1.000-1.011: YC 400000KB->150000KB (524288KB), 0.011 s, sum of pauses 10.250 ms, longest pause 10.250 ms.\n\
          [INFO ][gcpause] [YC#2] [---] 20.500 ms (2.000000-2.020500) YC\n\
          [INFO ][gcpause] [YC#2] [pau] 20.250 ms (2.000000-2.020250) YC:Main\n\
          [INFO ][memory ] [YC#2] YC promoted 7 objects (1000KB).\n\
          [INFO ][memory ] [YC#2] 2.000-2.021: YC 410000KB->160000KB (524288KB), 0.021 s, sum of pauses 20.250 ms, longest pause 20.250 ms.\n",
    );
    assert_eq!((log.lines, log.skipped_lines), (8, 1));
    let (n, total, pauses, _) = totals(&log);
    assert_eq!((n, pauses), (2, 2));
    assert!(close(total, 10.25 + 20.25), "{total}");
    let coll: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.record == Record::Collection)
        .map(|e| (e.gc_id, e.promoted_kb))
        .collect();
    assert_eq!(coll, [(Some(2), Some(1000))]);
    let first = log
        .events
        .iter()
        .find(|e| e.record == Record::Pause)
        .map(|e| (e.gc_id, e.in_collection, e.duration_ms));
    assert_eq!(first, Some((Some(1), false, 10.25)));
}
