//! Typed records produced by the parsers. No I/O, no polars: `frame` turns these into DataFrames.

use serde::Serialize;

/// How a GC log family's stamps place its records on a wall clock (correlation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GcClock {
    /// Date stamps carry their UTC offset (else local time, the offset unknown).
    pub writes_offset: bool,
    /// Wall-clock stamps without a date (epoch stamps) are UTC.
    pub undated_is_utc: bool,
    /// Wall-clock stamps are cut to whole seconds: a record's millisecond comes from its
    /// uptime.
    pub whole_seconds: bool,
}

/// What a record stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Record {
    /// One stop-the-world GC pause.
    #[default]
    Pause = 0,
    /// A whole collection whose individual pauses are itemised as `Pause` records with the
    /// same `gc_id` (JRockit with `-Xverbose:gcpause`). Its duration is the sum of its pauses.
    Collection = 1,
    /// A concurrent phase: the application keeps running, so never counted as a pause.
    Concurrent = 2,
    /// A safepoint stop (`Total time for which application threads were stopped`, JDK 17+
    /// `Safepoint "..."`): kept apart from GC pauses.
    Safepoint = 3,
    /// A thread-level stall (ZGC `Allocation Stall`, `Relocation Stall`): one application
    /// thread waited for the collector while the others ran, so it is neither a pause nor a
    /// safepoint; counted and summed apart from both.
    Stall = 4,
    /// A collection run inside another stop (the young collection of a CMS remark with
    /// `-XX:+CMSScavengeBeforeRemark`, a full collection inside a failed young one): one
    /// stop, one pause, whose duration is the outer stop's; this collection counts as a
    /// collection, its time (`duration_ms`, its own) part of the enclosing pause's, never a
    /// pause of its own.
    Nested = 5,
}

impl Record {
    /// Every record, in code order: `Record::ALL[r.code() as usize] == r`.
    pub const ALL: [Record; 6] = [
        Record::Pause,
        Record::Collection,
        Record::Concurrent,
        Record::Safepoint,
        Record::Stall,
        Record::Nested,
    ];

    /// The record as the GC frame stores it (`frame::gc::RECORD`): its number above. Stable:
    /// frames and filters are written against these numbers.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The record of a `code()`; `None` for a number no record has.
    pub fn from_code(code: u8) -> Option<Record> {
        Record::ALL.get(usize::from(code)).copied()
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Record::Pause => "pause",
            Record::Collection => "collection",
            Record::Concurrent => "concurrent",
            Record::Safepoint => "safepoint",
            Record::Stall => "stall",
            Record::Nested => "nested",
        }
    }
}

/// The kind of a GC event, as far as the log tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Young = 0,
    Mixed = 1,
    /// An old-generation collection that is not a full GC (JRockit OC, Shenandoah/ZGC cycles).
    Old = 2,
    Full = 3,
    InitialMark = 4,
    Remark = 5,
    Cleanup = 6,
    /// A pause inside a concurrent cycle that has no better name (Shenandoah/ZGC phases...).
    #[default]
    Other = 7,
}

impl Kind {
    /// Every kind, in code order: `Kind::ALL[k.code() as usize] == k`.
    pub const ALL: [Kind; 8] = [
        Kind::Young,
        Kind::Mixed,
        Kind::Old,
        Kind::Full,
        Kind::InitialMark,
        Kind::Remark,
        Kind::Cleanup,
        Kind::Other,
    ];

    /// The kind as the GC frame stores it (`frame::gc::KIND`): its number above. Stable, like
    /// `Record::code`.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The kind of a `code()`; `None` for a number no kind has.
    pub fn from_code(code: u8) -> Option<Kind> {
        Kind::ALL.get(usize::from(code)).copied()
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Young => "young",
            Kind::Mixed => "mixed",
            Kind::Old => "old",
            Kind::Full => "full",
            Kind::InitialMark => "initial-mark",
            Kind::Remark => "remark",
            Kind::Cleanup => "cleanup",
            Kind::Other => "other",
        }
    }
}

