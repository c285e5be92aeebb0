//! Application performance logs: one record per measured operation.
//!
//! Three families:
//! - **Semicolon performance log** (web-service operations), one line per operation:
//!   `[7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-`
//!   = request id; time the record was written (the operation's end, local time); total ms;
//!   Java ms; DB (PL/SQL) ms; DB calls; operation; `e-` plus optional message (which may hold
//!   `;`) when the operation failed, empty otherwise. The record is found by its shape, not by
//!   position: the first `;` followed by a date, then four numbers and an operation. So a
//!   logging framework's layout before the id (`2012-09-21 12:04:02,308 INFO [perf] [id];...`),
//!   ids without brackets, a missing trailing `;`, `,` before the milliseconds, CRLF and a BOM
//!   are all read. A header line (`id;time;total;...`: no digits in fields 2–6) and blank lines
//!   are passed over; any other line that does not fit is skipped and counted, never guessed at.
//!   Java + DB ≠ total is kept and flagged `inconsistent`.
//! - **Apache JMeter CSV results** (`.jtl`): columns found by header name (`timeStamp`,
//!   `elapsed`, `label`, `success`), or JMeter's default order when the file has no header;
//!   RFC 4180 quoting, quoted fields may span lines. `timeStamp` is the sample's start (JMeter's
//!   shipped `sampleresult.timestamp.start=true`), epoch ms or `yyyy/MM/dd HH:mm:ss.SSS`; the
//!   record's end is timeStamp + elapsed.
//! - **The Grinder `data_*.log`**: `Thread, Run, Test, Start time (ms since Epoch), Test time,
//!   Errors, ...`; operation `test <n>`, end = start + test time, failed when Errors > 0.
//!
//! Epoch stamps (JMeter, Grinder) are true UTC instants and are kept as they are; text dates are
//! local time taken as UTC (as for GC logs). No parser allocates per well-formed line:
//! operation names are interned from the input bytes.

use super::lines::{count, lines};
use super::num::{float_prefix, iso_datetime_prefix, trim, uint_prefix};
use crate::model::{PerfFormat, PerfLog, PerfRecord};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parse a whole performance log of a known family.
pub fn parse(format: PerfFormat, buf: &[u8]) -> PerfLog {
    // Removing the BOM does not move line numbers.
    let buf = buf.strip_prefix(BOM).unwrap_or(buf);
    match format {
        PerfFormat::PerfCsv => parse_semicolon(buf),
        PerfFormat::JmeterJtl => parse_jtl(buf),
        PerfFormat::Grinder => parse_grinder(buf),
    }
}

/// Detect a performance-log family from content: lines are looked at until one is decisive
/// (a record or header of a family), passing over blank lines and lines of no family. A line
/// that belongs to a GC log (`[GC`, `[memory ]`, `GC(`, `[0.123s][info][gc ...`) ends the search
/// with `None`.
pub fn detect(buf: &[u8]) -> Option<PerfFormat> {
    let buf = buf.strip_prefix(BOM).unwrap_or(buf);
    let mut fields = Vec::new();
    let mut comma = Vec::new();
    for (_, line) in lines(buf) {
        let t = trim(line);
        if t.is_empty() {
            continue;
        }
        if semicolon_record(t).is_some() {
            return Some(PerfFormat::PerfCsv);
        }
        if is_jtl_line(t, &mut fields) {
            return Some(PerfFormat::JmeterJtl);
        }
        if is_grinder_line(t, &mut comma) {
            return Some(PerfFormat::Grinder);
        }
        if is_gc_line(t) {
            return None;
        }
    }
    None
}

/// Reusable buffers for `classify_line`, so that classifying many lines allocates once.
#[derive(Default)]
pub struct LineScratch {
    fields: Vec<Field>,
    comma: Vec<(usize, usize)>,
}

/// The performance-log family one line is a record or header of, if any. Detection weighs a
/// whole probe with it, and a file that changes family mid-way is cut where it does.
pub fn classify_line(line: &[u8], scratch: &mut LineScratch) -> Option<PerfFormat> {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    let t = trim(line);
    if t.is_empty() {
        return None;
    }
    if semicolon_record(t).is_some() {
        Some(PerfFormat::PerfCsv)
    } else if is_jtl_line(t, &mut scratch.fields) {
        Some(PerfFormat::JmeterJtl)
    } else if is_grinder_line(t, &mut scratch.comma) {
        Some(PerfFormat::Grinder)
    } else {
        None
    }
}

fn is_gc_line(line: &[u8]) -> bool {
    const MARKS: [&[u8]; 7] = [
        b"[GC",
        b"[Full GC",
        b"[memory ]",
        b"[gcpause]",
        b"GC(",
        b"[gc",
        b"[safepoint",
    ];
    MARKS.iter().any(|m| super::num::contains(line, m))
}

// ---------------------------------------------------------------------------------------------
// Semicolon performance log
// ---------------------------------------------------------------------------------------------

/// One semicolon record, borrowed from its line.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Semi<'a> {
    end_ms: i64,
    total: f64,
    java: f64,
    db: f64,
    calls: u32,
    op: &'a [u8],
    ok: bool,
    /// A `;` follows the operation: the line cannot have been cut inside the name.
    complete: bool,
}

fn parse_semicolon(buf: &[u8]) -> PerfLog {
    let mut log = PerfLog::new(PerfFormat::PerfCsv);
    let mut ops = OpCache::default();
    // A last line without its line break may have been cut while being written: it counts
    // only if it is visibly complete (see `Semi::complete`).
    let (body, tail) = match memchr::memrchr(b'\n', buf) {
        Some(i) => buf.split_at(i + 1),
        None => buf.split_at(0),
    };
    for (no, line) in lines(body) {
        semicolon_line(&mut log, &mut ops, no, line, false);
    }
    if !tail.is_empty() {
        let line = tail.strip_suffix(b"\r").unwrap_or(tail);
        let no = log.lines + 1;
        semicolon_line(&mut log, &mut ops, no, line, true);
    }
    log
}

#[inline]
fn semicolon_line<'a>(
    log: &mut PerfLog,
    ops: &mut OpCache<'a>,
    no: u64,
    line: &'a [u8],
    cut: bool,
) {
    log.lines = no;
    match semicolon_record(line).filter(|r| r.complete || !cut) {
        Some(r) => {
            let operation = ops.intern(log, r.op);
            log.records.push(PerfRecord {
                end_ms: r.end_ms,
                total_ms: r.total,
                java_ms: Some(r.java),
                db_ms: Some(r.db),
                db_calls: Some(r.calls),
                operation,
                ok: r.ok,
                inconsistent: inconsistent(r.total, r.java, r.db),
                line: no,
            });
        }
        None => {
            if !trim(line).is_empty() && !is_semicolon_header(line) {
                log.skip(no, line);
            }
        }
    }
}

/// A small direct-mapped cache in front of `Strings::intern_bytes`: operation names repeat, and
/// comparing a few bytes is cheaper than hashing the name.
struct OpCache<'a> {
    slots: [(&'a [u8], u32); 64],
}

impl Default for OpCache<'_> {
    fn default() -> Self {
        OpCache {
            slots: [(&[], 0); 64],
        }
    }
}

