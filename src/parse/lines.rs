//! Line splitting without allocation: memchr over the buffer. A line ends at `\n`, `\r\n` or
//! a lone `\r` (old Mac line ends); NUL bytes at a line's end (the padding a crashed JVM
//! leaves in a preallocated log file) are not part of the line.

/// Iterate `(1-based line number, line without its terminator)`.
pub fn lines(buf: &[u8]) -> Lines<'_> {
    Lines { buf, pos: 0, no: 0 }
}

pub struct Lines<'a> {
    buf: &'a [u8],
    pos: usize,
    no: u64,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u64, &'a [u8]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.buf.len() {
            return None;
        }
        let rest = &self.buf[self.pos..];
        let (line, adv) = match memchr::memchr2(b'\n', b'\r', rest) {
            Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => (&rest[..i], i + 2),
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        self.pos += adv;
        self.no += 1;
        let mut line = line;
        while let [head @ .., 0] = line {
            line = head;
        }
        Some((self.no, line))
    }
}

/// Count lines as `lines()` would.
pub fn count(buf: &[u8]) -> u64 {
    let mut n = 0u64;
    let mut it = memchr::memchr2_iter(b'\n', b'\r', buf).peekable();
    while let Some(i) = it.next() {
        n += 1;
        if buf[i] == b'\r' && buf.get(i + 1) == Some(&b'\n') {
            // `\r\n` is one line end: skip its `\n`.
            it.next();
        }
    }
    match buf.last() {
        Some(b'\n' | b'\r') | None => n,
        Some(_) => n + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_crlf_and_last_line() {
        let v: Vec<_> = lines(b"a\r\nbb\n\nccc").collect();
        assert_eq!(
            v,
            vec![
                (1, &b"a"[..]),
                (2, &b"bb"[..]),
                (3, &b""[..]),
                (4, &b"ccc"[..])
            ]
        );
        assert_eq!(count(b"a\r\nbb\n\nccc"), 4);
        assert_eq!(count(b"a\n"), 1);
        assert_eq!(count(b""), 0);
    }

    #[test]
    fn lone_cr_ends_a_line_and_trailing_nuls_are_dropped() {
        // Old Mac line ends: three lines, not one.
        let v: Vec<_> = lines(b"a\rbb\r\rc").collect();
        assert_eq!(
            v,
            vec![
                (1, &b"a"[..]),
                (2, &b"bb"[..]),
                (3, &b""[..]),
                (4, &b"c"[..])
            ]
        );
        assert_eq!(count(b"a\rbb\r\rc"), 4);
        assert_eq!(count(b"a\r"), 1);
        // `\r\n` split by nothing: one line end.
        assert_eq!(count(b"a\r\nb\r\n"), 2);
        // NUL padding after the last line, and NULs at a line's end.
        let v: Vec<_> = lines(b"x 1.5ms\0\0\ny\0z\n\0\0\0").collect();
        assert_eq!(
            v,
            vec![(1, &b"x 1.5ms"[..]), (2, &b"y\0z"[..]), (3, &b""[..])]
        );
        assert_eq!(count(b"x 1.5ms\0\0\ny\0z\n\0\0\0"), 3);
    }
}
