//! A stable mutation fuzzer for the parsers, detection and the whole load path (cargo-fuzz
//! needs nightly and libFuzzer, and would rebuild polars with sanitizers).
//!
//! ```text
//! cargo bench --bench fuzz -- --target hotspot --seconds 600 [--seed N] [--no-accounting]
//! ```
//! Targets: every registered family by name (`hotspot`, `jrockit`, `unified`, `perf-csv`,
//! `jmeter-jtl`, `jmeter-xml`, `grinder`: that parser),
//! `detect` (`input::detect`), `load` (`load_any` on a file, the summary, the analyses),
//! `all` (each in turn, `--seconds` each), or a comma-separated list.
//!
//! Cases are mutations of the seed files (`fixtures/`, `fixtures/bad/`, corpus files under
//! 2 MB), built by `tests/common/mutate.rs` and run by `tests/common/targets.rs`. This process
//! is a supervisor: it runs the cases in a worker process (itself, `--worker`) that reports
//! each case's start, its panics (caught, with their location), impossible values and line
//! accounting faults. A case running over `--hang-secs` (5 s) is a hang and one growing the
//! worker's resident memory by more than `--rss-mb` (1024 MB) a blow-up: the supervisor kills
//! the worker and starts a new one at the next case. A worker that dies (stack overflow,
//! abort) is a crash at the case it was running. Cases are a function of (seeds, --seed, case
//! number), so the supervisor rebuilds a failing case itself.
//!
//! After the run, each new distinct fault (panic location, value fault, hang, blow-up) is
//! minimised a little (lines dropped, long lines halved, while it still fails the same way,
//! each try in a fresh worker) and saved to `fixtures/bad/<target>-<hash>.log` (`.log.gz`
//! over 64 KB), listed in `fixtures/bad/README.md`. Line accounting faults are counted, and
//! the first case of each shown, but not saved (`--no-accounting` turns the check off).
//! Other options: `--load-every N` (every Nth case of a parser target also goes through the
//! load path; 0 never; 50), `--no-corpus`, `--no-save`, `--minimise-secs S` (30 per fault).
//! One case written out, to read or time by hand: `fuzz-<hash> --worker --target T --seed N
//! --from CASE --dump FILE` (the case a slow-case line or a fault names).

#[path = "../tests/common/mutate.rs"]
mod mutate;
#[path = "../tests/common/targets.rs"]
mod targets;

use mutate::{fnv64, load_seeds, split_lines, Limits, Mutator, Seed};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use targets::{guarded, Checks, Target};

const CORPUS_MAX: usize = 2 << 20;
/// Saved cases larger than this are stored gzipped (hostile inputs are mostly repetition).
const GZIP_OVER: usize = 64 << 10;
/// Hangs and blow-ups look alike whatever caused them: cases kept of each per run (the first
/// that reproduces alone is saved).
const SAVE_PER_RESOURCE_FAULT: usize = 3;
/// A saved case over this many bytes (stored) stays out of the repository.
const KEEP_MAX: usize = 64 << 10;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[derive(Debug, Clone)]
struct Opts {
    targets: Vec<Target>,
    seconds: f64,
    seed: u64,
    accounting: bool,
    load_every: u64,
    hang: Duration,
    rss_kb: u64,
    corpus: bool,
    save: bool,
    minimise: Duration,
}

