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
    let d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
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
