//! The log families and their registries: everything the rest of the program asks of a GC
//! family goes through `Family`, of a performance-log family through `PerfFamily`, so that a
//! new family is a module of its own and one line in `GC_FAMILIES` or `PERF_FAMILIES`.
//!
//! A family says what it is called, which lines are its own (detection, and the other
//! parsers' "a line of another family" test), where a log may be cut into blocks, how to parse
//! a block (`BlockParser`, the protocol `stream::Joiner` follows to give one pass's result
//! from blocks parsed in parallel), what it does once the whole log is joined, and how its
//! stamps place records on a wall clock (`model::GcClock`).

use crate::columns::GcColumns;
use crate::model::{GcClock, GcEvent, GcLog, PerfLog, Rows};
use std::any::Any;

/// The GC families, most specific line test first: detection gives a line to the first
/// family that claims it.
pub const GC_FAMILIES: &[GcFormat] = &[
    super::unified::FAMILY,
    super::jrockit::FAMILY,
    super::ibm_text::FAMILY,
    super::j9_xml::FAMILY,
    super::hotspot::FAMILY,
];

/// The performance-log families, in the order detection tries them.
pub const PERF_FAMILIES: &[PerfFormat] = &[
    super::perf::SEMICOLON,
    super::perf::JMETER_JTL,
    super::jmeter_xml::JMETER_XML,
    super::perf::GRINDER,
    super::gatling::FAMILY,
    super::k6::FAMILY,
    super::k6::CSV,
    super::access::IIS,
    super::access::HAPROXY,
    super::access::UWSGI,
    super::access::CADDY,
];

/// The family the command line describes (`--log-format`), built once per process: tried
/// before the registered ones (the user said what the logs are), see `perf_families`.
static GIVEN: std::sync::OnceLock<PerfFormat> = std::sync::OnceLock::new();

/// Make `f` the family the command line gives; false where one was given already.
pub fn set_given(f: PerfFormat) -> bool {
    GIVEN.set(f).is_ok()
}

/// The performance-log families detection tries: the one `--log-format` gives first, then
/// `PERF_FAMILIES`.
pub fn perf_families() -> impl Iterator<Item = PerfFormat> {
    GIVEN
        .get()
        .copied()
        .into_iter()
        .chain(PERF_FAMILIES.iter().copied())
}

/// A registered family: a handle to it, compared and printed by name.
pub struct Handle<F: ?Sized + 'static>(pub &'static F);

/// A GC log family (`Family`).
pub type GcFormat = Handle<dyn Family>;

/// A performance-log family (`PerfFamily`).
pub type PerfFormat = Handle<dyn PerfFamily>;

/// What a handle's family is called.
pub trait Named {
    fn name(&self) -> &'static str;
}

impl Named for dyn Family {
    fn name(&self) -> &'static str {
        Family::name(self)
    }
}

impl Named for dyn PerfFamily {
    fn name(&self) -> &'static str {
        PerfFamily::name(self)
    }
}

impl<F: ?Sized + Named> Handle<F> {
    /// The family's name as outputs write it (`format`).
    pub fn as_str(self) -> &'static str {
        self.0.name()
    }
}

impl GcFormat {
    /// The registered GC family of that name.
    pub fn named(name: &str) -> Option<GcFormat> {
        GC_FAMILIES.iter().copied().find(|f| f.as_str() == name)
    }
}

impl PerfFormat {
    /// The registered performance-log family of that name.
    pub fn named(name: &str) -> Option<PerfFormat> {
        perf_families().find(|f| f.as_str() == name)
    }
}

impl<F: ?Sized> Clone for Handle<F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F: ?Sized> Copy for Handle<F> {}

impl<F: ?Sized> std::ops::Deref for Handle<F> {
    type Target = F;
    fn deref(&self) -> &F {
        self.0
    }
}

impl<F: ?Sized + Named> PartialEq for Handle<F> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<F: ?Sized + Named> Eq for Handle<F> {}

impl<F: ?Sized + Named> std::fmt::Debug for Handle<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<F: ?Sized + Named> std::fmt::Display for Handle<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a line is to a family that reads lines with what came before them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recognised {
    /// None of its own.
    No,
    /// A record or header of the family.
    Own,
    /// A line inside one of its records (a quoted field's next lines): of no family.
    Inside,
}

