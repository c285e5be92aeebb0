//! Tests of `j9_xml.rs`. Figures worked out by hand from the fixtures: bytes / 1024 to the
//! nearest KB, used = total − free; wall clocks from `date -u -d '2020-01-01 10:00:01' +%s`.

use super::*;
use crate::parse::family::family_of_line;

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

/// (record, kind, duration ms, gc id, cause, name, line) of each event.
type Row<'a> = (Record, Kind, f64, Option<u64>, &'a str, &'a str, u64);

fn rows(log: &GcLog) -> Vec<Row<'_>> {
    log.events
        .iter()
        .map(|e| {
            assert_eq!(e.uptime_s, None);
            (
                e.record,
                e.kind,
                e.duration_ms,
                e.gc_id,
                s(log, e.cause),
                s(log, e.name),
                e.line,
            )
        })
        .collect()
}

/// (before, after, total, young before, young after) KB.
type Heaps = (
    Option<u64>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
);

fn heaps(e: &GcEvent) -> Heaps {
    (
        e.heap_before_kb,
        e.heap_after_kb,
        e.heap_total_kb,
        e.young_before_kb,
        e.young_after_kb,
    )
}

fn pause_total(log: &GcLog) -> f64 {
    log.events
        .iter()
        .filter(|e| e.record == Record::Pause)
        .map(|e| e.duration_ms)
        .sum()
}

const AF: &str = "Allocation Failure";
const SYS: &str = "System.gc()";
const CON: &str = "Concurrent collection";
const TAX: &str = "Allocation taxation";

/// Gencon, R28 style: five stops in a 1 GiB heap (1073741824 bytes = 1048576 KB).
#[test]
fn gencon_fixture_read_by_hand() {
    let log = parse(include_bytes!("../../fixtures/j9-xml/gencon-r28.xml"));
    // 116 lines. Record: the stops, lines 14-36 (23), 38-59 (22), 64-68 (5), 70-82 (13),
    // 84-114 (31) = 94. Ignored: the declaration, `<verbosegc>`, `</verbosegc>`, 9 blank
    // lines, `<initialized>` (8 lines), `<concurrent-kickoff>` (3) = 22.
    assert_eq!(accounted(&log), (116, 94, 22, 0));
    use Kind::*;
    use Record::*;
    #[rustfmt::skip]
    assert_eq!(rows(&log), vec![
        (Pause, Young, 11.0, Some(4), AF, "scavenge", 14),
        (Pause, Full, 31.25, Some(15), SYS, "global", 38),
        // The stop after the concurrent kickoff: it starts the global cycle 27.
        (Pause, InitialMark, 0.05, Some(27), "", "global", 64),
        // The stop that ends cycle 27: one collection with the one before (same gc_id).
        (Pause, Full, 20.5, Some(27), CON, "global", 70),
        // A scavenge that percolates to a global collection: one stop, full; the global
        // collection nested in it with its own 40 ms.
        (Pause, Full, 46.0, Some(40), AF, "scavenge", 84),
        (Nested, Full, 40.0, Some(47), AF, "global", 84),
    ]);
    // 11 + 31.25 + 0.05 + 20.5 + 46 = 108.8 ms, the nested 40 ms not again.
    assert!((pause_total(&log) - 108.8).abs() < 1e-9);
    let e = &log.events;
    // Before: 1073741824 − 536870912 = 536870912 = 524288 KB; nursery 268435456 − 0 =
    // 262144 KB. After: 1073741824 − 721420288 = 352321536 = 344064 KB; nursery 268435456 −
    // 201326592 = 67108864 = 65536 KB.
    assert_eq!(
        heaps(&e[0]),
        (
            Some(524288),
            Some(344064),
            Some(1048576),
            Some(262144),
            Some(65536)
        )
    );
    // After the global: 1073741824 − 939524096 = 134217728 = 131072 KB, the nursery empty.
    assert_eq!(
        heaps(&e[1]),
        (
            Some(344064),
            Some(131072),
            Some(1048576),
            Some(65536),
            Some(0)
        )
    );
    // A stop without a collection has no heap figures.
    assert_eq!(heaps(&e[2]), (None, None, None, None, None));
    // 1073741824 − 858993459 = 214748365 bytes = 209715.2 KB → 209715; no nursery given.
    assert_eq!(
        heaps(&e[3]),
        (Some(524288), Some(209715), Some(1048576), None, None)
    );
    // The stop: the scavenge's heap before (1073741824 − 268435456 = 805306368 = 786432 KB),
    // the global's after (268435456 = 262144 KB).
    assert_eq!(
        heaps(&e[4]),
        (
            Some(786432),
            Some(262144),
            Some(1048576),
            Some(262144),
            Some(0)
        )
    );
    assert_eq!(e[0].wall_ms, Some(1_577_872_801_000));
    assert_eq!(e[4].wall_ms, Some(1_577_872_801_000 + 11_000));
    // The nested collection's own start; its heap figures are the stop's, on the pause.
    assert_eq!(e[5].wall_ms, Some(1_577_872_801_000 + 11_005));
    assert_eq!(heaps(&e[5]), (None, None, None, None, None));
    assert!(e.iter().all(|e| s(&log, e.collector) == "gencon"));
    assert_eq!(
        log.meta,
        vec![
            ("collector".to_owned(), "gencon".to_owned()),
            // 0x40000000 = 1073741824 bytes; 0x20000000 = 536870912.
            ("max_heap_size_kb".to_owned(), "1048576".to_owned()),
            ("heap_size_kb".to_owned(), "524288".to_owned()),
        ]
    );
}

