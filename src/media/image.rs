//! An image's width and height from its header: PNG, JPEG (baseline and progressive: the SOF marker, and the
//! EXIF orientation that swaps the sides), GIF and WebP (VP8, VP8L, VP8X). No pixel is decoded; a header that is
//! truncated or lies gives `None`, never a panic, and no read goes past the segments the header walk needs.

use super::source::{array, be16, be32, le16, le32, Source};
use serde::Serialize;

/// An image format the header parser reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageFormat {
    /// PNG (and APNG: its first frame's size).
    Png,
    /// JPEG.
    Jpeg,
    /// GIF (the logical screen).
    Gif,
    /// WebP.
    Webp,
}

impl ImageFormat {
    /// The snake_case name used in JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpeg",
            ImageFormat::Gif => "gif",
            ImageFormat::Webp => "webp",
        }
    }
}

/// The most JPEG segments walked before the frame header (APPn, comments, tables): a real file has a dozen.
const MAX_JPEG_SEGMENTS: usize = 512;

/// Width and height, as displayed (EXIF rotation applied), and the format; `None` for an unknown format or a
/// header that cannot be read.
pub(crate) fn dimensions(s: &dyn Source) -> Option<(ImageFormat, u32, u32)> {
    let magic = array::<12>(s, 0).or_else(|| {
        let mut b = [0u8; 12];
        let n = s.read_at(0, &mut b);
        (n >= 4).then_some(b)
    })?;
    let (format, w, h) = if magic.starts_with(b"\x89PNG\r\n\x1a\n") {
        // The first chunk is IHDR: length, type, width, height.
        if array::<4>(s, 12)? != *b"IHDR" {
            return None;
        }
        (ImageFormat::Png, be32(s, 16)?, be32(s, 20)?)
    } else if magic.starts_with(b"GIF87a") || magic.starts_with(b"GIF89a") {
        (ImageFormat::Gif, le16(s, 6)? as u32, le16(s, 8)? as u32)
    } else if magic.starts_with(b"RIFF") && &magic[8..12] == b"WEBP" {
        let (w, h) = webp(s)?;
        (ImageFormat::Webp, w, h)
    } else if magic.starts_with(&[0xFF, 0xD8]) {
        let (w, h) = jpeg(s)?;
        (ImageFormat::Jpeg, w, h)
    } else {
        return None;
    };
    (w > 0 && h > 0).then_some((format, w, h))
}

fn webp(s: &dyn Source) -> Option<(u32, u32)> {
    let chunk = array::<4>(s, 12)?;
    match &chunk {
        b"VP8 " => {
            // A key frame: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
            if array::<3>(s, 23)? != [0x9d, 0x01, 0x2a] {
                return None;
            }
            Some((
                (le16(s, 26)? & 0x3fff) as u32,
                (le16(s, 28)? & 0x3fff) as u32,
            ))
        }
        b"VP8L" => {
            // The signature 0x2f, then width - 1 and height - 1 in 14 bits each.
            let b = array::<5>(s, 20)?;
            if b[0] != 0x2f {
                return None;
            }
            let bits = u32::from_le_bytes([b[1], b[2], b[3], b[4]]);
            Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1))
        }
        b"VP8X" => {
            // Flags and reserved bytes, then the canvas's width - 1 and height - 1 in 24 bits each.
            let b = array::<6>(s, 24)?;
            let w = u32::from_le_bytes([b[0], b[1], b[2], 0]) + 1;
            let h = u32::from_le_bytes([b[3], b[4], b[5], 0]) + 1;
            Some((w, h))
        }
        _ => None,
    }
}

/// Whether a JPEG marker starts a frame (SOF0–SOF15 but for DHT, JPG and DAC).
fn is_sof(m: u8) -> bool {
    matches!(m, 0xC0..=0xCF) && !matches!(m, 0xC4 | 0xC8 | 0xCC)
}