fn usage(msg: &str) -> ! {
    eprintln!("fuzz: {msg}");
    eprintln!(
        "usage: cargo bench --bench fuzz -- --target NAME[,NAME..]|all [--seconds S] [--seed N] \
[--no-accounting] [--load-every N] [--hang-secs S] [--rss-mb MB] [--no-corpus] [--no-save] \
[--minimise-secs S]"
    );
    eprintln!(
        "targets: {}",
        Target::all()
            .into_iter()
            .map(Target::name)
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::process::exit(2)
}

fn parse_opts(args: &[String]) -> Opts {
    let mut o = Opts {
        targets: Vec::new(),
        seconds: 60.0,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
        accounting: true,
        load_every: 50,
        hang: Duration::from_secs(5),
        rss_kb: 1024 * 1024,
        corpus: true,
        save: true,
        minimise: Duration::from_secs(30),
    };
    let mut it = args.iter();
    let num = |v: Option<&String>, name: &str| -> f64 {
        v.and_then(|s| s.parse::<f64>().ok())
            .filter(|x| x.is_finite() && *x >= 0.0)
            .unwrap_or_else(|| usage(&format!("{name} needs a number")))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--target" => {
                let v = it.next().unwrap_or_else(|| usage("--target needs a name"));
                for n in v.split(',') {
                    if n == "all" {
                        o.targets.extend(Target::all());
                    } else {
                        o.targets.push(
                            Target::from_name(n)
                                .unwrap_or_else(|| usage(&format!("no target {n}"))),
                        );
                    }
                }
            }
            "--seconds" => o.seconds = num(it.next(), "--seconds"),
            "--seed" => {
                o.seed = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| usage("--seed needs an integer"))
            }
            "--no-accounting" => o.accounting = false,
            "--load-every" => o.load_every = num(it.next(), "--load-every") as u64,
            "--hang-secs" => o.hang = Duration::from_secs_f64(num(it.next(), "--hang-secs")),
            "--rss-mb" => o.rss_kb = num(it.next(), "--rss-mb") as u64 * 1024,
            "--no-corpus" => o.corpus = false,
            "--no-save" => o.save = false,
            "--minimise-secs" => {
                o.minimise = Duration::from_secs_f64(num(it.next(), "--minimise-secs"))
            }
            // cargo bench passes `--bench` to harness-less benches.
            "--bench" => {}
            other => usage(&format!("unknown argument {other}")),
        }
    }
    if o.targets.is_empty() {
        usage("no --target");
    }
    o
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--worker") {
        worker(&args[1..]);
        return;
    }
    let o = parse_opts(&args);
    let dir = std::env::temp_dir().join(format!("gcperf-fuzz-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("fuzz: cannot create {}: {e}", dir.display());
        std::process::exit(1);
    }
    println!(
        "fuzz: seed {} ({} s per target, hang over {:.1} s, blow-up over {} MB, accounting {})",
        o.seed,
        o.seconds,
        o.hang.as_secs_f64(),
        o.rss_kb / 1024,
        if o.accounting { "checked" } else { "off" }
    );
    let mut reports = Vec::new();
    for &t in &o.targets {
        let r = fuzz_target(&o, t, &dir);
        r.print();
        reports.push(r);
    }
    if reports.len() > 1 {
        println!("\n== all targets (seed {})", o.seed);
        println!(
            "{:<9} {:>9} {:>8} {:>8} {:>6} {:>9} {:>7} {:>11}",
            "target", "runs", "runs/s", "crashes", "hangs", "blow-ups", "values", "accounting"
        );
        for r in &reports {
            println!(
                "{:<9} {:>9} {:>8.0} {:>8} {:>6} {:>9} {:>7} {:>11}",
                r.target.name(),
                r.runs,
                r.runs as f64 / r.elapsed.as_secs_f64().max(1e-9),
                r.distinct(&["panic", "abort"]),
                r.count(&["hang"]),
                r.count(&["blow-up"]),
                r.distinct(&["value"]),
                r.accounting.iter().map(|f| f.count).sum::<u64>(),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Worker
// ---------------------------------------------------------------------------------------------

fn rss_kb(pid: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

/// Tabs and line ends would break the protocol; control characters the terminal.
fn clean(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(300) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `--worker --target T --dir D [--seed S --from I | --replay FILE] [--no-accounting]
/// [--load-every N] [--no-corpus]`: runs cases, one protocol line per event on stdout:
/// `B case rss_kb len` before a case, `F case kind\tkey\tdetail` for a fault,
/// `S case micros len` for a new slowest case.
fn worker(args: &[String]) {
    targets::install_hook();
    targets::set_silent(true);
    let mut target = None;
    let mut dir = std::env::temp_dir();
    let mut seed = 0u64;
    let mut from = 0u64;
    let mut replay = None;
    let mut accounting = true;
    let mut load_every = 50u64;
    let mut corpus = true;
    let mut with_load = true;
    let mut dump = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_default();
        match a.as_str() {
            "--target" => target = Target::from_name(&val()),
            "--dir" => dir = PathBuf::from(val()),
            "--seed" => seed = val().parse().unwrap_or(0),
            "--from" => from = val().parse().unwrap_or(0),
            "--replay" => replay = Some(PathBuf::from(val())),
            "--dump" => dump = Some(PathBuf::from(val())),
            "--with-load" => with_load = val() == "1",
            "--load-every" => load_every = val().parse().unwrap_or(0),
            "--no-accounting" => accounting = false,
            "--no-corpus" => corpus = false,
            _ => {}
        }
    }
    let Some(target) = target else {
        eprintln!("fuzz worker: no target");
        std::process::exit(2);
    };
    let checks = Checks {
        values: true,
        accounting,
    };
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    if let Some(file) = replay {
        let Ok(buf) = std::fs::read(&file) else {
            eprintln!("fuzz worker: cannot read {}", file.display());
            std::process::exit(2);
        };
        let _ = writeln!(w, "B 0 {} {}", rss_kb("self").unwrap_or(0), buf.len());
        let _ = w.flush();
        one_case(&mut w, target, 0, &buf, checks, &dir, with_load);
        let _ = w.flush();
        return;
    }
    let seeds = seeds(corpus);
    let m = mutator(&seeds, target);
    if let Some(file) = dump {
        // Case `--from` written out, to be read by hand or replayed (`--replay`).
        let written = guarded(|| m.case(seed, from)).map(|b| std::fs::write(&file, b));
        if !matches!(written, Ok(Ok(()))) {
            eprintln!(
                "fuzz worker: cannot write case {from} to {}",
                file.display()
            );
            std::process::exit(2);
        }
        return;
    }
    let mut slowest = Duration::ZERO;
    for i in from.. {
        let buf = match guarded(|| m.case(seed, i)) {
            Ok(b) => b,
            Err(c) => {
                // A fault of the engine, not of gcperf: said, and never counted as a crash.
                let _ = writeln!(w, "X {i} engine\t{}\t{}", c.location, clean(&c.message));
                continue;
            }
        };
        let _ = writeln!(w, "B {i} {} {}", rss_kb("self").unwrap_or(0), buf.len());
        if w.flush().is_err() {
            return;
        }
        let t0 = Instant::now();
        let with_load = load_every > 0 && i.is_multiple_of(load_every);
        one_case(&mut w, target, i, &buf, checks, &dir, with_load);
        let dt = t0.elapsed();
        if dt > slowest {
            slowest = dt;
            let _ = writeln!(w, "S {i} {} {}", dt.as_micros(), buf.len());
        }
    }
}

fn one_case(
    w: &mut impl Write,
    target: Target,
    i: u64,
    buf: &[u8],
    checks: Checks,
    dir: &Path,
    with_load: bool,
) {
    match guarded(|| targets::run(target, buf, checks, dir, with_load)) {
        Err(c) => {
            let _ = writeln!(w, "F {i} panic\t{}\t{}", c.location, clean(&c.message));
        }
        Ok(problems) => {
            for p in problems {
                let _ = writeln!(
                    w,
                    "F {i} {}\t{}\t{}",
                    p.kind.name(),
                    clean(&p.key),
                    clean(&p.detail)
                );
            }
        }
    }
}

/// The supervisor rebuilds the worker's cases: both must build them alike.
fn mutator(seeds: &[Seed], t: Target) -> Mutator<'_> {
    let mut m = Mutator::new(seeds, t.family(), Limits::FUZZ);
    m.gzip = matches!(t, Target::Load | Target::Detect);
    m
}

fn seeds(corpus: bool) -> Vec<Seed> {
    let c = root().join("../shared/corpus");
    load_seeds(
        &root().join("fixtures"),
        (corpus && c.is_dir()).then_some(c.as_path()),
        CORPUS_MAX,
    )
}

// ---------------------------------------------------------------------------------------------
// Supervisor
// ---------------------------------------------------------------------------------------------

enum Msg {
    Begin {
        case: u64,
        rss_kb: u64,
        len: usize,
    },
    Slow {
        case: u64,
        micros: u64,
        len: usize,
    },
    Fault {
        case: u64,
        kind: String,
        key: String,
        detail: String,
    },
}

fn parse_msg(line: &str) -> Option<Msg> {
    let mut sp = line.splitn(3, ' ');
    let tag = sp.next()?;
    let case: u64 = sp.next()?.parse().ok()?;
    let rest = sp.next().unwrap_or("");
    match tag {
        "B" | "S" => {
            let mut f = rest.split(' ');
            let a: u64 = f.next()?.parse().ok()?;
            let len: usize = f.next()?.parse().ok()?;
            Some(if tag == "B" {
                Msg::Begin {
                    case,
                    rss_kb: a,
                    len,
                }
            } else {
                Msg::Slow {
                    case,
                    micros: a,
                    len,
                }
            })
        }
        "F" | "X" => {
            let mut f = rest.splitn(3, '\t');
            let kind = f.next()?.to_string();
            let key = f.next()?.to_string();
            let detail = f.next().unwrap_or("").to_string();
            Some(Msg::Fault {
                case,
                kind,
                key,
                detail,
            })
        }
        _ => None,
    }
}

enum End {
    Deadline,
    Hang {
        case: u64,
    },
    Blowup {
        case: u64,
        mb: u64,
    },
    Exit {
        case: Option<u64>,
        status: Option<ExitStatus>,
        /// The worker's last line on stderr.
        said: String,
    },
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Follow a worker until it ends, hangs, blows up or `deadline` passes.
fn watch(mut child: Child, deadline: Instant, o: &Opts, mut on: impl FnMut(Msg)) -> End {
    let Some(stdout) = child.stdout.take() else {
        kill(&mut child);
        return End::Exit {
            case: None,
            status: None,
            said: String::new(),
        };
    };
    // The worker prints nothing on stderr but what the runtime says when it dies: `fatal
    // runtime error: stack overflow, aborting`, `memory allocation of 449333333400 bytes
    // failed` (and a backtrace after it). That line names the crash.
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let err_reader = child.stderr.take().map(|e| {
        let said = said.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(e).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut s) = said.lock() {
                    if s.is_empty() || line.starts_with("fatal runtime error") {
                        *s = line.trim().to_string();
                    }
                }
            }
        })
    });
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let pid = child.id().to_string();
    let mut cur: Option<(u64, Instant, u64)> = None;
    let mut last_rss = Instant::now();
    let mut err_reader = err_reader;
    let end = loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(line) => {
                if let Some(m) = parse_msg(&line) {
                    if let Msg::Begin { case, rss_kb, .. } = m {
                        cur = Some((case, Instant::now(), rss_kb));
                    }
                    on(m);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = child.wait().ok();
                if let Some(h) = err_reader.take() {
                    let _ = h.join();
                }
                let said = said.lock().map(|l| digits_as_n(&l)).unwrap_or_default();
                break End::Exit {
                    case: cur.map(|c| c.0),
                    status,
                    said,
                };
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        if now >= deadline {
            kill(&mut child);
            break End::Deadline;
        }
        if let Some((case, t, rss0)) = cur {
            if now.duration_since(t) > o.hang {
                kill(&mut child);
                break End::Hang { case };
            }
            if now.duration_since(last_rss) >= Duration::from_millis(20) {
                last_rss = now;
                if let Some(rss) = rss_kb(&pid) {
                    if rss > rss0 + o.rss_kb {
                        kill(&mut child);
                        break End::Blowup {
                            case,
                            mb: (rss - rss0) / 1024,
                        };
                    }
                }
            }
        }
    };
    let _ = reader.join();
    if let Some(h) = err_reader {
        let _ = h.join();
    }
    end
}

/// Numbers (thread ids, sizes) differ from crash to crash of one kind: `N` instead.
fn digits_as_n(s: &str) -> String {
    let mut out = String::new();
    let mut in_num = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_num {
                out.push('N');
            }
            in_num = true;
        } else {
            in_num = false;
            out.push(c);
        }
    }
    clean(&out)
}

