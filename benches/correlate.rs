//! The interval join of `gcperf correlate` alone (`analyze::correlate::join`), in memory:
//! 1 M and 10 M requests against 100 k pauses, as `benches/correlate_gen.py` lays them out
//! (8 hours, requests of a few ms to a second, pauses of 5-90 ms and a few full GCs), to show
//! that it grows as n log n, apart from reading the logs.
//!
//! `cargo bench --bench correlate`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcperf::analyze::correlate::{join, Pauses};
use std::time::Duration;

struct Lcg(u64);
impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

const SPAN_MS: f64 = 8.0 * 3600.0 * 1000.0;

fn pauses(n: usize, r: &mut Lcg) -> Pauses {
    let gap = SPAN_MS / n as f64;
    let mut t = 0.0;
    let v = (0..n)
        .map(|i| {
            t += -gap * (1.0 - r.unit()).ln();
            let full = i % 150 == 75;
            let d = if full {
                300.0 + 1200.0 * r.unit()
            } else {
                5.0 + 85.0 * r.unit()
            };
            let p = (t, d, if full { 3 } else { 0 });
            t += d;
            p
        })
        .collect();
    Pauses::new(v)
}

fn requests(n: usize, r: &mut Lcg) -> (Vec<f64>, Vec<f64>, Vec<bool>) {
    let gap = SPAN_MS / n as f64;
    let mut t = 0.0;
    let (mut lo, mut hi, mut slow) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for _ in 0..n {
        t += -gap * (1.0 - r.unit()).ln();
        // Log-uniform 2 ms .. 1 s.
        let total = (2f64.ln() + (1000f64.ln() - 2f64.ln()) * r.unit()).exp();
        lo.push(t);
        hi.push(t + total);
        slow.push(total > 50.0);
    }
    (lo, hi, slow)
}

fn bench(c: &mut Criterion) {
    let mut r = Lcg(11);
    let p = pauses(100_000, &mut r);
    let mut g = c.benchmark_group("correlate_join");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for n in [1_000_000usize, 10_000_000] {
        let (lo, hi, slow) = requests(n, &mut r);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(format!("{}M requests x 100k pauses", n / 1_000_000), |b| {
            b.iter(|| join(&lo, &hi, &slow, &p))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