impl<'a> OpCache<'a> {
    #[inline]
    fn intern(&mut self, log: &mut PerfLog, op: &'a [u8]) -> u32 {
        let (first, last) = match op {
            [f, .., l] => (*f as usize, *l as usize),
            [f] => (*f as usize, *f as usize),
            [] => return 0,
        };
        let h = (op.len() * 31 + first * 7 + last) & 63;
        let slot = &mut self.slots[h];
        if slot.0 == op {
            return slot.1;
        }
        let id = log.strings.intern_bytes(op);
        *slot = (op, id);
        id
    }
}

/// Java + DB differs from the total (beyond float rounding of decimal inputs).
fn inconsistent(total: f64, java: f64, db: f64) -> bool {
    (java + db - total).abs() > 1e-9 * total.max(1.0)
}

/// Find the record in a line by its shape: the first `;` followed by a date, a `;`, four
/// numbers and an operation. Everything before that `;` is the request id (and any layout
/// prefix) and is not looked at.
fn semicolon_record(line: &[u8]) -> Option<Semi<'_>> {
    memchr::memchr_iter(b';', line).find_map(|p| semicolon_from(line.get(p + 1..)?))
}

/// The record after its id: `date;total;java;db;calls;operation[;e-...]`.
fn semicolon_from(s: &[u8]) -> Option<Semi<'_>> {
    let s = skip_spaces(s);
    let (end_ms, n) = date_prefix(s)?;
    let r = after_separator(s.get(n..)?)?;
    let (total, r) = ms_field(r)?;
    let (java, r) = ms_field(r)?;
    let (db, r) = ms_field(r)?;
    let (calls, r) = count_field(r)?;
    let (op, err) = match memchr::memchr(b';', r) {
        Some(i) => (r.get(..i)?, r.get(i + 1..)),
        None => (r, None),
    };
    let op = trim(op);
    if op.is_empty() {
        return None;
    }
    let ok = match err {
        None => true,
        Some(e) => {
            let e = skip_spaces(e);
            if e.starts_with(b"e-") {
                false
            } else if e.iter().all(|&b| b == b';' || b.is_ascii_whitespace()) {
                true
            } else {
                // Neither `e-` nor empty: not a form we know, so not guessed at.
                return None;
            }
        }
    };
    Some(Semi {
        end_ms,
        total,
        java,
        db,
        calls,
        op,
        ok,
        complete: err.is_some(),
    })
}

/// A time in ms: a non-negative finite number, then `;` (spaces allowed around it).
#[inline]
fn ms_field(s: &[u8]) -> Option<(f64, &[u8])> {
    let s = skip_spaces(s);
    // Fast path: a plain integer followed by `;` (the usual case).
    let digits = s.iter().take(16).take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && digits < 16 && s.get(digits) == Some(&b';') {
        let v = s
            .iter()
            .take(digits)
            .fold(0u64, |a, &c| a * 10 + u64::from(c - b'0'));
        return Some((v as f64, s.get(digits + 1..)?));
    }
    if s.first() == Some(&b'-') {
        return None;
    }
    let (v, n) = float_prefix(s)?;
    if !v.is_finite() {
        return None;
    }
    Some((v, after_separator(s.get(n..)?)?))
}

/// A count: an unsigned integer that fits `u32`, then `;`.
#[inline]
fn count_field(s: &[u8]) -> Option<(u32, &[u8])> {
    let s = skip_spaces(s);
    let (v, n) = uint_prefix(s)?;
    let v = u32::try_from(v).ok()?;
    Some((v, after_separator(s.get(n..)?)?))
}

/// Optional spaces, then `;`: the rest after it.
#[inline]
fn after_separator(s: &[u8]) -> Option<&[u8]> {
    match skip_spaces(s) {
        [b';', rest @ ..] => Some(rest),
        _ => None,
    }
}

#[inline]
fn skip_spaces(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    s
}

/// A header line: at least six `;`-separated fields, fields 2 to 6 words without digits
/// (`id;time;total;java;db;dbcalls;operation;error`). Field 1 may carry a layout prefix.
fn is_semicolon_header(line: &[u8]) -> bool {
    let mut fields = line.split(|&b| b == b';').skip(1);
    (0..5).all(|_| {
        fields.next().is_some_and(|f| {
            f.iter().any(u8::is_ascii_alphabetic) && !f.iter().any(u8::is_ascii_digit)
        })
    })
}

/// `2012-09-21 12:04:02.308` (`,` before the millis, `T`, a zone suffix all allowed) with a day
/// that exists in its month: local time as epoch ms, and bytes consumed.
#[inline]
fn date_prefix(s: &[u8]) -> Option<(i64, usize)> {
    let (t, n) = iso_datetime_prefix(s)?;
    if valid_day(s) {
        Some((t, n))
    } else {
        None
    }
}

/// `iso_datetime_prefix` accepts any day 1–31: reject 2012-02-30 and the like rather than roll
/// them into the next month.
fn valid_day(s: &[u8]) -> bool {
    let Some(d) = s.get(..10) else {
        return false;
    };
    let num = |r: &[u8]| {
        r.iter()
            .fold(0u32, |a, &c| a * 10 + u32::from(c.wrapping_sub(b'0') % 10))
    };
    let (y, m, day) = (num(&d[0..4]), num(&d[5..7]), num(&d[8..10]));
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (1..=days).contains(&day)
}

// ---------------------------------------------------------------------------------------------
// JMeter CSV results (JTL)
// ---------------------------------------------------------------------------------------------

/// A CSV field as a range of the input, quotes removed.
#[derive(Debug, Clone, Copy, Default)]
struct Field {
    start: usize,
    end: usize,
    /// Quoted with `""` inside: needs unescaping before use as text.
    escaped: bool,
}

/// A quoted field longer than this is taken for a stray quote, not a message.
const MAX_QUOTED_BYTES: usize = 64 << 10;

/// Read one RFC 4180 record starting at `pos` into `out` (ranges into `buf`). Returns the
/// position after the record's line break and the line breaks consumed (those inside quoted
/// fields included), or `None` when the record is malformed (a quote never closed, or text
/// after a closing quote).
fn csv_record(buf: &[u8], pos: usize, out: &mut Vec<Field>) -> Option<(usize, u64)> {
    out.clear();
    let mut i = pos;
    let mut breaks = 0u64;
    loop {
        if buf.get(i) == Some(&b'"') {
            let start = i + 1;
            let mut j = start;
            let mut escaped = false;
            let close = loop {
                let q = j + memchr::memchr(b'"', buf.get(j..)?)?;
                if buf.get(q + 1) == Some(&b'"') {
                    escaped = true;
                    j = q + 2;
                } else {
                    break q;
                }
            };
            let inner = buf.get(start..close)?;
            if inner.len() > MAX_QUOTED_BYTES {
                return None;
            }
            breaks += memchr::memchr_iter(b'\n', inner).count() as u64;
            out.push(Field {
                start,
                end: close,
                escaped,
            });
            i = close + 1;
        } else {
            let rest = buf.get(i..)?;
            let e = memchr::memchr2(b',', b'\n', rest).map_or(buf.len(), |k| i + k);
            let mut end = e;
            if end > i && buf.get(end - 1) == Some(&b'\r') && buf.get(e) != Some(&b',') {
                end -= 1;
            }
            out.push(Field {
                start: i,
                end,
                escaped: false,
            });
            i = e;
        }
        match buf.get(i) {
            None => return Some((i, breaks)),
            Some(b',') => i += 1,
            Some(b'\n') => return Some((i + 1, breaks + 1)),
            Some(b'\r') if buf.get(i + 1) == Some(&b'\n') => return Some((i + 2, breaks + 1)),
            Some(b'\r') if i + 1 == buf.len() => return Some((i + 1, breaks)),
            Some(_) => return None,
        }
    }
}

