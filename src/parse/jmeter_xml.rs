//! Apache JMeter results saved as XML (`.jtl` with `jmeter.save.saveservice.output_format=xml`):
//!
//! ```text
//! <?xml version="1.0" encoding="UTF-8"?>
//! <testResults version="1.2">
//! <httpSample t="559" lt="543" ts="1547108154397" s="false" lb="Home" rc="404" rm="Not Found">
//!   <assertionResult> ... <failureMessage>...</failureMessage> </assertionResult>
//!   <httpSample .../>            (a sub-sample: an embedded resource, a transaction's child)
//!   <responseData class="java.lang.String">...</responseData>
//! </httpSample>
//! <sample t="12" ts="1547108154960" s="true" lb="JSR223" rc="200" rm="OK"/>
//! </testResults>
//! ```
//!
//! Each top-level `<httpSample>` or `<sample>` is one request, read as the CSV JTL reads a row
//! (`perf.rs`): `ts` the start (epoch ms, or a date as the CSV's `timeStamp`; paired by `tn`
//! as the CSV's rows are by `threadName`, for a log stamped at the ends), `t` the elapsed
//! ms, `lb` the operation, `s` the success flag (a sample without one did not fail), and for a
//! failed one the message JMeter's dashboard keys its errors by (`perf::error_key`) from `rc`,
//! `rm` and the first `<failureMessage>` of the sample's own `<assertionResult>`s, the one the
//! CSV's `failureMessage` column holds. Sub-samples nested in a request are part of it and not
//! counted again; the other attributes (`lt`, `ct`, `by`, `tn`, ...) carry nothing a record
//! holds. Elements are read with quick-xml: attributes in any order, over several lines, with
//! entities (`&amp;`, `&quot;`, `&#10;`).
//!
//! Lines: a request's lines (its children's included) are record lines; the XML declaration,
//! `<testResults>`, `</testResults>`, comments and blank lines are ignorable; everything else
//! is skipped and counted: text or elements outside a request, a request whose values cannot
//! be true (as the CSV's rows), and a request that is not well-formed XML or not closed where
//! the log ends (a cut log): its start tag's lines, then the lines after it (its children,
//! which a reading from the next line would take for requests of their own) up to a request's
//! start tag or a root tag at its indentation or less, from which reading goes on. A tag,
//! comment or declaration must end within `MAX_MARKUP_LINES` lines, and a sub-sample left open
//! by a request that did not close is not read again, and once the requests that did not
//! close have taken a few times the block's size to read, a request must end within those
//! lines too (`FAILED_READS`): floods of markup that never ends cost linear time. Nothing
//! before the damage is lost.

use super::family::{
    Handle, OwnedStart, PerfBlock, PerfFamily, PerfFormat, Recognised, Recogniser,
};
use super::limits::{cap_label, MAX_WALL_MS};
use super::lines::{count, empty_run};
use super::num::{trim, unescape};
use super::perf::{bool_field, error_key, jtl_time, next_line_end, whole_ms, Threads};
use crate::model::{PerfLog, PerfRecord};
use quick_xml::errors::SyntaxError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::borrow::Cow;

/// Apache JMeter results, XML (`.jtl`).
pub const JMETER_XML: PerfFormat = Handle(&JmeterXml);

struct JmeterXml;

/// A request with sub-elements larger than this (its start tag to its end tag) is taken for
/// damage: skipped and counted, in one pass as in blocks. It bounds what a request never
/// closed costs a streamed log, carried from block to block and read again with each until it
/// is this big (16 MiB: `summary` of a 63 MB log with one near its head takes 0.9-1.3 s and
/// 170 MB, against 0.45-0.75 s and 80-100 MB without it, where 64 MiB took 3.4 s and 520 MB);
/// JMeter's requests are kilobytes, megabytes where a response body is saved.
const MAX_SAMPLE_BYTES: usize = 16 << 20;

