//! Hostile input: the fuzzer's crash regressions (`fixtures/bad/`) through every parser,
//! detection and the whole load path, and a short deterministic fuzz run of every target with
//! the fuzzer's own mutation engine. Nothing may panic, and no record may hold a value no log
//! can (a duration not finite, negative or over a day, an uptime out of range, a heap over
//! 2^53 K); the line accounting must hold (`lines == record_lines + ignored_lines +
//! skipped_lines`, `lines` the input's line count).
//!
//! The long runs are `cargo bench --bench fuzz` (BENCHMARKS.md).

#[path = "common/mutate.rs"]
mod mutate;
#[path = "common/targets.rs"]
mod targets;

use mutate::{load_seeds, Limits, Mutator};
use std::path::{Path, PathBuf};
use targets::{guarded, Checks, Kind, Target};

/// Cases per target in the smoke run, and its fixed seed.
const SMOKE_CASES: u64 = 2000;
const SMOKE_SEED: u64 = 0x6763_7065_7266;
/// As in the fuzzer: every 50th case of a parser target also goes down the load path.
const LOAD_EVERY: u64 = 50;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `fixtures/bad/` files (gzipped ones decompressed), README aside.
fn bad_files() -> Vec<(String, Vec<u8>)> {
    let dir = root().join("fixtures/bad");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"));
    v.sort();
    v.into_iter()
        .map(|p| {
            let bytes = gcperf::input::read(&p).expect("fixtures/bad file readable");
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

/// What went wrong in a batch of runs, one line per fault kind (with its first example).
#[derive(Default)]
struct Faults {
    lines: Vec<String>,
    keys: Vec<String>,
}

impl Faults {
    fn add(&mut self, key: String, example: String) {
        if !self.keys.contains(&key) {
            self.keys.push(key);
            self.lines.push(example);
        }
    }
    fn assert_none(self, what: &str) {
        assert!(
            self.lines.is_empty(),
            "{what}: {} kinds of fault:\n{}",
            self.lines.len(),
            self.lines.join("\n")
        );
    }
}

fn run_case(
    faults: &mut Faults,
    target: Target,
    name: &str,
    buf: &[u8],
    checks: Checks,
    dir: &Path,
    with_load: bool,
) -> bool {
    let mut accounting = false;
    match guarded(|| targets::run(target, buf, checks, dir, with_load)) {
        Err(c) => faults.add(
            format!("{} panic {}", target.name(), c.location),
            format!(
                "{} {name} ({} bytes): panic at {}: {}",
                target.name(),
                buf.len(),
                c.location,
                c.message.chars().take(200).collect::<String>()
            ),
        ),
        Ok(problems) => {
            for p in problems {
                accounting |= p.kind == Kind::Accounting;
                faults.add(
                    format!("{} {} {}", target.name(), p.kind.name(), p.key),
                    format!("{} {name}: {}: {}", target.name(), p.key, p.detail),
                );
            }
        }
    }
    accounting
}

#[test]
fn bad_fixtures_through_everything_no_panic_no_impossible_values() {
    let files = bad_files();
    assert!(!files.is_empty(), "fixtures/bad/ has no regression files");
    let dir = tempfile::tempdir().unwrap();
    let checks = Checks {
        values: true,
        accounting: false,
    };
    let mut faults = Faults::default();
    for (name, bytes) in &files {
        for t in Target::all() {
            run_case(&mut faults, t, name, bytes, checks, dir.path(), false);
        }
    }
    faults.assert_none(&format!("{} files of fixtures/bad", files.len()));
}

#[test]
fn bad_fixtures_every_line_accounted_for() {
    let files = bad_files();
    let dir = tempfile::tempdir().unwrap();
    let checks = Checks {
        values: false,
        accounting: true,
    };
    let mut faults = Faults::default();
    for (name, bytes) in &files {
        for t in Target::all() {
            run_case(&mut faults, t, name, bytes, checks, dir.path(), false);
        }
    }
    faults.assert_none(&format!("{} files of fixtures/bad", files.len()));
}

/// `SMOKE_CASES` mutations of the fixtures (bad ones included) through `target`, with the
/// fuzzer's engine at test-suite sizes.
fn smoke(target: Target) {
    let seeds = load_seeds(&root().join("fixtures"), None, 0);
    let mut m = Mutator::new(&seeds, target.family(), Limits::SMOKE);
    m.gzip = matches!(target, Target::Load | Target::Detect);
    assert!(!m.pool.is_empty(), "no seeds for {}", target.name());
    let dir = tempfile::tempdir().unwrap();
    let checks = Checks {
        values: true,
        accounting: true,
    };
    let mut faults = Faults::default();
    let mut accounting = 0u64;
    for i in 0..SMOKE_CASES {
        let buf = m.case(SMOKE_SEED, i);
        let with_load = i.is_multiple_of(LOAD_EVERY);
        let name = format!("case {i}");
        if run_case(
            &mut faults,
            target,
            &name,
            &buf,
            checks,
            dir.path(),
            with_load,
        ) {
            accounting += 1;
        }
    }
    faults.assert_none(&format!(
        "{SMOKE_CASES} smoke cases of {} (seed {SMOKE_SEED}; {accounting} with an accounting fault; \
the first case of each kind shown)",
        target.name()
    ));
}

/// Every GC family of the registry.
#[test]
fn smoke_gc_families() {
    for &f in gcperf::parse::family::GC_FAMILIES {
        smoke(Target::Gc(f));
    }
}

/// Every performance-log family of the registry.
#[test]
fn smoke_perf_families() {
    for &f in gcperf::parse::family::PERF_FAMILIES {
        smoke(Target::Perf(f));
    }
}

#[test]
fn smoke_detect() {
    smoke(Target::Detect);
}

#[test]
fn smoke_load() {
    smoke(Target::Load);
}

/// The engine is deterministic (the fuzzer rebuilds failing cases from their number) and
/// does what it says: a case differs from its base, cases differ from each other.
#[test]
fn mutation_engine_is_deterministic_and_mutates() {
    let seeds = load_seeds(&root().join("fixtures"), None, 0);
    let m = Mutator::new(
        &seeds,
        Some(mutate::Family::Gc(gcperf::parse::hotspot::FAMILY)),
        Limits::SMOKE,
    );
    let a: Vec<Vec<u8>> = (0..50).map(|i| m.case(7, i)).collect();
    let b: Vec<Vec<u8>> = (0..50).map(|i| m.case(7, i)).collect();
    assert_eq!(a, b);
    let bases: Vec<&[u8]> = m.pool.iter().map(|&i| seeds[i].bytes.as_slice()).collect();
    let changed = a.iter().filter(|c| !bases.contains(&c.as_slice())).count();
    assert!(
        changed >= 45,
        "only {changed} of 50 cases differ from their seed"
    );
    let mut distinct = a.clone();
    distinct.sort();
    distinct.dedup();
    assert!(
        distinct.len() >= 45,
        "only {} distinct cases of 50",
        distinct.len()
    );
}
