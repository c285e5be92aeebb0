//! Issue 14: the details a daily user meets. One name and one help text per shared option
//! (old spellings still accepted), a table per log kind, the empty and mismatched inputs said
//! in words, the per-operation and per-error tables worked out by hand on `fixtures/perf`,
//! completions and the man page.

use assert_cmd::Command;
use clap::CommandFactory;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn fx(rel: &str) -> String {
    fixture(rel).display().to_string()
}

fn gcperf() -> Command {
    Command::cargo_bin("gcperf").expect("binary")
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let o = gcperf().args(args).output().expect("run");
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn ok(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
    r.stdout
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    serde_json::from_str(&ok(&a)).expect("json")
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-6, "{a} != {b}");
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

// ---------------------------------------------------------------------------------------------
// One name, one meaning, one help text
// ---------------------------------------------------------------------------------------------

/// Every visible option of every command by its long name: (command, help text).
fn options() -> Vec<(String, String, String)> {
    let cli = gcperf::cli::Cli::command();
    let mut out = Vec::new();
    for sub in cli.get_subcommands() {
        for a in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = a.get_long() {
                let help = a
                    .get_long_help()
                    .or(a.get_help())
                    .map(|h| h.to_string())
                    .unwrap_or_default();
                out.push((sub.get_name().to_string(), long.to_string(), help));
            }
        }
    }
    out
}

fn commands_with(opts: &[(String, String, String)], long: &str) -> Vec<String> {
    let mut c: Vec<String> = opts
        .iter()
        .filter(|o| o.1 == long)
        .map(|o| o.0.clone())
        .collect();
    c.sort();
    c
}

#[test]
fn shared_options_have_one_name_and_one_help_text() {
    let opts = options();
    // The same help, word for word, wherever the option is.
    for long in [
        "quiet",
        "strict",
        "sep",
        "decimal-comma",
        "excel",
        "join",
        "rotated",
        "size",
        "skip",
        "from",
        "to",
        "latency-bands",
    ] {
        let helps: Vec<&(String, String, String)> = opts.iter().filter(|o| o.1 == long).collect();
        assert!(helps.len() >= 2, "--{long} is shared: {helps:?}");
        for h in &helps {
            assert_eq!(h.2, helps[0].2, "--{long} of {} and of {}", h.0, helps[0].0);
        }
    }
    // Options whose details differ by command say the same thing first.
    for (long, start) in [
        ("format", "Output format. csv and tsv have a header row"),
        ("over", "Response-time threshold"),
        ("interval", "Length of the intervals (`30s`, `1m`, `1h`)"),
        ("log-y", "Logarithmic"),
        // gc's band table has a default, the histogram fits its log.
        ("pause-bands", "Pause-duration band edges in ms, ascending"),
        ("by", "For csv/tsv/markdown: one row per"),
        ("chart", "Also draw the"),
        (
            "pause-target",
            "A pause target (`30ms`, `0.03s`; plain numbers are ms), over the one the log states",
        ),
    ] {
        let helps: Vec<&(String, String, String)> = opts.iter().filter(|o| o.1 == long).collect();
        assert!(helps.len() >= 2, "--{long}");
        for h in helps {
            assert!(h.2.starts_with(start), "--{long} of {}: {}", h.0, h.2);
        }
    }
    // The band options by their one name; `--bands` is no visible option anywhere.
    assert_eq!(
        commands_with(&opts, "pause-bands"),
        ["chart", "gc", "report"]
    );
    assert_eq!(
        commands_with(&opts, "latency-bands"),
        ["chart", "compare", "perf", "report", "summary"]
    );
    assert!(commands_with(&opts, "bands").is_empty());
    // -q says it hides progress too.
    for (_, _, h) in opts.iter().filter(|o| o.1 == "quiet") {
        assert!(h.contains("no progress bar"), "{h}");
    }
}

/// `gc --pause-bands` and the old `gc --bands`: the same band table; a bad value named by its
/// new name in every command.
#[test]
fn pause_bands_one_name_same_effect_old_spelling_kept() {
    let log = fx("hotspot/jdk8-parallel-datestamps.log");
    // Pauses 12.345, 23.456, 150, 8, 90 ms: with edges 10,100 → 0-10: 1, 10-100: 3, >100: 1.
    let new = ok(&[
        "gc",
        "--by",
        "band",
        "--format",
        "csv",
        "--pause-bands",
        "10,100",
        &log,
    ]);
    let old = ok(&[
        "gc", "--by", "band", "--format", "csv", "--bands", "10,100", &log,
    ]);
    assert_eq!(new, old);
    let counts: Vec<String> = new
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            format!("{}={}", c[1], c[2])
        })
        .collect();
    assert_eq!(counts, ["0-10=1", "10-100=3", ">100=1"], "{new}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    for cmd in [
        vec!["gc", "--pause-bands", "20,5", &log],
        vec!["chart", "-o", &out, "--pause-bands", "20,5", &log],
        vec!["report", "-o", &out, "--pause-bands", "20,5", &log],
        // The old spelling where it meant pause bands.
        vec!["gc", "--bands", "20,5", &log],
        vec!["chart", "-o", &out, "--bands", "20,5", &log],
    ] {
        let r = run(&cmd);
        assert_eq!(r.code, Some(2), "{cmd:?}");
        assert!(
            r.stderr
                .contains("--pause-bands must be positive and strictly ascending"),
            "{cmd:?}: {}",
            r.stderr
        );
    }
    // The pause histogram follows the option in chart and report alike, under either name.
    let png = |args: &[&str], sub: &str| -> Option<Vec<u8>> {
        let d = tempfile::tempdir().unwrap();
        let o = d.path().display().to_string();
        let mut a = args.to_vec();
        a.extend(["-q", "-o", &o, "--size", "400x300", &log]);
        ok(&a);
        std::fs::read(
            d.path()
                .join(sub)
                .join("jdk8-parallel-datestamps-pause-histogram.png"),
        )
        .ok()
    };
    let chart_new = png(&["chart", "--pause-bands", "10,100"], "").unwrap();
    assert_eq!(
        Some(&chart_new),
        png(&["chart", "--bands", "10,100"], "").as_ref()
    );
    assert_ne!(Some(chart_new), png(&["chart"], ""));
    // The report draws a histogram of 20 pauses or more, this log's 5 only when asked.
    assert!(png(&["report", "--pause-bands", "10,100"], "charts").is_some());
    assert_eq!(png(&["report"], "charts"), None);
}

