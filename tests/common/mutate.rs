//! Mutation engine shared by the stable fuzzer (`benches/fuzz.rs`) and the in-process smoke
//! run of `tests/hostile.rs`: seed files, a small deterministic RNG, and mutations that make
//! the damage real logs suffer (cut lines, glued output, odd numbers, nesting, long lines).
//!
//! A case is a pure function of (seed files, run seed, case number), so the fuzzer's supervisor
//! can rebuild the case a worker process died on without the worker writing every case out.
//! The engine itself must never panic: a panic here would be blamed on the parser.
#![allow(dead_code)]

use gcperf::parse::family::{GcFormat, PerfFormat, GC_FAMILIES, PERF_FAMILIES};
use std::path::Path;

/// SplitMix64: tiny, fast, good enough to drive mutations, the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (0 when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
    /// True `num` times in `den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
    /// A position in `0..=len` (insertion points include the end).
    pub fn pos(&mut self, len: usize) -> usize {
        self.below(len + 1)
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    /// Log-uniform in `1..=max`: each power of two as likely as the next, so sizes of 1 MB come
    /// up as often as sizes of 1 KB.
    pub fn log_size(&mut self, max: usize) -> usize {
        let bits = (usize::BITS - max.max(1).leading_zeros()) as usize;
        let e = self.below(bits);
        let lo = 1usize << e;
        (lo + self.below(lo)).min(max.max(1))
    }
    /// 1, 2, 4, ... `max` with halving probability: mostly small, sometimes large.
    pub fn scale(&mut self, max: usize) -> usize {
        let mut n = 1;
        while n < max && self.chance(1, 2) {
            n *= 2;
        }
        n.min(max)
    }
}

/// The RNG of case `case` of a run seeded `seed`: cases are independent of each other.
pub fn case_rng(seed: u64, case: u64) -> Rng {
    let mut r = Rng::new(seed ^ 0xA076_1D64_78BD_642F);
    let s = r.next_u64();
    Rng::new(s ^ case.wrapping_mul(0xE703_7ED1_A0B4_28DB))
}

/// FNV-1a, for file names of saved cases.
pub fn fnv64(b: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &x in b {
        h ^= u64::from(x);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// The log family a seed is an example of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// A GC family of the registry (`gcperf::parse::family::GC_FAMILIES`).
    Gc(GcFormat),
    /// A performance-log family of the registry (`PERF_FAMILIES`).
    Perf(PerfFormat),
}

impl Family {
    /// The registries' GC families, then the performance-log families.
    pub fn all() -> Vec<Family> {
        GC_FAMILIES
            .iter()
            .copied()
            .map(Family::Gc)
            .chain(PERF_FAMILIES.iter().copied().map(Family::Perf))
            .collect()
    }
    pub fn name(self) -> &'static str {
        match self {
            Family::Gc(f) => f.as_str(),
            Family::Perf(f) => f.as_str(),
        }
    }
    pub fn from_name(s: &str) -> Option<Family> {
        Family::all().into_iter().find(|f| f.name() == s)
    }
}

pub struct Seed {
    pub name: String,
    /// None: a saved regression of the `detect` or `load` target, any family.
    pub family: Option<Family>,
    pub bytes: Vec<u8>,
}