/// `GcEvent::flags`: the collection's text says `promotion failed` (HotSpot).
pub const FLAG_PROMOTION_FAILED: u8 = 1;
/// `GcEvent::flags`: the collection's text says `concurrent mode failure` (HotSpot CMS).
pub const FLAG_CONCURRENT_MODE_FAILURE: u8 = 2;

/// `GcEvent::flags`: the collection ran out of to-space (unified G1 `To-space exhausted`).
pub const FLAG_TO_SPACE_EXHAUSTED: u8 = 4;

/// One event. Strings (collector, cause, phase name) are interned in `GcLog::strings` so that
/// parsing allocates per distinct name, not per event.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GcEvent {
    pub record: Record,
    pub kind: Kind,
    /// Start, seconds since JVM start, where the log says it.
    pub uptime_s: Option<f64>,
    /// Start, wall clock (milliseconds since the Unix epoch, local time of the log taken as UTC),
    /// where the log says it.
    pub wall_ms: Option<i64>,
    /// The offset from UTC that the wall-clock stamp carried, in quarter hours east (`+0100`
    /// 4, `+0545` 23, `-0330` -14, `Z` 0): each stamp's own, so that a log that crosses a DST
    /// change gets the right instant on both sides of it. None where the stamp writes no
    /// offset, the event has no wall-clock stamp, or the offset is not a whole number of
    /// quarter hours or is beyond ±14 h.
    pub utc_offset_qh: Option<i8>,
    pub duration_ms: f64,
    /// A safepoint's time to safepoint (JDK 17+ `Reaching safepoint: N ns`, JDK 9-16 and 8
    /// `Stopping threads took: N seconds`), ms: part of `duration_ms`, the whole stop, kept
    /// apart so that a slow reach (a thread in a long counted loop) is told from a slow
    /// operation. None for other records and where the log does not say.
    pub ttsp_ms: Option<f64>,
    /// Interned: collector or generation name, e.g. "ParNew", "G1", "Nursery". 0 = unknown.
    pub collector: u32,
    /// Interned: GC cause, e.g. "Allocation Failure". 0 = none.
    pub cause: u32,
    /// Interned: the phase / event name as the log writes it, e.g. "Pause Young (Normal)",
    /// "CMS-concurrent-mark", "OC:Main". 0 = none.
    pub name: u32,
    pub heap_before_kb: Option<u64>,
    pub heap_after_kb: Option<u64>,
    pub heap_total_kb: Option<u64>,
    /// Young-generation occupancy before and after, K, where the log gives the young
    /// generation's own figures (HotSpot `[PSYoungGen: 100K->10K(200K)]`, `DefNew`, `ParNew`).
    pub young_before_kb: Option<u64>,
    pub young_after_kb: Option<u64>,
    /// K promoted to the old generation as the log states it (JRockit R28 `YC promoted
    /// 218702 objects (36668KB)`).
    pub promoted_kb: Option<u64>,
    /// What the log says went wrong in this collection: `FLAG_*` bits (0 = nothing).
    pub flags: u8,
    /// Collection number where the log has one (JRockit `[OC#3]`, unified `GC(3)`; HotSpot
    /// `-XX:+PrintGCID` `#3:` stamps are read past, not kept yet).
    pub gc_id: Option<u64>,
    /// True for a `Pause` that is itemised under a `Collection` record with the same `gc_id`.
    pub in_collection: bool,
    /// `gc_id` is a number the parser gave a collection the log does not number (JRockit
    /// 1.4/5.0), counted from 1 in the log: a log read in blocks numbers each block's on from
    /// the blocks before.
    pub invented_id: bool,
    /// 1-based line number where the event starts.
    pub line: u64,
}

/// The rows a family's log-wide rule reads and changes (`Family::end_of_log`), written once
/// for both of a log's shapes: its events (a log parsed in one pass) and its columns (a log
/// joined from blocks). String ids are the log's.
pub trait Rows {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn record(&self, i: usize) -> Record;
    fn kind(&self, i: usize) -> Kind;
    fn collector(&self, i: usize) -> u32;
    fn set_collector(&mut self, i: usize, id: u32);
    fn gc_id(&self, i: usize) -> Option<u64>;
    fn duration_ms(&self, i: usize) -> f64;
    fn set_duration_ms(&mut self, i: usize, ms: f64);
    fn set_in_collection(&mut self, i: usize, v: bool);
}