/// Lines a tag, comment or declaration may take: JMeter writes a tag on one line; one
/// written an attribute a line takes a line or two more than it has attributes.
const MAX_MARKUP_LINES: usize = 32;

/// How many times a block's size the reads of requests that do not close may take in all;
/// past it, a request's elements are read within `MAX_MARKUP_LINES` lines. A request not
/// closed is read to the block's end (or `MAX_SAMPLE_BYTES`), and the requests inside it are
/// read again from their own starts where it had taken them for attribute text (a quote
/// missing shifts every quote after it): with a request like that in every few KB, the reads
/// grew with the square of the log (a 5 MB fuzz case took 5 s).
const FAILED_READS: usize = 4;

impl PerfFamily for JmeterXml {
    fn name(&self) -> &'static str {
        "jmeter-xml"
    }
    fn about(&self) -> &'static str {
        "JMeter results as XML"
    }
    /// `<testResults ...>` or the start of a request, `<httpSample ...` / `<sample ...`.
    fn recognises(&self, line: &[u8]) -> bool {
        root_tag(line) || sample_start(line)
    }
    /// Requests' lines are its own, the lines inside a request (its children, a response
    /// body quoting a GC log) of no family.
    fn recogniser(&self) -> Option<Box<dyn Recogniser>> {
        Some(Box::new(XmlRecogniser::default()))
    }
    /// Its root and request tags: no GC log writes a line starting with them.
    fn owns(&self, line: &[u8]) -> bool {
        line.first() == Some(&b'<')
            && (root_tag(line) || sample_start(line) || sample_end(line).is_some())
    }
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Bytes(b"<")
    }
    /// `header`: what a block is read with from the blocks before it (see `Resync`).
    fn parse_block(&self, header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock {
        parse_xml(header, buf, last)
    }
}

/// `name` followed by the end of its tag name (white space, `>`, `/` or the line's end).
fn tag_named(s: &[u8], name: &[u8]) -> bool {
    s.strip_prefix(name).is_some_and(|r| {
        matches!(
            r.first(),
            None | Some(b' ' | b'\t' | b'\r' | b'\n' | b'>' | b'/')
        )
    })
}

/// `<testResults ...>` or `</testResults>`, at the line's start or after the XML declaration
/// on the same line (a file written without line breaks: `xmllint --noblanks`, a re-save).
fn root_tag(line: &[u8]) -> bool {
    let line = match line.strip_prefix(b"<?xml") {
        Some(decl) => super::num::find(decl, b"?>")
            .and_then(|e| decl.get(e + 2..))
            .map_or(line, |r| super::num::trim(r)),
        None => line,
    };
    let t = line.strip_prefix(b"</").or_else(|| line.strip_prefix(b"<"));
    t.is_some_and(|t| tag_named(t, b"testResults"))
}

/// The start of a request's element: `<httpSample` or `<sample`.
fn sample_start(line: &[u8]) -> bool {
    line.strip_prefix(b"<")
        .is_some_and(|t| tag_named(t, b"httpSample") || tag_named(t, b"sample"))
}

/// `</httpSample>` or `</sample>`: its length.
fn sample_end(line: &[u8]) -> Option<usize> {
    let t = line.strip_prefix(b"</")?;
    let n = [&b"httpSample"[..], b"sample"]
        .into_iter()
        .find(|n| t.starts_with(n))?
        .len();
    let rest = t.get(n..)?;
    let sp = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    (rest.get(sp) == Some(&b'>')).then_some(2 + n + sp + 1)
}

/// What a block is read with from the blocks before it, kept as `PerfBlock::header`: after a
/// request that could not be read, the lines after it are its children and are skipped
/// (`Some(indentation)`), up to a request's start tag or a root tag at that indentation or
/// less.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Resync(Option<usize>);

impl Resync {
    fn from_header(header: Option<&[u8]>) -> Resync {
        Resync(
            header
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| h.strip_prefix("below "))
                .and_then(|n| n.parse().ok()),
        )
    }
    fn header(self) -> Option<Vec<u8>> {
        self.0.map(|n| format!("below {n}").into_bytes())
    }
}

