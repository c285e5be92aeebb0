//! Web servers' access logs whose lines say how long each request took, told from content:
//! one family each, sharing the rules of this module.
//!
//! - **IIS W3C extended** (`access-iis`): `#Software`, `#Version`, `#Date` directives and a
//!   `#Fields: date time ... cs-method cs-uri-stem ... sc-status ... time-taken` header naming
//!   the space-separated fields of the lines after it (`-` for none, `"..."` for a field with
//!   spaces, `""` a quote inside it). The header may change part-way: a block is read with
//!   the last one the blocks before it left (`PerfBlock::header`). `time-taken` is in ms (the
//!   Advanced Logging module's `TimeTakenMS` too).
//! - **HAProxy HTTP log** (`access-haproxy`): `<syslog prefix> client:port [accept_date]
//!   frontend backend/server TR/Tw/Tc/Tr/Ta status bytes ... "METHOD /path HTTP/1.1"`; the
//!   request's time is the last timer (`Ta` from 1.5, `Tt` before: the total either way), a
//!   `-1` timer before it an aborted request. HAProxy's other lines (`Proxy web started.`,
//!   `SSL handshake failure`) are the format's, carrying no request.
//! - **uWSGI request log** (`access-uwsgi`): `[pid: ..|app: ..|req: ..] ip (user) {.. vars
//!   in .. bytes} [Thu Mar 12 10:00:00 2020] GET /path => generated N bytes in N msecs (HTTP/1.1
//!   200) ...` (`micros` in place of `msecs` where uWSGI was built to log microseconds).
//! - **Caddy's JSON access log** (`access-caddy`): one object a line, `"logger":"http.log.access
//!   ..."`, `"ts"` (epoch seconds, or an RFC 3339 text), `"duration"` (seconds, or a Go duration
//!   text such as `"1.5ms"` where the log's `duration_format` says so), `"status"`, `"request":
//!   {"method", "uri", ...}`. Caddy's other objects (`"logger":"http"`, ...) are the format's,
//!   carrying no request.
//!
//! A request's operation is its method and path (`GET /products/{id}`): the query string and
//! fragment dropped, and ids folded unless `--keep-ids` (`Rules::keep_ids`): a segment of
//! digits, a UUID, or 16 and more hex digits with a digit among them is `{id}`, so that
//! `/products/42` and `/products/7` are one operation. A request failed where its status is
//! `Rules::error_status` (500, `--error-status`) or over, its error the status (`503`); an
//! aborted HAProxy request (a `-1` timer or status) failed too, as `aborted` where its status
//! does not say more.
//!
//! # Clocks: which instant a line's time is, and on which clock
//!
//! `PerfRecord::end_ms` is the request's end. IIS and Caddy write a line when the request
//! completes, and stamp it then: the stamp is the end. HAProxy's accept date and uWSGI's
//! date are when the request came in: the end is that stamp plus the request's time.
//!
//! IIS writes `date`/`time` in UTC and Caddy epoch seconds: true instants (`utc()`), which
//! `correlate` moves to the host's clock like JMeter's stamps. HAProxy's accept date and
//! uWSGI's date are the host's local time with no offset written: local time taken as UTC
//! (`utc()` false), as the semicolon log. An IIS log with only `date-local`/`time-local` (the
//! Advanced Logging module's fields) is read with them, and says so (`PerfLog::local_stamps`):
//! it is placed on a clock as local time is, not moved by the host's offset.
//!
//! Values believed: times finite, ≥ 0 and at most a day; dates that exist; statuses of at most
//! three digits. Any other line is skipped and counted, never guessed at.

use super::family::{
    Handle, OwnedStart, PerfBlock, PerfFamily, PerfFormat, Recognised, Recogniser,
};
use super::limits::{cap_label, MAX_WALL_MS};
use super::lines::lines;
use super::num::{
    asctime_prefix, days_from_civil, iso_datetime_prefix, trim, two, uint_prefix, MONTHS,
};
use crate::model::{PerfLog, PerfRecord, MAX_DURATION_MS};
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// IIS's W3C extended log.
pub const IIS: PerfFormat = Handle(&Iis);
/// HAProxy's HTTP log.
pub const HAPROXY: PerfFormat = Handle(&Haproxy);
/// uWSGI's request log.
pub const UWSGI: PerfFormat = Handle(&Uwsgi);
/// Caddy's JSON access log.
pub const CADDY: PerfFormat = Handle(&Caddy);

