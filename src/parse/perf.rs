//! Application performance logs: one record per measured operation.
//!
//! Three families of `PERF_FAMILIES` (JMeter's XML results are `jmeter_xml.rs`'s), each a
//! `PerfFamily`:
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
//!   RFC 4180 quoting, quoted fields may span lines. `timeStamp` is read as the sample's start
//!   (JMeter's shipped `sampleresult.timestamp.start=true`), epoch ms or `yyyy/MM/dd
//!   HH:mm:ss.SSS`; the record's end is timeStamp + elapsed. Each request is paired with the
//!   one before on its `threadName` (`Threads`, counted in `PerfLog::stamps`), so that the
//!   loader can tell a log stamped at the requests' ends and move them back.
//! - **The Grinder `data_*.log`**: `Thread, Run, Test, Start time (ms since Epoch), Test time,
//!   Errors, ...`; operation `test <n>`, end = start + test time, failed when Errors > 0.
//!
//! Epoch stamps (JMeter, Grinder) are true UTC instants and are kept as they are; text dates are
//! local time taken as UTC (as for GC logs). No parser allocates per well-formed line:
//! operation names are interned from the input bytes, cut to `limits::MAX_LABEL_BYTES`.
//!
//! Values believed: times (total, Java, DB, elapsed, test time) finite, ≥ 0 and at most a day
//! (86,400,000 ms); dates that exist; epoch stamps up to the year 9999. A record with any other
//! value is skipped and counted, never read as something else.
//!
//! Every line is counted once (`PerfLog::record_lines`, `ignored_lines`, `skipped_lines`); lines
//! end at `\n`, `\r\n` or a lone `\r` in every format. Records are the lines of a record (all the
//! lines a JTL record's quoted fields span); the ignorable lines are blank lines (NUL padding
//! included) and header rows (semicolon header, JTL header, Grinder `Thread, Run, ...` header
//! with the columns it needs); every other line is skipped: a GC log's line, a row of another
//! format, a record that cannot be read or cannot be true.

use super::family::{
    perf_families, Handle, OwnedStart, PerfBlock, PerfFamily, PerfFormat, Recognised, Recogniser,
};
use super::limits::{self, cap_label, MAX_WALL_MS};
use super::lines::{count, lines};
use super::num::{trim, uint_prefix};
use crate::model::{PerfLog, PerfRecord, StampOrder, MAX_DURATION_MS};

pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The semicolon performance log: one `;`-separated line per web-service operation.
pub const SEMICOLON: PerfFormat = Handle(&Semicolon);
/// Apache JMeter results, CSV (`.jtl`).
pub const JMETER_JTL: PerfFormat = Handle(&JmeterJtl);
/// The Grinder's `data_*.log`.
pub const GRINDER: PerfFormat = Handle(&Grinder);

struct Semicolon;
struct JmeterJtl;
struct Grinder;

thread_local! {
    /// The fields detection splits a line into, kept from line to line.
    static FIELDS: std::cell::RefCell<Vec<Field>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl PerfFamily for Semicolon {
    fn name(&self) -> &'static str {
        "perf-csv"
    }
    fn about(&self) -> &'static str {
        "the semicolon log (`[id];date;total;java;db;calls;operation[;e-error]`)"
    }
    fn recognises(&self, line: &[u8]) -> bool {
        semicolon_record(line).is_some()
    }
    /// `[id];`.
    fn owns(&self, line: &[u8]) -> bool {
        line.first() == Some(&b'[')
            && memchr::memchr(b']', line).is_some_and(|c| line.get(c + 1) == Some(&b';'))
    }
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"[")
    }
    /// Its header row names no columns: blocks read alike whatever came before.
    fn parse_block(&self, _header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        PerfBlock::from(parse_semicolon(buf))
    }
    /// Local dates, taken as UTC.
    fn utc(&self) -> bool {
        false
    }
}

impl PerfFamily for JmeterJtl {
    fn name(&self) -> &'static str {
        "jmeter-jtl"
    }
    fn about(&self) -> &'static str {
        "JMeter results as CSV (JTL; `,`, tab, `;` or `|`)"
    }
    fn recognises(&self, line: &[u8]) -> bool {
        FIELDS.with_borrow_mut(|f| is_jtl_line(line, f))
    }
    /// Rows in the order their header gives, and the lines of a quoted field inside its row.
    fn recogniser(&self) -> Option<Box<dyn Recogniser>> {
        Some(Box::new(JtlRecogniser {
            cols: JtlCols::DEFAULT,
            split_known: false,
            fields: Vec::new(),
            open: None,
        }))
    }
    /// A row with epoch milliseconds first: `1354000000000,123,label,...` (or another of
    /// JMeter's delimiters).
    fn owns(&self, line: &[u8]) -> bool {
        let n = line.iter().take_while(|b| b.is_ascii_digit()).count();
        n >= 10 && line.get(n).is_some_and(|d| DELIMITERS.contains(d))
    }
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::DigitsThen(DELIMITERS)
    }
    fn parse_block(&self, header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock {
        parse_jtl(header, buf, last)
    }
}

impl PerfFamily for Grinder {
    fn name(&self) -> &'static str {
        "grinder"
    }
    fn about(&self) -> &'static str {
        "The Grinder's `data_*.log`"
    }
    fn recognises(&self, line: &[u8]) -> bool {
        FIELDS.with_borrow_mut(|f| is_grinder_line(line, f))
    }
    /// A row `0, 0, 1, 1348221842308, 63, ...`: thread, run, test, epoch-ms start time.
    fn owns(&self, line: &[u8]) -> bool {
        let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut rest = line;
        for _ in 0..3 {
            let n = digits(rest);
            match rest[n..].strip_prefix(b", ") {
                Some(r) if n > 0 => rest = r,
                _ => return false,
            }
        }
        let n = digits(rest);
        n >= 10 && rest.get(n) == Some(&b',')
    }
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::DigitsThen(b",")
    }
    fn parse_block(&self, header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        parse_grinder(header, buf)
    }
}