impl Rows for Vec<GcEvent> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn record(&self, i: usize) -> Record {
        self[i].record
    }
    fn kind(&self, i: usize) -> Kind {
        self[i].kind
    }
    fn collector(&self, i: usize) -> u32 {
        self[i].collector
    }
    fn set_collector(&mut self, i: usize, id: u32) {
        self[i].collector = id;
    }
    fn gc_id(&self, i: usize) -> Option<u64> {
        self[i].gc_id
    }
    fn duration_ms(&self, i: usize) -> f64 {
        self[i].duration_ms
    }
    fn set_duration_ms(&mut self, i: usize, ms: f64) {
        self[i].duration_ms = ms;
    }
    fn set_in_collection(&mut self, i: usize, v: bool) {
        self[i].in_collection = v;
    }
}

/// Give rows `..upto` that have no collector (safepoints apart) collector `id`: the
/// collector a log names once (`Using G1`), for the records before the naming.
pub fn fill_collector(rows: &mut dyn Rows, upto: usize, id: u32) {
    for i in 0..upto.min(rows.len()) {
        if rows.collector(i) == 0 && rows.record(i) != Record::Safepoint {
            rows.set_collector(i, id);
        }
    }
}

/// A small string interner: index 0 is the empty string ("none"). Looked up by bytes, so a
/// parser interns straight from its input without allocating for names it has seen.
#[derive(Debug, Clone)]
pub struct Strings {
    list: Vec<String>,
    map: std::collections::HashMap<Vec<u8>, u32>,
    /// The ids handed out last, compared before hashing: a log repeats a few names and causes
    /// (SipHash per pause was 3 % of a unified log's parse).
    recent: [u32; RECENT],
    next_recent: usize,
}

/// Strings `Strings` compares before hashing: more than a log's usual names, collectors and
/// causes (every parser interns through it; none keeps a cache of its own).
const RECENT: usize = 16;

impl Default for Strings {
    fn default() -> Self {
        Strings {
            list: vec![String::new()],
            map: std::collections::HashMap::from([(Vec::new(), 0)]),
            recent: [0; RECENT],
            next_recent: 0,
        }
    }
}

impl Strings {
    pub fn intern(&mut self, s: &str) -> u32 {
        self.intern_bytes(s.as_bytes())
    }
    /// Intern raw bytes (not UTF-8: stored lossily, keyed by the bytes).
    pub fn intern_bytes(&mut self, b: &[u8]) -> u32 {
        // A recent id's string equal to the bytes is their id: only ids whose string is
        // their key's bytes are recent (one stored lossily could equal other bytes).
        for &i in &self.recent {
            if self.list.get(i as usize).is_some_and(|s| s.as_bytes() == b) {
                return i;
            }
        }
        let i = self.map.get(b).copied().unwrap_or_else(|| {
            let i = self.list.len() as u32;
            self.list.push(String::from_utf8_lossy(b).into_owned());
            self.map.insert(b.to_vec(), i);
            i
        });
        if self.list.get(i as usize).is_some_and(|s| s.as_bytes() == b) {
            self.recent[self.next_recent] = i;
            self.next_recent = (self.next_recent + 1) % RECENT;
        }
        i
    }
    /// Intern bytes as text: decoded lossily, keyed by the decoded string (invalid bytes
    /// that decode alike share an id). ASCII is UTF-8 as it is, without the validation's
    /// call (2 % of a JRockit log's parse).
    pub fn intern_lossy(&mut self, b: &[u8]) -> u32 {
        if b.is_ascii() {
            return self.intern_bytes(b);
        }
        self.intern(&String::from_utf8_lossy(b))
    }
    /// The id of `s` if it was interned.
    pub fn find(&self, s: &str) -> Option<u32> {
        self.map.get(s.as_bytes()).copied()
    }
    /// Number of ids handed out, the empty string's 0 included.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    pub fn is_empty(&self) -> bool {
        self.list.len() <= 1
    }
    pub fn get(&self, i: u32) -> &str {
        self.list.get(i as usize).map(String::as_str).unwrap_or("")
    }
    /// Every string by id (index 0 is the empty string).
    pub fn list(&self) -> &[String] {
        &self.list
    }
}

