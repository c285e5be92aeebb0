//! `gcperf correlate` end to end on a generated run: a HotSpot GC log with pauses at known
//! times and a semicolon performance log whose slow requests are known to overlap them (and
//! slow requests the database caused, away from any pause). The truth is worked out here,
//! every request against every pause, from the generator's own numbers, never by gcperf; the
//! figures must be exact.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// 2012-09-21 10:00:00 in ms (local time taken as UTC, as the logs write it).
const T0: i64 = 1_348_221_600_000;
/// The JVM started a minute before: uptime 60 s at T0.
const JVM_START_S: i64 = 60;
const OVER: f64 = 50.0;

#[derive(Clone, Copy)]
struct Pause {
    /// ms after T0, integer ms durations (even, so that halves are whole).
    start: i64,
    dur: i64,
    full: bool,
}

#[derive(Clone)]
struct Req {
    /// ms after T0.
    end: i64,
    total: i64,
    java: i64,
    db: i64,
    op: &'static str,
}

struct Run {
    pauses: Vec<Pause>,
    reqs: Vec<Req>,
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, m: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % m as u64) as i64
    }
}

fn generate(n_pauses: usize) -> Run {
    let mut r = Lcg(20120921);
    let mut pauses = Vec::new();
    let mut reqs = Vec::new();
    let mut req = |end: i64, total: i64, db: i64, op: &'static str| {
        reqs.push(Req {
            end,
            total,
            java: total - db,
            db,
            op,
        })
    };
    for i in 0..n_pauses {
        let start = 1000 + i as i64 * 3000 + r.next(500);
        let full = i % 25 == 12;
        let dur = if full {
            300 + 2 * r.next(300)
        } else {
            6 + 2 * r.next(28)
        };
        let p = Pause { start, dur, full };
        pauses.push(p);
        let end = start + dur;
        // A request the pause stopped: it began a ms or few before and ran its own 10-40 ms
        // plus the pause (slow unless both are short). Every full GC stops one.
        if i % 2 == 0 || full {
            let (a, b) = (1 + r.next(5), 10 + r.next(31));
            let s = start - a;
            req(s + b + dur, b + dur, b / 2, "saveOrder");
        }
        // Ends in the middle of the pause / starts in it.
        if i % 3 == 1 {
            req(start + dur / 2, 30 + dur / 2, 10, "getContract");
            req(end + 20, dur / 2 + 20, 5, "getContract");
        }
        // Ends just as the pause starts: no overlap (slow, by the database).
        if i % 7 == 0 {
            req(start, 100, 90, "search");
        }
        // Zero length, inside the pause: no overlap.
        if i % 5 == 0 {
            req(start + 1, 0, 0, "getBalance");
        }
        // Across this pause and the next (a long database call): two pauses.
        if i % 10 == 5 {
            req(start + 3600, 3700, 3000, "search");
        }
        // Slow by the database, away from any pause.
        if i % 3 == 0 {
            let total = 100 + r.next(1100);
            req(end + 300 + total, total, total - 5, "search");
        }
        // Fast background requests between pauses.
        for k in 0..5 {
            let total = 1 + r.next(40);
            req(end + 1500 + 10 * k + total, total, total / 3, "getBalance");
        }
    }
    reqs.sort_by_key(|q| q.end);
    Run { pauses, reqs }
}

fn wall(ms_after_t0: i64) -> String {
    let t = chrono::DateTime::from_timestamp_millis(T0 + ms_after_t0).unwrap();
    t.naive_utc().format("%Y-%m-%d %H:%M:%S%.3f").to_string()
}

