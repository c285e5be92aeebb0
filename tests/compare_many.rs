//! `gcperf compare` at the source documents' scale (issue 12): 72 generated GC runs ranked,
//! limited and charted. Every figure checked is worked out here from the generated pauses,
//! not by gcperf's analysis.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// Run k's pauses in µs (whole µs: the log's 7 decimals of a second write them exactly):
/// 20 + k young pauses of a duration that grows with k and varies within the run, every 5th
/// run a few full collections, run 37 122 full collections of 2 s (244 s of pauses).
fn pauses_us(k: u64) -> Vec<(bool, u64)> {
    let mut v: Vec<(bool, u64)> = (0..20 + k)
        .map(|i| (false, 1_000 + k * 700 + (i * 7919 + k * 104_729) % 5_000))
        .collect();
    let fulls = if k == 37 {
        122
    } else if k.is_multiple_of(5) {
        3
    } else {
        0
    };
    v.extend((0..fulls).map(|i| (true, if k == 37 { 2_000_000 } else { 50_000 + i })));
    v
}

/// A HotSpot -verbose:gc log of those pauses, one a second.
fn hotspot_log(pauses: &[(bool, u64)]) -> String {
    let mut s = String::new();
    for (i, (full, us)) in pauses.iter().enumerate() {
        let kind = if *full { "Full GC" } else { "GC" };
        s.push_str(&format!(
            "{}.000: [{kind} 200000K->60000K(262144K), {}.{:06}0 secs]\n",
            (i as u64 + 1) * 3,
            us / 1_000_000,
            us % 1_000_000
        ));
    }
    s
}

fn write_runs(dir: &Path, n: u64) -> Vec<PathBuf> {
    (0..n)
        .map(|k| {
            let p = dir.join(format!("opt-{k:02}.log"));
            std::fs::write(&p, hotspot_log(&pauses_us(k))).unwrap();
            p
        })
        .collect()
}

/// (label, total ms, longest ms) of run k, from the generator.
fn expected(k: u64) -> (String, f64, f64) {
    let p = pauses_us(k);
    let total: u64 = p.iter().map(|x| x.1).sum();
    let max = p.iter().map(|x| x.1).max().unwrap();
    (
        format!("opt-{k:02}.log"),
        total as f64 / 1000.0,
        max as f64 / 1000.0,
    )
}

fn gcperf(args: &[&str], files: &[PathBuf]) -> std::process::Output {
    Command::cargo_bin("gcperf")
        .unwrap()
        .args(["compare", "-q"])
        .args(files)
        .args(args)
        .output()
        .unwrap()
}

/// The CSV's rows of one metric: the run labels of the header and the values.
fn csv_row(csv: &str, metric: &str) -> (Vec<String>, Vec<f64>) {
    let mut lines = csv.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .skip(2)
        .map(String::from)
        .collect();
    let row = lines
        .find(|l| l.split(',').nth(1) == Some(metric))
        .unwrap_or_else(|| panic!("no {metric} row in {csv}"));
    let values = row.split(',').skip(2).map(|v| v.parse().unwrap()).collect();
    (header, values)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn seventy_two_runs_ranked_by_total_pause_in_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let files = write_runs(dir.path(), 72);
    let mut want: Vec<(String, f64, f64)> = (0..72).map(expected).collect();
    // Ascending total; the generator gives no two runs the same total.
    want.sort_by(|a, b| a.1.total_cmp(&b.1));
    let o = gcperf(&["--sort", "pause_total_ms", "--format", "csv"], &files);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = String::from_utf8(o.stdout).unwrap();
    let (labels, totals) = csv_row(&csv, "pause_total_ms");
    let (_, maxes) = csv_row(&csv, "pause_max_ms");
    assert_eq!(labels.len(), 72);
    for (i, (l, t, m)) in want.iter().enumerate() {
        assert_eq!(&labels[i], l, "rank {i}");
        assert!(close(totals[i], *t), "{l}: {} vs {t}", totals[i]);
        assert!(close(maxes[i], *m), "{l}: {} vs {m}", maxes[i]);
    }
    // Run 37, 244 s of full collections, is last.
    assert_eq!(labels[71], "opt-37.log");
    assert!(totals[71] > 244_000.0);

    // Descending, the 5 highest; the text heading says so.
    let o = gcperf(
        &[
            "--sort",
            "pause_total_ms:desc",
            "--top",
            "5",
            "--format",
            "csv",
        ],
        &files,
    );
    let csv = String::from_utf8(o.stdout).unwrap();
    let (labels, _) = csv_row(&csv, "pause_total_ms");
    let top: Vec<String> = want.iter().rev().take(5).map(|w| w.0.clone()).collect();
    assert_eq!(labels, top);
    let o = gcperf(&["--sort", "pause_total_ms:desc", "--top", "5"], &files);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with("GC logs (the 5 highest pause_total_ms of 72 runs)"),
        "{text}"
    );
    // The longest pause by its alias; --top alone keeps the order given.
    let o = gcperf(&["--sort", "max", "--format", "csv"], &files);
    let (labels, maxes) = csv_row(&String::from_utf8(o.stdout).unwrap(), "pause_max_ms");
    assert!(maxes.windows(2).all(|w| w[0] <= w[1]), "{maxes:?}");
    assert_eq!(labels[71], "opt-37.log");
    let o = gcperf(&["--top", "3", "--format", "csv"], &files);
    let (labels, _) = csv_row(&String::from_utf8(o.stdout).unwrap(), "pauses");
    assert_eq!(labels, ["opt-00.log", "opt-01.log", "opt-02.log"]);
    // A figure that is none, or a bad order: exit 2, named.
    for bad in ["pause_total", "pause_total_ms:up"] {
        let o = gcperf(&["--sort", bad], &files[..2]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains(bad));
    }
    let o = gcperf(&["--top", "0"], &files[..2]);
    assert_eq!(o.status.code(), Some(2));
}

