//! Charts: every GC chart renders for every GC log family and every performance chart for
//! every performance-log format, decodes as a PNG of the requested size, is not blank, and is
//! byte-identical when rendered again.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// A decoded PNG: size and RGB pixels, row by row.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
}

impl Image {
    fn open(p: &Path) -> Image {
        let mut dec = png::Decoder::new(std::fs::File::open(p).expect("png file"));
        // Charts are indexed: read as the RGB pixels the palette gives.
        dec.set_transformations(png::Transformations::EXPAND);
        let mut reader = dec.read_info().expect("png header");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("png frame");
        let px = info.color_type.samples();
        assert!(px >= 3, "{}: not an RGB image", p.display());
        let rgb = buf[..info.buffer_size()]
            .chunks(px)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        Image {
            width: info.width,
            height: info.height,
            rgb,
        }
    }

    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        self.rgb[(y * self.width + x) as usize]
    }

    /// Pixels of exactly this colour.
    fn count(&self, c: [u8; 3]) -> usize {
        self.rgb.iter().filter(|&&p| p == c).count()
    }

    /// Pixels of exactly this colour in columns `x0..x1`.
    fn count_in(&self, c: [u8; 3], x0: u32, x1: u32) -> usize {
        (0..self.height)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| self.at(x, y) == c)
            .count()
    }

    /// The first and last row holding colour `c`.
    fn rows_of(&self, c: [u8; 3]) -> Option<(u32, u32)> {
        let rows: Vec<u32> = (0..self.height)
            .filter(|&y| (0..self.width).any(|x| self.at(x, y) == c))
            .collect();
        Some((*rows.first()?, *rows.last()?))
    }

    /// The longest horizontal run of colour `c` within columns `x0..x1` and rows `y0..`:
    /// (length, row). A horizontal bar's length, where the bar is the longest of its colour.
    fn longest_run(&self, c: [u8; 3], x0: u32, x1: u32, y0: u32) -> (u32, u32) {
        let mut best = (0, 0);
        for y in y0..self.height {
            let mut run = 0;
            for x in x0..x1 {
                run = if self.at(x, y) == c { run + 1 } else { 0 };
                if run > best.0 {
                    best = (run, y);
                }
            }
        }
        best
    }

    /// The bars of colour `c` standing on a common baseline (the lowest row holding `c`, in
    /// the lower two thirds of the chart): (first column, last column, height in pixels) from
    /// left to right. Anything of that colour off the baseline (the legend swatch above the
    /// plot) is not a bar.
    fn bars(&self, c: [u8; 3]) -> Vec<(u32, u32, u32)> {
        let Some(base) = (self.height / 3..self.height)
            .rev()
            .find(|&y| (0..self.width).any(|x| self.at(x, y) == c))
        else {
            return Vec::new();
        };
        let heights: Vec<u32> = (0..self.width)
            .map(|x| (0..=base).rev().take_while(|&y| self.at(x, y) == c).count() as u32)
            .collect();
        let mut out: Vec<(u32, u32, u32)> = Vec::new();
        for (x, &h) in heights.iter().enumerate() {
            let x = x as u32;
            match out.last_mut() {
                Some(last) if h > 0 && last.1 + 1 == x => {
                    last.1 = x;
                    last.2 = last.2.max(h);
                }
                _ if h > 0 => out.push((x, x, h)),
                _ => {}
            }
        }
        out
    }
}

/// (width, height, share of non-white pixels)
fn decode(p: &Path) -> (u32, u32, f64) {
    let img = Image::open(p);
    let inked = img
        .rgb
        .iter()
        .filter(|c| c.iter().any(|&v| v < 200))
        .count();
    (img.width, img.height, inked as f64 / img.rgb.len() as f64)
}

fn render(inputs: &[PathBuf], out: &Path, extra: &[&str]) -> Vec<PathBuf> {
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", "-q", "--size", "800x450", "--out"])
        .arg(out)
        .args(extra)
        .args(inputs)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(PathBuf::from)
        .collect()
}