/// A family's reading of a log's lines in turn (see `PerfFamily::recogniser`).
pub trait Recogniser: Send {
    /// `line` (trimmed, not blank), after the lines given before.
    fn line(&mut self, line: &[u8]) -> Recognised;
}

/// A block of a performance log as its family read it.
#[derive(Debug, Default)]
pub struct PerfBlock {
    pub log: PerfLog,
    /// The header row in effect at the block's end (the last one read, else the one it was
    /// read with): what the next block is read with.
    pub header: Option<Vec<u8>>,
    /// Bytes at the block's end not read (a quoted field still open): read again at the
    /// start of the next block.
    pub unread: usize,
}

impl From<PerfLog> for PerfBlock {
    /// A block of a family whose blocks read alike whatever came before (no header carried,
    /// nothing left unread).
    fn from(log: PerfLog) -> PerfBlock {
        PerfBlock {
            log,
            ..PerfBlock::default()
        }
    }
}

/// What one performance-log family is and does: a unit struct in its module, registered in
/// `PERF_FAMILIES`.
pub trait PerfFamily: Sync + 'static {
    /// The name outputs write (`format`): lower case, stable.
    fn name(&self) -> &'static str;

    /// What it reads, in a few words (the tool, the option that writes it): `gcperf --help`
    /// lists every registered family so.
    fn about(&self) -> &'static str;

    /// `line` (trimmed, not blank) is a record or header of this family, told from its shape.
    fn recognises(&self, line: &[u8]) -> bool;

    /// For a family whose lines are told by the lines before them (a header's columns, a
    /// quoted field spanning lines): a reader of a log's lines one after another, which
    /// detection and the cutting of a file into parts use instead of `recognises`.
    fn recogniser(&self) -> Option<Box<dyn Recogniser>> {
        None
    }

    /// `line` is one this family writes and no GC family does, told from its start: GC
    /// parsers skip it.
    fn owns(&self, _line: &[u8]) -> bool {
        false
    }

    /// How every line `owns` claims starts: `Foreign` asks `owns` only of lines that start so.
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Any
    }

    /// A block of a log (its byte-order mark removed), read as if the header row `header`
    /// came before it (the last one the blocks before it held; `None`: none yet). With
    /// `last`, the block is the rest of the log; else a record that may go on past the
    /// block's end is left unread (`PerfBlock::unread`) for the next block.
    fn parse_block(&self, header: Option<&[u8]>, buf: &[u8], last: bool) -> PerfBlock;

    /// Its stamps are instants (epoch milliseconds, or times with their offset); else local
    /// wall-clock time taken as UTC.
    fn utc(&self) -> bool {
        true
    }
}

/// The family of one line: the first in `GC_FAMILIES` that claims it.
pub fn family_of_line(line: &[u8]) -> Option<GcFormat> {
    GC_FAMILIES.iter().copied().find(|f| f.recognises(line))
}

/// What one GC log family is and does. Implementations are unit structs in the family's
/// module, registered in `GC_FAMILIES`.
pub trait Family: Sync + 'static {
    /// The name outputs write (`format`): lower case, stable.
    fn name(&self) -> &'static str;

    /// What it reads, in a few words (the JVM, the option that writes it): `gcperf --help`
    /// lists every registered family so.
    fn about(&self) -> &'static str;

    /// `line` is one of this family's own lines (a record or a line its format defines),
    /// told from its shape alone. Detection counts these over a log's head and the family
    /// with the most wins; a file is cut into parts where the family of runs of them changes.
    fn recognises(&self, line: &[u8]) -> bool;

    /// A block may start at `line` (the head of a record that does not depend on lines before
    /// it; with `cut_after`, the last line of such a record). A guess: a wrong cut costs a
    /// block read again, never a wrong record (see `stream`).
    fn safe_start(&self, line: &[u8]) -> bool;

    /// Blocks are cut after a `safe_start` line instead of before it.
    fn cut_after(&self) -> bool {
        false
    }

    /// A parser for a block, its events written into `events` (emptied) and, every
    /// `flush_at` events held (0: never), the settled ones moved to the block's columns.
    fn block_parser(&self, events: Vec<GcEvent>, flush_at: usize) -> Box<dyn BlockParser>;

    /// The family's records may come out of time order across blocks (each block is in
    /// order): the joined log is put in time order, as one pass puts it.
    fn reorders(&self) -> bool {
        false
    }

    /// Collector names to guess from, by `Collectors::hints` bit, in order of precedence:
    /// for a log that never names its collector.
    fn collector_guesses(&self) -> &'static [&'static str] {
        &[]
    }

    /// The steps one pass takes over the whole log once it is read, taken on the joined
    /// rows (`log` holds the log-wide strings): written once, over `Rows`.
    fn end_of_log(&self, _log: &GcLog, _rows: &mut dyn Rows) {}

    /// How the family's stamps place its records on a wall clock.
    fn clock(&self) -> GcClock;

    /// `line` is one this family writes and the others do not, told from its start (its
    /// decorations): the other families' parsers skip it as a line of another log.
    fn owns(&self, _line: &[u8]) -> bool {
        false
    }

    /// The byte every line `owns` claims starts with, if there is one (a quick test first).
    fn owned_lines_start(&self) -> OwnedStart {
        OwnedStart::Any
    }
}

