//! A block's bytes as bitmasks: bit `i` of each mask says something of byte `i` of the block.
//!
//! [`Portable`]: on x86-64 sixteen bytes at a time with SSE2 (every x86-64 CPU has it), through `safe_arch`'s safe
//! wrappers of the intrinsics; elsewhere (wasm32 included) eight at a time on `u64`. [`Avx2`]: 32 at a time, for
//! the block loop built for CPUs that have AVX2. A unit test holds all three to the plain per-byte masks.

/// Bytes in one block.
pub(super) const BLOCK: usize = 64;
/// Bytes past a block that classifying it reads: the next byte (is it equal?), the next three (a run of four
/// copies of one byte), and up to fifteen (four copies of a four-byte character).
const AHEAD: usize = 16;
/// A block and what is read past it.
pub(super) const WIN: usize = BLOCK + AHEAD;

/// One block's byte classes. Bits past the block's valid bytes are cleared by the caller.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Bytes {
    /// ASCII letters, either case.
    pub letter: u64,
    /// ASCII capitals.
    pub upper: u64,
    /// ASCII digits.
    pub digit: u64,
    /// Spaces and tabs.
    pub blank: u64,
    /// Newlines.
    pub newline: u64,
    /// `!` to `~`: letters, digits and ASCII punctuation.
    pub printable: u64,
    /// Bytes from 0x80 up.
    pub high: u64,
    /// The byte equals the next one (bit 63 looks at the first byte past the block).
    pub same_next: u64,
}

/// One way of classifying a block's bytes: [`Portable`] everywhere, [`Avx2`] on CPUs that have it. The block code
/// is generic over it, so each build of the block loop classifies with what it was compiled for.
pub(super) trait Classes: Copy {
    /// See [`classify`].
    fn classify(self, w: &[u8; WIN]) -> Bytes;
    /// See [`continuation`].
    fn continuation(self, w: &[u8; WIN]) -> u64;
    /// See [`equal`].
    fn equal(self, w: &[u8], c: u8) -> u64;
    /// See [`plus_slash`].
    fn plus_slash(self, w: &[u8; WIN]) -> u64;
    /// See [`hex_letters`].
    fn hex_letters(self, w: &[u8; WIN]) -> u64;
    /// See [`ahead`].
    fn ahead(self, w: &[u8; WIN], p: usize) -> u64;
    /// Writes the table entry (`kind::ROWS`) of each character whose first byte is at a bit of `firsts` to its
    /// place in `out` (other places are left undefined) and returns the places whose entry is not a plain kind
    /// (from `kind::ATTEND` up); or returns `None`, writing nothing, where it has no vector look-up (then the
    /// scanner looks each character up in turn). `wide` holds the first bytes of characters of three or four bytes.
    #[inline(always)]
    fn entries(self, w: &[u8; WIN], firsts: u64, wide: u64, out: &mut [u8; BLOCK]) -> Option<u64> {
        let _ = (w, firsts, wide, out);
        None
    }
}

/// SSE2 on x86-64, `u64` words elsewhere.
#[derive(Clone, Copy)]
pub(super) struct Portable;

impl Classes for Portable {
    #[inline(always)]
    fn classify(self, w: &[u8; WIN]) -> Bytes {
        classify(w)
    }
    #[inline(always)]
    fn continuation(self, w: &[u8; WIN]) -> u64 {
        continuation(w)
    }
    #[inline(always)]
    fn equal(self, w: &[u8], c: u8) -> u64 {
        equal(w, c)
    }
    #[inline(always)]
    fn plus_slash(self, w: &[u8; WIN]) -> u64 {
        plus_slash(w)
    }
    #[inline(always)]
    fn hex_letters(self, w: &[u8; WIN]) -> u64 {
        hex_letters(w)
    }
    #[inline(always)]
    fn ahead(self, w: &[u8; WIN], p: usize) -> u64 {
        ahead(w, p)
    }
}

/// 32 bytes at a time with AVX2. Only [`Avx2::new`] makes one, and only code running on a CPU with AVX2 may
/// call it: holding an `Avx2` is the proof that the CPU has it.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// # Safety
    /// The CPU must have AVX2.
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(super) unsafe fn new() -> Self {
        Avx2(())
    }
}

