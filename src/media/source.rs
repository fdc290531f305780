//! Bytes read on demand from where a request body carries them: raw, or base64 text decoded only where a parser
//! asks. A header parser reads a few hundred bytes at the start (and jumps over a JPEG's segments by their
//! lengths), so pricing a 20 MB image costs the same as a 20 KB one.

use std::cell::Cell;

/// The most decoded bytes read sequentially when base64 text is not regular (it holds line breaks or spaces, so an
/// offset cannot be mapped to a character position): headers lie in the first part of a file.
pub(crate) const IRREGULAR_PREFIX: usize = 256 << 10;

/// Bytes a parser reads at offsets.
pub(crate) trait Source {
    /// The decoded length (for base64, from the text's length and padding).
    fn len(&self) -> usize;
    /// Copies the bytes at `offset` into `buf`; returns how many there were (fewer at the end, 0 past it or where
    /// the text is not base64).
    fn read_at(&self, offset: usize, buf: &mut [u8]) -> usize;
    /// Decoded bytes read so far (for the tests and the benchmark: a header read is small).
    fn bytes_read(&self) -> usize;
}

/// Reads exactly `N` bytes at `offset`, or `None`.
pub(crate) fn array<const N: usize>(s: &dyn Source, offset: usize) -> Option<[u8; N]> {
    let mut b = [0u8; N];
    (s.read_at(offset, &mut b) == N).then_some(b)
}

pub(crate) fn be16(s: &dyn Source, offset: usize) -> Option<u16> {
    array::<2>(s, offset).map(u16::from_be_bytes)
}

pub(crate) fn le16(s: &dyn Source, offset: usize) -> Option<u16> {
    array::<2>(s, offset).map(u16::from_le_bytes)
}

pub(crate) fn be32(s: &dyn Source, offset: usize) -> Option<u32> {
    array::<4>(s, offset).map(u32::from_be_bytes)
}

pub(crate) fn le32(s: &dyn Source, offset: usize) -> Option<u32> {
    array::<4>(s, offset).map(u32::from_le_bytes)
}

/// Raw bytes.
pub(crate) struct Raw<'a> {
    bytes: &'a [u8],
    read: Cell<usize>,
}

impl<'a> Raw<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Raw<'a> {
        Raw {
            bytes,
            read: Cell::new(0),
        }
    }
}

impl Source for Raw<'_> {
    fn len(&self) -> usize {
        self.bytes.len()
    }
    fn read_at(&self, offset: usize, buf: &mut [u8]) -> usize {
        let Some(rest) = self.bytes.get(offset..) else {
            return 0;
        };
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.read.set(self.read.get() + n);
        n
    }
    fn bytes_read(&self) -> usize {
        self.read.get()
    }
}

fn sextet(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    } as u32)
}

/// Base64 text (standard or URL-safe alphabet, padded or not), decoded where read. Regular text (no whitespace)
/// is read at any offset by mapping it to its 4-character group; text with whitespace is read from a bounded
/// sequential decode of its start ([`IRREGULAR_PREFIX`]).
pub(crate) struct Base64<'a> {
    text: &'a [u8],
    /// The decoded start of irregular text, made on the first read that meets a character outside the alphabet.
    prefix: std::cell::OnceCell<Vec<u8>>,
    irregular: Cell<bool>,
    /// Leading characters checked to hold no whitespace (so that offsets map to groups), grown as reads go on.
    checked: Cell<usize>,
    read: Cell<usize>,
}

impl<'a> Base64<'a> {
    pub(crate) fn new(text: &'a str) -> Base64<'a> {
        let t = text.as_bytes();
        // Trailing padding and whitespace are not data.
        let end = t
            .iter()
            .rposition(|&c| !matches!(c, b'=' | b' ' | b'\n' | b'\r' | b'\t'))
            .map_or(0, |i| i + 1);
        Base64 {
            text: &t[..end],
            prefix: std::cell::OnceCell::new(),
            irregular: Cell::new(false),
            checked: Cell::new(0),
            read: Cell::new(0),
        }
    }

    /// Decodes the 3 bytes of group `g` (fewer for a short last group), or `None` where a character is not base64.
    fn group(&self, g: usize) -> Option<([u8; 3], usize)> {
        let start = g * 4;
        let end = (start + 4).min(self.text.len());
        // Every character before this group must be in the alphabet, or the offset maps elsewhere.
        let from = self.checked.get();
        if end > from {
            if self.text[from..end].iter().any(|&c| sextet(c).is_none()) {
                return None;
            }
            self.checked.set(end);
        }
        let chars = self.text.get(start..end)?;
        if chars.len() < 2 {
            return None;
        }
        let mut v = 0u32;
        for (i, &c) in chars.iter().enumerate() {
            v |= sextet(c)? << (18 - 6 * i);
        }
        let n = chars.len() - 1;
        Some(([(v >> 16) as u8, (v >> 8) as u8, v as u8], n))
    }

    fn decode_prefix(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let (mut acc, mut bits) = (0u32, 0u32);
        for &c in self.text {
            let Some(s) = sextet(c) else {
                if c.is_ascii_whitespace() {
                    continue;
                }
                break;
            };
            acc = (acc << 6) | s;
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
                acc &= (1 << bits) - 1;
                if out.len() >= IRREGULAR_PREFIX {
                    break;
                }
            }
        }
        out
    }
}

