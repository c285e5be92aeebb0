//! One parser per log family. Parsers take the whole (decompressed) input as bytes and return
//! typed records; they never print and never do I/O.

pub mod access;
pub mod family;
pub mod gatling;
pub mod hotspot;
pub mod ibm_text;
pub mod j9_xml;
pub mod jmeter_xml;
pub mod jrockit;
pub mod k6;
pub mod limits;
pub mod lines;
pub mod log_format;
pub mod num;
pub mod perf;
mod settle;
pub mod stream;
pub mod unified;
pub mod zone;

use crate::model::GcLog;
pub use family::GcFormat;
use rayon::prelude::*;

/// Inputs smaller than this are parsed on one thread: splitting costs more than it saves.
const PARALLEL_MIN_BYTES: usize = 4 << 20;

/// A whole log as one block, on one thread, its events kept: what every block edge must give
/// (see `stream`).
pub fn parse_one(format: GcFormat, buf: &[u8]) -> GcLog {
    let (mut log, sink, _) =
        stream::parse_in_blocks(format, buf, usize::MAX, stream::Events::default());
    log.events = sink.events;
    log
}

/// Block size for parsing a large log in parallel (a GC log in memory or streamed, a
/// performance log streamed). 512 KiB: a block and its events stay in a core's L2 while the
/// joining thread takes them, and fewer bytes are in flight — a dozen blocks and their events
/// are, so the peak of a log whose frame is small is mostly them (2 MiB blocks: 5-10 % slower,
/// 12-16 MB more at the peak on the 210 MB GC logs, and 20-25 MB more on the 2 M-request
/// semicolon log, as fast; 1 MiB against 512 KiB: 6-20 MB more, as fast; 256 KiB: the unified
/// log 10 % slower).
pub const BLOCK: usize = 1 << 19;

/// Parse a whole log in memory into `sink`, in blocks parsed in parallel when it is large:
/// the result is the one-block parse (see `stream`).
pub fn parse_blocks<S: crate::columns::Sink>(format: GcFormat, buf: &[u8], sink: S) -> (GcLog, S) {
    let threads = rayon::current_num_threads();
    let block = if buf.len() < PARALLEL_MIN_BYTES || threads < 2 {
        usize::MAX
    } else {
        BLOCK
    };
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < buf.len() {
        let end = stream::cut(format, buf, start, block);
        ranges.push((start, end));
        start = end;
    }
    let mut j = stream::Joiner::new(format, sink);
    // A round of blocks per thread at a time: memory holds their events, not the whole log's
    // twice.
    for round in ranges.chunks(threads * 2) {
        let parsed: Vec<stream::Parser> = round
            .par_iter()
            .map(|&(a, b)| stream::Parser::of(format, &buf[a..b]))
            .collect();
        for (&(a, b), p) in round.iter().zip(parsed) {
            j.block(&buf[a..b], p);
        }
    }
    j.finish()
}

/// `parse_blocks` with the events kept.
pub fn parse_gc(format: GcFormat, buf: &[u8]) -> GcLog {
    let (mut log, sink) = parse_blocks(format, buf, stream::Events::default());
    log.events = sink.events;
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_start_lines_with_tags_or_without_are_safe_starts() {
        let u = unified::FAMILY;
        for (line, safe) in [
            (
                &b"[0.5s][info][gc,start] GC(0) Pause Young (Normal) (G1 Evacuation Pause)"[..],
                true,
            ),
            (
                b"[0.5s] GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
                true,
            ),
            (b"[1.5s][info] GC(3) Pause Remark", true),
            // End lines: their duration ends them.
            (
                b"[0.5s] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 6.363ms",
                false,
            ),
            (
                b"[0.5s][info][gc] GC(0) Pause Young (Normal) 24M->4M(256M) 6.363 ms",
                false,
            ),
            (b"[0.5s] GC(0) Concurrent Mark", false),
        ] {
            assert_eq!(
                u.safe_start(line),
                safe,
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    /// The parallel path must give what one thread gives, on every family.
    #[test]
    fn parallel_blocks_equal_one_pass() {
        let cases: [(GcFormat, &[u8]); 4] = [
            (
                hotspot::FAMILY,
                include_bytes!("../../fixtures/hotspot/jdk142-parnew-cms-incremental.log"),
            ),
            (
                jrockit::FAMILY,
                include_bytes!("../../fixtures/jrockit/r26-gencon.log"),
            ),
            (
                unified::FAMILY,
                include_bytes!("../../fixtures/unified/g1-jdk17.log"),
            ),
            // Without tags: blocks cut before untagged start lines.
            (
                unified::FAMILY,
                include_bytes!("../../fixtures/unified-decorations/g1-jdk17-uptime.log"),
            ),
        ];
        for (format, one) in cases {
            // Repeat the fixture past the parallel threshold.
            let mut buf = Vec::new();
            while buf.len() < PARALLEL_MIN_BYTES + one.len() {
                buf.extend_from_slice(one);
            }
            let serial = parse_one(format, &buf);
            let parallel = parse_gc(format, &buf);
            assert_eq!(parallel.lines, serial.lines, "{format:?}");
            assert_eq!(
                (
                    parallel.record_lines,
                    parallel.ignored_lines,
                    parallel.skipped_lines
                ),
                (
                    serial.record_lines,
                    serial.ignored_lines,
                    serial.skipped_lines
                ),
                "{format:?}"
            );
            let spell = |l: &GcLog| -> Vec<(u64, String, String)> {
                l.events
                    .iter()
                    .map(|e| {
                        (
                            e.line,
                            format!("{:?} {:?} {:?}", e.duration_ms, e.uptime_s, e.gc_id),
                            l.strings.get(e.name).to_string(),
                        )
                    })
                    .collect()
            };
            // Same events in the same order.
            assert_eq!(spell(&parallel), spell(&serial), "{format:?}");
        }
    }
}