/// A line the parser could not make sense of: kept (the first few) for the stderr report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub line: u64,
    pub text: String,
}

/// How many bad lines are kept verbatim for the report; the rest are only counted.
pub const BAD_LINES_KEPT: usize = 5;

/// Keep a not-understood line verbatim (cut to 200 bytes) while fewer than
/// `BAD_LINES_KEPT` are kept.
fn keep_bad(bad: &mut Vec<BadLine>, line: u64, text: &[u8]) {
    if bad.len() < BAD_LINES_KEPT {
        // Cut the bytes first (a few more than kept, for a character cut in the middle), so
        // a 20 MB line costs 200 bytes here, not a 20 MB copy.
        let mut t = String::from_utf8_lossy(&text[..text.len().min(204)]).into_owned();
        t.truncate(t.floor_char_boundary(200));
        bad.push(BadLine { line, text: t });
    }
}

/// The `GcLog::meta` key under which a parser says what the log holds that gives no row by
/// design (metronome's heartbeat summaries of many pauses): said beside the figures, and as
/// the reason when there is no row.
pub const META_UNCOUNTED: &str = "uncounted";

/// Everything a GC parser learned from one log.
///
/// Every line is accounted for exactly once: `lines == record_lines + ignored_lines +
/// skipped_lines` (tests check it for every family).
#[derive(Debug, Clone, Default)]
pub struct GcLog {
    pub events: Vec<GcEvent>,
    pub strings: Strings,
    /// Run metadata in log order: ("gc_strategy", "gencon"), ("heap_size_kb", "1048576"), ...
    pub meta: Vec<(String, String)>,
    /// Lines in the input (a last line without newline counts).
    pub lines: u64,
    /// Lines that are part of a record: an event's own lines, the lines it spans, and the
    /// detail lines that belong to it.
    pub record_lines: u64,
    /// Lines the format defines as carrying no record: blank lines, headers, heap dumps,
    /// tenuring distribution, flag dumps, application output the JVM is known to interleave.
    pub ignored_lines: u64,
    /// Lines not understood (neither part of a record, nor an ignorable line), or records
    /// whose values cannot be true (see `GcEvent::implausible`).
    pub skipped_lines: u64,
    pub bad: Vec<BadLine>,
    /// Of the skipped lines kept block by block (`BAD_LINES_KEPT` a block, where `bad` keeps
    /// the log's first), those of another log family (`family::Foreign`): the sign that a
    /// streamed file changes family part-way (`load::in_parts`).
    pub other_family_lines: u64,
}

impl GcLog {
    /// An empty log whose events go into `events` (emptied): a streamed log's blocks reuse
    /// their buffers instead of faulting in fresh memory for each.
    pub fn reusing(mut events: Vec<GcEvent>) -> GcLog {
        events.clear();
        GcLog {
            events,
            ..GcLog::default()
        }
    }

    /// What the log holds and gives no row for by design, as its parser said it
    /// (`META_UNCOUNTED`).
    pub fn uncounted(&self) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == META_UNCOUNTED)
            .map(|(_, v)| v.as_str())
    }

    /// Count a line as not understood; keep the first few verbatim.
    pub fn skip(&mut self, line: u64, text: &[u8]) {
        self.skip_lines(line, 1, text);
    }
    /// Count `n` lines starting at `line` (one record spread over them) as not understood.
    pub fn skip_lines(&mut self, line: u64, n: u64, text: &[u8]) {
        self.skipped_lines += n;
        keep_bad(&mut self.bad, line, text);
    }
    /// Keep `ev` if its values can be true; otherwise leave it out and return the reason, so
    /// that the parser counts the record's lines as skipped.
    #[inline]
    pub fn push_checked(&mut self, ev: GcEvent) -> Result<(), &'static str> {
        if let Some(why) = ev.implausible() {
            return Err(why);
        }
        self.events.push(ev);
        Ok(())
    }
}