/// `replay`: the file to run alone, and whether the load path runs too (as it did for the case).
fn spawn_worker(
    o: &Opts,
    t: Target,
    dir: &Path,
    from: u64,
    replay: Option<(&Path, bool)>,
) -> Option<Child> {
    let exe = std::env::current_exe().ok()?;
    let mut c = Command::new(exe);
    c.arg("--worker")
        .args(["--target", t.name()])
        .arg("--dir")
        .arg(dir)
        .args(["--seed", &o.seed.to_string()])
        .args(["--from", &from.to_string()])
        .args(["--load-every", &o.load_every.to_string()]);
    if let Some((r, with_load)) = replay {
        c.arg("--replay")
            .arg(r)
            .args(["--with-load", if with_load { "1" } else { "0" }]);
    }
    if !o.accounting {
        c.arg("--no-accounting");
    }
    if !o.corpus {
        c.arg("--no-corpus");
    }
    c.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null());
    c.spawn().ok()
}

/// One kind of fault: a panic location, a value fault, an abort, a hang, a blow-up.
struct Fault {
    kind: String,
    key: String,
    count: u64,
    cases: Vec<u64>,
    detail: String,
    saved: Vec<String>,
}

struct Report {
    target: Target,
    runs: u64,
    bytes: u64,
    elapsed: Duration,
    seeds: usize,
    faults: Vec<Fault>,
    accounting: Vec<Fault>,
    engine: Vec<Fault>,
    slowest: Option<(u64, u64, usize)>,
    restarts: u64,
}