// SAFETY (every `unsafe` block below): an `Avx2` exists only where the CPU has AVX2 (see `Avx2::new`).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Classes for Avx2 {
    #[inline(always)]
    fn classify(self, w: &[u8; WIN]) -> Bytes {
        unsafe { avx2::classify(w) }
    }
    #[inline(always)]
    fn continuation(self, w: &[u8; WIN]) -> u64 {
        unsafe { avx2::continuation(w) }
    }
    #[inline(always)]
    fn equal(self, w: &[u8], c: u8) -> u64 {
        unsafe { avx2::equal(w, c) }
    }
    #[inline(always)]
    fn plus_slash(self, w: &[u8; WIN]) -> u64 {
        unsafe { avx2::plus_slash(w) }
    }
    #[inline(always)]
    fn hex_letters(self, w: &[u8; WIN]) -> u64 {
        unsafe { avx2::hex_letters(w) }
    }
    #[inline(always)]
    fn ahead(self, w: &[u8; WIN], p: usize) -> u64 {
        unsafe { avx2::ahead(w, p) }
    }
    #[inline(always)]
    fn entries(self, w: &[u8; WIN], firsts: u64, wide: u64, out: &mut [u8; BLOCK]) -> Option<u64> {
        Some(unsafe { avx2::entries(w, firsts, wide, out) })
    }
}