/// Where the columns we use are.
#[derive(Debug, Clone, Copy)]
struct JtlCols {
    ts: usize,
    elapsed: usize,
    label: Option<usize>,
    success: Option<usize>,
    /// Fields a row needs.
    min_fields: usize,
}

impl JtlCols {
    /// JMeter's default column order, for files written without a header
    /// (`timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,...`).
    const DEFAULT: JtlCols = JtlCols {
        ts: 0,
        elapsed: 1,
        label: Some(2),
        success: Some(7),
        min_fields: 8,
    };

    /// From a header row: `None` if it is not one (it needs `timeStamp` and `elapsed`).
    fn from_header(buf: &[u8], fields: &[Field]) -> Option<JtlCols> {
        let find = |name: &[u8]| {
            fields.iter().position(|f| {
                buf.get(f.start..f.end)
                    .is_some_and(|t| trim(t).eq_ignore_ascii_case(name))
            })
        };
        let ts = find(b"timeStamp")?;
        let elapsed = find(b"elapsed")?;
        let label = find(b"label");
        let success = find(b"success");
        let min_fields = 1 + ts
            .max(elapsed)
            .max(label.unwrap_or(0))
            .max(success.unwrap_or(0));
        Some(JtlCols {
            ts,
            elapsed,
            label,
            success,
            min_fields,
        })
    }
}

/// A JTL row's values, the label still as a field.
struct JtlRow {
    end_ms: i64,
    elapsed: f64,
    label: Option<Field>,
    ok: bool,
}

fn jtl_row(buf: &[u8], fields: &[Field], cols: &JtlCols) -> Option<JtlRow> {
    if fields.len() < cols.min_fields {
        return None;
    }
    let text = |i: usize| -> Option<&[u8]> {
        let f = fields.get(i)?;
        buf.get(f.start..f.end).map(trim)
    };
    let start = jtl_time(text(cols.ts)?)?;
    let elapsed = whole_ms(text(cols.elapsed)?)?;
    let ok = match cols.success {
        Some(i) => bool_field(text(i)?)?,
        // Files saved without the `success` column: nothing says a sample failed.
        None => true,
    };
    // `as` saturates; checked_add rejects what would not fit.
    let end_ms = start.checked_add(elapsed.round() as i64)?;
    let label = cols.label.and_then(|i| fields.get(i).copied());
    Some(JtlRow {
        end_ms,
        elapsed,
        label,
        ok,
    })
}

fn parse_jtl(buf: &[u8]) -> PerfLog {
    let mut log = PerfLog::new(PerfFormat::JmeterJtl);
    let mut cols = JtlCols::DEFAULT;
    let mut fields: Vec<Field> = Vec::with_capacity(32);
    let mut scratch: Vec<u8> = Vec::new();
    let mut pos = 0usize;
    let mut line = 1u64;
    while pos < buf.len() {
        let Some((next, breaks)) = csv_record(buf, pos, &mut fields) else {
            // Malformed CSV: the physical line is bad; go on with the next one.
            let end = memchr::memchr(b'\n', buf.get(pos..).unwrap_or_default())
                .map_or(buf.len(), |k| pos + k + 1);
            log.skip(line, strip_eol(buf.get(pos..end).unwrap_or_default()));
            pos = end;
            line += 1;
            continue;
        };
        let rec_line = line;
        let raw = buf.get(pos..next).unwrap_or_default();
        pos = next;
        line += breaks;
        if trim(raw).is_empty() {
            continue;
        }
        if let Some(row) = jtl_row(buf, &fields, &cols) {
            let operation = match row.label {
                Some(f) => intern_field(&mut log, buf, f, &mut scratch),
                None => 0,
            };
            log.records.push(PerfRecord {
                end_ms: row.end_ms,
                total_ms: row.elapsed,
                java_ms: None,
                db_ms: None,
                db_calls: None,
                operation,
                ok: row.ok,
                inconsistent: false,
                line: rec_line,
            });
        } else if let Some(c) = JtlCols::from_header(buf, &fields) {
            cols = c;
        } else {
            log.skip(rec_line, strip_eol(raw));
        }
    }
    log.lines = count(buf);
    log
}

/// Intern a CSV field's text, unescaping `""` through `scratch` when needed.
fn intern_field(log: &mut PerfLog, buf: &[u8], f: Field, scratch: &mut Vec<u8>) -> u32 {
    let raw = buf.get(f.start..f.end).unwrap_or_default();
    if !f.escaped {
        return log.strings.intern_bytes(trim(raw));
    }
    scratch.clear();
    let mut rest = raw;
    while let Some(q) = memchr::memchr(b'"', rest) {
        scratch.extend_from_slice(rest.get(..=q).unwrap_or_default());
        // Skip the second quote of the pair.
        rest = rest.get(q + 2..).unwrap_or_default();
    }
    scratch.extend_from_slice(rest);
    log.strings.intern_bytes(trim(scratch))
}

fn strip_eol(s: &[u8]) -> &[u8] {
    let s = s.strip_suffix(b"\n").unwrap_or(s);
    s.strip_suffix(b"\r").unwrap_or(s)
}

/// JMeter `timeStamp`: epoch ms, or a date `yyyy/MM/dd HH:mm:ss.SSS` (also `yyyy-MM-dd ...`),
/// local time taken as UTC. The whole field must be the stamp.
fn jtl_time(f: &[u8]) -> Option<i64> {
    if f.iter().all(u8::is_ascii_digit) {
        let (v, n) = uint_prefix(f)?;
        return if n == f.len() {
            i64::try_from(v).ok()
        } else {
            None
        };
    }
    let mut tmp = [0u8; 40];
    tmp.get_mut(..f.len())?.copy_from_slice(f);
    if tmp[4] == b'/' && tmp[7] == b'/' {
        tmp[4] = b'-';
        tmp[7] = b'-';
    }
    let s = tmp.get(..f.len())?;
    match date_prefix(s) {
        Some((t, n)) if n == s.len() => Some(t),
        _ => None,
    }
}

/// A whole field as a non-negative finite number of ms.
fn whole_ms(f: &[u8]) -> Option<f64> {
    if f.first() == Some(&b'-') {
        return None;
    }
    match float_prefix(f) {
        Some((v, n)) if n == f.len() && v.is_finite() => Some(v),
        _ => None,
    }
}

fn bool_field(f: &[u8]) -> Option<bool> {
    if f.eq_ignore_ascii_case(b"true") {
        Some(true)
    } else if f.eq_ignore_ascii_case(b"false") {
        Some(false)
    } else {
        None
    }
}

