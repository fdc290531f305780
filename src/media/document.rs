//! A PDF's page count and an audio clip's duration, from their bytes. A PDF has no fixed header that holds its
//! page count, so its bytes are read once in pieces (bounded by [`MAX_PDF_SCAN`]); a WAV's header and an MP3's
//! first frame (with its Xing or VBRI frame count, else its bitrate over the stream's length) give a duration.

use super::source::{array, be32, le32, Source};

/// The most of a PDF read for its pages.
pub(crate) const MAX_PDF_SCAN: usize = 64 << 20;

/// The pages of a PDF: the page objects (`/Type /Page`), else the largest page-tree `/Count`; `None` when the
/// bytes are not a PDF or name no page (compressed object streams hide them).
pub(crate) fn pdf_pages(s: &dyn Source) -> Option<u64> {
    if array::<5>(s, 0)? != *b"%PDF-" {
        return None;
    }
    const CHUNK: usize = 64 << 10;
    const KEEP: usize = 64;
    let mut buf = vec![0u8; CHUNK + KEEP];
    let (mut pages, mut count) = (0u64, 0u64);
    let (mut at, mut kept) = (0usize, 0usize);
    while at < MAX_PDF_SCAN {
        let n = s.read_at(at, &mut buf[kept..]);
        if n == 0 {
            break;
        }
        let end = kept + n;
        let window = &buf[..end];
        // Only matches that start before the kept tail are counted; the tail is searched again with what follows.
        let last = if n < CHUNK { end } else { end - KEEP };
        let mut i = 0;
        while let Some(k) = find(&window[i..last.max(i)], b"/Type") {
            let p = i + k + 5;
            let mut q = p;
            while q < end && matches!(window[q], b' ' | b'\r' | b'\n' | b'\t' | 0) {
                q += 1;
            }
            if window[q..].starts_with(b"/Pages") {
                if let Some(c) = count_after(&window[q..end.min(q + 512)]) {
                    count = count.max(c);
                }
            } else if window[q..].starts_with(b"/Page")
                && !window.get(q + 5).is_some_and(|c| c.is_ascii_alphanumeric())
            {
                pages += 1;
            }
            i = p;
        }
        at += n;
        if n < CHUNK {
            break;
        }
        buf.copy_within(end - KEEP..end, 0);
        kept = KEEP;
    }
    let pages = if pages > 0 { pages } else { count };
    (pages > 0).then_some(pages)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The `/Count N` in the dictionary that follows.
fn count_after(s: &[u8]) -> Option<u64> {
    let k = find(s, b"/Count")? + 6;
    let digits: Vec<u8> = s[k..]
        .iter()
        .skip_while(|c| c.is_ascii_whitespace())
        .take_while(|c| c.is_ascii_digit())
        .copied()
        .collect();
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

/// An audio clip's duration in milliseconds: WAV from its header, MP3 from its first frame.
pub(crate) fn audio_ms(s: &dyn Source) -> Option<u64> {
    let head = array::<4>(s, 0)?;
    if &head == b"RIFF" {
        wav_ms(s)
    } else {
        mp3_ms(s)
    }
}

fn wav_ms(s: &dyn Source) -> Option<u64> {
    if array::<4>(s, 8)? != *b"WAVE" {
        return None;
    }
    let (mut pos, mut byte_rate) = (12usize, None);
    for _ in 0..64 {
        let id = array::<4>(s, pos)?;
        let size = le32(s, pos + 4)? as usize;
        match &id {
            b"fmt " => byte_rate = Some(le32(s, pos + 16)? as u64).filter(|&r| r > 0),
            b"data" => {
                // A streamed WAV may say 0 or 0xFFFFFFFF: take the bytes there are.
                let size = if size == 0 || size == u32::MAX as usize {
                    s.len().saturating_sub(pos + 8) as u64
                } else {
                    size as u64
                };
                return Some(size * 1000 / byte_rate?);
            }
            _ => {}
        }
        pos = pos.checked_add(8 + size + (size & 1))?;
    }
    None
}

/// MPEG audio: (version index, layer index) → samples per frame; bitrates in kbit/s by version and layer.
fn mp3_ms(s: &dyn Source) -> Option<u64> {
    let mut pos = 0usize;
    // An ID3v2 tag: "ID3", version, flags, a synchsafe size.
    if array::<3>(s, 0)? == *b"ID3" {
        let b = array::<10>(s, 0)?;
        let size = b[6..10]
            .iter()
            .fold(0usize, |a, &x| (a << 7) | (x & 0x7f) as usize);
        pos = 10 + size + if b[5] & 0x10 != 0 { 10 } else { 0 };
    }
    // The first frame sync within a few KB.
    let mut h = None;
    for p in pos..pos + 4096 {
        let b = array::<4>(s, p)?;
        if b[0] == 0xFF && b[1] & 0xE0 == 0xE0 {
            if let Some(f) = frame(b) {
                h = Some((p, f));
                break;
            }
        }
    }
    let (p, f) = h?;
    // Xing/Info (VBR) after the side information, or VBRI 32 bytes after the header: the frame count.
    let side = match (f.mpeg1, f.mono) {
        (true, false) => 32,
        (true, true) => 17,
        (false, false) => 17,
        (false, true) => 9,
    };
    let x = p + 4 + side;
    let frames = match &array::<4>(s, x)? {
        b"Xing" | b"Info" if be32(s, x + 4)? & 1 != 0 => Some(be32(s, x + 8)? as u64),
        _ => match array::<4>(s, p + 36) {
            Some(v) if &v == b"VBRI" => Some(be32(s, p + 36 + 14)? as u64),
            _ => None,
        },
    };
    match frames {
        Some(n) if n > 0 => Some(n * f.samples as u64 * 1000 / f.rate as u64),
        _ => {
            let bytes = s.len().saturating_sub(p) as u64;
            Some(bytes * 8 / f.kbps as u64)
        }
    }
}

struct Frame {
    mpeg1: bool,
    mono: bool,
    kbps: u32,
    rate: u32,
    samples: u32,
}

fn frame(b: [u8; 4]) -> Option<Frame> {
    let version = (b[1] >> 3) & 3; // 0: 2.5, 2: 2, 3: 1
    let layer = (b[1] >> 1) & 3; // 1: III, 2: II, 3: I
    if version == 1 || layer == 0 {
        return None;
    }
    let mpeg1 = version == 3;
    let bi = (b[2] >> 4) as usize;
    let ri = ((b[2] >> 2) & 3) as usize;
    if bi == 0 || bi == 15 || ri == 3 {
        return None;
    }
    const V1: [[u32; 14]; 3] = [
        [
            32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448,
        ],
        [
            32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384,
        ],
        [
            32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
        ],
    ];
    const V2: [[u32; 14]; 2] = [
        [
            32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256,
        ],
        [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ];
    let kbps = if mpeg1 {
        V1[(3 - layer) as usize][bi - 1]
    } else {
        V2[if layer == 3 { 0 } else { 1 }][bi - 1]
    };
    let rate = [44_100, 48_000, 32_000][ri]
        >> match version {
            3 => 0,
            2 => 1,
            _ => 2,
        };
    let samples = match (layer, mpeg1) {
        (3, _) => 384,
        (2, _) => 1152,
        (_, true) => 1152,
        (_, false) => 576,
    };
    Some(Frame {
        mpeg1,
        mono: (b[3] >> 6) == 3,
        kbps,
        rate,
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::super::source::Raw;
    use super::*;

    pub(crate) fn pdf(pages: usize) -> Vec<u8> {
        let mut b = b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n".to_vec();
        b.extend(format!("2 0 obj << /Type /Pages /Kids [] /Count {pages} >> endobj\n").as_bytes());
        for i in 0..pages {
            b.extend(
                format!("{} 0 obj << /Type /Page /Parent 2 0 R >> endobj\n", i + 3).as_bytes(),
            );
            // Filler so that pages straddle the reader's pieces.
            b.extend(vec![b'x'; 40_000 + i * 7]);
        }
        b.extend(b"%%EOF");
        b
    }

    #[test]
    fn pdf_pages_are_counted_across_pieces() {
        for n in [1usize, 2, 7, 40] {
            assert_eq!(pdf_pages(&Raw::new(&pdf(n))), Some(n as u64));
        }
        // Only the page tree's count (the pages in an object stream): the count.
        let b = b"%PDF-1.5\n2 0 obj <</Type/Pages/Count 12/Kids[3 0 R]>> endobj".to_vec();
        assert_eq!(pdf_pages(&Raw::new(&b)), Some(12));
        assert_eq!(pdf_pages(&Raw::new(b"%PDF-1.4 nothing")), None);
        assert_eq!(pdf_pages(&Raw::new(b"GIF89a")), None);
    }

    pub(crate) fn wav(seconds: u32, rate: u32) -> Vec<u8> {
        let data = seconds * rate * 2;
        let mut b = b"RIFF".to_vec();
        b.extend((36 + data).to_le_bytes());
        b.extend(b"WAVEfmt ");
        b.extend(16u32.to_le_bytes());
        b.extend(1u16.to_le_bytes());
        b.extend(1u16.to_le_bytes());
        b.extend(rate.to_le_bytes());
        b.extend((rate * 2).to_le_bytes());
        b.extend(2u16.to_le_bytes());
        b.extend(16u16.to_le_bytes());
        b.extend(b"data");
        b.extend(data.to_le_bytes());
        b.resize(b.len() + data as usize, 0);
        b
    }

    #[test]
    fn audio_durations() {
        assert_eq!(audio_ms(&Raw::new(&wav(3, 16_000))), Some(3_000));
        // An MP3: MPEG-1 layer III, 128 kbit/s, 44.1 kHz, stereo; constant bitrate over 80,000 bytes = 5 s.
        let mut mp3 = b"ID3\x04\0\0\0\0\0\x0a".to_vec();
        mp3.extend([0u8; 10]);
        let start = mp3.len();
        mp3.extend([0xFF, 0xFB, 0x90, 0x00]);
        mp3.resize(start + 80_000, 0);
        assert_eq!(audio_ms(&Raw::new(&mp3)), Some(5_000));
        // With a Xing header: 100 frames of 1,152 samples at 44.1 kHz.
        let mut vbr = vec![0xFF, 0xFB, 0x90, 0x00];
        vbr.resize(4 + 32, 0);
        vbr.extend(b"Xing");
        vbr.extend(1u32.to_be_bytes());
        vbr.extend(100u32.to_be_bytes());
        vbr.resize(1_000, 0);
        assert_eq!(audio_ms(&Raw::new(&vbr)), Some(100 * 1152 * 1000 / 44_100));
        assert_eq!(audio_ms(&Raw::new(b"RIFF\0\0\0\0WAVEdata")), None);
        assert_eq!(audio_ms(&Raw::new(b"nothing")), None);
    }
}
