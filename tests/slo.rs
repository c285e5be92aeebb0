//! End-to-end: `--slo` objectives and the pause target, on generated performance runs whose
//! percentiles the test works out itself and on the JRockit fixtures (figures by hand).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn gcperf() -> Command {
    Command::cargo_bin("gcperf").expect("binary")
}

/// Runs `args`; returns the exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = gcperf().args(args).output().expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> (i32, Value) {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let (code, out, err) = run(&a);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, v)
}

/// A semicolon log of `n` requests (two operations), times from a seeded generator, in
/// shuffled order; returns the file's text and each operation's totals.
fn generated(n: usize, seed: u64) -> (String, Vec<u32>, Vec<u32>) {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as u32
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut text = String::new();
    for i in 0..n {
        let total = 1 + next() % 400;
        let op = if next() % 3 == 0 { "getB" } else { "getA" };
        if op == "getA" {
            a.push(total)
        } else {
            b.push(total)
        }
        let db = total / 3;
        // One request a second from 12:00:00.
        let s = i % 60;
        let m = (i / 60) % 60;
        text.push_str(&format!(
            "[{:032X}];2012-09-21 12:{m:02}:{s:02}.000;{total};{};{db};1;{op};\n",
            i,
            total - db
        ));
    }
    (text, a, b)
}

/// Linear percentile at a rank that is a whole number (`p * (n - 1)`, n chosen so).
fn at_rank(sorted: &[u32], p_num: usize, p_den: usize) -> f64 {
    let r = p_num * (sorted.len() - 1);
    assert_eq!(r % p_den, 0, "rank not whole");
    f64::from(sorted[r / p_den])
}

struct Gen {
    _dir: tempfile::TempDir,
    path: PathBuf,
    all: Vec<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
}

fn gen(seed: u64) -> Gen {
    // 201 requests: every percentile's rank (p × 200) is a whole number, so the truth is one
    // of the times, exact.
    let (text, mut a, mut b) = generated(201, seed);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.log");
    std::fs::write(&path, text).unwrap();
    let mut all: Vec<u32> = a.iter().chain(&b).copied().collect();
    all.sort_unstable();
    a.sort_unstable();
    b.sort_unstable();
    Gen {
        _dir: dir,
        path,
        all,
        a,
        b,
    }
}

#[test]
fn verdicts_are_exact_at_the_boundary() {
    let g = gen(7);
    let p = g.path.to_str().unwrap();
    let truth = [
        ("p50", at_rank(&g.all, 50, 100)),
        ("p90", at_rank(&g.all, 90, 100)),
        ("p95", at_rank(&g.all, 95, 100)),
        ("p99", at_rank(&g.all, 99, 100)),
        ("max", f64::from(*g.all.last().unwrap())),
    ];
    let mut exprs = Vec::new();
    let mut want = Vec::new();
    for (m, t) in truth {
        for (op, pass) in [("<=", true), ("<", false), (">=", true), (">", false)] {
            exprs.push(format!("{m}{op}{t}"));
            want.push((format!("{m}{op}{t}"), t, pass));
        }
        // The same limit in seconds.
        exprs.push(format!("{m}<={}s", t / 1000.0));
        want.push((format!("{m}<={}s", t / 1000.0), t, true));
    }
    let slo = exprs.join(",");
    let (code, v) = json(&["perf", p, "--slo", &slo]);
    assert_eq!(code, 3, "some objectives fail");
    let verdicts = v[0]["slo"].as_array().unwrap();
    assert_eq!(verdicts.len(), want.len());
    for (got, (expr, t, pass)) in verdicts.iter().zip(&want) {
        assert_eq!(got["objective"], expr.as_str());
        assert_eq!(got["value"].as_f64(), Some(*t), "{expr}");
        assert_eq!(got["limit"].as_f64(), Some(*t), "{expr}");
        assert_eq!(got["pass"].as_bool(), Some(*pass), "{expr}: {got}");
    }
    assert_eq!(verdicts[0]["metric"], "total_ms_p50");
    assert_eq!(verdicts[0]["unit"], "ms");
}

