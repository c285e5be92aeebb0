//! What the parsers believe of hostile input: labels cut to a bounded length, figures of a
//! bounded number of digits, wall-clock stamps before the year 10000. (Dates that do not
//! exist are refused by `num`'s scanners themselves.)

use super::num;

/// Longest label kept, in bytes: operation names, JMeter labels, collector, cause and phase
/// names. A longer one is cut (at a character boundary) when interned, so a 100k-character
/// name costs 256 bytes, not a megabyte per chart label.
pub const MAX_LABEL_BYTES: usize = 256;

/// `b` cut to at most `MAX_LABEL_BYTES`, never inside a UTF-8 sequence.
pub fn cap_label(b: &[u8]) -> &[u8] {
    if b.len() <= MAX_LABEL_BYTES {
        return b;
    }
    let mut cut = MAX_LABEL_BYTES;
    // Back over continuation bytes (10xxxxxx) to the start of their character; at most three
    // (invalid UTF-8 is cut where it is, and shown lossily).
    while cut > MAX_LABEL_BYTES - 3 && b.get(cut).is_some_and(|&c| c & 0xC0 == 0x80) {
        cut -= 1;
    }
    b.get(..cut).unwrap_or(b)
}

/// Most integer digits a figure may have. No log writes more (2^64 has 20); a longer run is
/// damage, never a value (refused here rather than read as a huge number).
pub const MAX_DIGITS: usize = 40;

/// Does `s` start with a number whose integer part has more than `MAX_DIGITS` digits?
fn too_long(s: &[u8]) -> bool {
    let s = match s.first() {
        Some(b'-' | b'+') => s.get(1..).unwrap_or_default(),
        _ => s,
    };
    s.get(..=MAX_DIGITS)
        .is_some_and(|p| p.iter().all(u8::is_ascii_digit))
}

/// `num::float_prefix`, refusing an integer part longer than `MAX_DIGITS`.
pub fn float_prefix(s: &[u8]) -> Option<(f64, usize)> {
    if too_long(s) {
        return None;
    }
    num::float_prefix(s)
}

/// `num::size_kb_prefix`, refusing an integer part longer than `MAX_DIGITS`.
pub fn size_kb_prefix(s: &[u8]) -> Option<(u64, usize)> {
    if too_long(s) {
        return None;
    }
    num::size_kb_prefix(s)
}

/// Latest wall-clock time believed, epoch ms: 9999-12-31T23:59:59.999 (an epoch stamp past it
/// is damage, and would not print as a date).
pub const MAX_WALL_MS: i64 = 253_402_300_799_999;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_cut_at_a_char_boundary() {
        let short = "Pause Young".as_bytes();
        assert_eq!(cap_label(short), short);
        let long = "x".repeat(100_000);
        assert_eq!(cap_label(long.as_bytes()).len(), 256);
        // "é" is two bytes: 255 ASCII bytes then "é" would put its second byte at 256.
        let s = format!("{}é{}", "a".repeat(255), "b".repeat(10));
        assert_eq!(cap_label(s.as_bytes()), "a".repeat(255).as_bytes());
        // Three-byte "€" straddling the cut: cut before it.
        let s = format!("{}€rest", "a".repeat(254));
        assert_eq!(cap_label(s.as_bytes()).len(), 254);
    }

    #[test]
    fn long_figures_refused() {
        let n = "1".repeat(400);
        assert_eq!(float_prefix(n.as_bytes()), None);
        assert_eq!(float_prefix(format!("-{n}").as_bytes()), None);
        assert_eq!(size_kb_prefix(format!("{n}K").as_bytes()), None);
        let forty = "1".repeat(40);
        assert!(float_prefix(forty.as_bytes()).is_some());
        assert_eq!(float_prefix(b"2.5ms"), Some((2.5, 3)));
        assert_eq!(size_kb_prefix(b"24M->"), Some((24576, 3)));
    }

    #[test]
    fn dates_that_exist() {
        use crate::parse::num::{asctime_prefix, iso_datetime_prefix};
        assert!(iso_datetime_prefix(b"2012-02-29 23:59:59.999").is_some());
        assert_eq!(iso_datetime_prefix(b"2013-02-29 12:00:00"), None);
        assert_eq!(iso_datetime_prefix(b"2012-09-31 12:00:00"), None);
        assert_eq!(iso_datetime_prefix(b"2012-04-31T12:00:00.000+0000"), None);
        assert!(iso_datetime_prefix(b"2000-02-29T00:00:00").is_some());
        assert_eq!(iso_datetime_prefix(b"1900-02-29T00:00:00"), None);
        assert!(asctime_prefix(b"Thu Feb 21 15:06:32 2013").is_some());
        assert!(asctime_prefix(b"Fri Mar  1 01:02:03 2013").is_some());
        assert_eq!(asctime_prefix(b"Thu Feb 31 15:06:32 2013"), None);
        assert_eq!(asctime_prefix(b"Thu Feb 00 15:06:32 2013"), None);
        assert_eq!(asctime_prefix(b"Thu Feb 21 25:06:32 2013"), None);
        assert_eq!(asctime_prefix(b"Thu Feb 21 15:66:32 2013"), None);
        assert_eq!(asctime_prefix(b"Thu Feb 21 15:06:99 2013"), None);
    }
}