/// Seed files: every folder of `fixtures/` but `bad/` (a family's own, its variants such as
/// `j9-xml-5.0/`, `perf/`), each file's family told from its content as a user's would be;
/// `fixtures/bad/` files up to 256 KB (family by the target in the file name); and, when
/// given, the corpus's `gc/` and `perf/` files under `corpus_max` bytes, by content too (its
/// `gc/openj9/` holds both IBM families). Sorted by path, so runs are repeatable.
pub fn load_seeds(fixtures: &Path, corpus: Option<&Path>, corpus_max: usize) -> Vec<Seed> {
    let mut out = Vec::new();
    let mut by_content = |p: &Path, max: usize| {
        let small = std::fs::metadata(p).is_ok_and(|m| (m.len() as usize) < max);
        let Some(bytes) = small.then(|| gcperf::input::read(p).ok()).flatten() else {
            return;
        };
        let family = match gcperf::input::detect(&bytes) {
            Some(gcperf::input::Detected::Gc(f)) => Family::Gc(f),
            Some(gcperf::input::Detected::Perf(f)) => Family::Perf(f),
            None => return,
        };
        out.push(Seed {
            name: p.display().to_string(),
            family: Some(family),
            bytes,
        });
    };
    for dir in dirs(fixtures).iter().filter(|d| !d.ends_with("bad")) {
        files(dir).iter().for_each(|p| by_content(p, usize::MAX));
    }
    if let Some(c) = corpus {
        for dir in dirs(&c.join("gc")).iter().chain(&dirs(&c.join("perf"))) {
            files(dir).iter().for_each(|p| by_content(p, corpus_max));
        }
    }
    for p in files(&fixtures.join("bad")) {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with(".md") {
            continue;
        }
        let Ok(bytes) = gcperf::input::read(&p) else {
            continue;
        };
        // The big ones are hangs and blow-ups of megabytes: as bases they would make most
        // cases slow and teach little the small ones do not.
        if bytes.len() > BAD_SEED_MAX {
            continue;
        }
        // Named `<target>-<hash>`: the target's name, or (older files) its first word.
        let family = Family::all().into_iter().find(|f| {
            name.starts_with(&format!("{}-", f.name()))
                || name
                    .split('-')
                    .next()
                    .is_some_and(|w| f.name().split('-').next() == Some(w))
        });
        out.push(Seed {
            name: p.display().to_string(),
            family,
            bytes,
        });
    }
    out
}

/// Regression files larger than this are not used as seeds.
const BAD_SEED_MAX: usize = 256 << 10;

/// The files in `dir`, sorted.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    entries(dir, Path::is_file)
}

/// The folders in `dir`, sorted.
fn dirs(dir: &Path) -> Vec<std::path::PathBuf> {
    entries(dir, Path::is_dir)
}

fn entries(dir: &Path, keep: fn(&Path) -> bool) -> Vec<std::path::PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<_> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| keep(p))
        .collect();
    v.sort();
    v
}

/// Numbers that have broken parsers: overflow, not-a-number, locale commas, impossible dates.
const INTERESTING: &[&str] = &[
    "1e308",
    "-1",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "0,5",
    "2012-02-31",
    "0",
    "-0",
    "0.0",
    "1e-400",
    "1.7976931348623157e308",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775808",
    "4294967296",
    "2147483648",
    "00000000000000000000001",
    ".5",
    "5.",
    "1..2",
    "1e",
    "1e+",
    "0x1F",
    "1_000",
    "+5",
    "--1",
    "1,234.5",
    "9999-99-99",
    "2012-13-01 25:61:61.999",
    "1970-01-01 00:00:00.000",
    "0000-00-00T00:00:00.000+9999",
    "12:34:56",
    "\u{0663}",
    "\u{FF11}\u{FF12}",
    "",
];