struct Iis;
struct Haproxy;
struct Uwsgi;
struct Caddy;

// ---------------------------------------------------------------------------------------------
// The rules every access log is read with
// ---------------------------------------------------------------------------------------------

/// How requests of an access log are counted: the command line's `--keep-ids` and
/// `--error-status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Paths are operations as written (the query string still dropped).
    pub keep_ids: bool,
    /// The lowest status that counts as an error.
    pub error_status: u16,
}

impl Rules {
    pub const DEFAULT: Rules = Rules {
        keep_ids: false,
        error_status: 500,
    };
}

impl Default for Rules {
    fn default() -> Self {
        Rules::DEFAULT
    }
}

/// The rules of this process: set once by the command line before any log is read (the
/// families are `'static` unit structs, asked through `PerfFamily` with no options).
static RULES: OnceLock<Rules> = OnceLock::new();

/// Some access log was read with the rules: an option that changes them acted.
static CONSULTED: AtomicBool = AtomicBool::new(false);

/// Set the rules of this process; false where they were set already (or read: the first read
/// fixes them).
pub fn set_rules(r: Rules) -> bool {
    RULES.set(r).is_ok()
}

/// The rules logs are read with, noted as read.
pub fn rules() -> Rules {
    CONSULTED.store(true, Ordering::Relaxed);
    *RULES.get_or_init(Rules::default)
}

/// An access log was read in this process (its rules consulted).
pub fn consulted() -> bool {
    CONSULTED.load(Ordering::Relaxed)
}

/// A path segment that is an id: digits, a UUID, or 16 and more hex digits with a digit.
fn is_id(seg: &[u8]) -> bool {
    if seg.is_empty() {
        return false;
    }
    if seg.iter().all(u8::is_ascii_digit) {
        return true;
    }
    let uuid = seg.len() == 36
        && seg.iter().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_hexdigit(),
        });
    uuid || (seg.len() >= 16
        && seg.iter().all(u8::is_ascii_hexdigit)
        && seg.iter().any(u8::is_ascii_digit))
}

/// `method path` as an operation into `out`: the query and fragment dropped, ids folded
/// unless `keep_ids`.
pub fn operation_name(method: &[u8], path: &[u8], keep_ids: bool, out: &mut Vec<u8>) {
    out.clear();
    if !method.is_empty() {
        out.extend_from_slice(method);
        out.push(b' ');
    }
    let end = path
        .iter()
        .position(|&b| b == b'?' || b == b'#')
        .unwrap_or(path.len());
    let path = &path[..end];
    if keep_ids {
        out.extend_from_slice(path);
        return;
    }
    for (i, seg) in path.split(|&b| b == b'/').enumerate() {
        if i > 0 {
            out.push(b'/');
        }
        out.extend_from_slice(if is_id(seg) { b"{id}" } else { seg });
    }
}

/// One request as a line gives it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Request<'a> {
    pub(super) end_ms: i64,
    pub(super) ms: f64,
    pub(super) method: Cow<'a, [u8]>,
    pub(super) path: Cow<'a, [u8]>,
    /// The status (`None`: not written, or `-1`).
    pub(super) status: Option<u16>,
    pub(super) aborted: bool,
}

/// A request's time and end are ones to believe.
pub(super) fn believable(end_ms: i64, ms: f64) -> bool {
    (0..=MAX_WALL_MS).contains(&end_ms) && ms.is_finite() && (0.0..=MAX_DURATION_MS).contains(&ms)
}

/// A status: one to three digits.
fn status(f: &[u8]) -> Option<u16> {
    (f.len() <= 3).then(|| uint(f)).flatten().map(|v| v as u16)
}

/// A whole number of at most 15 digits.
fn uint(f: &[u8]) -> Option<u64> {
    let (v, n) = uint_prefix(f).filter(|_| f.len() <= 15)?;
    (n == f.len()).then_some(v)
}

