//! What every family of the registries (`parse::family::GC_FAMILIES`, `PERF_FAMILIES`) must
//! pass, over its fixtures (`fixtures/<name>/` and `fixtures/<name>-<variant>/`; a performance
//! log's also in `fixtures/perf/`): detection, line accounting and hostile edits. A family
//! added to a registry with its fixtures gets these checks (and `streamed.rs`'s
//! blocks-equal-one-pass for GC families, and `hostile.rs`'s smoke run) without a line here.

mod common;

use gcperf::input::{detect, Detected};
use gcperf::model::GcLog;
use gcperf::parse::family::{family_of_line, GcFormat, PerfFormat, GC_FAMILIES, PERF_FAMILIES};
use std::path::{Path, PathBuf};

fn fixtures(f: GcFormat) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut v: Vec<PathBuf> = common::family_dirs(&root, f.as_str())
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().flatten().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn accounted(what: &str, log: &GcLog, lines: u64) {
    assert_eq!(log.lines, lines, "{what}: lines");
    assert_eq!(
        log.lines,
        log.record_lines + log.ignored_lines + log.skipped_lines,
        "{what}: {} lines = {} record + {} ignored + {} skipped",
        log.lines,
        log.record_lines,
        log.ignored_lines,
        log.skipped_lines
    );
}

/// Lines as the parsers count them: `\n`, `\r\n` or a lone `\r` ends one; a last line without
/// an end counts.
fn line_count(buf: &[u8]) -> u64 {
    gcperf::parse::lines::lines(buf).count() as u64
}

/// A performance-log family's fixtures: its own folders, and the files of `fixtures/perf/`
/// detected as it.
fn perf_fixtures(f: PerfFormat) -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut dirs = common::family_dirs(&root, f.as_str());
    dirs.push(root.join("perf"));
    let mut v: Vec<(PathBuf, Vec<u8>)> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().flatten().map(|e| e.path()))
        .filter(|p| p.is_file())
        .map(|p| {
            let b = gcperf::input::read(&p).unwrap();
            (p, b)
        })
        .filter(|(_, b)| detect(b) == Some(Detected::Perf(f)))
        .collect();
    v.sort();
    v
}

#[test]
fn perf_families_detect_parse_and_account_for_their_fixtures() {
    let mut next = xorshift(0x7065_7266);
    for (i, f) in PERF_FAMILIES.iter().copied().enumerate() {
        assert_eq!(PerfFormat::named(f.as_str()), Some(f));
        assert!(
            PERF_FAMILIES[..i].iter().all(|g| g.as_str() != f.as_str())
                && GC_FAMILIES.iter().all(|g| g.as_str() != f.as_str()),
            "{f}: name taken twice"
        );
        let files = perf_fixtures(f);
        assert!(!files.is_empty(), "{f}: no fixture detected as it");
        for (p, buf) in files {
            let what = p.display().to_string();
            let log = gcperf::parse::perf::parse(f, &buf);
            assert!(!log.records.is_empty(), "{what}: no records");
            assert_eq!(log.lines, line_count(&buf), "{what}: lines");
            assert_eq!(
                log.lines,
                log.record_lines + log.ignored_lines + log.skipped_lines,
                "{what}"
            );
            // Damaged copies: cut anywhere, bytes flipped, a GC log's lines in the middle.
            for case in 0..24u64 {
                let mut b = buf.clone();
                match case % 3 {
                    0 => b.truncate(next(b.len() as u64 + 1) as usize),
                    1 => {
                        for _ in 0..8 {
                            let i = next(b.len() as u64) as usize;
                            b[i] = next(256) as u8;
                        }
                    }
                    _ => {
                        let at = b.len() / 2;
                        let at = b[..at]
                            .iter()
                            .rposition(|&c| c == b'\n')
                            .map_or(0, |i| i + 1);
                        b.splice(
                            at..at,
                            b"12.345: [GC 1024K->512K(2048K), 0.0100000 secs]\n"
                                .iter()
                                .copied(),
                        );
                    }
                }
                let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    gcperf::parse::perf::parse(f, &b)
                }));
                let Ok(log) = got else {
                    panic!("{what}, edit {case}: {f} panicked");
                };
                assert_eq!(log.lines, line_count(&b), "{what}, edit {case}: lines");
                assert_eq!(
                    log.lines,
                    log.record_lines + log.ignored_lines + log.skipped_lines,
                    "{what}, edit {case}"
                );
                assert!(
                    log.records
                        .iter()
                        .all(|r| r.total_ms.is_finite() && r.total_ms >= 0.0),
                    "{what}, edit {case}: a total no log can hold"
                );
            }
        }
    }
}

