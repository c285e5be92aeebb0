//! Mergeable distributions: a run's pause (or request) times as counts in fixed log-spaced
//! buckets, so that the summaries of many runs (a fleet's hosts, Spark tasks) add up to the
//! distribution of all their values, and its percentiles are within a stated error of the exact
//! ones over all the values, which no combination of the runs' own percentiles gives.
//!
//! The buckets are DDSketch's (Masson, Rim and Lee, VLDB 2019) with relative accuracy
//! `ALPHA`: with γ = (1 + α) / (1 − α), a value v > 0 is counted in bucket
//! i = ⌈ln v / ln γ⌉, which holds (γ^(i−1), γ^i], and the bucket stands for 2γ^i / (γ + 1),
//! within α (relative) of every value in it. Values ≤ 0 are counted apart (`zeros`) and
//! stand for 0. Merging adds `zeros` and the counts index by index: the same buckets whatever
//! the runs, so a merge loses nothing more. A percentile is read as the exact ones are
//! (`analyze::gc::linear_quantiles`, linear between the closest ranks), each rank's value
//! replaced by its bucket's: a convex combination of values each within α of the exact ones,
//! so within α (relative) of the exact percentile of all the values merged.
//!
//! Index and count are two arrays, ascending by index, counts > 0: a SQL engine explodes
//! them into rows (`arrays_zip`, `unnest`) and sums counts by index (README, examples/spark).

use serde::{Deserialize, Serialize};

/// The relative accuracy of every sketch gcperf writes (1 %).
pub const ALPHA: f64 = 0.01;

/// A distribution of non-negative values (ms), mergeable with any other of the same `alpha`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sketch {
    pub alpha: f64,
    /// Values ≤ 0 (and NaN is never counted).
    pub zeros: u64,
    /// Bucket indexes, ascending.
    pub index: Vec<i32>,
    /// Values in each bucket of `index`, each > 0.
    pub count: Vec<u64>,
}

/// The bucket of v > 0 (finite): ⌈ln v / ln γ⌉, the stated definition.
fn exact_bucket(v: f64, ln_gamma: f64) -> i32 {
    (v.ln() / ln_gamma).ceil() as i32
}

/// Buckets from -`SPAN` to `SPAN` (ALPHA's γ: 1e-18 to 1e18 ms) are found by table.
const SPAN: i32 = 2100;

/// `bucket`'s tables for `ALPHA`: where each bucket starts (`starts[i + SPAN]`: the least
/// double `exact_bucket` puts in bucket i or above, found by searching `exact_bucket` itself,
/// so the table gives what the definition gives), and log2 of the mantissa's top 10 bits.
struct Table {
    ln_gamma: f64,
    starts: Vec<f64>,
    log2: [f64; 1024],
    per_octave: f64,
}

fn table() -> &'static Table {
    static T: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let ln_gamma = gamma(ALPHA).ln();
        let starts = (-SPAN..=SPAN + 1)
            .map(|i| {
                // Near γ^(i-1); stepped a double at a time to the exact edge.
                let mut x = ((i - 1) as f64 * ln_gamma).exp();
                while exact_bucket(x, ln_gamma) >= i {
                    x = f64::from_bits(x.to_bits() - 1);
                }
                while exact_bucket(x, ln_gamma) < i {
                    x = f64::from_bits(x.to_bits() + 1);
                }
                x
            })
            .collect();
        Table {
            ln_gamma,
            starts,
            log2: std::array::from_fn(|t| (1.0 + t as f64 / 1024.0).log2()),
            per_octave: std::f64::consts::LN_2 / ln_gamma,
        }
    })
}

/// The bucket of v > 0 (finite), as `exact_bucket` gives it. A table lookup and a compare or
/// two: `ln` for every value made a summary of a 200 MB JRockit log (2.9 M pauses) 11 %
/// slower (BENCHMARKS.md, session 30).
fn bucket(v: f64) -> i32 {
    let t = table();
    let bits = v.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    if e == 0 {
        return exact_bucket(v, t.ln_gamma);
    }
    // log2 v from below, within 1/700 of an octave: a bucket is 1/34.7 of one, so the guess
    // is the bucket or the one below it.
    let l2 = (e - 1023) as f64 + t.log2[((bits >> 42) & 0x3ff) as usize];
    let mut i = -super::floor_i64(-(l2 * t.per_octave)) as i32;
    if !(-SPAN + 1..SPAN).contains(&i) {
        return exact_bucket(v, t.ln_gamma);
    }
    let start = |i: i32| t.starts[(i + SPAN) as usize];
    while v < start(i) {
        i -= 1;
    }
    while v >= start(i + 1) {
        i += 1;
    }
    i
}