/// The AVX2 classification. Each function needs a CPU with AVX2 (hence `unsafe`); the loads read 32 bytes of a
/// slice that has them (checked).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use super::{Bytes, BLOCK, WIN};
    use crate::scan::kind;
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256 as and, _mm256_andnot_si256 as andnot,
        _mm256_blendv_epi8 as blend, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8 as eq,
        _mm256_cmpgt_epi8 as gt, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256 as or,
        _mm256_set1_epi8 as splat, _mm256_shuffle_epi8 as shuffle, _mm256_slli_epi16 as shl,
        _mm256_storeu_si256, _mm_loadu_si128,
    };

    /// The 32 bytes at `j`.
    #[inline(always)]
    unsafe fn load32(w: &[u8], j: usize) -> __m256i {
        let s = &w[j..j + 32];
        // SAFETY: `s` holds 32 bytes; an unaligned load reads exactly those.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    }

    /// The top bit of each of the 32 bytes, as bits 0..32.
    ///
    /// The empty `asm!` hides that the mask came from a compare: otherwise LLVM folds the pair of `vpmovmskb`s a
    /// block takes into one 64-lane vector of booleans, keeps it as such across the block, and turns it back into
    /// a `u64` one byte at a time (120 instructions a block; measured with callgrind).
    #[inline(always)]
    unsafe fn bits(x: __m256i) -> u64 {
        let mut m = unsafe { _mm256_movemask_epi8(x) };
        // SAFETY: an empty template; the register is read and written back unchanged.
        unsafe {
            std::arch::asm!("/* {0:e} */", inout(reg) m, options(pure, nomem, nostack, preserves_flags))
        };
        m as u32 as u64
    }

    /// Bytes from `lo` to `hi` (`hi` below 0x7f; bytes from 0x80 up compare as negative, so never in range).
    #[inline(always)]
    unsafe fn within(x: __m256i, lo: u8, hi: u8) -> __m256i {
        unsafe { andnot(gt(splat(lo as i8), x), gt(splat(hi as i8 + 1), x)) }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn classify(w: &[u8; WIN]) -> Bytes {
        let mut m = Bytes::default();
        for k in 0..BLOCK / 32 {
            unsafe {
                let x = load32(w, 32 * k);
                let letter = bits(within(or(x, splat(0x20)), b'a', b'z'));
                let at = 32 * k;
                m.letter |= letter << at;
                m.upper |= (bits(gt(splat(b'a' as i8), x)) & letter) << at;
                m.digit |= bits(within(x, b'0', b'9')) << at;
                m.blank |= bits(or(eq(x, splat(b' ' as i8)), eq(x, splat(b'\t' as i8)))) << at;
                m.newline |= bits(eq(x, splat(b'\n' as i8))) << at;
                m.printable |= bits(within(x, 0x21, 0x7e)) << at;
                m.high |= bits(x) << at;
                m.same_next |= bits(eq(x, load32(w, 32 * k + 1))) << at;
            }
        }
        m
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn continuation(w: &[u8; WIN]) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 32 {
            unsafe { m |= bits(gt(splat(-64), load32(w, 32 * k))) << (32 * k) };
        }
        m
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn equal(w: &[u8], c: u8) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 32 {
            unsafe { m |= bits(eq(load32(w, 32 * k), splat(c as i8))) << (32 * k) };
        }
        m
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn plus_slash(w: &[u8; WIN]) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 32 {
            unsafe {
                m |= bits(eq(or(load32(w, 32 * k), splat(4)), splat(b'/' as i8))) << (32 * k)
            };
        }
        m
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn hex_letters(w: &[u8; WIN]) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 32 {
            unsafe {
                m |= bits(within(or(load32(w, 32 * k), splat(0x20)), b'a', b'f')) << (32 * k)
            };
        }
        m
    }

    /// The entries of a 64-entry table at the low six bits of each byte of `i` (`b4` and `b5` hold those bits 4
    /// and 5 at the top of each byte): four shuffles of its quarters, and three blends.
    #[inline(always)]
    unsafe fn look_up(t: &[__m256i; 4], i: __m256i, b4: __m256i, b5: __m256i) -> __m256i {
        unsafe {
            let lo = blend(shuffle(t[0], i), shuffle(t[1], i), b4);
            let hi = blend(shuffle(t[2], i), shuffle(t[3], i), b4);
            blend(lo, hi, b5)
        }
    }

    /// A 64-entry table as four vectors of its quarters, each in both halves.
    #[inline(always)]
    unsafe fn quarters(t: &[u8; 64]) -> [__m256i; 4] {
        // SAFETY: each quarter holds 16 bytes; an unaligned load reads exactly those.
        [0, 16, 32, 48].map(|a| unsafe {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(t[a..a + 16].as_ptr().cast()))
        })
    }

    /// A byte's low six bits, and its bits 4 and 5 moved to its top (which is all a blend reads).
    #[inline(always)]
    unsafe fn six(x: __m256i) -> [__m256i; 3] {
        unsafe {
            let i = and(x, splat(0x3f));
            [i, shl(i, 3), shl(i, 2)]
        }
    }

    /// See [`super::Classes::entries`]: for each first byte of the block, one compare finds its characters and
    /// four shuffles look their second bytes up in its row. Where there are characters of three or four bytes
    /// (`wide`: the many first bytes of ideographs), the entry of each first byte whose row is one entry
    /// (`kind::LEADS`) comes first, and only the others are looked up by row. Bytes that are no first byte are
    /// left undefined in `out`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn entries(
        w: &[u8; WIN],
        firsts: u64,
        wide: u64,
        out: &mut [u8; BLOCK],
    ) -> u64 {
        unsafe {
            let x = [load32(w, 0), load32(w, 32)];
            let (mut k, mut rest) = if wide != 0 {
                let leads = quarters(&kind::LEADS);
                let k = x.map(|x| {
                    let [i, b4, b5] = six(x);
                    look_up(&leads, i, b4, b5)
                });
                let mixed = splat(kind::MIXED as i8);
                (
                    k,
                    firsts & (bits(eq(k[0], mixed)) | bits(eq(k[1], mixed)) << 32),
                )
            } else {
                ([splat(-1); 2], firsts)
            };
            if rest != 0 {
                let second = [six(load32(w, 1)), six(load32(w, 33))];
                while rest != 0 {
                    let b0 = w[rest.trailing_zeros() as usize];
                    let e = x.map(|x| eq(x, splat(b0 as i8)));
                    rest &= !(bits(e[0]) | bits(e[1]) << 32);
                    let row = quarters(&kind::ROWS[(b0 & 0x3f) as usize]);
                    for h in 0..2 {
                        let [i, b4, b5] = second[h];
                        k[h] = blend(k[h], look_up(&row, i, b4, b5), e[h]);
                    }
                }
            }
            for h in 0..2 {
                let s = &mut out[32 * h..32 * h + 32];
                // SAFETY: `s` holds 32 bytes; an unaligned store writes exactly those.
                _mm256_storeu_si256(s.as_mut_ptr().cast(), k[h]);
            }
            // Entries from `ATTEND` (0x40) up have one of the top two bits.
            let plain = |v| bits(eq(and(v, splat(0xc0u8 as i8)), splat(0)));
            firsts & !(plain(k[0]) | plain(k[1]) << 32)
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn ahead(w: &[u8; WIN], p: usize) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 32 {
            unsafe { m |= bits(eq(load32(w, 32 * k), load32(w, 32 * k + p))) << (32 * k) };
        }
        m
    }
}