#[test]
fn every_gc_chart_renders_for_every_family_and_is_deterministic() {
    let inputs = vec![
        fixture("hotspot/jdk8-g1-details.log"),
        fixture("jrockit/r26-gencon.log"),
        fixture("unified/zgc-jdk21.log"),
    ];
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let first = render(&inputs, a.path(), &[]);
    assert_eq!(first.len(), 9);
    for chart in ["pauses", "heap", "pause-histogram"] {
        for stem in ["jdk8-g1-details", "r26-gencon", "zgc-jdk21"] {
            let p = a.path().join(format!("{stem}-{chart}.png"));
            assert!(first.contains(&p), "{} missing", p.display());
            let (w, h, inked) = decode(&p);
            assert_eq!((w, h), (800, 450));
            // Axes, labels and data: clearly more than a blank page, far from a filled one.
            assert!(inked > 0.01 && inked < 0.6, "{}: {inked}", p.display());
        }
    }
    let second = render(&inputs, b.path(), &[]);
    for (p, q) in first.iter().zip(&second) {
        assert_eq!(
            std::fs::read(p).unwrap(),
            std::fs::read(q).unwrap(),
            "{} differs",
            p.display()
        );
    }
    // Log scale renders too.
    let c = tempfile::tempdir().unwrap();
    assert_eq!(render(&inputs[..1], c.path(), &["--log-y"]).len(), 3);
}

#[test]
fn one_event_renders_and_no_event_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.log");
    std::fs::write(&one, "[GC 325407K->83000K(776768K), 0.2300771 secs]\n").unwrap();
    let out = dir.path().join("out");
    let files = render(&[one], &out, &[]);
    assert_eq!(files.len(), 3);
    for f in files {
        assert_eq!(decode(&f).0, 800);
    }
    let none = dir.path().join("none.log");
    std::fs::write(&none, "Java HotSpot(TM) 64-Bit Server VM\nHeap\n").unwrap();
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", "--out"])
        .arg(&out)
        .arg(&none)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("none.log: no GC or performance records found")
    );
}

const PERF_FIXTURES: [&str; 4] = [
    "perf/soap-before.log",
    "perf/soap-after.log",
    "perf/jmeter-daytrader.jtl",
    "perf/grinder-data_trader.log",
];
const PERF_CHARTS: [&str; 3] = ["timeline", "latency-histogram", "split"];
// The perf charts' colours (src/render/perf.rs).
const BAR: [u8; 3] = [0, 114, 178];
const JAVA: [u8; 3] = [0, 114, 178];
const DB: [u8; 3] = [230, 159, 0];
const TOTAL: [u8; 3] = [0, 158, 115];

fn stem(rel: &str) -> &str {
    let name = rel.rsplit('/').next().unwrap();
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}

#[test]
fn every_perf_chart_renders_for_every_perf_format_and_is_deterministic() {
    let inputs: Vec<PathBuf> = PERF_FIXTURES.iter().map(|f| fixture(f)).collect();
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let first = render(&inputs, a.path(), &[]);
    assert_eq!(first.len(), 12, "{first:?}");
    for f in PERF_FIXTURES {
        for chart in PERF_CHARTS {
            let p = a.path().join(format!("{}-{chart}.png", stem(f)));
            assert!(first.contains(&p), "{} missing", p.display());
            let (w, h, inked) = decode(&p);
            assert_eq!((w, h), (800, 450), "{}", p.display());
            assert!(inked > 0.01 && inked < 0.6, "{}: {inked}", p.display());
        }
    }
    let second = render(&inputs, b.path(), &[]);
    assert_eq!(first.len(), second.len());
    for (p, q) in first.iter().zip(&second) {
        assert_eq!(
            std::fs::read(p).unwrap(),
            std::fs::read(q).unwrap(),
            "{} differs",
            p.display()
        );
    }
    // The default size too, and a log-scale histogram that is not the linear one.
    let c = tempfile::tempdir().unwrap();
    let files = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", "-q", "--log-y", "--out"])
        .arg(c.path())
        .arg(&inputs[0])
        .output()
        .unwrap();
    assert!(files.status.success());
    for chart in PERF_CHARTS {
        let (w, h, _) = decode(&c.path().join(format!("soap-before-{chart}.png")));
        assert_eq!((w, h), (1600, 900));
    }
    let d = tempfile::tempdir().unwrap();
    render(&inputs[..1], d.path(), &["--log-y"]);
    assert_ne!(
        std::fs::read(d.path().join("soap-before-latency-histogram.png")).unwrap(),
        std::fs::read(a.path().join("soap-before-latency-histogram.png")).unwrap()
    );
}