fn add(list: &mut Vec<Fault>, kind: &str, key: &str, detail: &str, case: u64, keep: usize) {
    if let Some(f) = list.iter_mut().find(|f| f.kind == kind && f.key == key) {
        f.count += 1;
        if f.cases.len() < keep {
            f.cases.push(case);
        }
        return;
    }
    list.push(Fault {
        kind: kind.to_string(),
        key: key.to_string(),
        count: 1,
        cases: vec![case],
        detail: detail.to_string(),
        saved: Vec::new(),
    });
}

impl Report {
    fn count(&self, kinds: &[&str]) -> u64 {
        self.faults
            .iter()
            .filter(|f| kinds.contains(&f.kind.as_str()))
            .map(|f| f.count)
            .sum()
    }
    fn distinct(&self, kinds: &[&str]) -> usize {
        self.faults
            .iter()
            .filter(|f| kinds.contains(&f.kind.as_str()))
            .count()
    }

    fn print(&self) {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        println!(
            "\n== {}: {} runs in {:.1} s ({:.0} runs/s, mean case {:.1} KB), {} seeds, {} worker restarts",
            self.target.name(),
            self.runs,
            secs,
            self.runs as f64 / secs,
            self.bytes as f64 / self.runs.max(1) as f64 / 1024.0,
            self.seeds,
            self.restarts
        );
        let line = |f: &Fault| {
            let saved = if f.saved.is_empty() {
                String::new()
            } else {
                format!("\n      saved: {}", f.saved.join(", "))
            };
            println!(
                "    {} {}  x{}  first case {}{}{}{}",
                f.kind,
                f.key,
                f.count,
                f.cases[0],
                if f.detail.is_empty() { "" } else { ": " },
                f.detail,
                saved
            );
        };
        println!(
            "  crashes: {} distinct ({} cases)",
            self.distinct(&["panic", "abort"]),
            self.count(&["panic", "abort"])
        );
        for f in self
            .faults
            .iter()
            .filter(|f| f.kind == "panic" || f.kind == "abort")
        {
            line(f);
        }
        println!("  hangs: {}", self.count(&["hang"]));
        println!("  blow-ups: {}", self.count(&["blow-up"]));
        for f in self
            .faults
            .iter()
            .filter(|f| f.kind == "hang" || f.kind == "blow-up")
        {
            line(f);
        }
        println!(
            "  impossible values: {} distinct ({} cases)",
            self.distinct(&["value"]),
            self.count(&["value"])
        );
        for f in self.faults.iter().filter(|f| f.kind == "value") {
            line(f);
        }
        println!(
            "  accounting violations: {} cases, {} kinds (not saved)",
            self.accounting.iter().map(|f| f.count).sum::<u64>(),
            self.accounting.len()
        );
        for f in &self.accounting {
            line(f);
        }
        for f in &self.engine {
            println!("  ENGINE FAULT (fuzzer bug, not gcperf's):");
            line(f);
        }
        if let Some((case, micros, len)) = self.slowest {
            println!(
                "  slowest case: {:.3} s, {} bytes (case {case})",
                micros as f64 / 1e6,
                len
            );
        }
    }
}