/// Classifies the block `w[..BLOCK]` (and reads `w[BLOCK]` for `same_next`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn classify(w: &[u8; WIN]) -> Bytes {
    sse2::classify(w)
}

/// Classifies the block `w[..BLOCK]` (and reads `w[BLOCK]` for `same_next`).
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn classify(w: &[u8; WIN]) -> Bytes {
    classify_swar(w)
}

/// The UTF-8 continuation bytes (0x80 to 0xBF) of the block.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn continuation(w: &[u8; WIN]) -> u64 {
    sse2::continuation(w)
}

/// The UTF-8 continuation bytes (0x80 to 0xBF) of the block.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn continuation(w: &[u8; WIN]) -> u64 {
    continuation_swar(w)
}

/// The bits of the first 64 bytes of `w` (at least that long) equal to `c`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn equal(w: &[u8], c: u8) -> u64 {
    sse2::equal(w, c)
}

/// The bits of the first 64 bytes of `w` (at least that long) equal to `c`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn equal(w: &[u8], c: u8) -> u64 {
    equal_swar(w, c)
}

/// The bits of the block's bytes that are `+` or `/`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn plus_slash(w: &[u8; WIN]) -> u64 {
    sse2::plus_slash(w)
}

/// The bits of the block's bytes that are `+` or `/`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn plus_slash(w: &[u8; WIN]) -> u64 {
    plus_slash_swar(w)
}

/// The bits of the block's bytes that are `a` to `f` or `A` to `F`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn hex_letters(w: &[u8; WIN]) -> u64 {
    sse2::hex_letters(w)
}

/// The bits of the block's bytes that are `a` to `f` or `A` to `F`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn hex_letters(w: &[u8; WIN]) -> u64 {
    hex_letters_swar(w)
}

/// The bits of the block's bytes equal to the byte `p` after them (`p` at most 16).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn ahead(w: &[u8; WIN], p: usize) -> u64 {
    sse2::ahead(w, p)
}

/// The bits of the block's bytes equal to the byte `p` after them (`p` at most 16).
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn ahead(w: &[u8; WIN], p: usize) -> u64 {
    ahead_swar(w, p)
}