/// Log syntax of every family: inserted tokens reach the parsers' deeper branches.
const TOKENS: &[&str] = &[
    // HotSpot
    "[GC ",
    "[Full GC ",
    "[GC (Allocation Failure) ",
    "[GC pause (G1 Evacuation Pause) (young)",
    ": [",
    " secs]",
    " secs",
    "secs, ",
    "K->",
    "K(",
    "M->",
    "B->",
    "), ",
    "[CMS-concurrent-",
    "[CMS-concurrent-mark: 0.1/0.2 secs]",
    "[CMS-concurrent-reset-start]",
    "[GC concurrent-",
    "[ASCMS-concurrent-",
    "[ParNew: ",
    "[PSYoungGen: ",
    "[Times: user=0.01 sys=0.00, real=0.01 secs]",
    "Total time for which application threads were stopped: ",
    "Application time: ",
    "[Eden: ",
    "Heap: ",
    "{Heap before GC invocations=1 (full 0):",
    "}",
    "[YG occupancy: 1 K (2 K)]",
    " (concurrent mode failure): ",
    " (promotion failed): ",
    "[Pause Init Mark, 1.0 ms]",
    "[Concurrent marking, 1.0 ms]",
    ", start]",
    "2013-05-22T15:42:34.123+0200: ",
    "12.345: ",
    "icms_dc=0 ",
    "AdaptiveSizePolicy",
    "Desired survivor size 1 bytes, new threshold 1 (max 15)",
    "- age   1:",
    // JRockit
    "[memory ] ",
    "[gcpause] ",
    "[memdbg ] ",
    "[INFO ][memory ] ",
    "[YC#1] ",
    "[OC#2] ",
    "[pau] ",
    "[con] ",
    "[---] ",
    "Nursery GC ",
    ": GC ",
    " ms",
    " s, ",
    "KB->",
    "(start time: 4.200 s)",
    "sum of pauses ",
    "nursery collection pause time: ",
    "old collection phase 1 pause time: ",
    "[Tue Mar 12 10:15:02 2013][04711] ",
    "GC mode: ",
    "heap size: ",
    "<s>-<end>: ",
    // Unified
    "[0.200s]",
    "[info]",
    "[gc]",
    "[gc,start    ]",
    "[gc,heap]",
    "[gc,phases]",
    "[safepoint]",
    "GC(3) ",
    "Pause Young (Normal) ",
    "Pause Full ",
    "Pause Remark ",
    "Concurrent Cycle ",
    "Y: Pause Mark Start (Major) ",
    "25M->4M(256M) ",
    "4.250ms",
    "[2024-03-05T14:11:18.004+0100]",
    "[7ms]",
    "[4242]",
    "Using G1",
    "Safepoint \"G1CollectForAllocation\", Time since last: 1 ns, Reaching safepoint: 1 ns, At safepoint: 1 ns, Total: 1 ns",
    // Performance logs
    "[7842BD261FD27732B848D3E904F42A59];",
    ";2012-09-21 12:04:02.308;",
    ";e- ",
    ";",
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success",
    "\"",
    "\"\"",
    ",true,",
    ",false,",
    "1348221842468,",
    "2012/09/21 12:04:02.308",
    "Thread, Run, Test, Start time (ms since Epoch), Test time, Errors",
    ", ",
    ",",
    // Anywhere
    "\n",
    "\r\n",
    "\r",
    "\t",
    " ",
    "\0",
];

/// Terminal colours, byte-order marks, invalid and truncated UTF-8, Unicode line separators.
const CONTROL: &[&[u8]] = &[
    b"\x1b[31m",
    b"\x1b[0m",
    b"\x1b[2J\x1b[H",
    b"\x07",
    b"\x08",
    b"\x0b",
    b"\x0c",
    b"\x7f",
    b"\xEF\xBB\xBF",
    b"\xff\xfe",
    b"\xc3",
    b"\xe2\x82",
    b"\xe2\x80\xa8",
    b"\xc0\x80",
    b"\0\0\0\0",
];

const BYTES: &[u8] = b"\0\r\n[](){};:,.-> \t\"'K0123456789eE+\xff";

/// How big a case may grow.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Cases are cut to this many bytes.
    pub max_len: usize,
    /// Longest line a mutation builds on purpose.
    pub long_line: usize,
    /// Most `[GC 1.0: ` a bracket mutation nests.
    pub nesting: usize,
}

impl Limits {
    /// The fuzzer's: lines up to 1 MB, nesting to 100,000.
    pub const FUZZ: Limits = Limits {
        max_len: 6 << 20,
        long_line: 1 << 20,
        nesting: 100_000,
    };
    /// The test suite's smoke run: big enough to show quadratic behaviour, small enough for CI.
    pub const SMOKE: Limits = Limits {
        max_len: 512 << 10,
        long_line: 256 << 10,
        nesting: 10_000,
    };
}

/// Builds cases for one target from a pool of seeds (the others serve as splice donors).
pub struct Mutator<'a> {
    pub seeds: &'a [Seed],
    /// Indexes into `seeds` of the bases for this target.
    pub pool: Vec<usize>,
    pub limits: Limits,
    /// Sometimes gzip the case (for the `load` target, which reads gzip by its magic bytes).
    pub gzip: bool,
}

impl<'a> Mutator<'a> {
    /// Bases: the seeds of `family`, or every seed when `None`.
    pub fn new(seeds: &'a [Seed], family: Option<Family>, limits: Limits) -> Self {
        let pool: Vec<usize> = (0..seeds.len())
            .filter(|&i| family.is_none() || seeds[i].family == family)
            .collect();
        Mutator {
            seeds,
            pool,
            limits,
            gzip: false,
        }
    }