fn fuzz_target(o: &Opts, t: Target, dir: &Path) -> Report {
    let seeds = seeds(o.corpus);
    let m = mutator(&seeds, t);
    let mut rep = Report {
        target: t,
        runs: 0,
        bytes: 0,
        elapsed: Duration::ZERO,
        seeds: m.pool.len(),
        faults: Vec::new(),
        accounting: Vec::new(),
        engine: Vec::new(),
        slowest: None,
        restarts: 0,
    };
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(o.seconds);
    let mut next = 0u64;
    while Instant::now() < deadline {
        let Some(child) = spawn_worker(o, t, dir, next, None) else {
            eprintln!("fuzz: cannot start a worker");
            break;
        };
        let end = watch(child, deadline, o, |m| match m {
            Msg::Begin { len, .. } => {
                rep.runs += 1;
                rep.bytes += len as u64;
            }
            Msg::Slow { case, micros, len } => {
                if rep.slowest.is_none_or(|s| micros > s.1) {
                    rep.slowest = Some((case, micros, len));
                }
            }
            Msg::Fault {
                case,
                kind,
                key,
                detail,
            } => match kind.as_str() {
                "accounting" => add(&mut rep.accounting, &kind, &key, &detail, case, 1),
                "engine" => add(&mut rep.engine, &kind, &key, &detail, case, 1),
                _ => add(&mut rep.faults, &kind, &key, &detail, case, 1),
            },
        });
        match end {
            End::Deadline => break,
            End::Hang { case } => {
                add(
                    &mut rep.faults,
                    "hang",
                    "over the time limit",
                    "",
                    case,
                    SAVE_PER_RESOURCE_FAULT,
                );
                next = case + 1;
            }
            End::Blowup { case, mb } => {
                add(
                    &mut rep.faults,
                    "blow-up",
                    "resident memory over the limit",
                    &format!("+{mb} MB when stopped"),
                    case,
                    SAVE_PER_RESOURCE_FAULT,
                );
                next = case + 1;
            }
            End::Exit {
                case: Some(case),
                status,
                said,
            } => {
                let how = status.map_or("unknown".to_string(), |s| s.to_string());
                let key = if said.is_empty() {
                    format!("worker died: {how}")
                } else {
                    format!("worker died: {how}: {said}")
                };
                add(&mut rep.faults, "abort", &key, "", case, 1);
                next = case + 1;
            }
            End::Exit {
                case: None,
                status,
                said,
            } => {
                eprintln!("fuzz: worker ended before its first case ({status:?}) {said}");
                break;
            }
        }
        rep.restarts += 1;
    }
    rep.elapsed = start.elapsed();
    if o.save {
        save_faults(o, t, &m, dir, &mut rep.faults);
    }
    rep
}