/// The GC log: date stamps (+0300) or uptimes only; with a safepoint line after each pause
/// (stopped from 1 ms before the pause to its end).
fn gc_log(run: &Run, stamps: bool) -> String {
    let mut s = String::from(
        "Java HotSpot(TM) 64-Bit Server VM (25.66-b17) for linux-amd64 JRE (1.8.0_66-b17)\n",
    );
    let stamp = |ms: i64| {
        if stamps {
            format!("{}+0300: ", wall(ms).replace(' ', "T"))
        } else {
            String::new()
        }
    };
    let up = |ms: i64| {
        let u = JVM_START_S * 1000 + ms;
        format!("{}.{:03}", u / 1000, u % 1000)
    };
    for p in &run.pauses {
        let secs = format!("{:.7}", p.dur as f64 / 1000.0);
        if p.full {
            s.push_str(&format!(
                "{}{}: [Full GC (Ergonomics) [PSYoungGen: 100K->0K(200K)] [ParOldGen: 500K->400K(1000K)] 600K->400K(1200K), [Metaspace: 10K->10K(100K)], {secs} secs] [Times: user=0.01 sys=0.00, real=0.30 secs]\n",
                stamp(p.start),
                up(p.start)
            ));
        } else {
            s.push_str(&format!(
                "{}{}: [GC (Allocation Failure) [PSYoungGen: 100K->10K(200K)] 300K->210K(600K), {secs} secs] [Times: user=0.01 sys=0.00, real=0.01 secs]\n",
                stamp(p.start),
                up(p.start)
            ));
        }
        let end = p.start + p.dur;
        s.push_str(&format!(
            "{}{}: Total time for which application threads were stopped: {:.7} seconds, Stopping threads took: 0.0000100 seconds\n",
            stamp(end),
            up(end),
            (p.dur + 1) as f64 / 1000.0
        ));
    }
    s
}

fn perf_log(run: &Run, shift_ms: i64) -> String {
    let mut s = String::new();
    for (i, q) in run.reqs.iter().enumerate() {
        s.push_str(&format!(
            "[r{i:06}];{};{};{};{};1;{};\n",
            wall(q.end + shift_ms),
            q.total,
            q.java,
            q.db,
            q.op
        ));
    }
    s
}

/// The truth of one category (all GC pauses, a kind, safepoints) for a set of requests.
#[derive(Debug, Default, PartialEq)]
struct Truth {
    requests: u64,
    slow: u64,
    slow_with: u64,
    fast_with: u64,
    slow_only: u64,
    gc_in_slow: f64,
    slow_total: f64,
    db_in_slow: f64,
    p99: f64,
    p99_without: f64,
    pauses: u64,
    pause_ms: f64,
    hitting: u64,
    longest: Option<(f64, u64, u64)>,
}

/// numpy's linear quantile (method 7): h = (n − 1) p, between the closest ranks.
fn quantile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let h = (v.len() - 1) as f64 * p;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    if v[lo] == v[hi] {
        v[lo]
    } else {
        (h - lo as f64) * (v[hi] - v[lo]) + v[lo]
    }
}