/// A request into `log` as a record of line `no`.
fn push(log: &mut PerfLog, rules: Rules, no: u64, r: &Request, scratch: &mut Vec<u8>) {
    operation_name(&r.method, &r.path, rules.keep_ids, scratch);
    let operation = log.strings.intern_bytes(cap_label(scratch));
    let failed_status = r.status.filter(|&s| s >= rules.error_status);
    let error = match (failed_status, r.aborted) {
        (Some(s), _) => Some(log.strings.intern_bytes(s.to_string().as_bytes())),
        (None, true) => Some(log.strings.intern_bytes(b"aborted")),
        (None, false) => None,
    };
    let ok = error.is_none();
    log.records.push(PerfRecord::request(
        r.end_ms, r.ms, operation, ok, error, no,
    ));
    log.record_lines += 1;
}

/// What a line of an access log is.
pub(super) enum Line<'a> {
    Request(Request<'a>),
    /// A line the format writes that carries no request.
    Own,
    /// None of the format's, or a request whose figures cannot be true.
    Not,
}

/// A log of a family read a line at a time with `read` (no header: HAProxy, uWSGI, Caddy).
pub(super) fn parse_lines(
    buf: &[u8],
    rules: Rules,
    read: impl for<'a> Fn(&'a [u8]) -> Line<'a>,
) -> PerfLog {
    let mut log = PerfLog::default();
    let mut scratch = Vec::new();
    let mut it = lines(buf);
    // Empty lines are passed over in bulk: a flood of them costs what skipping it costs.
    while let Some((no, line)) = it.next_after_empty(&mut log.ignored_lines) {
        let t = trim(line);
        if t.is_empty() {
            log.ignored_lines += 1;
            continue;
        }
        match read(t) {
            Line::Request(r) => push(&mut log, rules, no, &r, &mut scratch),
            Line::Own => log.ignored_lines += 1,
            Line::Not => log.skip(no, line),
        }
    }
    log.lines = it.line_no();
    log
}

/// A common-log-format date at the start of `s`: `25/Feb/2019:16:19:48` with an optional
/// fraction (`.143`) and zone (` -0200`): the time as written, as epoch ms (the zone not
/// applied), the zone's minutes east of UTC where one is written, and the bytes read.
pub(crate) fn clf_date(s: &[u8]) -> Option<(i64, Option<i32>, usize)> {
    if s.len() < 20 || s[2] != b'/' || s[6] != b'/' || s[11] != b':' {
        return None;
    }
    let day = two(s, 0)?;
    let mon = MONTHS.iter().position(|m| *m == &s[3..6])? as u32 + 1;
    let year = i64::from(two(s, 7)? * 100 + two(s, 9)?);
    let (h, mi, sec) = (two(s, 12)?, two(s, 15)?, two(s, 18)?);
    if s[14] != b':' || s[17] != b':' || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    // The date exists: the same day read back from the ISO reader's checks.
    let iso = format!("{year:04}-{mon:02}-{day:02} 00:00:00");
    iso_datetime_prefix(iso.as_bytes())?;
    let mut i = 20;
    let mut ms = 0i64;
    if s.get(i) == Some(&b'.') {
        let digits = s[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        // Milliseconds: the digits past the third are below them.
        ms = (s[i + 1..i + 1 + digits].iter().zip([100, 10, 1]))
            .map(|(&b, scale)| i64::from(b - b'0') * scale)
            .sum();
        i += 1 + digits;
    }
    let mut zone = None;
    if s.get(i) == Some(&b' ') && matches!(s.get(i + 1), Some(b'+' | b'-')) {
        if let (Some(hh), Some(mm)) = (two(s, i + 2), two(s, i + 4)) {
            let m = (hh * 60 + mm) as i32;
            zone = Some(if s[i + 1] == b'-' { -m } else { m });
            i += 6;
        }
    }
    let days = days_from_civil(year, mon, day);
    let t = ((days * 24 + i64::from(h)) * 60 + i64::from(mi)) * 60 + i64::from(sec);
    Some((t * 1000 + ms, zone, i))
}

// ---------------------------------------------------------------------------------------------
// IIS W3C extended
// ---------------------------------------------------------------------------------------------

/// The directives of a W3C extended log other than `#Fields:`.
const DIRECTIVES: [&[u8]; 6] = [
    b"#Software:",
    b"#Version:",
    b"#Date:",
    b"#Start-Date:",
    b"#End-Date:",
    b"#Remark:",
];

/// The most fields a W3C line is split into (IIS writes at most ~30).
const MAX_W3C_FIELDS: usize = 64;

/// Where a `#Fields:` header puts what a request is read from.
#[derive(Debug, Clone, Copy, PartialEq)]
struct W3cCols {
    date: usize,
    time: usize,
    method: Option<usize>,
    stem: usize,
    status: Option<usize>,
    taken: usize,
    n: usize,
    /// The date is `date-local`: the host's wall time, not UTC.
    local: bool,
}

/// The columns a `#Fields:` line names, where it names the ones a request needs: a date, a
/// time, the path and the time taken.
fn w3c_header(line: &[u8]) -> Option<W3cCols> {
    let rest = line.strip_prefix(b"#Fields:")?;
    let names: Vec<&[u8]> = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty())
        .take(MAX_W3C_FIELDS + 1)
        .collect();
    if names.len() > MAX_W3C_FIELDS {
        return None;
    }
    let find = |want: &[&[u8]]| {
        want.iter()
            .find_map(|w| names.iter().position(|n| n.eq_ignore_ascii_case(w)))
    };
    let date = find(&[b"date", b"date-local"])?;
    Some(W3cCols {
        // `date-local` where there is no `date`.
        local: find(&[b"date"]).is_none(),
        date,
        time: find(&[b"time", b"time-local"])?,
        method: find(&[b"cs-method"]),
        stem: find(&[b"cs-uri-stem"])?,
        status: find(&[b"sc-status"]),
        taken: find(&[b"time-taken", b"TimeTakenMS"])?,
        n: names.len(),
    })
}

