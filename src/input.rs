//! Files in: folders walked recursively, gzip recognised by its magic bytes, the log family
//! detected from content (never from the file name).

use crate::error::{Error, Result};
use crate::model::{GcFormat, PerfFormat};
use crate::parse::lines::lines;
use crate::parse::num::contains;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Expand the paths given on the command line: files as given, folders walked recursively
/// (sorted, hidden entries skipped). A path that does not exist is kept so that reading it
/// reports the error for that file.
pub fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        out.push(dir.to_path_buf());
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let hidden = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Read a whole file, decompressing gzip (one or several members) when the content starts
/// with the gzip magic bytes, whatever the file is called.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let raw = std::fs::read(path).map_err(io)?;
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::with_capacity(raw.len() * 8);
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(io)?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

/// Open a file for streaming, decompressing gzip when the content starts with its magic
/// bytes (as `read` does). Large performance logs are read this way, block by block.
pub fn open(path: &Path) -> Result<Box<dyn Read + Send>> {
    use std::io::BufRead;
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path).map_err(io)?);
    let gz = f.fill_buf().map_err(io)?.starts_with(&[0x1f, 0x8b]);
    Ok(if gz {
        Box::new(flate2::bufread::MultiGzDecoder::new(f))
    } else {
        Box::new(f)
    })
}

/// Read from `r` until `buf` holds at least `want` bytes or the input ends; true at the end.
pub fn fill(r: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    let mut len = buf.len();
    if len >= want {
        return Ok(false);
    }
    // Read straight into the vector's spare room, zeroed once.
    buf.resize(want, 0);
    let end = loop {
        if len >= want {
            break false;
        }
        match r.read(&mut buf[len..]) {
            Ok(0) => break true,
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(len);
                return Err(e);
            }
        }
    };
    buf.truncate(len);
    Ok(end)
}

/// What a file holds, as far as detection can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    Gc(GcFormat),
    Perf(PerfFormat),
}

/// How much of a file detection weighs at least (when it holds that much).
pub const DETECT_PROBE: usize = 1 << 20;

/// Lines of one family that settle detection, and that a part of a file needs to count as a
/// log of its own (fewer are stray lines: an error message quoting a GC line).
const SETTLE: u32 = 3;

/// One line's family: a performance record or header first (its shape is strict: a date and
/// four numbers after a `;`, a JTL or Grinder row), so a request whose error message quotes a
/// GC line stays a request; then the GC families.
pub fn classify(line: &[u8], scratch: &mut crate::parse::perf::LineScratch) -> Option<Detected> {
    if let Some(p) = crate::parse::perf::classify_line(line, scratch) {
        return Some(Detected::Perf(p));
    }
    detect_line(line)
}

/// Detect the log family from content: every line of the first `DETECT_PROBE` bytes is
/// weighed and the family with the most lines wins, so headers, application output, a log
/// cut in the middle and a performance log that quotes GC lines do not defeat detection. A
/// file whose probe has fewer than three lines of any family is read on until one has three.
pub fn detect(buf: &[u8]) -> Option<Detected> {
    let mut scratch = crate::parse::perf::LineScratch::default();
    let mut counts: Vec<(Detected, u32)> = Vec::new();
    for (_, line) in lines(buf) {
        if let Some(d) = classify(line, &mut scratch) {
            match counts.iter_mut().find(|(f, _)| *f == d) {
                Some((_, n)) => *n += 1,
                None => counts.push((d, 1)),
            }
        }
        let seen = line.as_ptr() as usize - buf.as_ptr() as usize;
        if seen >= DETECT_PROBE && counts.iter().any(|&(_, n)| n >= SETTLE) {
            break;
        }
    }
    // Most lines win; a tie goes to the family seen first.
    let mut best: Option<(Detected, u32)> = None;
    for &(d, n) in &counts {
        if best.is_none_or(|(_, b)| n > b) {
            best = Some((d, n));
        }
    }
    best.map(|(d, _)| d)
}

/// A part of a file that holds one log family: from byte `start` (line `line`, 1-based) to
/// the next part's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub family: Detected,
    pub start: usize,
    pub line: u64,
}