/// Parse a whole performance log of a known family.
pub fn parse(format: PerfFormat, buf: &[u8]) -> PerfLog {
    parse_block(format, None, buf, true).log
}

/// Parse a block of a performance log (see `PerfFamily::parse_block`).
pub fn parse_block(format: PerfFormat, header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock {
    // Removing the BOM does not move line numbers.
    format.parse_block(header, buf.strip_prefix(BOM).unwrap_or(buf), last)
}

/// Detect a performance-log family from content: lines are looked at until one is decisive
/// (a record or header of a family), passing over blank lines and lines of no family. A line
/// that belongs to a GC log (`[GC`, `[memory ]`, `GC(`, `[0.123s][info][gc ...`) ends the search
/// with `None`.
pub fn detect(buf: &[u8]) -> Option<PerfFormat> {
    let buf = buf.strip_prefix(BOM).unwrap_or(buf);
    for (_, line) in lines(buf) {
        let t = trim(line);
        if t.is_empty() {
            continue;
        }
        if let Some(f) = perf_families().find(|f| f.recognises(t)) {
            return Some(f);
        }
        if super::family::family_of_line(t).is_some() {
            return None;
        }
    }
    None
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
    /// The text after `e-` of a failed operation (trimmed; may be empty).
    message: &'a [u8],
    /// A `;` follows the operation: the line cannot have been cut inside the name.
    complete: bool,
}

fn parse_semicolon(buf: &[u8]) -> PerfLog {
    let mut log = PerfLog::default();
    let mut ops = OpCache::default();
    // A last line without its line break may have been cut while being written: it counts
    // only if it is visibly complete (see `Semi::complete`).
    let unterminated = !matches!(buf.last(), None | Some(b'\n' | b'\r'));
    let mut it = lines(buf);
    // Empty lines are passed over in bulk: a flood of them costs what skipping it costs.
    while let Some((no, line)) = it.next_after_empty(&mut log.ignored_lines) {
        let cut = unterminated && it.is_done();
        semicolon_line(&mut log, &mut ops, no, line, cut);
    }
    log.lines = it.line_no();
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
            log.record_lines += 1;
            let operation = ops.intern(log, cap_label(r.op));
            // Failures are few: their messages are interned without the cache.
            let error = (!r.ok).then(|| log.strings.intern_bytes(cap_label(r.message)));
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
                error,
            });
        }
        None => {
            if trim(line).is_empty() || is_semicolon_header(line) {
                log.ignored_lines += 1;
            } else {
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
    let mut message: &[u8] = &[];
    let ok = match err {
        None => true,
        Some(e) => {
            let e = skip_spaces(e);
            if let Some(m) = e.strip_prefix(b"e-") {
                // The record's closing `;` is not part of the message.
                let mut m = trim(m);
                while let Some(r) = m.strip_suffix(b";") {
                    m = trim(r);
                }
                message = m;
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
        message,
        complete: err.is_some(),
    })
}

/// A time in ms: a number from 0 to a day, then `;` (spaces allowed around it).
#[inline]
fn ms_field(s: &[u8]) -> Option<(f64, &[u8])> {
    let s = skip_spaces(s);
    // Fast path: a plain integer followed by `;` (the usual case).
    let digits = s.iter().take(16).take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && digits < 16 && s.get(digits) == Some(&b';') {
        let v = s
            .iter()
            .take(digits)
            .fold(0u64, |a, &c| a * 10 + u64::from(c - b'0')) as f64;
        return (v <= MAX_DURATION_MS).then_some((v, s.get(digits + 1..)?));
    }
    if s.first() == Some(&b'-') {
        return None;
    }
    let (v, n) = limits::float_prefix(s).filter(|&(v, _)| believed_ms(v))?;
    Some((v, after_separator(s.get(n..)?)?))
}

/// A time believed: finite, not negative, at most a day.
fn believed_ms(v: f64) -> bool {
    v.is_finite() && (0.0..=MAX_DURATION_MS).contains(&v)
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
/// that exists in its month (2012-02-30 is refused, not rolled into March): local time as
/// epoch ms, and bytes consumed.
#[inline]
fn date_prefix(s: &[u8]) -> Option<(i64, usize)> {
    super::num::iso_datetime_prefix(s)
}

// ---------------------------------------------------------------------------------------------
// JMeter CSV results (JTL)
// ---------------------------------------------------------------------------------------------

/// A CSV field as a range of the input, quotes removed.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Field {
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Quoted with `""` inside: needs unescaping before use as text.
    pub(crate) escaped: bool,
}

/// Field `i` of a row of `buf` split into `fields`.
fn field<'a>(buf: &'a [u8], fields: &[Field], i: usize) -> Option<&'a [u8]> {
    fields.get(i).and_then(|f| buf.get(f.start..f.end))
}

/// A quoted field longer than this is taken for a stray quote, not a message.
const MAX_QUOTED_BYTES: usize = 64 << 10;

/// Most fields a row is split into: JMeter writes about 16 (more with saved variables). A
/// longer row is read to its end but not kept, so a line of a million commas costs no memory.
const MAX_FIELDS: usize = 1024;

/// Why `csv_record` read no record.
#[derive(Debug, PartialEq)]
pub(crate) enum NotRecord {
    /// A quote never closed, or text after a closing quote.
    Malformed,
    /// A quoted field still open where the input ends (or a quote as its last byte, maybe the
    /// first of a doubled `""`): the record may go on in the bytes after.
    OpenAtEnd,
}