/// A W3C line's fields into `out`: split by spaces, a `"`-quoted field taken whole (`""`
/// inside it a quote). False where a quote is left open or the line has too many fields.
fn w3c_fields<'a>(line: &'a [u8], out: &mut Vec<&'a [u8]>) -> bool {
    out.clear();
    let mut i = 0;
    while i < line.len() {
        if line[i] == b' ' || line[i] == b'\t' {
            i += 1;
            continue;
        }
        if out.len() == MAX_W3C_FIELDS {
            return false;
        }
        let start = i;
        if line[i] == b'"' {
            i += 1;
            loop {
                match line.get(i) {
                    None => return false,
                    Some(b'"') if line.get(i + 1) == Some(&b'"') => i += 2,
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(_) => i += 1,
                }
            }
            if !matches!(line.get(i), None | Some(b' ' | b'\t')) {
                return false;
            }
        } else {
            while i < line.len() && line[i] != b' ' && line[i] != b'\t' {
                i += 1;
            }
        }
        out.push(&line[start..i]);
    }
    true
}

/// A W3C date and time (`2012-08-15`, `17:00:00.363`) as epoch ms.
fn w3c_stamp(date: &[u8], time: &[u8]) -> Option<i64> {
    if date.len() != 10 || !(8..=20).contains(&time.len()) {
        return None;
    }
    let mut s = [0u8; 31];
    s[..10].copy_from_slice(date);
    s[10] = b' ';
    s[11..11 + time.len()].copy_from_slice(time);
    let s = &s[..11 + time.len()];
    iso_datetime_prefix(s).and_then(|(ms, n)| (n == s.len()).then_some(ms))
}

/// A data line read with the header's columns.
fn w3c_request<'a>(line: &'a [u8], c: &W3cCols, fields: &mut Vec<&'a [u8]>) -> Option<Request<'a>> {
    if !w3c_fields(line, fields) || fields.len() != c.n {
        return None;
    }
    let end_ms = w3c_stamp(fields[c.date], fields[c.time])?;
    let ms = uint(fields[c.taken])? as f64;
    if !believable(end_ms, ms) {
        return None;
    }
    let method = c.method.map_or(&b""[..], |m| fields[m]);
    let method = if method == b"-" { &b""[..] } else { method };
    let status = match c.status.map(|s| fields[s]) {
        None | Some(b"-") => None,
        Some(s) => Some(status(s)?),
    };
    Some(Request {
        end_ms,
        ms,
        method: Cow::Borrowed(method),
        path: Cow::Borrowed(fields[c.stem]),
        status,
        aborted: false,
    })
}