#[test]
fn a_folder_of_gc_and_perf_logs_gets_every_chart_of_each() {
    let dir = tempfile::tempdir().unwrap();
    // The fixtures of each family (fixtures/bad/ holds the fuzzer's hostile cases).
    let folders = ["hotspot", "jrockit", "unified", "perf"].map(fixture);
    let files = render(&folders, dir.path(), &[]);
    // 14, issue 13's two parser cases and six analyses' fixtures, issue 35's two
    // scavenge-before-remark logs.
    let gc_logs = 24;
    let perf_logs = PERF_FIXTURES.len();
    assert_eq!(files.len(), 3 * gc_logs + 3 * perf_logs, "{files:?}");
    for f in PERF_FIXTURES {
        for chart in PERF_CHARTS {
            let p = dir.path().join(format!("{}-{chart}.png", stem(f)));
            assert!(files.contains(&p), "{} missing", p.display());
        }
    }
    assert!(files.contains(&dir.path().join("r26-gencon-pauses.png")));
}

#[test]
fn one_request_renders_every_perf_chart() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.log");
    std::fs::write(
        &one,
        "[7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;e-\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let files = render(&[one], &out, &[]);
    assert_eq!(files.len(), 3);
    for chart in PERF_CHARTS {
        let p = out.join(format!("one-{chart}.png"));
        let (w, h, inked) = decode(&p);
        assert_eq!((w, h), (800, 450));
        assert!(inked > 0.01, "{}: {inked}", p.display());
    }
    // Its one request is one bar, in the 200-1000 band.
    let hist = Image::open(&out.join("one-latency-histogram.png"));
    assert_eq!(hist.bars(BAR).len(), 1);
    // Its split chart has the Java and the DB part.
    let split = Image::open(&out.join("one-split.png"));
    assert!(split.count(DB) > 100 && split.count(JAVA) > 10);
}

#[test]
fn a_window_without_requests_still_renders_and_an_empty_log_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let files = render(
        &[fixture("perf/soap-before.log")],
        dir.path(),
        &["--skip", "2h"],
    );
    assert_eq!(files.len(), 3);
    for f in &files {
        let (w, _, inked) = decode(f);
        assert_eq!(w, 800);
        assert!(inked > 0.005, "{}: {inked}", f.display());
    }
    let hist = Image::open(&dir.path().join("soap-before-latency-histogram.png"));
    assert!(hist.bars(BAR).is_empty());
    // A JTL with its header and no sample is nothing to chart: named, exit 1.
    let empty = dir.path().join("empty.jtl");
    std::fs::write(
        &empty,
        "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success\n",
    )
    .unwrap();
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["chart", "--out"])
        .arg(dir.path())
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("empty.jtl: no GC or performance records found"));
}

#[test]
fn split_is_stacked_java_and_db_or_a_single_total_colour() {
    let dir = tempfile::tempdir().unwrap();
    render(
        &[
            fixture("perf/soap-after.log"),
            fixture("perf/jmeter-daytrader.jtl"),
        ],
        dir.path(),
        &[],
    );
    let soap = Image::open(&dir.path().join("soap-after-split.png"));
    assert!(soap.count(JAVA) > 500 && soap.count(DB) > 500);
    assert_eq!(soap.count(TOTAL), 0);
    // JMeter has no Java/DB split: one colour (bars and legend swatch), no DB colour.
    let jmeter = Image::open(&dir.path().join("jmeter-daytrader-split.png"));
    assert!(jmeter.count(TOTAL) > 500);
    assert_eq!(jmeter.count(DB), 0);
}