const BLUE: [u8; 3] = [0, 114, 178];
const ORANGE: [u8; 3] = [230, 159, 0];

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

/// Rows (y) where colour `c` appears in columns x0..x1, as runs of consecutive rows: one per
/// bar.
fn bars(img: &(u32, u32, Vec<u8>), c: [u8; 3], x0: u32, x1: u32) -> Vec<(u32, u32)> {
    let (w, h, buf) = img;
    let mut out: Vec<(u32, u32)> = Vec::new();
    for y in 0..*h {
        let row = (x0..x1).any(|x| {
            let i = ((y * w + x) * 3) as usize;
            buf[i..i + 3] == c
        });
        if row {
            match out.last_mut() {
                Some(b) if b.1 + 1 == y => b.1 = y,
                _ => out.push((y, y)),
            }
        }
    }
    out
}

#[test]
fn seventy_two_runs_chart_grows_one_bar_each_in_one_colour() {
    let dir = tempfile::tempdir().unwrap();
    let files = write_runs(dir.path(), 72);
    let png = dir.path().join("c.png");
    let o = gcperf(
        &[
            "--sort",
            "pause_total_ms",
            "--log-y",
            "--chart",
            png.to_str().unwrap(),
        ],
        &files,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    if let Ok(keep) = std::env::var("GCPERF_KEEP_CHART") {
        std::fs::copy(&png, keep).unwrap();
    }
    let img = pixels(&png);
    // 1600 wide as asked, taller than 900: 72 rows of 1.6 lines of 20 px text.
    assert_eq!(img.0, 1600);
    assert!(img.1 > 72 * 32, "{}", img.1);
    // One colour: no second run colour, no legend.
    assert!(count(&img, BLUE) > 0);
    assert_eq!(count(&img, ORANGE), 0);
    // One bar per run in each panel, apart (no two bars touch).
    let half = img.0 / 2;
    let left = bars(&img, BLUE, 0, half);
    let right = bars(&img, BLUE, half, img.0);
    assert_eq!(left.len(), 72, "{left:?}");
    assert_eq!(right.len(), 72, "{right:?}");
    // On the log axis the shortest total (run 0, ~25 ms) still has a bar of some length.
    let longest_in = |y: (u32, u32)| {
        let (w, _, buf) = &img;
        let yy = (y.0 + y.1) / 2;
        (0..half)
            .filter(|&x| buf[((yy * w + x) * 3) as usize..][..3] == BLUE)
            .count()
    };
    let (first, last) = (longest_in(left[0]), longest_in(left[71]));
    assert!(first > 20 && last > first, "{first} {last}");
    // Without --log-y the 244 s run flattens the first to the 2 px minimum.
    let lin = dir.path().join("lin.png");
    gcperf(
        &["--sort", "pause_total_ms", "--chart", lin.to_str().unwrap()],
        &files,
    );
    let img = pixels(&lin);
    let left = bars(&img, BLUE, 0, half);
    assert_eq!(left.len(), 72);
    let (w, _, buf) = &img;
    let yy = (left[0].0 + left[0].1) / 2;
    let n = (0..half)
        .filter(|&x| buf[((yy * w + x) * 3) as usize..][..3] == BLUE)
        .count();
    assert!(n < 5, "{n}");
}