/// Where a file changes log family (a HotSpot log with a JRockit log or a performance log
/// appended, say): the parts in order, one when it does not. A part starts at the first line
/// of a run of at least three lines of its family; shorter runs are stray lines of the part
/// around them (its parser skips and counts them). Lines of no family stay with the part
/// before them.
pub fn parts(buf: &[u8]) -> Vec<Part> {
    let mut scratch = crate::parse::perf::LineScratch::default();
    // Runs of consecutive classified lines of one family: (part start, lines in the run).
    let mut runs: Vec<(Part, u32)> = Vec::new();
    for (no, line) in lines(buf) {
        let Some(d) = classify(line, &mut scratch) else {
            continue;
        };
        match runs.last_mut() {
            Some((p, n)) if p.family == d => *n += 1,
            _ => runs.push((
                Part {
                    family: d,
                    start: line.as_ptr() as usize - buf.as_ptr() as usize,
                    line: no,
                },
                1,
            )),
        }
    }
    let mut out: Vec<Part> = Vec::new();
    for (p, n) in runs {
        if n < SETTLE {
            continue;
        }
        match out.last() {
            Some(last) if last.family == p.family => {}
            _ => out.push(p),
        }
    }
    if let Some(first) = out.first_mut() {
        // The first part takes the file's head (banners, headers) too.
        first.start = 0;
        first.line = 1;
    }
    out
}

fn detect_line(line: &[u8]) -> Option<Detected> {
    if line.first() == Some(&b'[') && is_unified(line) {
        return Some(Detected::Gc(GcFormat::Unified));
    }
    if contains(line, b"[memory ]") || contains(line, b"[gcpause]") {
        return Some(Detected::Gc(GcFormat::Jrockit));
    }
    if contains(line, b"[GC")
        || contains(line, b"[Full GC")
        || contains(line, b"[CMS-concurrent")
        || contains(line, b": [Pause ")
        || contains(
            line,
            b"Total time for which application threads were stopped",
        )
    {
        // Confirm with the parser's own notion of an event start or a safepoint line.
        let log = crate::parse::hotspot::parse(line);
        if !log.events.is_empty()
            || contains(line, b": [GC")
            || contains(line, b": [Full GC")
            || line.starts_with(b"[GC")
            || line.starts_with(b"[Full GC")
        {
            return Some(Detected::Gc(GcFormat::Hotspot));
        }
    }
    None
}