impl Source for Base64<'_> {
    fn len(&self) -> usize {
        let full = self.text.len() / 4 * 3;
        full + match self.text.len() % 4 {
            2 => 1,
            3 => 2,
            _ => 0,
        }
    }

    fn read_at(&self, offset: usize, buf: &mut [u8]) -> usize {
        if !self.irregular.get() {
            let mut n = 0;
            while n < buf.len() {
                let at = offset + n;
                let Some((b, len)) = self.group(at / 3) else {
                    break;
                };
                let i = at % 3;
                if i >= len {
                    break;
                }
                let take = (len - i).min(buf.len() - n);
                buf[n..n + take].copy_from_slice(&b[i..i + take]);
                n += take;
            }
            let complete = n == buf.len() || offset + n >= self.len();
            if complete {
                self.read.set(self.read.get() + n);
                return n;
            }
            // A character outside the alphabet: whitespace (line-wrapped base64) or garbage.
            self.irregular.set(true);
        }
        let prefix = self.prefix.get_or_init(|| self.decode_prefix());
        self.read.set(prefix.len());
        Raw::new(prefix).read_at(offset, buf)
    }

    fn bytes_read(&self) -> usize {
        self.read.get()
    }
}

/// Decodes the whole of a base64 text (either alphabet; whitespace skipped, padding ending it) in pieces of at most
/// 3 KiB handed to `out`, so that a text document streams into an estimate without a copy of its size. False where
/// a character is outside the alphabet (what came before it has been handed over).
pub(crate) fn decode_all(text: &str, mut out: impl FnMut(&[u8])) -> bool {
    let mut buf = [0u8; 3 << 10];
    let (mut n, mut acc, mut bits) = (0, 0u32, 0u32);
    let mut whole = true;
    for &c in text.as_bytes() {
        let Some(s) = sextet(c) else {
            if c.is_ascii_whitespace() {
                continue;
            }
            whole = c == b'=';
            break;
        };
        acc = (acc << 6) | s;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            buf[n] = (acc >> bits) as u8;
            acc &= (1 << bits) - 1;
            n += 1;
            if n == buf.len() {
                out(&buf);
                n = 0;
            }
        }
    }
    if n > 0 {
        out(&buf[..n]);
    }
    whole
}

/// Standard padded base64 of `bytes` (the decoder's counterpart, for the tests, benchmark and fuzz target that
/// build media bodies).
pub(crate) fn encode(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let v = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[(v >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Base64 text broken into lines of 76 characters, as MIME writes it.
    fn wrap(text: &str, newline: &str) -> String {
        let lines: Vec<&str> = text
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        lines.join(newline)
    }

    #[test]
    fn base64_reads_any_offset_as_the_raw_bytes_do() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for len in [0usize, 1, 2, 3, 4, 5, 100, 999, 1000] {
            let text = encode(&bytes[..len]);
            let s = Base64::new(&text);
            assert_eq!(s.len(), len);
            for off in [0usize, 1, 2, 3, 5, 50, 997, 998, 1001] {
                for n in [1usize, 2, 3, 4, 7, 30] {
                    let mut got = vec![0; n];
                    let k = s.read_at(off, &mut got);
                    let want = bytes[..len]
                        .get(off..)
                        .map_or(&[][..], |r| &r[..r.len().min(n)]);
                    assert_eq!(&got[..k], want, "len {len} off {off} n {n}");
                }
            }
        }
    }

    #[test]
    fn wrapped_base64_is_read_from_its_decoded_start() {
        let bytes: Vec<u8> = (0..300u32).map(|i| (i * 31) as u8).collect();
        let wrapped = wrap(&encode(&bytes), "\r\n");
        let s = Base64::new(&wrapped);
        let mut got = [0u8; 20];
        assert_eq!(s.read_at(250, &mut got), 20);
        assert_eq!(&got[..], &bytes[250..270]);
        // Not base64 at all: nothing to read, never a panic.
        let s = Base64::new("!!!!");
        assert_eq!(s.read_at(0, &mut got), 0);
    }

    #[test]
    fn decode_all_hands_over_every_byte_in_pieces() {
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 13 + i / 7) as u8).collect();
        for len in [0usize, 1, 2, 3, 3071, 3072, 3073, 10_000] {
            let text = encode(&bytes[..len]);
            let wrapped = wrap(&text, "\n");
            for t in [&text, &wrapped, &text.trim_end_matches('=').to_string()] {
                let (mut got, mut pieces) = (Vec::new(), 0);
                assert!(decode_all(t, |b| {
                    assert!(!b.is_empty() && b.len() <= 3 << 10);
                    got.extend_from_slice(b);
                    pieces += 1;
                }));
                assert_eq!(got, &bytes[..len], "len {len}");
                assert_eq!(pieces, len.div_ceil(3 << 10));
            }
        }
        // A character outside the alphabet ends it: what came before is handed over, and it says so.
        let mut got = Vec::new();
        assert!(!decode_all("aGVsbG8gd29y!bGQ=", |b| got.extend_from_slice(b)));
        assert_eq!(got, b"hello wor");
    }
}
