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

impl<'a> Lines<'a> {
    /// Pass over the empty lines (`\n` bytes) at the current position at memory speed, and
    /// return how many: a flood of empty lines (a gzip of gigabytes of line ends) costs what
    /// skipping it costs, not a parser's work per line. The caller counts them as `next` would
    /// have yielded them; `line_no` is then the number of the last one.
    #[inline]
    pub fn skip_empty(&mut self) -> u64 {
        // The common case, a line with text next: one comparison, inlined into every loop.
        if !matches!(self.buf.get(self.pos), Some(b'\n' | b'\r')) {
            return 0;
        }
        let (bytes, n) = empty_run(&self.buf[self.pos..]);
        self.pos += bytes;
        self.no += n;
        n
    }

    /// The next line with text, or an empty line not of a run: the empty lines before it are
    /// passed over (`skip_empty`) and added to `empty`. After the last, `line_no` counts the
    /// empty lines at the end too.
    #[inline]
    pub fn next_after_empty(&mut self, empty: &mut u64) -> Option<(u64, &'a [u8])> {
        *empty += self.skip_empty();
        self.next()
    }

    /// Every line has been yielded or passed over.
    pub fn is_done(&self) -> bool {
        self.pos >= self.buf.len()
    }

    /// The number of the last line yielded or passed over.
    pub fn line_no(&self) -> u64 {
        self.no
    }
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

/// The empty lines `buf` starts with, as `lines()` would yield them after a line end: their
/// bytes and their number. Runs of `\n` or of `\r\n` go 32 bytes a step.
pub fn empty_run(buf: &[u8]) -> (usize, u64) {
    const CRLF: [u8; 32] = *b"\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n";
    let (mut i, mut n) = (0, 0);
    loop {
        if let Some(chunk) = buf.get(i..i + 32) {
            if chunk == [b'\n'; 32] {
                (i, n) = (i + 32, n + 32);
                continue;
            }
            if chunk == CRLF {
                (i, n) = (i + 32, n + 16);
                continue;
            }
        }
        match buf.get(i) {
            Some(b'\n') => i += 1,
            Some(b'\r') if buf.get(i + 1) == Some(&b'\n') => i += 2,
            Some(b'\r') => i += 1,
            _ => return (i, n),
        }
        n += 1;
    }
}

/// `s` without the NUL bytes it starts with (the padding a crashed JVM left in its file ends
/// up before the next line written there).
pub fn strip_leading_nuls(mut s: &[u8]) -> &[u8] {
    while let [0, rest @ ..] = s {
        s = rest;
    }
    s
}

/// Count lines as `lines()` would.
pub fn count(buf: &[u8]) -> u64 {
    if memchr::memchr(b'\r', buf).is_none() {
        // memchr counts `\n` at memory speed; the loop below visits each one.
        let n = memchr::memchr_iter(b'\n', buf).count() as u64;
        return n + u64::from(!matches!(buf.last(), Some(b'\n') | None));
    }
    let mut n = 0u64;
    let mut it = memchr::memchr2_iter(b'\n', b'\r', buf).peekable();
    while let Some(i) = it.next() {
        n += 1;
        if buf[i] == b'\r' && buf.get(i + 1) == Some(&b'\n') {
            // `\r\n` is one line end: skip its `\n`.
            it.next();
        }
    }
    n + u64::from(!matches!(buf.last(), Some(b'\n' | b'\r') | None))
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
    fn empty_lines_passed_over_in_bulk_keep_the_numbering() {
        let mut buf = b"a\n".to_vec();
        buf.extend(std::iter::repeat_n(b'\n', 70));
        buf.extend(b"\r\nb\n\n");
        let mut it = lines(&buf);
        assert_eq!(it.next(), Some((1, &b"a"[..])));
        // The `\r\n` after the `\n`s is an empty line too.
        assert_eq!(it.skip_empty(), 71);
        assert_eq!(it.line_no(), 72);
        assert_eq!(it.next(), Some((73, &b"b"[..])));
        assert_eq!(it.skip_empty(), 1);
        assert_eq!(it.next(), None);
        assert_eq!(it.line_no(), 74);
        assert_eq!(count(&buf), 74);
        // `\r\n`, lone `\r` and `\n` mixed, long runs and short: as `lines()` counts them.
        let mut buf = b"x\r\n".to_vec();
        for _ in 0..40 {
            buf.extend(b"\r\n");
        }
        buf.extend(b"\r\r\n\n");
        buf.extend(std::iter::repeat_n(b'\n', 33));
        buf.extend(b"y\r");
        let all: Vec<_> = lines(&buf).collect();
        let mut it = lines(&buf);
        assert_eq!(it.next(), Some((1, &b"x"[..])));
        assert_eq!(it.skip_empty(), 40 + 3 + 33);
        assert_eq!(it.next(), Some((78, &b"y"[..])));
        assert_eq!(all.len(), 78);
        assert_eq!(it.skip_empty(), 0);
        assert!(it.is_done());
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