    /// Case `case` of the run seeded `seed`.
    pub fn case(&self, seed: u64, case: u64) -> Vec<u8> {
        let mut r = case_rng(seed, case);
        if self.pool.is_empty() {
            return Vec::new();
        }
        let base = &self.seeds[*r.pick(&self.pool)].bytes;
        // Large seeds: mostly a window of lines, so that mutations are not diluted and cases
        // stay fast; sometimes the whole file.
        let mut buf = if base.len() > 64 << 10 && r.chance(15, 16) {
            line_window(&mut r, base, 400)
        } else {
            base.clone()
        };
        let n = r.scale(16);
        for _ in 0..n {
            self.mutate(&mut r, &mut buf);
            buf.truncate(self.limits.max_len);
        }
        if self.gzip && r.chance(1, 10) {
            buf = gzip(&buf);
            if r.chance(1, 3) {
                let cut = r.pos(buf.len());
                buf.truncate(cut);
            }
        }
        buf
    }

    fn donor(&self, r: &mut Rng) -> &'a [u8] {
        if r.chance(1, 2) && !self.pool.is_empty() {
            &self.seeds[*r.pick(&self.pool)].bytes
        } else if self.seeds.is_empty() {
            b""
        } else {
            &r.pick(self.seeds).bytes
        }
    }

    fn mutate(&self, r: &mut Rng, buf: &mut Vec<u8>) {
        let len = buf.len();
        match r.below(20) {
            // Bit flips.
            0 => {
                for _ in 0..r.scale(8) {
                    if len > 0 {
                        let i = r.below(len);
                        buf[i] ^= 1 << r.below(8);
                    }
                }
            }
            // Byte insertion: NUL, CR, LF, brackets, separators, or any byte.
            1 => {
                for _ in 0..r.scale(4) {
                    let b = if r.chance(3, 4) {
                        *r.pick(BYTES)
                    } else {
                        r.below(256) as u8
                    };
                    let at = r.pos(buf.len());
                    buf.insert(at, b);
                }
            }
            // Deletion: a few bytes, or a long range.
            2 => {
                if len > 0 {
                    let n = if r.chance(1, 8) {
                        r.below(len / 2 + 1)
                    } else {
                        r.scale(16)
                    };
                    let at = r.below(len);
                    let end = (at + n).min(len);
                    buf.drain(at..end);
                }
            }
            // Chunk duplication, sometimes many times over.
            3 => {
                if len > 0 {
                    let at = r.below(len);
                    let n = r.log_size(4096).min(len - at);
                    let chunk = buf[at..at + n].to_vec();
                    let times = if r.chance(1, 8) { r.log_size(1000) } else { 1 };
                    let to = r.pos(len);
                    let mut ins = Vec::with_capacity(n * times);
                    for _ in 0..times {
                        ins.extend_from_slice(&chunk);
                        if ins.len() > self.limits.max_len {
                            break;
                        }
                    }
                    splice_in(buf, to, &ins);
                }
            }
            // Truncation: a log cut while being written.
            4 => {
                let at = r.pos(len);
                buf.truncate(at);
            }
            // Lines of another seed (this family or any other) between lines, or in place of
            // some: rotated logs, two JVMs writing one file.
            5 => {
                let donor = self.donor(r);
                let piece = line_window(r, donor, 30);
                let starts = line_starts(buf);
                let at = *r.pick(&starts);
                if r.chance(1, 3) {
                    let end = nth_line_end(buf, at, r.scale(8));
                    buf.splice(at..end, piece);
                } else {
                    splice_in(buf, at, &piece);
                }
            }
            // A donor line glued into the middle of a line (output interleaved mid-line).
            6 => {
                let donor = self.donor(r);
                let piece = line_window(r, donor, 1);
                let cut = r.below(piece.len() + 1);
                let at = r.pos(len);
                splice_in(buf, at, &piece[cut..]);
            }
            // A number replaced by an interesting value.
            7 | 8 => {
                for _ in 0..r.scale(4) {
                    replace_number(r, buf);
                }
            }
            // A token of some family's syntax.
            9 | 10 => {
                for _ in 0..r.scale(4) {
                    let t = r.pick(TOKENS).as_bytes();
                    let at = r.pos(buf.len());
                    splice_in(buf, at, t);
                }
            }
            // Bracket nesting: `[GC 1.0: ` repeated (closed again or not), or runs of `[`, `]`.
            11 => {
                // Mostly shallow (cheap cases), an eighth of the time as deep as allowed.
                let n = if r.chance(1, 8) {
                    r.log_size(self.limits.nesting)
                } else {
                    r.scale(64)
                };
                let (open, close): (&[u8], &[u8]) = match r.below(5) {
                    0 => (b"[GC 1.0: ", b""),
                    1 => (b"[GC 1.0: ", b", 0.1 secs]"),
                    2 => (b"[GC 1.0: ", b"]"),
                    3 => (b"[", b""),
                    _ => (b"]", b""),
                };
                let mut ins = Vec::with_capacity((open.len() + close.len()) * n);
                for _ in 0..n {
                    ins.extend_from_slice(open);
                }
                for _ in 0..n {
                    ins.extend_from_slice(close);
                }
                let at = if r.chance(1, 2) {
                    *r.pick(&line_starts(buf))
                } else {
                    r.pos(len)
                };
                splice_in(buf, at, &ins);
            }
            // A very long line: a token or a piece of the input repeated.
            12 => {
                let unit: Vec<u8> = if r.chance(1, 2) || len == 0 {
                    r.pick(TOKENS).as_bytes().to_vec()
                } else {
                    let at = r.below(len);
                    let n = (1 + r.below(40)).min(len - at);
                    buf[at..at + n].to_vec()
                };
                let unit: Vec<u8> = if unit.is_empty() { b"x".to_vec() } else { unit };
                let target = if r.chance(1, 8) {
                    r.log_size(self.limits.long_line).max(64)
                } else {
                    r.log_size(4096).max(64)
                };
                let mut ins = Vec::with_capacity(target + unit.len());
                while ins.len() < target {
                    ins.extend_from_slice(&unit);
                }
                let at = r.pos(len);
                splice_in(buf, at, &ins);
            }
            // Control characters, ANSI escapes, BOMs, broken UTF-8.
            13 => {
                for _ in 0..r.scale(8) {
                    let c = *r.pick(CONTROL);
                    let at = r.pos(buf.len());
                    splice_in(buf, at, c);
                }
            }
            // One line repeated.
            14 => {
                let starts = line_starts(buf);
                let at = *r.pick(&starts);
                let end = nth_line_end(buf, at, 1);
                let line = buf[at..end].to_vec();
                let times = r.log_size(1000);
                let mut ins = Vec::with_capacity(line.len() * times);
                for _ in 0..times {
                    ins.extend_from_slice(&line);
                    if ins.len() > self.limits.max_len {
                        break;
                    }
                }
                splice_in(buf, at, &ins);
            }
            // Lines deleted, swapped or reversed.
            15 => {
                let starts = line_starts(buf);
                let a = *r.pick(&starts);
                let a_end = nth_line_end(buf, a, r.scale(16));
                match r.below(3) {
                    0 => {
                        buf.drain(a..a_end);
                    }
                    1 => {
                        let mut lines: Vec<Vec<u8>> = split_lines(&buf[a..a_end]);
                        lines.reverse();
                        let joined: Vec<u8> = lines.concat();
                        buf.splice(a..a_end, joined);
                    }
                    _ => {
                        let moved = buf[a..a_end].to_vec();
                        buf.drain(a..a_end);
                        let starts = line_starts(buf);
                        let to = *r.pick(&starts);
                        splice_in(buf, to, &moved);
                    }
                }
            }
            // Line ends: all CRLF, all lone CR, or none at all (one giant line).
            16 => {
                let to: &[u8] = match r.below(3) {
                    0 => b"\r\n",
                    1 => b"\r",
                    _ => b"",
                };
                let mut out = Vec::with_capacity(buf.len() + buf.len() / 8);
                for &b in buf.iter() {
                    if b == b'\n' {
                        out.extend_from_slice(to);
                    } else {
                        out.push(b);
                    }
                }
                *buf = out;
            }
            // Random garbage.
            17 => {
                let n = r.scale(64);
                let g: Vec<u8> = (0..n).map(|_| r.below(256) as u8).collect();
                let at = r.pos(len);
                splice_in(buf, at, &g);
            }
            // Digits in runs: a field split or joined (`1234` -> `12 34`, `1.5` -> `15`).
            18 => {
                if len > 0 {
                    let at = r.below(len);
                    if let Some(d) = buf[at..].iter().position(u8::is_ascii_digit) {
                        let i = at + d;
                        if r.chance(1, 2) {
                            buf.insert(i, *r.pick(b" .,:;-"));
                        } else {
                            buf.remove(i);
                        }
                    }
                }
            }
            // The whole case replaced by a window of lines of a donor: cross-family inputs.
            _ => {
                let donor = self.donor(r);
                let mut w = line_window(r, donor, 200);
                let at = r.pos(w.len());
                let tail = line_window(r, buf, 50);
                splice_in(&mut w, at, &tail);
                *buf = w;
            }
        }
    }
}

