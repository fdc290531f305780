//! Images, PDFs and audio in request bodies, priced from their bytes by each provider's documented rule: the
//! issue's two requests (ten 1024² PNGs to gpt-4o and to Claude at 8,000 TPM), unmeasurable parts as an honest
//! band, rotated JPEGs, huge images read by their headers only, and properties over sizes.

use llm_preflight::internals::media;
use llm_preflight::{estimate_request, Budget, MediaKind, Policy, Provider, State, Verdict};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A PNG of `w × h`: signature, IHDR, then `body` bytes standing for its compressed pixels.
fn png(w: u32, h: u32, body: usize) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    b.extend(w.to_be_bytes());
    b.extend(h.to_be_bytes());
    b.extend([8, 6, 0, 0, 0, 0x5c, 0x72, 0xa8, 0x66]);
    b.extend((0..body).map(|i| (i * 131 % 251) as u8));
    b
}

/// A baseline JPEG whose EXIF orientation is 6 (stored `w × h`, shown turned a quarter).
fn jpeg_rotated(w: u16, h: u16) -> Vec<u8> {
    let mut b = vec![0xFF, 0xD8, 0xFF, 0xE1];
    let tiff: Vec<u8> = [
        &b"MM\0*"[..],
        &8u32.to_be_bytes(),
        &1u16.to_be_bytes(),
        &0x0112u16.to_be_bytes(),
        &3u16.to_be_bytes(),
        &1u32.to_be_bytes(),
        &6u16.to_be_bytes(),
        &[0, 0],
        &0u32.to_be_bytes(),
    ]
    .concat();
    b.extend(((2 + 6 + tiff.len()) as u16).to_be_bytes());
    b.extend(b"Exif\0\0");
    b.extend(tiff);
    b.extend([0xFF, 0xC0, 0, 17, 8]);
    b.extend(h.to_be_bytes());
    b.extend(w.to_be_bytes());
    b.extend([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xDA, 0, 2]);
    b
}

fn key(tpm: u64) -> State {
    State::new(
        Budget::new(Provider::OpenAi).tokens_per_minute(tpm.try_into().unwrap()),
        0,
    )
}

fn openai_images(n: usize, w: u32, h: u32) -> String {
    let url = format!(
        "data:image/png;base64,{}",
        media::base64(&png(w, h, 30_000))
    );
    let mut content =
        vec![json!({"type": "text", "text": "What do these screenshots have in common?"})];
    content.extend((0..n).map(|_| json!({"type": "image_url", "image_url": {"url": url}})));
    json!({"model": "gpt-4o", "max_tokens": 500, "messages": [{"role": "user", "content": content}]}).to_string()
}

fn anthropic_images(n: usize, w: u32, h: u32) -> String {
    let data = media::base64(&png(w, h, 30_000));
    let mut content: Vec<Value> = (0..n)
        .map(|_| json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}))
        .collect();
    content.push(json!({"type": "text", "text": "What do these screenshots have in common?"}));
    json!({"model": "claude-sonnet-4-5", "max_tokens": 500, "messages": [{"role": "user", "content": content}]})
        .to_string()
}

#[test]
fn ten_1024_pngs_to_gpt_4o_can_never_be_sent_under_8000_tpm() {
    let r = estimate_request(&openai_images(10, 1024, 1024), None, None).unwrap();
    // OpenAI's tile rule: 85 + 170 × 4 tiles = 765 each.
    assert_eq!(r.media_tokens, 7_650);
    assert_eq!(r.media.len(), 10);
    assert!(r
        .media
        .iter()
        .all(|m| m.measured && m.width == Some(1024) && m.rule == "openai_tile"));
    assert!(!r.incomplete);
    let c = key(8_000).check(&r.cost(), Policy::Median, 0);
    let Verdict::NeverSendable {
        limit,
        needed,
        excess,
        ..
    } = c.verdict
    else {
        panic!("{:?}", c.verdict)
    };
    assert_eq!(limit, 8_000);
    assert!(needed > 7_650 + 500, "{needed}");
    assert_eq!(excess, needed - 8_000);
    // Two of them fit.
    let r = estimate_request(&openai_images(2, 1024, 1024), None, None).unwrap();
    assert_eq!(r.media_tokens, 1_530);
    assert!(key(8_000)
        .check(&r.cost(), Policy::Conservative, 0)
        .verdict
        .is_sendable());
}

#[test]
fn ten_1024_pngs_to_claude_can_never_be_sent_under_8000_tpm() {
    let r = estimate_request(&anthropic_images(10, 1024, 1024), None, None).unwrap();
    // ⌈1024/28⌉² = 1,369 visual tokens each (the current rule; the older w × h / 750 gave 1,398).
    assert_eq!(r.media_tokens, 13_690);
    assert!(r.media.iter().all(|m| m.measured && m.rule == "anthropic"));
    let c = key(8_000).check(&r.cost(), Policy::Median, 0);
    assert!(
        matches!(c.verdict, Verdict::NeverSendable { limit: 8_000, .. }),
        "{:?}",
        c.verdict
    );
    let r = estimate_request(&anthropic_images(3, 1024, 1024), None, None).unwrap();
    assert!(key(8_000)
        .check(&r.cost(), Policy::Conservative, 0)
        .verdict
        .is_sendable());
}