/// `--latency-bands` in summary, perf and compare: the same bands; the old `--bands` of those
/// commands still gives them.
#[test]
fn latency_bands_one_name_same_effect_old_spelling_kept() {
    let log = fx("perf/jmeter-daytrader.jtl");
    let bands = |v: &Value| -> Vec<(String, u64)> {
        v["bands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["label"].as_str().unwrap().to_string(),
                    b["count"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // 200 samples; 119 take 50 ms or less (the fixture's `0-50` share is 59.5 %), so with
    // edges 0,50 there are no 0 ms samples, 119 in 0-50 and 81 over 50 (`over 50 ms: 81`).
    let want: Vec<(String, u64)> = vec![("0".into(), 0), ("0-50".into(), 119), (">50".into(), 81)];
    for flag in ["--latency-bands", "--bands"] {
        let s = json(&["summary", flag, "0,50", &log]);
        assert_eq!(bands(&s[0]["perf"]), want, "summary {flag}");
        let p = json(&["perf", flag, "0,50", &log]);
        assert_eq!(bands(&p[0]["perf"]), want, "perf {flag}");
        let c = json(&["compare", flag, "0,50", &log]);
        assert_eq!(bands(&c[0]["perf"]), want, "compare {flag}: {c}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    for cmd in [
        vec!["summary", "--latency-bands", "50,10", &log],
        vec!["perf", "--latency-bands", "50,10", &log],
        vec!["compare", "--latency-bands", "50,10", &log],
        vec!["report", "-o", &out, "--latency-bands", "50,10", &log],
        vec!["chart", "-o", &out, "--latency-bands", "50,10", &log],
        vec!["perf", "--bands", "50,10", &log],
        // In report the old --bands was the latency bands, and still is.
        vec!["report", "-o", &out, "--bands", "50,10", &log],
    ] {
        let r = run(&cmd);
        assert_eq!(r.code, Some(2), "{cmd:?}");
        assert!(
            r.stderr.contains("--latency-bands must be non-negative"),
            "{cmd:?}: {}",
            r.stderr
        );
    }
}

/// `--over`, `--skip`, `--interval`: one meaning in every command that reads performance logs.
#[test]
fn over_skip_interval_same_effect_everywhere() {
    let log = fx("perf/jmeter-daytrader.jtl");
    // The JTL: 81 samples over 50 ms, 18 over 150 ms (perf's text says so: `over 50 ms: 81`).
    let over = |v: &Value| -> Vec<(f64, u64)> {
        v["over"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (f(&o["ms"]), o["count"].as_u64().unwrap()))
            .collect()
    };
    let s = json(&["summary", "--over", "50,150", &log]);
    assert_eq!(over(&s[0]["perf"]), [(50.0, 81), (150.0, 18)]);
    let p = json(&["perf", "--over", "50,150", &log]);
    assert_eq!(over(&p[0]["perf"]), [(50.0, 81), (150.0, 18)]);
    let c = json(&["compare", "--over", "50,150", &log]);
    assert_eq!(over(&c[0]["perf"]), [(50.0, 81), (150.0, 18)]);
    // --skip: the same requests left out by summary, perf and compare. Samples end from
    // 10:04:02.543; 30 s of warm-up leaves those ending at 10:04:32.543 or later.
    let ends: Vec<i64> = std::fs::read_to_string(fixture("perf/jmeter-daytrader.jtl"))
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            Some(c.first()?.parse::<i64>().ok()? + c.get(1)?.parse::<i64>().ok()?)
        })
        .collect();
    assert_eq!(ends.len(), 200);
    let first = *ends.iter().min().unwrap();
    let kept = ends.iter().filter(|&&e| e >= first + 30_000).count() as u64;
    assert!(kept > 0 && kept < 200);
    for cmd in ["summary", "perf"] {
        let v = json(&[cmd, "--skip", "30s", &log]);
        assert_eq!(v[0]["perf"]["requests"], kept, "{cmd}");
    }
    let c = json(&["compare", "--skip", "30s", &log]);
    assert_eq!(c[0]["perf"]["requests"], kept);
    // --interval: 1-minute series in summary and perf alike; the 43 s from 10:04:02 to
    // 10:04:45 lie in one minute.
    for cmd in ["summary", "perf"] {
        let v = json(&[cmd, "--interval", "1m", &log]);
        let iv = v[0]["perf"]["intervals"].as_array().unwrap();
        assert_eq!(iv.len(), 1, "{cmd}");
        assert_eq!(iv[0]["requests"], 200);
    }
    // A bad interval is refused in the same words by each.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    for cmd in [
        vec!["summary", "--interval", "0s", &log],
        vec!["perf", "--interval", "0s", &log],
        vec!["chart", "-o", &out, "--interval", "0s", &log],
    ] {
        let r = run(&cmd);
        assert_eq!(r.code, Some(2), "{cmd:?}");
        assert!(
            r.stderr.contains("--interval must be at least 1ms"),
            "{cmd:?}: {}",
            r.stderr
        );
    }
}

/// PNG width and height from the IHDR chunk.
fn png_size(p: &Path) -> (u32, u32) {
    let b = std::fs::read(p).unwrap();
    assert!(b.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", p.display());
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    (be(16), be(20))
}

/// `--size` draws every command's charts at the size asked.
#[test]
fn size_is_the_chart_size_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = |s: &str| dir.path().join(s).display().to_string();
    let log = fx("perf/jmeter-daytrader.jtl");
    ok(&["chart", "-q", "-o", &d("c"), "--size", "320x200", &log]);
    assert_eq!(
        png_size(&dir.path().join("c/jmeter-daytrader-timeline.png")),
        (320, 200)
    );
    ok(&["report", "-q", "-o", &d("r"), "--size", "330x210", &log]);
    assert_eq!(
        png_size(&dir.path().join("r/charts/jmeter-daytrader-timeline.png")),
        (330, 210)
    );
    // compare: the size asked, grown taller only where its GC runs need the room.
    ok(&[
        "compare",
        "-q",
        "--chart",
        &d("cmp.png"),
        "--size",
        "340x220",
        &log,
    ]);
    assert_eq!(png_size(&dir.path().join("cmp.png")), (340, 220));
    ok(&[
        "correlate",
        "-q",
        "--gc",
        &fx("correlate/run-gc.log.gz"),
        "--perf",
        &fx("correlate/run-perf.log.gz"),
        "--chart",
        &d("cor.png"),
        "--size",
        "350x230",
    ]);
    assert_eq!(png_size(&dir.path().join("cor.png")), (350, 230));
}

/// `--format` and `-q` mean the same in every command that has them.
#[test]
fn format_and_quiet_same_in_every_command() {
    // soap-before.log has one line cut short (481): `1 of 481 lines not understood`.
    let log = fx("perf/soap-before.log");
    let dir = tempfile::tempdir().unwrap();
    let d = |s: &str| dir.path().join(s).display().to_string();
    for cmd in [
        vec!["summary", log.as_str()],
        vec!["perf", log.as_str()],
        vec!["compare", log.as_str()],
    ] {
        for format in ["json", "csv", "markdown"] {
            let mut a = cmd.clone();
            a.extend(["--format", format]);
            let r = run(&a);
            assert_eq!(r.code, Some(0), "{a:?}");
            if format == "json" {
                serde_json::from_str::<Value>(&r.stdout).expect("json");
            }
            assert!(r.stderr.contains("1 of 481 lines not understood"), "{a:?}");
            a.push("-q");
            let q = run(&a);
            assert_eq!(q.stdout, r.stdout, "{a:?}");
            // Nothing on stderr with -q, and no progress bar on a pipe without it.
            assert_eq!(q.stderr, "", "{a:?}");
        }
    }
    let r = run(&["chart", "-o", &d("c"), &log]);
    assert!(r.stderr.contains("1 of 481 lines not understood"));
    assert_eq!(run(&["chart", "-q", "-o", &d("c"), &log]).stderr, "");
    let r = run(&["export", "-o", &d("e"), &log]);
    assert!(r.stderr.contains("1 of 481 lines not understood"));
    assert_eq!(run(&["export", "-q", "-o", &d("e2"), &log]).stderr, "");
}

// ---------------------------------------------------------------------------------------------
// Clean tables
// ---------------------------------------------------------------------------------------------

fn widest(s: &str) -> usize {
    s.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// The text between a heading and the next (or the end).
fn section<'a>(out: &'a str, heading: &str, next: Option<&str>) -> &'a str {
    let start = out
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?} in {out}"))
        + heading.len();
    let rest = &out[start..];
    match next.and_then(|n| rest.find(n)) {
        Some(end) => &rest[..end],
        None => rest,
    }
}

