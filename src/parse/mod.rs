//! One parser per log family. Parsers take the whole (decompressed) input as bytes and return
//! typed records; they never print and never do I/O.

pub mod hotspot;
pub mod jrockit;
pub mod limits;
pub mod lines;
pub mod num;
pub mod perf;
pub mod unified;

use crate::model::{GcFormat, GcLog, BAD_LINES_KEPT};
use rayon::prelude::*;

/// Inputs smaller than this are parsed on one thread: splitting costs more than it saves.
const PARALLEL_MIN_BYTES: usize = 4 << 20;

fn parse_one(format: GcFormat, buf: &[u8]) -> GcLog {
    match format {
        GcFormat::Jrockit => jrockit::parse(buf),
        GcFormat::Hotspot => hotspot::parse(buf),
        GcFormat::Unified => unified::parse(buf),
    }
}

/// Parse a whole log, in parallel chunks when it is large. Chunks are cut only before a line
/// that starts a new, self-contained record of the family (`safe_start`), so no event is split.
pub fn parse_gc(format: GcFormat, buf: &[u8]) -> GcLog {
    let threads = rayon::current_num_threads();
    if buf.len() < PARALLEL_MIN_BYTES || threads < 2 {
        return parse_one(format, buf);
    }
    let chunks = split(buf, threads * 4, |line| safe_start(format, line));
    if chunks.len() < 2 {
        return parse_one(format, buf);
    }
    let logs: Vec<GcLog> = chunks.par_iter().map(|c| parse_one(format, c)).collect();
    merge(logs)
}

/// Cut `buf` into about `n` pieces at line starts for which `ok` holds.
fn split(buf: &[u8], n: usize, ok: impl Fn(&[u8]) -> bool) -> Vec<&[u8]> {
    let target = buf.len() / n.max(1);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    while start < buf.len() {
        let mut pos = (start + target).min(buf.len());
        let mut cut = buf.len();
        // Walk forward line by line from the target until a safe start; give up after 64 KB
        // of trying and look at the next target instead (a log without safe starts is parsed
        // whole).
        while pos < buf.len() {
            let Some(nl) = memchr::memchr(b'\n', &buf[pos..]) else {
                break;
            };
            let line_start = pos + nl + 1;
            let line_end =
                memchr::memchr(b'\n', &buf[line_start..]).map_or(buf.len(), |e| line_start + e);
            if ok(&buf[line_start..line_end]) {
                cut = line_start;
                break;
            }
            pos = line_start;
            if pos - start > target + (64 << 20) {
                break;
            }
        }
        out.push(&buf[start..cut]);
        start = cut;
    }
    out
}

/// A line before which a chunk may start: it begins a record that does not depend on lines
/// before it.
fn safe_start(format: GcFormat, line: &[u8]) -> bool {
    match format {
        // A complete one-line HotSpot event with its stamp: `12.345: [GC ... secs]`.
        GcFormat::Hotspot => {
            line.first().is_some_and(u8::is_ascii_digit)
                && (num::contains(line, b": [GC") || num::contains(line, b": [Full GC"))
                && line.trim_ascii_end().ends_with(b"secs]")
        }
        // A JRockit 1.4/5.0 collection line (no detail lines wait for it across the cut):
        // chunks start after one, i.e. before the next line of the `[memory ]` module that
        // is not a pause detail.
        GcFormat::Jrockit => {
            num::contains(line, b"[memory ]")
                && num::contains(line, b"->")
                && !num::contains(line, b"#")
        }
        // Unified logging: the start of a GC's logging, `GC(n) Pause ...` start lines.
        GcFormat::Unified => {
            line.first() == Some(&b'[')
                && num::contains(line, b"[gc,start")
                && num::contains(line, b" Pause ")
        }
    }
}

/// Concatenate logs in order (chunks of one file, parts of a rotated set): strings
/// re-interned, line numbers counted on across the parts.
pub fn merge(logs: Vec<GcLog>) -> GcLog {
    let mut out = GcLog::default();
    let mut line_offset = 0u64;
    let total_events: usize = logs.iter().map(|l| l.events.len()).sum();
    out.events.reserve(total_events);
    for part in logs {
        let map: Vec<u32> = (0..part.strings.len() as u32)
            .map(|i| out.strings.intern(part.strings.get(i)))
            .collect();
        let id = |i: u32| map.get(i as usize).copied().unwrap_or(0);
        out.events.extend(part.events.into_iter().map(|mut e| {
            e.collector = id(e.collector);
            e.cause = id(e.cause);
            e.name = id(e.name);
            e.line += line_offset;
            e
        }));
        for m in part.meta {
            if !out.meta.contains(&m) {
                out.meta.push(m);
            }
        }
        out.skipped_lines += part.skipped_lines;
        out.record_lines += part.record_lines;
        out.ignored_lines += part.ignored_lines;
        for mut b in part.bad {
            if out.bad.len() < BAD_LINES_KEPT {
                b.line += line_offset;
                out.bad.push(b);
            }
        }
        line_offset += part.lines;
    }
    out.lines = line_offset;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parallel path must give what one thread gives, on every family.
    #[test]
    fn parallel_chunks_equal_one_pass() {
        let cases: [(GcFormat, &[u8]); 3] = [
            (
                GcFormat::Hotspot,
                include_bytes!("../../fixtures/hotspot/jdk142-parnew-cms-incremental.log"),
            ),
            (
                GcFormat::Jrockit,
                include_bytes!("../../fixtures/jrockit/r26-gencon.log"),
            ),
            (
                GcFormat::Unified,
                include_bytes!("../../fixtures/unified/g1-jdk17.log"),
            ),
        ];
        for (format, one) in cases {
            // Repeat the fixture past the parallel threshold.
            let mut buf = Vec::new();
            while buf.len() < PARALLEL_MIN_BYTES + one.len() {
                buf.extend_from_slice(one);
            }
            let serial = parse_one(format, &buf);
            let chunks = split(&buf, 8, |l| safe_start(format, l));
            assert!(chunks.len() > 1, "{format:?} was not split");
            assert_eq!(chunks.concat(), buf);
            let parallel = merge(chunks.iter().map(|c| parse_one(format, c)).collect());
            assert_eq!(parallel.lines, serial.lines, "{format:?}");
            assert_eq!(parallel.events.len(), serial.events.len(), "{format:?}");
            // The JRockit parser orders a log's events by start time, and the repeated
            // fixture's times repeat: compare as sets keyed by line.
            let key = |l: &GcLog| {
                let mut v: Vec<(u64, String, String)> = l
                    .events
                    .iter()
                    .map(|e| {
                        (
                            e.line,
                            format!("{:.6}", e.duration_ms),
                            l.strings.get(e.name).to_string(),
                        )
                    })
                    .collect();
                v.sort();
                v
            };
            assert_eq!(key(&parallel), key(&serial), "{format:?}");
        }
    }
}