#[test]
fn parts_without_bytes_are_a_band_and_the_conservative_verdict_takes_its_top() {
    let body = json!({"model": "gpt-4o", "max_tokens": 100, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Compare"},
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
        {"type": "image_url", "image_url": {"url": "https://example.com/b.png", "detail": "low"}},
    ]}]})
    .to_string();
    let r = estimate_request(&body, None, None).unwrap();
    assert!(r.incomplete);
    assert_eq!(r.unpriced, vec!["/messages/0/content/1"]);
    let m = &r.media[0];
    assert_eq!(
        (m.low, m.high, m.source, m.measured),
        (255, 1445, "url", false)
    );
    // The low-detail one costs its base whatever its size: priced, not unpriced.
    assert_eq!((r.media[1].tokens, r.media[1].measured), (85, true));
    assert!(r.estimate.high >= r.estimate.low + (1445 - 255));
    // 1,600 TPM holds the median (about 1,050 with the output cap) but not the top of the band (about 1,650):
    // conservative refuses.
    let s = key(1_600);
    assert!(s.check(&r.cost(), Policy::Median, 0).verdict.is_sendable());
    assert!(!s
        .check(&r.cost(), Policy::Conservative, 0)
        .verdict
        .is_sendable());
    assert!(s.check(&r.cost(), Policy::Median, 0).incomplete);
}

#[test]
fn a_rotated_jpeg_is_priced_as_shown() {
    // Stored 2400 × 1800, shown 1800 × 2400; on Claude's standard tier both resize the same way, so use the patch
    // rule of gpt-4.1-mini, which the docs work through for 1800 × 2400 (1452 patches × 1.62).
    let url = format!(
        "data:image/jpeg;base64,{}",
        media::base64(&jpeg_rotated(2400, 1800))
    );
    let body = json!({"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": url, "detail": "high"}}]}]})
    .to_string();
    let r = estimate_request(&body, None, None).unwrap();
    assert_eq!(
        (r.media[0].width, r.media[0].height),
        (Some(1800), Some(2400))
    );
    assert_eq!(r.media[0].tokens, (1452.0f64 * 1.62).ceil() as u64);
    assert_eq!(r.media[0].format.as_deref(), Some("jpeg"));
}

#[test]
fn gemini_and_responses_shapes_pdfs_and_audio() {
    // A PDF of 3 pages and a 2-second WAV inline, to Gemini 2.5: 258 per page, 32 tokens a second.
    let mut pdf = b"%PDF-1.7\n".to_vec();
    for i in 0..3 {
        pdf.extend(format!("{} 0 obj << /Type /Page >> endobj\n", i + 3).as_bytes());
    }
    let mut wav = b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0".to_vec();
    wav.extend(16_000u32.to_le_bytes());
    wav.extend(32_000u32.to_le_bytes());
    wav.extend([2, 0, 16, 0]);
    wav.extend(b"data");
    wav.extend(64_000u32.to_le_bytes());
    wav.resize(wav.len() + 64_000, 0);
    let body = json!({"model": "gemini-2.5-flash", "contents": [{"role": "user", "parts": [
        {"text": "Summarise both"},
        {"inline_data": {"mime_type": "application/pdf", "data": media::base64(&pdf)}},
        {"inlineData": {"mimeType": "audio/wav", "data": media::base64(&wav)}},
        {"file_data": {"mime_type": "image/png", "file_uri": "gs://bucket/x.png"}},
    ]}]})
    .to_string();
    let r = estimate_request(&body, None, None).unwrap();
    let kinds: Vec<_> = r
        .media
        .iter()
        .map(|m| (m.kind, m.tokens, m.measured))
        .collect();
    assert_eq!(kinds[0], (MediaKind::Document, 3 * 258, true));
    assert_eq!(kinds[1], (MediaKind::Audio, 64, true));
    assert_eq!(kinds[2].0, MediaKind::Image);
    assert!(!kinds[2].2);
    assert_eq!(r.unpriced, vec!["/contents/0/parts/3"]);

    // Gemini 3 at a stated media resolution: a fixed cost per image, no bytes needed.
    let body = json!({"model": "gemini-3-pro-preview", "generationConfig": {"mediaResolution": "MEDIA_RESOLUTION_LOW"},
        "contents": [{"parts": [{"fileData": {"mimeType": "image/jpeg", "fileUri": "gs://b/y.jpg"}}]}]})
    .to_string();
    let r = estimate_request(&body, None, None).unwrap();
    assert_eq!((r.media[0].tokens, r.incomplete), (280, false));

    // Responses: an input_image by file id and an input_file PDF by URL: bands, listed as unpriced.
    let body = json!({"model": "gpt-4o", "input": [{"role": "user", "content": [
        {"type": "input_image", "file_id": "file-abc"},
        {"type": "input_file", "file_url": "https://example.com/report.pdf"},
    ]}]})
    .to_string();
    let r = estimate_request(&body, None, None).unwrap();
    assert_eq!(r.unpriced, vec!["/input/0/content/0", "/input/0/content/1"]);
    assert!(
        r.media[1].high >= 100 * r.media[1].low,
        "a PDF of unknown length: {:?}",
        r.media[1]
    );
}