fn splice_in(buf: &mut Vec<u8>, at: usize, ins: &[u8]) {
    let at = at.min(buf.len());
    buf.splice(at..at, ins.iter().copied());
}

/// Offsets where lines start (always includes 0).
pub fn line_starts(buf: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(
        memchr::memchr_iter(b'\n', buf)
            .map(|i| i + 1)
            .filter(|&i| i < buf.len()),
    );
    v
}

/// The offset after `n` lines starting at `at` (their `\n` included), or the end.
fn nth_line_end(buf: &[u8], at: usize, n: usize) -> usize {
    let mut end = at.min(buf.len());
    for _ in 0..n {
        match memchr::memchr(b'\n', &buf[end..]) {
            Some(i) => end += i + 1,
            None => return buf.len(),
        }
    }
    end
}

/// Lines with their ends, as the parsers see lines: a line ends at `\n`, `\r\n` or a lone `\r`.
pub fn split_lines(buf: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < buf.len() {
        let end = match buf[i] {
            b'\n' => Some(i + 1),
            b'\r' if buf.get(i + 1) == Some(&b'\n') => Some(i + 2),
            b'\r' => Some(i + 1),
            _ => None,
        };
        match end {
            Some(e) => {
                out.push(buf[start..e].to_vec());
                start = e;
                i = e;
            }
            None => i += 1,
        }
    }
    if start < buf.len() {
        out.push(buf[start..].to_vec());
    }
    out
}