/// J9 5.0: an allocation failure, a `System.gc()` and a concurrent collection's final stop.
#[test]
fn j9_5_0_fixture_read_by_hand() {
    let log = parse(include_bytes!("../../fixtures/j9-xml-5.0/af-sys-con.xml"));
    // 56 lines. Record: `<af>` 5-25 (21), `<sys>` 27-38 (12), `<con event="collection">`
    // 44-54 (11) = 44. Ignored: declaration, root's two tags, 7 blank lines, the kickoff (3).
    assert_eq!(accounted(&log), (56, 44, 12, 0));
    use Kind::*;
    use Record::*;
    #[rustfmt::skip]
    assert_eq!(rows(&log), vec![
        (Pause, Young, 3.5, Some(1), AF, "scavenger", 5),
        (Pause, Full, 21.0, Some(2), SYS, "global", 27),
        (Pause, Full, 15.0, Some(3), CON, "global", 44),
    ]);
    let e = &log.events;
    // Before: nursery 4194304 − 0 + tenured 52428800 − 41943040 = 14680064 = 14336 KB; after:
    // 4194304 − 3145728 + 52428800 − 41418752 = 12058624 = 11776 KB; total 4194304 +
    // 52428800 = 56623104 = 55296 KB; nursery 4096 KB → 1024 KB. The `<gc>`'s own area
    // elements are not the stop's.
    assert_eq!(
        heaps(&e[0]),
        (
            Some(14336),
            Some(11776),
            Some(55296),
            Some(4096),
            Some(1024)
        )
    );
    // 2097152 + 11010048 = 13107200 = 12800 KB → 0 + 5242880 = 5120 KB.
    assert_eq!(
        heaps(&e[1]),
        (Some(12800), Some(5120), Some(55296), Some(2048), Some(0))
    );
    // 3145728 + 41943040 = 45088768 = 44032 KB → 3145728 + 10485760 = 13631488 = 13312 KB.
    assert_eq!(heaps(&e[2]).0, Some(44032));
    assert_eq!(heaps(&e[2]).1, Some(13312));
    // `Mar 25 22:40:24 2010`: whole seconds.
    assert_eq!(e[0].wall_ms, Some(1_269_556_824_000));
    assert_eq!(e[1].wall_ms, Some(1_269_556_830_000));
    // No header names the policy.
    assert!(e.iter().all(|e| e.collector == 0));
    assert!(log.meta.is_empty());
}

