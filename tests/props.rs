//! Properties: no parser panics on any input, and numbers read back as written.

use gcperf::model::GcFormat;
use gcperf::parse::num::{float_prefix, size_kb_prefix};
use proptest::prelude::*;

/// Fragments of real log syntax, so random inputs reach deep into the parsers.
const PIECES: &[&str] = &[
    "[GC ",
    "[Full GC ",
    "12.345: ",
    "2013-05-22T15:42:34.123+0200: ",
    "[ParNew: ",
    "K->",
    "K(",
    "), ",
    " secs]",
    "]",
    "[",
    "\n",
    "[memory ] ",
    "[gcpause] ",
    "[YC#1] ",
    "GC(3) ",
    "Pause Young ",
    "[0.200s][info][gc] ",
    "ms",
    "(",
    "1234",
    "0.5",
    "->",
    "[CMS-concurrent-mark: 0.1/0.2 secs]",
    " (concurrent mode failure): ",
    "sum of pauses ",
    "Total time for which application threads were stopped: ",
    "\u{fffd}",
    "\r",
    " ",
    ",",
];

fn log_like() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0..PIECES.len(), 0..200)
        .prop_map(|ix| ix.into_iter().flat_map(|i| PIECES[i].bytes()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parsers_never_panic_on_log_like_input(buf in log_like()) {
        for f in [GcFormat::Jrockit, GcFormat::Hotspot, GcFormat::Unified] {
            let log = gcperf::parse::parse_gc(f, &buf);
            prop_assert!(log.events.iter().all(|e| e.duration_ms.is_finite() && e.duration_ms >= 0.0));
        }
        let _ = gcperf::input::detect(&buf);
    }

    #[test]
    fn parsers_never_panic_on_bytes(buf in prop::collection::vec(any::<u8>(), 0..2000)) {
        for f in [GcFormat::Jrockit, GcFormat::Hotspot, GcFormat::Unified] {
            let _ = gcperf::parse::parse_gc(f, &buf);
        }
    }

    #[test]
    fn decimals_read_back(int in 0u64..1_000_000, frac in 0u64..10_000_000) {
        let text = format!("{int}.{frac:07} secs");
        let (v, n) = float_prefix(text.as_bytes()).unwrap();
        prop_assert_eq!(n, text.len() - 5);
        let expect: f64 = format!("{int}.{frac:07}").parse().unwrap();
        prop_assert!((v - expect).abs() <= expect.abs() * 1e-15 + 1e-15);
    }

    #[test]
    fn kilobytes_read_back(kb in 0u64..1_000_000_000) {
        prop_assert_eq!(size_kb_prefix(format!("{kb}K->").as_bytes()), Some((kb, format!("{kb}K").len())));
    }
}