/// [`ahead`] eight bytes at a time on `u64`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn ahead_swar(w: &[u8; WIN], p: usize) -> u64 {
    let mut m = 0;
    for k in 0..BLOCK / 8 {
        m |= gather(zero_bytes(load8(w, 8 * k) ^ load8(w, 8 * k + p))) << (8 * k);
    }
    m
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::{Bytes, BLOCK, WIN};
    use safe_arch::{
        bitandnot_m128i as andnot, bitor_m128i as or, cmp_eq_mask_i8_m128i as eq,
        cmp_lt_mask_i8_m128i as lt, m128i, move_mask_i8_m128i, set_splat_i8_m128i as splat,
    };

    /// The sixteen bytes at `j`.
    #[inline(always)]
    fn load16(w: &[u8], j: usize) -> m128i {
        let mut a = [0u8; 16];
        a.copy_from_slice(&w[j..j + 16]);
        m128i::from(a)
    }

    /// The top bit of each of the sixteen bytes, as bits 0..16.
    #[inline(always)]
    fn bits(x: m128i) -> u64 {
        move_mask_i8_m128i(x) as u32 as u64
    }

    /// Bytes from `lo` to `hi` (`hi` below 0x7f; bytes from 0x80 up compare as negative, so never in range).
    #[inline(always)]
    fn within(x: m128i, lo: u8, hi: u8) -> m128i {
        andnot(lt(x, splat(lo as i8)), lt(x, splat(hi as i8 + 1)))
    }

    #[inline(always)]
    pub(super) fn classify(w: &[u8; WIN]) -> Bytes {
        let mut m = Bytes::default();
        for k in 0..BLOCK / 16 {
            let x = load16(w, 16 * k);
            let letter = within(or(x, splat(0x20)), b'a', b'z');
            let digit = within(x, b'0', b'9');
            let newline = eq(x, splat(b'\n' as i8));
            let blank = or(eq(x, splat(b' ' as i8)), eq(x, splat(b'\t' as i8)));
            let printable = within(x, 0x21, 0x7e);
            let at = 16 * k;
            let letter = bits(letter);
            m.letter |= letter << at;
            m.upper |= (bits(lt(x, splat(b'a' as i8))) & letter) << at;
            m.digit |= bits(digit) << at;
            m.blank |= bits(blank) << at;
            m.newline |= bits(newline) << at;
            m.printable |= bits(printable) << at;
            m.high |= bits(x) << at;
            m.same_next |= bits(eq(x, load16(w, 16 * k + 1))) << at;
        }
        m
    }

    #[inline(always)]
    pub(super) fn continuation(w: &[u8; WIN]) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 16 {
            m |= bits(lt(load16(w, 16 * k), splat(-64))) << (16 * k);
        }
        m
    }

    #[inline(always)]
    pub(super) fn equal(w: &[u8], c: u8) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 16 {
            m |= bits(eq(load16(w, 16 * k), splat(c as i8))) << (16 * k);
        }
        m
    }

    /// `+` (0x2B) and `/` (0x2F) differ only in bit 2, which no other byte can add to become `/`.
    #[inline(always)]
    pub(super) fn plus_slash(w: &[u8; WIN]) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 16 {
            m |= bits(eq(or(load16(w, 16 * k), splat(4)), splat(b'/' as i8))) << (16 * k);
        }
        m
    }

    #[inline(always)]
    pub(super) fn hex_letters(w: &[u8; WIN]) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 16 {
            m |= bits(within(or(load16(w, 16 * k), splat(0x20)), b'a', b'f')) << (16 * k);
        }
        m
    }

    #[inline(always)]
    pub(super) fn ahead(w: &[u8; WIN], p: usize) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 16 {
            m |= bits(eq(load16(w, 16 * k), load16(w, 16 * k + p))) << (16 * k);
        }
        m
    }
}

/// Eight bytes at a time on `u64`.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH: u64 = !LOW7;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The eight bytes at `j` as a little-endian word.
#[inline(always)]
fn load8(w: &[u8], j: usize) -> u64 {
    let mut a = [0; 8];
    a.copy_from_slice(&w[j..j + 8]);
    u64::from_le_bytes(a)
}

/// The high bits of the eight bytes of `m` (no other bit set) as the low eight bits: bit `i` from byte `i`. Every
/// partial product lands on its own bit, so nothing carries.
#[inline(always)]
fn gather(m: u64) -> u64 {
    (m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// For bytes below 0x80: the high bit of each byte that is at least `c` (1 <= `c` <= 0x80). No byte carries.
#[inline(always)]
fn at_least(x: u64, c: u8) -> u64 {
    (x + ONES * (0x80 - c as u64)) & HIGH
}

/// For bytes below 0x80: the high bit of each byte equal to `c` (below 0x80).
#[inline(always)]
fn equal7(x: u64, c: u8) -> u64 {
    !((x ^ (ONES * c as u64)) + LOW7) & HIGH
}

/// The high bit of each byte of `w` that is zero.
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    !(((w & LOW7) + LOW7) | w | LOW7)
}

/// [`classify`] eight bytes at a time on `u64`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn classify_swar(w: &[u8; WIN]) -> Bytes {
    let mut m = Bytes::default();
    for k in 0..BLOCK / 8 {
        let raw = load8(w, 8 * k);
        let ascii = !raw & HIGH;
        let x = raw & LOW7;
        let folded = x | (ONES * 0x20);
        let letter = at_least(folded, b'a') & !at_least(folded, b'z' + 1) & ascii;
        // Bit 5 (0x20) of a letter is clear for capitals; shifted to bit 7 of the same byte.
        let upper = letter & !(x << 2);
        let digit = at_least(x, b'0') & !at_least(x, b'9' + 1) & ascii;
        let newline = equal7(x, b'\n') & ascii;
        let blank = (equal7(x, b' ') | equal7(x, b'\t')) & ascii;
        let printable = at_least(x, 0x21) & !at_least(x, 0x7f) & ascii;
        let same_next = zero_bytes(raw ^ load8(w, 8 * k + 1));
        let at = 8 * k;
        m.letter |= gather(letter) << at;
        m.upper |= gather(upper) << at;
        m.digit |= gather(digit) << at;
        m.blank |= gather(blank) << at;
        m.newline |= gather(newline) << at;
        m.printable |= gather(printable) << at;
        m.high |= gather(raw & HIGH) << at;
        m.same_next |= gather(same_next) << at;
    }
    m
}