/// Balanced: a partial collection and two global mark phase increments of one cycle.
#[test]
fn balanced_fixture_read_by_hand() {
    let log = parse(include_bytes!("../../fixtures/j9-xml-balanced/pgc-gmp.xml"));
    // 60 lines. Record: 10-30 (21), 32-44 (13), 46-57 (12) = 46. Ignored: declaration, root
    // tags, header (4), 6 blank lines, the `<cycle-end>` after the last stop.
    assert_eq!(accounted(&log), (60, 46, 14, 0));
    use Kind::*;
    use Record::*;
    #[rustfmt::skip]
    assert_eq!(rows(&log), vec![
        (Pause, Mixed, 101.0, Some(4), TAX, "partial gc", 10),
        (Pause, Other, 8.5, Some(14), TAX, "global mark phase", 32),
        (Pause, Other, 6.5, Some(14), TAX, "global mark phase", 46),
    ]);
    // 4294967296 − 1073741824 = 3221225472 = 3145728 KB → 4294967296 − 3221225472 =
    // 1048576 KB; eden 2147483648 = 2097152 KB → 0.
    assert_eq!(
        heaps(&log.events[0]),
        (
            Some(3145728),
            Some(1048576),
            Some(4194304),
            Some(2097152),
            Some(0)
        )
    );
    assert_eq!(log.events[0].wall_ms, Some(1_614_337_210_000));
    assert!(log
        .events
        .iter()
        .all(|e| s(&log, e.collector) == "balanced"));
    // 0x100000000 bytes = 4194304 KB.
    assert_eq!(
        log.meta,
        vec![
            ("collector".to_owned(), "balanced".to_owned()),
            ("max_heap_size_kb".to_owned(), "4194304".to_owned()),
        ]
    );
}

/// Optthruput: one heap, global collections only; the log ends without `</verbosegc>`.
#[test]
fn optthruput_fixture_read_by_hand() {
    let log = parse(include_bytes!(
        "../../fixtures/j9-xml-optthruput/af-global.xml"
    ));
    // 51 lines. Record: 11-33 (23), 35-51 (17) = 40. Ignored: declaration, `<verbosegc>`, the
    // header (5 lines), 4 blank lines.
    assert_eq!(accounted(&log), (51, 40, 11, 0));
    use Kind::*;
    use Record::*;
    #[rustfmt::skip]
    assert_eq!(rows(&log), vec![
        (Pause, Full, 76.0, Some(4), AF, "global", 11),
        (Pause, Full, 91.0, Some(15), AF, "global", 35),
    ]);
    // 536870912 = 524288 KB all in use → 536870912 − 402653184 = 134217728 = 131072 KB; no
    // nursery.
    assert_eq!(
        heaps(&log.events[0]),
        (Some(524288), Some(131072), Some(524288), None, None)
    );
    // 536870912 − 1024 = 536869888 = 524287 KB → 268435456 = 262144 KB.
    assert_eq!(
        heaps(&log.events[1]),
        (Some(524287), Some(262144), Some(524288), None, None)
    );
    assert_eq!(log.events[0].wall_ms, Some(1_462_867_230_000));
}

