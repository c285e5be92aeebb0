//! Small allocation-free scanners shared by the parsers: numbers, memory sizes, timestamps, and
//! XML text with its entities replaced.

pub use crate::model::round;

/// Parse a decimal number such as `12`, `0.0123`, `1,234` (comma as decimal separator, as some
/// locales write it) or `-3.5e-4` from the start of `s`. Returns the value and bytes consumed.
///
/// The span is found here (what a log may write: a sign, digits, a `.` or `,` and digits, an
/// exponent of at most four digits; never `nan` or `inf`), and converted by `fast-float2`
/// (correctly rounded). Never NaN; a 400-digit number is infinity, never something small.
pub fn float_prefix(s: &[u8]) -> Option<(f64, usize)> {
    // Most figures are a few digits, a point and a few digits: read eight bytes at a time, and
    // convert as fast-float2 itself would (Clinger's fast path: an integer below 2^53 over an
    // exact power of ten is one correctly rounded division). Through fast-float2 alone the
    // 200 MiB JRockit and unified logs took 8-10 % more CPU (BENCHMARKS.md, session 22).
    if let Some((int, n)) = digits8(s, 0) {
        let (frac, k, i) = match s.get(n) {
            Some(b'.' | b',') if s.get(n + 1).is_some_and(u8::is_ascii_digit) => {
                match digits8(s, n + 1) {
                    Some((f, m)) => (f, m, n + 1 + m),
                    None => return float_span(s),
                }
            }
            _ => (0, 0, n),
        };
        if !matches!(s.get(i), Some(b'e' | b'E' | b'0'..=b'9')) {
            // Below 10^7 * 10^7: exact in a double, as is 10^k for k < 8.
            let m = int * POW10_INT[k] + frac;
            return Some((m as f64 / POW10_INT[k] as f64, i));
        }
    }
    float_span(s)
}

/// Powers of ten up to 10^7.
const POW10_INT: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// `float_prefix` for every form: signs, long runs of digits, exponents.
fn float_span(s: &[u8]) -> Option<(f64, usize)> {
    let digits = |from: usize| {
        s.get(from..)
            .map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let mut i = usize::from(matches!(s.first(), Some(b'-' | b'+')));
    let int_digits = digits(i);
    i += int_digits;
    let mut comma = None;
    let mut frac_digits = 0;
    if matches!(s.get(i), Some(b'.' | b',')) && s.get(i + 1).is_some_and(u8::is_ascii_digit) {
        if s[i] == b',' {
            comma = Some(i);
        }
        frac_digits = digits(i + 1);
        i += 1 + frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(s.get(i + 1), Some(b'-' | b'+')));
        let e = digits(i + 1 + sign).min(4);
        if e > 0 {
            i += 1 + sign + e;
        }
    }
    let span = &s[..i];
    let v: f64 = match comma {
        None => fast_float2::parse(span).ok()?,
        Some(at) => {
            let mut owned = span.to_vec();
            owned[at] = b'.';
            fast_float2::parse(&owned).ok()?
        }
    };
    Some((v, i))
}

/// The run of 1 to 7 ASCII digits starting at `s[at]`: its value and length (`None`: no digit
/// there, or eight or more in a row). Eight bytes are tested and combined at once (SWAR).
#[inline]
fn digits8(s: &[u8], at: usize) -> Option<(u64, usize)> {
    let rest = s.get(at..)?;
    let x = match rest.get(..8) {
        Some(b) => u64::from_le_bytes(b.try_into().ok()?),
        // Fewer than eight bytes left: NUL after them, which is not a digit.
        None => load_short(rest),
    };
    // A byte's top bit is set unless it is `0`..=`9` (no carry or borrow reaches the first
    // byte that is not a digit: those before it are digits).
    let flags = (x.wrapping_add(0x4646_4646_4646_4646) | x.wrapping_sub(0x3030_3030_3030_3030))
        & 0x8080_8080_8080_8080;
    let n = (flags.trailing_zeros() / 8) as usize;
    if n == 0 || n >= 8 {
        return None;
    }
    // The digits moved to the top bytes (leading zeros below), then combined pairwise
    // (Lemire's eight-digit parse).
    let v = x.wrapping_sub(0x3030_3030_3030_3030) << (8 * (8 - n));
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    let v = ((v & 0x0000_00FF_0000_00FF)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32))))
        >> 32;
    Some((v, n))
}