/// One RFC 4180 record read by `csv_record`.
pub(crate) struct CsvRecord {
    /// Position after the record's line end (or the end of the input).
    pub(crate) next: usize,
    /// More than `MAX_FIELDS` fields: only the first ones are in `out`.
    pub(crate) too_many: bool,
}

/// Read one RFC 4180 record of fields split by `delim` starting at `pos` into `out` (ranges
/// into `buf`). A record ends at `\n`, `\r\n` or a lone `\r` outside quotes, like a line of
/// `lines()`; NUL padding before the line end is not part of the last field. With `more`,
/// bytes may follow `buf` (a block of a stream): a quoted field open at its end is
/// `OpenAtEnd`, not malformed.
pub(crate) fn csv_record(
    buf: &[u8],
    pos: usize,
    more: bool,
    delim: u8,
    out: &mut Vec<Field>,
) -> Result<CsvRecord, NotRecord> {
    csv_record_in(buf, pos, more, delim, out, None)
}

/// Field starts from which a record is malformed (`csv_record_in`), within one block read
/// with one delimiter. A record whose quoted fields run over line ends to a malformed quote
/// far on is skipped one line at a time, so that the rows a stray quote would swallow are
/// read; each next line's record met the same fields again and was read out to the same
/// quote (a 500 KB JTL took 1.5 s). Reading from a field start depends on nothing but the
/// position, so a record that meets one of these is malformed there.
#[derive(Default)]
pub(crate) struct Doomed {
    starts: rustc_hash::FxHashSet<usize>,
    /// The field starts of the record being read, once one of its quoted fields held a line
    /// end (a record on one line reaches no later line's).
    visited: Vec<usize>,
    /// The delimiter the starts were found with, and the last of them.
    delim: u8,
    last: usize,
}

impl Doomed {
    /// Before a record read from `pos` split by `delim`: the starts kept hold for it.
    fn before(&mut self, pos: usize, delim: u8) {
        if !self.starts.is_empty() && (pos > self.last || delim != self.delim) {
            self.starts.clear();
        }
        self.delim = delim;
        self.visited.clear();
    }

    /// After it: a malformed record's starts kept.
    fn after(&mut self, got: &Result<CsvRecord, NotRecord>) {
        if let Err(NotRecord::Malformed) = got {
            if let Some(&l) = self.visited.last() {
                self.last = self.last.max(l);
            }
            self.starts.extend(self.visited.drain(..));
        }
    }
}

/// `csv_record`, what `doomed` holds (a block's malformed records' field starts) taken as
/// malformed, and the starts of a malformed record that spans lines added to it.
#[inline]
fn csv_record_in(
    buf: &[u8],
    pos: usize,
    more: bool,
    delim: u8,
    out: &mut Vec<Field>,
    mut doomed: Option<&mut Doomed>,
) -> Result<CsvRecord, NotRecord> {
    out.clear();
    let mut spanned = false;
    let mut too_many = false;
    let mut push = |start, end, escaped, out: &mut Vec<Field>| {
        if out.len() < MAX_FIELDS {
            out.push(Field {
                start,
                end,
                escaped,
            });
        } else {
            too_many = true;
        }
    };
    // Looked up only where a malformed record left starts (rare): a field start of every
    // row costs a branch.
    let look = doomed.as_ref().is_some_and(|d| !d.starts.is_empty());
    let mut i = pos;
    loop {
        if look || spanned {
            if let Some(d) = doomed.as_deref_mut() {
                if look && d.starts.contains(&i) {
                    return Err(NotRecord::Malformed);
                }
                if spanned {
                    d.visited.push(i);
                }
            }
        }
        if buf.get(i) == Some(&b'"') {
            let start = i + 1;
            let mut j = start;
            let mut escaped = false;
            let close = loop {
                let rest = buf.get(j..).ok_or(NotRecord::Malformed)?;
                let q = memchr::memchr(b'"', rest).map(|k| j + k);
                let Some(q) = q.filter(|&q| !more || q + 1 < buf.len()) else {
                    return Err(if more {
                        NotRecord::OpenAtEnd
                    } else {
                        NotRecord::Malformed
                    });
                };
                if buf.get(q + 1) == Some(&b'"') {
                    escaped = true;
                    j = q + 2;
                } else {
                    break q;
                }
            };
            if close - start > MAX_QUOTED_BYTES {
                return Err(NotRecord::Malformed);
            }
            if !spanned && doomed.is_some() {
                spanned = memchr::memchr2(b'\n', b'\r', &buf[start..close]).is_some();
            }
            push(start, close, escaped, out);
            i = close + 1;
            // NUL padding after the closing quote, before the line end.
            let pad = buf[i..].iter().take_while(|&&b| b == 0).count();
            if pad > 0 && matches!(buf.get(i + pad), None | Some(b'\n' | b'\r')) {
                i += pad;
            }
        } else {
            let rest = buf.get(i..).ok_or(NotRecord::Malformed)?;
            let e = memchr::memchr3(delim, b'\n', b'\r', rest).map_or(buf.len(), |k| i + k);
            let mut end = e;
            if buf.get(e) != Some(&delim) {
                while end > i && buf.get(end - 1) == Some(&0) {
                    end -= 1;
                }
            }
            push(i, end, false, out);
            i = e;
        }
        match buf.get(i) {
            None => return Ok(CsvRecord { next: i, too_many }),
            Some(&d) if d == delim => i += 1,
            Some(b'\n' | b'\r') => {
                let next = i + if buf[i..].starts_with(b"\r\n") { 2 } else { 1 };
                return Ok(CsvRecord { next, too_many });
            }
            Some(_) => return Err(NotRecord::Malformed),
        }
    }
}

/// What a CSV family made of one record (see `csv_block`).
pub(crate) enum CsvRow {
    /// A request, pushed onto the log.
    Record,
    /// A row the format defines that is no request (a header, another metric's sample).
    Ignored,
    /// Not understood: skipped and counted.
    Skipped,
}