#[test]
fn exit_code_3_only_when_one_fails() {
    let g = gen(11);
    let p = g.path.to_str().unwrap();
    let p95 = at_rank(&g.all, 95, 100);
    let max = f64::from(*g.all.last().unwrap());
    // All met: 0, and the text says so.
    let ok = format!("p95<={p95},max<={max},errors==0,requests>=201");
    let (code, out, err) = run(&["perf", p, "--slo", &ok]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Objectives: 4 of 4 met"), "{out}");
    // Each verdict a line on stderr, whatever stdout is.
    assert_eq!(err.matches("gcperf: ✓ ").count(), 4, "{err}");
    assert!(!err.contains('✗'), "{err}");
    // The same with --strict on a clean log: still 0.
    assert_eq!(run(&["perf", p, "--slo", &ok, "--strict"]).0, 0);
    // One of them just over: 3, on every command that reads the log.
    let bad = format!("p95<={p95},max<{max}");
    for cmd in ["perf", "summary", "compare"] {
        let (code, out, err) = run(&[cmd, p, "--slo", &bad]);
        assert_eq!(code, 3, "{cmd}: {out}");
        assert!(out.contains("Objectives: 1 of 2 met"), "{cmd}: {out}");
        assert!(out.contains("FAIL"), "{cmd}: {out}");
        // Said on stderr too, with the run (compare's label: the file name), the failure
        // first.
        let run = if cmd == "compare" { "run.log" } else { p };
        let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("gcperf: ")).collect();
        assert_eq!(
            lines,
            [
                format!("gcperf: ✗ {run}: max<{max} (total_ms_max {max} ms): FAIL"),
                format!("gcperf: ✓ {run}: p95<={p95} (total_ms_p95 {p95} ms)"),
            ],
            "{cmd}: {err}"
        );
    }
    // Without --slo: 0 as before, no verdicts.
    let (code, v) = json(&["perf", p]);
    assert_eq!(code, 0);
    assert!(v[0].get("slo").is_none());
    // The share over any threshold, added to --over: requests over 200 ms of 201.
    let over = g.all.iter().filter(|t| **t > 200).count();
    let (code, v) = json(&["summary", p, "--slo", "over_200ms_pct<=100"]);
    assert_eq!(code, 0);
    let share = v[0]["slo"][0]["value"].as_f64().unwrap();
    assert!(
        (share - 100.0 * over as f64 / 201.0).abs() < 1e-9,
        "{share}"
    );
    assert_eq!(v[0]["slo"][0]["metric"], "over_200ms_pct");
}