/// One request in a million over 10 s: a bar of a few pixels on a log axis; on a linear
/// axis it is still drawn (2 px), not rounded away.
#[test]
fn log_y_shows_a_single_slow_request_among_many() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tail.log");
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "[{i:032X}];2012-09-21 12:{:02}:{:02}.{:03};20;5;15;1;op;\n",
            i / 6000,
            (i / 100) % 60,
            (i % 100) * 10
        ));
    }
    text.push_str("[FFFF];2012-09-21 12:03:30.000;12000;100;11900;1;op;\n");
    std::fs::write(&log, text).unwrap();
    let lin = dir.path().join("lin");
    let log_y = dir.path().join("log");
    render(std::slice::from_ref(&log), &lin, &[]);
    render(std::slice::from_ref(&log), &log_y, &["--log-y"]);
    let bars = |d: &Path| Image::open(&d.join("tail-latency-histogram.png")).bars(BAR);
    // Bands 0, 0-50, ..., >10000: the 0-50 bar (20 000) and the >10000 bar (1).
    let (lin, log_y) = (bars(&lin), bars(&log_y));
    assert_eq!((lin.len(), log_y.len()), (2, 2), "{lin:?} {log_y:?}");
    assert!(lin[1].0 > lin[0].1, "left to right");
    assert!(lin[1].2 >= 2, "linear: the single request drawn, {lin:?}");
    assert!(
        log_y[1].2 >= 10,
        "log: the single request clearly visible, {log_y:?}"
    );
    // And 20 000 is taller than 1 on both.
    assert!(lin[0].2 > 100 * lin[1].2 / 2 && log_y[0].2 > 3 * log_y[1].2);
}

#[test]
fn chart_options_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::cargo_bin("gcperf")
            .unwrap()
            .args(["chart", "--out"])
            .arg(dir.path())
            .args(args)
            .arg(fixture("perf/soap-before.log"))
            .output()
            .unwrap()
    };
    // An interval too fine for the span is the user's to change: a usage error.
    let o = run(&["--interval", "1ms"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("use 52 ms or longer"));
    let o = run(&["--latency-bands", "50,10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--latency-bands must be"));
    // Custom bands: 3 edges, 4 bands.
    let o = run(&["-q", "--size", "800x450", "--latency-bands", "100,500,2000"]);
    assert!(o.status.success());
    let bars = Image::open(&dir.path().join("soap-before-latency-histogram.png")).bars(BAR);
    assert!(!bars.is_empty() && bars.len() <= 4, "{bars:?}");
}

// The compare chart's run colours (src/render/compare.rs), in argument order.
const RUN: [[u8; 3]; 4] = [[0, 114, 178], [230, 159, 0], [0, 158, 115], [204, 121, 167]];

/// `gcperf compare ARGS --chart DIR/name.png`: the chart's path and the command's stdout.
fn compare_chart(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, String) {
    let png = dir.join(name);
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["compare", "-q"])
        .args(args)
        .arg("--chart")
        .arg(&png)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (png, String::from_utf8(o.stdout).unwrap())
}

fn same_bytes(a: &Path, b: &Path) {
    assert_eq!(
        std::fs::read(a).unwrap(),
        std::fs::read(b).unwrap(),
        "{} and {} differ",
        a.display(),
        b.display()
    );
}