/// Metronome: no stops; two heartbeats (441 quanta) that give no row, two synchronous
/// collections that give a full pause each.
#[test]
fn metronome_fixture_read_by_hand() {
    let log = parse(include_bytes!(
        "../../fixtures/j9-xml-metronome/heartbeat-syncgc.xml"
    ));
    // 48 lines. Record: the syncgc elements, 38-42 and 43-46 (9). Ignored: declaration,
    // `<verbosegc>` and its end, the header (12 lines), trigger and cycle starts and ends (4),
    // the heartbeats (15), `<out-of-memory>`, 4 blank lines = 39.
    assert_eq!(accounted(&log), (48, 9, 39, 0));
    use Kind::*;
    use Record::*;
    #[rustfmt::skip]
    assert_eq!(rows(&log), vec![
        (Pause, Full, 6.439, Some(8), "out of memory", "syncgc", 38),
        (Pause, Full, 12.5, Some(9), "system garbage collect", "syncgc", 43),
    ]);
    // The stamps are written at the collection's end: 12:01:00.007 − 6 ms, 12:02:00.013 −
    // 13 ms (12.5 rounded); `date -u -d '2021-03-01 12:01:00' +%s` = 1614600060.
    assert_eq!(log.events[0].wall_ms, Some(1_614_600_060_001));
    assert_eq!(log.events[1].wall_ms, Some(1_614_600_120_000));
    // Free bytes only: no heap figures.
    assert_eq!(heaps(&log.events[0]), (None, None, None, None, None));
    assert!(log
        .events
        .iter()
        .all(|e| s(&log, e.collector) == "metronome"));
    // The heartbeats said once, as what is not counted.
    let said: Vec<&str> = log
        .meta
        .iter()
        .filter(|(k, _)| k == crate::model::META_UNCOUNTED)
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(said, vec![HEARTBEATS]);
}

/// A metronome log of heartbeats alone gives no row, and says why; a syncgc inside a stop is
/// the stop's collection, the stop's time its pause.
#[test]
fn metronome_heartbeats_alone_and_syncgc_in_a_stop() {
    let fixture = include_str!("../../fixtures/j9-xml-metronome/heartbeat-syncgc.xml");
    let beats: String = fixture.lines().take(36).map(|l| format!("{l}\n")).collect();
    let log = text(&beats);
    assert_eq!(accounted(&log), (36, 0, 36, 0));
    assert!(log.events.is_empty());
    assert!(log
        .meta
        .iter()
        .any(|(k, _)| k == crate::model::META_UNCOUNTED));
    let stop = r#"<exclusive-start id="2" timestamp="2021-03-01T12:01:00.000" intervalms="1.000" />
<gc-op id="8" type="syncgc" timems="6.439" contextid="8" timestamp="2021-03-01T12:01:00.007">
  <syncgc-info reason="out of memory" exclusiveaccessTimeMs="0.009" threadPriority="11" />
</gc-op>
<exclusive-end id="9" timestamp="2021-03-01T12:01:00.008" durationms="7.000" />
"#;
    let log = text(stop);
    assert_eq!(accounted(&log), (5, 5, 0, 0));
    assert_eq!(
        rows(&log),
        vec![(
            Record::Pause,
            Kind::Full,
            7.0,
            Some(8),
            "out of memory",
            "syncgc",
            1
        )]
    );
    assert!(log.meta.is_empty());
}

fn text(b: &str) -> GcLog {
    parse(b.as_bytes())
}

const STOP: &str = r#"<exclusive-start id="2" timestamp="2020-01-01T10:00:01.000" intervalms="1.000">
  <response-info timems="0.010" idlems="0.010" threads="0" />
</exclusive-start>
<af-start id="3" totalBytesRequested="24" timestamp="2020-01-01T10:00:01.000" />
<gc-start id="5" type="scavenge" contextid="4" timestamp="2020-01-01T10:00:01.000">
  <mem-info id="6" free="0" total="1048576" percent="0" />
</gc-start>
<gc-op id="7" type="scavenge" timems="2.000" contextid="4" timestamp="2020-01-01T10:00:01.002" />
<gc-end id="8" type="scavenge" contextid="4" durationms="2.500" timestamp="2020-01-01T10:00:01.003">
  <mem-info id="9" free="524288" total="1048576" percent="50" />
</gc-end>
<exclusive-end id="13" timestamp="2020-01-01T10:00:01.003" durationms="3.000" />
"#;

