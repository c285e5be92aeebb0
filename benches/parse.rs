//! Read + parse + frame + summary throughput on ≥ 200 MiB GC logs, one per family, built at
//! bench start by repeating a corpus log with its uptime stamps shifted so that time keeps
//! moving forward (the construction of `benches/gc_big.py`, same sources and patterns),
//! written to a temporary file and read back through `load::load_any`: the path every
//! command takes (streamed in blocks, page cache warm after the first run).
//!
//! `cargo bench --bench parse` (needs `../shared/corpus`; skips with a message without it).
//! `GCPERF_BENCH_MIB=100` builds smaller logs.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use regex::bytes::{Captures, Regex};
use std::path::Path;
use std::time::Duration;

/// Repeat `src` until the buffer holds `target` bytes, adding `k * period` seconds to every
/// uptime stamp the `stamp` regex finds in copy `k` (group 2, and group 3's `-<end>`), and
/// numbering unified GC ids on from copy to copy.
fn grow(src: &[u8], stamp: &Regex, period: f64, target: usize) -> Vec<u8> {
    let gc_id = Regex::new(r"GC\((\d+)\)").expect("regex");
    let num = |b: &[u8]| -> f64 {
        std::str::from_utf8(b)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0.0)
    };
    let id_step = gc_id
        .captures_iter(src)
        .map(|c| num(&c[1]) as u64)
        .max()
        .map_or(0, |m| m + 1);
    let mut out = Vec::with_capacity(target + src.len());
    let mut k = 0u64;
    while out.len() < target {
        let off = k as f64 * period;
        let shifted = stamp.replace_all(src, |c: &Captures| {
            let mut s = c[1].to_vec();
            s.extend_from_slice(format!("{:.3}", num(&c[2]) + off).as_bytes());
            if let Some(end) = c.get(3).filter(|m| !m.is_empty()) {
                s.extend_from_slice(format!("-{:.3}", num(&end.as_bytes()[1..]) + off).as_bytes());
            }
            s.extend_from_slice(&c[4]);
            s
        });
        let copy = if id_step > 0 {
            gc_id
                .replace_all(&shifted, |c: &Captures| {
                    format!("GC({})", num(&c[1]) as u64 + k * id_step).into_bytes()
                })
                .into_owned()
        } else {
            shifted.into_owned()
        };
        out.extend_from_slice(&copy);
        if out.last() != Some(&b'\n') {
            out.push(b'\n');
        }
        k += 1;
    }
    out
}

const JROCKIT_STAMP: &str = r"(\] |start time: |starting at )(\d+\.\d+)(-\d+\.\d+)?([: ])";

fn bench(c: &mut Criterion) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/gc");
    if !corpus.is_dir() {
        eprintln!("skipping: no corpus at {}", corpus.display());
        return;
    }
    let mib: usize = std::env::var("GCPERF_BENCH_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    // As in benches/gc_big.py.
    let cases: [(&str, &str, &str, f64); 5] = [
        (
            "jrockit",
            "jrockit/SampleJRockit1_4_2gencon-big.txt",
            JROCKIT_STAMP,
            100_000.0,
        ),
        (
            "jrockit-r27",
            "jrockit/SampleJRockit1_5_12_gencon.txt",
            JROCKIT_STAMP,
            10.0,
        ),
        (
            "hotspot",
            "hotspot/SampleSun1_5_0CMS_PrintGCDetails.txt",
            r"(^|\n|: |\[GC )(\d+\.\d+)()(: )",
            100.0,
        ),
        (
            "hotspot-g1",
            "hotspot/SampleSun1_8_0G1_ConcurrentCycle.txt",
            r"(^|\n |\n|: |\[GC )(\d+\.\d+)()(: )",
            1.0,
        ),
        (
            "unified",
            "unified/sample-ujl-g1-gc-all,safepoint,os+cpu.txt",
            r"(\[)(\d+\.\d+)()(s\])",
            10.0,
        ),
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    let mut g = c.benchmark_group("read+summary");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .warm_up_time(Duration::from_secs(2));
    for (name, file, stamp, period) in cases {
        let src = std::fs::read(corpus.join(file)).expect("corpus file");
        let buf = grow(&src, &Regex::new(stamp).expect("regex"), period, mib << 20);
        let path = dir.path().join(format!("{name}.log"));
        std::fs::write(&path, &buf).expect("write log");
        g.throughput(Throughput::Bytes(buf.len() as u64));
        drop(buf);
        g.bench_function(name, |b| {
            b.iter(|| {
                let gcperf::load::Input::Gc(l) = gcperf::load::load_any(&path).expect("log") else {
                    panic!("{name}: not a GC log");
                };
                gcperf::analyze::gc::summary(&l.frame).expect("summary")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