/// For detection: a JTL header, or a row in JMeter's default column order (epoch-ms or date
/// stamp, integer elapsed, `true`/`false` in column 8).
fn is_jtl_line(line: &[u8], fields: &mut Vec<Field>) -> bool {
    if memchr::memchr(b',', line).is_none() {
        return false;
    }
    let Some((_, _)) = csv_record(line, 0, fields) else {
        return false;
    };
    if JtlCols::from_header(line, fields).is_some() {
        return true;
    }
    let Some(ts) = fields.first().and_then(|f| line.get(f.start..f.end)) else {
        return false;
    };
    // An epoch-ms stamp has 10+ digits (2001 onwards: 13); a short number is something else.
    let ts = trim(ts);
    if ts.iter().all(u8::is_ascii_digit) && ts.len() < 10 {
        return false;
    }
    jtl_row(line, fields, &JtlCols::DEFAULT).is_some()
}

// ---------------------------------------------------------------------------------------------
// The Grinder data_*.log
// ---------------------------------------------------------------------------------------------

/// Where the columns we use are.
#[derive(Debug, Clone, Copy)]
struct GrinderCols {
    test: Option<usize>,
    start: Option<usize>,
    time: Option<usize>,
    errors: Option<usize>,
}

impl GrinderCols {
    /// Fields a row must be split into to reach every column used.
    fn needed(&self) -> usize {
        [self.test, self.start, self.time, self.errors]
            .iter()
            .map(|c| c.map_or(0, |i| i + 1))
            .max()
            .unwrap_or(0)
    }

    /// `Thread, Run, Test, Start time (ms since Epoch), Test time, Errors`.
    const DEFAULT: GrinderCols = GrinderCols {
        test: Some(2),
        start: Some(3),
        time: Some(4),
        errors: Some(5),
    };
}

/// Split a line at commas into trimmed field ranges, the first `limit` fields only.
fn comma_fields(line: &[u8], limit: usize, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let mut start = 0;
    let ends = memchr::memchr_iter(b',', line).chain(std::iter::once(line.len()));
    for p in ends.take(limit) {
        let f = line.get(start..p).unwrap_or_default();
        let lead = f.len() - f.trim_ascii_start().len();
        let t = trim(f);
        out.push((start + lead, start + lead + t.len()));
        start = p + 1;
    }
}

fn is_grinder_header(first_field: &[u8]) -> bool {
    first_field.eq_ignore_ascii_case(b"Thread")
}

fn grinder_header(line: &[u8], fields: &[(usize, usize)]) -> GrinderCols {
    let find = |pred: &dyn Fn(&[u8]) -> bool| {
        fields
            .iter()
            .position(|&(a, b)| line.get(a..b).is_some_and(pred))
    };
    GrinderCols {
        test: find(&|f| f.eq_ignore_ascii_case(b"Test")),
        start: find(&|f| {
            f.get(..10)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"Start time"))
        }),
        time: find(&|f| f.eq_ignore_ascii_case(b"Test time")),
        errors: find(&|f| f.eq_ignore_ascii_case(b"Errors")),
    }
}

/// A Grinder row's values: (test number, end ms, test time, ok).
fn grinder_row(
    line: &[u8],
    fields: &[(usize, usize)],
    cols: &GrinderCols,
) -> Option<(u64, i64, f64, bool)> {
    let text = |i: Option<usize>| -> Option<&[u8]> {
        let &(a, b) = fields.get(i?)?;
        line.get(a..b)
    };
    let whole_uint = |f: &[u8]| match uint_prefix(f) {
        Some((v, n)) if n == f.len() => Some(v),
        _ => None,
    };
    let test = whole_uint(text(cols.test)?)?;
    let start = i64::try_from(whole_uint(text(cols.start)?)?).ok()?;
    let time = whole_ms(text(cols.time)?)?;
    let errors = whole_uint(text(cols.errors)?)?;
    let end = start.checked_add(time.round() as i64)?;
    Some((test, end, time, errors == 0))
}

fn parse_grinder(buf: &[u8]) -> PerfLog {
    let mut log = PerfLog::new(PerfFormat::Grinder);
    let mut cols = GrinderCols::DEFAULT;
    let mut fields = Vec::with_capacity(16);
    for (no, line) in lines(buf) {
        log.lines = no;
        if trim(line).is_empty() {
            continue;
        }
        comma_fields(line, cols.needed().max(1), &mut fields);
        let first = fields
            .first()
            .and_then(|&(a, b)| line.get(a..b))
            .unwrap_or_default();
        if is_grinder_header(first) {
            comma_fields(line, usize::MAX, &mut fields);
            cols = grinder_header(line, &fields);
            continue;
        }
        let Some((test, end_ms, time, ok)) = grinder_row(line, &fields, &cols) else {
            log.skip(no, line);
            continue;
        };
        let operation = intern_test(&mut log, test);
        log.records.push(PerfRecord {
            end_ms,
            total_ms: time,
            java_ms: None,
            db_ms: None,
            db_calls: None,
            operation,
            ok,
            inconsistent: false,
            line: no,
        });
    }
    log
}

/// Intern `test <n>` without allocating once it has been seen.
fn intern_test(log: &mut PerfLog, test: u64) -> u32 {
    let mut b = [0u8; 32];
    b[..5].copy_from_slice(b"test ");
    let mut digits = [0u8; 20];
    let mut n = test;
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let d = &digits[k..];
    b[5..5 + d.len()].copy_from_slice(d);
    log.strings.intern_bytes(&b[..5 + d.len()])
}