#[test]
fn mixed_summary_has_a_table_per_kind_no_wider_than_that_kind_alone() {
    let gc_dirs = [fx("hotspot"), fx("jrockit"), fx("unified")];
    let perf_dir = fx("perf");
    for (format, gc_h, perf_h) in [
        ("table", "GC logs\n\n", "Performance logs\n\n"),
        ("markdown", "### GC logs\n\n", "### Performance logs\n\n"),
    ] {
        let mut all: Vec<&str> = vec!["summary", "-q", "--format", format];
        all.extend(gc_dirs.iter().map(String::as_str));
        all.push(&perf_dir);
        let mixed = ok(&all);
        let mut gc_only: Vec<&str> = vec!["summary", "-q", "--format", format];
        gc_only.extend(gc_dirs.iter().map(String::as_str));
        let gc_alone = ok(&gc_only);
        let perf_alone = ok(&["summary", "-q", "--format", format, &perf_dir]);
        // One kind alone: one table, no heading.
        assert!(!gc_alone.contains("GC logs") && !perf_alone.contains("Performance logs"));
        let gc = section(&mixed, gc_h, Some(perf_h));
        let perf = section(&mixed, perf_h, None);
        // Each kind's table is that kind's table alone, so no line is wider than it.
        assert_eq!(gc.trim_end(), gc_alone.trim_end(), "{format}");
        assert_eq!(perf.trim_end(), perf_alone.trim_end(), "{format}");
        assert!(widest(gc) <= widest(&gc_alone) && widest(perf) <= widest(&perf_alone));
        // A row per GC log and per performance log (and the header and rule lines).
        let files = |dirs: &[&String]| -> usize {
            dirs.iter()
                .map(|d| std::fs::read_dir(d).unwrap().count())
                .sum()
        };
        let gc_files = files(&gc_dirs.iter().collect::<Vec<_>>());
        assert_eq!(gc.trim().lines().count(), gc_files + 2, "{gc}");
        assert_eq!(
            perf.trim().lines().count(),
            files(&[&perf_dir]) + 2,
            "{perf}"
        );
        // No performance columns among the GC ones and the other way round; no empty error
        // column.
        assert!(!gc.contains("requests") && !perf.contains("pause_total_ms"));
        assert!(!mixed.contains("error\n") && !mixed.contains("error |\n"));
    }
    // CSV stays one table with every column.
    let csv = ok(&[
        "summary",
        "-q",
        "--format",
        "csv",
        &fx("hotspot"),
        &perf_dir,
    ]);
    assert!(csv.lines().next().unwrap().contains(",pause_total_ms,"));
    assert!(csv.lines().next().unwrap().contains(",requests,"));
    assert_eq!(
        csv.lines().count(),
        1 + std::fs::read_dir(fx("hotspot")).unwrap().count() + 4
    );
}

#[test]
fn a_mixed_summary_puts_unreadable_inputs_in_their_own_table() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "hello\n").unwrap();
    let out = ok(&[
        "summary",
        "-q",
        &fx("hotspot/jdk8-g1-details.log"),
        &fx("perf/soap-after.log"),
        junk.to_str().unwrap(),
    ]);
    let not_read = section(&out, "Not read\n\n", None);
    let lines: Vec<&str> = not_read.lines().collect();
    assert!(
        lines[0].starts_with("file") && lines[0].ends_with("error"),
        "{out}"
    );
    assert!(lines[2].ends_with("notes.txt  no GC or performance records found"));
    assert!(!section(&out, "GC logs\n\n", Some("Performance")).contains("notes.txt"));
}