fn is_directive(line: &[u8]) -> bool {
    DIRECTIVES.iter().any(|d| line.starts_with(d))
}

/// IIS's lines in turn: its directives, a usable `#Fields:` header, and the lines that header
/// reads.
struct IisRecogniser {
    cols: Option<W3cCols>,
}

impl Recogniser for IisRecogniser {
    fn line(&mut self, line: &[u8]) -> Recognised {
        let own = if line.starts_with(b"#Fields:") {
            self.cols = w3c_header(line);
            self.cols.is_some()
        } else {
            // Asked only of the lines after a header: an IIS log's.
            is_directive(line)
                || self
                    .cols
                    .is_some_and(|c| w3c_request(line, &c, &mut Vec::with_capacity(c.n)).is_some())
        };
        if own {
            Recognised::Own
        } else {
            Recognised::No
        }
    }
}

impl PerfFamily for Iis {
    fn name(&self) -> &'static str {
        "access-iis"
    }
    fn about(&self) -> &'static str {
        "IIS W3C extended access logs (`time-taken`)"
    }

    /// A `#Fields:` header naming a date, a time, the path and the time taken, or another
    /// directive of the format. Its data lines are told by the header before them
    /// (`recogniser`).
    fn recognises(&self, line: &[u8]) -> bool {
        w3c_header(line).is_some() || is_directive(line)
    }

    fn recogniser(&self) -> Option<Box<dyn Recogniser>> {
        Some(Box::new(IisRecogniser { cols: None }))
    }

    /// Its directives (`#Fields:`, `#Software:`...): no GC log writes them.
    fn owns(&self, line: &[u8]) -> bool {
        line.starts_with(b"#Fields:") || is_directive(line)
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"#")
    }

    fn parse_block(&self, header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        parse_iis(header, buf, rules())
    }
}

fn parse_iis(header: Option<&[u8]>, buf: &[u8], rules: Rules) -> PerfBlock {
    let mut log = PerfLog::default();
    let mut cols = header.and_then(w3c_header);
    let mut in_effect = header.map(<[u8]>::to_vec);
    let mut fields = Vec::with_capacity(32);
    let mut scratch = Vec::new();
    let mut it = lines(buf);
    while let Some((no, line)) = it.next_after_empty(&mut log.ignored_lines) {
        let t = trim(line);
        if t.is_empty() {
            log.ignored_lines += 1;
        } else if t.starts_with(b"#Fields:") {
            // A header without what a request needs leaves the lines after it unread: it is
            // skipped, so that it is the first line said not understood.
            cols = w3c_header(t);
            in_effect = Some(t.to_vec());
            if cols.is_some() {
                log.ignored_lines += 1;
            } else {
                log.skip(no, line);
            }
        } else if is_directive(t) {
            log.ignored_lines += 1;
        } else {
            match cols.as_ref().and_then(|c| w3c_request(t, c, &mut fields)) {
                Some(r) => {
                    log.local_stamps |= cols.as_ref().is_some_and(|c| c.local);
                    push(&mut log, rules, no, &r, &mut scratch)
                }
                None => log.skip(no, line),
            }
        }
    }
    log.lines = it.line_no();
    PerfBlock {
        log,
        header: in_effect,
        unread: 0,
    }
}

// ---------------------------------------------------------------------------------------------
// HAProxy
// ---------------------------------------------------------------------------------------------

/// `haproxy[1234]: ` in the line's syslog prefix.
fn haproxy_tag(line: &[u8]) -> bool {
    // By its `[`: memmem's searcher, made for each line, was a tenth of detecting a log.
    memchr::memchr_iter(b'[', line).any(|p| {
        let rest = &line[p + 1..];
        if !line[..p].ends_with(b"haproxy") {
            return false;
        }
        let d = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        d > 0 && rest[d..].starts_with(b"]:")
    })
}