#[test]
fn compare_chart_of_soap_before_and_after() {
    let dir = tempfile::tempdir().unwrap();
    let before = fixture("perf/soap-before.log");
    let after = fixture("perf/soap-after.log");
    let files = [before.to_str().unwrap(), after.to_str().unwrap()];
    let args = [
        &files[..],
        &["--labels", "before,after", "--size", "800x450"],
    ]
    .concat();
    let (png, stdout) = compare_chart(dir.path(), "soap.png", &args);
    // stdout is the table, as without --chart.
    let plain = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["compare", "-q", "--labels", "before,after"])
        .args(files)
        .output()
        .unwrap();
    assert_eq!(stdout, String::from_utf8(plain.stdout).unwrap());
    let (w, h, inked) = decode(&png);
    assert_eq!((w, h), (800, 450));
    assert!(inked > 0.03 && inked < 0.6, "{inked}");
    let (again, _) = compare_chart(dir.path(), "again.png", &args);
    same_bytes(&png, &again);

    let img = Image::open(&png);
    let third = w / 3;
    // Both runs' bars in each of the three panels: throughput, mean, bands.
    for (i, x0) in [0, third, 2 * third].into_iter().enumerate() {
        for c in &RUN[..2] {
            assert!(img.count_in(*c, x0, x0 + third) > 100, "panel {i}: {c:?}");
        }
    }
    // Only two runs, two colours.
    assert_eq!(img.count(RUN[2]) + img.count(RUN[3]), 0);
    // Mean response time: before's bars (660-780 ms) dwarf after's (30-36 ms).
    let (mean_before, mean_after) = (
        img.count_in(RUN[0], third, 2 * third),
        img.count_in(RUN[1], third, 2 * third),
    );
    assert!(mean_before > 10 * mean_after, "{mean_before} {mean_after}");
    // Bands, top to bottom as in the table: after's longest bar (0-50 ms, 93.8 %) is above
    // before's (200-1000 ms, 90.8 %), and about as long.
    let below_legend = h / 5;
    let (after_len, after_y) = img.longest_run(RUN[1], 2 * third, w, below_legend);
    let (before_len, before_y) = img.longest_run(RUN[0], 2 * third, w, below_legend);
    assert!(after_y < before_y, "{after_y} {before_y}");
    let ratio = after_len as f64 / before_len as f64;
    assert!(
        (ratio - 93.8 / 90.8).abs() < 0.08,
        "{after_len} {before_len}"
    );

    // The default size, and a log-scale band panel that is not the linear one.
    let (big, _) = compare_chart(dir.path(), "big.png", &files);
    assert_eq!(decode(&big).0, 1600);
    assert_eq!(decode(&big).1, 900);
    let log_args = [&args[..], &["--log-y"]].concat();
    let (log, _) = compare_chart(dir.path(), "log.png", &log_args);
    assert_eq!(decode(&log).0, 800);
    assert_ne!(std::fs::read(&log).unwrap(), std::fs::read(&png).unwrap());
    // On a log axis 2.5 % is no longer a sliver next to 93.8 %: after's band bars, in
    // pixels, grow.
    let log_img = Image::open(&log);
    assert!(log_img.count_in(RUN[1], 2 * third, w) > img.count_in(RUN[1], 2 * third, w) * 3 / 2);
}

#[test]
fn compare_chart_of_jrockit_and_hotspot_gc_runs() {
    let dir = tempfile::tempdir().unwrap();
    let runs = [
        fixture("jrockit/r26-detgc.log"),
        fixture("jrockit/r26-gencon.log"),
        fixture("hotspot/jdk142-parnew-cms-incremental.log"),
    ];
    let files: Vec<&str> = runs.iter().map(|p| p.to_str().unwrap()).collect();
    let args = [&files[..], &["--size", "800x450"]].concat();
    let (png, stdout) = compare_chart(dir.path(), "gc.png", &args);
    assert!(stdout.contains("GC logs") && stdout.contains("pause_total_ms"));
    let (w, h, inked) = decode(&png);
    assert_eq!((w, h), (800, 450));
    assert!(inked > 0.02 && inked < 0.6, "{inked}");
    let (again, _) = compare_chart(dir.path(), "again.png", &args);
    same_bytes(&png, &again);

    let img = Image::open(&png);
    let half = w / 2;
    let below_legend = h / 5;
    // Three runs, three colours, in both panels (total | longest).
    assert_eq!(img.count(RUN[3]), 0);
    let len = |c: [u8; 3], x0: u32, x1: u32| img.longest_run(c, x0, x1, below_legend);
    let (total, longest): (Vec<_>, Vec<_>) = RUN[..3]
        .iter()
        .map(|&c| (len(c, 0, half), len(c, half, w)))
        .unzip();
    // Total GC pause: gencon 2590.8 ms, detgc 605.2 ms (4.3 times), incgc 31.3 ms.
    let r = total[1].0 as f64 / total[0].0 as f64;
    assert!((r - 2590.834 / 605.221).abs() < 0.4, "{total:?}");
    assert!(total[2].0 < total[0].0 / 5, "{total:?}");
    // Longest pause: gencon 274.9 ms, detgc 28.9 ms (9.5 times), incgc 10.4 ms.
    let r = longest[1].0 as f64 / longest[0].0 as f64;
    assert!((r - 274.862 / 28.907).abs() < 1.5, "{longest:?}");
    assert!(longest[2].0 < longest[0].0, "{longest:?}");
    // Runs top to bottom in argument order, in both panels.
    for p in [&total, &longest] {
        assert!(p[0].1 < p[1].1 && p[1].1 < p[2].1, "{p:?}");
    }
}

