//! Each provider's documented rule for what an image, a PDF page or a second of audio costs, per model family.
//! Every constant cites the page it was taken from; every worked example those pages give is a test below.
//!
//! Sources (read 2026-12):
//! - OpenAI, "Images and vision", cost calculation (developers.openai.com/api/docs/guides/images-vision): the tile
//!   rule with its per-model base and tile tokens, the 32-px patch rule with its patch budgets and multipliers.
//! - OpenAI, "File inputs" (…/guides/pdf-files): a PDF's extracted text and an image of each page; no per-page
//!   figure is documented. "Managing costs" of the Realtime API (…/guides/realtime-costs): user audio is 1 token per
//!   100 ms (the only input-audio rate OpenAI documents).
//! - Anthropic, "Vision" and "How Claude resizes and pads images" (platform.claude.com/docs/en/build-with-claude/
//!   vision, …/vision-coordinates): ⌈w/28⌉ × ⌈h/28⌉ visual tokens after resizing to the tier's limits (standard:
//!   1568 px and 1568 tokens; high-resolution, Opus 4.7 and later: 2576 px and 4784 tokens). "PDF support"
//!   (…/pdf-support): each page's text, "typically 1,500-3,000 tokens per page", plus the page as an image.
//! - Google, "Understand and count tokens" and "Image understanding" (ai.google.dev/gemini-api/docs/tokens,
//!   …/image-understanding): Gemini 2.x images cost 258 tokens up to 384 px both ways, else 258 per crop unit of
//!   ⌊min(w, h) / 1.5⌋ px; "Media resolution" (…/media-resolution): Gemini 2.5 at LOW 64 and MEDIUM 256 per image,
//!   Gemini 3 at 280 / 560 / 1120 (default) / 2240 per image and 280 / 560 / 1120 per PDF page; "Document
//!   processing" (…/document-processing): 258 per PDF page (2.x), at most 1000 pages; "Audio understanding"
//!   (…/audio): 32 tokens per second (2.x), 25 per second on Gemini 3.

use serde::Serialize;

/// How one model family prices an image.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum ImageRule {
    /// OpenAI's tile rule: fit in 2048², shortest side down to 768, `base + tile × 512-px tiles`; `detail: low` is
    /// `base` alone.
    OpenAiTile {
        /// Tokens for any image (all of a low-detail one).
        base: u32,
        /// Tokens per 512-px tile.
        tile: u32,
    },
    /// OpenAI's patch rule: 32-px patches, scaled down to fit `budget` patches, times `multiplier`.
    OpenAiPatch {
        /// The most patches (after resizing); `None`: no resize (GPT-5.6 at `original`).
        budget: Option<u32>,
        /// Tokens per patch.
        multiplier: f64,
    },
    /// Anthropic: ⌈w/28⌉ × ⌈h/28⌉ after resizing to fit `max_edge` px and `max_tokens` tokens.
    Anthropic {
        /// The longest side after padding to 28 px.
        max_edge: u32,
        /// The most visual tokens.
        max_tokens: u32,
    },
    /// Gemini 2.x: 258 up to 384 px both ways, else 258 per crop unit of ⌊min(w, h) / 1.5⌋.
    GeminiTiles,
    /// A fixed cost per image (Gemini 3 by `media_resolution`; Gemini 2.5 at LOW or MEDIUM).
    Fixed {
        /// Tokens per image.
        tokens: u32,
    },
}

/// A priced part: its point estimate and its band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Priced {
    pub tokens: u64,
    pub low: u64,
    pub high: u64,
}

impl Priced {
    pub(crate) fn exact(t: u64) -> Priced {
        Priced {
            tokens: t,
            low: t,
            high: t,
        }
    }

    /// A band whose point is its middle.
    pub(crate) fn band(low: u64, high: u64) -> Priced {
        Priced {
            tokens: low + (high - low) / 2,
            low,
            high,
        }
    }
}