#[test]
fn empty_folder_and_mismatched_logs_are_said_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let e = empty.display().to_string();
    let out = dir.path().join("out").display().to_string();
    for cmd in [
        vec!["summary", &e],
        vec!["gc", &e],
        vec!["perf", &e],
        vec!["compare", &e],
        vec!["chart", "-o", &out, &e],
        vec!["export", "-o", &out, &e],
    ] {
        let r = run(&cmd);
        assert_eq!(r.code, Some(1), "{cmd:?}");
        assert_eq!(r.stdout, "", "{cmd:?}: no empty table");
        assert!(
            r.stderr
                .starts_with(&format!("gcperf: {e}: no log files found\n")),
            "{cmd:?}: {}",
            r.stderr
        );
    }
    // A performance log given to gc, a GC log given to perf: the command that reads it.
    let perf = fx("perf/soap-after.log");
    let r = run(&["gc", &perf]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(1), ""));
    assert_eq!(
        r.stderr,
        format!("gcperf: {perf}: a performance log; see `gcperf perf` (left out here)\n")
    );
    let gc = fx("hotspot/jdk8-g1-details.log");
    let r = run(&["perf", &gc]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(1), ""),
        "no band_ms header"
    );
    assert_eq!(
        r.stderr,
        format!("gcperf: {gc}: a GC log; see `gcperf gc` (left out here)\n")
    );
    // Markdown and text alike print nothing for no performance log.
    assert_eq!(run(&["perf", "--format", "markdown", &gc]).stdout, "");
    // JMeter results saved as XML are read (once refused with "save them as CSV").
    let xml = dir.path().join("run.jtl");
    std::fs::write(
        &xml,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n\
         <httpSample t=\"75\" ts=\"1348221842468\" s=\"true\" lb=\"Buy\" rc=\"200\"/>\n</testResults>\n",
    )
    .unwrap();
    let x = xml.display().to_string();
    let r = run(&["perf", &x]);
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
    assert!(
        r.stdout
            .starts_with(&format!("{x} (jmeter-xml): 1 requests, 0 errors")),
        "{}",
        r.stdout
    );
    // summary of inputs none of which could be read: the files and their errors only.
    let xz = dir.path().join("run.jtl.xz");
    std::fs::write(&xz, b"\xFD7zXZ\x00\x00\x04junk").unwrap();
    let r = run(&["summary", xz.to_str().unwrap()]);
    assert_eq!(r.code, Some(1));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["file", "error"]
    );
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert!(lines[2].ends_with("xz-compressed: not supported; decompress it first"));
    // report: an unrecognised file is not a GC or performance log (it was read).
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "hello\n").unwrap();
    let rep = dir.path().join("rep");
    let r = run(&[
        "report",
        "-o",
        rep.to_str().unwrap(),
        junk.to_str().unwrap(),
        &fx("hotspot/jdk8-g1-details.log"),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let html = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert!(
        html.contains("2 inputs: 1 GC log, 0 performance logs, 1 not a GC or performance log."),
        "{html}"
    );
    assert!(!html.contains("not readable"));
    // A file that cannot be read still is.
    let r = run(&[
        "report",
        "-o",
        rep.to_str().unwrap(),
        dir.path().join("missing.log").to_str().unwrap(),
        &fx("hotspot/jdk8-g1-details.log"),
    ]);
    assert_eq!(r.code, Some(0));
    let html = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert!(html.contains("1 not readable."), "{html}");
}

#[test]
fn no_lone_percent_where_a_value_is_missing() {
    // One request of 0 ms: no span (its start is its end), so no throughput: `–`, not
    // ` req/s` or `( %)` alone.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("one.log");
    std::fs::write(&p, "[a];2012-09-21 12:00:30.000;0;0;0;1;op;\n").unwrap();
    let out = ok(&["perf", p.to_str().unwrap()]);
    let first = out.lines().next().unwrap();
    assert!(
        first.ends_with(": 1 requests, 0 errors (0.0000 %), 0 inconsistent; 2012-09-21T12:00:30.000 to 2012-09-21T12:00:30.000, \u{2013}, \u{2013}"),
        "{first}"
    );
    for l in out.lines() {
        assert!(!l.contains(" % ") || !l.contains("  %"), "{l}");
        assert!(!l.contains("( %)") && !l.contains(" s,  req/s"), "{l}");
    }
    // A GC log of one pause has no span: `throughput –`.
    let g = dir.path().join("one-gc.log");
    // No uptime stamp, so no span.
    std::fs::write(&g, "[GC 1000K->500K(2000K), 0.0100000 secs]\n").unwrap();
    let out = ok(&["gc", g.to_str().unwrap()]);
    let first = out.lines().next().unwrap();
    assert!(first.ends_with("throughput \u{2013}"), "{first}");
}

#[test]
fn correlate_without_slow_requests_has_no_lone_units() {
    // No request of the run takes 1000 s: no slow ones, so no share and no mean of them.
    let out = ok(&[
        "correlate",
        "-q",
        "--gc",
        &fx("correlate/run-gc.log.gz"),
        "--perf",
        &fx("correlate/run-perf.log.gz"),
        "--over",
        "1000000",
    ]);
    assert!(
        out.contains("; 0 of the slow overlap a GC pause (\u{2013}), 0 only because of it;"),
        "{out}"
    );
    assert!(
        out.contains(
            "GC inside slow requests: 0.0 ms, \u{2013} per slow request, \u{2013} of their time\n"
        ),
        "{out}"
    );
    assert!(!out.contains("( %)") && !out.contains(",  ms") && !out.contains(",  %"));
}

// ---------------------------------------------------------------------------------------------
// Per-operation and per-error tables, by hand on fixtures/perf
// ---------------------------------------------------------------------------------------------

fn csv_rows(s: &str) -> (Vec<String>, Vec<Vec<String>>) {
    // The fixtures' names hold `, ` in quotes ("Sell, confirm"): a small RFC 4180 reader.
    let mut rows = Vec::new();
    for line in s.lines() {
        let mut row = Vec::new();
        let mut cur = String::new();
        let mut quoted = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' if quoted && chars.peek() == Some(&'"') => {
                    cur.push('"');
                    chars.next();
                }
                '"' => quoted = !quoted,
                ',' if !quoted => row.push(std::mem::take(&mut cur)),
                c => cur.push(c),
            }
        }
        row.push(cur);
        rows.push(row);
    }
    let header = rows.remove(0);
    (header, rows)
}

fn cell<'a>(h: &[String], r: &'a [String], name: &str) -> &'a str {
    let i = h
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    &r[i]
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