#[test]
fn compare_chart_of_gc_and_perf_runs_has_perf_above_gc() {
    let dir = tempfile::tempdir().unwrap();
    let runs = [
        fixture("perf/soap-before.log"),
        fixture("perf/soap-after.log"),
        fixture("jrockit/r26-detgc.log"),
        fixture("hotspot/jdk8-g1-details.log"),
    ];
    let files: Vec<&str> = runs.iter().map(|p| p.to_str().unwrap()).collect();
    for size in ["800x450", "1600x900"] {
        let args = [&files[..], &["--size", size]].concat();
        let (png, stdout) = compare_chart(dir.path(), &format!("mixed-{size}.png"), &args);
        assert!(stdout.contains("Performance logs") && stdout.contains("GC logs"));
        let (w, h, inked) = decode(&png);
        assert_eq!(format!("{w}x{h}"), size);
        assert!(inked > 0.03 && inked < 0.6, "{inked}");
        let (again, _) = compare_chart(dir.path(), "again.png", &args);
        same_bytes(&png, &again);
        // Each run keeps its colour; the performance runs' (1st, 2nd) are all above the GC
        // runs' (3rd, 4th), legends included.
        let img = Image::open(&png);
        let rows: Vec<(u32, u32)> = RUN.iter().map(|&c| img.rows_of(c).unwrap()).collect();
        let perf_bottom = rows[0].1.max(rows[1].1);
        let gc_top = rows[2].0.min(rows[3].0);
        assert!(perf_bottom < gc_top, "{size}: {rows:?}");
        // GC gets a quarter to a half of the height.
        assert!(
            gc_top > h / 2 - h / 10 && gc_top < h - h / 4,
            "{size}: {rows:?}"
        );
        // The performance panels span the width (three of them), the GC panels too (two).
        assert!(img.count_in(RUN[0], 0, w / 3) > 0 && img.count_in(RUN[0], 2 * w / 3, w) > 0);
        assert!(img.count_in(RUN[2], 0, w / 2) > 0 && img.count_in(RUN[2], w / 2, w) > 0);
    }
}