/// The image rule for a model (`None` or unknown: the family's flagship rule). `api` is `openai`, `anthropic` or
/// `gemini`; `resolution` is Gemini's `media_resolution` (`MEDIA_RESOLUTION_LOW`, `low`, ...), `high_detail`
/// whether an OpenAI image asks for high (or auto) detail.
pub(crate) fn image_rule(api: &str, model: &str, resolution: Option<&str>) -> ImageRule {
    let m = model
        .rsplit('/')
        .next()
        .unwrap_or(model)
        .to_ascii_lowercase();
    match api {
        "anthropic" => {
            // The high-resolution tier: Claude Opus 4.7 and later (Opus 4.8, the 5 family).
            let high = [
                "opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "-5-", "mythos", "fable",
            ]
            .iter()
            .any(|k| m.contains(k));
            if high {
                ImageRule::Anthropic {
                    max_edge: 2576,
                    max_tokens: 4784,
                }
            } else {
                ImageRule::Anthropic {
                    max_edge: 1568,
                    max_tokens: 1568,
                }
            }
        }
        "gemini" => {
            let level = level(resolution);
            if m.contains("gemini-3") {
                ImageRule::Fixed {
                    tokens: match level.as_deref() {
                        Some("low") => 280,
                        Some("medium") => 560,
                        Some("ultra_high") => 2240,
                        _ => 1120,
                    },
                }
            } else {
                match level.as_deref() {
                    Some("low") => ImageRule::Fixed { tokens: 64 },
                    Some("medium") => ImageRule::Fixed { tokens: 256 },
                    _ => ImageRule::GeminiTiles,
                }
            }
        }
        _ => openai_rule(&m),
    }
}

/// Gemini's media resolution as a level: `MEDIA_RESOLUTION_LOW` and `low` are both `low`.
fn level(resolution: Option<&str>) -> Option<String> {
    resolution.map(|r| {
        let r = r.to_ascii_lowercase();
        match r.strip_prefix("media_resolution_") {
            Some(level) => level.to_string(),
            None => r,
        }
    })
}

fn openai_rule(m: &str) -> ImageRule {
    let patch = |budget: u32, multiplier: f64| ImageRule::OpenAiPatch {
        budget: Some(budget),
        multiplier,
    };
    let tile = |base: u32, tile: u32| ImageRule::OpenAiTile { base, tile };
    let has = |k: &str| m.starts_with(k);
    if has("gpt-4o-mini") {
        tile(2833, 5667)
    } else if has("gpt-4.1-mini") || has("gpt-5-mini") || has("gpt-5.4-mini") {
        patch(1536, 1.62)
    } else if has("gpt-4.1-nano") || has("gpt-5-nano") || has("gpt-5.4-nano") {
        patch(1536, 2.46)
    } else if has("o4-mini") {
        patch(1536, 1.72)
    } else if has("gpt-5.2") || has("gpt-5.3-codex") || m.contains("codex-mini") {
        patch(1536, 1.0)
    } else if has("gpt-5.4") || has("gpt-5.5") || has("gpt-5.6") {
        // `high`: 2,500 patches (the budget a request without `original` gets; `original` is priced apart).
        patch(2500, 1.0)
    } else if has("o1") || has("o3") {
        tile(75, 150)
    } else if has("computer-use") {
        tile(65, 129)
    } else if has("gpt-5") {
        tile(70, 140)
    } else {
        // gpt-4o, gpt-4.1, gpt-4.5 and any other model that takes images.
        tile(85, 170)
    }
}

/// What an image of `w × h` pixels costs under `rule`; `detail` is OpenAI's (`low`, `high`, `auto`, `original`).
pub(crate) fn image_tokens(rule: ImageRule, w: u32, h: u32, detail: Option<&str>) -> u64 {
    let (w, h) = (w.max(1) as u64, h.max(1) as u64);
    match rule {
        ImageRule::OpenAiTile { base, tile } => {
            if detail == Some("low") {
                return base as u64;
            }
            let (mut fw, mut fh) = (w as f64, h as f64);
            // Fit within 2048 × 2048.
            let s = (2048.0 / fw.max(fh)).min(1.0);
            fw *= s;
            fh *= s;
            // Shortest side down to 768 (never up: every documented example scales down).
            let s = (768.0 / fw.min(fh)).min(1.0);
            fw *= s;
            fh *= s;
            let tiles = (fw / 512.0).ceil() as u64 * (fh / 512.0).ceil() as u64;
            base as u64 + tile as u64 * tiles
        }
        ImageRule::OpenAiPatch { budget, multiplier } => {
            let budget = match detail {
                Some("original") => None,
                _ => budget,
            };
            (patches(w, h, budget) as f64 * multiplier).ceil() as u64
        }
        ImageRule::Anthropic {
            max_edge,
            max_tokens,
        } => {
            let (rw, rh) = claude_resized(w, h, max_edge as u64, max_tokens as u64);
            rw.div_ceil(28) * rh.div_ceil(28)
        }
        ImageRule::GeminiTiles => {
            if w <= 384 && h <= 384 {
                258
            } else {
                let unit = ((w.min(h) as f64 / 1.5).floor() as u64).max(1);
                258 * w.div_ceil(unit) * h.div_ceil(unit)
            }
        }
        ImageRule::Fixed { tokens } => tokens as u64,
    }
}