/// `buf` read after blocks that left `header` (see `Resync`). Unless `last`, an element open
/// at the end (a request whose end tag is in the bytes after) is left unread from the start
/// of its line, with everything after it.
fn parse_xml(header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock {
    let resync = Resync::from_header(header);
    let mut end = buf.len();
    let mut rereads = 0;
    loop {
        let mut r = Reading::new(buf.get(..end).unwrap_or_default(), resync);
        // Past `MAX_REREADS`, what is open at `end` is read as cut there (the lines after go
        // to the next block all the same).
        let more = (!last || end < buf.len()) && rereads < MAX_REREADS;
        match r.run(more) {
            Stop::End => {
                r.finish();
                return r.block(buf.len() - end);
            }
            Stop::Open {
                line_start,
                clean: true,
            } => return r.block(buf.len() - line_start),
            // Something ends on the open element's line before it: that line goes to the
            // next block whole, so this block is read again without it.
            Stop::Open { line_start, .. } => {
                end = line_start;
                rereads += 1;
            }
        }
    }
}

/// Times a block is read again without the line its open element starts on. Once is what a
/// log needs (its open request after another on the line); where every line ends in a tag
/// whose quote runs on into the next (damage), each reading found the line before open in
/// turn, and a block was read once a line: a 1 MB file of such lines took 28 s.
const MAX_REREADS: usize = 4;

/// Why a reading stopped.
enum Stop {
    /// At the end of its bytes.
    End,
    /// At an element open at the end (more bytes follow), which starts on the line at
    /// `line_start`; `clean`: it is the first thing on its line, and the log holds exactly
    /// the lines before.
    Open { line_start: usize, clean: bool },
}

/// What lines are.
#[derive(Clone, Copy)]
enum Kind {
    Record,
    Ignored,
    Skipped,
}

/// One reading of a block's bytes.
struct Reading<'a> {
    buf: &'a [u8],
    log: PerfLog,
    /// Lines 1..=counted have their category.
    counted: u64,
    /// Line `counted` is ignorable: a request after its declaration or root tag (a log
    /// written without line breaks) makes it a record line.
    last_ignored: bool,
    /// A byte position and the number of its line (as `lines()` numbers them), moved forward.
    at: usize,
    at_line: u64,
    resync: Resync,
    /// Sub-samples inside a request that did not close, still open where it ended (sorted).
    unclosed: Vec<usize>,
    /// Bytes read inside requests that did not close (see `FAILED_READS`).
    failed_reads: usize,
    /// Each thread's last request, for `PerfLog::stamps`.
    threads: Threads,
    /// Every `\n` and `\r` of `buf`, in order: a markup window's end is looked up here, not
    /// searched for again from each element (that search was 13 % of the time on a 512 MB
    /// log, each line scanned once per element in the 32 lines before it).
    line_ends: Vec<usize>,
}