/// Counts a sketch as values come: a dense run of buckets from `offset`, grown either way.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    zeros: u64,
    offset: i32,
    counts: Vec<u64>,
}

/// γ for a relative accuracy α.
fn gamma(alpha: f64) -> f64 {
    (1.0 + alpha) / (1.0 - alpha)
}

impl Builder {
    pub fn add(&mut self, v: f64) {
        if v.is_nan() {
            return;
        }
        if v <= 0.0 {
            self.zeros += 1;
            return;
        }
        // Finite: an infinite time is no time; counted in the largest bucket a double has.
        let i = bucket(v.min(f64::MAX));
        if self.counts.is_empty() {
            self.offset = i;
            self.counts.push(0);
        } else if i < self.offset {
            let grow = (self.offset - i) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.offset = i;
        } else if (i - self.offset) as usize >= self.counts.len() {
            self.counts.resize((i - self.offset) as usize + 1, 0);
        }
        self.counts[(i - self.offset) as usize] += 1;
    }

    /// The sketch, or None where no value was added.
    pub fn finish(self) -> Option<Sketch> {
        if self.zeros == 0 && self.counts.is_empty() {
            return None;
        }
        let (index, count) = self
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| (self.offset + k as i32, c))
            .unzip();
        Some(Sketch {
            alpha: ALPHA,
            zeros: self.zeros,
            index,
            count,
        })
    }
}