/// The bytes of `r` (fewer than eight) as a little-endian word, zero above them: two
/// overlapping four-byte reads for four to seven bytes (the bytes they share are the same).
#[inline]
fn load_short(r: &[u8]) -> u64 {
    let word = |b: Option<&[u8]>| {
        b.and_then(|b| b.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    };
    match r.len() {
        n @ 4..=7 => {
            u64::from(word(r.get(..4))) | (u64::from(word(r.get(n - 4..))) << (8 * (n - 4)))
        }
        _ => r
            .iter()
            .take(3)
            .enumerate()
            .fold(0, |v, (k, &c)| v | (u64::from(c) << (8 * k))),
    }
}

/// Parse an unsigned integer prefix.
pub fn uint_prefix(s: &[u8]) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        v = v.checked_mul(10)?.checked_add((s[i] - b'0') as u64)?;
        i += 1;
    }
    (i > 0).then_some((v, i))
}

/// A memory size such as `123K`, `123KB`, `24.0M`, `1G`, `0.0B`, `3072.0K`, `512 K`: value in KB
/// (rounded to the nearest KB) and bytes consumed. A bare number without unit is taken as KB.
pub fn size_kb_prefix(s: &[u8]) -> Option<(u64, usize)> {
    // Fast path, the common `123456K`: up to 7 digits then `K`/`KB` or an end that cannot
    // continue a number are that integer exactly (what the general path below computes).
    if let Some((v, digits)) = digits8(s, 0) {
        // What could continue the figure (a fraction, an exponent, a blank before a unit)
        // or scale it (a unit other than K): left to the general path.
        let general = matches!(
            s.get(digits),
            Some(b'.' | b',' | b'e' | b'E' | b' ' | b'B' | b'M' | b'm' | b'G' | b'g' | b'T' | b't')
        );
        if !general {
            let mut i = digits;
            if matches!(s.get(i), Some(b'K' | b'k')) {
                i += 1;
                if s.get(i) == Some(&b'B') {
                    i += 1;
                }
            }
            return Some((v, i));
        }
    }
    size_kb_prefix_general(s)
}

/// Bytes to KB, to the nearest (`size_kb_prefix`'s rule for a size in bytes).
pub fn kb(bytes: u64) -> u64 {
    bytes / 1024 + u64::from(bytes % 1024 >= 512)
}

/// `size_kb_prefix` for every form: fractions, units, a blank before the unit.
fn size_kb_prefix_general(s: &[u8]) -> Option<(u64, usize)> {
    let (v, mut i) = float_prefix(s)?;
    if v < 0.0 {
        return None;
    }
    // Allow one space before the unit ("1234 K" in CMS "YG occupancy").
    let save = i;
    i += usize::from(s.get(i) == Some(&b' '));
    let unit = match s.get(i) {
        Some(b'B') => Some(1.0 / 1024.0),
        Some(b'K' | b'k') => Some(1.0),
        Some(b'M' | b'm') => Some(1024.0),
        Some(b'G' | b'g') => Some(1024.0 * 1024.0),
        Some(b'T' | b't') => Some(1024.0 * 1024.0 * 1024.0),
        _ => None,
    };
    i = if unit.is_some() { i + 1 } else { save };
    let mult = unit.unwrap_or(1.0);
    if mult != 1.0 / 1024.0 && i > save && s.get(i) == Some(&b'B') {
        i += 1; // "KB", "MB"
    }
    let kb = v * mult;
    // `round` is a library call on baseline x86-64; an integral value (every double from 2^53
    // up is one) is its own rounding.
    let kb = if kb >= 9_007_199_254_740_992.0 || (kb as u64) as f64 == kb {
        kb as u64
    } else {
        round(kb) as u64
    };
    Some((kb, i))
}