#[test]
fn unknown_or_malformed_objectives_are_exit_2_naming_them() {
    let g = gen(3);
    let p = g.path.to_str().unwrap();
    for (expr, says) in [
        ("p96<=50", "unknown metric \"p96\""),
        ("latency<=50", "unknown metric \"latency\""),
        ("p95=50", "unknown comparison \"=\""),
        ("p95=<50", "unknown comparison \"=<\""),
        ("p95", "no comparison"),
        ("p95<=fast", "is not a number"),
        ("p95<=50kb", "unknown unit \"kb\""),
        ("requests>=5ms", "plain number"),
        // A GC figure on a performance-log command.
        (
            "pause_max_ms<=30",
            "not a figure of the logs this command reads",
        ),
    ] {
        let (code, out, err) = run(&["perf", p, "--slo", &format!("p95<=1000,{expr}")]);
        assert_eq!(code, 2, "{expr}: {err}");
        assert!(out.is_empty(), "{expr}: {out}");
        assert_eq!(err.lines().count(), 1, "{expr}: {err}");
        assert!(err.contains(expr) && err.contains(says), "{expr}: {err}");
    }
    // A figure no input has: a GC log summarised with a performance-log-only alias.
    let det = fixture("jrockit/r26-detgc.log");
    let (code, out, err) = run(&["summary", det.to_str().unwrap(), "--slo", "p90<=50"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no input has the figure p90"), "{err}");
}

#[test]
fn per_operation_with_by_op() {
    let g = gen(5);
    let p = g.path.to_str().unwrap();
    let (max_a, max_b) = (*g.a.last().unwrap(), *g.b.last().unwrap());
    let limit = max_a.min(max_b);
    let (code, v) = json(&["perf", p, "--by", "op", "--slo", &format!("max<={limit}")]);
    assert_eq!(code, 3);
    let s = v[0]["slo"].as_array().unwrap();
    // The run, then each operation.
    assert_eq!(s.len(), 3, "{s:?}");
    assert!(s[0].get("operation").is_none());
    assert_eq!(s[0]["pass"], false);
    for (name, max) in [("getA", max_a), ("getB", max_b)] {
        let r = s.iter().find(|r| r["operation"] == name).unwrap();
        assert_eq!(r["metric"], "total_ms_max");
        assert_eq!(r["value"].as_f64(), Some(f64::from(max)));
        assert_eq!(r["pass"].as_bool(), Some(max <= limit));
    }
    // Without --by: per run only.
    let (_, v) = json(&["perf", p, "--slo", &format!("max<={limit}")]);
    assert_eq!(v[0]["slo"].as_array().unwrap().len(), 1);
}

#[test]
fn verdict_rows_in_every_format() {
    let g = gen(9);
    let p = g.path.to_str().unwrap();
    let max = *g.all.last().unwrap();
    let slo = format!("max<={max}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("verdicts.csv");
    let o = out.to_str().unwrap();
    let (code, csv, _) = run(&[
        "summary",
        p,
        "--slo",
        &slo,
        "--format",
        "csv",
        "--slo-out",
        o,
    ]);
    assert_eq!(code, 0);
    // One table on stdout, the verdicts' in their own file.
    assert!(!csv.contains("\n\n") && !csv.contains("objective"), "{csv}");
    let verdicts = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        verdicts,
        format!(
            "file,objective,metric,value,op,limit,unit,verdict\n{p},{slo},total_ms_max,{max},<=,{max},ms,pass\n"
        )
    );
    let (_, md, _) = run(&["perf", p, "--slo", &slo, "--format", "markdown"]);
    assert!(md.contains("### Objectives: 1 of 1 met"), "{md}");
    assert!(
        md.contains(&format!("| {slo} | total_ms_max | {max} |")),
        "{md}"
    );
}

#[test]
fn pause_max_against_the_detgc_and_gencon_fixtures() {
    let det = fixture("jrockit/r26-detgc.log");
    let gen = fixture("jrockit/r26-gencon.log");
    let (d, g) = (det.to_str().unwrap(), gen.to_str().unwrap());
    // DetGC: its longest single pause is line 82's `old collection phase 3 pause time:
    // 28.907310 ms`, under 30: met. Gencon: line 62's old collection, `sum of pauses 274.862
    // ms`, not itemised, so one pause of 274.862 ms: failed.
    let (code, v) = json(&["summary", d, g, "--slo", "pause_max_ms<=30", "-q"]);
    assert_eq!(code, 3);
    assert_eq!(v[0]["slo"][0]["value"].as_f64(), Some(28.90731));
    assert_eq!(v[0]["slo"][0]["pass"], true);
    assert_eq!(v[1]["slo"][0]["value"].as_f64(), Some(274.862));
    assert_eq!(v[1]["slo"][0]["pass"], false);
    // DetGC alone: met, exit 0, on `gc` and `summary`.
    assert_eq!(run(&["gc", d, "--slo", "pause_max_ms<=30"]).0, 0);
    assert_eq!(run(&["summary", d, "--slo", "max<=30ms"]).0, 0);
    // At the boundary: the longest pause itself.
    assert_eq!(run(&["gc", d, "--slo", "pause_max_ms<=28.90731"]).0, 0);
    assert_eq!(run(&["gc", d, "--slo", "pause_max_ms<28.90731"]).0, 3);
    // A failed objective is 3 even where --strict would give 4 (gencon has skipped lines).
    assert_eq!(
        run(&["gc", g, "--slo", "pause_max_ms<=30", "--strict", "-q"]).0,
        3
    );
    assert_eq!(
        run(&["gc", g, "--slo", "pause_max_ms<=300", "--strict", "-q"]).0,
        4
    );
    // A performance-log figure on `gc`: exit 2.
    assert_eq!(run(&["gc", d, "--slo", "error_pct<1"]).0, 2);
}

#[test]
fn pause_target_from_the_log_header() {
    // r27-detgc-target.log: `Deterministic GC target pause time: 20 ms` and five itemised
    // pauses: 5, 20, 20.5, 31.25, 12 ms. Over 20 ms (a pause of exactly 20 meets it): 20.5
    // and 31.25, 2 of 5 = 40 %.
    let t = fixture("jrockit/r27-detgc-target.log");
    let t = t.to_str().unwrap();
    let (code, v) = json(&["gc", t]);
    assert_eq!(code, 0);
    let g = &v[0]["gc"];
    assert_eq!(v[0]["skipped_lines"], 0);
    assert_eq!(g["pauses"], 5);
    assert_eq!(g["pause_target_ms"].as_f64(), Some(20.0));
    assert_eq!(g["pauses_over_target"], 2);
    assert_eq!(g["pauses_over_target_pct"].as_f64(), Some(40.0));
    assert!(v[0]["meta"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m[0] == "pause_target_ms" && m[1] == "20"));
    // --pause-target overrides it: over 12 ms, 20, 20.5 and 31.25: 3 (60 %); 0.005s: 4.
    let (_, v) = json(&["summary", t, "--pause-target", "12ms"]);
    assert_eq!(v[0]["gc"]["pauses_over_target"], 3);
    assert_eq!(v[0]["gc"]["pauses_over_target_pct"].as_f64(), Some(60.0));
    let (_, v) = json(&["summary", t, "--pause-target", "0.005s"]);
    assert_eq!(v[0]["gc"]["pause_target_ms"].as_f64(), Some(5.0));
    assert_eq!(v[0]["gc"]["pauses_over_target"], 4);
    // The DetGC fixture states 30 ms; its longest pause is 28.907: none over.
    let d = fixture("jrockit/r26-detgc.log");
    let (_, v) = json(&["summary", d.to_str().unwrap()]);
    assert_eq!(v[0]["gc"]["pause_target_ms"].as_f64(), Some(30.0));
    assert_eq!(v[0]["gc"]["pauses_over_target"], 0);
    assert_eq!(v[0]["skipped_lines"], 0);
    // Any log: the gencon fixture (no target) with one; its pauses over 30 ms counted here
    // from the log: collection lines whose pause is over 30.
    let gencon = fixture("jrockit/r26-gencon.log");
    let text = std::fs::read_to_string(&gencon).unwrap();
    let over = text
        .lines()
        .filter(|l| l.contains("K->") && l.ends_with(" ms"))
        .filter_map(|l| l.rsplit(' ').nth(1)?.parse::<f64>().ok())
        .filter(|ms| *ms > 30.0)
        .count();
    let (_, v) = json(&["summary", gencon.to_str().unwrap(), "-q"]);
    assert!(v[0]["gc"].get("pause_target_ms").is_none());
    let (_, v) = json(&[
        "summary",
        gencon.to_str().unwrap(),
        "-q",
        "--pause-target",
        "30",
    ]);
    assert_eq!(v[0]["gc"]["pauses_over_target"].as_u64(), Some(over as u64));
    // As an objective; the table shows it.
    assert_eq!(run(&["gc", t, "--slo", "pauses_over_target==0"]).0, 3);
    assert_eq!(run(&["gc", t, "--slo", "pauses_over_target_pct<=40"]).0, 0);
    let (_, out, _) = run(&["gc", t]);
    assert!(
        out.contains("pause target 20 ms: 2 pauses over it (40.0000 %)"),
        "{out}"
    );
    // A log without a target fails an objective on it (no value), never passes.
    let (code, v) = json(&[
        "summary",
        gencon.to_str().unwrap(),
        "-q",
        "--slo",
        "pauses_over_target==0",
    ]);
    assert_eq!(code, 3);
    assert!(v[0]["slo"][0]["value"].is_null());
    // `compare` shows the target's rows where a run has one.
    let (_, csv, _) = run(&["compare", d.to_str().unwrap(), t, "--format", "csv"]);
    assert!(csv.contains("\ngc,pauses_over_target,0,2\n"), "{csv}");
    assert!(csv.contains("\ngc,pauses_over_target_pct,0,40\n"), "{csv}");
    let (_, out, _) = run(&[
        "summary",
        gencon.to_str().unwrap(),
        "-q",
        "--slo",
        "pauses_over_target==0",
    ]);
    assert!(out.contains("pauses_over_target   none  =="), "{out}");
    // A bad --pause-target: exit 2.
    assert_eq!(run(&["summary", t, "--pause-target", "fast"]).0, 2);
    assert_eq!(run(&["summary", t, "--pause-target", "0"]).0, 2);
    // `perf` reads no GC log: the option is refused, not ignored.
    let g = gen(1);
    assert_eq!(
        run(&["perf", g.path.to_str().unwrap(), "--pause-target", "30"]).0,
        2
    );
}

#[test]
fn report_writes_the_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let d = fixture("jrockit/r26-detgc.log");
    let (code, _, err) = run(&[
        "report",
        d.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--slo",
        "pause_max_ms<=30,throughput_pct>=99.5",
    ]);
    // Throughput 99.105 % (605.22 ms paused in 67.607 s): under 99.5, failed.
    assert_eq!(code, 3, "{err}");
    let csv = std::fs::read_to_string(out.join("slo.csv")).unwrap();
    assert!(
        csv.contains("pause_max_ms<=30,pause_max_ms,28.90731,<=,30,ms,pass"),
        "{csv}"
    );
    assert!(
        csv.contains("throughput_pct>=99.5,throughput_pct,99.1047899344,>=,99.5,%,FAIL"),
        "{csv}"
    );
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("Objectives: 1 of 2 met"));
    // The failed one on the index with how far off it is: (99.5 - 99.1048) / 99.5 = 0.397 %
    // short; the run ranked by it, and its page has both verdicts.
    assert!(
        html.contains("<td>throughput_pct&gt;=99.5</td><td></td><td class=\"n\" data-v=\"99.1047899344\">99.1047899344</td><td class=\"n bad\" data-v=\"0.39719604582"),
        "{html}"
    );
    assert!(html.contains("ranked by worst objective margin"));
    // Its run named by a link to the run's page.
    assert!(
        html.contains(&format!(
            "<tr><td><a href=\"runs/r26-detgc.html\">{}</a></td><td>throughput_pct&gt;=99.5</td>",
            d.display()
        )),
        "{html}"
    );
    let page = std::fs::read_to_string(out.join("runs/r26-detgc.html")).unwrap();
    assert!(page.contains("<div class=\"v bad\">1 of 2</div><div class=\"k\">objectives met</div>"));
    assert!(page.contains("pause_max_ms&lt;=30") && page.contains("throughput_pct&gt;=99.5"));
}