/// Longest GC pause or phase believed: a day. Longer is damage (`1e308 secs`), not a pause.
pub const MAX_DURATION_MS: f64 = 86_400_000.0;
/// Largest uptime believed, in seconds: about 317 years.
pub const MAX_UPTIME_S: f64 = 1e10;
/// Largest heap figure believed: 2^53 K, the largest integer a double holds exactly.
pub const MAX_HEAP_KB: u64 = 1 << 53;

impl GcEvent {
    /// The event with nothing else known: no stamps, names, heap figures or flags.
    pub fn new(record: Record, kind: Kind, duration_ms: f64, line: u64) -> Self {
        GcEvent {
            record,
            kind,
            duration_ms,
            line,
            ..GcEvent::default()
        }
    }
    /// Why the event's values cannot be true, if they cannot: durations that are not finite,
    /// negative or longer than a day, uptimes that are not finite or negative, heap sizes over
    /// 2^53 K. Such an event is skipped and counted, never read as something else.
    #[inline]
    pub fn implausible(&self) -> Option<&'static str> {
        implausible_values(
            self.duration_ms,
            self.ttsp_ms,
            self.uptime_s,
            &[
                self.heap_before_kb,
                self.heap_after_kb,
                self.heap_total_kb,
                self.young_before_kb,
                self.young_after_kb,
                self.promoted_kb,
            ],
        )
    }
}

/// `GcEvent::implausible` of an event with these values (a parser checks a line's figures
/// before it builds anything from them).
pub fn implausible_values(
    d: f64,
    ttsp_ms: Option<f64>,
    uptime_s: Option<f64>,
    heaps: &[Option<u64>],
) -> Option<&'static str> {
    if !d.is_finite() {
        return Some("duration is not a finite number");
    }
    if d < 0.0 {
        return Some("negative duration");
    }
    if d > MAX_DURATION_MS {
        return Some("duration over a day");
    }
    // NaN and the infinities are outside either range.
    if ttsp_ms.is_some_and(|t| !(0.0..=MAX_DURATION_MS).contains(&t)) {
        return Some("time to safepoint out of range");
    }
    if uptime_s.is_some_and(|u| !(-1.0..=MAX_UPTIME_S).contains(&u)) {
        return Some("uptime out of range");
    }
    if heaps.iter().flatten().any(|&k| k > MAX_HEAP_KB) {
        return Some("heap size over 2^53 K");
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Application performance logs
// ---------------------------------------------------------------------------------------------

/// Request stamps outside these instants (1990-01-01T00:00:00 to 2100-01-01T00:00:00, ms) are
/// not times: JMeter before 5.5 stamps a sample that failed with an exception 1970-01-01,
/// load-tool plugins write 0 where they had no time, and a stamp centuries ahead is damage.
/// Such a request is kept (counted, its time and outcome in the figures) with no place on the
/// clock: its `end_ms` is null in the frame.
pub const PERF_CLOCK_MS: std::ops::Range<i64> = 631_152_000_000..4_102_444_800_000;

/// One measured operation (a web-service call, a JMeter sample, a Grinder test run).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PerfRecord {
    /// When the operation ended: milliseconds since the Unix epoch. Dates written as text are
    /// local time taken as UTC, like `GcEvent::wall_ms`; JMeter and Grinder epoch stamps are
    /// true epoch milliseconds, kept as they are.
    pub end_ms: i64,
    /// Whole operation, ms.
    pub total_ms: f64,
    /// Time in Java, ms (semicolon log only).
    pub java_ms: Option<f64>,
    /// Time in the database (PL/SQL), ms (semicolon log only).
    pub db_ms: Option<f64>,
    /// Number of database calls (semicolon log only).
    pub db_calls: Option<u32>,
    /// Interned in `PerfLog::strings`: operation name, JMeter label, `test <n>` for The Grinder.
    pub operation: u32,
    /// False when the operation failed (`e-`, JMeter `success=false`, Grinder `Errors > 0`).
    pub ok: bool,
    /// A failed operation's message, interned in `PerfLog::strings` beside the operation
    /// names: the semicolon log's `e-` text, JMeter's `responseCode/responseMessage` (the
    /// assertion's failure message where the code is a success), The Grinder's error count
    /// and HTTP code. None for operations that did not fail.
    pub error: Option<u32>,
    /// Java + DB time differs from the total (semicolon log): kept, but flagged.
    pub inconsistent: bool,
    /// 1-based line number where the record starts.
    pub line: u64,
}