impl<'a> Reading<'a> {
    fn new(buf: &'a [u8], resync: Resync) -> Reading<'a> {
        Reading {
            buf,
            log: PerfLog::default(),
            counted: 0,
            last_ignored: false,
            at: 0,
            at_line: 1,
            resync,
            unclosed: Vec::new(),
            failed_reads: 0,
            threads: Threads::default(),
            line_ends: memchr::memchr2_iter(b'\n', b'\r', buf).collect(),
        }
    }

    /// The end of the `MAX_MARKUP_LINES`th line from the one holding `p` (or of `buf`).
    /// `\r\n` counts twice: a window of CRLF lines is half as many lines, enough still.
    fn markup_window(&self, p: usize) -> usize {
        let i = self.line_ends.partition_point(|&e| e < p);
        self.line_ends
            .get(i + MAX_MARKUP_LINES - 1)
            .map_or(self.buf.len(), |&k| k + 1)
    }

    /// The line of byte `p` (at or after every position asked before).
    fn line_of(&mut self, p: usize) -> u64 {
        let p = p.min(self.buf.len());
        if p > self.at {
            let seg = self.buf.get(self.at..p).unwrap_or_default();
            // A `\r` ends a line unless a `\n` follows it (then that `\n` does), even past `p`.
            let crs = memchr::memchr_iter(b'\r', seg)
                .filter(|&i| self.buf.get(self.at + i + 1) != Some(&b'\n'))
                .count();
            self.at_line += (memchr::memchr_iter(b'\n', seg).count() + crs) as u64;
            self.at = p;
        }
        self.at_line
    }

    /// Lines `from..=to` not counted yet are of `kind`; `text` is kept for a skipped one.
    fn count(&mut self, from: u64, to: u64, kind: Kind, text: &[u8]) {
        if matches!(kind, Kind::Record) && self.last_ignored && (from..=to).contains(&self.counted)
        {
            self.log.ignored_lines -= 1;
            self.log.record_lines += 1;
            self.last_ignored = false;
        }
        let from = from.max(self.counted + 1);
        if to < from {
            return;
        }
        let n = to - from + 1;
        match kind {
            Kind::Record => self.log.record_lines += n,
            Kind::Ignored => self.log.ignored_lines += n,
            Kind::Skipped => {
                self.log.skip(from, text);
                self.log.skipped_lines += n - 1;
            }
        }
        self.counted = to;
        self.last_ignored = matches!(kind, Kind::Ignored);
    }

    /// Bytes `a..b` (`b > a`) are an item of `kind`: its lines not counted yet are of it.
    fn item(&mut self, a: usize, b: usize, kind: Kind) {
        let from = self.line_of(a);
        let to = self.line_of(b.saturating_sub(1).max(a));
        // The line's text only where a skipped line is counted: found for every item, its
        // end was a scan to the end of the line, and a log written as one line (every
        // request on it) took time growing with the square of its size: 5.5 s for 6 MB.
        let text = match kind {
            Kind::Skipped if to > self.counted => line_text(self.buf, a),
            _ => b"",
        };
        self.count(from, to, kind, text);
    }

    /// The line holding `p` is skipped (unless counted already): the position after its end.
    fn skip_line(&mut self, p: usize) -> usize {
        let e = next_line_end(self.buf, p);
        self.item(p, p + 1, Kind::Skipped);
        e
    }

    fn finish(&mut self) {
        // Lines never touched are blank lines (white space, NUL padding) at the end.
        let total = count(self.buf);
        if total > self.counted {
            self.log.ignored_lines += total - self.counted;
            self.counted = total;
            self.last_ignored = true;
        }
        self.log.lines = total;
    }

    fn block(self, unread: usize) -> PerfBlock {
        PerfBlock {
            log: self.log,
            header: self.resync.header(),
            unread,
        }
    }

    /// Read items from the start; `more`: bytes follow the buffer.
    fn run(&mut self, more: bool) -> Stop {
        let buf = self.buf;
        let mut pos = 0usize;
        // The start of the line holding `pos`.
        let mut line_start = 0usize;
        while pos < buf.len() {
            let first = pos == line_start;
            // Empty lines are passed over in bulk: a flood of them costs what skipping it
            // costs.
            if first {
                let (bytes, empty) = empty_run(buf.get(pos..).unwrap_or_default());
                if empty > 0 {
                    let from = self.line_of(pos);
                    self.count(from, from + empty - 1, Kind::Ignored, b"");
                    pos += bytes;
                    line_start = pos;
                    continue;
                }
            }
            let sp = white(buf.get(pos..).unwrap_or_default());
            let p = pos + sp;
            match buf.get(p) {
                None => break,
                Some(b'\n' | b'\r') => {
                    // A line's end: a line of white space only is blank (one counted with an
                    // item before on it stays counted).
                    let l = self.line_of(p);
                    self.count(l, l, Kind::Ignored, b"");
                    pos = next_line_end(buf, p);
                    line_start = pos;
                    continue;
                }
                _ => {}
            }
            if let Resync(Some(indent)) = self.resync {
                let tag = buf.get(p..).unwrap_or_default();
                // An end tag at the line's start may close a text of several lines (a
                // response header's): only a request's or the root's tag ends the children.
                if sp <= indent && (sample_start(tag) || root_tag(tag) || tag.starts_with(b"<?")) {
                    self.resync = Resync(None);
                } else {
                    // A line of the request that could not be read.
                    pos = self.skip_line(p);
                    line_start = pos;
                    continue;
                }
            }
            match self.element(p, more) {
                Next::At(q) => {
                    if let Some(k) = buf
                        .get(p..q)
                        .and_then(|s| memchr::memrchr2(b'\n', b'\r', s))
                    {
                        line_start = p + k + 1;
                    }
                    pos = q;
                }
                Next::Line => {
                    pos = self.skip_line(p);
                    line_start = pos;
                }
                Next::Broken(q) => {
                    // Its start tag's lines are skipped (the rest of the line the tag ends
                    // on with them), then its children (see `Resync`), told by the
                    // indentation of the line it starts on.
                    let e = next_line_end(buf, q.max(p + 1) - 1);
                    self.item(p, e, Kind::Skipped);
                    let indent = white(buf.get(line_start..).unwrap_or_default());
                    self.resync = Resync(Some(indent));
                    pos = e;
                    line_start = e;
                }
                Next::Open => {
                    // Where the element is the first thing on its line, every line before it
                    // has its category, and the log as read is the log of the bytes before it.
                    if first {
                        let before = self.line_of(line_start).saturating_sub(1);
                        if before > self.counted {
                            self.log.ignored_lines += before - self.counted;
                            self.last_ignored = true;
                        }
                        self.counted = before;
                        self.log.lines = before;
                    }
                    return Stop::Open {
                        line_start,
                        clean: first,
                    };
                }
            }
        }
        Stop::End
    }

    /// The element or markup at `p` (a `<`, or text outside any element).
    fn element(&mut self, p: usize, more: bool) -> Next {
        let buf = self.buf;
        if buf.get(p) != Some(&b'<') {
            return Next::Line;
        }
        // A tag, comment or declaration is read within `MAX_MARKUP_LINES` lines: one running
        // on further is not one, and each line after would cost a read to its end again.
        let window = self.markup_window(p);
        let mut reader = Reader::from_reader(buf.get(p..window).unwrap_or_default());
        // `</testResults>` closes an element opened in a block before.
        reader.config_mut().allow_unmatched_ends = true;
        let at = |r: &Reader<&[u8]>| p + usize::try_from(r.buffer_position()).unwrap_or(0);
        let ev = reader.read_event();
        let ignorable = match &ev {
            Ok(Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_)) => true,
            Ok(Event::Start(e) | Event::Empty(e)) => e.name().as_ref() == b"testResults",
            Ok(Event::End(e)) => e.name().as_ref() == b"testResults",
            _ => false,
        };
        if ignorable {
            let q = at(&reader);
            self.item(p, q, Kind::Ignored);
            return Next::At(q);
        }
        match ev {
            Ok(Event::Empty(e)) if is_sample(&e) => {
                let q = at(&reader);
                match attributes(&e) {
                    Some(v) => {
                        self.sample(p, q, &v, None);
                        Next::At(q)
                    }
                    // Attributes that are not XML (a quote missing makes the tag run on over
                    // the lines after it): its first line is skipped, and the next read.
                    None => Next::Line,
                }
            }
            Ok(Event::Start(e)) if is_sample(&e) => {
                let tag_end = at(&reader);
                let Some(v) = attributes(&e) else {
                    return Next::Broken(p + 1);
                };
                // Read before inside a request that did not close: it does not either.
                if self.unclosed.binary_search(&p).is_ok() {
                    return Next::Broken(tag_end);
                }
                let capped = self.failed_reads > FAILED_READS * buf.len() + MAX_SAMPLE_BYTES;
                let end = capped.then(|| self.markup_window(tag_end));
                let rest = buf
                    .get(tag_end..end.unwrap_or(buf.len()))
                    .unwrap_or_default();
                let mut body = Reader::from_reader(rest);
                body.config_mut().allow_unmatched_ends = true;
                let mut unclosed = Vec::new();
                let outcome = sample_body(&mut body, e.name().as_ref(), &mut unclosed);
                let q = tag_end + usize::try_from(body.buffer_position()).unwrap_or(0);
                if !matches!(outcome, Body::Closed(_)) {
                    self.failed_reads += q - tag_end;
                }
                match outcome {
                    Body::Closed(failure) if q - p <= MAX_SAMPLE_BYTES => {
                        let failure = failure.map(|(a, b)| (tag_end + a, tag_end + b));
                        self.sample(p, q, &v, failure);
                        Next::At(q)
                    }
                    Body::Open if more && !capped && q - p <= MAX_SAMPLE_BYTES => Next::Open,
                    _ => {
                        let sorted = (self.unclosed.last().zip(unclosed.first()))
                            .is_none_or(|(&l, &f)| l < tag_end + f);
                        self.unclosed
                            .extend(unclosed.into_iter().map(|u| tag_end + u));
                        if !sorted {
                            // A request read before its start was inside markup then.
                            self.unclosed.sort_unstable();
                            self.unclosed.dedup();
                        }
                        Next::Broken(tag_end)
                    }
                }
            }
            Err(quick_xml::Error::Syntax(s))
                if more && window == buf.len() && s != SyntaxError::InvalidBangMarkup =>
            {
                // A tag, comment or declaration the block's end cuts: read with the next.
                Next::Open
            }
            // Another element, an end tag or text outside a request, markup that is not XML
            // or does not end within its window: the line is skipped.
            _ => Next::Line,
        }
    }