#[test]
fn per_operation_table_by_hand_on_the_jmeter_fixture() {
    let out = ok(&[
        "perf",
        "-q",
        "--format",
        "csv",
        &fx("perf/jmeter-daytrader.jtl"),
    ]);
    let (h, rows) = csv_rows(&out);
    let login = rows.iter().find(|r| r[1] == "Login").expect("Login");
    // The 15 Login samples' elapsed ms, sorted: 59 60 61 63 66 69 71 72 77 77 78 84 88 93 118;
    // one failed (line 123, `500/Internal "Server" Error`).
    assert_eq!(cell(&h, login, "count"), "15");
    assert_eq!(cell(&h, login, "errors"), "1");
    close(num(cell(&h, login, "error_pct")), 100.0 / 15.0);
    // The log spans 42.855 s (the first sample starts at 10:04:02.468, the last ends at
    // 10:04:45.323): 15 / 42.855.
    close(num(cell(&h, login, "throughput_per_s")), 15.0 / 42.855);
    close(num(cell(&h, login, "total_ms_min")), 59.0);
    // Sum 1136 / 15.
    close(num(cell(&h, login, "total_ms_mean")), 1136.0 / 15.0);
    // Linear percentiles at rank p·(n−1): p50 at 7 → 72; p90 at 12.6 → 88 + 0.6·5 = 91;
    // p95 at 13.3 → 93 + 0.3·25 = 100.5; p99 at 13.86 → 93 + 0.86·25 = 114.5.
    close(num(cell(&h, login, "total_ms_p50")), 72.0);
    close(num(cell(&h, login, "total_ms_p90")), 91.0);
    close(num(cell(&h, login, "total_ms_p95")), 100.5);
    close(num(cell(&h, login, "total_ms_p99")), 114.5);
    close(num(cell(&h, login, "total_ms_max")), 118.0);
    // JMeter has no Java/DB split: empty, not 0.
    assert_eq!(cell(&h, login, "java_ms_mean"), "");
    assert_eq!(cell(&h, login, "db_ms_mean"), "");
    assert_eq!(cell(&h, login, "db_share_pct"), "");
    // The text table: the same figures rounded, no Java/DB columns for a log without them.
    let text = ok(&["perf", "-q", &fx("perf/jmeter-daytrader.jtl")]);
    let head = text
        .lines()
        .find(|l| l.starts_with("operation "))
        .expect("ops table");
    let cols: Vec<&str> = head.split_whitespace().collect();
    assert_eq!(
        cols,
        [
            "operation",
            "count",
            "errors",
            "error_pct",
            "per_s",
            "min_ms",
            "mean_ms",
            "p50_ms",
            "p90_ms",
            "p95_ms",
            "p99_ms",
            "max_ms"
        ]
    );
    let row = text.lines().find(|l| l.starts_with("Login ")).unwrap();
    let v: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        v,
        [
            "Login", "15", "1", "6.67", "0.350", "59.000", "75.733", "72.000", "91.000", "100.500",
            "114.500", "118.000"
        ]
    );
}

#[test]
fn per_operation_java_and_db_means_by_hand_on_the_semicolon_fixture() {
    let out = ok(&["perf", "-q", "--format", "csv", &fx("perf/soap-before.log")]);
    let (h, rows) = csv_rows(&out);
    let so = rows
        .iter()
        .find(|r| r[1] == "saveOrder")
        .expect("saveOrder");
    // The fixture's 58 saveOrder lines sum to total 41829 ms, Java 4659 ms, DB 37170 ms
    // (awk -F';' '$7=="saveOrder"'), none failed.
    assert_eq!(cell(&h, so, "count"), "58");
    assert_eq!(cell(&h, so, "errors"), "0");
    close(num(cell(&h, so, "total_ms_mean")), 41829.0 / 58.0);
    close(num(cell(&h, so, "java_ms_mean")), 4659.0 / 58.0);
    close(num(cell(&h, so, "db_ms_mean")), 37170.0 / 58.0);
    close(num(cell(&h, so, "db_share_pct")), 37170.0 * 100.0 / 41829.0);
    // Its shortest and longest: 282 ms (line 357) and 2644 ms.
    close(num(cell(&h, so, "total_ms_min")), 282.0);
    close(num(cell(&h, so, "total_ms_max")), 2644.0);
    // Span from the first start, 12:00:03.188 − 387 ms = 12:00:02.801, to the last end,
    // 12:17:04.018: 1021.217 s.
    close(num(cell(&h, so, "throughput_per_s")), 58.0 / 1021.217);
    // The text table has the Java/DB columns for a log with the split.
    let text = ok(&["perf", "-q", &fx("perf/soap-before.log")]);
    let row = text.lines().find(|l| l.starts_with("saveOrder ")).unwrap();
    let v: Vec<&str> = row.split_whitespace().collect();
    // java 80.328, db 640.862, share 88.86 %.
    assert_eq!(&v[v.len() - 3..], ["80.328", "640.862", "88.86"]);
}