/// `[0.014s][info][gc] ...`, `[2019-03-05T14:11:18.470+0100][gc] ...`: a first decoration that
/// is a time, and a `gc` or `safepoint` tag among the decorations.
fn is_unified(line: &[u8]) -> bool {
    let Some(close) = memchr::memchr(b']', line) else {
        return false;
    };
    let first = &line[1..close];
    let time_like = crate::parse::num::iso_datetime_prefix(first).is_some()
        || (first.first().is_some_and(u8::is_ascii_digit)
            && (first.ends_with(b"s") || first.ends_with(b"ms") || first.ends_with(b"ns")));
    let tagged = contains(line, b"[gc") || contains(line, b"[safepoint");
    (time_like || first == b"info" || first == b"debug" || first == b"trace" || first == b"warning")
        && tagged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_family_past_noise() {
        let hs = b"Java HotSpot(TM) 64-Bit Server VM\nMemory: 4k page\nsome app output\n0.294: [GC 0.294: [ParNew: 104960K->13042K(118016K), 0.0284337 secs] 104960K->34501K(249088K), 0.0285898 secs]\n";
        assert_eq!(detect(hs), Some(Detected::Gc(GcFormat::Hotspot)));
        let jr = b"[INFO] Deserialization Total time: 18 ms\n[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n";
        assert_eq!(detect(jr), Some(Detected::Gc(GcFormat::Jrockit)));
        let ul = b"[0.014s][info][os,cpu] CPU:total 4\n[0.207s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n";
        assert_eq!(detect(ul), Some(Detected::Gc(GcFormat::Unified)));
        // A log cut in the middle of a multi-line event: the continuation comes first.
        let cut = b" [PSYoungGen: 540800K->1217K(617472K)] 592910K->53464K(2015744K), 0,0082230 secs]\n2015-03-04T09:13:59.454+0100: 55047,624: [GC (Allocation Failure) [PSYoungGen: 1K->1K(2K)] 3K->3K(4K), 0.001 secs]\n";
        assert_eq!(detect(cut), Some(Detected::Gc(GcFormat::Hotspot)));
        // An event split over lines, a full GC first (the real G1 log that GCViewer can't read).
        let split = b"{Heap before GC invocations=20034 (full 925):\n189074.607: [Full GC 10192M->7271M(10240M)\nDesired survivor size 150994944 bytes\n, 37.0629320 secs]\n";
        assert_eq!(detect(split), Some(Detected::Gc(GcFormat::Hotspot)));
        assert_eq!(detect(b"hello\nworld\n"), None);
        // A performance log quoting one GC line in an error message is still a performance log.
        let perf = b"[A1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;\n\
[A2];2012-09-21 12:04:03.308;13;8;5;1;getContract;e- java.lang.OutOfMemoryError after [GC 1K->2K(3K), 0.1 secs]\n\
[A3];2012-09-21 12:04:04.308;20;10;10;1;getContract;\n";
        assert_eq!(detect(perf), Some(Detected::Perf(PerfFormat::PerfCsv)));
        assert_eq!(detect(b""), None);
    }

    #[test]
    fn detection_weighs_every_line_so_quoted_gc_lines_stay_in_a_perf_log() {
        // Five of seven requests failed with a message that quotes a GC line: still a
        // performance log (7 perf lines against 0 GC lines: a record's shape comes first).
        let mut b = String::new();
        for i in 0..7 {
            let err = if i < 5 {
                format!("e- OutOfMemoryError after {i}.5: [GC 1K->2K(3K), 0.1 secs]")
            } else {
                String::new()
            };
            b.push_str(&format!(
                "[A{i}];2012-09-21 12:04:0{i}.308;13;8;5;1;getContract;{err}\n"
            ));
        }
        // And three GC lines of their own at the end are outweighed too.
        b.push_str("1.0: [GC 1K->2K(3K), 0.1 secs]\n2.0: [GC 1K->2K(3K), 0.1 secs]\n3.0: [GC 1K->2K(3K), 0.1 secs]\n");
        assert_eq!(
            detect(b.as_bytes()),
            Some(Detected::Perf(PerfFormat::PerfCsv))
        );
        assert_eq!(
            parts(b.as_bytes()),
            vec![
                Part {
                    family: Detected::Perf(PerfFormat::PerfCsv),
                    start: 0,
                    line: 1
                },
                Part {
                    family: Detected::Gc(GcFormat::Hotspot),
                    start: b.find("1.0: [GC").unwrap(),
                    line: 8
                },
            ]
        );
    }

    #[test]
    fn a_file_that_changes_family_is_cut_into_its_parts() {
        let hs = "Java HotSpot(TM) 64-Bit Server VM\n\
                  1.0: [GC 1K->2K(3K), 0.1 secs]\n2.0: [GC 1K->2K(3K), 0.1 secs]\n\
                  3.0: [GC 1K->2K(3K), 0.1 secs]\n";
        let jr = "[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
                  some output\n\
                  [memory ] 9.985: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
                  [memory ] 10.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n";
        let ul = "[0.207s][info][gc] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n\
                  [0.307s][info][gc] GC(1) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n\
                  [0.407s][info][gc] GC(2) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n";
        let all = format!("{hs}{jr}{ul}");
        let p = parts(all.as_bytes());
        assert_eq!(p.len(), 3, "{p:?}");
        assert_eq!(
            (p[0].family, p[0].start, p[0].line),
            (Detected::Gc(GcFormat::Hotspot), 0, 1)
        );
        assert_eq!(
            (p[1].family, p[1].start, p[1].line),
            (Detected::Gc(GcFormat::Jrockit), hs.len(), 5)
        );
        assert_eq!(
            (p[2].family, p[2].start, p[2].line),
            (Detected::Gc(GcFormat::Unified), hs.len() + jr.len(), 9)
        );
        // One family: one part, from the start.
        assert_eq!(parts(hs.as_bytes()).len(), 1);
        // Two stray JRockit lines in a HotSpot log are not a part of their own.
        let stray = format!("{hs}[memory ] 1.0: Nursery GC 1K->1K (2K), 1.0 ms\n{hs}");
        assert_eq!(parts(stray.as_bytes()).len(), 1);
        assert!(parts(b"no log here\n").is_empty());
    }

    #[test]
    fn reads_gzip_by_magic_not_name() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("plain-name.log");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(b"[GC 1K->2K(3K), 0.1 secs]\n").unwrap();
        std::fs::write(&p, enc.finish().unwrap()).unwrap();
        assert_eq!(read(&p).unwrap(), b"[GC 1K->2K(3K), 0.1 secs]\n");
    }
}