impl Sketch {
    /// The sketch of `values`; None for none.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Sketch> {
        let mut b = Builder::default();
        values.into_iter().for_each(|v| b.add(v));
        b.finish()
    }

    /// The sketch of a slice, its parts built on the thread pool and merged (buckets add, so
    /// it is `of`'s sketch): one core's 30 ms on 2 M values was a serial tail of `summary`.
    pub fn of_slice(values: &[f64]) -> Option<Sketch> {
        use rayon::prelude::*;
        values
            .par_chunks(1 << 18)
            .filter_map(|part| Sketch::of(part.iter().copied()))
            .reduce_with(|a, b| a.merge(&b).unwrap_or(a))
    }

    /// How many values it holds.
    pub fn len(&self) -> u64 {
        self.zeros + self.count.iter().sum::<u64>()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value bucket `i` stands for.
    pub fn value_of(&self, i: i32) -> f64 {
        let g = gamma(self.alpha);
        2.0 * g.powi(i) / (g + 1.0)
    }

    /// Both sketches' values as one sketch; None where their accuracies differ.
    pub fn merge(&self, other: &Sketch) -> Option<Sketch> {
        if self.alpha != other.alpha {
            return None;
        }
        let (mut a, mut b) = (0, 0);
        let (mut index, mut count) = (Vec::new(), Vec::new());
        while a < self.index.len() || b < other.index.len() {
            let next_a = self.index.get(a).copied().unwrap_or(i32::MAX);
            let next_b = other.index.get(b).copied().unwrap_or(i32::MAX);
            let i = next_a.min(next_b);
            let mut c = 0;
            if next_a == i {
                c += self.count.get(a).copied().unwrap_or(0);
                a += 1;
            }
            if next_b == i {
                c += other.count.get(b).copied().unwrap_or(0);
                b += 1;
            }
            index.push(i);
            count.push(c);
        }
        Some(Sketch {
            alpha: self.alpha,
            zeros: self.zeros + other.zeros,
            index,
            count,
        })
    }

    /// All of `sketches` merged; None for none, or where accuracies differ.
    pub fn merge_all<'a>(sketches: impl IntoIterator<Item = &'a Sketch>) -> Option<Sketch> {
        let mut it = sketches.into_iter();
        let first = it.next()?.clone();
        it.try_fold(first, |acc, s| acc.merge(s))
    }

    /// Quantile `p` (0..=1), as `linear_quantiles` reads the exact one: within `alpha`
    /// (relative) of it. None for an empty sketch.
    pub fn quantile(&self, p: f64) -> Option<f64> {
        if !(0.0..=1.0).contains(&p) {
            return None;
        }
        let n = usize::try_from(self.len()).ok()?;
        super::gc::interpolate(n, &[p], |r| self.at(r as u64))
            .pop()
            .flatten()
    }

    /// The value standing for the value of rank `k` (0-based, ascending).
    fn at(&self, k: u64) -> Option<f64> {
        if k < self.zeros {
            return Some(0.0);
        }
        let mut seen = self.zeros;
        let (&i, _) = self.index.iter().zip(&self.count).find(|(_, &c)| {
            seen += c;
            k < seen
        })?;
        Some(self.value_of(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact linear quantile, as `analyze::gc::linear_quantiles` computes it.
    fn exact(v: &[f64], p: f64) -> f64 {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        let r = (s.len() - 1) as f64 * p;
        let lo = r as usize;
        if lo + 1 >= s.len() {
            return s[lo];
        }
        s[lo] + (r - lo as f64) * (s[lo + 1] - s[lo])
    }

    #[test]
    fn each_bucket_holds_values_within_alpha_of_its_value() {
        // Bucket 0 holds (1/γ, 1]; γ = 1.01/0.99.
        let g = 1.01 / 0.99;
        let s = Sketch::of([1.0, 1.0 / g + 1e-12, 0.5, 0.0, -1.0]).unwrap();
        assert_eq!(s.zeros, 2);
        // ln 0.5 / ln γ = -34.66: bucket -34.
        assert_eq!(s.index, vec![-34, 0]);
        assert_eq!(s.count, vec![1, 2]);
        // Bucket 0 stands for 2/(γ+1) = 0.99: 1 % below 1, 1 % above 1/γ = 0.9706.
        assert!((s.value_of(0) - 0.99).abs() < 1e-12);
        for v in [1e-6, 0.37, 1.0, 7.5, 123.456, 98_765.4, 3.0e7] {
            let s = Sketch::of([v]).unwrap();
            let got = s.value_of(s.index[0]);
            assert!((got - v).abs() <= ALPHA * v * (1.0 + 1e-12), "{v} → {got}");
        }
    }

    #[test]
    fn merged_percentiles_are_within_alpha_of_the_exact_ones() {
        // Three "hosts" of different spreads; the fleet's p50/p95/p99/max against the exact
        // ones over every value.
        let hosts: Vec<Vec<f64>> = (0..3)
            .map(|h| {
                (0..1000 + 300 * h)
                    .map(|i| ((i * 7919 + h * 104_729) % 5000) as f64 * 0.37 * (h + 1) as f64)
                    .collect()
            })
            .collect();
        let sketches: Vec<Sketch> = hosts
            .iter()
            .map(|v| Sketch::of(v.iter().copied()).unwrap())
            .collect();
        let all: Vec<f64> = hosts.concat();
        let fleet = Sketch::merge_all(&sketches).unwrap();
        assert_eq!(fleet.len(), all.len() as u64);
        assert_eq!(
            fleet.zeros,
            all.iter().filter(|&&v| v <= 0.0).count() as u64
        );
        for p in [0.0, 0.5, 0.95, 0.99, 1.0] {
            let (got, want) = (fleet.quantile(p).unwrap(), exact(&all, p));
            assert!(
                (got - want).abs() <= ALPHA * want + 1e-12,
                "p{p}: {got} vs {want}"
            );
        }
        // Merging in another order gives the same sketch.
        let other = sketches[2]
            .merge(&sketches[0])
            .unwrap()
            .merge(&sketches[1])
            .unwrap();
        assert_eq!(other, fleet);
    }

    #[test]
    fn the_table_gives_the_defined_bucket() {
        let lg = gamma(ALPHA).ln();
        // At and beside every edge of a wide range, and values spread over 30 decades.
        for i in -1500..1500 {
            let edge = table().starts[(i + SPAN) as usize];
            for x in [
                f64::from_bits(edge.to_bits() - 1),
                edge,
                f64::from_bits(edge.to_bits() + 1),
            ] {
                assert_eq!(bucket(x), exact_bucket(x, lg), "{x:e}");
            }
        }
        let mut x = 1e-15;
        while x < 1e15 {
            assert_eq!(bucket(x), exact_bucket(x, lg), "{x:e}");
            x *= 1.000_37;
        }
        // Beyond the table and subnormal: the definition itself.
        for x in [1e-300, 5e-324, 1e300, f64::MAX] {
            assert_eq!(bucket(x), exact_bucket(x, lg), "{x:e}");
        }
    }

    #[test]
    fn empty_and_unlike_sketches() {
        assert_eq!(Sketch::of(std::iter::empty()), None);
        assert_eq!(Sketch::of([f64::NAN]), None);
        let a = Sketch::of([1.0]).unwrap();
        let mut b = a.clone();
        b.alpha = 0.02;
        assert_eq!(a.merge(&b), None);
        assert_eq!(a.quantile(1.5), None);
        // Only zeros: every percentile 0.
        assert_eq!(Sketch::of([0.0, 0.0]).unwrap().quantile(0.99), Some(0.0));
    }
}