#[test]
fn errors_by_message_by_hand_on_each_perf_fixture() {
    let errors = |log: &str| -> Vec<(String, String, String, String)> {
        let out = ok(&["perf", "-q", "--by", "error", "--format", "csv", &fx(log)]);
        let (h, rows) = csv_rows(&out);
        assert_eq!(
            h,
            [
                "file",
                "message",
                "count",
                "errors_pct",
                "requests_pct",
                "operations"
            ]
        );
        rows.iter()
            .map(|r| (r[1].clone(), r[2].clone(), r[4].clone(), r[5].clone()))
            .collect()
    };
    let s = |a: &str, b: &str, c: &str, d: &str| {
        (a.to_string(), b.to_string(), c.to_string(), d.to_string())
    };
    // soap-before.log: three `e-` lines of 480 requests: line 58 (getBalance, bare `e-`),
    // 204 (getContract, `e-ORA-20001: Клиент не найден; код 17`, a `;` inside), 389
    // (getContract, `e-java.net.SocketTimeoutException: Read timed out`). Each 1 of 480 =
    // 0.208333 % of the requests; one count each, so by message.
    assert_eq!(
        errors("perf/soap-before.log"),
        [
            s("", "1", "0.208333333333", "getBalance 1"),
            s(
                "ORA-20001: Клиент не найден; код 17",
                "1",
                "0.208333333333",
                "getContract 1"
            ),
            s(
                "java.net.SocketTimeoutException: Read timed out",
                "1",
                "0.208333333333",
                "getContract 1"
            ),
        ]
    );
    // The JTL: four failed samples. Codes 404 and 500 are keyed code/message (line 123's
    // message holds quotes); the 200 whose assertion failed is keyed by its failure message.
    assert_eq!(
        errors("perf/jmeter-daytrader.jtl"),
        [
            s("404/Not Found", "1", "0.5", "Quote 1"),
            s("500/Internal \"Server\" Error", "1", "0.5", "Login 1"),
            s("500/Internal Server Error", "1", "0.5", "Home 1"),
            s(
                "Test failed: text expected to contain /Order completed, thank you/",
                "1",
                "0.5",
                "Sell, confirm 1"
            ),
        ]
    );
    // The Grinder log: Errors=1 on three rows: test 2 HTTP 500, test 3 HTTP 503, test 3
    // HTTP 500. Two of 200 are `1 error, HTTP 500` (1 %), in test 2 and test 3 once each.
    assert_eq!(
        errors("perf/grinder-data_trader.log"),
        [
            s("1 error, HTTP 500", "2", "1", "test 2 1, test 3 1"),
            s("1 error, HTTP 503", "1", "0.5", "test 3 1"),
        ]
    );
    // Text: the table under its heading, a missing message written `(no message)`.
    let text = ok(&["perf", "-q", &fx("perf/soap-before.log")]);
    let t = section(&text, "errors by message\n", Some("\n\n"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        [
            "message",
            "count",
            "errors_pct",
            "requests_pct",
            "operations"
        ]
    );
    assert!(lines[2].starts_with("(no message) "), "{t}");
    assert!(
        lines[2].ends_with("1       33.33        0.2083  getBalance 1"),
        "{t}"
    );
    // JSON: the same rows in the perf object.
    let v = json(&["perf", &fx("perf/grinder-data_trader.log")]);
    let m = &v[0]["perf"]["error_messages"][0];
    assert_eq!(m["message"], "1 error, HTTP 500");
    assert_eq!(m["count"], 2);
    assert_eq!(m["operations"][1]["operation"], "test 3");
    // A log without failures has no table.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("fine.log");
    std::fs::write(&p, "[a];2012-09-21 12:00:30.000;100;40;60;1;op;\n").unwrap();
    assert!(!ok(&["perf", p.to_str().unwrap()]).contains("errors by message"));
}

// ---------------------------------------------------------------------------------------------
// Completions, man page, top-level help
// ---------------------------------------------------------------------------------------------

#[test]
fn bash_completions_load_and_the_other_shells_generate() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("gcperf.bash");
    std::fs::write(&script, ok(&["completions", "bash"])).unwrap();
    let o = std::process::Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(format!(
            "source '{}' && complete -p gcperf",
            script.display()
        ))
        .output()
        .expect("bash");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = String::from_utf8_lossy(&o.stdout);
    assert!(
        line.contains("-F _gcperf") && line.trim_end().ends_with("gcperf"),
        "{line}"
    );
    // The script knows the commands and the new option names.
    let text = std::fs::read_to_string(&script).unwrap();
    for w in [
        "summary",
        "correlate",
        "completions",
        "--pause-bands",
        "--latency-bands",
    ] {
        assert!(text.contains(w), "{w}");
    }
    for shell in ["zsh", "fish", "powershell"] {
        let s = ok(&["completions", shell]);
        assert!(
            s.contains("gcperf") && s.contains("latency-bands"),
            "{shell}"
        );
    }
    assert_eq!(run(&["completions", "tcsh"]).code, Some(2));
}

#[test]
fn man_page_lists_every_command() {
    let troff = ok(&["man"]);
    assert!(
        troff.starts_with(".ie") || troff.contains(".TH gcperf"),
        "{}",
        &troff[..200]
    );
    assert!(troff.contains(".SH SUBCOMMANDS"));
    let cli = gcperf::cli::Cli::command();
    for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = sub.get_name();
        // Listed in SUBCOMMANDS (`gcperf\-summary(1)`) and with its own section.
        assert!(troff.contains(&format!("gcperf\\-{name}(1)")), "{name}");
        assert!(
            troff.contains(&format!(".SH \"GCPERF {}\"", name.to_uppercase())),
            "{name}"
        );
    }
    // Rendered by man where it is installed.
    let man = std::process::Command::new("man")
        .args(["--version"])
        .output();
    if man.is_ok_and(|o| o.status.success()) {
        use std::io::Write;
        let mut child = std::process::Command::new("man")
            .args(["-l", "-"])
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("MANWIDTH", "100")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(troff.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let page = String::from_utf8_lossy(&o.stdout);
        assert!(
            page.contains("SUBCOMMANDS") && page.contains("GCPERF CORRELATE"),
            "{page}"
        );
        assert!(page.contains("--latency-bands"), "{page}");
    }
}

#[test]
fn top_level_help_names_every_input_kind_and_an_example_per_command() {
    for flag in ["-h", "--help"] {
        let h = ok(&[flag]);
        for kind in [
            "JRockit",
            "HotSpot",
            "unified",
            "OpenJ9",
            "semicolon",
            "JMeter",
            "Gatling",
            "k6",
            "Grinder",
            "access",
        ] {
            assert!(h.contains(kind), "{flag}: {kind}");
        }
        let cli = gcperf::cli::command();
        for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
            let name = sub.get_name();
            assert!(
                h.lines()
                    .any(|l| l.trim_start().starts_with(&format!("gcperf {name} "))),
                "{flag}: no example of {name}"
            );
        }
    }
}