fn jpeg(s: &dyn Source) -> Option<(u32, u32)> {
    let mut pos = 2usize;
    let mut swap = false;
    for _ in 0..MAX_JPEG_SEGMENTS {
        // A marker: 0xFF, any fill bytes 0xFF, then its code.
        if array::<1>(s, pos)? != [0xFF] {
            return None;
        }
        let mut code = array::<1>(s, pos + 1)?[0];
        let mut fill = 0;
        while code == 0xFF && fill < 16 {
            pos += 1;
            fill += 1;
            code = array::<1>(s, pos + 1)?[0];
        }
        match code {
            // Markers without a length.
            0xD0..=0xD7 | 0x01 => {
                pos += 2;
                continue;
            }
            // The scan or the end came before any frame header.
            0xDA | 0xD9 => return None,
            _ => {}
        }
        let len = be16(s, pos + 2)? as usize;
        if len < 2 {
            return None;
        }
        if is_sof(code) {
            // Length, precision, height, width.
            let h = be16(s, pos + 5)? as u32;
            let w = be16(s, pos + 7)? as u32;
            return Some(if swap { (h, w) } else { (w, h) });
        }
        if code == 0xE1 && array::<6>(s, pos + 4) == Some(*b"Exif\0\0") {
            swap = exif_swaps(s, pos + 10, len.saturating_sub(8)).unwrap_or(false);
        }
        pos += 2 + len;
    }
    None
}

