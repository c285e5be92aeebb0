//! A generated semicolon performance log of more than a million lines, bad lines and every
//! tolerated variant mixed in at known rates, checked figure by figure against a ground truth
//! the generator works out itself (no code of the crate involved): line counts, skipped lines,
//! every record, requests, errors, inconsistent rows, first/last time, sums, latency bands,
//! shares over thresholds, percentiles and the per-operation table. Then the release binary on
//! the same file, end to end.

use assert_cmd::Command;
use gcperf::analyze::perf::{summary, PerfOptions};
use gcperf::load::{load_any, Input};
use serde_json::Value;
use std::io::Write;

/// Lines written before the last record (which ends the file without a line break).
const LINES: u64 = 1_050_000;
const SEED: u64 = 0x6763_7065_7266_2021;

const OPS: [&str; 8] = [
    "loadCustomersList",
    "getContract",
    "saveOrder",
    "getBalance",
    "searchCustomer",
    "updateAddress",
    "listInvoices",
    "closeAccount",
];
/// Relative frequency of each operation (sums to 100).
const OP_WEIGHTS: [u64; 8] = [30, 20, 15, 10, 10, 8, 5, 2];

const BAND_LABELS: [&str; 7] = [
    "0",
    "0-50",
    "50-200",
    "200-1000",
    "1000-3000",
    "3000-10000",
    ">10000",
];

/// The band of a total (ms) with the default edges 0, 50, 200, 1000, 3000, 10000:
/// `0` is exactly 0, and t is in a-b when a < t ≤ b.
fn band_of(t: u32) -> usize {
    match t {
        0 => 0,
        1..=50 => 1,
        51..=200 => 2,
        201..=1000 => 3,
        1001..=3000 => 4,
        3001..=10000 => 5,
        _ => 6,
    }
}

/// splitmix64: small, deterministic, good enough for test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// True with probability `per_mille` / 1000.
    fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

// ---------------------------------------------------------------------------------------------
// Calendar (proleptic Gregorian, H. Hinnant's algorithms), independent of the crate
// ---------------------------------------------------------------------------------------------

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Epoch ms as `YYYY-MM-DD{sep}HH:MM:SS{ms_sep}mmm`.
fn stamp(ms: i64, sep: char, ms_sep: char) -> String {
    let (days, in_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, mo, d) = civil_from_days(days);
    let s = in_day / 1000;
    format!(
        "{y:04}-{mo:02}-{d:02}{sep}{:02}:{:02}:{:02}{ms_sep}{:03}",
        s / 3600,
        s / 60 % 60,
        s % 60,
        in_day % 1000
    )
}

// ---------------------------------------------------------------------------------------------
// Ground truth
// ---------------------------------------------------------------------------------------------

/// One record as the generator wrote it.
#[derive(Debug, Clone, PartialEq)]
struct Rec {
    line: u64,
    end_ms: i64,
    total: u32,
    java: u32,
    db: u32,
    calls: u32,
    op: usize,
    ok: bool,
    inconsistent: bool,
}

#[derive(Debug, Default, Clone)]
struct OpTruth {
    count: u64,
    errors: u64,
    total: u64,
    java: u64,
    db: u64,
    calls: u64,
    /// DB and total time of the records whose Java + DB fits in their total: the DB share's.
    db_in_share: u64,
    total_in_share: u64,
    max: u32,
    totals: Vec<u32>,
}

#[derive(Debug, Default)]
struct Truth {
    lines: u64,
    skipped: u64,
    /// Line numbers of the skipped lines, in order.
    skipped_at: Vec<u64>,
    records: Vec<Rec>,
    errors: u64,
    inconsistent: u64,
    /// The first request's start (its end less its time), ms.
    first_ms: Option<i64>,
    last_ms: Option<i64>,
    total: u64,
    java: u64,
    db: u64,
    calls: u64,
    /// As `OpTruth`'s.
    db_in_share: u64,
    total_in_share: u64,
    bands: [u64; 7],
    over50: u64,
    over150: u64,
    ops: [OpTruth; 8],
    /// How many lines of each kind were written (for the report, and to prove every kind
    /// occurs).
    kinds: std::collections::BTreeMap<&'static str, u64>,
}