/// Every request against every interval of `pauses` (start, end) in ms after T0.
fn truth(reqs: &[&Req], pauses: &[(f64, f64)], all_reqs: &[Req]) -> Truth {
    let mut t = Truth {
        requests: reqs.len() as u64,
        ..Truth::default()
    };
    let mut hits = vec![(0u64, 0u64); pauses.len()];
    let mut totals = Vec::new();
    let mut without = Vec::new();
    for q in reqs {
        let (a, b) = ((q.end - q.total) as f64, q.end as f64);
        let slow = q.total as f64 > OVER;
        let mut ms = 0.0;
        let mut n = 0;
        for (j, &(s, e)) in pauses.iter().enumerate() {
            let x = e.min(b) - s.max(a);
            if x > 0.0 {
                ms += x;
                n += 1;
                hits[j].0 += 1;
                hits[j].1 += u64::from(slow);
            }
        }
        if slow {
            t.slow += 1;
            t.slow_with += u64::from(n > 0);
            t.slow_only += u64::from(q.total as f64 - ms <= OVER);
            t.gc_in_slow += ms;
            t.slow_total += q.total as f64;
            t.db_in_slow += q.db as f64;
        } else {
            t.fast_with += u64::from(n > 0);
        }
        totals.push(q.total as f64);
        without.push(q.total as f64 - ms);
    }
    t.p99 = quantile(totals, 0.99);
    t.p99_without = quantile(without, 0.99);
    // Pauses within the span of all the requests (first start to last end).
    let lo = all_reqs.iter().map(|q| q.end - q.total).min().unwrap() as f64;
    let hi = all_reqs.iter().map(|q| q.end).max().unwrap() as f64;
    for (j, &(s, e)) in pauses.iter().enumerate() {
        if e <= lo || s >= hi {
            continue;
        }
        t.pauses += 1;
        t.pause_ms += e - s;
        t.hitting += u64::from(hits[j].0 > 0);
        if t.longest.is_none_or(|l| e - s > l.0) {
            t.longest = Some((e - s, hits[j].0, hits[j].1));
        }
    }
    t
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// `a` is `b` as gcperf prints it: JSON figures carry 12 significant digits (no float noise,
/// `report::clean`), and serde_json (without its `float_roundtrip` feature) may read a printed
/// figure back one ulp off; so ratios are compared at the 12th digit. Whole figures (counts,
/// sums of whole milliseconds) read back exactly and are compared with `==`.
fn same(a: f64, b: f64) -> bool {
    let twelve = |v: f64| format!("{v:.11e}");
    a == b || twelve(a) == twelve(b) || (a - b).abs() <= 5e-12 * b.abs()
}

/// The JSON figures of a category against the truth, exactly (ratios as printed, see `same`).
fn check(what: &str, o: &Value, t: &Truth, with_pauses: bool) {
    let n = |k: &str| {
        o[k].as_u64()
            .unwrap_or_else(|| panic!("{what}: {k} = {}", o[k]))
    };
    assert_eq!(n("requests"), t.requests, "{what}");
    assert_eq!(n("slow_requests"), t.slow, "{what}");
    assert_eq!(n("slow_with_gc"), t.slow_with, "{what}");
    assert_eq!(n("fast_with_gc"), t.fast_with, "{what}");
    assert_eq!(n("slow_only_by_gc"), t.slow_only, "{what}");
    assert_eq!(f(&o["gc_ms_in_slow"]), t.gc_in_slow, "{what}");
    assert_eq!(f(&o["slow_total_ms"]), t.slow_total, "{what}");
    assert_eq!(f(&o["db_ms_in_slow"]), t.db_in_slow, "{what}");
    if t.slow > 0 {
        let ratios = [
            (
                "slow_with_gc_pct",
                t.slow_with as f64 * 100.0 / t.slow as f64,
            ),
            ("gc_ms_in_slow_mean", t.gc_in_slow / t.slow as f64),
            ("gc_share_of_slow_pct", t.gc_in_slow * 100.0 / t.slow_total),
            ("db_share_of_slow_pct", t.db_in_slow * 100.0 / t.slow_total),
        ];
        for (k, want) in ratios {
            assert!(same(f(&o[k]), want), "{what}: {k} {} != {want}", o[k]);
        }
    }
    assert!(
        same(f(&o["p99_ms"]), t.p99),
        "{what}: p99 {} != {}",
        o["p99_ms"],
        t.p99
    );
    assert!(
        same(f(&o["p99_without_gc_ms"]), t.p99_without),
        "{what}: p99 without GC {} != {}",
        o["p99_without_gc_ms"],
        t.p99_without
    );
    if with_pauses {
        assert_eq!(n("pauses"), t.pauses, "{what}");
        assert_eq!(f(&o["pause_ms"]), t.pause_ms, "{what}");
        assert_eq!(n("pauses_hitting_requests"), t.hitting, "{what}");
        let (d, r, s) = t.longest.unwrap();
        let l = &o["longest_pause"];
        assert_eq!(
            (
                f(&l["duration_ms"]),
                l["requests"].as_u64(),
                l["slow_requests"].as_u64()
            ),
            (d, Some(r), Some(s)),
            "{what}"
        );
    }
}

fn gcperf() -> Command {
    Command::cargo_bin("gcperf").expect("binary")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn json(args: &[&str]) -> Value {
    let out = gcperf()
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn intervals(p: &[Pause], safepoint: bool, kind: Option<bool>) -> Vec<(f64, f64)> {
    p.iter()
        .filter(|p| kind.is_none_or(|full| p.full == full))
        .map(|p| {
            if safepoint {
                ((p.start - 1) as f64, (p.start + p.dur) as f64)
            } else {
                (p.start as f64, (p.start + p.dur) as f64)
            }
        })
        .collect()
}

/// Must show 1: every figure overall, per pause kind, per operation and for safepoints,
/// exact; the pair built so that every kind of case is in it.
#[test]
fn generated_run_every_figure_exact() {
    let run = generate(200);
    let dir = tempfile::tempdir().unwrap();
    let gc = write(dir.path(), "gc.log", &gc_log(&run, true));
    let perf = write(dir.path(), "perf.log", &perf_log(&run, 0));
    let v = json(&["correlate", "--gc", &gc, "--perf", &perf, "--safepoints"]);
    let c = &v[0];
    assert_eq!(c["slow_ms"], 50.0);
    assert_eq!(c["clock"]["gc"], "date stamps");
    assert_eq!(c["clock"]["gc_zone"], "+0300");
    assert_eq!(c["clock"]["perf"][0], "local time");
    assert_eq!(c["clock"]["gc_shift_ms"], 0);
    assert_eq!(c["clock"]["perf_shift_ms"][0], 0);

    let all: Vec<&Req> = run.reqs.iter().collect();
    let t = truth(&all, &intervals(&run.pauses, false, None), &run.reqs);
    eprintln!("truth, all GC pauses: {t:?}");
    // The generator made every case: GC-slow, DB-slow, fast with GC, two pauses in one.
    assert!(
        t.slow_with > 20 && t.slow > t.slow_with + 20 && t.fast_with > 10,
        "{t:?}"
    );
    assert!(t.slow_only > 0 && t.p99_without < t.p99, "{t:?}");
    assert!(t.longest.is_some_and(|l| l.1 > 0), "{t:?}");
    check("all", c, &t, true);

    // Per kind: each kind's pauses on their own, the kind with more pause time first.
    let kinds = c["kinds"].as_array().unwrap();
    assert_eq!(kinds.len(), 2);
    let mut last = f64::INFINITY;
    for k in kinds {
        let full = match k["kind"].as_str() {
            Some("full") => true,
            Some("young") => false,
            other => panic!("kind {other:?}"),
        };
        let t = truth(&all, &intervals(&run.pauses, false, Some(full)), &run.reqs);
        check(&format!("kind {full}"), k, &t, true);
        assert!(t.pause_ms <= last);
        last = t.pause_ms;
    }
    // Safepoints: their own intervals, never in the GC figures above.
    let t = truth(&all, &intervals(&run.pauses, true, None), &run.reqs);
    check("safepoints", &c["safepoints"], &t, true);

    // Per operation.
    let mut by_op: BTreeMap<&str, Vec<&Req>> = BTreeMap::new();
    for q in &run.reqs {
        by_op.entry(q.op).or_default().push(q);
    }
    let ops = c["operations"].as_array().unwrap();
    assert_eq!(ops.len(), by_op.len());
    for o in ops {
        let name = o["operation"].as_str().unwrap();
        let t = truth(
            &by_op[name],
            &intervals(&run.pauses, false, None),
            &run.reqs,
        );
        check(name, o, &t, false);
    }
    // Sorted by GC time in slow requests: saveOrder (stopped by every other pause) first.
    assert_eq!(ops[0]["operation"], "saveOrder");

    // Without --safepoints the GC figures are the same and there is no safepoint entry.
    let v2 = json(&["correlate", "--gc", &gc, "--perf", &perf]);
    assert!(v2[0].get("safepoints").is_none());
    for k in [
        "slow_with_gc",
        "gc_ms_in_slow",
        "p99_without_gc_ms",
        "pauses_hitting_requests",
    ] {
        assert_eq!(v2[0][k], c[k], "{k}");
    }
}

/// Must show 2: the same pair without date stamps, placed with --gc-start, gives the same
/// figures; without --gc-start a one-line error (exit 2); logs a day apart say so (exit 1).
#[test]
fn without_stamps_gc_start_and_logs_that_do_not_meet() {
    let run = generate(60);
    let dir = tempfile::tempdir().unwrap();
    let stamped = write(dir.path(), "gc-stamped.log", &gc_log(&run, true));
    let bare = write(dir.path(), "gc.log", &gc_log(&run, false));
    let perf = write(dir.path(), "perf.log", &perf_log(&run, 0));
    let want = json(&["correlate", "--gc", &stamped, "--perf", &perf]);
    let got = json(&[
        "correlate",
        "--gc",
        &bare,
        "--perf",
        &perf,
        "--gc-start",
        "2012-09-21 09:59:00",
    ]);
    assert_eq!(got[0]["clock"]["gc"], "--gc-start");
    assert_eq!(got[0]["clock"]["gc_start"], "2012-09-21T09:59:00.000");
    for k in [
        "requests",
        "slow_requests",
        "slow_with_gc",
        "fast_with_gc",
        "slow_only_by_gc",
        "gc_ms_in_slow",
        "p99_ms",
        "p99_without_gc_ms",
        "pauses",
        "pauses_hitting_requests",
        "longest_pause",
        "operations",
        "kinds",
    ] {
        assert_eq!(got[0][k], want[0][k], "{k}");
    }
    let all: Vec<&Req> = run.reqs.iter().collect();
    check(
        "gc-start",
        &got[0],
        &truth(&all, &intervals(&run.pauses, false, None), &run.reqs),
        true,
    );

    // No stamps, no --gc-start: one line naming the option, exit 2, nothing on stdout.
    let out = gcperf()
        .args(["correlate", "--gc", &bare, "--perf", &perf])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("no date stamps") && err.contains("--gc-start"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    // The performance log a day later: no overlap, said with the spans and the distance.
    let later = write(dir.path(), "later.log", &perf_log(&run, 86_400_000));
    let out = gcperf()
        .args(["correlate", "--gc", &stamped, "--perf", &later])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("do not overlap in time"), "{err}");
    assert!(err.contains("starts after the GC log ends"), "{err}");
    // Last pause end to first request start a day later: 23 h and some minutes apart.
    assert!(err.contains(" apart"), "{err}");
    let gc_last = run
        .pauses
        .iter()
        .map(|p| p.start + p.dur + 1)
        .max()
        .unwrap();
    let perf_first = run.reqs.iter().map(|q| q.end - q.total).min().unwrap() + 86_400_000;
    let gap_s = (perf_first - gc_last) / 1000;
    assert!(
        err.contains(&format!(
            "{} h {:02} min apart",
            gap_s / 3600,
            gap_s % 3600 / 60
        )),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// Epoch-stamped performance logs (JMeter) are UTC: moved to the host clock by the GC log's
/// own offset, or by --tz, and the output says which.
#[test]
fn jmeter_epoch_stamps_on_the_host_clock() {
    let run = generate(40);
    let dir = tempfile::tempdir().unwrap();
    let gc = write(dir.path(), "gc.log", &gc_log(&run, true));
    // JMeter's timeStamp is the sample's start, epoch ms (UTC): local − 3 h.
    let mut jtl = String::from("timeStamp,elapsed,label,responseCode,success\n");
    for q in &run.reqs {
        let start_utc = T0 + q.end - q.total - 3 * 3_600_000;
        jtl.push_str(&format!("{start_utc},{},{},200,true\n", q.total, q.op));
    }
    let jtl = write(dir.path(), "run.jtl", &jtl);
    let v = json(&["correlate", "--gc", &gc, "--perf", &jtl]);
    let c = &v[0];
    assert_eq!(c["clock"]["perf"][0], "epoch (UTC)");
    assert_eq!(c["clock"]["host_offset"], "+0300");
    assert_eq!(c["clock"]["host_offset_from"], "the GC log's stamps");
    assert_eq!(c["clock"]["perf_shift_ms"][0], 10_800_000);
    let all: Vec<&Req> = run.reqs.iter().collect();
    let mut t = truth(&all, &intervals(&run.pauses, false, None), &run.reqs);
    // A JTL has no database time.
    t.db_in_slow = 0.0;
    assert!(c["db_ms_in_slow"].is_null());
    let n = |k: &str| c[k].as_u64().unwrap();
    assert_eq!(
        (n("slow_with_gc"), n("fast_with_gc"), f(&c["gc_ms_in_slow"])),
        (t.slow_with, t.fast_with, t.gc_in_slow)
    );
    // --tz +0000 says the host is on UTC: the GC log's +0300 stamps go back 3 h and the
    // epoch ones stay: the same figures.
    let v = json(&["correlate", "--gc", &gc, "--perf", &jtl, "--tz", "+0000"]);
    assert_eq!(v[0]["clock"]["gc_shift_ms"], -10_800_000);
    assert_eq!(v[0]["clock"]["host_offset_from"], "--tz");
    assert_eq!(v[0]["gc_ms_in_slow"], c["gc_ms_in_slow"]);
}

/// `gcperf report` pairs the GC log with the performance log of the same run (not with one of
/// a day later) and shows their correlation and its chart in index.html.
#[test]
fn report_pairs_the_logs_of_one_run() {
    let run = generate(40);
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    write(&runs, "gc.log", &gc_log(&run, true));
    write(&runs, "perf.log", &perf_log(&run, 0));
    write(&runs, "later.log", &perf_log(&run, 86_400_000));
    let out = dir.path().join("report");
    let o = gcperf()
        .args([
            "report",
            runs.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The index lists the one pair; its figures are on both logs' pages, none on the
    // performance log of the next day's.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(index.matches("#correlate\">").count(), 1, "one pair");
    assert!(
        index.contains("<a href=\"runs/perf.html#correlate\">"),
        "{index}"
    );
    let page = |stem: &str| std::fs::read_to_string(out.join(format!("runs/{stem}.html"))).unwrap();
    let html = page("perf");
    assert!(html.contains("gc.log and ") && html.contains("perf.log</h3>"));
    assert!(page("gc").contains("perf.log</h3>"));
    assert!(!page("later").contains("GC pauses on the latency timeline"));
    let all: Vec<&Req> = run.reqs.iter().collect();
    let t = truth(&all, &intervals(&run.pauses, false, None), &run.reqs);
    // Requests wholly before the GC log's first record or after its last one's end are said,
    // as outside it (the generator's background requests after the last pause).
    let gc_first = run.pauses.iter().map(|p| p.start).min().unwrap();
    let gc_last = run.pauses.iter().map(|p| p.start + p.dur).max().unwrap();
    let outside = run
        .reqs
        .iter()
        .filter(|r| r.end < gc_first || r.end - r.total > gc_last)
        .count();
    let outside = match outside {
        0 => String::new(),
        n => format!(" ({n} outside the GC log's span: GC unknown there, counted as without)"),
    };
    let said = format!(
        "{} requests{outside}, {} slow (over 50 ms); {} of the slow overlap a GC pause",
        t.requests, t.slow, t.slow_with
    );
    assert!(html.contains(&said), "{said}\n{html}");
    let png = std::fs::read(out.join("charts/correlate-gc-perf.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

/// Issue 35: a young collection CMS ran inside its remark is one stop with it, for correlate
/// too. `cms-scavenge-before-remark-jdk8.log`: the remark at 10:00:20.000 stops 362.9243 ms
/// (its young collection, 159.0607 ms of it, is nested). A request ending at 10:00:20.500
/// after 800 ms (from 10:00:19.700) holds the whole stop: one pause in the requests' span,
/// 362.9243 ms of GC in the one slow request (over 500 ms), 45.3655375 % of its 800 ms; the
/// two 20 ms requests at 10:00:30 and 10:00:40 lie after the GC log's last record.
#[test]
fn a_stop_with_a_nested_collection_is_one_pause_to_correlate() {
    let dir = tempfile::tempdir().unwrap();
    let perf = write(
        dir.path(),
        "req.log",
        "[a1];2016-03-01 10:00:20.500;800;700;100;1;op;\n\
         [a2];2016-03-01 10:00:30.000;20;10;10;1;op;\n\
         [a3];2016-03-01 10:00:40.000;20;10;10;1;op;\n",
    );
    let gc = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hotspot/cms-scavenge-before-remark-jdk8.log");
    let o = &json(&[
        "correlate",
        "--gc",
        gc.to_str().unwrap(),
        "--perf",
        &perf,
        "--over",
        "500",
    ])[0];
    assert_eq!(o["pauses"], 1);
    assert!(same(f(&o["pause_ms"]), 362.9243));
    assert_eq!(o["longest_pause"]["kind"], "remark");
    assert!(same(f(&o["longest_pause"]["duration_ms"]), 362.9243));
    assert_eq!(
        (o["slow_requests"].clone(), o["slow_with_gc"].clone()),
        (1.into(), 1.into())
    );
    assert!(same(f(&o["gc_ms_in_slow"]), 362.9243));
    assert!(same(
        f(&o["gc_share_of_slow_pct"]),
        100.0 * 362.9243 / 800.0
    ));
    let kinds: Vec<&str> = o["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["pauses"] != 0)
        .map(|k| k["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["remark"]);
}

/// Issue 38: access logs on the GC log's clock. The generated run written as a Caddy JSON
/// log (epoch `ts` at the request's end, UTC: local − 3 h; `duration` in seconds) and as a
/// HAProxy log (accept date = the request's start, local time; `Ta` its time): each request is
/// `GET /<operation>/<n>`, so its operation is `GET /<operation>/{id}`. Every figure is the
/// truth worked out from the generator, as for the semicolon log; a access log has no
/// database time.
#[test]
fn access_logs_on_the_gc_clock() {
    let run = generate(60);
    let dir = tempfile::tempdir().unwrap();
    let gc = write(dir.path(), "gc.log", &gc_log(&run, true));
    let mut caddy = String::new();
    let mut haproxy = String::new();
    for (i, q) in run.reqs.iter().enumerate() {
        let end_utc = T0 + q.end - 3 * 3_600_000;
        caddy.push_str(&format!(
            "{{\"level\":\"info\",\"ts\":{}.{:03},\"logger\":\"http.log.access.log0\",\"msg\":\"handled request\",\"request\":{{\"remote_ip\":\"10.0.0.5\",\"proto\":\"HTTP/1.1\",\"method\":\"GET\",\"host\":\"shop\",\"uri\":\"/{}/{i}\"}},\"duration\":{}.{:03},\"size\":512,\"status\":200}}\n",
            end_utc / 1000,
            end_utc % 1000,
            q.op,
            q.total / 1000,
            q.total % 1000
        ));
        let start = chrono::DateTime::from_timestamp_millis(T0 + q.end - q.total).unwrap();
        haproxy.push_str(&format!(
            "{} lb1 haproxy[1234]: 10.0.0.5:51000 [{}] web~ app/srv1 0/0/0/{}/{} 200 512 - - ---- 1/1/0/0/0 0/0 \"GET /{}/{i} HTTP/1.1\"\n",
            start.format("%b %e %H:%M:%S"),
            start.format("%d/%b/%Y:%H:%M:%S%.3f"),
            q.total,
            q.total,
            q.op
        ));
    }
    let caddy = write(dir.path(), "caddy.log", &caddy);
    let haproxy = write(dir.path(), "haproxy.log", &haproxy);
    let all: Vec<&Req> = run.reqs.iter().collect();
    let mut t = truth(&all, &intervals(&run.pauses, false, None), &run.reqs);
    t.db_in_slow = 0.0;
    assert!(t.slow_with > 5 && t.fast_with > 5, "{t:?}");
    for (log, clock, shift) in [
        (&caddy, "epoch (UTC)", 10_800_000),
        (&haproxy, "local time", 0),
    ] {
        let v = json(&["correlate", "--gc", &gc, "--perf", log]);
        let c = &v[0];
        assert_eq!(c["clock"]["perf"][0], clock, "{log}");
        assert_eq!(c["clock"]["perf_shift_ms"][0], shift, "{log}");
        assert!(c["db_ms_in_slow"].is_null(), "{log}");
        let n = |k: &str| c[k].as_u64().unwrap();
        assert_eq!(
            (
                n("requests"),
                n("slow_requests"),
                n("slow_with_gc"),
                n("fast_with_gc"),
                n("slow_only_by_gc"),
                f(&c["gc_ms_in_slow"]),
                f(&c["slow_total_ms"]),
            ),
            (
                t.requests,
                t.slow,
                t.slow_with,
                t.fast_with,
                t.slow_only,
                t.gc_in_slow,
                t.slow_total
            ),
            "{log}"
        );
        assert!(same(f(&c["p99_ms"]), t.p99), "{log}: p99 {}", c["p99_ms"]);
        let ops: Vec<&str> = c["operations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["operation"].as_str().unwrap())
            .collect();
        assert!(ops.contains(&"GET /saveOrder/{id}"), "{log}: {ops:?}");
    }
}

/// An IIS log of `date`/`time` (UTC) and one of `date-local`/`time-local` (the host's wall
/// time, 3 h ahead here) of the same requests land on the same clock: the UTC one moved by the
/// GC log's +0300, the local one not, and every figure the same.
#[test]
fn iis_local_and_utc_stamps_on_one_clock() {
    let run = generate(30);
    let dir = tempfile::tempdir().unwrap();
    let gc = write(dir.path(), "gc.log", &gc_log(&run, true));
    let iis = |local: bool| {
        let (d, t, shift) = if local {
            ("date-local", "time-local", 0)
        } else {
            ("date", "time", 3 * 3_600_000)
        };
        let mut s = format!(
            "#Software: Microsoft Internet Information Services 10.0\n#Fields: {d} {t} cs-method cs-uri-stem sc-status time-taken\n"
        );
        for q in &run.reqs {
            let end = chrono::DateTime::from_timestamp_millis(T0 + q.end - shift).unwrap();
            s.push_str(&format!(
                "{} GET /{}/1 200 {}\n",
                end.format("%Y-%m-%d %H:%M:%S"),
                q.op,
                q.total
            ));
        }
        s
    };
    let utc = write(dir.path(), "u_ex_utc.log", &iis(false));
    let local = write(dir.path(), "u_ex_local.log", &iis(true));
    let a = json(&["correlate", "--gc", &gc, "--perf", &utc]);
    let b = json(&["correlate", "--gc", &gc, "--perf", &local]);
    assert_eq!(a[0]["clock"]["perf"][0], "epoch (UTC)");
    assert_eq!(a[0]["clock"]["perf_shift_ms"][0], 10_800_000);
    assert_eq!(b[0]["clock"]["perf"][0], "local time");
    assert_eq!(b[0]["clock"]["perf_shift_ms"][0], 0);
    for k in [
        "requests",
        "slow_requests",
        "slow_with_gc",
        "fast_with_gc",
        "gc_ms_in_slow",
        "pauses_hitting_requests",
    ] {
        assert_eq!(a[0][k], b[0][k], "{k}");
    }
    assert!(a[0]["slow_with_gc"].as_u64().unwrap() > 0);
}

/// `--files-from`: the run's logs listed (here on stdin, NUL-separated, with a file that is
/// neither kind) go each to its side by content, and the figures are those of `--gc`/`--perf`.
#[test]
fn a_listed_run_is_sorted_by_content_into_gc_and_perf() {
    let fx = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (gc, perf) = (
        fx.join("correlate/run-gc.log.gz"),
        fx.join("correlate/run-perf.log.gz"),
    );
    let given = gcperf()
        .args(["correlate", "-q", "--format", "json", "--gc"])
        .arg(&gc)
        .arg("--perf")
        .arg(&perf)
        .output()
        .unwrap();
    assert!(given.status.success());
    // Listed perf first: the order of the list does not say the side.
    let mut list = Vec::new();
    for p in [&perf, &fx.join("bad/README.md"), &gc] {
        list.extend_from_slice(p.as_os_str().as_encoded_bytes());
        list.push(0);
    }
    let listed = gcperf()
        .args(["correlate", "--format", "json", "--files-from", "-", "-0"])
        .write_stdin(list)
        .output()
        .unwrap();
    // The README is left out, saying so: exit 0, 4 only with --strict.
    assert_eq!(listed.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&listed.stderr).contains("README.md"));
    let (a, b): (Value, Value) = (
        serde_json::from_slice(&given.stdout).unwrap(),
        serde_json::from_slice(&listed.stdout).unwrap(),
    );
    assert_eq!(a, b);
    assert_eq!(a[0]["requests"], 14400);
}
