//! `compare --chart FILE --load-curve` (issue 12): six generated performance runs at
//! increasing load, percentiles against throughput, objectives as lines and the points over
//! them marked.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// Run k: 60 s at 10 × (k + 1) requests a second; response times 1..=100 in turn scaled by
/// (k + 1), so that the median and p95 grow with the load.
fn perf_log(k: u64) -> String {
    let rate = 10 * (k + 1);
    let n = 60 * rate;
    let mut s = String::new();
    for i in 0..n {
        let ms_of_run = i * 60_000 / n;
        let total = (i % 100 + 1) * (k + 1);
        s.push_str(&format!(
            "[{i:032X}];2012-09-21 12:{:02}:{:02}.{:03};{total};{total};0;0;op;\n",
            ms_of_run / 60_000,
            ms_of_run / 1000 % 60,
            ms_of_run % 1000
        ));
    }
    s
}

fn write_runs(dir: &Path) -> Vec<PathBuf> {
    (0..6)
        .map(|k| {
            let p = dir.join(format!("load-{k}.log"));
            std::fs::write(&p, perf_log(k)).unwrap();
            p
        })
        .collect()
}

fn pixels(p: &Path) -> (u32, u32, Vec<u8>) {
    let mut d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
    d.set_transformations(png::Transformations::EXPAND);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn count(img: &(u32, u32, Vec<u8>), c: [u8; 3]) -> usize {
    img.2.chunks_exact(3).filter(|p| *p == c).count()
}

const P50: [u8; 3] = [0, 114, 178];
const P95: [u8; 3] = [230, 159, 0];
const RED: [u8; 3] = [213, 0, 0];

fn compare(files: &[PathBuf], args: &[&str]) -> std::process::Output {
    Command::cargo_bin("gcperf")
        .unwrap()
        .args(["compare", "-q"])
        .args(files)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn six_runs_at_increasing_load() {
    let dir = tempfile::tempdir().unwrap();
    let files = write_runs(dir.path());
    // Each run's throughput and percentiles, as the table gives them: the points drawn.
    let o = compare(&files, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for (k, run) in v.as_array().unwrap().iter().enumerate() {
        let p = &run["perf"];
        let n = 600.0 * (k as f64 + 1.0);
        // n requests over a little under 60 s: 10 × (k + 1) a second, within 1 %.
        let tp = p["throughput_per_s"].as_f64().unwrap();
        assert!((tp - n / 60.0).abs() / tp < 0.01, "{tp} {n}");
        // 1..=100 scaled by k+1, equally often: the median 50.5 × (k+1) (or 50 or 51).
        let p50 = p["total_ms_p50"].as_f64().unwrap() / (k as f64 + 1.0);
        assert!((50.0..=51.0).contains(&p50), "{p50}");
        let p95 = p["total_ms_p95"].as_f64().unwrap() / (k as f64 + 1.0);
        assert!((95.0..=96.0).contains(&p95), "{p95}");
    }
    let png = dir.path().join("lc.png");
    // p95 <= 300 ms: runs 0-2 (p95 95-288) pass, 3-5 (380-576) fail: 3 ringed points.
    let o = compare(
        &files,
        &[
            "--slo",
            "p95<=300ms",
            "--chart",
            png.to_str().unwrap(),
            "--load-curve",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    if let Ok(keep) = std::env::var("GCPERF_KEEP_CHART") {
        std::fs::copy(&png, keep).unwrap();
    }
    let img = pixels(&png);
    assert_eq!((img.0, img.1), (1600, 900));
    assert!(count(&img, P50) > 100 && count(&img, P95) > 100);
    let ringed = count(&img, RED);
    assert!(ringed > 0);
    // A limit over every point: no ring; a limit under every p95: more rings.
    let png2 = dir.path().join("lc2.png");
    let o = compare(
        &files,
        &[
            "--slo",
            "p95<=1000ms",
            "--chart",
            png2.to_str().unwrap(),
            "--load-curve",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(count(&pixels(&png2), RED), 0);
    let o = compare(
        &files,
        &[
            "--slo",
            "p95<=50ms",
            "--chart",
            png2.to_str().unwrap(),
            "--load-curve",
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(count(&pixels(&png2), RED) > ringed * 3 / 2);
    // A percentile the runs do not have: exit 2.
    let o = compare(
        &files,
        &[
            "--chart",
            png2.to_str().unwrap(),
            "--load-curve",
            "--percentiles",
            "42",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// One run of six minutes whose load rises each minute: minute k has 10 × (k + 1) requests a
/// second, response times 1..=100 in turn scaled by (k + 1) — the six runs above, one after
/// another in one log.
fn rising_run() -> String {
    let mut s = String::new();
    let mut id = 0u64;
    for k in 0..6u64 {
        let rate = 10 * (k + 1);
        let n = 60 * rate;
        for i in 0..n {
            let ms = k * 60_000 + i * 60_000 / n;
            let total = (i % 100 + 1) * (k + 1);
            s.push_str(&format!(
                "[{id:032X}];2012-09-21 12:{:02}:{:02}.{:03};{total};{total};0;0;op;\n",
                ms / 60_000,
                ms / 1000 % 60,
                ms % 1000
            ));
            id += 1;
        }
    }
    s
}

fn chart(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", "-q"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn one_run_a_point_per_interval() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("rising.log");
    std::fs::write(&log, rising_run()).unwrap();
    let out = dir.path().join("charts");
    let (log_s, out_s) = (log.to_str().unwrap(), out.to_str().unwrap());
    // The intervals' figures, independently: minute k's p95 is about 95.05 × (k + 1) (the
    // linear p95 of 1..=100 repeated), its throughput 10 × (k + 1) a second. With p95 <= 300:
    // minutes 0-2 (95-286) pass, 3-5 (380-571) are over: ringed.
    let o = chart(&[
        log_s,
        "-o",
        out_s,
        "--kind",
        "load-curve",
        "--interval",
        "1m",
        "--slo",
        "p95<=300ms",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Only the kind asked for is written, and listed.
    let listed = String::from_utf8(o.stdout).unwrap();
    let png = out.join("rising-load-curve.png");
    assert_eq!(listed.trim(), png.to_str().unwrap());
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    if let Ok(keep) = std::env::var("GCPERF_KEEP_CHART") {
        std::fs::copy(&png, format!("{keep}.interval.png")).unwrap();
    }
    let img = pixels(&png);
    assert!(count(&img, P50) > 100 && count(&img, P95) > 100);
    let ringed = count(&img, RED);
    assert!(ringed > 0);
    // Every interval under the limit: no ring.
    let o = chart(&[
        log_s,
        "-o",
        out_s,
        "--kind",
        "load-curve",
        "--interval",
        "1m",
        "--slo",
        "p95<=600ms",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(count(&pixels(&png), RED), 0);
    // Every interval's p95 over 50 ms: six rings, about twice the three.
    let o = chart(&[
        log_s,
        "-o",
        out_s,
        "--kind",
        "load-curve",
        "--interval",
        "1m",
        "--slo",
        "p95<=50ms",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let six = count(&pixels(&png), RED);
    assert!(six > ringed * 3 / 2, "{six} vs {ringed}");
}

#[test]
fn chart_kinds_and_objectives_refused_where_they_cannot_apply() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("rising.log");
    std::fs::write(&log, rising_run()).unwrap();
    let out = dir.path().join("charts");
    let (log_s, out_s) = (log.to_str().unwrap(), out.to_str().unwrap());
    let err = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    // An objective with nothing to draw it on: a usage error, never a silent pass.
    let o = chart(&[log_s, "-o", out_s, "--slo", "p95<=50ms"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("add --kind load-curve"), "{}", err(&o));
    let o = chart(&[
        log_s,
        "-o",
        out_s,
        "--kind",
        "load-curve",
        "--slo",
        "error_pct<1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("p50, p95"), "{}", err(&o));
    let o = chart(&[log_s, "-o", out_s, "--kind", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("load-curve"), "{}", err(&o));
    // A GC chart asked of a performance log: nothing drawn, said, exit 1.
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", log_s, "-o", out_s, "--kind", "pauses,heap"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("no chart of --kind pauses,heap applies to a performance log"),
        "{}",
        err(&o)
    );
    // Several kinds by name: just those.
    let o = chart(&[log_s, "-o", out_s, "--kind", "split,timeline"]);
    assert_eq!(o.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["rising-split.png", "rising-timeline.png"]);
}

/// Issue 39: the labels of two objectives whose lines lie close ("p50<=650ms" and
/// "p95<=655ms", 5 ms apart: a few pixels) do not overprint: the upper label is raised
/// above the lower one. In the label columns (the left quarter) and the rows just above the
/// two lines, the rows holding each label's colour (its dashed line's rows aside) are apart.
#[test]
fn close_objective_labels_do_not_overprint() {
    let dir = tempfile::tempdir().unwrap();
    let files = write_runs(dir.path());
    let png = dir.path().join("lc.png");
    let o = compare(
        &files,
        &[
            "--slo",
            "p50<=650ms,p95<=655ms",
            "--chart",
            png.to_str().unwrap(),
            "--load-curve",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (w, h, px) = pixels(&png);
    let at = |x: u32, y: u32| {
        let i = ((y * w + x) * 3) as usize;
        [px[i], px[i + 1], px[i + 2]]
    };
    // A dashed line's rows: its colour across much of the width.
    let line_row = |c: [u8; 3], y: u32| (0..w).filter(|&x| at(x, y) == c).count() > w as usize / 4;
    let lines: Vec<u32> = (0..h)
        .filter(|&y| line_row(P50, y) || line_row(P95, y))
        .collect();
    let (top, bottom) = (lines[0], *lines.last().unwrap());
    assert!(
        bottom - top < 12,
        "the two lines lie close: rows {top}..{bottom}"
    );
    let text_rows = |c: [u8; 3]| -> Vec<u32> {
        (top.saturating_sub(80)..=bottom)
            .filter(|&y| !line_row(c, y) && (0..w / 4).any(|x| at(x, y) == c))
            .collect()
    };
    let (p50, p95) = (text_rows(P50), text_rows(P95));
    assert!(!p50.is_empty() && !p95.is_empty(), "both labels drawn");
    let apart = p95.last() < p50.first() || p50.last() < p95.first();
    assert!(apart, "p50 label rows {p50:?}, p95 label rows {p95:?}");
}
