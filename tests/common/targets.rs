//! What a fuzz case is run through, and the checks after it: shared by `benches/fuzz.rs` and
//! `tests/hostile.rs`. A case either panics (caught by `guarded`), or returns the problems
//! found: values no log can hold, and lines not accounted for.
#![allow(dead_code)]

use super::mutate::Family;
use gcperf::model::{GcLog, PerfLog};
use gcperf::parse::family::{GcFormat, PerfFormat, GC_FAMILIES, PERF_FAMILIES};
use std::cell::{Cell, RefCell};
use std::path::Path;
use std::sync::{Mutex, Once};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A GC family's parser: one pass, and in small blocks.
    Gc(GcFormat),
    /// A performance-log family's parser.
    Perf(PerfFormat),
    /// `input::detect` (and `parse::perf::detect`).
    Detect,
    /// The whole library path on a file: `load_any`, the summary and the other analyses.
    Load,
}

impl Target {
    /// Every family of the registries, detection and the load path.
    pub fn all() -> Vec<Target> {
        GC_FAMILIES
            .iter()
            .copied()
            .map(Target::Gc)
            .chain(PERF_FAMILIES.iter().copied().map(Target::Perf))
            .chain([Target::Detect, Target::Load])
            .collect()
    }
    pub fn name(self) -> &'static str {
        match self {
            Target::Detect => "detect",
            Target::Load => "load",
            t => t.family().map_or("", Family::name),
        }
    }
    pub fn from_name(s: &str) -> Option<Target> {
        Target::all().into_iter().find(|t| t.name() == s)
    }
    /// The family whose seeds are this target's bases (None: every seed).
    pub fn family(self) -> Option<Family> {
        match self {
            Target::Gc(f) => Some(Family::Gc(f)),
            Target::Perf(f) => Some(Family::Perf(f)),
            Target::Detect | Target::Load => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A value no log can hold: a duration not finite, negative or over a day...
    Value,
    /// `lines != record_lines + ignored_lines + skipped_lines`, or `lines` not the input's.
    Accounting,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Value => "value",
            Kind::Accounting => "accounting",
        }
    }
}

/// One thing wrong with a case's result. `key` names the kind of fault without numbers (so
/// that faults can be told apart by it); `detail` has this case's figures.
#[derive(Debug, Clone)]
pub struct Problem {
    pub kind: Kind,
    pub key: String,
    pub detail: String,
}

#[derive(Debug, Clone, Copy)]
pub struct Checks {
    pub values: bool,
    pub accounting: bool,
}

/// A caught panic: where (`file:line:col`, the key) and what it said.
#[derive(Debug, Clone)]
pub struct Crash {
    pub location: String,
    pub message: String,
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST: RefCell<Option<Crash>> = const { RefCell::new(None) };
}
/// Panics on other threads (polars and rayon workers) while a guarded case runs: the
/// payload comes back to the caller without its location, so it is kept here.
static OTHER: Mutex<Option<Crash>> = Mutex::new(None);
static GUARDED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Print no panic at all (the fuzzer's worker process: its supervisor gets them as messages).
static SILENT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn set_silent(on: bool) {
    SILENT.store(on, std::sync::atomic::Ordering::SeqCst);
}

fn message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

/// A panic hook that keeps the location of panics inside `guarded` and prints nothing for
/// them; other panics (a test's own assertions) print as usual.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let crash = Crash {
                location: info.location().map_or_else(
                    || "unknown".to_string(),
                    |l| format!("{}:{}:{}", l.file(), l.line(), l.column()),
                ),
                message: message(info.payload()),
            };
            if QUIET.with(Cell::get) {
                LAST.with(|l| *l.borrow_mut() = Some(crash));
                return;
            }
            if GUARDED.load(std::sync::atomic::Ordering::SeqCst) > 0 {
                if let Ok(mut o) = OTHER.lock() {
                    *o = Some(crash);
                }
            }
            if !SILENT.load(std::sync::atomic::Ordering::SeqCst) {
                default(info);
            }
        }));
    });
}

