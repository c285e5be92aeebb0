//! Parse + summary throughput on ≥ 100 MB logs, one per family, built at bench start by
//! repeating a corpus log with its uptime stamps shifted so that time keeps moving forward.
//!
//! `cargo bench --bench parse` (needs `../shared/corpus`; skips with a message without it).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcperf::model::GcFormat;
use regex::bytes::{Captures, Regex};
use std::path::Path;
use std::time::Duration;

const TARGET_BYTES: usize = 100 * 1024 * 1024;

/// Repeat `src` until the buffer holds `TARGET_BYTES`, adding `k * period` seconds to every
/// uptime stamp the `stamp` regex finds in copy `k`.
fn grow(src: &[u8], stamp: &Regex, period: f64) -> Vec<u8> {
    let mut out = Vec::with_capacity(TARGET_BYTES + src.len());
    let mut k = 0u64;
    while out.len() < TARGET_BYTES {
        let off = k as f64 * period;
        let shifted = stamp.replace_all(src, |c: &Captures| {
            let v: f64 = std::str::from_utf8(&c[2])
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0.0);
            let mut s = c[1].to_vec();
            s.extend_from_slice(format!("{:.3}", v + off).as_bytes());
            s.extend_from_slice(&c[3]);
            s
        });
        out.extend_from_slice(&shifted);
        if out.last() != Some(&b'\n') {
            out.push(b'\n');
        }
        k += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/gc");
    if !corpus.is_dir() {
        eprintln!("skipping: no corpus at {}", corpus.display());
        return;
    }
    let cases: [(&str, GcFormat, &str, &str, f64); 3] = [
        (
            "jrockit",
            GcFormat::Jrockit,
            "jrockit/SampleJRockit1_4_2gencon-big.txt",
            r"(\] )(\d+\.\d+)([:-])",
            100_000.0,
        ),
        (
            "hotspot",
            GcFormat::Hotspot,
            "hotspot/SampleSun1_5_0CMS_PrintGCDetails.txt",
            r"(^|\n|: |\[GC )(\d+\.\d+)(: )",
            100.0,
        ),
        (
            "unified",
            GcFormat::Unified,
            "unified/sample-ujl-g1-gc-all,safepoint,os+cpu.txt",
            r"(\[)(\d+\.\d+)(s\])",
            10.0,
        ),
    ];
    let mut g = c.benchmark_group("parse+summary");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    for (name, format, file, stamp, period) in cases {
        let src = std::fs::read(corpus.join(file)).expect("corpus file");
        let buf = grow(&src, &Regex::new(stamp).expect("regex"), period);
        g.throughput(Throughput::Bytes(buf.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let log = gcperf::load::parse_gc(format, &buf);
                let df = gcperf::frame::gc_frame(&log).expect("frame");
                gcperf::analyze::gc::summary(&df).expect("summary")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
