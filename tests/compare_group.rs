//! `gcperf compare --group` (repeats of one configuration averaged, issue 12 must-show 4) and
//! the deltas against a baseline. Every expected figure is worked out here, from the
//! generated pauses and requests or by hand from the fixtures, not by gcperf's analysis.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn gcperf(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("gcperf")
        .unwrap()
        .args(["compare", "-q"])
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Run k's pauses in whole µs (the log's 7 decimals of a second write them exactly).
fn pauses_us(k: u64) -> Vec<u64> {
    (0..10 + 3 * k)
        .map(|i| 1_000 + k * 500 + (i * 7919 + k * 104_729) % 3_000)
        .collect()
}

/// A HotSpot -verbose:gc log of those pauses, one every 3 s.
fn hotspot_log(pauses: &[u64]) -> String {
    let mut s = String::new();
    for (i, us) in pauses.iter().enumerate() {
        s.push_str(&format!(
            "{}.000: [GC 200000K->60000K(262144K), {}.{:06}0 secs]\n",
            (i as u64 + 1) * 3,
            us / 1_000_000,
            us % 1_000_000
        ));
    }
    s
}

/// A semicolon performance log of 201 requests (times from a seeded generator), one a
/// second; returns the text and the sorted totals.
fn perf_log(seed: u64) -> (String, Vec<u32>) {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as u32
    };
    let mut totals = Vec::new();
    let mut text = String::new();
    for i in 0..201usize {
        let total = 1 + next() % 400;
        totals.push(total);
        let db = total / 3;
        text.push_str(&format!(
            "[{:032X}];2012-09-21 12:{:02}:{:02}.000;{total};{};{db};1;getA;\n",
            i,
            (i / 60) % 60,
            i % 60,
            total - db
        ));
    }
    totals.sort_unstable();
    (text, totals)
}

/// Single-run figures, from the generator: (name, value) in the keys compare uses.
fn gc_truth(k: u64) -> Vec<(&'static str, f64)> {
    let p = pauses_us(k);
    let total = p.iter().sum::<u64>() as f64 / 1000.0;
    vec![
        ("pauses", p.len() as f64),
        ("pause_total_ms", total),
        ("pause_max_ms", *p.iter().max().unwrap() as f64 / 1000.0),
        ("pause_mean_ms", total / p.len() as f64),
    ]
}

fn perf_truth(totals: &[u32]) -> Vec<(&'static str, f64)> {
    let n = totals.len() as f64;
    vec![
        ("requests", n),
        ("total_ms_max", f64::from(*totals.last().unwrap())),
        (
            "total_ms_mean",
            totals.iter().map(|&t| f64::from(t)).sum::<f64>() / n,
        ),
        // 201 requests: the ranks p × 200 are whole, so the percentile is one of the times.
        ("total_ms_p50", f64::from(totals[100])),
        ("total_ms_p95", f64::from(totals[190])),
    ]
}

/// Mean, min and max of two repeats' figures.
fn spread(a: f64, b: f64) -> (f64, f64, f64) {
    ((a + b) / 2.0, a.min(b), a.max(b))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// `--group` specs for 3 groups × 2 files: g0 = files 0,1; g1 = 2,3; g2 = 4,5.
fn specs(files: &[String]) -> Vec<String> {
    (0..3)
        .map(|g| format!("g{g}={},{}", files[2 * g], files[2 * g + 1]))
        .collect()
}

fn with_groups<'a>(specs: &'a [String], rest: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = Vec::new();
    for s in specs {
        v.extend(["--group", s.as_str()]);
    }
    v.extend(rest);
    v
}

/// The CSV row of a metric: its values per column.
fn csv_row(csv: &str, metric: &str) -> Vec<f64> {
    let row = csv
        .lines()
        .find(|l| l.split(',').nth(1) == Some(metric))
        .unwrap_or_else(|| panic!("no {metric} row in {csv}"));
    row.split(',').skip(2).map(|v| v.parse().unwrap()).collect()
}