/// OpenAI's patch count: ⌈w/32⌉ × ⌈h/32⌉, the image first scaled down (as the docs' steps B and C say) when that
/// is more than `budget`.
fn patches(w: u64, h: u64, budget: Option<u32>) -> u64 {
    let raw = w.div_ceil(32) * h.div_ceil(32);
    let Some(budget) = budget.map(|b| b as u64) else {
        return raw;
    };
    if raw <= budget {
        return raw;
    }
    let (fw, fh) = (w as f64, h as f64);
    let shrink = ((32.0 * 32.0 * budget as f64) / (fw * fh)).sqrt();
    let adjusted = shrink
        * f64::min(
            (fw * shrink / 32.0).floor() / (fw * shrink / 32.0),
            (fh * shrink / 32.0).floor() / (fh * shrink / 32.0),
        );
    // Integer pixels; a hair of slack so that 1055.9999 reads as the 1056 the docs' example gives.
    let rw = ((fw * adjusted + 1e-6).floor() as u64).max(1);
    let rh = ((fh * adjusted + 1e-6).floor() as u64).max(1);
    (rw.div_ceil(32) * rh.div_ceil(32)).min(budget)
}

/// Anthropic's resize: the largest aspect-preserving size whose padded sides fit `max_edge` and whose visual
/// tokens fit `max_tokens` (the docs' reference code, a binary search along the long side; Python's `round` is
/// half-to-even).
fn claude_resized(w: u64, h: u64, max_edge: u64, max_tokens: u64) -> (u64, u64) {
    let fits = |w: u64, h: u64| {
        w.div_ceil(28) * 28 <= max_edge
            && h.div_ceil(28) * 28 <= max_edge
            && w.div_ceil(28) * h.div_ceil(28) <= max_tokens
    };
    if fits(w, h) {
        return (w, h);
    }
    if h > w {
        let (rh, rw) = claude_resized(h, w, max_edge, max_tokens);
        return (rw, rh);
    }
    let aspect = w as f64 / h as f64;
    let other = |side: u64| ((side as f64 / aspect).round_ties_even() as u64).max(1);
    let (mut lo, mut hi) = (1u64, w);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if fits(mid, other(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, other(lo))
}

/// The band of an image whose size is not known (a URL, a file id, a header that cannot be read): the rule's
/// documented floor to its documented ceiling.
pub(crate) fn image_band(rule: ImageRule, detail: Option<&str>) -> Priced {
    match rule {
        ImageRule::OpenAiTile { base, tile } => {
            if detail == Some("low") {
                Priced::exact(base as u64)
            } else {
                // One tile to the 768 × 2048 most (2 × 4 tiles).
                Priced::band(base as u64 + tile as u64, base as u64 + 8 * tile as u64)
            }
        }
        ImageRule::OpenAiPatch { budget, multiplier } => {
            let most = match (detail, budget) {
                (Some("original"), _) | (_, None) => 10_000,
                (_, Some(b)) => b as u64,
            };
            Priced::band(
                multiplier.ceil() as u64,
                (most as f64 * multiplier).ceil() as u64,
            )
        }
        ImageRule::Anthropic { max_tokens, .. } => Priced::band(1, max_tokens as u64),
        // 258 for a small image; the media-resolution page's "256 + Pan & Scan (~2048)" for a large one.
        ImageRule::GeminiTiles => Priced::band(258, 2304),
        ImageRule::Fixed { tokens } => Priced::exact(tokens as u64),
    }
}

/// How a model family prices a PDF: per page, a band.
pub(crate) fn pdf_page(api: &str, model: &str, resolution: Option<&str>) -> (Priced, u64) {
    let m = model.to_ascii_lowercase();
    match api {
        "anthropic" => {
            // Text "typically 1,500-3,000 tokens per page", plus the page as an image: up to the tier's ceiling.
            let max_tokens = match image_rule(api, model, None) {
                ImageRule::Anthropic { max_tokens, .. } => max_tokens,
                _ => 1568,
            };
            // At most 100 pages when the context window is under a million tokens (600 above it).
            (Priced::band(1_500, 3_000 + max_tokens as u64), 100)
        }
        "gemini" => {
            let per = if m.contains("gemini-3") {
                match level(resolution).as_deref() {
                    Some("low") => 280,
                    Some("high") => 1120,
                    _ => 560,
                }
            } else {
                258
            };
            (Priced::exact(per), 1_000)
        }
        _ => {
            // Extracted text and one image per page; OpenAI documents no per-page figure, so the band runs from
            // a low-detail page image alone to a dense page's text (3,000, as Anthropic's typical high) with a
            // high-detail image.
            let (low, high) = match openai_rule(&m) {
                ImageRule::OpenAiTile { base, tile } => {
                    (base as u64, 3_000 + (base + 8 * tile) as u64)
                }
                rule => {
                    let b = image_band(rule, Some("high"));
                    (b.low, 3_000 + b.high)
                }
            };
            (Priced::band(low, high), 100)
        }
    }
}

/// Audio tokens per second for a model family, and the longest clip it takes (seconds).
pub(crate) fn audio_rate(api: &str, model: &str) -> (u64, u64) {
    match api {
        "gemini" if model.to_ascii_lowercase().contains("gemini-3") => (25, 34_200),
        // 32 per second; at most 9.5 hours per prompt.
        "gemini" => (32, 34_200),
        // The Realtime API's documented 1 token per 100 ms of user audio; a clip of at most an hour.
        _ => (10, 3_600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GPT4O: ImageRule = ImageRule::OpenAiTile {
        base: 85,
        tile: 170,
    };
    const CLAUDE: ImageRule = ImageRule::Anthropic {
        max_edge: 1568,
        max_tokens: 1568,
    };
    const CLAUDE_HIGH: ImageRule = ImageRule::Anthropic {
        max_edge: 2576,
        max_tokens: 4784,
    };

    #[test]
    fn openai_tile_worked_examples() {
        // "Cost calculation examples (for gpt-4o)".
        assert_eq!(image_tokens(GPT4O, 1024, 1024, Some("high")), 765);
        assert_eq!(image_tokens(GPT4O, 2048, 4096, Some("high")), 1105);
        assert_eq!(image_tokens(GPT4O, 4096, 8192, Some("low")), 85);
        // Auto or omitted: priced as high (the ten 1024² images at 765 each).
        assert_eq!(image_tokens(GPT4O, 1024, 1024, None), 765);
        // gpt-4o-mini's constants.
        let mini = image_rule("openai", "gpt-4o-mini-2024-07-18", None);
        assert_eq!(image_tokens(mini, 1024, 1024, None), 2833 + 4 * 5667);
        assert_eq!(image_tokens(mini, 1024, 1024, Some("low")), 2833);
        assert_eq!(
            image_rule("openai", "o3", None),
            ImageRule::OpenAiTile {
                base: 75,
                tile: 150
            }
        );
        assert_eq!(
            image_rule("openai", "gpt-5-chat-latest", None),
            ImageRule::OpenAiTile {
                base: 70,
                tile: 140
            }
        );
        assert_eq!(image_rule("openai", "openai/gpt-4.1", None), GPT4O);
    }

    #[test]
    fn openai_patch_worked_examples() {
        // "Cost calculation examples for a model with a 1,536-patch budget".
        let one = ImageRule::OpenAiPatch {
            budget: Some(1536),
            multiplier: 1.0,
        };
        assert_eq!(image_tokens(one, 1024, 1024, None), 1024);
        assert_eq!(image_tokens(one, 1800, 2400, None), 1452);
        // The multipliers: 1024 patches on gpt-4.1-mini (×1.62), gpt-4.1-nano (×2.46), o4-mini (×1.72).
        let at = |m: &str| image_tokens(image_rule("openai", m, None), 1024, 1024, None);
        assert_eq!(at("gpt-4.1-mini"), 1659);
        assert_eq!(at("gpt-4.1-nano-2025-04-14"), 2520);
        assert_eq!(at("o4-mini"), 1762);
    }

    #[test]
    fn anthropic_worked_examples() {
        // The vision page's table: size → standard tier, high-resolution tier.
        for (w, h, standard, high) in [
            (200, 200, 64, 64),
            (1000, 1000, 1296, 1296),
            (1092, 1092, 1521, 1521),
            (1920, 1080, 1560, 2691),
            (2000, 1500, 1564, 3888),
            (3840, 2160, 1560, 4784),
        ] {
            assert_eq!(image_tokens(CLAUDE, w, h, None), standard, "{w}x{h}");
            assert_eq!(image_tokens(CLAUDE_HIGH, w, h, None), high, "{w}x{h}");
        }
        // The resized sizes the table and the coordinates page give.
        assert_eq!(claude_resized(1920, 1080, 1568, 1568), (1456, 819));
        assert_eq!(claude_resized(3840, 2160, 2576, 4784), (2576, 1449));
        assert_eq!(claude_resized(1075, 1520, 1568, 1568), (924, 1307));
        assert_eq!(
            image_rule("anthropic", "claude-opus-4-7", None),
            CLAUDE_HIGH
        );
        assert_eq!(image_rule("anthropic", "claude-sonnet-4-5", None), CLAUDE);
    }

    #[test]
    fn gemini_worked_examples() {
        let g2 = image_rule("gemini", "gemini-2.5-flash", None);
        assert_eq!(image_tokens(g2, 384, 384, None), 258);
        // 960 × 540: a crop unit of 360, 3 × 2 tiles.
        assert_eq!(image_tokens(g2, 960, 540, None), 6 * 258);
        assert_eq!(
            image_tokens(
                image_rule("gemini", "gemini-2.5-pro", Some("MEDIA_RESOLUTION_LOW")),
                4000,
                3000,
                None
            ),
            64
        );
        assert_eq!(
            image_tokens(
                image_rule("gemini", "gemini-2.5-pro", Some("media_resolution_medium")),
                4000,
                3000,
                None
            ),
            256
        );
        for (res, t) in [
            (None, 1120),
            (Some("MEDIA_RESOLUTION_LOW"), 280),
            (Some("MEDIA_RESOLUTION_MEDIUM"), 560),
            (Some("MEDIA_RESOLUTION_HIGH"), 1120),
            (Some("MEDIA_RESOLUTION_ULTRA_HIGH"), 2240),
        ] {
            assert_eq!(
                image_tokens(
                    image_rule("gemini", "gemini-3-pro-preview", res),
                    640,
                    480,
                    None
                ),
                t
            );
        }
        // Audio: 1 minute is 1,920 tokens (2.x); 25 a second on Gemini 3. PDF pages: 258 (2.x), 560 (Gemini 3).
        assert_eq!(audio_rate("gemini", "gemini-2.0-flash").0 * 60, 1_920);
        assert_eq!(audio_rate("gemini", "gemini-3-flash").0, 25);
        assert_eq!(
            pdf_page("gemini", "gemini-2.5-flash", None).0,
            Priced::exact(258)
        );
        assert_eq!(
            pdf_page("gemini", "gemini-3-pro", None).0,
            Priced::exact(560)
        );
        // Realtime audio: 2 s of user audio is 20 tokens.
        assert_eq!(audio_rate("openai", "gpt-4o-audio-preview").0 * 2, 20);
    }

    #[test]
    fn the_unknown_size_band_holds_every_size() {
        let rules = [
            GPT4O,
            ImageRule::OpenAiTile {
                base: 2833,
                tile: 5667,
            },
            ImageRule::OpenAiPatch {
                budget: Some(1536),
                multiplier: 1.62,
            },
            CLAUDE,
            CLAUDE_HIGH,
            ImageRule::Fixed { tokens: 1120 },
        ];
        let sizes = [
            1u32, 7, 28, 100, 383, 384, 385, 511, 512, 513, 767, 768, 769, 1024, 1568, 1569, 2048,
            2049, 4096, 8000,
        ];
        for r in rules {
            for detail in [None, Some("low"), Some("high")] {
                let b = image_band(r, detail);
                for &w in &sizes {
                    for &h in &sizes {
                        let t = image_tokens(r, w, h, detail);
                        assert!(
                            b.low <= t && t <= b.high,
                            "{r:?} {detail:?} {w}x{h}: {t} outside {b:?}"
                        );
                    }
                }
            }
        }
    }
}