/// The `[accept_date]` of an HTTP log line after `client:port `: where its `[` is, its time
/// and where what follows it starts.
fn accept_date(line: &[u8]) -> Option<(i64, usize)> {
    memchr::memchr_iter(b'[', line).find_map(|p| {
        let (ms, zone, n) = clf_date(&line[p + 1..])?;
        // HAProxy writes milliseconds and no zone.
        if zone.is_some() || n != 24 || line.get(p + 1 + n) != Some(&b']') {
            return None;
        }
        // `client:port ` before it.
        let before = line[..p].strip_suffix(b" ")?;
        let client = &before[before.iter().rposition(|&b| b == b' ').map_or(0, |s| s + 1)..];
        let colon = client.iter().rposition(|&b| b == b':')?;
        uint(&client[colon + 1..])?;
        Some((ms, p + 1 + n + 1))
    })
}

/// `0/0/7/1457/1487`: the timers, at most 5 (`+` before the last where HAProxy logged
/// before the end); `None` if it is not one.
fn timers(f: &[u8]) -> Option<([i64; 5], usize)> {
    let mut t = [0i64; 5];
    let mut n = 0;
    for part in f.split(|&b| b == b'/') {
        if n == 5 {
            return None;
        }
        let part = part.strip_prefix(b"+").unwrap_or(part);
        t[n] = if part == b"-1" {
            -1
        } else {
            i64::try_from(uint(part)?).ok()?
        };
        n += 1;
    }
    Some((t, n))
}

fn haproxy_line(line: &[u8]) -> Line<'_> {
    haproxy_read(line).unwrap_or(Line::Not)
}

/// `haproxy_line`, `None` for a line none of the format's.
fn haproxy_read(line: &[u8]) -> Option<Line<'_>> {
    let Some((start_ms, after)) = accept_date(line) else {
        return haproxy_tag(line).then_some(Line::Own);
    };
    let rest = &line[after..];
    let mut words = rest.split(|&b| b == b' ').filter(|w| !w.is_empty());
    // A connection error (`web/bind1: SSL handshake failure`) carries no request.
    if words.next().is_some_and(|f| f.ends_with(b":")) {
        return Some(Line::Own);
    }
    let (backend, ts, st) = (words.next()?, words.next()?, words.next()?);
    if !backend.contains(&b'/') {
        return None;
    }
    let t = match timers(ts) {
        Some((t, 5)) => t,
        // A TCP log (`Tw/Tc/Tt bytes`) carries no HTTP request.
        Some((_, 3)) => return Some(Line::Own),
        _ => return None,
    };
    let (status, bad_status) = match st {
        b"-1" => (None, true),
        s => (Some(status(s)?), false),
    };
    // The request: the quoted text the line ends with.
    let req = line.strip_suffix(b"\"")?;
    let open = memchr::memrchr(b'"', req).filter(|&open| open >= after)?;
    let mut parts = req[open + 1..].splitn(3, |&b| b == b' ');
    let (method, path) = match (parts.next(), parts.next()) {
        (Some(m), Some(p)) => (m, p),
        // `<BADREQ>`, `<NOSRV>`: the text as written.
        (Some(m), None) => (&b""[..], m),
        _ => return None,
    };
    let total = t[4];
    if total < 0 {
        return None;
    }
    let ms = total as f64;
    let end_ms = start_ms.saturating_add(total);
    believable(end_ms, ms).then(|| {
        Line::Request(Request {
            end_ms,
            ms,
            method: Cow::Borrowed(method),
            path: Cow::Borrowed(path),
            status,
            aborted: bad_status || t[..4].contains(&-1),
        })
    })
}

/// Syslog's month names start so.
const SYSLOG_STARTS: &[u8] = b"JFMASOND";

