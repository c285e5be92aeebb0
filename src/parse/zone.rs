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
                return Zone::Offset(zone_in(&s[..n]).unwrap_or(0));
            }
        }
    }
    if clock.undated_is_utc {
        Zone::Offset(0)
    } else {
        Zone::Local
    }
}

/// The offset at the end of an ISO stamp (`...34.123+0200`, `+02:00`, `Z`), minutes.
fn zone_in(stamp: &[u8]) -> Option<i32> {
    let s = std::str::from_utf8(stamp).ok()?;
    let tail = s.get(19..)?;
    let tail = tail.trim_start_matches(|c: char| c == '.' || c == ',' || c.is_ascii_digit());
    if tail.is_empty() {
        return None;
    }
    parse_zone(tail)
}