fn check_groups(section: &str, files: &[String], truth: &[Vec<(&'static str, f64)>]) {
    let specs = specs(files);
    // JSON: one object per group, each figure {mean, min, max, runs}.
    let j: Value =
        serde_json::from_str(&stdout(&gcperf(&with_groups(&specs, &["-f", "json"])))).unwrap();
    let j = j.as_array().unwrap();
    assert_eq!(j.len(), 3);
    let csv = stdout(&gcperf(&with_groups(&specs, &["-f", "csv"])));
    assert_eq!(
        csv.lines().next().unwrap(),
        "section,metric,g0,g1,g2",
        "{csv}"
    );
    assert_eq!(csv_row(&csv, "repeats"), [2.0, 2.0, 2.0]);
    let mut checked = 0;
    for (g, obj) in j.iter().enumerate() {
        assert_eq!(obj["label"], format!("g{g}"));
        assert_eq!(obj["runs"], 2);
        assert_eq!(obj["repeats"].as_array().unwrap().len(), 2);
        for (fi, (name, a)) in truth[2 * g].iter().enumerate() {
            let b = truth[2 * g + 1][fi].1;
            let (mean, min, max) = spread(*a, b);
            let f = &obj[section][*name];
            let got = |k: &str| f[k].as_f64().unwrap();
            assert!(close(got("mean"), mean), "g{g} {name} mean {f} vs {mean}");
            assert!(close(got("min"), min), "g{g} {name} min {f} vs {min}");
            assert!(close(got("max"), max), "g{g} {name} max {f} vs {max}");
            assert_eq!(f["runs"], 2);
            // CSV: the mean row and the _min/_max rows, full precision.
            assert!(close(csv_row(&csv, name)[g], mean), "csv {name}");
            assert!(close(csv_row(&csv, &format!("{name}_min"))[g], min));
            assert!(close(csv_row(&csv, &format!("{name}_max"))[g], max));
            checked += 1;
        }
    }
    assert_eq!(checked, 3 * truth[0].len());
}

#[test]
fn three_groups_of_two_gc_runs_mean_and_range_of_each_figure() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = (0..6)
        .map(|k| {
            write(
                dir.path(),
                &format!("r{k}.log"),
                &hotspot_log(&pauses_us(k)),
            )
        })
        .collect();
    let truth: Vec<_> = (0..6).map(gc_truth).collect();
    check_groups("gc", &files, &truth);

    // Text: `mean (min–max)` with 3 decimals for ms; counts as integers, a mean of 10 and 13
    // pauses as 11.5.
    let text = stdout(&gcperf(&with_groups(&specs(&files), &[])));
    assert!(text.contains("mean (min–max) over the repeats"), "{text}");
    let row = |m: &str| -> Vec<String> {
        let l = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(m))
            .unwrap_or_else(|| panic!("no {m} row: {text}"));
        let cells: Vec<&str> = l
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        cells[1..].iter().map(|c| c.to_string()).collect()
    };
    for g in 0..3 {
        let (a, b) = (truth[2 * g][1].1, truth[2 * g + 1][1].1);
        let (mean, min, max) = spread(a, b);
        assert_eq!(
            row("pause_total_ms")[g],
            format!("{mean:.3} ({min:.3}–{max:.3})")
        );
    }
    let n = |k: u64| 10 + 3 * k;
    assert_eq!(
        row("pauses")[0],
        format!("{} ({}–{})", (n(0) + n(1)) as f64 / 2.0, n(0), n(1))
    );
    // Deltas of the groups' means against the first group.
    let t = |g: usize| spread(truth[2 * g][1].1, truth[2 * g + 1][1].1).0;
    let j: Value = serde_json::from_str(&stdout(&gcperf(&with_groups(
        &specs(&files),
        &["-f", "json", "--baseline", "g1"],
    ))))
    .unwrap();
    for g in 0..3 {
        let d = &j[g]["delta"];
        assert_eq!(d["baseline"], "g1");
        let got = d["gc"]["pause_total_ms_delta"].as_f64().unwrap();
        assert!(close(got, t(g) - t(1)), "g{g}: {got}");
        let pct = d["gc"]["pause_total_ms_delta_pct"].as_f64().unwrap();
        assert!(close(pct, (t(g) - t(1)) / t(1) * 100.0), "g{g}: {pct}");
    }
    // --sort ranks the groups by their means (highest total first: g2, g1, g0).
    let csv = stdout(&gcperf(&with_groups(
        &specs(&files),
        &["-f", "csv", "--sort", "pause_total_ms:desc"],
    )));
    assert_eq!(csv.lines().next().unwrap(), "section,metric,g2,g1,g0");
}

#[test]
fn three_groups_of_two_perf_runs_mean_and_range_of_each_figure() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut truth = Vec::new();
    for k in 0..6u64 {
        let (text, totals) = perf_log(11 + k * 7);
        files.push(write(dir.path(), &format!("p{k}.log"), &text));
        truth.push(perf_truth(&totals));
    }
    check_groups("perf", &files, &truth);
}

