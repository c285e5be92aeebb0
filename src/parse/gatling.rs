//! Gatling's `simulation.log`, the text one of versions 2.x and 3.0 to 3.11: one record a line,
//! fields split by tabs, the record's kind first.
//!
//! `REQUEST` lines are the requests. Their columns moved between versions (the scenario and
//! user before the groups in 2.x, the user alone in 3.0-3.3, neither from 3.4), and 2.0-2.1
//! wrote four stamps where later versions write two, so a request is read from its status
//! back: `OK`/`KO`, the stamps before it (epoch ms), the name before them and the groups
//! before that; the message after it. Its time is the last stamp minus the first (Gatling's
//! response time in every version), its end the last stamp; a `KO`'s error is its message as
//! Gatling's error table keys it (`KO` without one). The operation is the request's name,
//! after its groups (`group / sub / name`) where it has any.
//!
//! `RUN`, `USER`, `GROUP`, `ASSERTION` and `ERROR` lines (the run, virtual users' starts and
//! ends, group timings, assertions and errors not tied to a request) are lines of the format
//! that carry no request; any other line is skipped and counted. From 3.12 Gatling writes a
//! binary log, which `input` refuses by name.

use super::family::{Handle, OwnedStart, PerfBlock, PerfFamily, PerfFormat};
use super::limits::{cap_label, MAX_WALL_MS};
use super::lines::lines;
use super::num::trim;
use crate::model::{PerfLog, PerfRecord, MAX_DURATION_MS};

/// Gatling's text `simulation.log`.
pub const FAMILY: PerfFormat = Handle(&Gatling);

struct Gatling;

/// The kinds of line a text `simulation.log` holds, each followed by a tab.
const KINDS: [&[u8]; 6] = [
    b"REQUEST\t",
    b"RUN\t",
    b"USER\t",
    b"GROUP\t",
    b"ASSERTION\t",
    b"ERROR\t",
];

/// The most fields a line is split into: a request has at most 11; a longer line is no
/// request, and a line of a million tabs costs no memory.
const MAX_FIELDS: usize = 32;

impl PerfFamily for Gatling {
    fn name(&self) -> &'static str {
        "gatling"
    }
    fn about(&self) -> &'static str {
        "Gatling's text `simulation.log` (2.x to 3.11)"
    }

    /// A request, or the `RUN` line that starts every log (its start stamp among its fields).
    fn recognises(&self, line: &[u8]) -> bool {
        let mut fields = Vec::new();
        if line.starts_with(b"RUN\t") {
            split(line, &mut fields);
            return fields.len() >= 4 && fields.iter().any(|f| stamp(f).is_some());
        }
        request(line, &mut fields).is_some()
    }

    fn owns(&self, line: &[u8]) -> bool {
        KINDS.iter().any(|k| line.starts_with(k))
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"RUGAE")
    }

    fn parse_block(&self, _header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        PerfBlock::from(parse(buf))
    }
}

/// One `REQUEST` line's figures, borrowed from it.
#[derive(Debug, PartialEq)]
struct Request<'a> {
    groups: &'a [u8],
    name: &'a [u8],
    start_ms: i64,
    end_ms: i64,
    ok: bool,
    message: &'a [u8],
}

/// `line`'s tab-separated fields into `out` (at most `MAX_FIELDS`; more leave `out` full).
fn split<'a>(line: &'a [u8], out: &mut Vec<&'a [u8]>) {
    out.clear();
    out.extend(line.split(|&b| b == b'\t').take(MAX_FIELDS + 1));
}

/// An epoch-ms stamp: 10 to 13 digits (2001 to 2286), no more.
fn stamp(f: &[u8]) -> Option<i64> {
    if !(10..=13).contains(&f.len()) || !f.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = f.iter().fold(0i64, |v, &b| v * 10 + i64::from(b - b'0'));
    (v <= MAX_WALL_MS).then_some(v)
}

/// A `REQUEST` line read from its status back (see the module's doc).
fn request<'a>(line: &'a [u8], fields: &mut Vec<&'a [u8]>) -> Option<Request<'a>> {
    if !line.starts_with(b"REQUEST\t") {
        return None;
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    split(line, fields);
    if fields.len() > MAX_FIELDS {
        return None;
    }
    // The status: the first `OK`/`KO` after a name and two stamps.
    let s = (4..fields.len()).find(|&i| {
        matches!(fields[i], b"OK" | b"KO")
            && stamp(fields[i - 1]).is_some()
            && stamp(fields[i - 2]).is_some()
    })?;
    // Four stamps (2.0-2.1: request start and end, response start and end) where a name
    // still comes before them.
    let k = if s >= 6 && stamp(fields[s - 3]).is_some() && stamp(fields[s - 4]).is_some() {
        4
    } else {
        2
    };
    let name_at = s - k - 1;
    let start_ms = stamp(fields[s - k])?;
    let end_ms = stamp(fields[s - 1])?;
    if end_ms < start_ms || (end_ms - start_ms) as f64 > MAX_DURATION_MS {
        return None;
    }
    Some(Request {
        groups: if name_at >= 2 {
            trim(fields[name_at - 1])
        } else {
            b""
        },
        name: trim(fields[name_at]),
        start_ms,
        end_ms,
        ok: fields[s] == b"OK",
        message: fields.get(s + 1).map_or(&b""[..], |m| trim(m)),
    })
}

/// The operation a request counts under: its name after its groups (`a,b` is group `b`
/// inside group `a`).
fn operation(log: &mut PerfLog, r: &Request, scratch: &mut Vec<u8>) -> u32 {
    if r.groups.is_empty() {
        return log.strings.intern_bytes(cap_label(r.name));
    }
    scratch.clear();
    for g in r.groups.split(|&b| b == b',') {
        scratch.extend_from_slice(trim(g));
        scratch.extend_from_slice(b" / ");
    }
    scratch.extend_from_slice(r.name);
    log.strings.intern_bytes(cap_label(scratch))
}

fn parse(buf: &[u8]) -> PerfLog {
    let mut log = PerfLog::default();
    let mut fields = Vec::with_capacity(MAX_FIELDS + 1);
    let mut scratch = Vec::new();
    let mut it = lines(buf);
    // Empty lines are passed over in bulk: a flood of them costs what skipping it costs.
    while let Some((no, line)) = it.next_after_empty(&mut log.ignored_lines) {
        if trim(line).is_empty() {
            log.ignored_lines += 1;
            continue;
        }
        if let Some(r) = request(line, &mut fields) {
            let operation = operation(&mut log, &r, &mut scratch);
            let m = Some(r.message).filter(|m| !m.is_empty()).unwrap_or(b"KO");
            let error = (!r.ok).then(|| log.strings.intern_bytes(cap_label(m)));
            log.records.push(PerfRecord::request(
                r.end_ms,
                (r.end_ms - r.start_ms) as f64,
                operation,
                r.ok,
                error,
                no,
            ));
            log.record_lines += 1;
        } else if KINDS[1..].iter().any(|k| line.starts_with(k)) {
            log.ignored_lines += 1;
        } else {
            log.skip(no, line);
        }
    }
    log.lines = it.line_no();
    log
}

#[cfg(test)]
#[path = "gatling_tests.rs"]
mod tests;