/// A log cut inside a stop keeps the stops before; a stop cut after its collection ended is
/// the pause of its collection's time, one cut before it is skipped.
#[test]
fn cut_stops() {
    // The stop (12 lines) whole: 3 ms, 1024 KB → 512 KB.
    let log = text(STOP);
    assert_eq!(accounted(&log), (12, 12, 0, 0));
    assert_eq!(log.events.len(), 1);
    assert_eq!(heaps(&log.events[0]).0, Some(1024));
    // Cut before `<exclusive-end>`: 11 lines, the collection's 2.5 ms.
    let cut: String = STOP.lines().take(11).map(|l| format!("{l}\n")).collect();
    let log = text(&cut);
    assert_eq!(accounted(&log), (11, 11, 0, 0));
    assert_eq!(rows(&log)[0].2, 2.5);
    // Cut before `<gc-end>`: no collection ended, the 8 lines skipped.
    let cut: String = STOP.lines().take(8).map(|l| format!("{l}\n")).collect();
    let log = text(&cut);
    assert_eq!(accounted(&log), (8, 0, 0, 8));
    assert!(log.events.is_empty());
    assert_eq!(log.bad[0].line, 1);
    // Cut inside `<gc-end>` (its first line only), then the stop again: the first stop holds no
    // ended collection when the next starts: its 9 lines skipped, the second read.
    let cut: String = STOP.lines().take(9).map(|l| format!("{l}\n")).collect();
    let log = text(&format!("{cut}{STOP}"));
    assert_eq!(accounted(&log), (21, 12, 0, 9));
    assert_eq!(log.events.len(), 1);
    assert_eq!(log.events[0].line, 10);
}