#[test]
fn group_usage_errors_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "a.log", &hotspot_log(&pauses_us(0)));
    for (args, says) in [
        (vec!["--group", "base="], "no files"),
        (vec!["--group", "base=,"], "no files"),
        (vec!["--group", &f[..]], "LABEL=FILE"),
        (vec!["--group", &format!("={f}")[..]], "label"),
        (
            vec![
                "--group",
                &format!("a={f}")[..],
                "--group",
                &format!("a={f}"),
            ],
            "twice",
        ),
        (
            vec!["--group", &format!("a={f}")[..], "--baseline", "nope"],
            "nope",
        ),
    ] {
        let o = gcperf(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    // Files and groups at once: clap's usage error, exit 2.
    let o = gcperf(&[&f[..], "--group", &format!("a={f}")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be used"));
}

/// Deltas by hand on two fixtures. jdk8-parallel-datestamps.log: pauses 12.345, 23.456,
/// 150 (full), 8, 90 (full) ms: total 283.801, longest 150, 2 full collections.
/// jdk142-parnew-cms-incremental.log: 10.361, 8.241, 1.23 (initial mark), 2.34 (remark),
/// 9.1 ms: total 31.272, longest 10.361, no full collection.
#[test]
fn deltas_against_the_baseline_by_hand() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hotspot");
    let par = root.join("jdk8-parallel-datestamps.log");
    let cms = root.join("jdk142-parnew-cms-incremental.log");
    let (par, cms) = (par.to_str().unwrap(), cms.to_str().unwrap());
    // Without --baseline, no changes at all.
    let plain = ["--labels", "par,cms", par, cms];
    let text = stdout(&gcperf(&plain));
    assert!(!text.contains("_delta"), "{text}");
    let j: Value =
        serde_json::from_str(&stdout(&gcperf(&[&plain[..], &["-f", "json"]].concat()))).unwrap();
    assert!(j[1].get("delta").is_none_or(Value::is_null), "{j}");
    let base = ["--labels", "par,cms", "--baseline", "par", par, cms];
    // JSON: against par.
    let j: Value =
        serde_json::from_str(&stdout(&gcperf(&[&base[..], &["-f", "json"]].concat()))).unwrap();
    let d = &j[1]["delta"];
    assert_eq!(d["baseline"], "par");
    let g = |k: &str| d["gc"][k].as_f64().unwrap();
    assert!(close(g("pause_total_ms_delta"), -252.529));
    assert!(close(
        g("pause_total_ms_delta_pct"),
        -252.529 / 283.801 * 100.0
    ));
    assert!(close(g("pause_max_ms_delta"), -139.639));
    assert!(close(g("pause_max_ms_delta_pct"), -139.639 / 150.0 * 100.0));
    assert_eq!(g("full_collections_delta"), -2.0);
    assert_eq!(g("full_collections_delta_pct"), -100.0);
    assert_eq!(g("pauses_delta"), 0.0);
    // No restart in either: the % of a change from 0 is null.
    assert!(d["gc"]["restarts_delta_pct"].is_null());
    assert_eq!(j[0]["delta"]["gc"]["pause_total_ms_delta"], 0.0);
    // CSV: the gc_delta section.
    let csv = stdout(&gcperf(&[&base[..], &["-f", "csv"]].concat()));
    assert_eq!(csv_row(&csv, "pause_total_ms_delta"), [0.0, -252.529]);
    let pct = csv_row(&csv, "pause_max_ms_delta_pct");
    assert!(close(pct[1], -93.0926666667), "{pct:?}");
    assert!(csv
        .lines()
        .any(|l| l.starts_with("gc_delta,full_collections_delta_pct,0,-100")));
    // Text and Markdown: a _delta row under each figure, blank under the baseline.
    for (fmt, want) in [
        ("table", "pause_total_ms_delta"),
        (
            "markdown",
            "| pause_total_ms_delta |  | -252.529 (-88.98%) |",
        ),
    ] {
        let text = stdout(&gcperf(&[&base[..], &["-f", fmt]].concat()));
        let line = text.lines().find(|l| l.contains(want)).unwrap();
        assert!(
            line.ends_with("-252.529 (-88.98%)") || line == want,
            "{line}"
        );
        assert!(text.contains("_delta: change against par"), "{text}");
    }
    // --baseline: against cms; 252.529 / 31.272 = 807.52 %.
    let text = stdout(&gcperf(&[&plain[..], &["--baseline", "cms"]].concat()));
    let line = text
        .lines()
        .find(|l| l.starts_with("pause_total_ms_delta"))
        .unwrap();
    assert!(line.contains("+252.529 (+807.52%)"), "{line}");
    // One run: nothing to compare against, no deltas.
    let text = stdout(&gcperf(&[par]));
    assert!(!text.contains("_delta"), "{text}");
}
