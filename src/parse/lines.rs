//! Line splitting without allocation: memchr over the buffer, `\r` stripped.

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
        let (line, adv) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        self.pos += adv;
        self.no += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        Some((self.no, line))
    }
}

/// Count lines as `lines()` would.
pub fn count(buf: &[u8]) -> u64 {
    let n = memchr::memchr_iter(b'\n', buf).count() as u64;
    if buf.last().is_some_and(|&b| b != b'\n') {
        n + 1
    } else {
        n
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
}