    /// A request's element, bytes `a..b`, its attributes `v`, its first failure message's
    /// bytes: a record, or its lines skipped when its values cannot be true.
    fn sample(&mut self, a: usize, b: usize, v: &Attrs<'_>, failure: Option<(usize, usize)>) {
        let line = self.line_of(a);
        match self.record(v, failure, line) {
            Some(r) => {
                self.log.records.push(r);
                self.item(a, b, Kind::Record);
            }
            None => self.item(a, b, Kind::Skipped),
        }
    }

    /// The record of a request: `None` when its stamp, elapsed time or success flag is missing
    /// or cannot be true (as a CSV row's).
    fn record(
        &mut self,
        v: &Attrs<'_>,
        failure: Option<(usize, usize)>,
        line: u64,
    ) -> Option<PerfRecord> {
        let start = jtl_time(trim(&unescape(v.ts.as_deref()?)))?;
        let elapsed = whole_ms(trim(&unescape(v.t.as_deref()?)))?;
        if start > MAX_WALL_MS {
            return None;
        }
        let ok = match v.s.as_deref() {
            Some(s) => bool_field(trim(&unescape(s)))?,
            // Results saved without `s`: nothing says a sample failed.
            None => true,
        };
        // `as` saturates; checked_add rejects what would not fit.
        let end_ms = start.checked_add(super::num::round(elapsed) as i64)?;
        let operation = v.lb.as_deref().map_or(0, |lb| {
            self.log
                .strings
                .intern_bytes(cap_label(trim(&unescape(lb))))
        });
        let error = (!ok).then(|| {
            let text = |v: Option<&[u8]>| v.map(|v| unescape(v).into_owned()).unwrap_or_default();
            let failure = text(failure.and_then(|(a, b)| self.buf.get(a..b)));
            let key = error_key(&text(v.rc.as_deref()), &text(v.rm.as_deref()), &failure);
            self.log.strings.intern_bytes(cap_label(&key))
        });
        if let Some(tn) = v.tn.as_deref() {
            let took = end_ms - start;
            self.threads
                .next(trim(&unescape(tn)), start, took, &mut self.log.stamps);
        }
        Some(PerfRecord::request(
            end_ms, elapsed, operation, ok, error, line,
        ))
    }
}

