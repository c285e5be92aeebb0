//! One parser per log family. Parsers take a block of a log's (decompressed) bytes and return
//! typed records; they never print and never do I/O. `load` reads and parses a log in blocks
//! on every core; `parse_one` parses bytes in memory as one block.

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

/// A whole log as one block, on one thread, its events kept: what every block edge must give
/// (see `stream`).
pub fn parse_one(format: GcFormat, buf: &[u8]) -> GcLog {
    let (mut log, sink, _) =
        stream::parse_in_blocks(format, buf, usize::MAX, stream::Events::default());
    log.events = sink.events;
    log
}

/// Block size for parsing a log in parallel (a GC or performance log, streamed). 512 KiB: a block and its events stay in a core's L2 while the
/// joining takes them, and fewer bytes are in flight — a dozen blocks and their events
/// are, so the peak of a log whose frame is small is mostly them (2 MiB blocks: 5-10 % slower,
/// 12-16 MB more at the peak on the 210 MB GC logs, and 20-25 MB more on the 2 M-request
/// semicolon log, as fast; 1 MiB against 512 KiB: 6-20 MB more, as fast; 256 KiB: the unified
/// log 10 % slower).
pub const BLOCK: usize = 1 << 19;

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
}