impl PerfFamily for Haproxy {
    fn name(&self) -> &'static str {
        "access-haproxy"
    }
    fn about(&self) -> &'static str {
        "HAProxy HTTP logs"
    }

    /// An HTTP log line.
    fn recognises(&self, line: &[u8]) -> bool {
        // A request line ends with its quoted request: the other lines are passed by before
        // their `[`s are read for a date (a G1 log's 1 MiB head took 9 ms, at 13,570 lines).
        line.ends_with(b"\"") && matches!(haproxy_line(line), Line::Request(_))
    }

    /// A syslog line of `haproxy[pid]:` (`Feb 25 16:19:49 host haproxy[7]: ...`).
    fn owns(&self, line: &[u8]) -> bool {
        line.first().is_some_and(|b| SYSLOG_STARTS.contains(b)) && haproxy_tag(line)
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(SYSLOG_STARTS)
    }

    fn parse_block(&self, _header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        PerfBlock::from(parse_lines(buf, rules(), haproxy_line))
    }

    /// The accept date is local time, no offset written.
    fn utc(&self) -> bool {
        false
    }
}

// ---------------------------------------------------------------------------------------------
// uWSGI
// ---------------------------------------------------------------------------------------------

fn uwsgi_line(line: &[u8]) -> Line<'_> {
    uwsgi_request(line).map_or(Line::Not, Line::Request)
}

fn uwsgi_request(line: &[u8]) -> Option<Request<'_>> {
    let rest = line.strip_prefix(b"[pid: ")?;
    let close = memchr::memchr(b']', rest)?;
    if !super::num::contains(&rest[..close], b"|req: ") {
        return None;
    }
    let rest = &rest[close + 1..];
    // ` [Sun Mar 13 22:49:12 2016] ` after the vars.
    let (start_ms, after) = memchr::memmem::find_iter(rest, b" [").find_map(|p| {
        let (ms, n) = asctime_prefix(&rest[p + 2..])?;
        rest[p + 2 + n..]
            .starts_with(b"] ")
            .then_some((ms, p + 2 + n + 2))
    })?;
    let rest = &rest[after..];
    let arrow = super::num::find(rest, b" => generated ")?;
    let (method, path) = {
        let req = &rest[..arrow];
        let sp = memchr::memchr(b' ', req)?;
        (&req[..sp], &req[sp + 1..])
    };
    // Words missing read as empty: the last, the status, is then not one.
    let mut words = rest[arrow + 14..].split(|&b| b == b' ');
    let [_bytes, b"bytes", b"in", n, unit, _proto, st] =
        std::array::from_fn(|_| words.next().unwrap_or_default())
    else {
        return None;
    };
    let n = uint(n)? as f64;
    let ms = match unit {
        b"msecs" => n,
        b"micros" => n / 1000.0,
        _ => return None,
    };
    let status = status(st.strip_suffix(b")")?)?;
    let end_ms = start_ms.checked_add(ms as i64)?;
    believable(end_ms, ms).then_some(Request {
        end_ms,
        ms,
        method: Cow::Borrowed(method),
        path: Cow::Borrowed(path),
        status: Some(status),
        aborted: false,
    })
}

impl PerfFamily for Uwsgi {
    fn name(&self) -> &'static str {
        "access-uwsgi"
    }
    fn about(&self) -> &'static str {
        "uWSGI request logs"
    }

    fn recognises(&self, line: &[u8]) -> bool {
        uwsgi_request(line).is_some()
    }

    /// `[pid: 123|app: 0|req: 1/1] `.
    fn owns(&self, line: &[u8]) -> bool {
        line.starts_with(b"[pid: ")
            && memchr::memchr(b']', line)
                .is_some_and(|c| super::num::contains(&line[..c], b"|req: "))
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"[")
    }

    fn parse_block(&self, _header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        PerfBlock::from(parse_lines(buf, rules(), uwsgi_line))
    }

    /// Local time, no offset written.
    fn utc(&self) -> bool {
        false
    }
}

// ---------------------------------------------------------------------------------------------
// Caddy
// ---------------------------------------------------------------------------------------------

/// A Caddy log object, as far as it is read.
#[derive(Deserialize)]
struct CaddyObject<'a> {
    #[serde(borrow)]
    logger: Option<Cow<'a, str>>,
    ts: Option<serde_json::Value>,
    duration: Option<serde_json::Value>,
    status: Option<serde_json::Value>,
    #[serde(borrow)]
    request: Option<CaddyRequest<'a>>,
}