/// The attributes a record is read from, raw (entities not yet replaced).
#[derive(Default)]
struct Attrs<'a> {
    ts: Option<Cow<'a, [u8]>>,
    t: Option<Cow<'a, [u8]>>,
    s: Option<Cow<'a, [u8]>>,
    lb: Option<Cow<'a, [u8]>>,
    rc: Option<Cow<'a, [u8]>>,
    rm: Option<Cow<'a, [u8]>>,
    tn: Option<Cow<'a, [u8]>>,
}

/// A request's attributes a record is read from: `None` where they are not well-formed
/// XML (a value without quotes, one of these names twice). quick-xml's own test for names
/// met twice compares each name with every one before it (13 % of the time on a 512 MB
/// log, 15 attributes a sample); a name read here met twice is the one that matters.
fn attributes<'a>(e: &'a BytesStart<'_>) -> Option<Attrs<'a>> {
    let mut v = Attrs::default();
    for attr in e.attributes().with_checks(false) {
        let attr = attr.ok()?;
        let slot = match attr.key.as_ref() {
            b"ts" => &mut v.ts,
            b"t" => &mut v.t,
            b"s" => &mut v.s,
            b"lb" => &mut v.lb,
            b"rc" => &mut v.rc,
            b"rm" => &mut v.rm,
            b"tn" => &mut v.tn,
            _ => continue,
        };
        if slot.replace(attr.value).is_some() {
            return None;
        }
    }
    Some(v)
}

