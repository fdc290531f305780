//! Images, documents and audio in a request body, priced from the bytes it carries: the size from an image's
//! header, a PDF's page count, a clip's duration, each turned into tokens by the provider's documented rule for the
//! model ([`price`]). Base64 is decoded only where a header is read ([`source`]), so a 20 MB image costs what a
//! 20 KB one does. A part whose bytes are not there (a URL, a file id) or cannot be read is priced as a band from
//! the rule's documented floor to its ceiling, and marked unmeasured, so a conservative verdict never rests on a
//! lower bound.

mod document;
mod image;
pub(crate) mod price;
mod source;

pub use image::ImageFormat;
pub use price::ImageRule;

use price::Priced;
use serde::Serialize;
pub(crate) use source::decode_all as decode_base64;
use source::Base64;

/// What kind of media a part is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MediaKind {
    /// An image.
    Image,
    /// A PDF document.
    Document,
    /// An audio clip.
    Audio,
}

/// One media part of a request and what it was priced at.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MediaPart {
    /// Where it is in the body (a JSON pointer).
    pub pointer: String,
    /// Image, document or audio.
    pub kind: MediaKind,
    /// `base64` (measured from its bytes), `url` or `file` (not there to measure).
    pub source: &'static str,
    /// The format its bytes are in (`png`, `jpeg`, `pdf`, `wav`, ...), when read.
    pub format: Option<String>,
    /// Width and height in pixels as displayed (an image whose header was read).
    pub width: Option<u32>,
    /// Height in pixels.
    pub height: Option<u32>,
    /// Pages (a PDF whose pages were counted).
    pub pages: Option<u64>,
    /// Duration in milliseconds (an audio clip whose header was read).
    pub duration_ms: Option<u64>,
    /// Tokens at the point estimate.
    pub tokens: u64,
    /// The band's low end.
    pub low: u64,
    /// The band's high end.
    pub high: u64,
    /// The rule it was priced by (`openai_tile`, `openai_patch`, `anthropic`, `gemini_tiles`, `fixed`,
    /// `pdf_pages`, `audio_seconds`).
    pub rule: &'static str,
    /// Whether its bytes were read (size, pages or duration known); `false`: priced as the rule's documented band.
    pub measured: bool,
}

/// Where a part's bytes are.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Data<'a> {
    /// Base64 text (a `data:` URL's payload, or a base64 member).
    Base64(&'a str),
    /// A URL or a file id: nothing to measure.
    Elsewhere(&'static str),
}

impl<'a> Data<'a> {
    /// What [`MediaPart::source`] says of it: `base64`, `url` or `file`.
    fn source(&self) -> &'static str {
        match self {
            Data::Base64(_) => "base64",
            Data::Elsewhere(s) => s,
        }
    }

    /// A URL member: a base64 `data:` URL's payload, else elsewhere.
    pub(crate) fn url(u: &'a str) -> Data<'a> {
        match u.strip_prefix("data:").and_then(|r| r.split_once(',')) {
            Some((meta, payload)) if meta.ends_with(";base64") => Data::Base64(payload),
            _ => Data::Elsewhere("url"),
        }
    }
}

/// How the body's API and model price media.
#[derive(Debug, Clone)]
pub(crate) struct Pricing {
    /// `openai`, `anthropic` or `gemini`.
    pub api: &'static str,
    /// The body's model (empty: the family's default rule).
    pub model: String,
    /// Gemini's `media_resolution` for the whole request.
    pub resolution: Option<String>,
}

fn rule_name(r: ImageRule) -> &'static str {
    match r {
        ImageRule::OpenAiTile { .. } => "openai_tile",
        ImageRule::OpenAiPatch { .. } => "openai_patch",
        ImageRule::Anthropic { .. } => "anthropic",
        ImageRule::GeminiTiles => "gemini_tiles",
        ImageRule::Fixed { .. } => "fixed",
    }
}

impl Pricing {
    fn part(
        &self,
        pointer: String,
        kind: MediaKind,
        source: &'static str,
        p: Priced,
        rule: &'static str,
    ) -> MediaPart {
        MediaPart {
            pointer,
            kind,
            source,
            format: None,
            width: None,
            height: None,
            pages: None,
            duration_ms: None,
            tokens: p.tokens,
            low: p.low,
            high: p.high,
            rule,
            measured: false,
        }
    }

