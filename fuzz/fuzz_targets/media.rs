//! Arbitrary bytes as media: the first byte picks a header to put in front (PNG, GIF, WebP VP8/VP8L/VP8X, JPEG,
//! PDF, WAV, MP3, or none), the rest follows. The header readers run on the raw bytes and on their base64 text:
//! never a panic, the same answer both ways, and a read bounded by the header walk, never the whole input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::internals::media;

const PREFIXES: [&[u8]; 9] = [
    b"",
    b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR",
    b"GIF89a",
    b"RIFF\0\0\0\0WEBPVP8 ",
    b"RIFF\0\0\0\0WEBPVP8L",
    b"RIFF\0\0\0\0WEBPVP8X",
    b"\xFF\xD8\xFF",
    b"%PDF-1.7\n",
    b"RIFF\0\0\0\0WAVEfmt ",
];


fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = PREFIXES[pick as usize % PREFIXES.len()].to_vec();
    bytes.extend_from_slice(rest);
    let (raw, read) = media::image(&bytes);
    assert!(read <= 16 << 10, "{read} bytes read");
    let (b64, read64) = media::image_base64(&media::base64(&bytes));
    assert_eq!(raw, b64);
    assert!(read64 <= 16 << 10, "{read64} bytes read");
    if let Some((_, w, h)) = raw {
        assert!(w > 0 && h > 0);
    }
    let _ = media::document(&bytes);
    // Base64 that is not: whitespace and stray characters inside.
    let text: String = rest.iter().map(|&b| (b % 96 + 32) as char).collect();
    let _ = media::image_base64(&text);
});