#[derive(Deserialize)]
struct CaddyRequest<'a> {
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    uri: Option<Cow<'a, str>>,
}

/// A Go duration text (`1.5ms`, `2m3.5s`, `150µs`) as ms.
fn go_duration_ms(s: &str) -> Option<f64> {
    let mut rest = s;
    let mut total = 0.0;
    if rest == "0" {
        return Some(0.0);
    }
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let v: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..u] {
            "ns" => 1e-6,
            "us" | "µs" | "μs" => 1e-3,
            "ms" => 1.0,
            "s" => 1e3,
            "m" => 60e3,
            "h" => 3600e3,
            _ => return None,
        };
        total += v * scale;
        rest = &rest[u..];
    }
    Some(total)
}

/// An instant: epoch seconds, or an RFC 3339 text.
fn caddy_ts(v: &serde_json::Value) -> Option<i64> {
    match v {
        serde_json::Value::Number(n) => {
            // To the nearest ms: `1709632800.123` is a hair under .123 as a double.
            let ms = (n.as_f64()? * 1000.0).round();
            (0.0..=MAX_WALL_MS as f64)
                .contains(&ms)
                .then_some(ms as i64)
        }
        serde_json::Value::String(s) => chrono::DateTime::parse_from_rfc3339(s)
            .ok()
            .map(|t| t.timestamp_millis()),
        _ => None,
    }
}

fn caddy_line(line: &[u8]) -> Line<'_> {
    if line.first() != Some(&b'{') {
        return Line::Not;
    }
    let Ok(o) = serde_json::from_slice::<CaddyObject>(line) else {
        return Line::Not;
    };
    let Some(logger) = o.logger.as_deref().filter(|_| o.ts.is_some()) else {
        return Line::Not;
    };
    if !(logger == "http.log.access" || logger.starts_with("http.log.access.")) {
        return Line::Own;
    }
    caddy_request(&o).map_or(Line::Not, Line::Request)
}

fn caddy_request<'a>(o: &CaddyObject<'a>) -> Option<Request<'a>> {
    let end_ms = caddy_ts(o.ts.as_ref()?)?;
    let ms = match o.duration.as_ref()? {
        serde_json::Value::Number(n) => n.as_f64()? * 1000.0,
        serde_json::Value::String(s) => go_duration_ms(s)?,
        _ => return None,
    };
    let status = match o.status.as_ref() {
        Some(serde_json::Value::Number(n)) => {
            Some(u16::try_from(n.as_u64()?).ok().filter(|&s| s <= 999)?)
        }
        None => None,
        _ => return None,
    };
    let req = o.request.as_ref()?;
    let bytes = |c: &Option<Cow<'a, str>>| match c {
        Some(Cow::Borrowed(s)) => Cow::Borrowed(s.as_bytes()),
        Some(Cow::Owned(s)) => Cow::Owned(s.clone().into_bytes()),
        None => Cow::Borrowed(&b""[..]),
    };
    believable(end_ms, ms).then(|| Request {
        end_ms,
        ms,
        method: bytes(&req.method),
        path: bytes(&req.uri),
        status,
        aborted: false,
    })
}

/// `{"level":"` starts every Caddy object.
const CADDY_START: &[u8] = b"{\"level\":\"";

impl PerfFamily for Caddy {
    fn name(&self) -> &'static str {
        "access-caddy"
    }
    fn about(&self) -> &'static str {
        "Caddy's JSON access logs"
    }

    /// An access log object.
    fn recognises(&self, line: &[u8]) -> bool {
        matches!(caddy_line(line), Line::Request(_))
    }

    /// `{"level":"...` with Caddy's `"logger":"http.log.access`.
    fn owns(&self, line: &[u8]) -> bool {
        line.starts_with(CADDY_START) && super::num::contains(line, b"\"logger\":\"http.log.access")
    }

    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"{")
    }

    fn parse_block(&self, _header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        PerfBlock::from(parse_lines(buf, rules(), caddy_line))
    }
}

#[cfg(test)]
#[path = "access_tests.rs"]
mod tests;