/// What follows an element read at the top level.
enum Next {
    /// Read on at this position.
    At(usize),
    /// The line is skipped.
    Line,
    /// A request that cannot be read: its start tag ends before this position.
    Broken(usize),
    /// An element open at the end of the bytes, more following them.
    Open,
}

fn is_sample(e: &BytesStart<'_>) -> bool {
    matches!(e.name().as_ref(), b"httpSample" | b"sample")
}

/// How a request's element after its start tag ended.
enum Body {
    /// At its end tag, with the byte range of the first `<failureMessage>` of its own
    /// assertion results (relative to the reader's start).
    Closed(Option<(usize, usize)>),
    /// The bytes ended inside it.
    Open,
    /// Not well-formed, or over `MAX_SAMPLE_BYTES`.
    Bad,
}

/// Read a request's element named `name` after its start tag (the reader starts after it)
/// up to its end tag, sub-samples and all. Where it does not close, the sub-samples still
/// open are added to `unclosed` (positions relative to the reader's start): read from their
/// own start they end the same way.
fn sample_body(reader: &mut Reader<&[u8]>, name: &[u8], unclosed: &mut Vec<usize>) -> Body {
    let pos = |r: &Reader<&[u8]>| usize::try_from(r.buffer_position()).unwrap_or(usize::MAX);
    // The elements open inside the request: a sub-sample's start position, else `None`.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut in_assertion = false;
    let mut failure: Option<(usize, usize)> = None;
    let mut failure_from: Option<usize> = None;
    let body = loop {
        let before = pos(reader);
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let n = e.name();
                let child = open.is_empty();
                open.push(is_sample(&e).then_some(before));
                if child && n.as_ref() == b"assertionResult" {
                    in_assertion = true;
                } else if open.len() == 2
                    && in_assertion
                    && failure.is_none()
                    && n.as_ref() == b"failureMessage"
                {
                    failure_from = Some(pos(reader));
                }
            }
            Ok(Event::Empty(e)) => {
                if open.len() == 1
                    && in_assertion
                    && failure.is_none()
                    && e.name().as_ref() == b"failureMessage"
                {
                    let p = pos(reader);
                    failure = Some((p, p));
                }
            }
            Ok(Event::End(e)) => {
                if open.pop().is_none() {
                    // The request's own end tag (quick-xml matched every one inside it).
                    if e.name().as_ref() == name {
                        return Body::Closed(failure);
                    }
                    break Body::Bad;
                }
                if open.len() == 1 {
                    if let Some(from) = failure_from.take() {
                        failure = Some((from, before));
                    }
                }
                if open.is_empty() {
                    in_assertion = false;
                }
            }
            Ok(Event::Eof) => break Body::Open,
            Err(quick_xml::Error::Syntax(s)) if s != SyntaxError::InvalidBangMarkup => {
                break Body::Open
            }
            Err(_) => break Body::Bad,
            Ok(_) => {}
        }
        if pos(reader) > MAX_SAMPLE_BYTES {
            break Body::Bad;
        }
    };
    unclosed.extend(open.into_iter().flatten());
    body
}

