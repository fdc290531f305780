//! The few lines of hand-written SVG that the charts share (traffic's histogram and backtest trend, the drill's
//! chart): the opening tag and XML escaping. Charts are plain strings; no drawing crate.

/// Text escaped for an XML attribute or element.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The opening `<svg>` tag of a `w` × `h` chart in a sans-serif font of `font_size` pixels.
pub fn open(w: f64, h: f64, font_size: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"{font_size}\">"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_opens() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(
            open(720.0, 320.5, 12),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"320.5\" viewBox=\"0 0 720 320.5\" font-family=\"sans-serif\" font-size=\"12\">"
        );
    }
}