#[test]
fn a_20_mb_image_is_read_by_its_header_only() {
    let big = media::base64(&png(4000, 3000, 15 << 20));
    assert!(big.len() > 20 << 20);
    let (dims, read) = media::image_base64(&big);
    assert_eq!(dims, Some((media::ImageFormat::Png, 4000, 3000)));
    assert!(read < 1024, "{read} bytes read");
    let body = json!({"model": "gpt-4o", "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{big}")}}]}]})
    .to_string();
    let r = estimate_request(&body, None, None).unwrap();
    // 4000 × 3000 → 2048 × 1536 → 1024 × 768: 2 × 2 tiles.
    assert_eq!(r.media[0].tokens, 765);
    // A JPEG behind a large EXIF segment: jumped over by its length, not read.
    let mut j = vec![0xFF, 0xD8, 0xFF, 0xE2, 0xFF, 0xF0];
    j.resize(4 + 0xFFF0, 7);
    j.extend(&jpeg_rotated(640, 480)[2..]);
    let (dims, read) = media::image_base64(&media::base64(&j));
    assert_eq!(dims, Some((media::ImageFormat::Jpeg, 480, 640)));
    assert!(read < 1024, "{read} bytes read");
}

fn openai_at(model: &str, w: u32, h: u32) -> u64 {
    let url = format!("data:image/png;base64,{}", media::base64(&png(w, h, 0)));
    let body = json!({"model": model, "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": url}}]}]})
    .to_string();
    estimate_request(&body, None, None).unwrap().media[0].tokens
}

fn claude_at(w: u32, h: u32) -> u64 {
    let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 1, "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": media::base64(&png(w, h, 0))}}]}]})
    .to_string();
    estimate_request(&body, None, None).unwrap().media[0].tokens
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// Where the providers do not resize (OpenAI's tile rule under a 768-px short side, its patch rule under the
    /// budget, Claude under its limits), an image that grows never costs less. (Past those limits the documented
    /// rules rescale and are not monotone: on gpt-4o, 1100 × 800 costs 1,105 and 1100 × 900 costs 765.)
    #[test]
    fn growing_an_image_never_lowers_its_price_below_the_resize_limits(w in 1u32..760, h in 1u32..760, dw in 0u32..8, dh in 0u32..8) {
        prop_assert!(openai_at("gpt-4o", w + dw, h + dh) >= openai_at("gpt-4o", w, h));
        let (pw, ph) = (w.min(1200), h.min(1200));
        prop_assert!(openai_at("gpt-4.1-mini", pw + dw, ph + dh) >= openai_at("gpt-4.1-mini", pw, ph));
        prop_assert!(claude_at(w + dw, h + dh) >= claude_at(w, h));
    }

    /// Whatever the size, a measured image costs within the band its rule gives an unmeasured one.
    #[test]
    fn a_measured_image_lies_in_the_unmeasured_band(w in 1u32..9000, h in 1u32..9000) {
        for model in ["gpt-4o", "gpt-4o-mini", "o4-mini", "gpt-5-nano"] {
            let t = openai_at(model, w, h);
            let body = json!({"model": model, "messages": [{"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": "https://example.com/x.png"}}]}]}).to_string();
            let m = estimate_request(&body, None, None).unwrap().media[0].clone();
            prop_assert!(m.low <= t && t <= m.high, "{model} {w}x{h}: {t} outside {}..{}", m.low, m.high);
        }
        let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 1, "messages": [{"role": "user", "content": [
            {"type": "image", "source": {"type": "url", "url": "https://example.com/x.png"}}]}]}).to_string();
        let m = estimate_request(&body, None, None).unwrap().media[0].clone();
        let t = claude_at(w, h);
        prop_assert!(m.low <= t && t <= m.high);
    }

    /// Arbitrary bytes as an image of every format, raw or base64: an answer or none, never a panic, and a read
    /// bounded by the header walk.
    #[test]
    fn any_bytes_as_an_image(mut bytes in proptest::collection::vec(any::<u8>(), 0..600), magic in 0usize..6) {
        let prefixes: [&[u8]; 6] = [b"\x89PNG\r\n\x1a\n", b"GIF89a", b"RIFF\0\0\0\0WEBPVP8 ", b"RIFF\0\0\0\0WEBPVP8X", b"\xFF\xD8", b"%PDF-"];
        bytes.splice(0..0, prefixes[magic].iter().copied());
        let (_, read) = media::image(&bytes);
        // Bytes read, counting rereads: a header walk, never the whole of a large input.
        prop_assert!(read <= 4096, "{read}");
        let _ = media::image_base64(&media::base64(&bytes));
        let _ = media::document(&bytes);
    }
}