/// For detection: the Grinder header, or a row of at least six comma+space separated integers
/// with an epoch-ms start time in column 4.
fn is_grinder_line(line: &[u8], fields: &mut Vec<(usize, usize)>) -> bool {
    if line
        .get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"Thread,"))
        && super::num::contains(line, b"Start time")
    {
        return true;
    }
    if !super::num::contains(line, b", ") {
        return false;
    }
    comma_fields(line, 6, fields);
    if fields.len() < 6 {
        return false;
    }
    let all_uint = fields.iter().take(6).all(|&(a, b)| {
        line.get(a..b)
            .is_some_and(|f| !f.is_empty() && f.iter().all(u8::is_ascii_digit))
    });
    let epoch = fields
        .get(3)
        .and_then(|&(a, b)| line.get(a..b))
        .is_some_and(|f| f.len() >= 10);
    all_uint && epoch && grinder_row(line, fields, &GrinderCols::DEFAULT).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::num::format_wall_ms;

    /// One record as (end, total, java, db, db calls, operation, ok, inconsistent, line).
    type Row = (
        String,
        f64,
        Option<f64>,
        Option<f64>,
        Option<u32>,
        String,
        bool,
        bool,
        u64,
    );

    fn rows(log: &PerfLog) -> Vec<Row> {
        log.records
            .iter()
            .map(|r| {
                (
                    format_wall_ms(r.end_ms),
                    r.total_ms,
                    r.java_ms,
                    r.db_ms,
                    r.db_calls,
                    log.strings.get(r.operation).to_string(),
                    r.ok,
                    r.inconsistent,
                    r.line,
                )
            })
            .collect()
    }

    fn semi(s: &str) -> PerfLog {
        parse(PerfFormat::PerfCsv, s.as_bytes())
    }

    /// A semicolon record as the web service writes it (the user's example) and a successful one.
    const EXAMPLE: &str = "[7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
                           [7842BD261FD27732B848D3E904F42A5A];2012-09-21 12:04:03.000;40;10;30;1;getContract;\n";

    fn example_rows() -> Vec<Row> {
        vec![
            (
                "2012-09-21T12:04:02.308".into(),
                813.0,
                Some(78.0),
                Some(735.0),
                Some(2),
                "loadCustomersList".into(),
                false,
                false,
                1,
            ),
            (
                "2012-09-21T12:04:03.000".into(),
                40.0,
                Some(10.0),
                Some(30.0),
                Some(1),
                "getContract".into(),
                true,
                false,
                2,
            ),
        ]
    }

    #[test]
    fn semicolon_record_fields() {
        let log = semi(EXAMPLE);
        assert_eq!(log.format, PerfFormat::PerfCsv);
        assert_eq!(rows(&log), example_rows());
        assert_eq!((log.lines, log.skipped_lines), (2, 0));
        assert!(log.bad.is_empty());
    }

    #[test]
    fn semicolon_crlf() {
        let log = semi(&EXAMPLE.replace('\n', "\r\n"));
        assert_eq!(rows(&log), example_rows());
        assert_eq!((log.lines, log.skipped_lines), (2, 0));
        // Without trailing `;` the operation ends at the CR, which must not stick to it.
        let log = semi("[1];2012-09-21 12:04:03.000;40;10;30;1;getContract\r\n");
        assert_eq!(log.strings.get(log.records[0].operation), "getContract");
        assert!(log.records[0].ok);
    }

    #[test]
    fn semicolon_bom() {
        let text = format!("\u{FEFF}{EXAMPLE}");
        assert!(text.as_bytes().starts_with(b"\xEF\xBB\xBF"));
        let log = semi(&text);
        assert_eq!(rows(&log), example_rows());
        assert_eq!(log.skipped_lines, 0);
        assert_eq!(detect(text.as_bytes()), Some(PerfFormat::PerfCsv));
    }

    #[test]
    fn semicolon_blank_lines() {
        let text = format!("\n   \n{}\n\t\n", EXAMPLE.replace('\n', "\n\n"));
        let log = semi(&text);
        let lines: Vec<u64> = log.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![3, 5]);
        assert_eq!(log.skipped_lines, 0);
        assert_eq!(log.lines, 8);
    }

    #[test]
    fn semicolon_header_line() {
        for header in [
            "id;time;total;java;db;dbcalls;operation;error",
            "request_id;timestamp;total_ms;java_ms;plsql_ms;db_calls;operation;error",
            "ID; TIME; TOTAL; JAVA; DB; DB CALLS; OPERATION",
        ] {
            let log = semi(&format!("{header}\n{EXAMPLE}"));
            assert_eq!(log.records.len(), 2, "{header}");
            assert_eq!(log.records[0].line, 2);
            assert_eq!(log.skipped_lines, 0, "{header}");
        }
        // A header-like line with digits where times go is not a header: counted.
        let log = semi(&format!("id;time;1;java;db;calls;op\n{EXAMPLE}"));
        assert_eq!(log.skipped_lines, 1);
        assert_eq!(log.bad[0].line, 1);
    }

    #[test]
    fn semicolon_missing_trailing_semicolon() {
        let log = semi(
            "[A1];2012-09-21 12:04:03.000;40;10;30;1;getContract\n\
             [A2];2012-09-21 12:04:04.500;55;5;50;3;saveOrder;e-\n",
        );
        let r = rows(&log);
        assert_eq!(
            r[0],
            (
                "2012-09-21T12:04:03.000".into(),
                40.0,
                Some(10.0),
                Some(30.0),
                Some(1),
                "getContract".into(),
                true,
                false,
                1
            )
        );
        assert_eq!((r[1].5.as_str(), r[1].6), ("saveOrder", false));
        assert_eq!(log.skipped_lines, 0);
    }

    #[test]
    fn semicolon_id_without_brackets() {
        let log = semi(
            "7842BD261FD27732B848D3E904F42A59;2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
             req-17;2012-09-21 12:04:03.000;40;10;30;1;getContract;\n",
        );
        assert_eq!(rows(&log), example_rows());
    }

    #[test]
    fn semicolon_comma_millis() {
        let log = semi(
            &EXAMPLE
                .replace("02.308", "02,308")
                .replace("03.000", "03,000"),
        );
        assert_eq!(rows(&log), example_rows());
    }

    #[test]
    fn semicolon_layout_prefix() {
        // The logging framework's own stamp (12:04:02,310) is not the record's time (.308).
        let log = semi(
            "2012-09-21 12:04:02,310 INFO [perf] [7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n\
             INFO;2012-09-21 12:04:03,001;main;[7842BD261FD27732B848D3E904F42A5A];2012-09-21 12:04:03.000;40;10;30;1;getContract;\n",
        );
        assert_eq!(rows(&log), example_rows());
        assert_eq!(log.skipped_lines, 0);
    }

    #[test]
    fn semicolon_bad_lines_skipped_and_counted() {
        let text = "\
[1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;
[2];2012-09-21 12:04:02.308;813;78;735
[3];2012-09-21 12:04:02.308;81x;78;735;2;loadCustomersList;
[4];2012-09-21 12:04:02.308;-813;78;735;2;loadCustomersList;
[5];2012-09-31 12:04:02.308;813;78;735;2;loadCustomersList;
[6];2012-13-01 12:04:02.308;813;78;735;2;loadCustomersList;
[7];2012-09-21 25:04:02.308;813;78;735;2;loadCustomersList;
[8];2013-02-29 12:04:02.308;813;78;735;2;loadCustomersList;
java.lang.NullPointerException
\tat ru.example.CustomerService.load(CustomerService.java:42)
[11];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;x-
[12];2012-09-21 12:04:02.308;813;78;735;2;;
[13];2012-09-21 12:04:02.308;813;78;735;2.5;loadCustomersList;
[14];2012-02-29 23:59:59.999;813;78;735;2;getContract;
";
        let log = semi(text);
        let r = rows(&log);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].0.as_str(), r[0].8), ("2012-09-21T12:04:02.308", 1));
        // 2012 is a leap year: 29 February exists.
        assert_eq!((r[1].0.as_str(), r[1].8), ("2012-02-29T23:59:59.999", 14));
        assert_eq!(log.skipped_lines, 12);
        assert_eq!(log.lines, 14);
        let bad: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
        assert_eq!(bad, vec![2, 3, 4, 5, 6]);
        assert_eq!(log.bad[0].text, "[2];2012-09-21 12:04:02.308;813;78;735");
    }

    #[test]
    fn semicolon_inconsistent_flagged() {
        let log = semi(
            "[1];2012-09-21 12:04:02.308;813;78;700;2;loadCustomersList;\n\
             [2];2012-09-21 12:04:02.309;813;78;735;2;loadCustomersList;\n\
             [3];2012-09-21 12:04:02.310;10,5;0,2;10,3;1;getContract;\n\
             [4];2012-09-21 12:04:02.311;10.5;0.2;10.4;1;getContract;\n",
        );
        let flags: Vec<(f64, bool)> = log
            .records
            .iter()
            .map(|r| (r.total_ms, r.inconsistent))
            .collect();
        // Kept, flagged; decimal times that add up are not flagged for float rounding.
        assert_eq!(
            flags,
            vec![(813.0, true), (813.0, false), (10.5, false), (10.5, true)]
        );
        assert_eq!(log.records[2].java_ms, Some(0.2));
        assert_eq!(log.skipped_lines, 0);
    }

    #[test]
    fn semicolon_error_text_with_semicolons() {
        let log = semi(
            "[1];2012-09-21 12:07:07.454;369;97;272;11;getContract;e-ORA-20001: Клиент не найден; код 17\n\
             [2];2012-09-21 12:07:08.000;10;5;5;1;saveOrder;e-a;b;c;\n",
        );
        let r = rows(&log);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].5.as_str(), r[0].6, r[0].1),
            ("getContract", false, 369.0)
        );
        assert_eq!((r[1].5.as_str(), r[1].6), ("saveOrder", false));
        assert_eq!(log.skipped_lines, 0);
        assert_eq!(log.strings.len(), 3); // "", two names: no error text interned
    }

    #[test]
    fn semicolon_truncated_last_line() {
        // Cut in the date: skipped and counted.
        let log = semi(
            "[1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;\n[2];2012-09-21 12:0",
        );
        assert_eq!(log.records.len(), 1);
        assert_eq!((log.lines, log.skipped_lines, log.bad[0].line), (2, 1, 2));
        // Cut in the operation name: could be `loadCust` or anything longer, so not taken.
        let log = semi("[1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;\n[2];2012-09-21 12:04:03.000;40;10;30;1;loadCust");
        assert_eq!((log.records.len(), log.skipped_lines), (1, 1));
        // Complete up to its `;` (or its `e-`): taken even without the final line break.
        let log = semi("[2];2012-09-21 12:04:03.000;40;10;30;1;getContract;");
        assert_eq!((log.records.len(), log.lines), (1, 1));
        let log = semi("[2];2012-09-21 12:04:03.000;40;10;30;1;getContract;e-Connection re\r");
        assert_eq!((log.records.len(), log.records[0].ok), (1, false));
    }

    fn jtl(s: &str) -> PerfLog {
        parse(PerfFormat::JmeterJtl, s.as_bytes())
    }

    const JTL_HEADER: &str = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

    #[test]
    fn jtl_full_header_and_quoting() {
        let text = format!(
            "{JTL_HEADER}\r\n\
             1348221842308,120,Home,200,OK,Users 1-1,text,true,,5120,431,5,5,http://localhost:9080/daytrader/app,98,0,2\r\n\
             1348221842308,813,\"Sell, confirm\",500,\"Internal \"\"Server\"\" Error\",Users 1-2,text,false,\"Test failed: expected \"\"ok, done\"\"\",310,402,5,5,http://localhost:9080/daytrader/app?action=sell,700,0,1\r\n\
             1348221843000,95,\"Say \"\"hi\"\", then buy\",200,OK,Users 1-3,text,true,,5120,431,5,5,http://x,90,0,0\r\n"
        );
        let log = jtl(&text);
        assert_eq!(log.format, PerfFormat::JmeterJtl);
        assert_eq!(
            rows(&log),
            vec![
                (
                    "2012-09-21T10:04:02.428".into(),
                    120.0,
                    None,
                    None,
                    None,
                    "Home".into(),
                    true,
                    false,
                    2
                ),
                (
                    "2012-09-21T10:04:03.121".into(),
                    813.0,
                    None,
                    None,
                    None,
                    "Sell, confirm".into(),
                    false,
                    false,
                    3
                ),
                (
                    "2012-09-21T10:04:03.095".into(),
                    95.0,
                    None,
                    None,
                    None,
                    "Say \"hi\", then buy".into(),
                    true,
                    false,
                    4
                ),
            ]
        );
        assert_eq!((log.lines, log.skipped_lines), (4, 0));
        assert_eq!(detect(text.as_bytes()), Some(PerfFormat::JmeterJtl));
    }

    #[test]
    fn jtl_columns_by_name_fewer_and_reordered() {
        let log = jtl("label,success,elapsed,timeStamp\n\
             Home,true,120,1348221842308\n\
             Buy,FALSE,813,1348221842308\n");
        let r = rows(&log);
        assert_eq!(
            r[0],
            (
                "2012-09-21T10:04:02.428".into(),
                120.0,
                None,
                None,
                None,
                "Home".into(),
                true,
                false,
                2
            )
        );
        assert_eq!(
            (r[1].0.as_str(), r[1].5.as_str(), r[1].6),
            ("2012-09-21T10:04:03.121", "Buy", false)
        );
        // A BOM before the header does not hide it.
        let log = jtl("\u{FEFF}label,success,elapsed,timeStamp\nHome,true,120,1348221842308\n");
        assert_eq!((log.records.len(), log.skipped_lines), (1, 0));
        // Without `success` and `label` columns: nothing says a sample failed, no name.
        let log = jtl("elapsed,timeStamp\n120,1348221842308\n");
        assert_eq!(
            (log.records[0].ok, log.strings.get(log.records[0].operation)),
            (true, "")
        );
    }

    #[test]
    fn jtl_date_string_timestamp() {
        let log = jtl(&format!(
            "{JTL_HEADER}\n2012/09/21 12:04:02.308,813,Quote,200,OK,Users 1-1,text,true,,5120,431,5,5,http://x,98,0,2\n"
        ));
        let r = rows(&log);
        // A text stamp is local time, taken as UTC like the semicolon log's dates.
        assert_eq!(
            (r[0].0.as_str(), r[0].1, r[0].5.as_str()),
            ("2012-09-21T12:04:03.121", 813.0, "Quote")
        );
        assert_eq!(log.skipped_lines, 0);
    }

    #[test]
    fn jtl_without_header_default_order() {
        let text =
            "1348221842308,120,Home,200,OK,Users 1-1,text,true,,5120,431,5,5,http://x,98,0,2\n\
                    1348221842308,813,Buy,500,Error,Users 1-1,text,false\n";
        let log = jtl(text);
        let r = rows(&log);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].0.as_str(), r[0].5.as_str(), r[0].6),
            ("2012-09-21T10:04:02.428", "Home", true)
        );
        assert_eq!(
            (r[1].0.as_str(), r[1].5.as_str(), r[1].6),
            ("2012-09-21T10:04:03.121", "Buy", false)
        );
        assert_eq!(detect(text.as_bytes()), Some(PerfFormat::JmeterJtl));
    }

    #[test]
    fn jtl_quoted_field_spanning_lines() {
        let log = jtl(&format!(
            "{JTL_HEADER}\n\
             1348221842308,813,Buy,500,Error,Users 1-1,text,false,\"Assertion failed:\nline two\r\nline three\",1,1,1,1,http://x,1,0,0\n\
             1348221843000,95,Home,200,OK,Users 1-1,text,true,,1,1,1,1,http://x,1,0,0\n"
        ));
        let lines: Vec<(u64, bool)> = log.records.iter().map(|r| (r.line, r.ok)).collect();
        assert_eq!(lines, vec![(2, false), (5, true)]);
        assert_eq!((log.lines, log.skipped_lines), (5, 0));
    }

    #[test]
    fn jtl_bad_rows_skipped_and_counted() {
        let log = jtl(&format!(
            "{JTL_HEADER}\n\
             1348221842308,abc,Home,200,OK,U,text,true\n\
             1348221842308,-5,Home,200,OK,U,text,true\n\
             1348221842308,120,Home,200,OK,U,text,maybe\n\
             1348221842308,120,Home\n\
             1348221842308,120,\"Home\"x,200,OK,U,text,true\n\
             2012/02/30 12:00:00.000,120,Home,200,OK,U,text,true\n\
             1348221842308,120,Home,200,OK,U,text,true\n\
             1348221842308,120,\"never closed,200,OK,U,text,true\n\
             1348221843000,95,Home,200,OK,U,text,true\n"
        ));
        let lines: Vec<u64> = log.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![8, 10]);
        assert_eq!(log.skipped_lines, 7);
        let bad: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
        assert_eq!(bad, vec![2, 3, 4, 5, 6]);
        assert_eq!(log.lines, 10);
    }

    fn grinder(s: &str) -> PerfLog {
        parse(PerfFormat::Grinder, s.as_bytes())
    }

    #[test]
    fn grinder_rows() {
        let text = "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors, HTTP response code, HTTP response length\n\
                    0, 0, 1, 1348221842308, 63, 0, 200, 5234\n\
                    1, 0, 12, 1348221842308, 813, 1, 500, 310\n\
                    1, 0, 2, 1348221842308, 81\n\
                    0, 0, 2, 1348221843000, 95, 0, 200, 1000\n";
        let log = grinder(text);
        assert_eq!(log.format, PerfFormat::Grinder);
        assert_eq!(
            rows(&log),
            vec![
                (
                    "2012-09-21T10:04:02.371".into(),
                    63.0,
                    None,
                    None,
                    None,
                    "test 1".into(),
                    true,
                    false,
                    2
                ),
                (
                    "2012-09-21T10:04:03.121".into(),
                    813.0,
                    None,
                    None,
                    None,
                    "test 12".into(),
                    false,
                    false,
                    3
                ),
                (
                    "2012-09-21T10:04:03.095".into(),
                    95.0,
                    None,
                    None,
                    None,
                    "test 2".into(),
                    true,
                    false,
                    5
                ),
            ]
        );
        assert_eq!((log.lines, log.skipped_lines, log.bad[0].line), (5, 1, 4));
        assert_eq!(detect(text.as_bytes()), Some(PerfFormat::Grinder));
        // Without the header: the standard column order, also for detection.
        let rows_only = "0, 0, 1, 1348221842308, 63, 0\n";
        let log = grinder(rows_only);
        assert_eq!(log.records.len(), 1);
        assert_eq!(
            format_wall_ms(log.records[0].end_ms),
            "2012-09-21T10:04:02.371"
        );
        assert_eq!(detect(rows_only.as_bytes()), Some(PerfFormat::Grinder));
    }

    /// Sums of the fixtures' totals, as their generator computed them.
    fn total(log: &PerfLog) -> f64 {
        log.records.iter().map(|r| r.total_ms).sum()
    }

    fn op_count(log: &PerfLog, name: &str) -> usize {
        log.records
            .iter()
            .filter(|r| log.strings.get(r.operation) == name)
            .count()
    }

    #[test]
    fn fixture_soap_before() {
        let buf = include_bytes!("../../fixtures/perf/soap-before.log");
        assert_eq!(detect(buf), Some(PerfFormat::PerfCsv));
        let log = parse(PerfFormat::PerfCsv, buf);
        assert_eq!(log.records.len(), 480);
        // The last line was cut while the log was being written.
        assert_eq!(
            (log.lines, log.skipped_lines, log.bad[0].line),
            (481, 1, 481)
        );
        assert_eq!(total(&log), 348307.0);
        let java: f64 = log.records.iter().filter_map(|r| r.java_ms).sum();
        let db: f64 = log.records.iter().filter_map(|r| r.db_ms).sum();
        let calls: u32 = log.records.iter().filter_map(|r| r.db_calls).sum();
        assert_eq!((java, db, calls), (37807.0, 310492.0, 3174));
        assert_eq!(log.records.iter().filter(|r| !r.ok).count(), 3);
        let inc: Vec<u64> = log
            .records
            .iter()
            .filter(|r| r.inconsistent)
            .map(|r| r.line)
            .collect();
        assert_eq!(inc, vec![132]);
        let in_band = log
            .records
            .iter()
            .filter(|r| (200.0..=1000.0).contains(&r.total_ms))
            .count();
        assert_eq!(in_band, 436);
        assert_eq!(op_count(&log, "loadCustomersList"), 153);
        assert_eq!(op_count(&log, "getContract"), 121);
        assert_eq!(op_count(&log, "saveOrder"), 58);
        assert_eq!(op_count(&log, "getBalance"), 92);
        assert_eq!(op_count(&log, "searchCustomer"), 56);
        assert_eq!(
            format_wall_ms(log.records[0].end_ms),
            "2012-09-21T12:00:03.188"
        );
        assert_eq!(
            format_wall_ms(log.records[479].end_ms),
            "2012-09-21T12:17:04.018"
        );
    }

    #[test]
    fn fixture_soap_after() {
        let buf = include_bytes!("../../fixtures/perf/soap-after.log");
        assert_eq!(detect(buf), Some(PerfFormat::PerfCsv));
        let log = parse(PerfFormat::PerfCsv, buf);
        assert_eq!(
            (log.records.len(), log.lines, log.skipped_lines),
            (520, 520, 0)
        );
        assert_eq!(total(&log), 16709.0);
        assert_eq!(log.records.iter().filter(|r| !r.ok).count(), 2);
        let inc: Vec<u64> = log
            .records
            .iter()
            .filter(|r| r.inconsistent)
            .map(|r| r.line)
            .collect();
        assert_eq!(inc, vec![278]);
        assert_eq!(
            log.records.iter().filter(|r| r.total_ms < 50.0).count(),
            488
        );
        assert_eq!(op_count(&log, "loadCustomersList"), 184);
        assert_eq!(
            format_wall_ms(log.records[0].end_ms),
            "2012-10-05T12:00:03.530"
        );
        assert_eq!(
            format_wall_ms(log.records[519].end_ms),
            "2012-10-05T12:19:29.191"
        );
    }

    #[test]
    fn fixture_jmeter_daytrader() {
        let buf = include_bytes!("../../fixtures/perf/jmeter-daytrader.jtl");
        assert_eq!(detect(buf), Some(PerfFormat::JmeterJtl));
        let log = parse(PerfFormat::JmeterJtl, buf);
        assert_eq!(
            (log.records.len(), log.lines, log.skipped_lines),
            (200, 201, 0)
        );
        assert_eq!(total(&log), 12138.0);
        let failed: Vec<u64> = log
            .records
            .iter()
            .filter(|r| !r.ok)
            .map(|r| r.line)
            .collect();
        assert_eq!(failed, vec![25, 99, 152, 183]);
        assert_eq!(op_count(&log, "Sell, confirm"), 15);
        assert_eq!(op_count(&log, "Quote"), 59);
        assert_eq!(op_count(&log, "Home"), 42);
        assert_eq!(log.strings.len(), 8); // "" and seven labels
        assert_eq!(
            format_wall_ms(log.records[0].end_ms),
            "2012-09-21T10:04:02.543"
        );
        assert_eq!(
            format_wall_ms(log.records[199].end_ms),
            "2012-09-21T10:04:45.323"
        );
    }

    #[test]
    fn fixture_grinder_trader() {
        let buf = include_bytes!("../../fixtures/perf/grinder-data_trader.log");
        assert_eq!(detect(buf), Some(PerfFormat::Grinder));
        let log = parse(PerfFormat::Grinder, buf);
        assert_eq!(
            (log.records.len(), log.lines, log.skipped_lines),
            (200, 201, 0)
        );
        assert_eq!(total(&log), 11452.0);
        assert_eq!(log.records.iter().filter(|r| !r.ok).count(), 3);
        for t in 1..=5 {
            assert_eq!(op_count(&log, &format!("test {t}")), 40);
        }
        assert_eq!(
            format_wall_ms(log.records[0].end_ms),
            "2012-09-21T10:04:02.371"
        );
    }

    #[test]
    fn detect_each_format_past_noise() {
        let semi = format!(
            "Performance log started\n\nid;time;total;java;db;dbcalls;operation;error\n{EXAMPLE}"
        );
        assert_eq!(detect(semi.as_bytes()), Some(PerfFormat::PerfCsv));
        let prefixed = "2012-09-21 12:04:02,310 INFO [perf] [7842BD26];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n";
        assert_eq!(detect(prefixed.as_bytes()), Some(PerfFormat::PerfCsv));
        assert_eq!(
            detect(format!("\n\n{JTL_HEADER}\n").as_bytes()),
            Some(PerfFormat::JmeterJtl)
        );
        let jtl_rows =
            "garbage line\n2012/09/21 12:04:02.308,813,Quote,200,OK,Users 1-1,text,true,,5120\n";
        assert_eq!(detect(jtl_rows.as_bytes()), Some(PerfFormat::JmeterJtl));
        let grinder = "\nThread, Run, Test, Start time (ms since Epoch), Test time, Errors\n";
        assert_eq!(detect(grinder.as_bytes()), Some(PerfFormat::Grinder));
        // Neither a semicolon record (no date), nor a JTL or Grinder row.
        assert_eq!(detect(b"a;b;c;d\n1,2,3\n0, 0, 1, 15, 3, 0\nhello\n"), None);
    }

    #[test]
    fn detect_gc_logs_none() {
        let lines: [&[u8]; 5] = [
            b"0.294: [GC 0.294: [ParNew: 104960K->13042K(118016K), 0.0284337 secs] 104960K->34501K(249088K), 0.0285898 secs]\n",
            b"2013-05-22T15:42:34.123+0200: 1.0: [Full GC (System.gc()) 1K->1K(2K), 0.1 secs]\n",
            b"[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n",
            b"[0.207s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n",
            b"[2019-03-05T14:11:18.470+0100][gc] GC(3) Pause Full (System.gc()) 5M->4M(16M) 11.5ms\n",
        ];
        for l in lines {
            assert_eq!(detect(l), None, "{}", String::from_utf8_lossy(l));
        }
        let fixtures: [&[u8]; 8] = [
            include_bytes!("../../fixtures/hotspot/jdk142-parnew-cms-incremental.log"),
            include_bytes!("../../fixtures/hotspot/jdk8-g1-details.log"),
            include_bytes!("../../fixtures/hotspot/jdk8-parallel-datestamps.log"),
            include_bytes!("../../fixtures/jrockit/r26-detgc.log"),
            include_bytes!("../../fixtures/jrockit/r26-gencon.log"),
            include_bytes!("../../fixtures/jrockit/r28-gencon-gcpause.log"),
            include_bytes!("../../fixtures/unified/g1-jdk17.log"),
            include_bytes!("../../fixtures/unified/zgc-jdk21.log"),
        ];
        for (i, f) in fixtures.iter().enumerate() {
            assert_eq!(detect(f), None, "GC fixture {i}");
        }
    }

    const ALL: [PerfFormat; 3] = [
        PerfFormat::PerfCsv,
        PerfFormat::JmeterJtl,
        PerfFormat::Grinder,
    ];

    #[test]
    fn empty_input() {
        for f in ALL {
            for buf in [&b""[..], b"\n", b"\r\n\r\n", b"\xEF\xBB\xBF"] {
                let log = parse(f, buf);
                assert!(log.records.is_empty());
                assert_eq!(log.skipped_lines, 0, "{f:?} {buf:?}");
                assert_eq!(log.format, f);
            }
        }
        assert_eq!(detect(b""), None);
        assert_eq!(detect(b"\xEF\xBB\xBF\n\n"), None);
    }

    /// xorshift64*: deterministic pseudo-random bytes.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn run_all(buf: &[u8]) {
        let _ = detect(buf);
        for f in ALL {
            let log = parse(f, buf);
            assert!(log.skipped_lines + log.records.len() as u64 <= log.lines.max(1) * 2);
            assert!(log.bad.len() <= crate::model::BAD_LINES_KEPT);
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        // Pure noise, and noise over an alphabet of the formats' own bytes.
        let alphabet = b";,\"\n\r[]- :./0123456789eE+truefalsTest";
        for round in 0..3000 {
            let len = rng.below(300);
            let buf: Vec<u8> = (0..len)
                .map(|_| {
                    if round % 2 == 0 {
                        rng.next() as u8
                    } else {
                        alphabet[rng.below(alphabet.len())]
                    }
                })
                .collect();
            run_all(&buf);
        }
    }

    #[test]
    fn mutated_records_never_panic() {
        let jtl_text = format!("{JTL_HEADER}\n1348221842308,813,\"Sell, confirm\",500,\"a \"\"b\"\"\",U,text,false,,1,1,1,1,http://x,1,0,0\n");
        let seeds: [&[u8]; 4] = [
            EXAMPLE.as_bytes(),
            jtl_text.as_bytes(),
            b"Thread, Run, Test, Start time (ms since Epoch), Test time, Errors\n0, 0, 1, 1348221842308, 63, 0\n",
            b"2012-09-21 12:04:02,310 INFO [perf] [7842];2012-09-21 12:04:02.308;813;78;735;2;op;e-x\n",
        ];
        let mut rng = Rng(42);
        for seed in seeds {
            // Every truncation.
            for cut in 0..=seed.len() {
                run_all(&seed[..cut]);
            }
            // Random byte edits.
            for _ in 0..2000 {
                let mut b = seed.to_vec();
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(b.len());
                    match rng.below(3) {
                        0 => b[i] = rng.next() as u8,
                        1 => {
                            b.remove(i);
                        }
                        _ => b.insert(i, b";,\"\n9-"[rng.below(6)]),
                    }
                }
                run_all(&b);
            }
        }
    }

    #[test]
    fn non_utf8() {
        // Latin-1 / CP1251 bytes in the operation name and the error text; a binary line.
        let buf = b"[1];2012-09-21 12:04:02.308;813;78;735;2;load\xC7\xE0\xEA\xE0\xE7;e-\xCE\xF8\xE8\xE1\xEA\xE0\n\xFF\xFE\x00\x01;;\n";
        let log = parse(PerfFormat::PerfCsv, buf);
        assert_eq!(log.records.len(), 1);
        assert_eq!(
            log.strings.get(log.records[0].operation),
            "load\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"
        );
        assert!(!log.records[0].ok);
        assert_eq!((log.skipped_lines, log.bad[0].line), (1, 2));
        assert_eq!(detect(buf), Some(PerfFormat::PerfCsv));
        let jtl = b"timeStamp,elapsed,label,success\n1348221842308,120,\xE9t\xE9,true\n";
        let log = parse(PerfFormat::JmeterJtl, jtl);
        assert_eq!(
            log.strings.get(log.records[0].operation),
            "\u{FFFD}t\u{FFFD}"
        );
    }
}