/// An element that is not well-formed, or not closed, is skipped with its lines; the stop
/// around it is still read. Text and a stop's element outside a stop are skipped, counted
/// and reported by line.
#[test]
fn damaged_elements_are_skipped_and_counted() {
    // A quote lost in the `<gc-op>` (line 8): its line skipped, the stop a pause of 11 lines.
    let bad = STOP.replace(r#"timems="2.000""#, r#"timems="2.000"#);
    let log = text(&bad);
    assert_eq!(accounted(&log), (12, 11, 0, 1));
    assert_eq!(log.events.len(), 1);
    assert_eq!(log.bad[0].line, 8);
    // `</gc-start>` lost: `<gc-start>` and its `<mem-info>` (lines 5-6) end at the next
    // top-level element's line; the heap before is not known.
    let bad = STOP.replace("</gc-start>\n", "");
    let log = text(&bad);
    assert_eq!(accounted(&log), (11, 9, 0, 2));
    assert_eq!(log.events[0].heap_before_kb, None);
    assert_eq!(log.events[0].heap_after_kb, Some(512));
    assert_eq!(log.bad[0].line, 5);
    // Text (`...`, as the OpenJ9 docs elide), a `<gc-end>` without its stop (2 lines) and
    // an unknown element around a stop.
    let log = text(&format!(
        "...\n{}{STOP}<no-such-element a=\"1\" />\n",
        r#"<gc-end id="8" type="scavenge" contextid="4" durationms="2.500" timestamp="2020-01-01T10:00:01.003">
  <mem-info id="9" free="524288" total="1048576" percent="50" />
</gc-end>
"#
    ));
    assert_eq!(accounted(&log), (17, 12, 0, 5));
    assert_eq!(
        log.bad.iter().map(|b| b.line).collect::<Vec<_>>(),
        vec![1, 2, 17]
    );
    // A duration that cannot be true: the stop's lines skipped.
    let log = text(&STOP.replace(r#"durationms="3.000""#, r#"durationms="1e308""#));
    assert_eq!(accounted(&log), (12, 0, 0, 12));
}

/// `sys-start` reasons other than `explicit` are kept as written.
#[test]
fn other_sys_reasons_are_the_cause() {
    let log = text(&STOP.replace(
        r#"<af-start id="3" totalBytesRequested="24""#,
        r#"<sys-start id="3" reason="vm &amp; shutdown""#,
    ));
    assert_eq!(rows(&log)[0].4, "vm & shutdown");
}

/// Detection: the format's own lines are its own; JMeter's XML and IBM's text lines are not,
/// and this family's lines are no other's.
#[test]
fn lines_of_this_family_and_of_others() {
    for l in [
        &b"<exclusive-start id=\"2\" timestamp=\"2013-08-15T11:15:45.897\" intervalms=\"1.0\">"[..],
        b"<gc-start id=\"5\" type=\"scavenge\" contextid=\"4\" timestamp=\"x\">",
        b"  <mem-info id=\"6\" free=\"401784824\" total=\"469762048\" percent=\"85\">",
        b"<af type=\"tenured\" id=\"1\" timestamp=\"Mar 25 22:40:24 2010\" intervalms=\"0.000\">",
        b"<verbosegc version=\"200811_07\">",
        b"<con event=\"kickoff\" timestamp=\"Mar 25 22:40:40 2010\">",
    ] {
        assert_eq!(
            family_of_line(l),
            Some(FAMILY),
            "{}",
            String::from_utf8_lossy(l)
        );
    }
    for l in [
        &b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>"[..],
        b"<testResults version=\"1.2\">",
        b"<httpSample t=\"559\" lt=\"543\" ts=\"1547108154397\" s=\"false\" lb=\"Home\">",
        b"<sample t=\"12\" ts=\"1547108154960\" s=\"true\" lb=\"JSR223\"/>",
        b"</verbosegc>",
        b"<AF[3]: Allocation Failure. need 528 bytes, 9871 ms since last AF or CON>",
        b"<attribute name=\"gcPolicy\" value=\"-Xgcpolicy:gencon\" />",
        b"<af>",
    ] {
        assert!(!FAMILY.recognises(l), "{}", String::from_utf8_lossy(l));
    }
    assert_eq!(
        family_of_line(
            b"<AF[3]: Allocation Failure. need 528 bytes, 9871 ms since last AF or CON>"
        ),
        Some(crate::parse::ibm_text::FAMILY)
    );
}

/// A JMeter XML request inside a J9 log: its lines skipped, the stops around read.
#[test]
fn other_families_lines_are_skipped() {
    let log = text(&format!(
        "{STOP}<httpSample t=\"1\" ts=\"1\" s=\"true\" lb=\"x\"/>\n<AF[1]: completed in 5 ms>\n{STOP}"
    ));
    assert_eq!(accounted(&log), (26, 24, 0, 2));
    assert_eq!(log.events.len(), 2);
}

/// A stamp is the whole value: an ISO date with milliseconds, J9 5.0's without its day name,
/// or with it.
#[test]
fn wall_clock_stamps() {
    assert_eq!(
        wall_clock(b"2013-08-15T11:15:45.897"),
        Some(1_376_565_345_897)
    );
    assert_eq!(wall_clock(b"Mar 25 22:40:24 2010"), Some(1_269_556_824_000));
    assert_eq!(
        wall_clock(b"Thu Mar 25 22:40:24 2010"),
        Some(1_269_556_824_000)
    );
    assert_eq!(wall_clock(b"2013-02-30T11:15:45.897"), None);
    assert_eq!(wall_clock(b"2013-08-15T11:15:45.897junk"), None);
    assert_eq!(wall_clock(b"Xyz 25 22:40:24 2010"), None);
}

/// A stop whose `exclusive-end` never comes is taken as cut at `MAX_STOP_LINES` lines: what
/// follows is outside it.
#[test]
fn a_stop_without_end_is_cut_at_its_limit() {
    let head: String = STOP.lines().take(11).map(|l| format!("{l}\n")).collect();
    let n = 65_600;
    let log = text(&format!(
        "{head}{}<exclusive-end id=\"13\" durationms=\"3.000\" />\n",
        "<warning details=\"x\" />\n".repeat(n)
    ));
    // 11 + 65525 warnings make the stop's 65536 lines: the pause of its collection's 2.5 ms;
    // the other 75 warnings are notices outside a stop (ignored), the `exclusive-end`
    // without its stop skipped: 11 + 65600 + 1 = 65612 lines.
    assert_eq!(accounted(&log), (65_612, 65_536, 75, 1));
    assert_eq!(rows(&log)[0].2, 2.5);
}
