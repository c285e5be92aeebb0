//! The shapes of HotSpot's records, as nom rules over a line's bytes (issue 36 step 4: a reader
//! sees the line's shape here). Where in a line to apply them stays the scanner's job
//! (`hotspot.rs`: the event's `[` found by `event_start`, an arrow or ` secs` by a search):
//! real lines interleave other output, and the parser reads what it can around it.
//!
//! The rules work on complete input (`nom::*::complete`), fail with `()` (nothing is reported
//! from a rule that does not match: the caller moves on) and allocate nothing.
//!
//! What they cost against the scanner they replaced (nothing measurable on the 200 MB logs):
//! BENCHMARKS.md, "nom for HotSpot records".

use super::super::num::{float_prefix, size_kb_prefix};
use nom::bytes::complete::{tag, take_while};
use nom::character::complete::char;
use nom::combinator::opt;
use nom::sequence::{preceded, terminated};
use nom::{Err, IResult, Parser};

type Res<'a, O> = IResult<&'a [u8], O, ()>;

/// What `prefix` (a `num` reader: the value and its length) reads at the start of `i`.
#[inline]
fn read<T>(i: &[u8], prefix: impl Fn(&[u8]) -> Option<(T, usize)>) -> Res<'_, T> {
    let (v, n) = prefix(i).ok_or(Err::Error(()))?;
    Ok((i.get(n..).ok_or(Err::Error(()))?, v))
}

/// A decimal number, `0.0123` or `1,5` (`num::float_prefix`).
fn number(i: &[u8]) -> Res<'_, f64> {
    read(i, float_prefix)
}

/// A memory size, `1024K`, `24.0M`, `0.0B` (`num::size_kb_prefix`), in KB.
fn size(i: &[u8]) -> Res<'_, u64> {
    read(i, size_kb_prefix)
}

/// A duration, `0.0123 secs`.
#[inline]
pub(super) fn secs(i: &[u8]) -> Res<'_, f64> {
    terminated(number, tag(&b" secs"[..])).parse(i)
}

/// The size before a heap transition's arrow: its digits, points and unit letters (`1024K`,
/// `24.0MB`, `0.0B`), read as a size from their start (`1.2.3K` is 1 KB: what a size can be
/// read from it). `heap_triple` starts it where its arrow's size begins.
fn size_before_arrow(i: &[u8]) -> Res<'_, u64> {
    let (rest, span) =
        take_while(|b: u8| b.is_ascii_digit() || matches!(b, b'.' | b'B' | b'K' | b'M' | b'G'))
            .parse(i)?;
    let (v, _) = size_kb_prefix(span).ok_or(Err::Error(()))?;
    Ok((rest, v))
}

/// A heap transition, `4096K->1024K(8192K)`: before, after, and the total when given (its `)`
/// is not needed: a line cut there still says it).
pub(super) fn transition(i: &[u8]) -> Res<'_, (u64, u64, Option<u64>)> {
    (
        size_before_arrow,
        preceded(tag(&b"->"[..]), size),
        opt(preceded(char('('), size)),
    )
        .parse(i)
}