impl Truth {
    fn record(&mut self, r: Rec) {
        let t = u64::from(r.total);
        self.errors += u64::from(!r.ok);
        self.inconsistent += u64::from(r.inconsistent);
        // The span starts at the first request's start: its end less its time.
        let start = r.end_ms - i64::from(r.total);
        self.first_ms = Some(self.first_ms.map_or(start, |f| f.min(start)));
        self.last_ms = Some(self.last_ms.map_or(r.end_ms, |l| l.max(r.end_ms)));
        self.total += t;
        self.java += u64::from(r.java);
        self.db += u64::from(r.db);
        self.calls += u64::from(r.calls);
        // A record whose Java + DB exceeds its total (inconsistent, Java overshooting) is out of
        // the DB share; one falling short (DB cut) is in it.
        let fits = u64::from(r.java) + u64::from(r.db) <= t;
        let (d_in, t_in) = if fits { (u64::from(r.db), t) } else { (0, 0) };
        self.db_in_share += d_in;
        self.total_in_share += t_in;
        self.bands[band_of(r.total)] += 1;
        self.over50 += u64::from(r.total > 50);
        self.over150 += u64::from(r.total > 150);
        let o = &mut self.ops[r.op];
        o.count += 1;
        o.errors += u64::from(!r.ok);
        o.total += t;
        o.java += u64::from(r.java);
        o.db += u64::from(r.db);
        o.calls += u64::from(r.calls);
        o.db_in_share += d_in;
        o.total_in_share += t_in;
        o.max = o.max.max(r.total);
        o.totals.push(r.total);
        self.records.push(r);
    }

    fn kind(&mut self, k: &'static str) {
        *self.kinds.entry(k).or_default() += 1;
    }

    fn requests(&self) -> u64 {
        self.records.len() as u64
    }
}

/// Linear interpolation between closest ranks (numpy's default): rank = p·(n−1).
fn percentile(sorted: &[u32], p: f64) -> f64 {
    let rank = p * (sorted.len() - 1) as f64;
    let (lo, hi) = (rank.floor() as usize, rank.ceil() as usize);
    let (a, b) = (f64::from(sorted[lo]), f64::from(sorted[hi]));
    a + (b - a) * (rank - lo as f64)
}

