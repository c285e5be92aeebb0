//! Golden outputs: every fixture and corpus log through the commands people run, their stdout,
//! stderr and exit code, against `tests/golden/` (one file per input, one for each command run
//! on several inputs). A refactor keeps every one of them; after an intended change,
//!
//! ```text
//! GCPERF_BLESS=1 cargo test --release --test golden
//! ```
//!
//! rewrites them, and the commit says which changed and why. An output over `WHOLE_BYTES` is
//! kept as its line count, its FNV-1a hash and its first lines, so the folder stays small.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Outputs kept whole up to this size; past it, hash, line count and the first lines.
const WHOLE_BYTES: usize = 6 << 10;
const HEAD_LINES: usize = 25;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn golden_dir() -> PathBuf {
    root().join("tests").join("golden")
}

fn fnv64(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One stream as the golden file holds it.
fn stream(out: &mut String, name: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let lines = text.lines().count();
    if bytes.len() <= WHOLE_BYTES {
        let _ = writeln!(out, "--- {name} ({lines} lines)");
        out.push_str(&text);
        if !text.is_empty() && !text.ends_with('\n') {
            out.push_str("\n[no newline at end]\n");
        }
    } else {
        let _ = writeln!(
            out,
            "--- {name} ({lines} lines, {} bytes, fnv64 {:016x}; the first {HEAD_LINES})",
            bytes.len(),
            fnv64(bytes)
        );
        for l in text.lines().take(HEAD_LINES) {
            out.push_str(l);
            out.push('\n');
        }
    }
}

/// Runs `gcperf args` in the repository root; `tmp`, where given, is written `<tmp>` in the
/// record (a folder the command writes into).
fn record(out: &mut String, args: &[String], tmp: Option<&Path>) {
    let o = Command::new(env!("CARGO_BIN_EXE_gcperf"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run gcperf");
    let shown: Vec<String> = args
        .iter()
        .map(|a| match tmp {
            Some(t) => a.replace(&t.display().to_string(), "<tmp>"),
            None => a.clone(),
        })
        .collect();
    let _ = writeln!(out, "$ gcperf {}", shown.join(" "));
    let _ = writeln!(out, "exit {}", o.status.code().unwrap_or(-1));
    // Export's part names are unique by time, process and chance: `part-<id>` here.
    let part = regex::Regex::new(r"part-[0-9]{8}T[0-9]{6}-[0-9]+-[0-9a-f]{16}").unwrap();
    let clean = |b: &[u8]| -> Vec<u8> {
        let s = match tmp {
            Some(t) => String::from_utf8_lossy(b).replace(&t.display().to_string(), "<tmp>"),
            None => String::from_utf8_lossy(b).into_owned(),
        };
        part.replace_all(&s, "part-<id>").into_owned().into_bytes()
    };
    stream(out, "stdout", &clean(&o.stdout));
    stream(out, "stderr", &clean(&o.stderr));
    out.push('\n');
}

fn args(a: &[&str], path: &str) -> Vec<String> {
    a.iter()
        .map(|s| s.to_string())
        .chain(std::iter::once(path.to_string()))
        .collect()
}

/// The commands run on one GC log.
const GC_COMMANDS: &[&[&str]] = &[
    &["summary"],
    &["summary", "--format", "csv"],
    &["summary", "--format", "json"],
    &["gc"],
    &["gc", "--events", "--format", "csv"],
    &["gc", "--events", "--all-records", "--format", "csv"],
    &["gc", "--by", "cause", "--format", "csv"],
    &["gc", "--by", "band", "--format", "csv"],
    &["gc", "--by", "finding", "--format", "csv"],
];

/// The commands run on one performance log.
const PERF_COMMANDS: &[&[&str]] = &[
    &["summary"],
    &["summary", "--format", "csv"],
    &["summary", "--format", "json"],
    &["perf"],
    &["perf", "--format", "json"],
    &["perf", "--format", "csv"],
    &["perf", "--by", "band", "--format", "csv"],
    &["perf", "--by", "error", "--format", "csv"],
];

/// Damaged inputs (`fixtures/bad/`), correlation runs, files that hold no record per request
/// (`fixtures/not-per-request/`): what reading them says.
const OTHER_COMMANDS: &[&[&str]] = &[&["summary"], &["summary", "--format", "json"]];

/// Files of a folder, sorted, relative to the repository root as given.
fn files(dir: &str) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(root().join(dir)) else {
        return Vec::new();
    };
    let mut v: Vec<String> = rd
        .flatten()
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().to_str().map(|n| format!("{dir}/{n}")))
        .filter(|p| !p.ends_with(".md"))
        .collect();
    v.sort();
    v
}

/// What one golden file records.
enum Job {
    One(String, &'static [&'static [&'static str]]),
    Many(Vec<Vec<String>>),
    Chart,
    Export,
}

fn jobs() -> Vec<(String, Job)> {
    let mut v = Vec::new();
    // Every registered GC family's fixtures (`fixtures/<name>/`, `fixtures/<name>-*/`).
    let dirs = |root: &str| -> Vec<String> {
        gcperf::parse::family::GC_FAMILIES
            .iter()
            .copied()
            .flat_map(|f| common::family_dirs(Path::new(root), f.as_str()))
            .map(|d| d.display().to_string())
            .collect()
    };
    for dir in dirs("fixtures") {
        for f in files(&dir) {
            v.push((f.clone(), Job::One(f, GC_COMMANDS)));
        }
    }
    // Every registered performance-log family's fixtures (`fixtures/<name>/`,
    // `fixtures/<name>-*/`), and `fixtures/perf/`.
    let perf_dirs = gcperf::parse::family::PERF_FAMILIES
        .iter()
        .flat_map(|f| common::family_dirs(Path::new("fixtures"), f.as_str()))
        .map(|d| d.display().to_string())
        .chain(["fixtures/perf".to_string()]);
    for dir in perf_dirs {
        for f in files(&dir) {
            v.push((f.clone(), Job::One(f, PERF_COMMANDS)));
        }
    }
    for dir in [
        "fixtures/bad",
        "fixtures/correlate",
        "fixtures/not-per-request",
    ] {
        for f in files(dir) {
            v.push((f.clone(), Job::One(f, OTHER_COMMANDS)));
        }
    }
    if common::corpus_dir().is_some() {
        // IBM's logs, text (`ibm-text`) and XML (`j9-xml`), share a folder named for OpenJ9.
        let ibm = "../shared/corpus/gc/openj9".to_string();
        for dir in dirs("../shared/corpus/gc").into_iter().chain([ibm]) {
            for f in files(&dir) {
                let name = f.trim_start_matches("../shared/").to_string();
                v.push((name, Job::One(f, GC_COMMANDS)));
            }
        }
    }
    let s = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    v.push((
        "compare".into(),
        Job::Many(vec![
            s(&[
                "compare",
                "fixtures/perf/soap-before.log",
                "fixtures/perf/soap-after.log",
            ]),
            s(&["compare", "--format", "csv", "fixtures/perf"]),
            s(&["compare", "fixtures/hotspot"]),
            s(&["compare", "--format", "json", "fixtures/jrockit"]),
        ]),
    ));
    let (g, p) = (
        "fixtures/correlate/run-gc.log.gz",
        "fixtures/correlate/run-perf.log.gz",
    );
    v.push((
        "correlate".into(),
        Job::Many(vec![
            s(&["correlate", "--gc", g, "--perf", p]),
            s(&["correlate", "--gc", g, "--perf", p, "--format", "json"]),
        ]),
    ));
    v.push(("chart".into(), Job::Chart));
    v.push(("export".into(), Job::Export));
    v
}

/// The text of one golden file.
fn run(job: &Job) -> String {
    let mut out = String::new();
    match job {
        Job::One(path, commands) => {
            for c in commands.iter() {
                record(&mut out, &args(c, path), None);
            }
        }
        Job::Many(runs) => {
            for a in runs {
                record(&mut out, a, None);
            }
        }
        Job::Chart => {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path().to_str().unwrap().to_string();
            let a: Vec<String> = [
                "chart",
                "-q",
                "fixtures/hotspot/jdk8-parallel-datestamps.log",
                "fixtures/unified/g1-jdk17.log",
                "fixtures/jrockit/r26-gencon.log",
                "fixtures/perf/soap-after.log",
                "fixtures/perf/jmeter-daytrader.jtl",
                "--out",
                &d,
            ]
            .iter()
            .map(|x| x.to_string())
            .collect();
            record(&mut out, &a, Some(dir.path()));
            // Each PNG's bytes, as a hash: the charts are drawn the same way every time.
            let mut pngs: Vec<(String, u64, usize)> = std::fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .map(|e| {
                    let b = std::fs::read(e.path()).unwrap();
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        fnv64(&b),
                        b.len(),
                    )
                })
                .collect();
            pngs.sort();
            for (n, h, len) in pngs {
                let _ = writeln!(out, "{n} {len} bytes fnv64 {h:016x}");
            }
        }
        Job::Export => {
            use polars::prelude::*;
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path().join("export");
            let a: Vec<String> = ["export", "-q", "fixtures", "--out", d.to_str().unwrap()]
                .iter()
                .map(|x| x.to_string())
                .collect();
            record(&mut out, &a, Some(dir.path()));
            // Schema and rows, not bytes: the files' metadata name the writer's version.
            for name in ["gc", "perf", "files"] {
                let part = std::fs::read_dir(d.join(name))
                    .unwrap()
                    .next()
                    .unwrap()
                    .unwrap();
                let f = std::fs::File::open(part.path()).unwrap();
                let df = ParquetReader::new(f).finish().unwrap();
                let _ = writeln!(out, "{name}: {} rows", df.height());
                for (col, dt) in df.schema().iter() {
                    let _ = writeln!(out, "  {col}: {dt:?}");
                }
            }
        }
    }
    out
}

fn file_name(name: &str) -> String {
    let n: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{n}.txt")
}

#[test]
fn outputs_match_the_golden_files() {
    let bless = std::env::var("GCPERF_BLESS").is_ok_and(|v| v == "1");
    let corpus = common::corpus_dir().is_some();
    assert!(
        !bless || corpus,
        "blessing needs ../shared/corpus: its logs' golden files would be lost"
    );
    let jobs = jobs();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<(String, String)>> = Default::default();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, job)) = jobs.get(i) else {
                    break;
                };
                let text = run(job);
                results.lock().unwrap().push((file_name(name), text));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort();
    let dir = golden_dir();
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
        // Files of inputs that are gone go too.
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            std::fs::remove_file(e.path()).unwrap();
        }
        for (name, text) in &results {
            std::fs::write(dir.join(name), text).unwrap();
        }
        eprintln!(
            "blessed {} golden files in {}",
            results.len(),
            dir.display()
        );
        return;
    }
    let mut differ = Vec::new();
    for (name, text) in &results {
        let want = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        if &want != text {
            let first = want
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| want.lines().count().min(text.lines().count()));
            differ.push(format!(
                "{name}: line {}: want {:?}, got {:?}",
                first + 1,
                want.lines().nth(first).unwrap_or("(end)"),
                text.lines().nth(first).unwrap_or("(end)")
            ));
        }
    }
    // Every golden file is some job's: an input that stops being run is a failure, not a
    // file quietly left unchecked (without the corpus its logs' files are not run).
    let made: std::collections::HashSet<&str> = results.iter().map(|(n, _)| n.as_str()).collect();
    let mut unmade: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !made.contains(n.as_str()) && (corpus || !n.starts_with("corpus_")))
        .collect();
    unmade.sort();
    assert!(
        unmade.is_empty(),
        "{} golden files no job produced (inputs gone: bless again):\n{}",
        unmade.len(),
        unmade.join("\n")
    );
    assert!(
        differ.is_empty(),
        "{} of {} golden outputs differ (after an intended change: GCPERF_BLESS=1 cargo test \
         --release --test golden, and say in the commit which changed and why):\n{}",
        differ.len(),
        results.len(),
        differ.join("\n")
    );
}