/// `--slo` with nothing in it is an error (exit 2), not a run judged against nothing.
#[test]
fn an_empty_objective_list_is_an_error() {
    for e in ["", ",", " , "] {
        let out = assert_cmd::Command::cargo_bin("gcperf")
            .unwrap()
            .args([
                "summary",
                "-q",
                "--slo",
                e,
                "fixtures/jrockit/r26-detgc.log",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{e:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--slo: no objective given"), "{e:?}: {err}");
    }
}

/// `--pause-target` is listed and taken only where GC logs are read; `--slo-out` only with
/// `--slo`; a file that cannot be written is exit 2, named.
#[test]
fn options_only_where_they_act() {
    let g = gen(5);
    let p = g.path.to_str().unwrap();
    let help = |cmd: &str| {
        let o = gcperf().args([cmd, "--help"]).output().expect("run");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(!help("perf").contains("--pause-target"));
    for cmd in ["gc", "summary", "compare", "report"] {
        assert!(help(cmd).contains("--pause-target"), "{cmd}");
        assert!(help(cmd).contains("--slo-out"), "{cmd}");
    }
    assert_eq!(run(&["perf", p, "--pause-target", "30ms"]).0, 2);
    let (code, _, err) = run(&["perf", p, "--slo-out", "v.csv"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[
        "perf",
        p,
        "--slo",
        "max<=1",
        "--slo-out",
        "/nonexistent/v.csv",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/v.csv"), "{err}");
}

/// Nothing readable (exit 1): `--slo-out` is not written, and a file already there keeps what
/// it holds, on every command that takes it (there are no verdicts to write). With a readable
/// input beside the missing one the verdicts replace it.
#[test]
fn slo_out_untouched_when_nothing_was_readable() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.log");
    let empty = dir.path().join("empty.log");
    std::fs::write(&empty, "").unwrap();
    let (m, e) = (missing.to_str().unwrap(), empty.to_str().unwrap());
    let report = dir.path().join("report");
    let r = report.to_str().unwrap();
    for cmd in ["summary", "perf", "gc", "compare", "report"] {
        let kept = dir.path().join(format!("{cmd}-kept.csv"));
        std::fs::write(&kept, "keep\n").unwrap();
        let fresh = dir.path().join(format!("{cmd}-fresh.csv"));
        for out in [&kept, &fresh] {
            let mut args = vec![cmd, "-q", "--slo", "max<=1", "--slo-out"];
            args.push(out.to_str().unwrap());
            if cmd == "report" {
                args.extend(["-o", r]);
            }
            args.extend([m, e]);
            let (code, _, err) = run(&args);
            assert_eq!(code, 1, "{cmd}: {err}");
        }
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "keep\n", "{cmd}");
        assert!(!fresh.exists(), "{cmd} wrote {}", fresh.display());
    }
    // A readable input: the verdicts replace the file (soap-before's longest request is over
    // 1 ms, so the objective fails, exit 3).
    let kept = dir.path().join("summary-kept.csv");
    let p = fixture("perf/soap-before.log");
    let (code, _, err) = run(&[
        "summary",
        "-q",
        "--slo",
        "max<=1",
        "--slo-out",
        kept.to_str().unwrap(),
        m,
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{err}");
    let verdicts = std::fs::read_to_string(&kept).unwrap();
    assert!(
        verdicts.starts_with("file,objective,") && verdicts.contains(",FAIL\n"),
        "{verdicts}"
    );
}

/// Shares over no requests are unknowable: a window past the log's end (soap-before.log's
/// requests are on 2012-09-21) leaves 0 requests, so every band and `--over` share is empty in
/// every format and an objective on one fails; the counts stay a known 0. The whole log's
/// empty bands (`0`, `0-50`, `50-200`, `>10000`: no request of its 480 in them) are a known 0 %.
#[test]
fn shares_of_no_requests_are_empty_and_fail_their_objective() {
    let log = fixture("perf/soap-before.log");
    let log = log.to_str().unwrap();
    let window = ["--from", "2030-01-01T00:00:00"];
    let (code, out, err) = run(&[
        &["summary", "-q", "--slo", "over_50ms_pct<=10"][..],
        &window,
        &[log],
    ]
    .concat());
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("(no over_50ms_pct): FAIL"), "{err}");

    let (_, v) = json(&[&["summary", "-q"][..], &window, &[log]].concat());
    let p = &v[0]["perf"];
    assert_eq!(p["requests"], 0);
    for o in p["over"].as_array().unwrap() {
        assert_eq!(
            (&o["count"], &o["share_pct"]),
            (&Value::from(0), &Value::Null)
        );
    }
    for b in p["bands"].as_array().unwrap() {
        assert_eq!(
            (&b["count"], &b["share_pct"]),
            (&Value::from(0), &Value::Null)
        );
    }

    // CSV: the summary's over_<N>ms_pct cells and `perf --by over`'s share cells are empty.
    let (_, out, _) = run(&[&["summary", "-q", "--format", "csv"][..], &window, &[log]].concat());
    let mut lines = out.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cell = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
    assert_eq!(
        (
            cell("requests"),
            cell("over_50ms_pct"),
            cell("over_150ms_pct")
        ),
        ("0", "", "")
    );
    let (_, out, _) = run(&[
        &["perf", "-q", "--by", "over", "--format", "csv"][..],
        &window,
        &[log],
    ]
    .concat());
    assert!(out.contains(&format!("{log},50,0,\n")), "{out}");
    // Text: the count, and `–` for the share.
    let (_, out, _) = run(&[&["perf", "-q"][..], &window, &[log]].concat());
    assert!(out.contains("over 50 ms: 0 (–)\n"), "{out}");

    // The whole log: 480 requests, none in the `0` band: 0 of 480 is 0 %, not empty.
    let (code, v) = json(&["summary", "-q", "--slo", "over_50ms_pct<=10", log]);
    assert_eq!(code, 3, "all 480 requests are over 50 ms: 100 %");
    let b = &v[0]["perf"]["bands"][0];
    assert_eq!(
        (&b["label"], &b["count"], &b["share_pct"]),
        (&Value::from("0"), &Value::from(0), &Value::from(0.0))
    );
}

/// No pauses in the window (g1-jdk17.log spans 3 s; `--skip 1000s` leaves nothing): the pause
/// total is a sum over nothing, empty as the longest and mean pause are, and an objective on
/// it fails; the pause bands' shares are empty, their counts 0. The whole log's 9 pauses give
/// 4.25 + 5.5 + 6 + 2 + 0.5 + 7 + 8 + 25 + 3 = 61.25 ms, within 100 ms.
#[test]
fn no_pauses_in_the_window_fail_pause_objectives() {
    let log = fixture("unified/g1-jdk17.log");
    let log = log.to_str().unwrap();
    let (code, out, err) = run(&[
        "summary",
        "-q",
        "--skip",
        "1000s",
        "--slo",
        "pause_total_ms<=10ms",
        log,
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("(no pause_total_ms): FAIL"), "{err}");
    let (_, v) = json(&["summary", "-q", "--skip", "1000s", log]);
    let g = &v[0]["gc"];
    assert_eq!(
        (&g["pauses"], &g["pause_total_ms"]),
        (&Value::from(0), &Value::Null)
    );
    let (_, out, _) = run(&[
        "gc", "-q", "--skip", "1000s", "--by", "band", "--format", "csv", log,
    ]);
    assert!(out.contains(&format!("{log},0-10,0,\n")), "{out}");
    assert!(!out.contains(",0\n"), "no share of no pauses is 0: {out}");

    let (code, v) = json(&["summary", "-q", "--slo", "pause_total_ms<=100ms", log]);
    assert_eq!(code, 0);
    assert_eq!(v[0]["gc"]["pause_total_ms"], 61.25);
}