/// A block of a CSV log read record by record, for every CSV family: runs of empty lines
/// passed over, a malformed line skipped, a quoted field open at the block's end left unread
/// (the count returned, see `PerfBlock::unread`), and each record's lines (a quoted field
/// may span several) counted as `row` says. `delim` is asked before each record, as a header
/// row can change it; `row` gets the state, the log, the record's fields (ranges into `buf`;
/// `None` past `MAX_FIELDS`), its text without its line end and its first line number.
pub(crate) fn csv_block<S>(
    buf: &[u8],
    last: bool,
    state: &mut S,
    delim: fn(&S) -> u8,
    mut row: impl FnMut(&mut S, &mut PerfLog, Option<&[Field]>, &[u8], u64) -> CsvRow,
) -> (PerfLog, usize) {
    let mut log = PerfLog::default();
    let mut fields: Vec<Field> = Vec::with_capacity(32);
    let mut doomed = Doomed::default();
    let mut pos = 0usize;
    let mut line = 1u64;
    let mut unread = 0;
    while pos < buf.len() {
        // Empty lines are passed over in bulk: a flood of them costs what skipping it costs.
        let (bytes, empty) = super::lines::empty_run(&buf[pos..]);
        if empty > 0 {
            log.ignored_lines += empty;
            line += empty;
            pos += bytes;
            continue;
        }
        let d = delim(state);
        doomed.before(pos, d);
        let got = csv_record_in(buf, pos, !last, d, &mut fields, Some(&mut doomed));
        doomed.after(&got);
        let rec = match got {
            Ok(rec) => rec,
            Err(NotRecord::OpenAtEnd) => {
                unread = buf.len() - pos;
                break;
            }
            Err(NotRecord::Malformed) => {
                // Malformed CSV: the physical line is bad; go on with the next one.
                let end = next_line_end(buf, pos);
                log.skip(line, strip_eol(buf.get(pos..end).unwrap_or_default()));
                pos = end;
                line += 1;
                continue;
            }
        };
        let rec_line = line;
        let raw = buf.get(pos..rec.next).unwrap_or_default();
        // The physical lines the record spans (quoted fields may hold line ends).
        let spans = count(raw);
        pos = rec.next;
        line += spans;
        if blank(raw) {
            log.ignored_lines += spans;
            continue;
        }
        let kept = (!rec.too_many).then_some(&fields[..]);
        match row(state, &mut log, kept, strip_eol(raw), rec_line) {
            CsvRow::Record => log.record_lines += spans,
            CsvRow::Ignored => log.ignored_lines += spans,
            CsvRow::Skipped => {
                log.skip(rec_line, strip_eol(raw));
                log.skipped_lines += spans.saturating_sub(1);
            }
        }
    }
    log.lines = count(&buf[..buf.len() - unread]);
    (log, unread)
}

/// Position after the line end of the physical line that holds `pos` (`\n`, `\r\n`, lone
/// `\r`), or the end of the input.
pub(crate) fn next_line_end(buf: &[u8], pos: usize) -> usize {
    let rest = buf.get(pos..).unwrap_or_default();
    match memchr::memchr2(b'\n', b'\r', rest) {
        None => buf.len(),
        Some(k) if rest.get(k) == Some(&b'\r') && rest.get(k + 1) == Some(&b'\n') => pos + k + 2,
        Some(k) => pos + k + 1,
    }
}

/// Blank: only white space and NUL padding.
fn blank(s: &[u8]) -> bool {
    s.iter().all(|&b| b == 0 || b.is_ascii_whitespace())
}

/// The delimiters JMeter's `jmeter.save.saveservice.default_delimiter` is set to, the
/// default first: a headerless file is read with the first its rows parse with.
const DELIMITERS: &[u8] = b",\t;|";

/// Where the columns we use are, and what splits them.
#[derive(Debug, Clone, Copy)]
struct JtlCols {
    delim: u8,
    ts: usize,
    elapsed: usize,
    label: Option<usize>,
    success: Option<usize>,
    /// For a failed sample's message; optional (a row may end before them).
    response_code: Option<usize>,
    response_message: Option<usize>,
    failure_message: Option<usize>,
    /// The thread a row's request ran on (`StampOrder`); optional too.
    thread: Option<usize>,
    /// Fields a row needs.
    min_fields: usize,
}

impl JtlCols {
    /// JMeter's default column order, for files written without a header
    /// (`timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,...`).
    const DEFAULT: JtlCols = JtlCols {
        delim: b',',
        ts: 0,
        elapsed: 1,
        label: Some(2),
        success: Some(7),
        response_code: Some(3),
        response_message: Some(4),
        failure_message: Some(8),
        thread: Some(5),
        min_fields: 8,
    };

    /// JMeter's default order, split by `delim`.
    fn default_split_by(delim: u8) -> JtlCols {
        JtlCols {
            delim,
            ..JtlCols::DEFAULT
        }
    }

    /// From `line` if it is a header row split by one of `DELIMITERS` (it names `timeStamp`
    /// and `elapsed`).
    fn of_header(line: &[u8], fields: &mut Vec<Field>) -> Option<JtlCols> {
        // Most lines are rows: told without splitting them four ways.
        let finder = |n: &[u8]| crate::parse::num::find(line, n).is_some();
        if !(finder(b"lapsed") || finder(b"LAPSED")) {
            return None;
        }
        DELIMITERS.iter().find_map(|&d| {
            let rec = csv_record(line, 0, false, d, fields).ok()?;
            JtlCols::from_header(line, fields, d).filter(|_| !rec.too_many)
        })
    }