#[test]
fn names_are_unique_and_found_by_name() {
    for (i, f) in GC_FAMILIES.iter().copied().enumerate() {
        assert_eq!(GcFormat::named(f.as_str()), Some(f));
        assert!(
            GC_FAMILIES[..i].iter().all(|g| g.as_str() != f.as_str()),
            "{f}: registered twice"
        );
    }
    assert_eq!(GcFormat::named("no-such-family"), None);
}

/// Each family's fixtures are detected as that family, so as no other; and most of their
/// lines that any family claims, it claims.
#[test]
fn every_family_detects_its_fixtures_and_no_other_family_does() {
    for &f in GC_FAMILIES {
        let files = fixtures(f);
        assert!(files.len() >= 2, "{f}: {} fixtures", files.len());
        for p in files {
            let buf = gcperf::input::read(&p).unwrap();
            assert_eq!(detect(&buf), Some(Detected::Gc(f)), "{}", p.display());
            let (mut mine, mut others) = (0, 0);
            for (_, line) in gcperf::parse::lines::lines(&buf) {
                match family_of_line(line) {
                    Some(g) if g == f => mine += 1,
                    Some(_) => others += 1,
                    None => {}
                }
            }
            assert!(
                mine > 2 * others,
                "{}: {mine} lines of {f}, {others} of other families",
                p.display()
            );
        }
    }
}

/// Every line of every fixture is a record line, an ignored line or a skipped one, in one
/// pass and read in parallel blocks; every fixture has records.
#[test]
fn every_family_accounts_for_every_line() {
    for &f in GC_FAMILIES {
        for p in fixtures(f) {
            let buf = gcperf::input::read(&p).unwrap();
            let what = p.display().to_string();
            let one = gcperf::parse::parse_one(f, &buf);
            accounted(&what, &one, line_count(&buf));
            assert!(one.record_lines > 0, "{what}: no record line");
            let (blocks, _, _) = gcperf::parse::stream::parse_in_blocks(
                f,
                &buf,
                4096,
                gcperf::parse::stream::Events::default(),
            );
            accounted(&format!("{what} in blocks"), &blocks, line_count(&buf));
            assert_eq!(blocks.record_lines, one.record_lines, "{what}");
        }
    }
}