// ---------------------------------------------------------------------------------------------
// Minimising and saving
// ---------------------------------------------------------------------------------------------

/// Does `bytes` still fail as `f` did, run alone in a fresh worker?
fn reproduces(o: &Opts, t: Target, dir: &Path, bytes: &[u8], f: &Fault, case: u64) -> bool {
    let file = dir.join("candidate.bin");
    if std::fs::write(&file, bytes).is_err() {
        return false;
    }
    let with_load = o.load_every > 0 && case.is_multiple_of(o.load_every);
    let Some(child) = spawn_worker(o, t, dir, 0, Some((&file, with_load))) else {
        return false;
    };
    let mut same = false;
    let end = watch(
        child,
        Instant::now() + o.hang + Duration::from_secs(30),
        o,
        |m| {
            if let Msg::Fault { kind, key, .. } = m {
                same |= kind == f.kind && key == f.key;
            }
        },
    );
    match f.kind.as_str() {
        "hang" => matches!(end, End::Hang { .. }),
        "blow-up" => matches!(end, End::Blowup { .. }),
        "abort" => match end {
            End::Exit {
                status: Some(s),
                said,
                ..
            } => !s.success() && f.key.ends_with(&said),
            _ => false,
        },
        _ => same,
    }
}

/// Drop lines (halves, quarters, ... single lines), then halve long lines, while the case
/// still fails the same way; stops at `budget`.
fn minimise(bytes: &[u8], budget: Duration, mut still: impl FnMut(&[u8]) -> bool) -> Vec<u8> {
    let t0 = Instant::now();
    let left = || t0.elapsed() < budget;
    let mut lines = split_lines(bytes);
    // Hangs and blow-ups are mostly one long line: try it alone first.
    if lines.len() > 1 {
        if let Some(long) = lines.iter().max_by_key(|l| l.len()).cloned() {
            if still(&long) {
                lines = vec![long];
            }
        }
    }
    let mut chunk = lines.len() / 2;
    while chunk >= 1 && left() {
        let mut i = 0;
        while i < lines.len() && left() {
            let end = (i + chunk).min(lines.len());
            let cand: Vec<u8> = lines[..i]
                .concat()
                .into_iter()
                .chain(lines[end..].concat())
                .collect();
            if still(&cand) {
                lines.drain(i..end);
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(lines[i].len()));
    for i in order {
        while lines[i].len() > 200 && left() {
            let body = lines[i].len() - line_end_len(&lines[i]);
            let mut half = lines[i][..body / 2].to_vec();
            half.extend_from_slice(&lines[i][body..]);
            let old = std::mem::replace(&mut lines[i], half);
            if !still(&lines.concat()) {
                lines[i] = old;
                break;
            }
        }
    }
    lines.concat()
}

/// Length of a line's end (`\n`, `\r\n`, `\r` or none).
fn line_end_len(l: &[u8]) -> usize {
    if l.ends_with(b"\r\n") {
        2
    } else if l.ends_with(b"\n") || l.ends_with(b"\r") {
        1
    } else {
        0
    }
}

fn readme_header() -> &'static str {
    "# Crash regressions found by the fuzzer\n\n\
Inputs that made gcperf panic, hang, blow up its memory or report values no log can hold, found \
by `cargo bench --bench fuzz` (see BENCHMARKS.md) and minimised a little. The raw bytes are kept \
(files over 64 KB gzipped, `.log.gz`: hostile inputs are mostly repetition). `tests/hostile.rs` \
runs every file here through every parser, detection and `load_any`. The fuzzer adds a row per \
new file (its case number holds for the fuzzer of the commit that added the row); \"fixed \
by\" is the commit that fixed it, or open.\n\n\
| file | target | failure | detail | fixed by |\n\
|---|---|---|---|---|\n"
}

/// Save a minimised copy of each new fault's first case(s) to `fixtures/bad/`.
fn save_faults(o: &Opts, t: Target, m: &Mutator, dir: &Path, faults: &mut [Fault]) {
    let bad = root().join("fixtures/bad");
    if std::fs::create_dir_all(&bad).is_err() {
        return;
    }
    let readme = bad.join("README.md");
    let mut text = std::fs::read_to_string(&readme).unwrap_or_else(|_| readme_header().to_string());
    let before = text.len();
    for f in faults.iter_mut() {
        let failure = format!("{} {}", f.kind, f.key).replace('|', "/");
        // A panic location or a value fault names its bug whichever target met it; a hang or
        // a blow-up says only which target it was.
        let resource = f.kind == "hang" || f.kind == "blow-up";
        let row_key = if resource {
            format!("| {} | {failure} |", t.name())
        } else {
            format!("| {failure} |")
        };
        let open = text
            .lines()
            .filter(|l| l.contains(&row_key) && l.trim_end().ends_with("| open |"))
            .count();
        if open >= 1 {
            f.saved.push("(already in fixtures/bad, open)".to_string());
            continue;
        }
        for &case in f.cases.iter() {
            let orig = m.case(o.seed, case);
            let t0 = Instant::now();
            let min = if reproduces(o, t, dir, &orig, f, case) {
                minimise(&orig, o.minimise, |b| reproduces(o, t, dir, b, f, case))
            } else if f.kind == "hang" || f.kind == "blow-up" {
                // Slow only on a busy machine, or only after the cases before it: not a
                // regression a test can hold on to.
                f.saved.push(format!(
                    "(case {case} did not {} again on its own: not saved)",
                    f.kind
                ));
                continue;
            } else {
                f.saved.push(format!(
                    "(case {case} did not fail again on its own: saved as it was)"
                ));
                orig.clone()
            };
            let (name, bytes) = if min.len() > GZIP_OVER {
                (
                    format!("{}-{:08x}.log.gz", t.name(), fnv64(&min) as u32),
                    gzip_best(&min),
                )
            } else {
                (
                    format!("{}-{:08x}.log", t.name(), fnv64(&min) as u32),
                    min.clone(),
                )
            };
            if bytes.len() > KEEP_MAX {
                // Not for the repository: kept beside the build, for whoever fixes it.
                let aside = root().join("target/fuzz-bad");
                let _ = std::fs::create_dir_all(&aside);
                let _ = std::fs::write(aside.join(&name), &bytes);
                f.saved.push(format!(
                    "target/fuzz-bad/{name} ({} bytes stored: too big for fixtures/bad)",
                    bytes.len()
                ));
                continue;
            }
            if std::fs::write(bad.join(&name), &bytes).is_err() {
                continue;
            }
            let lines = split_lines(&min);
            let longest = lines.iter().map(Vec::len).max().unwrap_or(0);
            let detail = format!(
                "case {case} of seed {}: {} -> {} bytes, {} lines, longest {} bytes{}{}",
                o.seed,
                orig.len(),
                min.len(),
                lines.len(),
                longest,
                if f.detail.is_empty() { "" } else { "; " },
                f.detail.replace('|', "/")
            );
            text.push_str(&format!(
                "| {name} | {} | {failure} | {detail} | open |\n",
                t.name()
            ));
            f.saved.push(format!(
                "fixtures/bad/{name} ({} -> {} bytes in {:.1} s)",
                orig.len(),
                min.len(),
                t0.elapsed().as_secs_f64()
            ));
            break;
        }
    }
    // Written only when a row was added: two fuzzers running side by side (one per core)
    // would otherwise race, one reading the file while the other truncates it to rewrite.
    if text.len() != before {
        let _ = std::fs::write(&readme, text);
    }
}

fn gzip_best(b: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(b);
    enc.finish().unwrap_or_default()
}