/// `--help` lists every registered family by its name and what it reads, a line each, from
/// the registries: a new family is listed without a word of `cli.rs`.
#[test]
fn long_help_lists_every_registered_family() {
    use gcperf::parse::family::{GC_FAMILIES, PERF_FAMILIES};
    let h = ok(&["--help"]);
    let fams = GC_FAMILIES.iter().map(|f| (f.name(), f.about()));
    for (name, about) in fams.chain(PERF_FAMILIES.iter().map(|f| (f.name(), f.about()))) {
        assert!(
            h.lines()
                .any(|l| l.trim_start().starts_with(&format!("{name} "))
                    && l.trim_end().ends_with(about)),
            "no line for {name}: {about}\n{h}"
        );
    }
    assert!(!GC_FAMILIES.is_empty() && !PERF_FAMILIES.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------------

/// The bar is drawn on stderr when it is a terminal (`script` gives the command one) and the
/// work has taken a second; never on stdout, never with -q, and never into a pipe.
#[test]
fn progress_only_on_a_terminal_and_never_with_quiet() {
    let bin = assert_cmd::cargo::cargo_bin("gcperf");
    let dir = fx("hotspot");
    // Piped stderr: the messages only.
    let r = run(&["summary", &dir]);
    assert!(!r.stderr.contains("files,"), "{}", r.stderr);
    let tty = |cmd: &str| -> Option<String> {
        let o = std::process::Command::new("script")
            .args(["-qec", cmd, "/dev/null"])
            .output()
            .ok()?;
        o.status
            .success()
            .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let b = bin.display();
    // stderr on the terminal, stdout thrown away, the seven logs read in well under a second:
    // no bar.
    let Some(quick) = tty(&format!("{b} summary {dir} 2>&1 >/dev/null")) else {
        eprintln!("no `script` here: the terminal case is not checked");
        return;
    };
    assert!(!quick.contains("files,"), "{quick:?}");
    // A log on stdin that comes after 1.5 s: the bar ("0/1 files, ...") once a second passed.
    let log = fx("hotspot/jdk8-g1-details.log");
    let slow = |q: &str| format!("(sleep 1.5; cat {log}) | {b} summary {q} - 2>&1 >/dev/null");
    let bar = tty(&slow("")).unwrap();
    assert!(bar.contains("0/1 files,"), "{bar:?}");
    // With -q: nothing at all.
    assert_eq!(tty(&slow("-q")).unwrap(), "");
    // stdout on the terminal, stderr thrown away: the table, no bar.
    let table = tty(&format!("{b} summary {dir} 2>/dev/null")).unwrap();
    assert!(table.contains("pause_total_ms") && !table.contains("files,"));
}

/// `--slo` per operation judges the new per-operation figures too (p99 here). With CSV,
/// stdout holds the one table; the verdicts go to `--slo-out` and a line each to stderr.
#[test]
fn per_operation_objectives_on_the_new_figures() {
    let dir = tempfile::tempdir().unwrap();
    let verdicts = dir.path().join("verdicts.csv");
    let r = run(&[
        "perf",
        "--by",
        "op",
        "--slo",
        "p99<=100",
        "--format",
        "csv",
        "--slo-out",
        verdicts.to_str().unwrap(),
        &fx("perf/jmeter-daytrader.jtl"),
    ]);
    // Some operation fails it: exit 3.
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    assert!(!r.stdout.contains("p99<=100"), "{}", r.stdout);
    assert!(
        r.stderr
            .lines()
            .any(|l| l.ends_with("[Login]: p99<=100 (total_ms_p99 114.5 ms): FAIL")),
        "{}",
        r.stderr
    );
    let table = std::fs::read_to_string(&verdicts).unwrap();
    let verdict = |op: &str| {
        table
            .lines()
            .find(|l| l.contains(&format!(",{op},p99<=100,")))
            .unwrap_or_else(|| panic!("{op}: {table}"))
            .to_string()
    };
    // Login's p99 is 114.5 (worked out above), Logout's: its 16 times sorted end 17 18 19 20,
    // rank 0.99·15 = 14.85 → 19 + 0.85·1 = 19.85.
    assert!(verdict("Login").ends_with(",total_ms_p99,114.5,<=,100,ms,FAIL"));
    assert!(verdict("Logout").ends_with(",total_ms_p99,19.85,<=,100,ms,pass"));
}

/// A semicolon log over 1 MiB is read as a stream in blocks: its messages are counted the
/// same as in one piece.
#[test]
fn errors_by_message_of_a_streamed_semicolon_log() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.log");
    let mut s = String::new();
    let (mut timeouts, mut deadlocks, mut bare) = (0u64, 0u64, 0u64);
    let n = 30_000u32;
    for i in 0..n {
        let (sec, ms) = (i / 1000, i % 1000);
        let err = if i % 101 == 0 {
            timeouts += 1;
            "e-Read timed out"
        } else if i % 997 == 0 {
            deadlocks += 1;
            "e-ORA-00060: deadlock; retry"
        } else if i % 499 == 0 {
            bare += 1;
            "e-"
        } else {
            ""
        };
        s.push_str(&format!(
            "[{i:032X}];2012-09-21 12:{:02}:{:02}.{ms:03};30;10;20;1;op{};{err}\n",
            sec / 60,
            sec % 60,
            i % 3
        ));
    }
    std::fs::write(&p, &s).unwrap();
    assert!(s.len() > 1 << 20);
    let out = ok(&[
        "perf",
        "--by",
        "error",
        "--format",
        "csv",
        p.to_str().unwrap(),
    ]);
    let (_, rows) = csv_rows(&out);
    let got: Vec<(String, u64)> = rows
        .iter()
        .map(|r| (r[1].clone(), r[2].parse().unwrap()))
        .collect();
    // Multiples of 101 from 0 to 29997: 298 timeouts; the others as the loop wrote them.
    assert_eq!(timeouts, 298);
    let mut want = vec![
        ("Read timed out".to_string(), timeouts),
        ("ORA-00060: deadlock; retry".to_string(), deadlocks),
        (String::new(), bare),
    ];
    want.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    assert_eq!(got, want);
}

/// A pipe gets every column and no colour by default; `--color always` colours FAIL on stdout
/// and the ✗ on stderr, `--color never` and `auto` (not a terminal here) do not.
#[test]
fn terminal_width_and_colour_options() {
    let log = fx("perf/soap-before.log");
    let piped = run(&["summary", "-q", &log, "--slo", "p95<=500"]);
    assert_eq!(piped.code, Some(3));
    assert!(piped.stdout.contains("over_150ms_pct"), "{}", piped.stdout);
    assert!(
        !piped.stdout.contains("left out to fit"),
        "{}",
        piped.stdout
    );
    assert!(!piped.stdout.contains('\x1b') && !piped.stderr.contains('\x1b'));
    let always = run(&[
        "summary", "-q", &log, "--slo", "p95<=500", "--color", "always",
    ]);
    assert!(
        always.stdout.contains("\x1b[31mFAIL\x1b[0m"),
        "{}",
        always.stdout
    );
    assert!(
        always.stderr.contains("gcperf: \x1b[31m✗\x1b[0m "),
        "{}",
        always.stderr
    );
    // Only where the text table is the output: CSV is never coloured.
    let csv = run(&[
        "summary", "-q", &log, "--slo", "p95<=500", "--color", "always", "-f", "csv",
    ]);
    assert!(!csv.stdout.contains('\x1b'), "{}", csv.stdout);
    let never = run(&[
        "summary", "-q", &log, "--slo", "p95<=500", "--color", "never", "--wide",
    ]);
    assert_eq!(never.stdout, piped.stdout);
    assert!(!never.stderr.contains('\x1b'));
}

/// `summary --sort FIGURE[:asc|:desc] --top N`: the rows ranked by the figure, the first N
/// kept, text saying how many of how many; CSV without the heading; bad keys refused.
#[test]
fn summary_sorted_and_cut() {
    let dir = fx("hotspot");
    let all = run(&["summary", "-q", "-f", "csv", &dir]);
    let (h, rows) = csv_rows(&all.stdout);
    let mut maxes: Vec<(f64, String)> = rows
        .iter()
        .map(|r| (num(cell(&h, r, "pause_max_ms")), r[0].clone()))
        .collect();
    maxes.sort_by(|a, b| b.0.total_cmp(&a.0));
    let n = rows.len();
    let top = run(&[
        "summary",
        "-q",
        "-f",
        "csv",
        "--sort",
        "pause_max_ms:desc",
        "--top",
        "3",
        &dir,
    ]);
    let (_, got) = csv_rows(&top.stdout);
    let files: Vec<&str> = got.iter().map(|r| r[0].as_str()).collect();
    let want: Vec<&str> = maxes.iter().take(3).map(|(_, f)| f.as_str()).collect();
    assert_eq!(files, want);
    let text = ok(&[
        "summary",
        "-q",
        "--sort",
        "pause_max_ms:desc",
        "--top",
        "3",
        &dir,
    ]);
    assert!(
        text.starts_with(&format!("the 3 highest pause_max_ms of {n} logs\n\n")),
        "{text}"
    );
    // Ascending by default for a time; every row kept without --top.
    let asc = run(&["summary", "-q", "-f", "csv", "--sort", "pause_max_ms", &dir]);
    let (_, got) = csv_rows(&asc.stdout);
    assert_eq!(got.len(), n);
    assert_eq!(got[0][0], maxes.last().unwrap().1);
    for bad in [&["--sort", "nosuch"][..], &["--top", "0"][..]] {
        let r = run(&[&["summary", "-q", &dir][..], bad].concat());
        assert_eq!(r.code, Some(2), "{bad:?}: {}", r.stderr);
    }
}

/// On a terminal narrower than `compare`'s runs across, the runs are rows (the figures
/// across, those that fit); a pipe gets the runs across whatever their width.
#[test]
fn compare_runs_as_rows_when_they_do_not_fit_across() {
    let bin = assert_cmd::cargo::cargo_bin("gcperf");
    let logs = [
        fx("perf/soap-after.log"),
        fx("perf/soap-before.log"),
        fx("perf/grinder-data_trader.log"),
        fx("perf/jmeter-daytrader.jtl"),
    ]
    .join(" ");
    let piped = run(&[
        "compare",
        "-q",
        &fx("perf/soap-after.log"),
        &fx("perf/soap-before.log"),
        &fx("perf/grinder-data_trader.log"),
        &fx("perf/jmeter-daytrader.jtl"),
    ]);
    assert!(piped.stdout.contains("\nmetric "), "{}", piped.stdout);
    let o = std::process::Command::new("script")
        .args([
            "-qec",
            &format!("stty rows 40 cols 80; {} compare -q {logs}", bin.display()),
            "/dev/null",
        ])
        .output();
    let Some(o) = o.ok().filter(|o| o.status.success()) else {
        eprintln!("no `script` here: the terminal case is not checked");
        return;
    };
    let text = String::from_utf8_lossy(&o.stdout).replace('\r', "");
    // Runs as rows: a `run` header, a row per run, no `metric` column.
    assert!(text.contains("\nrun "), "{text}");
    assert!(!text.contains("\nmetric "), "{text}");
    for run in [
        "soap-after.log ",
        "soap-before.log ",
        "jmeter-daytrader.jtl ",
    ] {
        assert!(text.lines().any(|l| l.starts_with(run)), "{run}: {text}");
    }
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

/// The CSV options act on CSV and TSV only: with another format they are refused (exit 2,
/// named), not ignored; `gc --events` is CSV without `--format`; the report's tables are CSV
/// whatever its listing's format.
#[test]
fn csv_options_are_refused_where_no_csv_is_written() {
    let log = fx("hotspot/cms-diag.log");
    for (cmd, format, opt) in [
        ("summary", "json", "--excel"),
        ("summary", "jsonl", "--decimal-comma"),
        ("summary", "table", "--excel"),
        ("gc", "markdown", "--excel"),
        ("perf", "json", "--decimal-comma"),
    ] {
        let r = run(&[cmd, "-f", format, opt, &log]);
        assert_eq!(r.code, Some(2), "{cmd} {format} {opt}");
        assert!(
            r.stderr.contains(&format!(
                "{opt} is for CSV and TSV output (--format csv or tsv), not {format}"
            )),
            "{}",
            r.stderr
        );
    }
    // --sep with the default table.
    let r = run(&["compare", "--sep", ";", &log, &log]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("--sep is for CSV and TSV output"),
        "{}",
        r.stderr
    );
    // Every event is CSV by default: a byte order mark with --excel, `;` with --sep.
    let o = gcperf()
        .args(["gc", "--events", "--excel", "--sep", ";", &log])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(o
        .stdout
        .starts_with("\u{feff}file;record;start_s;".as_bytes()));
    // JSON Lines of the events: no byte order mark to ask for.
    let r = run(&["gc", "--events", "-f", "jsonl", "--excel", &log]);
    assert_eq!(r.code, Some(2));
    // The report's tables take them whatever the listing's format.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let r = run(&[
        "report",
        "-q",
        "--sep",
        ";",
        "-o",
        &out.display().to_string(),
        &log,
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.starts_with("file;kind;"), "{summary}");
}