/// Run `f`, turning a panic into a `Crash`.
pub fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, Crash> {
    install_hook();
    QUIET.with(|q| q.set(true));
    LAST.with(|l| *l.borrow_mut() = None);
    GUARDED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARDED.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    QUIET.with(|q| q.set(false));
    r.map_err(|payload| {
        LAST.with(|l| l.borrow_mut().take())
            .or_else(|| OTHER.lock().ok().and_then(|mut o| o.take()))
            .unwrap_or_else(|| Crash {
                location: "unknown".to_string(),
                message: message(&*payload),
            })
    })
}

/// Run one case through `target`. `with_load` also sends it down the whole library path
/// (the `load` target always does); `dir` is where that path's file is written.
pub fn run(
    target: Target,
    buf: &[u8],
    checks: Checks,
    dir: &Path,
    with_load: bool,
) -> Vec<Problem> {
    let mut out = Vec::new();
    match target {
        Target::Gc(f) => gc(
            &mut out,
            f.as_str(),
            &gcperf::parse::parse_one(f, buf),
            buf,
            checks,
        ),
        Target::Perf(f) => perf_target(&mut out, f, buf, checks),
        Target::Detect => {
            let _ = gcperf::input::detect(buf);
            let _ = gcperf::parse::perf::detect(buf);
        }
        Target::Load => {}
    }
    if let Target::Gc(format) = target {
        // Read in small blocks too, each block's parser moving its settled events to columns
        // after every few: the streamed path's own code (block edges, the columns, JRockit's
        // windows put in time order) meets the case, not only the one-pass parse.
        let (log, _, _) = gcperf::parse::stream::parse_in_blocks_flushing(
            format,
            buf,
            4096,
            8,
            gcperf::parse::stream::Events::default(),
        );
        gc_log(
            &mut out,
            &format!("{} in blocks", target.name()),
            &log,
            Some(buf),
            checks,
        );
    }
    if with_load || target == Target::Load {
        load(&mut out, buf, checks, dir);
    }
    out
}

fn perf_target(out: &mut Vec<Problem>, f: PerfFormat, buf: &[u8], checks: Checks) {
    let log = gcperf::parse::perf::parse(f, buf);
    perf(out, f.as_str(), &log, Some(buf), checks);
}

fn problem(out: &mut Vec<Problem>, kind: Kind, key: String, detail: String) {
    out.push(Problem { kind, key, detail });
}

/// The line accounting of a log. `buf`: the input, when the log is of all of it.
fn accounting(out: &mut Vec<Problem>, who: &str, l: [u64; 4], buf: Option<&[u8]>) {
    let [lines, record, ignored, skipped] = l;
    if record
        .checked_add(ignored)
        .and_then(|s| s.checked_add(skipped))
        != Some(lines)
    {
        problem(
            out,
            Kind::Accounting,
            format!("{who}: lines != record_lines + ignored_lines + skipped_lines"),
            format!("lines {lines} != {record} + {ignored} + {skipped}"),
        );
    }
    if let Some(buf) = buf {
        // The performance parsers drop a leading BOM; it is no line of its own.
        let want = gcperf::parse::lines::count(buf);
        if lines != want {
            problem(
                out,
                Kind::Accounting,
                format!("{who}: lines != the input's line count"),
                format!("lines {lines}, input has {want}"),
            );
        }
    }
}

fn gc(out: &mut Vec<Problem>, who: &str, log: &GcLog, buf: &[u8], checks: Checks) {
    gc_log(out, who, log, Some(buf), checks);
}