/// Trim ASCII whitespace on both sides.
pub fn trim(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// Below this many bytes of haystack a search goes by the needle's first byte: building
/// memmem's searcher costs more than scanning a log line (5 % of a JRockit parse).
const SHORT_HAY: usize = 256;

/// Position of `needle` in `hay`.
#[inline]
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = needle.split_first() else {
        return Some(0);
    };
    if hay.len() >= SHORT_HAY {
        return memchr::memmem::find(hay, needle);
    }
    let mut from = 0;
    while let Some(p) = memchr::memchr(first, hay.get(from..)?) {
        let at = from + p;
        if hay.get(at + 1..).is_some_and(|t| t.starts_with(rest)) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Position of the last `needle` in `hay`.
#[inline]
pub fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = needle.split_first() else {
        return Some(hay.len());
    };
    if hay.len() >= SHORT_HAY {
        return memchr::memmem::rfind(hay, needle);
    }
    let mut to = hay.len();
    while let Some(at) = memchr::memrchr(first, &hay[..to]) {
        if hay.get(at + 1..).is_some_and(|t| t.starts_with(rest)) {
            return Some(at);
        }
        to = at;
    }
    None
}

#[inline]
pub fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

/// The two-digit number at `s[i]`.
pub(crate) fn two(s: &[u8], i: usize) -> Option<u32> {
    let a = *s.get(i)?;
    let b = *s.get(i + 1)?;
    (a.is_ascii_digit() && b.is_ascii_digit()).then(|| ((a - b'0') * 10 + (b - b'0')) as u32)
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// Days in month `m` (1-12) of year `y`; 0 for a month that does not exist.
fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// Parse an ISO-8601 stamp at the start of `s`: `2013-05-22T15:42:34.123+0200`,
/// `2013-05-22T15:42:34.123+02:00`, `2012-09-21 12:04:02.308`, `2012-09-21 12:04:02,308`.
/// Returns the local wall-clock time as milliseconds since the epoch (the offset is consumed
/// but not applied: users read logs in the log's local time) and the bytes consumed.
pub fn iso_datetime_prefix(s: &[u8]) -> Option<(i64, usize)> {
    if s.len() < 19 {
        return None;
    }
    let year = (two(s, 0)? * 100 + two(s, 2)?) as i64;
    if s[4] != b'-'
        || s[7] != b'-'
        || (s[10] != b'T' && s[10] != b' ')
        || s[13] != b':'
        || s[16] != b':'
    {
        return None;
    }
    let mon = two(s, 5)?;
    let day = two(s, 8)?;
    let h = two(s, 11)?;
    let mi = two(s, 14)?;
    let sec = two(s, 17)?;
    // Impossible dates (`2012-02-31`, `2013-02-29`) are not stamps.
    if day < 1 || day > days_in_month(year, mon) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut i = 19;
    let mut ms: i64 = 0;
    if i < s.len() && (s[i] == b'.' || s[i] == b',') {
        i += 1;
        let start = i;
        let mut scale = 100;
        while i < s.len() && s[i].is_ascii_digit() {
            if scale > 0 {
                ms += (s[i] - b'0') as i64 * scale;
                scale /= 10;
            }
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    // Optional zone: Z, +hhmm, +hh:mm, -hhmm.
    if i < s.len() && s[i] == b'Z' {
        i += 1;
    } else if i < s.len() && (s[i] == b'+' || s[i] == b'-') && two(s, i + 1).is_some() {
        let j = i + 3;
        if s.get(j) == Some(&b':') && two(s, j + 1).is_some() {
            i = j + 3;
        } else if two(s, j).is_some() {
            i = j + 2;
        }
    }
    let days = days_from_civil(year, mon, day);
    let t = ((days * 24 + h as i64) * 60 + mi as i64) * 60 + sec as i64;
    Some((t * 1000 + ms, i))
}

/// The months' names as `asctime` and the common log format write them.
pub(crate) const MONTHS: [&[u8]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];

/// Parse a C `asctime`-style stamp as JRockit writes it: `Thu Feb 21 15:06:32 2013`.
/// Returns epoch milliseconds (local time taken as UTC) and bytes consumed.
pub fn asctime_prefix(s: &[u8]) -> Option<(i64, usize)> {
    // "Www Mmm dd hh:mm:ss yyyy" = 24 bytes; day may be space-padded ("Feb  1").
    if s.len() < 24 || s[3] != b' ' || s[7] != b' ' {
        return None;
    }
    let mon = MONTHS.iter().position(|m| *m == &s[4..7])? as u32 + 1;
    let day = if s[8] == b' ' {
        (s[9] as char).to_digit(10)?
    } else {
        two(s, 8)?
    };
    if s[10] != b' ' || s[13] != b':' || s[16] != b':' || s[19] != b' ' {
        return None;
    }
    let h = two(s, 11)?;
    let mi = two(s, 14)?;
    let sec = two(s, 17)?;
    let year = (two(s, 20)? * 100 + two(s, 22)?) as i64;
    if day < 1 || day > days_in_month(year, mon) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let days = days_from_civil(year, mon, day);
    let t = ((days * 24 + h as i64) * 60 + mi as i64) * 60 + sec as i64;
    Some((t * 1000, 24))
}

/// Format epoch milliseconds (local time taken as UTC) as `2012-09-21T10:05:14.536`.
pub fn format_wall_ms(ms: i64) -> String {
    let mut b = Vec::new();
    push_wall_ms(&mut b, ms);
    // chrono's text, or ASCII digits and separators.
    String::from_utf8(b).unwrap_or_default()
}

/// `format_wall_ms(ms)` appended to `out` (nothing for a time chrono cannot hold).
pub fn push_wall_ms(out: &mut Vec<u8>, ms: i64) {
    use chrono::{Datelike, Timelike};
    let Some(t) = chrono::DateTime::from_timestamp_millis(ms) else {
        return;
    };
    let t = t.naive_utc();
    let year = t.year();
    if !(0..=9999).contains(&year) {
        // chrono's own signs and widths for years outside four digits.
        out.extend_from_slice(t.format("%Y-%m-%dT%H:%M:%S%.3f").to_string().as_bytes());
        return;
    }
    // Digits written directly: chrono's format string read again for each of millions of
    // `gc --events` rows was a tenth of their time.
    let fields = [
        (year as u32, 4, b'-'),
        (t.month(), 2, b'-'),
        (t.day(), 2, b'T'),
        (t.hour(), 2, b':'),
        (t.minute(), 2, b':'),
        (t.second(), 2, b'.'),
    ];
    for (v, width, sep) in fields {
        push_digits(out, v, width);
        out.push(sep);
    }
    push_digits(out, t.nanosecond() / 1_000_000 % 1000, 3);
}

/// `v` zero-padded to `width` (at most 4) digits, appended to `out`.
fn push_digits(out: &mut Vec<u8>, mut v: u32, width: usize) {
    let mut buf = [b'0'; 4];
    let width = width.min(buf.len());
    for b in buf[..width].iter_mut().rev() {
        *b = b'0' + (v % 10) as u8;
        v /= 10;
    }
    out.extend_from_slice(&buf[..width]);
}

/// The unit of the last digit of a number as written (`12.345` → 0.001, `12` → 1): how far
/// the value a stamp was rounded or cut from may lie from it. At most nine decimals count.
pub fn last_digit_unit(num: &[u8]) -> f64 {
    // 10^-k as `powi` gives it (1 / 10^k, correctly rounded), without its library call.
    const UNIT: [f64; 10] = [1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9];
    match num.iter().rposition(|&b| b == b'.' || b == b',') {
        Some(dot) => UNIT[(num.len() - dot - 1).min(9)],
        None => 1.0,
    }
}

/// An attribute's or element's text with its entities replaced (as it is where one is not
/// XML: a lone `&`), not valid UTF-8 read lossily.
pub fn unescape(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if memchr::memchr(b'&', raw).is_none() {
        return std::borrow::Cow::Borrowed(raw);
    }
    let text = String::from_utf8_lossy(raw);
    let text =
        quick_xml::escape::unescape(&text).map_or_else(|_| text.to_string(), |s| s.into_owned());
    std::borrow::Cow::Owned(text.into_bytes())
}

#[cfg(test)]
mod tests {
    #[test]
    fn wall_times_written_from_digits_are_chronos() {
        let chrono_text = |ms: i64| match chrono::DateTime::from_timestamp_millis(ms) {
            Some(t) => t.naive_utc().format("%Y-%m-%dT%H:%M:%S%.3f").to_string(),
            None => String::new(),
        };
        let mut ms = -62_167_219_200_000i64 - 86_400_000; // the day before year 0
        let mut cases = vec![
            0,
            1,
            999,
            1_348_221_842_308,
            -1,
            -1_000,
            253_402_300_799_999, // 9999-12-31T23:59:59.999
            253_402_300_800_000, // year 10000
            -62_167_219_200_000, // 0000-01-01
            i64::MAX,
            i64::MIN,
        ];
        while ms < 300_000_000_000_000 {
            cases.push(ms);
            ms += 7_777_777_777_777;
        }
        for ms in cases {
            assert_eq!(format_wall_ms(ms), chrono_text(ms), "{ms}");
        }
    }

    use super::*;

    #[test]
    fn round_is_f64_round_bit_for_bit() {
        let mut xs: Vec<f64> = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            -4_503_599_627_370_495.5,
            9.007_199_254_740_993e15,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
            2858.0000000000005,
        ];
        // Halves and their neighbours, and doubles of every exponent (a fixed generator).
        for k in -2000i64..2000 {
            let h = k as f64 + 0.5;
            xs.extend([
                h,
                f64::from_bits(h.to_bits() + 1),
                f64::from_bits(h.to_bits() - 1),
            ]);
        }
        let mut z = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            xs.push(f64::from_bits(z));
        }
        for x in xs {
            let (a, b) = (round(x), x.round());
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{x:e}: {a:e} vs {b:e}"
            );
        }
        assert!(round(f64::NAN).is_nan());
    }

    #[test]
    fn floats() {
        assert_eq!(float_prefix(b"0.2300771 secs"), Some((0.2300771, 9)));
        assert_eq!(float_prefix(b"12"), Some((12.0, 2)));
        assert_eq!(float_prefix(b"0,0123 secs"), Some((0.0123, 6)));
        assert_eq!(float_prefix(b"-1.5"), Some((-1.5, 4)));
        assert_eq!(float_prefix(b"1.0e-05x"), Some((1.0e-5, 7)));
        assert_eq!(float_prefix(b"abc"), None);
        assert_eq!(float_prefix(b"."), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(size_kb_prefix(b"325407K->"), Some((325407, 7)));
        assert_eq!(size_kb_prefix(b"4264185KB->"), Some((4264185, 9)));
        assert_eq!(size_kb_prefix(b"24.0M(24.0M)"), Some((24576, 5)));
        assert_eq!(size_kb_prefix(b"1G"), Some((1048576, 2)));
        assert_eq!(size_kb_prefix(b"0.0B("), Some((0, 4)));
        assert_eq!(size_kb_prefix(b"3072.0K"), Some((3072, 7)));
        assert_eq!(size_kb_prefix(b"1234 K (5678 K)"), Some((1234, 6)));
    }

    #[test]
    fn iso_dates() {
        // 2013-05-22 is 15847 days after the epoch.
        let base = 15847i64 * 86_400_000;
        let t = base + ((15 * 60 + 42) * 60 + 34) * 1000 + 123;
        assert_eq!(
            iso_datetime_prefix(b"2013-05-22T15:42:34.123+0200: 1.0"),
            Some((t, 28))
        );
        assert_eq!(
            iso_datetime_prefix(b"2013-05-22T15:42:34.123+02:00]"),
            Some((t, 29))
        );
        assert_eq!(
            iso_datetime_prefix(b"2013-05-22 15:42:34,123;"),
            Some((t, 23))
        );
        assert_eq!(
            iso_datetime_prefix(b"2013-05-22 15:42:34"),
            Some((t - 123, 19))
        );
        assert_eq!(iso_datetime_prefix(b"2013-13-22 15:42:34"), None);
        assert_eq!(format_wall_ms(t), "2013-05-22T15:42:34.123");
    }

    #[test]
    fn impossible_dates_are_not_dates() {
        let d = |s: &str| iso_datetime_prefix(s.as_bytes()).map(|(t, _)| format_wall_ms(t));
        assert_eq!(d("2012-02-31T10:00:00"), None);
        assert_eq!(d("2012-04-31T10:00:00"), None);
        assert_eq!(d("2013-02-29T10:00:00"), None);
        assert_eq!(d("1900-02-29T10:00:00"), None);
        assert_eq!(d("2012-00-10T10:00:00"), None);
        assert_eq!(d("2012-01-00T10:00:00"), None);
        assert_eq!(d("2012-01-10T24:00:00"), None);
        // Leap years: 2012 and 2000 (divisible by 400) have a 29 February, 1900 has not.
        assert_eq!(
            d("2012-02-29T10:00:00").as_deref(),
            Some("2012-02-29T10:00:00.000")
        );
        assert_eq!(
            d("2000-02-29T10:00:00").as_deref(),
            Some("2000-02-29T10:00:00.000")
        );
        assert_eq!(
            d("2012-12-31T23:59:59").as_deref(),
            Some("2012-12-31T23:59:59.000")
        );
        assert_eq!(
            d("2012-04-30T00:00:00").as_deref(),
            Some("2012-04-30T00:00:00.000")
        );
        assert_eq!(asctime_prefix(b"Fri Feb 31 01:02:03 2013"), None);
        assert_eq!(asctime_prefix(b"Fri Feb 29 01:02:03 2013"), None);
        assert_eq!(asctime_prefix(b"Fri Mar  1 25:02:03 2013"), None);
        let (t, _) = asctime_prefix(b"Wed Feb 29 01:02:03 2012").unwrap();
        assert_eq!(format_wall_ms(t), "2012-02-29T01:02:03.000");
    }

    #[test]
    fn huge_numbers_are_huge_and_never_nan() {
        let nines = "9".repeat(400);
        assert_eq!(float_prefix(nines.as_bytes()), Some((f64::INFINITY, 400)));
        let (v, n) = float_prefix(format!("1{}", "0".repeat(30)).as_bytes()).unwrap();
        assert_eq!(n, 31);
        assert!((v / 1e30 - 1.0).abs() < 1e-12);
        // Leading zeros are not significant digits.
        let zeros = format!("{}12.5", "0".repeat(30));
        assert_eq!(float_prefix(zeros.as_bytes()), Some((12.5, 34)));
        assert_eq!(float_prefix(b"0e9999"), Some((0.0, 6)));
        assert_eq!(float_prefix(b"1e9999 "), Some((f64::INFINITY, 6)));
        let (v, n) = float_prefix(b"-1e308").unwrap();
        assert!((v / -1e308 - 1.0).abs() < 1e-12 && n == 6);
        let (v, _) = float_prefix(format!("{nines}e-9999").as_bytes()).unwrap();
        assert!(!v.is_nan());
        // A size that large saturates (callers reject it as implausible), it is never 0.
        assert_eq!(
            size_kb_prefix(format!("{nines}K").as_bytes()),
            Some((u64::MAX, 401))
        );
        assert_eq!(float_prefix(b"-"), None);
        assert_eq!(float_prefix(b"+.5"), Some((0.5, 3)));
        assert_eq!(float_prefix(b"1e"), Some((1.0, 1)));
        assert_eq!(float_prefix(b"1e-"), Some((1.0, 1)));
    }

    /// The eight-bytes-at-once size path gives what the general path gives.
    #[test]
    fn fast_paths_agree_with_the_general_path() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut rnd = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let tails = [
            "", " ms", "K", "KB", "K->", "M", "e3", "e-2", ".", ",", "s", "9", "/", ":", "é",
            "\u{7f}", "~",
        ];
        for _ in 0..20_000 {
            let digits = |rnd: &mut dyn FnMut(u64) -> u64| -> String {
                (0..rnd(11))
                    .map(|_| char::from(b'0' + rnd(10) as u8))
                    .collect()
            };
            let int = digits(&mut rnd);
            let frac = digits(&mut rnd);
            let sep = ["", ".", ","][rnd(3) as usize];
            let tail = tails[rnd(tails.len() as u64) as usize];
            let t = format!("{int}{sep}{frac}{tail}");
            let b = t.as_bytes();
            assert_eq!(size_kb_prefix(b), size_kb_prefix_general(b), "{t:?}");
        }
        assert_eq!(float_prefix(b"1234567"), Some((1234567.0, 7)));
        assert_eq!(float_prefix(b"12345678.5"), Some((12345678.5, 10)));
        assert_eq!(float_prefix(b"0.1234567 s"), Some((0.1234567, 9)));
        assert_eq!(size_kb_prefix(b"9999999K)"), Some((9999999, 8)));
        assert_eq!(size_kb_prefix(b"99999999KB)"), Some((99999999, 10)));
    }

    #[test]
    fn numbers_read_as_std_reads_their_span() {
        // Every shape near the fast path's edges, and random strings of number bytes.
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for int in [
            "",
            "0",
            "7",
            "000",
            "0012",
            "123456789012345678",
            "1234567890123456789",
        ] {
            for frac in [
                "",
                ".",
                ",",
                ".0",
                ".5",
                ",25",
                ".000123",
                ".123456789012345678",
            ] {
                for tail in ["", ":", " secs", "e5", "E-3", "K", ".7", ",1"] {
                    cases.push(format!("{int}{frac}{tail}").into_bytes());
                }
            }
        }
        cases.push(format!("1.{}", "9".repeat(19)).into_bytes());
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            let mut c = Vec::new();
            for _ in 0..(x % 24) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                c.push(b"0123456789012345.,e-+: "[(x % 23) as usize]);
            }
            cases.push(c);
        }
        for c in &cases {
            // The value is the consumed span's, correctly rounded (as std reads it, `,` as
            // `.`), and the span stops where a number that is a log's figure stops.
            let Some((v, n)) = float_prefix(c) else {
                continue;
            };
            let span = String::from_utf8_lossy(&c[..n]).replace(',', ".");
            let want: f64 = span.parse().unwrap();
            assert_eq!(
                v.to_bits(),
                want.to_bits(),
                "{:?}",
                String::from_utf8_lossy(c)
            );
            assert!(
                !c.get(n).is_some_and(u8::is_ascii_digit) || span.contains(['e', 'E']),
                "{:?}: stopped before a digit",
                String::from_utf8_lossy(c)
            );
        }
    }

    #[test]
    fn whole_kb_read_as_the_general_reader() {
        let general = |s: &[u8]| {
            let (v, mut i) = float_prefix(s)?;
            let save = i;
            if i < s.len() && s[i] == b' ' {
                i += 1;
            }
            if !matches!(s.get(i), Some(b'K' | b'k')) {
                return None;
            }
            i += 1;
            if i > save && s.get(i) == Some(&b'B') {
                i += 1;
            }
            Some((round(v) as u64, i))
        };
        for c in [
            "0K",
            "7K",
            "3967K",
            "0012k",
            "4032KB",
            "999999999999999K",
            "1234567890123456K",
            "12.5K",
            "12K)",
            "1e3K",
            "12,0K",
            "5 K",
            "K",
        ] {
            let c = c.as_bytes();
            if let Some(want) = general(c) {
                assert_eq!(
                    size_kb_prefix(c),
                    Some(want),
                    "{}",
                    String::from_utf8_lossy(c)
                );
            }
        }
    }

    #[test]
    fn last_digit() {
        assert_eq!(last_digit_unit(b"295.880"), 0.001);
        assert_eq!(last_digit_unit(b"1,5"), 0.1);
        assert_eq!(last_digit_unit(b"12"), 1.0);
        assert_eq!(last_digit_unit(b"0.123456789012"), 1e-9);
        for k in 0..10 {
            let n = format!("1.{}", "0".repeat(k));
            let want = if k == 0 { 1.0 } else { 10f64.powi(-(k as i32)) };
            assert_eq!(
                last_digit_unit(n.as_bytes()).to_bits(),
                want.to_bits(),
                "{n}"
            );
        }
    }

    #[test]
    fn asctime() {
        let (t, n) = asctime_prefix(b"Thu Feb 21 15:06:32 2013]").unwrap();
        assert_eq!(n, 24);
        assert_eq!(format_wall_ms(t), "2013-02-21T15:06:32.000");
        let (t, _) = asctime_prefix(b"Fri Mar  1 01:02:03 2013").unwrap();
        assert_eq!(format_wall_ms(t), "2013-03-01T01:02:03.000");
    }

    #[test]
    fn short_and_long_searches_agree_with_memmem() {
        let long = [b"x".repeat(300), b"ab".to_vec(), b"x".repeat(10)].concat();
        for hay in [&b"aab abab"[..], b"", b"a", b"ba", &long] {
            for needle in [&b"ab"[..], b"a", b"b", b"abab", b"", b"zz", b"aab abab!"] {
                assert_eq!(
                    find(hay, needle),
                    memchr::memmem::find(hay, needle),
                    "{hay:?} {needle:?}"
                );
                assert_eq!(
                    rfind(hay, needle),
                    memchr::memmem::rfind(hay, needle),
                    "{hay:?} {needle:?}"
                );
            }
        }
    }
}