/// Up to `max` whole lines from a random place in `src`.
fn line_window(r: &mut Rng, src: &[u8], max: usize) -> Vec<u8> {
    let starts = line_starts(src);
    let a = *r.pick(&starts);
    let n = 1 + r.below(max.max(1));
    let end = nth_line_end(src, a, n);
    src[a..end].to_vec()
}

/// Replace the number nearest after a random place with an interesting value (or 400 digits).
fn replace_number(r: &mut Rng, buf: &mut Vec<u8>) {
    if buf.is_empty() {
        return;
    }
    let from = r.below(buf.len());
    let Some(d) = buf[from..]
        .iter()
        .position(u8::is_ascii_digit)
        .map(|d| from + d)
        .or_else(|| buf.iter().position(u8::is_ascii_digit))
    else {
        return;
    };
    let mut a = d;
    while a > 0 && (buf[a - 1].is_ascii_digit() || buf[a - 1] == b'.') {
        a -= 1;
    }
    let mut b = d;
    while b < buf.len() && (buf[b].is_ascii_digit() || buf[b] == b'.') {
        b += 1;
    }
    let value: Vec<u8> = match r.below(10) {
        0 => vec![b'9'; 400],
        1 => {
            let mut v = b"0.".to_vec();
            v.extend(std::iter::repeat_n(b'0', 400));
            v.push(b'1');
            v
        }
        _ => r.pick(INTERESTING).as_bytes().to_vec(),
    };
    buf.splice(a..b, value);
}

pub fn gzip(b: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(b);
    enc.finish().unwrap_or_default()
}