impl PerfRecord {
    /// A request of a load tool's or web server's log: no Java/DB split, nothing to flag.
    pub fn request(
        end_ms: i64,
        total_ms: f64,
        operation: u32,
        ok: bool,
        error: Option<u32>,
        line: u64,
    ) -> PerfRecord {
        PerfRecord {
            end_ms,
            total_ms,
            operation,
            ok,
            error,
            line,
            ..PerfRecord::default()
        }
    }
}

/// Everything a performance-log parser learned from one log.
#[derive(Debug, Clone, Default)]
pub struct PerfLog {
    pub records: Vec<PerfRecord>,
    pub strings: Strings,
    /// Lines in the input (a last line without newline counts).
    pub lines: u64,
    /// Lines that are part of a record (a JTL record may span lines in a quoted field).
    pub record_lines: u64,
    /// Lines the format defines as carrying no record: blank lines, header rows.
    pub ignored_lines: u64,
    /// Lines not understood (neither a record nor a header / blank line), or records whose
    /// values cannot be true. `lines == record_lines + ignored_lines + skipped_lines`.
    pub skipped_lines: u64,
    pub bad: Vec<BadLine>,
    /// As `GcLog::other_family_lines`.
    pub other_family_lines: u64,
    /// Its stamps are local wall time though its family's are UTC instants (an IIS log of
    /// `date-local`, `time-local`): it is placed on a clock as local time is.
    pub local_stamps: bool,
    /// How a JMeter log's stamps read, thread by thread (`StampOrder`).
    pub stamps: StampOrder,
}

/// A JMeter log's requests taken thread by thread, each after the one before it in the same
/// thread: how many such pairs, and how many would overlap (the later begun before the earlier
/// ended) were `timeStamp` each request's start, and were it each one's end. A JMeter thread
/// runs one request at a time, so a reading that makes its requests overlap is not the log's.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct StampOrder {
    pub pairs: u64,
    pub overlap_as_starts: u64,
    pub overlap_as_ends: u64,
}

impl StampOrder {
    pub fn add(&mut self, o: StampOrder) {
        self.pairs += o.pairs;
        self.overlap_as_starts += o.overlap_as_starts;
        self.overlap_as_ends += o.overlap_as_ends;
    }

    /// The stamps are the requests' ends (JMeter wrote ends until its properties set
    /// `sampleresult.timestamp.start=true` in 2006, and writes them with it false): read as
    /// starts, at least a tenth of the pairs overlap, read as ends at most one in a hundred, of
    /// at least 20 pairs. A log whose threads run requests side by side (sub-results,
    /// transaction parents) overlaps either way and keeps the starts.
    pub fn ends(&self) -> bool {
        self.pairs >= 20
            && self.overlap_as_starts * 10 >= self.pairs
            && self.overlap_as_ends * 100 <= self.pairs
    }
}

impl PerfLog {
    /// Count a line as not understood; keep the first few verbatim (cut to 200 bytes).
    pub fn skip(&mut self, line: u64, text: &[u8]) {
        self.skipped_lines += 1;
        keep_bad(&mut self.bad, line, text);
    }
}

/// `x.round()` (half away from zero), bit for bit, without the libm call `round` is on
/// x86-64's baseline (no SSE4.1 rounding instruction): a call for every duration and wall
/// stamp was 1-2 % of a GC log's time, the rounding of its durations among it.
#[inline]
pub fn round(x: f64) -> f64 {
    // From 2^52 on every double is an integer (the infinities too); NaN is NaN.
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let i = x as i64;
    // Exact: the fraction of a double below 2^52.
    let frac = x - i as f64;
    let r = i + i64::from(frac >= 0.5) - i64::from(frac <= -0.5);
    // A zero keeps the sign of `x` (`(-0.3).round()` is -0.0); any other result has it.
    (r as f64).copysign(x)
}