/// [`continuation`] eight bytes at a time on `u64`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn continuation_swar(w: &[u8; WIN]) -> u64 {
    let mut m = 0;
    for k in 0..BLOCK / 8 {
        let raw = load8(w, 8 * k);
        // High bit set, bit 6 clear (shifted up to bit 7).
        m |= gather(raw & !(raw << 1) & HIGH) << (8 * k);
    }
    m
}

/// [`equal`] eight bytes at a time on `u64`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn equal_swar(w: &[u8], c: u8) -> u64 {
    let mut m = 0;
    for k in 0..BLOCK / 8 {
        m |= gather(zero_bytes(load8(w, 8 * k) ^ (ONES * c as u64))) << (8 * k);
    }
    m
}

/// [`plus_slash`] eight bytes at a time on `u64`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn plus_slash_swar(w: &[u8; WIN]) -> u64 {
    let mut m = 0;
    for k in 0..BLOCK / 8 {
        m |= gather(zero_bytes(
            (load8(w, 8 * k) | (ONES * 4)) ^ (ONES * b'/' as u64),
        )) << (8 * k);
    }
    m
}

/// The `+` and `/` among 16 bytes, and their `a`-`f` and `A`-`F` (bit `i` for byte `i`), eight bytes at a time on
/// `u64`.
pub(super) fn plus_slash_hex16(w: &[u8; 16]) -> (u64, u64) {
    let (mut ps, mut hex) = (0, 0);
    for k in 0..2 {
        let raw = load8(w, 8 * k);
        ps |= gather(zero_bytes((raw | (ONES * 4)) ^ (ONES * b'/' as u64))) << (8 * k);
        let folded = (raw & LOW7) | (ONES * 0x20);
        let h = at_least(folded, b'a') & !at_least(folded, b'f' + 1) & !raw & HIGH;
        hex |= gather(h) << (8 * k);
    }
    (ps, hex)
}