/// Whether the EXIF orientation (tag 0x0112 of IFD0) turns the image a quarter (values 5 to 8). `tiff` is where
/// the TIFF header starts, `len` the bytes it may span.
fn exif_swaps(s: &dyn Source, tiff: usize, len: usize) -> Option<bool> {
    let order = array::<2>(s, tiff)?;
    let little = match &order {
        b"II" => true,
        b"MM" => false,
        _ => return None,
    };
    let u16_at = |o: usize| if little { le16(s, o) } else { be16(s, o) };
    let u32_at = |o: usize| if little { le32(s, o) } else { be32(s, o) };
    let ifd = u32_at(tiff + 4)? as usize;
    if ifd + 2 > len {
        return None;
    }
    let entries = (u16_at(tiff + ifd)? as usize).min(64);
    for i in 0..entries {
        let e = tiff + ifd + 2 + 12 * i;
        if e + 12 > tiff + len {
            return None;
        }
        if u16_at(e)? == 0x0112 {
            let v = u16_at(e + 8)?;
            return Some((5..=8).contains(&v));
        }
    }
    Some(false)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::source::Raw;
    use super::*;

    /// A PNG's start: signature and IHDR (the pixels are not read).
    pub(crate) fn png(w: u32, h: u32) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        b.extend(w.to_be_bytes());
        b.extend(h.to_be_bytes());
        b.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
        b
    }

    /// A JPEG with an APP0, an EXIF APP1 with `orientation`, a comment, then a progressive frame header.
    pub(crate) fn jpeg_bytes(w: u16, h: u16, orientation: u16, little: bool) -> Vec<u8> {
        let mut b = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16];
        b.extend(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
        let mut tiff: Vec<u8> = if little {
            b"II*\0".to_vec()
        } else {
            b"MM\0*".to_vec()
        };
        let p16 = |v: u16| {
            if little {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            }
        };
        let p32 = |v: u32| {
            if little {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            }
        };
        tiff.extend(p32(8));
        tiff.extend(p16(2));
        // An unrelated tag first (ImageDescription), then Orientation.
        tiff.extend(p16(0x010E));
        tiff.extend(p16(2));
        tiff.extend(p32(4));
        tiff.extend(p32(0));
        tiff.extend(p16(0x0112));
        tiff.extend(p16(3));
        tiff.extend(p32(1));
        tiff.extend(p16(orientation));
        tiff.extend([0, 0]);
        tiff.extend(p32(0));
        let app1_len = (2 + 6 + tiff.len()) as u16;
        b.extend([0xFF, 0xE1]);
        b.extend(app1_len.to_be_bytes());
        b.extend(b"Exif\0\0");
        b.extend(tiff);
        b.extend([0xFF, 0xFE, 0, 7]);
        b.extend(b"hello");
        // SOF2 (progressive): length, precision, height, width, components.
        b.extend([0xFF, 0xC2, 0, 17, 8]);
        b.extend(h.to_be_bytes());
        b.extend(w.to_be_bytes());
        b.extend([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        b.extend([0xFF, 0xDA, 0, 2]);
        b
    }

    fn dims(b: &[u8]) -> Option<(ImageFormat, u32, u32)> {
        dimensions(&Raw::new(b))
    }

    #[test]
    fn every_format_gives_its_size() {
        assert_eq!(dims(&png(1024, 768)), Some((ImageFormat::Png, 1024, 768)));
        let mut gif = b"GIF89a".to_vec();
        gif.extend(640u16.to_le_bytes());
        gif.extend(480u16.to_le_bytes());
        gif.extend([0xF7, 0, 0]);
        assert_eq!(dims(&gif), Some((ImageFormat::Gif, 640, 480)));
        for little in [true, false] {
            assert_eq!(
                dims(&jpeg_bytes(1800, 2400, 1, little)),
                Some((ImageFormat::Jpeg, 1800, 2400))
            );
            // Orientation 6 (rotate 90°): displayed as 2400 × 1800.
            assert_eq!(
                dims(&jpeg_bytes(1800, 2400, 6, little)),
                Some((ImageFormat::Jpeg, 2400, 1800))
            );
            assert_eq!(
                dims(&jpeg_bytes(1800, 2400, 3, little)),
                Some((ImageFormat::Jpeg, 1800, 2400))
            );
        }
        // WebP lossy: RIFF, size, WEBP, "VP8 ", chunk size, frame tag, start code, 14-bit sizes.
        let mut vp8 = b"RIFF\0\0\0\0WEBPVP8 \0\0\0\0\x9d\x01\x00\x9d\x01\x2a".to_vec();
        vp8.splice(20..23, [0x30, 0x01, 0x00]);
        vp8.truncate(23);
        vp8.extend([0x9d, 0x01, 0x2a]);
        vp8.extend(800u16.to_le_bytes());
        vp8.extend(600u16.to_le_bytes());
        assert_eq!(dims(&vp8), Some((ImageFormat::Webp, 800, 600)));
        // Lossless: the signature, then (w-1) | (h-1) << 14.
        let mut vp8l = b"RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f".to_vec();
        vp8l.extend((399u32 | (299 << 14)).to_le_bytes());
        assert_eq!(dims(&vp8l), Some((ImageFormat::Webp, 400, 300)));
        // Extended: flags, reserved, then 24-bit (w-1) and (h-1).
        let mut vp8x = b"RIFF\0\0\0\0WEBPVP8X\0\0\0\0\0\0\0\0".to_vec();
        vp8x.extend(&4095u32.to_le_bytes()[..3]);
        vp8x.extend(&2047u32.to_le_bytes()[..3]);
        assert_eq!(dims(&vp8x), Some((ImageFormat::Webp, 4096, 2048)));
    }

    #[test]
    fn a_truncated_or_lying_header_is_none() {
        let p = png(10, 10);
        // Width and height end at byte 24: any shorter start is not enough.
        for n in 0..24 {
            assert_eq!(dims(&p[..n]), None, "{n}");
        }
        assert_eq!(dims(&png(0, 10)), None);
        let j = jpeg_bytes(100, 50, 1, true);
        let sof = j.windows(2).position(|w| w == [0xFF, 0xC2]).unwrap();
        for n in 0..sof + 9 {
            assert_eq!(dims(&j[..n]), None, "{n}");
        }
        // A segment length that points past the end, or a scan before any frame.
        assert_eq!(dims(&[0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0, 0]), None);
        assert_eq!(dims(&[0xFF, 0xD8, 0xFF, 0xDA, 0, 2]), None);
        assert_eq!(dims(b"not an image at all"), None);
    }
}