/// `who` names the log in accounting faults; value faults are named by `family` only, so that
/// one found on the load path is the same fault as the parser's own.
fn gc_log(out: &mut Vec<Problem>, who: &str, log: &GcLog, buf: Option<&[u8]>, checks: Checks) {
    let family = who.strip_prefix("load ").unwrap_or(who);
    if checks.values {
        // One problem per reason is enough to tell faults apart.
        let mut seen: Vec<&'static str> = Vec::new();
        for e in &log.events {
            if let Some(why) = e.implausible() {
                if !seen.contains(&why) {
                    seen.push(why);
                    problem(
                        out,
                        Kind::Value,
                        format!("{family} event: {why}"),
                        format!(
                            "line {}: duration_ms {:?}, uptime_s {:?}, heap {:?}/{:?}/{:?}",
                            e.line,
                            e.duration_ms,
                            e.uptime_s,
                            e.heap_before_kb,
                            e.heap_after_kb,
                            e.heap_total_kb
                        ),
                    );
                }
            }
        }
    }
    if checks.accounting {
        accounting(
            out,
            who,
            [
                log.lines,
                log.record_lines,
                log.ignored_lines,
                log.skipped_lines,
            ],
            buf,
        );
    }
}

fn bad_ms(v: f64) -> Option<&'static str> {
    if !v.is_finite() {
        Some("not a finite number")
    } else if v < 0.0 {
        Some("negative")
    } else {
        None
    }
}

fn perf(out: &mut Vec<Problem>, who: &str, log: &PerfLog, buf: Option<&[u8]>, checks: Checks) {
    let family = who.strip_prefix("load ").unwrap_or(who);
    if checks.values {
        let mut seen: Vec<String> = Vec::new();
        for r in &log.records {
            let fields = [
                ("total_ms", Some(r.total_ms)),
                ("java_ms", r.java_ms),
                ("db_ms", r.db_ms),
            ];
            for (name, v) in fields {
                if let Some(why) = v.and_then(bad_ms) {
                    let key = format!("{family} record: {name} {why}");
                    if !seen.contains(&key) {
                        seen.push(key.clone());
                        problem(
                            out,
                            Kind::Value,
                            key,
                            format!("line {}: {name} {:?}", r.line, v),
                        );
                    }
                }
            }
        }
    }
    if checks.accounting {
        let buf = buf.map(|b| b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b));
        accounting(
            out,
            who,
            [
                log.lines,
                log.record_lines,
                log.ignored_lines,
                log.skipped_lines,
            ],
            buf,
        );
    }
}