/// How the lines a family owns start, tested before its `owns` is asked (which is asked of
/// every line of the other families' logs: a HotSpot log's lines, which start with digits,
/// went through three calls each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnedStart {
    /// Any way: always ask.
    Any,
    /// With one of these bytes.
    Bytes(&'static [u8]),
    /// With digits, then one of these bytes (`1354000000000,...`).
    DigitsThen(&'static [u8]),
}

impl OwnedStart {
    /// A line starting with `first`, whose leading digits are followed by `after_digits`
    /// (`None` where it starts with no digit), may be owned.
    #[inline]
    pub fn admits(self, first: Option<u8>, after_digits: Option<u8>) -> bool {
        match self {
            OwnedStart::Any => true,
            OwnedStart::Bytes(bs) => first.is_some_and(|b| bs.contains(&b)),
            OwnedStart::DigitsThen(bs) => after_digits.is_some_and(|b| bs.contains(&b)),
        }
    }
}

/// The test for a line of a log family other than one (a GC family, or a performance log):
/// that family's parser skips such lines. Built once per family (it is asked for every
/// line): the other families, each with the first byte of the lines it owns.
pub struct Foreign {
    others: Vec<(OwnedStart, GcFormat)>,
    perf: Vec<(OwnedStart, PerfFormat)>,
    /// A line whose start none of them admits is no other family's, told without a call:
    /// the first bytes and the bytes after leading digits some family admits, or all.
    first: [bool; 256],
    after_digits: [bool; 256],
    any: bool,
}

impl Foreign {
    pub fn to(me: GcFormat) -> Foreign {
        let others: Vec<_> = GC_FAMILIES
            .iter()
            .copied()
            .filter(|&f| f != me)
            .map(|f| (f.owned_lines_start(), f))
            .collect();
        let perf: Vec<_> = perf_families()
            .map(|f| (f.owned_lines_start(), f))
            .collect();
        let (mut first, mut after_digits, mut any) = ([false; 256], [false; 256], false);
        for s in others.iter().map(|o| o.0).chain(perf.iter().map(|p| p.0)) {
            match s {
                OwnedStart::Any => any = true,
                OwnedStart::Bytes(bs) => bs.iter().for_each(|&b| first[b as usize] = true),
                OwnedStart::DigitsThen(bs) => {
                    bs.iter().for_each(|&b| after_digits[b as usize] = true)
                }
            }
        }
        Foreign {
            others,
            perf,
            first,
            after_digits,
            any,
        }
    }

    #[inline]
    pub fn test(&self, line: &[u8]) -> bool {
        let Some(&b0) = line.first() else {
            return false;
        };
        let after_digits = if b0.is_ascii_digit() {
            let n = line.iter().take_while(|b| b.is_ascii_digit()).count();
            line.get(n).copied()
        } else {
            None
        };
        if !self.any
            && !self.first[b0 as usize]
            && !after_digits.is_some_and(|b| self.after_digits[b as usize])
        {
            return false;
        }
        let asks = |s: OwnedStart| s.admits(Some(b0), after_digits);
        self.perf.iter().any(|&(s, f)| asks(s) && f.owns(line))
            || self.others.iter().any(|&(s, f)| asks(s) && f.owns(line))
    }
}

/// A line's leading `[...]` decorations, at most six: each with what follows it, the walk
/// going on while another decoration follows.
pub(crate) fn decorations(line: &[u8]) -> impl Iterator<Item = (usize, &[u8], &[u8])> {
    let mut rest = (line.first() == Some(&b'[')).then_some(line);
    (0..6).map_while(move |k| {
        let r = rest.take()?;
        let close = memchr::memchr(b']', r)?;
        let after = &r[close + 1..];
        if after.first() == Some(&b'[') {
            rest = Some(after);
        }
        Some((k, &r[1..close], after))
    })
}

/// A time decoration: `0.014s`, `233ms`, `1,474s`, `2019-09-28T14:32:59.988+0000`, `Wed Nov
/// 16 15:02:13 2005`.
pub(crate) fn time_like(d: &[u8]) -> bool {
    use super::num::{asctime_prefix, iso_datetime_prefix};
    if iso_datetime_prefix(d).is_some_and(|(_, n)| n == d.len())
        || asctime_prefix(d).is_some_and(|(_, n)| n == d.len())
    {
        return true;
    }
    let n = d
        .iter()
        .take_while(|&&b| b.is_ascii_digit() || b == b'.' || b == b',')
        .count();
    d.first().is_some_and(u8::is_ascii_digit) && matches!(&d[n..], b"s" | b"ms" | b"ns" | b"us")
}

/// A log level decoration: `info`, `warning` (unified), `INFO `, `ERROR` (JRockit R28).
pub(crate) fn is_level(d: &[u8]) -> bool {
    const LEVELS: [&[u8]; 6] = [b"trace", b"debug", b"info", b"warning", b"warn", b"error"];
    let d = super::num::trim(d);
    LEVELS.iter().any(|l| d.eq_ignore_ascii_case(l))
}

/// A family's parser for one block of a log, fed more blocks while the join needs it to read
/// on (`stream::Joiner`). `Any`: the join tells two blocks' parsers' families apart, and a
/// parser reads the one beside it as its own type, through `&dyn Any`.
pub trait BlockParser: Send + Any {
    /// Read the lines of `block`, after the lines read so far.
    fn feed(&mut self, block: &[u8]);

    /// Nothing is open that later lines would complete: a block may end here.
    fn idle(&self) -> bool;

    /// The lines read so far depended on what came before them: a block parsed on its own
    /// may have read them wrong.
    fn consulted(&self) -> bool;

    /// With `self` idle and `next` (the following block parsed on its own) not consulted:
    /// would one pass have read `next` the same after `self`? (`next` is of this family.)
    fn continues_into(&self, _next: &dyn BlockParser) -> bool {
        true
    }

    /// Take over what the parser of the block before leaves open that one pass would still
    /// hold here.
    fn adopt(&mut self, _prev: &dyn BlockParser) {}

    /// The block's log, the columns its settled events went to (they come before
    /// `log.events`), and for a family that names its collector once, the collectors.
    fn finish(self: Box<Self>) -> Block;

    /// Programs after a block parsed and before it is joined (JRockit: settle what its
    /// first lines left open).
    fn warm(&mut self) {}
}

/// What a block's parse gives the join.
pub struct Block {
    pub log: GcLog,
    pub cols: Option<GcColumns>,
    pub collectors: Option<Collectors>,
}

impl From<(GcLog, Option<GcColumns>)> for Block {
    /// A block of a family whose records name their collector (or none).
    fn from((log, cols): (GcLog, Option<GcColumns>)) -> Block {
        Block {
            log,
            cols,
            collectors: None,
        }
    }
}

/// For a family whose log names its collector once (`Using G1`), not on every record: the
/// block's events before its first naming ran under the collector the blocks before left in
/// use, decided when joined.
#[derive(Debug, Clone, Default)]
pub struct Collectors {
    /// The latest collector named at the block's end (block-local string id, 0: none).
    pub last: u32,
    /// The block's first one (0: none).
    pub first: u32,
    /// Evidence for a guess, one bit per `Family::collector_guesses` entry.
    pub hints: u32,
}

/// The guess for a log that names no collector: the first hinted, by precedence.
pub fn guess_collector(family: GcFormat, hints: u32) -> Option<&'static str> {
    family
        .collector_guesses()
        .iter()
        .enumerate()
        .find_map(|(i, n)| (hints & (1 << i) != 0).then_some(*n))
}