/// [`hex_letters`] eight bytes at a time on `u64`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn hex_letters_swar(w: &[u8; WIN]) -> u64 {
    let mut m = 0;
    for k in 0..BLOCK / 8 {
        let raw = load8(w, 8 * k);
        let folded = (raw & LOW7) | (ONES * 0x20);
        let hex = at_least(folded, b'a') & !at_least(folded, b'f' + 1) & !raw & HIGH;
        m |= gather(hex) << (8 * k);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masks byte by byte, the plain way.
    fn plain(w: &[u8; WIN]) -> Bytes {
        let mut m = Bytes::default();
        for (i, &b) in w[..BLOCK].iter().enumerate() {
            let bit = 1u64 << i;
            let set = |mask: &mut u64, on: bool| {
                if on {
                    *mask |= bit
                }
            };
            set(&mut m.letter, b.is_ascii_alphabetic());
            set(&mut m.upper, b.is_ascii_uppercase());
            set(&mut m.digit, b.is_ascii_digit());
            set(&mut m.blank, b == b' ' || b == b'\t');
            set(&mut m.newline, b == b'\n');
            set(&mut m.printable, (0x21..0x7f).contains(&b));
            set(&mut m.high, b >= 0x80);
            set(&mut m.same_next, b == w[i + 1]);
        }
        m
    }

    #[test]
    fn simd_and_swar_agree_with_the_plain_masks() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..3000 {
            let mut w = [0u8; WIN];
            for (i, b) in w.iter_mut().enumerate() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Every byte value, runs of one byte, and text-like bytes.
                *b = match round % 3 {
                    0 => x as u8,
                    1 => {
                        b" aZ09\t\n\r\x7f\xc3\xa9\xe4\xb8\x80/+\\\xd0\xe3\xef\xf0\x8c"
                            [(x % 22) as usize]
                    }
                    _ => (i as u8 / 3).wrapping_mul(37),
                };
            }
            let want = plain(&w);
            assert_eq!(classify(&w), want, "{w:?}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (detected just above).
                #[allow(unsafe_code)]
                let a = unsafe { Avx2::new() };
                assert_eq!(a.classify(&w), want, "{w:?}");
                let cont = (0..BLOCK).fold(0u64, |m, i| {
                    m | (((0x80..0xc0).contains(&w[i])) as u64) << i
                });
                assert_eq!(a.continuation(&w), cont);
                for c in [b'\\', 0] {
                    assert_eq!(a.equal(&w, c), equal(&w, c));
                }
                assert_eq!(a.plus_slash(&w), plus_slash(&w));
                assert_eq!(a.hex_letters(&w), hex_letters(&w));
                for p in 1..=16 {
                    assert_eq!(a.ahead(&w, p), ahead(&w, p));
                }
                // Every byte from 0xC0 up as a first byte, whatever follows it (the look-up reads only the next
                // byte's low six bits), with and without the look-up of whole rows (`wide`).
                let firsts = (0..BLOCK).fold(0u64, |m, i| m | ((w[i] >= 0xc0) as u64) << i);
                for wide in [0, firsts] {
                    let mut out = [0u8; BLOCK];
                    let attend = a.entries(&w, firsts, wide, &mut out);
                    let mut want = 0;
                    for j in (0..BLOCK).filter(|&j| firsts >> j & 1 != 0) {
                        let e = crate::scan::kind::entry_of(w[j], w[j + 1]);
                        assert_eq!(out[j], e, "{w:?} at {j}");
                        want |= ((e >= crate::scan::kind::ATTEND) as u64) << j;
                    }
                    assert_eq!(attend, Some(want));
                }
            }
            assert_eq!(classify_swar(&w), want, "{w:?}");
            let cont = (0..BLOCK).fold(0u64, |m, i| {
                m | (((0x80..0xc0).contains(&w[i])) as u64) << i
            });
            assert_eq!(continuation(&w), cont);
            assert_eq!(continuation_swar(&w), cont);
            let hex = (0..BLOCK).fold(0u64, |m, i| {
                m | ((matches!(w[i] | 0x20, b'a'..=b'f') && w[i] < 0x80) as u64) << i
            });
            assert_eq!(hex_letters(&w), hex);
            let ps = (0..BLOCK).fold(0u64, |m, i| {
                m | ((w[i] == b'+' || w[i] == b'/') as u64) << i
            });
            assert_eq!(plus_slash(&w), ps);
            let mut w16 = [0u8; 16];
            w16.copy_from_slice(&w[..16]);
            assert_eq!(plus_slash_hex16(&w16), (ps & 0xffff, hex & 0xffff));
            assert_eq!(plus_slash_swar(&w), ps);
            assert_eq!(hex_letters_swar(&w), hex);
            for p in 1..=16 {
                let e = (0..BLOCK).fold(0u64, |m, i| m | ((w[i] == w[i + p]) as u64) << i);
                assert_eq!(ahead(&w, p), e);
                assert_eq!(ahead_swar(&w, p), e);
            }
            for c in [b'\\', b'+', b'/', 0x7f, 0] {
                let e = (0..BLOCK).fold(0u64, |m, i| m | ((w[i] == c) as u64) << i);
                assert_eq!(equal(&w, c), e);
                assert_eq!(equal_swar(&w, c), e);
                assert_eq!(equal(&w[..BLOCK], c), e);
            }
        }
    }
}