/// `NaN` or `inf` in a `Debug` rendering, outside string literals (operation names are the
/// input's and may say anything): the field before it.
fn non_finite_in(debug: &str) -> Option<String> {
    let b = debug.as_bytes();
    let mut i = 0;
    let mut field = "";
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &debug[s..i];
                if word == "NaN" || word == "inf" {
                    return Some(field.to_string());
                }
                if b.get(i) == Some(&b':') {
                    field = word;
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// An analysis figure that is not finite. Not looked for when the log's own records already
/// hold such values (the figure only repeats that fault).
fn check_finite(out: &mut Vec<Problem>, checks: Checks, what: &str, debug: String) {
    if !checks.values || out.iter().any(|p| p.kind == Kind::Value) {
        return;
    }
    if let Some(field) = non_finite_in(&debug) {
        problem(
            out,
            Kind::Value,
            format!("load: {what}.{field} is not finite"),
            debug.chars().take(300).collect(),
        );
    }
}

/// The whole library path: the bytes as a file, `load_any`, and every analysis of it.
fn load(out: &mut Vec<Problem>, buf: &[u8], checks: Checks, dir: &Path) {
    use gcperf::load::Input;
    let path = dir.join("case.log");
    if std::fs::write(&path, buf).is_err() {
        return;
    }
    let Ok(input) = gcperf::load::load_any(&path) else {
        return;
    };
    let o = gcperf::analyze::perf::PerfOptions::default();
    match &input {
        Input::Gc(l) => {
            gc_log(
                out,
                &format!("load {}", l.format.as_str()),
                &l.log,
                None,
                checks,
            );
            if checks.values {
                gc_frame_values(out, l.format.as_str(), &l.frame.df);
            }
            let df = &l.frame;
            if let Ok(b) = gcperf::analyze::gc::breakdown(df) {
                check_finite(out, checks, "breakdown", format!("{b:?}"));
            }
            if let Ok(b) = gcperf::analyze::gc::bands(df, &gcperf::analyze::gc::DEFAULT_BANDS) {
                check_finite(out, checks, "bands", format!("{b:?}"));
            }
            if let Ok(h) = gcperf::analyze::gc::heap(df) {
                check_finite(out, checks, "heap", format!("{h:?}"));
            }
            let _ = gcperf::analyze::gc::series(df, 200);
        }
        Input::Perf(l) => {
            let who = format!("load {}", l.format.as_str());
            perf(out, &who, &l.log, None, checks);
            if checks.values {
                frame_values(out, &who, &l.frame.df);
            }
        }
    }
    if let Ok(s) = gcperf::report::summary::FileSummary::of(&input, &o) {
        check_finite(out, checks, "summary", format!("{:?}{:?}", s.gc, s.perf));
        if let (Input::Perf(l), Some(p)) = (&input, &s.perf) {
            let span_ms = p.span_s.map_or(0, |s| (s * 1000.0) as i64);
            let iv = gcperf::analyze::perf::auto_interval_ms(span_ms, p.requests);
            if let Ok(v) = gcperf::analyze::perf::intervals(&l.frame, &o, iv) {
                check_finite(out, checks, "intervals", format!("{v:?}"));
            }
            let _ = gcperf::analyze::perf::split(&p.operations);
        }
    }
}

/// A loaded GC log keeps its events in the frame only: each row's values read back as an
/// event and checked as the parser's events are (the same fault gets the same name).
fn gc_frame_values(out: &mut Vec<Problem>, family: &str, df: &polars::prelude::DataFrame) {
    use gcperf::frame::gc::*;
    use gcperf::model::{GcEvent, Kind as K, Record};
    use polars::prelude::DataType;
    let f = |c: &str| df.column(c).ok()?.cast(&DataType::Float64).ok();
    let u = |c: &str| df.column(c).ok()?.cast(&DataType::UInt64).ok();
    let (Some(d), Some(up), Some(hb), Some(ha), Some(ht), Some(line)) = (
        f(DURATION_MS),
        f(START_S),
        u(HEAP_BEFORE_KB),
        u(HEAP_AFTER_KB),
        u(HEAP_TOTAL_KB),
        u(LINE),
    ) else {
        problem(
            out,
            Kind::Value,
            format!("{family} frame: columns missing"),
            String::new(),
        );
        return;
    };
    let (Ok(d), Ok(up), Ok(hb), Ok(ha), Ok(ht), Ok(line)) =
        (d.f64(), up.f64(), hb.u64(), ha.u64(), ht.u64(), line.u64())
    else {
        problem(
            out,
            Kind::Value,
            format!("{family} frame: column types"),
            String::new(),
        );
        return;
    };
    let mut seen: Vec<&'static str> = Vec::new();
    for i in 0..df.height() {
        let mut e = GcEvent::new(Record::Pause, K::Other, d.get(i).unwrap_or(f64::NAN), 0);
        e.uptime_s = up.get(i);
        e.heap_before_kb = hb.get(i);
        e.heap_after_kb = ha.get(i);
        e.heap_total_kb = ht.get(i);
        if let Some(why) = e.implausible() {
            if !seen.contains(&why) {
                seen.push(why);
                let detail = format!("line {:?}: {e:?}", line.get(i));
                problem(out, Kind::Value, format!("{family} event: {why}"), detail);
            }
        }
    }
}

/// A loaded performance log keeps its records in the frame only.
fn frame_values(out: &mut Vec<Problem>, who: &str, df: &polars::prelude::DataFrame) {
    use gcperf::frame::perf::{DB_MS, JAVA_MS, TOTAL_MS};
    for name in [TOTAL_MS, JAVA_MS, DB_MS] {
        let Ok(c) = df.column(name) else { continue };
        let Ok(ca) = c.f64() else { continue };
        if let Some(why) = (0..ca.len()).filter_map(|i| ca.get(i)).find_map(bad_ms) {
            let family = who.strip_prefix("load ").unwrap_or(who);
            let key = format!("{family} record: {name} {why}");
            problem(out, Kind::Value, key, String::new());
        }
    }
}