/// Damaged copies of every fixture — cut anywhere, lines dropped, doubled or swapped, bytes
/// flipped, line ends changed, another family's lines mixed in — never panic, keep the line
/// accounting, hold no impossible value, and read in small blocks as in one pass.
#[test]
fn every_family_survives_hostile_edits() {
    let mut next = xorshift(0x6661_6d69_6c79);
    let others: Vec<Vec<u8>> = GC_FAMILIES
        .iter()
        .copied()
        .filter_map(|f| fixtures(f).first().map(|p| std::fs::read(p).unwrap()))
        .collect();
    let mut cases = 0;
    for &f in GC_FAMILIES {
        for p in fixtures(f) {
            let buf = gcperf::input::read(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let lines: Vec<&[u8]> = buf.split_inclusive(|&b| b == b'\n').collect();
            for case in 0..24u64 {
                let mut b: Vec<u8> = match case % 6 {
                    // Cut anywhere.
                    0 => buf[..next(buf.len() as u64 + 1) as usize].to_vec(),
                    // A line dropped, doubled, or two swapped.
                    1 | 2 => {
                        let mut l = lines.clone();
                        let i = next(l.len() as u64) as usize;
                        let j = next(l.len() as u64) as usize;
                        match (case / 6) % 3 {
                            0 => {
                                l.remove(i);
                            }
                            1 => l.insert(i, lines[i]),
                            _ => l.swap(i, j),
                        }
                        l.concat()
                    }
                    // Bytes flipped.
                    3 => {
                        let mut b = buf.clone();
                        for _ in 0..8 {
                            let i = next(b.len() as u64) as usize;
                            b[i] = next(256) as u8;
                        }
                        b
                    }
                    // CRLF or lone CR line ends.
                    4 => {
                        let to: &[u8] = if case % 4 == 0 { b"\r\n" } else { b"\r" };
                        lines
                            .iter()
                            .flat_map(|l| {
                                let body = l.strip_suffix(b"\n").unwrap_or(l);
                                body.iter().chain(to.iter()).copied().collect::<Vec<u8>>()
                            })
                            .collect()
                    }
                    // Another family's lines in the middle.
                    _ => {
                        let o = &others[next(others.len() as u64) as usize];
                        let at = lines.len() / 2;
                        let mut l = lines[..at].concat();
                        l.extend(o.split_inclusive(|&b| b == b'\n').take(5).flatten());
                        l.extend(lines[at..].concat());
                        l
                    }
                };
                if b.last().is_some_and(|&c| c != b'\n' && c != b'\r') && case % 2 == 0 {
                    b.push(b'\n');
                }
                let what = format!("{name}, edit {case}");
                cases += 1;
                let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let one = gcperf::parse::parse_one(f, &b);
                    let (blocks, sink, _) = gcperf::parse::stream::parse_in_blocks_flushing(
                        f,
                        &b,
                        512,
                        4,
                        gcperf::parse::stream::Events::default(),
                    );
                    (one, blocks, sink.events.len())
                }));
                let Ok((one, blocks, n)) = got else {
                    panic!("{what}: {f} panicked");
                };
                accounted(&what, &one, line_count(&b));
                accounted(&format!("{what} in blocks"), &blocks, line_count(&b));
                assert_eq!(n, one.events.len(), "{what}: events in blocks");
                for e in &one.events {
                    assert!(
                        e.duration_ms.is_finite() && e.duration_ms >= 0.0,
                        "{what}: duration {}",
                        e.duration_ms
                    );
                }
            }
        }
    }
    eprintln!("{cases} damaged fixtures read");
    assert!(cases >= 24 * 2 * GC_FAMILIES.len());
}

fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut x = seed.max(1);
    move |m| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m.max(1)
    }
}

/// `Foreign` asks a family's `owns` only of lines starting as its `owned_lines_start` says:
/// every line of every fixture that a family owns must start so, else a GC parser would read
/// that line as its own.
#[test]
fn every_owned_line_starts_as_its_family_says() {
    use gcperf::parse::family::OwnedStart;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .flat_map(|d| std::fs::read_dir(d).unwrap().flatten().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let starts = |line: &[u8]| {
        let n = line.iter().take_while(|b| b.is_ascii_digit()).count();
        let after = if n > 0 { line.get(n).copied() } else { None };
        (line.first().copied(), after)
    };
    let check = |name: &str, start: OwnedStart, owns: &dyn Fn(&[u8]) -> bool| {
        let mut owned = 0;
        for p in &files {
            let buf = gcperf::input::read(p).unwrap();
            for (no, line) in gcperf::parse::lines::lines(&buf) {
                if owns(line) {
                    owned += 1;
                    let (first, after) = starts(line);
                    assert!(
                        start.admits(first, after),
                        "{name} owns {}:{no} but it does not start as {start:?}",
                        p.display()
                    );
                }
            }
        }
        owned
    };
    for f in GC_FAMILIES {
        check(f.as_str(), f.owned_lines_start(), &|l| f.owns(l));
    }
    let mut owned_by_perf = 0;
    for f in PERF_FAMILIES {
        owned_by_perf += check(f.as_str(), f.owned_lines_start(), &|l| f.owns(l));
    }
    // The fixtures hold performance logs: the check above saw owned lines.
    assert!(owned_by_perf > 1000, "{owned_by_perf}");
}