/// The white space (and NUL padding) `s` starts with, in bytes; line ends not included.
fn white(s: &[u8]) -> usize {
    s.iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\x0c' | 0))
        .count()
}

/// The text of the line holding `p`, from `p`, without its line end.
fn line_text(buf: &[u8], p: usize) -> &[u8] {
    let rest = buf.get(p..).unwrap_or_default();
    let n = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
    rest.get(..n).unwrap_or_default()
}

/// A log's lines in turn, for detection and the cutting of a file into parts: `<testResults>`
/// and a request's first line are its own; the lines up to the request's end tag are inside
/// it (a response body may quote anything). A request open for more than
/// `MAX_SAMPLE_BYTES`, or a root tag inside one, ends it.
#[derive(Default)]
struct XmlRecogniser {
    /// Request elements open (sub-samples included).
    depth: u32,
    /// Inside a request's start tag: the quote open in it (0: none).
    tag: Option<u8>,
    bytes: usize,
}

impl XmlRecogniser {
    /// Follow a line's request tags.
    fn scan(&mut self, line: &[u8]) {
        let mut i = 0;
        while i < line.len() {
            if let Some(q) = self.tag {
                let Some(&b) = line.get(i) else { break };
                match (q, b) {
                    (0, b'"' | b'\'') => self.tag = Some(b),
                    (0, b'/') if line.get(i + 1) == Some(&b'>') => {
                        self.tag = None;
                        self.depth = self.depth.saturating_sub(1);
                        i += 1;
                    }
                    (0, b'>') => self.tag = None,
                    (q, b) if q != 0 && b == q => self.tag = Some(0),
                    _ => {}
                }
                i += 1;
                continue;
            }
            let Some(k) = line.get(i..).and_then(|r| memchr::memchr(b'<', r)) else {
                break;
            };
            let t = line.get(i + k..).unwrap_or_default();
            if sample_start(t) {
                self.depth += 1;
                self.tag = Some(0);
                i += k + 1;
            } else if let Some(n) = sample_end(t) {
                self.depth = self.depth.saturating_sub(1);
                i += k + n;
            } else {
                i += k + 1;
            }
        }
    }
}

impl Recogniser for XmlRecogniser {
    fn line(&mut self, line: &[u8]) -> Recognised {
        let top = self.depth == 0 && self.tag.is_none();
        if root_tag(line) {
            // A request open at a root tag was never closed: reading goes on at the top.
            *self = XmlRecogniser::default();
            return Recognised::Own;
        }
        if top {
            if !sample_start(line) {
                return Recognised::No;
            }
            self.bytes = 0;
        }
        self.scan(line);
        self.bytes += line.len() + 1;
        if self.bytes > MAX_SAMPLE_BYTES {
            *self = XmlRecogniser::default();
        }
        if top {
            Recognised::Own
        } else {
            Recognised::Inside
        }
    }
}

#[cfg(test)]
#[path = "jmeter_xml_tests.rs"]
mod tests;