    /// An image; `detail` is OpenAI's, `resolution` a part's own Gemini `media_resolution`.
    pub(crate) fn image(
        &self,
        pointer: String,
        data: Data<'_>,
        detail: Option<&str>,
        resolution: Option<&str>,
    ) -> MediaPart {
        let rule = price::image_rule(
            self.api,
            &self.model,
            resolution.or(self.resolution.as_deref()),
        );
        let name = rule_name(rule);
        let size = match data {
            Data::Base64(t) => image::dimensions(&Base64::new(t)),
            Data::Elsewhere(_) => None,
        };
        let source = data.source();
        match size {
            Some((format, w, h)) => {
                let t = price::image_tokens(rule, w, h, detail);
                let mut part = self.part(pointer, MediaKind::Image, source, Priced::exact(t), name);
                part.format = Some(format.name().into());
                part.width = Some(w);
                part.height = Some(h);
                part.measured = true;
                part
            }
            None => {
                let band = price::image_band(rule, detail);
                // A fixed-cost rule needs no bytes: it is priced exactly.
                let mut part = self.part(pointer, MediaKind::Image, source, band, name);
                part.measured = band.low == band.high;
                part
            }
        }
    }

    /// A PDF.
    pub(crate) fn pdf(&self, pointer: String, data: Data<'_>) -> MediaPart {
        let (per, max_pages) = price::pdf_page(self.api, &self.model, self.resolution.as_deref());
        let pages = match data {
            Data::Base64(t) => document::pdf_pages(&Base64::new(t)),
            Data::Elsewhere(_) => None,
        };
        let source = data.source();
        match pages {
            Some(n) => {
                let p = Priced {
                    tokens: per.tokens * n,
                    low: per.low * n,
                    high: per.high * n,
                };
                let mut part = self.part(pointer, MediaKind::Document, source, p, "pdf_pages");
                part.format = Some("pdf".into());
                part.pages = Some(n);
                part.measured = true;
                part
            }
            // One page to the most pages a request may carry; the point is one page (a length cannot be guessed).
            None => {
                let p = Priced {
                    tokens: per.tokens,
                    low: per.low,
                    high: per.high * max_pages,
                };
                self.part(pointer, MediaKind::Document, source, p, "pdf_pages")
            }
        }
    }

    /// An audio clip.
    pub(crate) fn audio(&self, pointer: String, data: Data<'_>) -> MediaPart {
        let (rate, max_s) = price::audio_rate(self.api, &self.model);
        let (ms, format) = match data {
            Data::Base64(t) => {
                let s = Base64::new(t);
                let format = match source::array::<4>(&s, 0) {
                    Some(h) if &h == b"RIFF" => "wav",
                    _ => "mp3",
                };
                (document::audio_ms(&s), format)
            }
            Data::Elsewhere(_) => (None, ""),
        };
        let source = data.source();
        match ms {
            Some(ms) => {
                let t = (ms * rate).div_ceil(1000);
                let mut part = self.part(
                    pointer,
                    MediaKind::Audio,
                    source,
                    Priced::exact(t),
                    "audio_seconds",
                );
                part.format = Some(format.into());
                part.duration_ms = Some(ms);
                part.measured = true;
                part
            }
            None => {
                let p = Priced {
                    tokens: rate,
                    low: 0,
                    high: rate * max_s,
                };
                self.part(pointer, MediaKind::Audio, source, p, "audio_seconds")
            }
        }
    }
}

/// For the fuzz targets and the benchmark: the header readers on raw or base64 bytes, and how much they read.
#[doc(hidden)]
pub mod probe {
    pub use super::image::ImageFormat;
    use super::source::{Base64, Raw, Source};

    /// An image's format and displayed size from raw bytes, and the bytes read.
    pub fn image(bytes: &[u8]) -> (Option<(ImageFormat, u32, u32)>, usize) {
        let s = Raw::new(bytes);
        (super::image::dimensions(&s), s.bytes_read())
    }

    /// The same from base64 text.
    pub fn image_base64(text: &str) -> (Option<(ImageFormat, u32, u32)>, usize) {
        let s = Base64::new(text);
        (super::image::dimensions(&s), s.bytes_read())
    }

    /// Standard padded base64 of `bytes`.
    pub fn base64(bytes: &[u8]) -> String {
        super::source::encode(bytes)
    }

    /// A PDF's pages and an audio clip's duration (ms) from raw bytes.
    pub fn document(bytes: &[u8]) -> (Option<u64>, Option<u64>) {
        let s = Raw::new(bytes);
        (
            super::document::pdf_pages(&s),
            super::document::audio_ms(&s),
        )
    }
}