#[test]
fn compare_chart_that_cannot_be_written_is_named_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let run = |chart: &Path| {
        Command::cargo_bin("gcperf")
            .unwrap()
            .args(["compare", "-q"])
            .arg(fixture("perf/soap-before.log"))
            .arg("--chart")
            .arg(chart)
            .output()
            .unwrap()
    };
    let missing = dir.path().join("no-such-folder").join("c.png");
    let o = run(&missing);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&*missing.to_string_lossy()), "{err}");
    assert!(o.stdout.is_empty());
    let o = run(&dir.path().join("c.jpg"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("c.jpg"));
    // --size and --log-y are chart options.
    let o = Command::cargo_bin("gcperf")
        .unwrap()
        .args(["compare", "--size", "800x450"])
        .arg(fixture("perf/soap-before.log"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// The pause target is a dashed red line on the pause chart: the log's own (DetGC, 30 ms) or
/// `--pause-target`'s, higher for a longer target; none without a target.
#[test]
fn pause_target_line_on_the_pause_chart() {
    const TARGET: [u8; 3] = [200, 30, 30];
    let dir = tempfile::tempdir().unwrap();
    // The row holding most of the line's pixels.
    let line_row = |png: &Path| -> Option<u32> {
        let img = Image::open(png);
        (0..img.height)
            .map(|y| {
                let n = (0..img.width).filter(|&x| img.at(x, y) == TARGET).count();
                (n, y)
            })
            .filter(|(n, _)| *n > 100)
            .max()
            .map(|(_, y)| y)
    };
    let det = fixture("jrockit/r26-detgc.log");
    let gencon = fixture("jrockit/r26-gencon.log");
    let a = dir.path().join("a");
    render(&[det, gencon.clone()], &a, &[]);
    assert!(line_row(&a.join("r26-detgc-pauses.png")).is_some());
    assert_eq!(
        Image::open(&a.join("r26-gencon-pauses.png")).count(TARGET),
        0
    );
    let (b, c) = (dir.path().join("b"), dir.path().join("c"));
    render(
        std::slice::from_ref(&gencon),
        &b,
        &["--pause-target", "30ms"],
    );
    render(
        std::slice::from_ref(&gencon),
        &c,
        &["--pause-target", "0.2s"],
    );
    let low = line_row(&b.join("r26-gencon-pauses.png")).expect("30 ms line");
    let high = line_row(&c.join("r26-gencon-pauses.png")).expect("200 ms line");
    // Image rows count down: 200 ms is drawn above 30 ms (the axis goes to 300 ms, so about
    // 170/300 of the plot's height apart).
    assert!(high + 100 < low, "{high} {low}");
}

/// Issue 39: the heap chart's "used after GC" line stays inside the plot. The damaged CMS
/// fixture's heap after GC is a dense sawtooth (20 to 125 MB, turning every few pixels);
/// drawn as one 2 px polyline its mitred turns reached below the x axis into the axis title.
/// Every pixel of the line's colour (the legend's swatch aside, at the top) lies above the
/// x axis: the longest black row of the chart.
#[test]
fn heap_line_stays_above_the_x_axis() {
    const AFTER: [u8; 3] = [0, 114, 178];
    let dir = tempfile::tempdir().unwrap();
    let p = render(
        &[fixture("bad/load-0e31c972.log.gz")],
        dir.path(),
        &["--kind", "heap"],
    );
    let img = Image::open(&p[0]);
    let (axis_len, axis) = img.longest_run([0, 0, 0], 0, img.width, 0);
    assert!(axis_len > img.width / 2, "an x axis across the plot");
    let (_, last) = img.rows_of(AFTER).unwrap();
    assert!(
        last < axis,
        "used-after-GC line at row {last}, the x axis at {axis}"
    );
    // The line is drawn: a sawtooth fills many rows between 20 and 125 MB.
    assert!(img.count(AFTER) > 2000, "{}", img.count(AFTER));
}

/// Three inputs whose stems collide: two `results` and a real `results-2`. The repeat is not
/// renamed onto the third input's name: nine charts under nine names, and each input's charts
/// are byte for byte the charts it gets drawn alone (the title names the file, not the stem).
#[test]
fn colliding_stems_get_their_own_charts() {
    let dir = tempfile::tempdir().unwrap();
    let third = dir.path().join("results-2.log");
    std::fs::copy(fixture("perf/soap-after.log"), &third).unwrap();
    let inputs = [
        fixture("k6-csv/results.csv"),
        fixture("k6-json/results.json"),
        third,
    ];
    let all = dir.path().join("all");
    let files = render(&inputs, &all, &[]);
    let mut names: Vec<&PathBuf> = files.iter().collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 9, "{files:?}");
    assert_eq!(std::fs::read_dir(&all).unwrap().count(), 9);
    // The first `results` keeps its name, the real `results-2` keeps its, and the repeat
    // takes the first name free: `results-3`.
    for (input, stem) in inputs.iter().zip(["results", "results-3", "results-2"]) {
        let alone = dir.path().join(format!("alone-{stem}"));
        let own = render(std::slice::from_ref(input), &alone, &[]);
        assert_eq!(own.len(), 3, "{own:?}");
        for chart in PERF_CHARTS {
            same_bytes(
                &all.join(format!("{stem}-{chart}.png")),
                &alone.join(format!("{}-{chart}.png", stem_of(input))),
            );
        }
    }
    // The two `results` inputs hold different requests: their charts differ.
    assert_ne!(
        std::fs::read(all.join("results-timeline.png")).unwrap(),
        std::fs::read(all.join("results-3-timeline.png")).unwrap()
    );
}

fn stem_of(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}
