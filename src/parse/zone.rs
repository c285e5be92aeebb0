//! The zone of a log's wall-clock stamps: the offsets ISO stamps carry (`+0300`), and the
//! offsets users give (`--tz`). Read once from the head of what a loader reads
//! (`load::Loaded::zone`); `correlate` and `export` put stamps on one clock with it.

use crate::model::GcClock;
use serde::Serialize;

/// The zone of a GC log's wall-clock stamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Zone {
    /// Local time, offset not written (JRockit; a log without stamps at all).
    Local,
    /// UTC plus this many minutes (`+0300` → 180; epoch stamps → 0).
    Offset(i32),
}

/// `+0300`, `-0530`, `+0000`.
pub fn zone_text(min: i32) -> String {
    let sign = if min < 0 { '-' } else { '+' };
    let a = min.unsigned_abs();
    format!("{sign}{:02}{:02}", a / 60, a % 60)
}

/// `+0300`, `+03:00`, `-05`, `Z`, `UTC` → minutes east of UTC; None if it is not an offset
/// (or beyond ±14 h).
pub fn parse_zone(s: &str) -> Option<i32> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("z") || t.eq_ignore_ascii_case("utc") {
        return Some(0);
    }
    let (sign, rest) = match t.as_bytes().first()? {
        b'+' => (1, &t[1..]),
        b'-' => (-1, &t[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) || rest.matches(':').count() > 1 {
        return None;
    }
    let (h, m) = match digits.len() {
        1 | 2 => (digits.parse::<i32>().ok()?, 0),
        4 => (
            digits[..2].parse::<i32>().ok()?,
            digits[2..].parse::<i32>().ok()?,
        ),
        _ => return None,
    };
    if m > 59 || h * 60 + m > 14 * 60 {
        return None;
    }
    Some(sign * (h * 60 + m))
}

/// The zone of a GC log's stamps, from the head of the file: the offset after its first ISO
/// date (HotSpot date stamps, unified `[time]` or `[utctime]`); a unified log with wall-clock
/// stamps but no ISO date writes epoch stamps (`[timemillis]`): UTC. JRockit writes no offset.
pub fn gc_zone(head: &[u8], clock: GcClock) -> Zone {
    if !clock.writes_offset {
        return Zone::Local;
    }
    for line in head.split(|&b| b == b'\n').take(20_000) {
        // A date starts with four digits and a '-': look only where a '-' follows 4 digits.
        let mut i = 0;
        while let Some(p) = memchr::memchr(b'-', line.get(i..).unwrap_or(&[])) {
            let at = i + p;
            i = at + 1;
            if at < 4 || !line[at - 4..at].iter().all(u8::is_ascii_digit) {
                continue;
            }
            let s = &line[at - 4..];
            if let Some((_, n)) = crate::parse::num::iso_datetime_prefix(s) {
                return Zone::Offset(offset_qh(&s[..n]).map_or(0, |q| i32::from(q) * 15));
            }
        }
    }
    if clock.undated_is_utc {
        Zone::Offset(0)
    } else {
        Zone::Local
    }
}

/// The offset at the end of an ISO stamp as `num::iso_datetime_prefix` took it (`...34.123`
/// then `+0200`, `+02:00` or `Z`), in quarter hours east of UTC (`GcEvent::utc_offset_qh`);
/// None where the stamp writes no offset, or one that is not a whole number of quarter hours
/// or is beyond ±14 h. Read from the bytes alone (no `from_utf8`, no `parse_zone`): it runs
/// once an event, on logs of millions.
pub fn offset_qh(stamp: &[u8]) -> Option<i8> {
    // After the 19 bytes of `yyyy-mm-ddThh:mm:ss` come the fraction, then the zone.
    let (sign, h1, h2, m1, m2) = match stamp.get(19..)? {
        [.., b'Z'] => return Some(0),
        [.., s @ (b'+' | b'-'), h1, h2, b':', m1, m2] | [.., s @ (b'+' | b'-'), h1, h2, m1, m2] => {
            (*s, *h1, *h2, *m1, *m2)
        }
        _ => return None,
    };
    let digit = |b: u8| b.is_ascii_digit().then(|| i32::from(b - b'0'));
    let (h, m) = (digit(h1)? * 10 + digit(h2)?, digit(m1)? * 10 + digit(m2)?);
    let min = h * 60 + m;
    if m > 59 || min > 14 * 60 || min % 15 != 0 {
        return None;
    }
    let qh = i8::try_from(min / 15).ok()?;
    Some(if sign == b'-' { -qh } else { qh })
}

#[cfg(test)]
mod tests {
    use super::offset_qh;

    #[test]
    fn offsets_in_quarter_hours() {
        let q = |s: &str| offset_qh(s.as_bytes());
        assert_eq!(q("2016-03-27T01:59:59.500+0100"), Some(4));
        assert_eq!(q("2016-03-27T03:00:01.250+02:00"), Some(8));
        assert_eq!(q("2016-03-27T03:00:01.250+0545"), Some(23));
        assert_eq!(q("2016-03-27T03:00:01-0330"), Some(-14));
        assert_eq!(q("2016-03-27T03:00:01.250Z"), Some(0));
        assert_eq!(q("2016-03-27T03:00:01.250+0000"), Some(0));
        assert_eq!(q("2016-03-27T03:00:01.250-0000"), Some(0));
        assert_eq!(q("2016-03-27T03:00:01+1400"), Some(56));
        assert_eq!(q("2016-03-27T03:00:01-1400"), Some(-56));
        // No offset written.
        assert_eq!(q("2016-03-27T03:00:01.250"), None);
        assert_eq!(q("2016-03-27T03:00:01"), None);
        assert_eq!(q("2016-03-27T03:00:01.25012"), None);
        // Not a whole number of quarter hours, beyond 14 h, or not minutes.
        assert_eq!(q("2016-03-27T03:00:01.250+0110"), None);
        assert_eq!(q("2016-03-27T03:00:01.250+1415"), None);
        assert_eq!(q("2016-03-27T03:00:01.250+0175"), None);
        assert_eq!(q("short"), None);
    }
}
