//! What the unified, JRockit and performance-log parsers believe of hostile input: labels cut
//! to a bounded length, figures of a bounded number of digits, dates that exist. Thin checks
//! in front of `num`'s scanners (which accept any day 1–31 and any `asctime` day and time, and
//! copy a number of more than 18 integer digits to parse it).

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
/// damage, never a value, and `num::float_prefix` would copy it to parse it.
pub const MAX_DIGITS: usize = 40;

/// Does `s` start with a number whose integer part has more than `MAX_DIGITS` digits?
fn too_long(s: &[u8]) -> bool {
    let s = match s.first() {
        Some(b'-' | b'+') => s.get(1..).unwrap_or_default(),
        _ => s,
    };
    s.iter()
        .take(MAX_DIGITS + 1)
        .take_while(|b| b.is_ascii_digit())
        .count()
        > MAX_DIGITS
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

/// Does day `d` exist in month `m` of year `y` (proleptic Gregorian)?
pub fn day_exists(y: u32, m: u32, d: u32) -> bool {
    let leap = y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400));
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// The value of the ASCII digits of `s` (spaces count as 0, for `asctime`'s `Feb  1`); `None`
/// for any other byte.
fn digits(s: &[u8]) -> Option<u32> {
    s.iter().try_fold(0u32, |a, &c| match c {
        b'0'..=b'9' => Some(a * 10 + u32::from(c - b'0')),
        b' ' => Some(a * 10),
        _ => None,
    })
}

/// `num::iso_datetime_prefix` with a day that exists in its month: `2012-02-30` is refused,
/// not rolled into March.
pub fn iso_datetime_prefix(s: &[u8]) -> Option<(i64, usize)> {
    let r = num::iso_datetime_prefix(s)?;
    let y = digits(s.get(0..4)?)?;
    let m = digits(s.get(5..7)?)?;
    let d = digits(s.get(8..10)?)?;
    day_exists(y, m, d).then_some(r)
}

/// `num::asctime_prefix` (`Thu Feb 21 15:06:32 2013`) with a date and a time of day that
/// exist: `Feb 31` or `25:61:99` is refused, not rolled into the next month or day.
pub fn asctime_prefix(s: &[u8]) -> Option<(i64, usize)> {
    let r = num::asctime_prefix(s)?;
    const MONTHS: &[u8; 36] = b"JanFebMarAprMayJunJulAugSepOctNovDec";
    let mon = MONTHS.chunks(3).position(|m| Some(m) == s.get(4..7))? as u32 + 1;
    let day = digits(s.get(8..10)?)?;
    let (h, mi, sec) = (
        digits(s.get(11..13)?)?,
        digits(s.get(14..16)?)?,
        digits(s.get(17..19)?)?,
    );
    let year = digits(s.get(20..24)?)?;
    (day_exists(year, mon, day) && h < 24 && mi < 60 && sec <= 60).then_some(r)
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