fn near(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

// ---------------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------------

/// A total in ms: 0 now and then, band edges exactly now and then, most under 200 ms, a heavy
/// tail past 10 s.
fn sample_total(rng: &mut Rng) -> u32 {
    match rng.below(1000) {
        0..=19 => 0,
        20..=29 => *rng.pick(&[50, 150, 200, 1000, 3000, 10000, 10001, 1]),
        30..=429 => 1 + rng.below(50) as u32,
        430..=729 => 51 + rng.below(150) as u32,
        730..=909 => 201 + rng.below(800) as u32,
        910..=969 => 1001 + rng.below(2000) as u32,
        970..=991 => 3001 + rng.below(7000) as u32,
        // Pareto-like: 10 s and more, a few minutes at most.
        _ => {
            let u = (rng.below(1 << 20) + 1) as f64 / (1u64 << 20) as f64;
            (10_000.0 / u.powf(0.8)).min(600_000.0) as u32 + 1
        }
    }
}

fn pick_op(rng: &mut Rng) -> usize {
    let mut r = rng.below(OP_WEIGHTS.iter().sum());
    for (i, &w) in OP_WEIGHTS.iter().enumerate() {
        if r < w {
            return i;
        }
        r -= w;
    }
    unreachable!()
}

/// Writes the log and works out what it holds.
struct Gen {
    rng: Rng,
    buf: Vec<u8>,
    truth: Truth,
    now_ms: i64,
}

impl Gen {
    /// The line number the next line gets.
    fn next_line(&self) -> u64 {
        self.truth.lines + 1
    }

    /// End the current line: CRLF for one line in ten.
    fn eol(&mut self) {
        self.truth.lines += 1;
        if self.rng.chance(100) {
            self.truth.kind("crlf");
            self.buf.extend_from_slice(b"\r\n");
        } else {
            self.buf.push(b'\n');
        }
    }

    /// What precedes the date: an optional logging-framework layout, then the request id with
    /// or without brackets, then `;`.
    fn id_part(&mut self) -> String {
        let mut s = String::new();
        if self.rng.chance(100) {
            self.truth.kind("layout prefix");
            let logged = self.now_ms + self.rng.below(4) as i64;
            let level = *self.rng.pick(&["INFO", "INFO ", "WARN"]);
            s.push_str(&format!("{} {level} [perf] ", stamp(logged, ' ', ',')));
        }
        let id = format!("{:016X}{:016X}", self.rng.next(), self.rng.next());
        if self.rng.chance(150) {
            self.truth.kind("id without brackets");
            s.push_str(&id);
        } else {
            s.push('[');
            s.push_str(&id);
            s.push(']');
        }
        s.push(';');
        s
    }

    fn date(&mut self) -> String {
        if self.rng.chance(100) {
            self.truth.kind("comma millis");
            stamp(self.now_ms, ' ', ',')
        } else {
            stamp(self.now_ms, ' ', '.')
        }
    }

    /// A well-formed record; `last`: the file's last line, without a line break but with a `;`
    /// after the operation (so visibly not cut while being written), and not an error.
    fn record(&mut self, last: bool) {
        let line = self.next_line();
        let head = self.id_part();
        let date = self.date();
        let op = pick_op(&mut self.rng);
        // Slower operations for the rarer names: a per-operation scale on top of the mixture.
        let mut total = sample_total(&mut self.rng);
        if op >= 5 && total > 0 && total < 100_000 && self.rng.chance(300) {
            total *= 3;
        }
        let calls = if total == 0 {
            0
        } else {
            self.rng.below(13) as u32
        };
        let mut db = self.rng.below(u64::from(total) + 1) as u32;
        let mut java = total - db;
        let inconsistent = self.rng.chance(10);
        if inconsistent {
            self.truth.kind("inconsistent");
            if db > 0 && self.rng.chance(500) {
                db -= 1 + self.rng.below(u64::from(db)) as u32;
            } else {
                java += 1 + self.rng.below(100) as u32;
            }
        }
        let ok = last || !self.rng.chance(30);
        let status = if ok {
            if last || self.rng.chance(500) {
                self.truth.kind("trailing ;");
                ";"
            } else {
                self.truth.kind("no trailing ;");
                ""
            }
        } else {
            self.truth.kind("error");
            *self.rng.pick(&[
                ";e-",
                ";e-",
                ";e-ORA-00060: deadlock detected while waiting for resource",
                ";e-timeout after 30000 ms; retried 3 times; giving up",
                ";e-java.lang.NullPointerException",
                ";e-;",
                ";e-SOAP fault: Server; faultcode=env:Server;",
            ])
        };
        write!(
            self.buf,
            "{head}{date};{total};{java};{db};{calls};{}{status}",
            OPS[op]
        )
        .unwrap();
        if !last {
            self.eol();
        } else {
            self.truth.lines += 1;
        }
        self.truth.kind("record");
        self.truth.record(Rec {
            line,
            end_ms: self.now_ms,
            total,
            java,
            db,
            calls,
            op,
            ok,
            inconsistent,
        });
    }

    /// A line that must be skipped and counted.
    fn bad(&mut self) {
        let line = self.next_line();
        let date = stamp(self.now_ms, ' ', '.');
        let op = OPS[pick_op(&mut self.rng)];
        let text = match self.rng.below(6) {
            0 => {
                self.truth.kind("bad: too few fields");
                let head = self.id_part();
                match self.rng.below(4) {
                    0 => format!("{head}{date};813;78;735"),
                    1 => format!("{head}{date};813;78;735;2"),
                    2 => format!("{head}{date};813;78;735;2;"),
                    _ => format!("{head}{date};813;78;{op};"),
                }
            }
            1 => {
                self.truth.kind("bad: non-numeric total");
                let head = self.id_part();
                let total = *self.rng.pick(&["abc", "", "813ms", "NaN", "n/a", "x813"]);
                format!("{head}{date};{total};78;735;2;{op};")
            }
            2 => {
                self.truth.kind("bad: negative time");
                let head = self.id_part();
                match self.rng.below(4) {
                    0 => format!("{head}{date};-813;78;735;2;{op};"),
                    1 => format!("{head}{date};813;-78;891;2;{op};e-"),
                    2 => format!("{head}{date};813;78;-1;2;{op}"),
                    _ => format!("{head}{date};813;78;735;-2;{op};"),
                }
            }
            3 => {
                self.truth.kind("bad: bad date");
                let head = self.id_part();
                let d = *self.rng.pick(&[
                    "2012-13-45 12:04:02.308",
                    "2012-02-30 12:04:02.308",
                    "2012-09-31 12:04:02.308",
                    "2012-09-21 25:04:02.308",
                    "2012-09-21 12:61:02.308",
                    "21.09.2012 12:04:02.308",
                    "2012-09-21",
                ]);
                format!("{head}{d};813;78;735;2;{op};")
            }
            4 => {
                self.truth.kind("bad: unknown status");
                let head = self.id_part();
                let st = *self.rng.pick(&["ok", "x-failed", "E_TIMEOUT"]);
                format!("{head}{date};813;78;735;2;{op};{st}")
            }
            _ => {
                self.truth.kind("bad: garbage");
                match self.rng.below(4) {
                    0 => "\tat com.example.soap.CustomerService.load(CustomerService.java:123)"
                        .to_string(),
                    1 => "java.sql.SQLException: ORA-01013: user requested cancel".to_string(),
                    _ => {
                        const ALPHABET: &[u8] =
                            b"abcdefghijklmnopqrstuvwxyzABCDEFXYZ0123456789 .,:-_/=()<>!?";
                        let n = 1 + self.rng.below(80) as usize;
                        let mut s = String::from("#");
                        for _ in 0..n {
                            s.push(*self.rng.pick(ALPHABET) as char);
                        }
                        s
                    }
                }
            }
        };
        self.buf.extend_from_slice(text.as_bytes());
        self.eol();
        self.truth.skipped += 1;
        self.truth.skipped_at.push(line);
    }

    fn blank(&mut self) {
        self.truth.kind("blank");
        let s = *self.rng.pick(&["", "", "   ", "\t"]);
        self.buf.extend_from_slice(s.as_bytes());
        self.eol();
    }

    fn header(&mut self) {
        self.truth.kind("header");
        self.buf
            .extend_from_slice(b"id;time;total;java;db;dbcalls;operation;error");
        self.eol();
    }
}

fn generate() -> (Vec<u8>, Truth) {
    // 2012-09-21 10:05:14.536, local time taken as UTC.
    let start = days_from_civil(2012, 9, 21) * 86_400_000 + (10 * 3600 + 5 * 60 + 14) * 1000 + 536;
    assert_eq!(start, 1_348_221_914_536, "calendar arithmetic");
    let mut g = Gen {
        rng: Rng(SEED),
        buf: Vec::with_capacity(120 << 20),
        truth: Truth::default(),
        now_ms: start,
    };
    // A BOM and a header at the top.
    g.buf.extend_from_slice(b"\xEF\xBB\xBF");
    g.header();
    g.record(false);
    while g.truth.lines < LINES {
        // ~12.5 ms between records on average: a little over 3.5 hours in all.
        g.now_ms += g.rng.below(26) as i64;
        match g.rng.below(10_000) {
            0..=49 => g.blank(),
            50..=51 => g.header(),
            52..=251 => g.bad(),
            _ => g.record(false),
        }
    }
    // The last line has no line break but is visibly complete (`;` after the operation).
    g.now_ms += 7;
    g.record(true);
    (g.buf, g.truth)
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

/// The text of line `no` (1-based), for failure messages.
fn line_text(buf: &[u8], no: u64) -> String {
    let line = buf
        .split(|&b| b == b'\n')
        .nth(no as usize - 1)
        .unwrap_or(b"");
    String::from_utf8_lossy(line).into_owned()
}

#[test]
fn generated_million_line_log_every_figure_exact() {
    let (buf, truth) = generate();
    let requests = truth.requests();

    // The generator itself: big enough, every kind of line present, every band populated.
    assert!(truth.lines >= 1_000_000, "{} lines", truth.lines);
    for kind in [
        "record",
        "crlf",
        "layout prefix",
        "id without brackets",
        "comma millis",
        "trailing ;",
        "no trailing ;",
        "error",
        "inconsistent",
        "blank",
        "header",
        "bad: too few fields",
        "bad: non-numeric total",
        "bad: negative time",
        "bad: bad date",
        "bad: unknown status",
        "bad: garbage",
    ] {
        assert!(
            truth.kinds.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} line"
        );
    }
    assert!(truth.kinds["header"] > 1, "a header in the middle too");
    assert!(truth.bands.iter().all(|&c| c > 0), "{:?}", truth.bands);
    assert!(truth.ops.iter().all(|o| o.count > 0));
    let stamp_of = |ms: Option<i64>| ms.map(|m| stamp(m, 'T', '.'));
    assert_eq!(
        stamp_of(truth.first_ms).as_deref(),
        Some("2012-09-21T10:01:29.214")
    );
    assert!(truth.total < 1 << 53);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("generated-perf.log");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(&buf)
        .unwrap();

    // --- The library: parse ------------------------------------------------------------------
    let Input::Perf(l) = load_any(&path).expect("load") else {
        panic!("not detected as a performance log");
    };
    assert_eq!(l.format.as_str(), "perf-csv");
    let log = &l.log;
    assert_eq!(log.lines, truth.lines, "lines");
    // Record by record: which lines were read, and what was read from them. The log is read
    // in 2 MiB blocks parsed in parallel, so this also checks that line numbers and operation
    // names carry across block boundaries.
    use gcperf::frame::perf as c;
    let df = &l.frame.df;
    let column = |n: &str| df.column(n).unwrap().as_materialized_series().clone();
    let (end, total, java, db) = (
        column(c::END_MS),
        column(c::TOTAL_MS),
        column(c::JAVA_MS),
        column(c::DB_MS),
    );
    let (end, total, java, db) = (
        end.i64().unwrap(),
        total.f64().unwrap(),
        java.f64().unwrap(),
        db.f64().unwrap(),
    );
    let (calls, op, ok, inc, line) = (
        column(c::DB_CALLS),
        column(c::OPERATION_ID),
        column(c::OK),
        column(c::INCONSISTENT),
        column(c::LINE),
    );
    let (calls, op, ok, inc, line) = (
        calls.u64().unwrap(),
        op.u32().unwrap(),
        ok.bool().unwrap(),
        inc.bool().unwrap(),
        line.u32().unwrap(),
    );
    assert_eq!(df.height() as u64, requests, "records");
    for (i, want) in truth.records.iter().enumerate() {
        let (t, j, d) = (total.get(i), java.get(i), db.get(i));
        let got_rec = Rec {
            line: line.get(i).map_or(0, u64::from),
            end_ms: end.get(i).unwrap_or(0),
            total: t.map_or(u32::MAX, |v| v as u32),
            java: j.map_or(u32::MAX, |v| v as u32),
            db: d.map_or(u32::MAX, |v| v as u32),
            calls: calls.get(i).map_or(u32::MAX, |v| v as u32),
            op: OPS
                .iter()
                .position(|&o| Some(o) == op.get(i).map(|id| l.frame.operation(id)))
                .unwrap_or(usize::MAX),
            ok: ok.get(i).unwrap_or(false),
            inconsistent: inc.get(i).unwrap_or(false),
        };
        let whole = [t, j, d]
            .iter()
            .all(|v| v.is_some_and(|v| v.fract() == 0.0));
        assert!(
            got_rec == *want && whole,
            "record {i}: got {got_rec:?}, want {want:?}\n  got line {}: {:?}\n  want line {}: {:?}",
            got_rec.line,
            line_text(&buf, got_rec.line),
            want.line,
            line_text(&buf, want.line)
        );
    }
    assert_eq!(log.skipped_lines, truth.skipped, "skipped lines");
    let kept: Vec<u64> = log.bad.iter().map(|b| b.line).collect();
    let n = gcperf::model::BAD_LINES_KEPT.min(truth.skipped_at.len());
    assert_eq!(kept, &truth.skipped_at[..n], "first bad lines kept");
    for b in &log.bad {
        assert_eq!(b.text, line_text(&buf, b.line).trim_end_matches('\r'));
    }

    // --- The library: figures ----------------------------------------------------------------
    let s = summary(&l.frame, &PerfOptions::default()).expect("summary");
    let share = |c: u64| c as f64 * 100.0 / requests as f64;
    assert_eq!(s.requests, requests, "requests");
    assert_eq!(s.errors, truth.errors, "errors");
    assert_eq!(s.error_pct, Some(share(truth.errors)), "error_pct");
    assert_eq!(s.inconsistent, truth.inconsistent, "inconsistent");
    assert_eq!(s.first, stamp_of(truth.first_ms), "first");
    assert_eq!(s.last, stamp_of(truth.last_ms), "last");
    let span_s = (truth.last_ms.unwrap() - truth.first_ms.unwrap()) as f64 / 1000.0;
    assert_eq!(s.span_s, Some(span_s), "span_s");
    assert_eq!(
        s.throughput_per_s,
        Some(requests as f64 / span_s),
        "throughput"
    );
    // Integer milliseconds below 2^53: sums are exact in any order.
    assert_eq!(s.total_ms_sum, truth.total as f64, "total_ms_sum");
    assert_eq!(s.java_ms_sum, Some(truth.java as f64), "java_ms_sum");
    assert_eq!(s.db_ms_sum, Some(truth.db as f64), "db_ms_sum");
    assert_eq!(s.db_calls_sum, Some(truth.calls), "db_calls_sum");
    near(
        s.db_share_pct.unwrap(),
        truth.db_in_share as f64 * 100.0 / truth.total_in_share as f64,
        "db_share_pct",
    );
    near(
        s.total_ms_mean.unwrap(),
        truth.total as f64 / requests as f64,
        "mean",
    );
    let mut all: Vec<u32> = truth.records.iter().map(|r| r.total).collect();
    all.sort_unstable();
    for (got, p) in [
        (s.total_ms_p50, 0.50),
        (s.total_ms_p90, 0.90),
        (s.total_ms_p95, 0.95),
        (s.total_ms_p99, 0.99),
    ] {
        near(
            got.unwrap(),
            percentile(&all, p),
            &format!("p{}", p * 100.0),
        );
    }
    assert_eq!(s.total_ms_max, Some(f64::from(*all.last().unwrap())), "max");

    let over: Vec<(f64, u64, Option<f64>)> = s
        .over
        .iter()
        .map(|o| (o.ms, o.count, o.share_pct))
        .collect();
    assert_eq!(
        over,
        [
            (50.0, truth.over50, Some(share(truth.over50))),
            (150.0, truth.over150, Some(share(truth.over150))),
        ],
        "over 50 / 150 ms"
    );
    let bands: Vec<(&str, u64, Option<f64>)> = s
        .bands
        .iter()
        .map(|b| (b.label.as_str(), b.count, b.share_pct))
        .collect();
    let want_bands: Vec<(&str, u64, Option<f64>)> = BAND_LABELS
        .iter()
        .zip(truth.bands)
        .map(|(&label, c)| (label, c, Some(share(c))))
        .collect();
    assert_eq!(bands, want_bands, "bands");

    // Per operation, in the crate's order: total time descending, then name.
    let mut want_order: Vec<usize> = (0..OPS.len()).collect();
    want_order.sort_by(|&a, &b| {
        truth.ops[b]
            .total
            .cmp(&truth.ops[a].total)
            .then(OPS[a].cmp(OPS[b]))
    });
    let names: Vec<&str> = s.operations.iter().map(|o| o.name.as_str()).collect();
    let want_names: Vec<&str> = want_order.iter().map(|&i| OPS[i]).collect();
    assert_eq!(names, want_names, "operations and their order");
    for (got, &i) in s.operations.iter().zip(&want_order) {
        let w = &truth.ops[i];
        let name = OPS[i];
        assert_eq!(got.count, w.count, "{name} count");
        assert_eq!(got.errors, w.errors, "{name} errors");
        assert_eq!(got.total_ms_sum, w.total as f64, "{name} total_ms_sum");
        assert_eq!(got.java_ms_sum, Some(w.java as f64), "{name} java_ms_sum");
        assert_eq!(got.db_ms_sum, Some(w.db as f64), "{name} db_ms_sum");
        assert_eq!(got.db_calls_sum, Some(w.calls), "{name} db_calls_sum");
        assert_eq!(got.total_ms_max, f64::from(w.max), "{name} max");
        near(
            got.total_ms_mean,
            w.total as f64 / w.count as f64,
            &format!("{name} mean"),
        );
        let mut t = w.totals.clone();
        t.sort_unstable();
        near(
            got.total_ms_p95,
            percentile(&t, 0.95),
            &format!("{name} p95"),
        );
        near(
            got.db_share_pct.unwrap(),
            w.db_in_share as f64 * 100.0 / w.total_in_share as f64,
            &format!("{name} db_share_pct"),
        );
    }

    // --- End to end: the release binary ------------------------------------------------------
    let out = Command::cargo_bin("gcperf")
        .expect("binary")
        .arg("perf")
        .arg(&path)
        .args(["--format", "json", "-q"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let o = &v[0];
    assert_eq!(o["kind"], "perf");
    assert_eq!(o["format"], "perf-csv");
    assert_eq!(o["lines"], truth.lines);
    assert_eq!(o["skipped_lines"], truth.skipped);
    let p = &o["perf"];
    assert_eq!(p["requests"], requests);
    assert_eq!(p["errors"], truth.errors);
    assert_eq!(p["inconsistent"], truth.inconsistent);
    assert_eq!(p["first"], stamp_of(truth.first_ms).unwrap());
    assert_eq!(p["last"], stamp_of(truth.last_ms).unwrap());
    assert_eq!(p["total_ms_sum"].as_f64(), Some(truth.total as f64));
    assert_eq!(p["db_calls_sum"], truth.calls);
    let json_bands: Vec<(String, u64, f64)> = p["bands"]
        .as_array()
        .expect("bands")
        .iter()
        .map(|b| {
            (
                b["label"].as_str().unwrap().to_string(),
                b["count"].as_u64().unwrap(),
                b["share_pct"].as_f64().unwrap(),
            )
        })
        .collect();
    // JSON prints 12 significant digits (no float noise): 39.00336004236448 -> 39.0033600424.
    let digits12 = |x: f64| format!("{x:.11e}").parse::<f64>().unwrap();
    let want_json_bands: Vec<(String, u64, f64)> = want_bands
        .iter()
        .map(|&(l, c, sh)| (l.to_string(), c, digits12(sh.expect("a share of requests"))))
        .collect();
    assert_eq!(json_bands, want_json_bands, "bands (JSON)");
    let json_ops: u64 = p["operations"]
        .as_array()
        .expect("operations")
        .iter()
        .map(|o| o["count"].as_u64().unwrap())
        .sum();
    assert_eq!(json_ops, requests);

    eprintln!(
        "generated {} lines ({} MB): {} records, {} skipped, {} errors, {} inconsistent; bands {:?}; kinds {:?}",
        truth.lines,
        buf.len() >> 20,
        requests,
        truth.skipped,
        truth.errors,
        truth.inconsistent,
        truth.bands,
        truth.kinds
    );
}