    /// From a header row split by `delim` into `fields`: `None` if it is not one.
    fn from_header(buf: &[u8], fields: &[Field], delim: u8) -> Option<JtlCols> {
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
            delim,
            ts,
            elapsed,
            label,
            success,
            response_code: find(b"responseCode"),
            response_message: find(b"responseMessage"),
            failure_message: find(b"failureMessage"),
            thread: find(b"threadName"),
            min_fields,
        })
    }
}

/// A JTL row's values: (stamp, end ms, elapsed, success).
fn jtl_row(buf: &[u8], fields: &[Field], cols: &JtlCols) -> Option<(i64, i64, f64, bool)> {
    if fields.len() < cols.min_fields {
        return None;
    }
    let text = |i: usize| field(buf, fields, i).map(trim);
    let start = jtl_time(text(cols.ts)?)?;
    let elapsed = whole_ms(text(cols.elapsed)?)?;
    if start > MAX_WALL_MS {
        return None;
    }
    let ok = match cols.success {
        Some(i) => bool_field(text(i)?)?,
        // Files saved without the `success` column: nothing says a sample failed.
        None => true,
    };
    // `as` saturates; checked_add rejects what would not fit.
    let end_ms = start.checked_add(super::num::round(elapsed) as i64)?;
    Some((start, end_ms, elapsed, ok))
}

/// The delimiter a log without a header is split by: the first of `DELIMITERS` that makes a
/// row in JMeter's default order of one of its first lines (a header part-way sets its own).
fn headerless_delimiter(buf: &[u8], fields: &mut Vec<Field>) -> u8 {
    let mut it = lines(buf);
    let mut empty = 0;
    std::iter::from_fn(|| it.next_after_empty(&mut empty))
        .take(4096)
        .find_map(|(_, line)| {
            if matches!(jtl_line(line, fields, &JtlCols::DEFAULT), JtlLine::Row) {
                return Some(b',');
            }
            headerless_row(line, fields).map(|c| c.delim)
        })
        .unwrap_or(b',')
}

/// The header JMeter's default order would have, split by `delim`: what a log without a
/// header split by another delimiter than `,` leaves the blocks after the first (so that
/// each is read as one pass reads it, whatever its own first lines are).
fn default_header(delim: u8) -> Vec<u8> {
    let names: [&[u8]; 9] = [
        b"timeStamp",
        b"elapsed",
        b"label",
        b"responseCode",
        b"responseMessage",
        b"threadName",
        b"dataType",
        b"success",
        b"failureMessage",
    ];
    names.join(&delim)
}

/// `buf` read with the columns `header` names (JMeter's default order without one). Unless
/// `last`, a record whose quoted field is open at the end is left unread.
fn parse_jtl(header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock {
    let mut fields: Vec<Field> = Vec::with_capacity(32);
    let cols = header
        .and_then(|h| JtlCols::of_header(h, &mut fields))
        .unwrap_or_else(|| JtlCols::default_split_by(headerless_delimiter(buf, &mut fields)));
    let in_effect = match header {
        Some(h) => Some(h.to_vec()),
        None if cols.delim != b',' => Some(default_header(cols.delim)),
        None => None,
    };
    let mut state = (cols, in_effect, Threads::default());
    let mut scratch: Vec<u8> = Vec::new();
    let (log, unread) = csv_block(
        buf,
        last,
        &mut state,
        |(cols, ..)| cols.delim,
        |(cols, in_effect, threads), log, fields, text, line| {
            let Some((stamp, end, elapsed, ok)) = fields.and_then(|f| jtl_row(buf, f, cols)) else {
                return match JtlCols::of_header(text, &mut Vec::new()) {
                    Some(c) => {
                        *cols = c;
                        *in_effect = Some(text.to_vec());
                        CsvRow::Ignored
                    }
                    None => CsvRow::Skipped,
                };
            };
            let fields = fields.unwrap_or_default();
            let label = cols.label.and_then(|i| fields.get(i));
            let operation = label.map_or(0, |&f| intern_field(log, buf, f, &mut scratch));
            let error = (!ok).then(|| jtl_error(log, buf, fields, cols, &mut scratch));
            log.records.push(PerfRecord::request(
                end, elapsed, operation, ok, error, line,
            ));
            if let Some(t) = cols.thread.and_then(|i| field(buf, fields, i)) {
                threads.next(trim(t), stamp, end - stamp, &mut log.stamps);
            }
            CsvRow::Record
        },
    );
    PerfBlock {
        log,
        header: state.1,
        unread,
    }
}

/// A failed sample's message, as JMeter's dashboard names its errors (see `error_key`).
fn jtl_error(
    log: &mut PerfLog,
    buf: &[u8],
    fields: &[Field],
    cols: &JtlCols,
    scratch: &mut Vec<u8>,
) -> u32 {
    let mut text = |i: Option<usize>| -> Vec<u8> {
        i.and_then(|i| fields.get(i)).map_or_else(Vec::new, |&f| {
            unescape_field(buf, f, scratch);
            scratch.clone()
        })
    };
    let (code, message) = (text(cols.response_code), text(cols.response_message));
    let key = error_key(&code, &message, &text(cols.failure_message));
    log.strings.intern_bytes(cap_label(&key))
}

/// A failed JMeter sample's message, as JMeter's dashboard keys its errors (the CSV and the
/// XML results alike): `responseCode/responseMessage` (`500/Internal Server Error`), or where
/// the code is a success (2xx, 3xx) or missing, the assertion's `failureMessage`
/// (`Assertion failed` without one). Each part is trimmed.
pub(crate) fn error_key(code: &[u8], message: &[u8], failure: &[u8]) -> Vec<u8> {
    let (code, message, failure) = (trim(code), trim(message), trim(failure));
    let success_code =
        matches!(code.first(), Some(b'2' | b'3')) && code.iter().all(u8::is_ascii_digit);
    match (success_code || code.is_empty(), message.is_empty()) {
        (true, _) if failure.is_empty() => b"Assertion failed".to_vec(),
        (true, _) => failure.to_vec(),
        (false, true) => code.to_vec(),
        (false, false) => [code, message].join(&b'/'),
    }
}

/// A CSV field's text into `out`, `""` unescaped.
pub(crate) fn unescape_field(buf: &[u8], f: Field, out: &mut Vec<u8>) {
    out.clear();
    let raw = buf.get(f.start..f.end).unwrap_or_default();
    if !f.escaped {
        out.extend_from_slice(raw);
        return;
    }
    let mut rest = raw;
    while let Some(q) = memchr::memchr(b'"', rest) {
        out.extend_from_slice(rest.get(..=q).unwrap_or_default());
        rest = rest.get(q + 2..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
}

/// Intern a CSV field's text, unescaping `""` through `scratch` when needed.
fn intern_field(log: &mut PerfLog, buf: &[u8], f: Field, scratch: &mut Vec<u8>) -> u32 {
    let raw = buf.get(f.start..f.end).unwrap_or_default();
    if !f.escaped {
        return log.strings.intern_bytes(cap_label(trim(raw)));
    }
    unescape_field(buf, f, scratch);
    log.strings.intern_bytes(cap_label(trim(scratch)))
}

pub(crate) fn strip_eol(s: &[u8]) -> &[u8] {
    let s = s.strip_suffix(b"\n").unwrap_or(s);
    s.strip_suffix(b"\r").unwrap_or(s)
}

/// Each JMeter thread's last request (its stamp, its elapsed time rounded as its end is), for
/// `StampOrder`. Threads past `MAX_THREADS` are not followed: a log of that many has pairs
/// enough in the others, and a hostile one cannot grow the map. A block (or a log read in one
/// piece) is weighed over its first `WEIGHED_PAIRS` pairs, a twentieth of a JTL's 512 KB
/// block: followed on every row, the threads' names looked up were 3-5 % of a 2 M-row JTL's
/// `summary`.
#[derive(Default)]
pub(crate) struct Threads {
    last: rustc_hash::FxHashMap<Box<[u8]>, (i64, i64)>,
}

const MAX_THREADS: usize = 1 << 14;
const WEIGHED_PAIRS: u64 = 256;

impl Threads {
    /// The next request of `thread` (its name cut as a label is), stamped `stamp`, `elapsed`
    /// ms long.
    pub(crate) fn next(&mut self, thread: &[u8], stamp: i64, elapsed: i64, o: &mut StampOrder) {
        if o.pairs >= WEIGHED_PAIRS {
            return;
        }
        let thread = cap_label(thread);
        let room = self.last.len() < MAX_THREADS;
        match self.last.get_mut(thread) {
            Some(p) => {
                let (before, took) = *p;
                o.pairs += 1;
                // A millisecond either way is the clocks' (elapsed times are measured apart
                // from the stamps).
                if stamp + 1 < before + took {
                    o.overlap_as_starts += 1;
                }
                if stamp - elapsed + 1 < before {
                    o.overlap_as_ends += 1;
                }
                *p = (stamp, elapsed);
            }
            None if room => {
                self.last.insert(thread.into(), (stamp, elapsed));
            }
            None => {}
        }
    }
}

/// JMeter `timeStamp`: epoch ms, or a date `yyyy/MM/dd HH:mm:ss.SSS` (also `yyyy-MM-dd ...`),
/// local time taken as UTC. The whole field must be the stamp.
pub(crate) fn jtl_time(f: &[u8]) -> Option<i64> {
    if f.iter().all(u8::is_ascii_digit) {
        let (v, n) = uint_prefix(f)?;
        return i64::try_from(v).ok().filter(|_| n == f.len());
    }
    let mut tmp = [0u8; 40];
    tmp.get_mut(..f.len())?.copy_from_slice(f);
    if tmp[4] == b'/' && tmp[7] == b'/' {
        tmp[4] = b'-';
        tmp[7] = b'-';
    }
    let s = tmp.get(..f.len())?;
    date_prefix(s)
        .filter(|&(_, n)| n == s.len())
        .map(|(t, _)| t)
}

/// A whole field as a time believed: 0 to a day, in ms.
pub(crate) fn whole_ms(f: &[u8]) -> Option<f64> {
    if f.first() == Some(&b'-') {
        return None;
    }
    limits::float_prefix(f)
        .filter(|&(v, n)| n == f.len() && believed_ms(v))
        .map(|(v, _)| v)
}

pub(crate) fn bool_field(f: &[u8]) -> Option<bool> {
    let t = f.eq_ignore_ascii_case(b"true");
    (t || f.eq_ignore_ascii_case(b"false")).then_some(t)
}

/// A JTL's lines in turn: a header sets the columns rows are read by (JMeter's default
/// order before one); a row whose quoted field goes on past its line makes the lines up to
/// the field's closing quote lines inside it (a failure message quoting a GC log's lines is
/// no GC log). A field open for more than `MAX_QUOTED_BYTES` is taken for a stray quote.
struct JtlRecogniser {
    cols: JtlCols,
    /// A header or a row told the delimiter: before, a row is tried with each.
    split_known: bool,
    fields: Vec<Field>,
    /// Inside a quoted field: its bytes so far.
    open: Option<usize>,
}

impl Recogniser for JtlRecogniser {
    fn line(&mut self, line: &[u8]) -> Recognised {
        let quotes = || memchr::memchr_iter(b'"', line).count();
        if let Some(n) = self.open {
            // An odd number of quotes closes the field (a doubled `""` is two).
            let n = n + line.len() + 1;
            self.open = (quotes() % 2 == 0 && n <= MAX_QUOTED_BYTES).then_some(n);
            return Recognised::Inside;
        }
        let mut seen = jtl_line(line, &mut self.fields, &self.cols);
        if !self.split_known && matches!(seen, JtlLine::Other) {
            if let Some(c) = headerless_row(line, &mut self.fields) {
                self.cols = c;
                seen = JtlLine::Row;
            }
        }
        match seen {
            JtlLine::Header(c) => {
                self.cols = c;
                self.split_known = true;
                Recognised::Own
            }
            JtlLine::Row => {
                self.split_known = true;
                Recognised::Own
            }
            JtlLine::Other => Recognised::No,
            JtlLine::NotWhole => {
                let open = csv_record(line, 0, true, self.cols.delim, &mut self.fields).err()
                    == Some(NotRecord::OpenAtEnd)
                    && jtl_row_start(line, &self.fields, &self.cols);
                if !open {
                    return Recognised::No;
                }
                let opened = line.iter().rposition(|&b| b == b'"').unwrap_or(0);
                self.open = Some(line.len() - opened);
                Recognised::Own
            }
        }
    }
}

/// What one line is to a JTL read by `cols`, taken as a whole record.
enum JtlLine {
    /// A header row: the columns it names.
    Header(JtlCols),
    Row,
    /// A record, but neither (or too many fields, or no comma at all).
    Other,
    /// Not a whole record (a quote never closed on the line, or text after one).
    NotWhole,
}

fn jtl_line(line: &[u8], fields: &mut Vec<Field>, cols: &JtlCols) -> JtlLine {
    match JtlCols::of_header(line, fields) {
        Some(c) => JtlLine::Header(c),
        None => jtl_row_line(line, fields, cols),
    }
}

/// `jtl_line` of a line that is no header.
fn jtl_row_line(line: &[u8], fields: &mut Vec<Field>, cols: &JtlCols) -> JtlLine {
    if memchr::memchr(cols.delim, line).is_none() {
        return JtlLine::Other;
    }
    // A stamp (`jtl_time`) starts with a digit, quoted or not: where it is the first field,
    // other lines are told without being split (every line of a semicolon log was, at its
    // `;`: a sixth of detecting one).
    if cols.ts == 0
        && !trim(line)
            .first()
            .is_some_and(|&b| b.is_ascii_digit() || b == b'"')
    {
        return JtlLine::Other;
    }
    match csv_record(line, 0, false, cols.delim, fields) {
        Ok(rec) if !rec.too_many => {
            if jtl_stamp_shaped(line, fields, cols) && jtl_row(line, fields, cols).is_some() {
                JtlLine::Row
            } else {
                JtlLine::Other
            }
        }
        Ok(_) => JtlLine::Other,
        Err(_) => JtlLine::NotWhole,
    }
}

/// A row's stamp is a date or an epoch-ms stamp of 10+ digits (2001 onwards: 13): a short
/// number there is something else.
fn jtl_stamp_shaped(line: &[u8], fields: &[Field], cols: &JtlCols) -> bool {
    let ts = field(line, fields, cols.ts).map(trim).unwrap_or_default();
    !(ts.iter().all(u8::is_ascii_digit) && ts.len() < 10)
}

/// The fields of a row before one left open at the line's end (`fields`) are those of a
/// row: its stamp, elapsed time and success flag where they come before the open field.
fn jtl_row_start(line: &[u8], fields: &[Field], cols: &JtlCols) -> bool {
    let text = |i: usize| field(line, fields, i).map(trim);
    let before = |i: usize| i < fields.len();
    before(cols.ts)
        && before(cols.elapsed)
        && jtl_stamp_shaped(line, fields, cols)
        && text(cols.ts)
            .and_then(jtl_time)
            .is_some_and(|t| t <= MAX_WALL_MS)
        && text(cols.elapsed).and_then(whole_ms).is_some()
        && cols
            .success
            .filter(|&i| before(i))
            .is_none_or(|i| text(i).and_then(bool_field).is_some())
}

/// For detection: a JTL header, or a row in JMeter's default column order (epoch-ms or date
/// stamp, integer elapsed, `true`/`false` in column 8).
fn is_jtl_line(line: &[u8], fields: &mut Vec<Field>) -> bool {
    matches!(
        jtl_line(line, fields, &JtlCols::DEFAULT),
        JtlLine::Header(_) | JtlLine::Row
    ) || headerless_row(line, fields).is_some()
}

/// `line` is a row in JMeter's default order split by one of the other `DELIMITERS`: those
/// columns.
fn headerless_row(line: &[u8], fields: &mut Vec<Field>) -> Option<JtlCols> {
    DELIMITERS[1..]
        .iter()
        .map(|&d| JtlCols::default_split_by(d))
        .find(|c| matches!(jtl_row_line(line, fields, c), JtlLine::Row))
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
    /// `HTTP response code`, for a failed test's message; optional.
    http_code: Option<usize>,
}

impl GrinderCols {
    /// Fields a row must be split into to reach every column used.
    fn needed(&self) -> usize {
        [
            self.test,
            self.start,
            self.time,
            self.errors,
            self.http_code,
        ]
        .iter()
        .map(|c| c.map_or(0, |i| i + 1))
        .max()
        .unwrap_or(0)
    }

    /// Has every column a row is read by.
    fn complete(&self) -> bool {
        self.test.is_some() && self.start.is_some() && self.time.is_some() && self.errors.is_some()
    }

    /// `Thread, Run, Test, Start time (ms since Epoch), Test time, Errors`.
    const DEFAULT: GrinderCols = GrinderCols {
        test: Some(2),
        start: Some(3),
        time: Some(4),
        errors: Some(5),
        http_code: None,
    };
}

/// Split a line at commas into trimmed field ranges, the first `limit` fields only (and never
/// more than `MAX_FIELDS`).
fn comma_fields(line: &[u8], limit: usize, out: &mut Vec<Field>) {
    let limit = limit.min(MAX_FIELDS);
    out.clear();
    let mut start = 0;
    let ends = memchr::memchr_iter(b',', line).chain(std::iter::once(line.len()));
    for p in ends.take(limit) {
        let f = line.get(start..p).unwrap_or_default();
        let lead = f.len() - f.trim_ascii_start().len();
        let t = trim(f);
        out.push(Field {
            start: start + lead,
            end: start + lead + t.len(),
            escaped: false,
        });
        start = p + 1;
    }
}

/// The columns of a header row, split into `fields`.
fn grinder_header(line: &[u8], fields: &mut Vec<Field>) -> GrinderCols {
    comma_fields(line, usize::MAX, fields);
    let find = |pred: &dyn Fn(&[u8]) -> bool| {
        fields
            .iter()
            .position(|f| line.get(f.start..f.end).is_some_and(pred))
    };
    GrinderCols {
        test: find(&|f| f.eq_ignore_ascii_case(b"Test")),
        start: find(&|f| {
            f.get(..10)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"Start time"))
        }),
        time: find(&|f| f.eq_ignore_ascii_case(b"Test time")),
        errors: find(&|f| f.eq_ignore_ascii_case(b"Errors")),
        http_code: find(&|f| f.eq_ignore_ascii_case(b"HTTP response code")),
    }
}

/// A Grinder row's values: (test number, end ms, test time, errors).
fn grinder_row(line: &[u8], fields: &[Field], cols: &GrinderCols) -> Option<(u64, i64, f64, u64)> {
    let text = |i: Option<usize>| field(line, fields, i?);
    let whole_uint = |f: &[u8]| match uint_prefix(f) {
        Some((v, n)) if n == f.len() => Some(v),
        _ => None,
    };
    let test = whole_uint(text(cols.test)?)?;
    let start = i64::try_from(whole_uint(text(cols.start)?)?)
        .ok()
        .filter(|&s| s <= MAX_WALL_MS)?;
    let time = whole_ms(text(cols.time)?)?;
    let errors = whole_uint(text(cols.errors)?)?;
    let end = start.checked_add(super::num::round(time) as i64)?;
    Some((test, end, time, errors))
}

/// A failed test's message: its error count, and the HTTP code where the log has one
/// (`1 error, HTTP 500`).
fn grinder_error(
    log: &mut PerfLog,
    line: &[u8],
    fields: &[Field],
    cols: &GrinderCols,
    errors: u64,
) -> u32 {
    let code = cols
        .http_code
        .and_then(|i| field(line, fields, i))
        .filter(|c| !c.is_empty());
    let mut m = format!("{errors} error{}", if errors == 1 { "" } else { "s" });
    if let Some(c) = code {
        m.push_str(", HTTP ");
        m.push_str(&String::from_utf8_lossy(cap_label(c)));
    }
    log.strings.intern(&m)
}

/// `buf` read with the columns `header` names (the default order without one).
fn parse_grinder(header: Option<&[u8]>, buf: &[u8]) -> PerfBlock {
    let mut log = PerfLog::default();
    let mut fields = Vec::with_capacity(16);
    let mut cols = header
        .map(|h| grinder_header(h, &mut fields))
        .filter(GrinderCols::complete)
        .unwrap_or(GrinderCols::DEFAULT);
    let mut in_effect = header.map(<[u8]>::to_vec);
    let mut it = lines(buf);
    // Empty lines are passed over in bulk: a flood of them costs what skipping it costs.
    while let Some((no, line)) = it.next_after_empty(&mut log.ignored_lines) {
        log.lines = no;
        if trim(line).is_empty() {
            log.ignored_lines += 1;
            continue;
        }
        comma_fields(line, cols.needed().max(1), &mut fields);
        let first = field(line, &fields, 0).unwrap_or_default();
        if first.eq_ignore_ascii_case(b"Thread") {
            let c = grinder_header(line, &mut fields);
            if c.complete() {
                cols = c;
                in_effect = Some(line.to_vec());
                log.ignored_lines += 1;
            } else {
                // A header without the columns rows are read by: not one we can use.
                log.skip(no, line);
            }
            continue;
        }
        let Some((test, end_ms, time, errors)) = grinder_row(line, &fields, &cols) else {
            log.skip(no, line);
            continue;
        };
        log.record_lines += 1;
        let operation = intern_test(&mut log, test);
        let ok = errors == 0;
        let error = (!ok).then(|| grinder_error(&mut log, line, &fields, &cols, errors));
        log.records
            .push(PerfRecord::request(end_ms, time, operation, ok, error, no));
    }
    log.lines = it.line_no();
    PerfBlock {
        log,
        header: in_effect,
        unread: 0,
    }
}

/// Intern `test <n>` without allocating once it has been seen.
fn intern_test(log: &mut PerfLog, test: u64) -> u32 {
    let mut b = [0u8; 32];
    b[..5].copy_from_slice(b"test ");
    let mut digits = itoa::Buffer::new();
    let d = digits.format(test).as_bytes();
    b[5..5 + d.len()].copy_from_slice(d);
    log.strings.intern_bytes(&b[..5 + d.len()])
}

/// For detection: the Grinder header, or a row of at least six comma+space separated integers
/// with an epoch-ms start time in column 4.
fn is_grinder_line(line: &[u8], fields: &mut Vec<Field>) -> bool {
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
    let all_uint = (0..6).all(|i| {
        field(line, fields, i).is_some_and(|f| !f.is_empty() && f.iter().all(u8::is_ascii_digit))
    });
    let epoch = field(line, fields, 3).is_some_and(|f| f.len() >= 10);
    all_uint && epoch && grinder_row(line, fields, &GrinderCols::DEFAULT).is_some()
}

#[cfg(test)]
#[path = "perf_tests.rs"]
mod tests;
