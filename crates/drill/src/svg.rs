//! The drill's chart: hand-written SVG, one polyline per series over time bins, with axes and a legend.

use crate::report::Report;
use llm_preflight::internals::svg::{escape as esc, open};
use std::fmt::Write;

const W: f64 = 860.0;
const H: f64 = 380.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 48.0;

/// The chart for a report.
pub(super) fn chart(r: &Report) -> String {
    let s = &r.series;
    let series: [(&str, &str, &Vec<u64>); 10] = [
        ("offered", "#333333", &s.offered),
        ("admitted", "#1f77b4", &s.admitted),
        ("queued", "#ff7f0e", &s.queued),
        ("shed", "#d62728", &s.shed),
        ("succeeded", "#2ca02c", &s.succeeded),
        ("refused_rate_limit", "#9467bd", &s.refused_rate_limit),
        ("refused_too_large", "#8c564b", &s.refused_too_large),
        ("refused_overloaded", "#e377c2", &s.refused_overloaded),
        ("refused_mid_stream", "#17becf", &s.refused_mid_stream),
        ("refused_other", "#7f7f7f", &s.refused_other),
    ];
    let bins = series
        .iter()
        .map(|(_, _, v)| v.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let ymax = series
        .iter()
        .flat_map(|(_, _, v)| v.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let x = |i: usize| LEFT + pw * (i as f64 + 0.5) / bins as f64;
    let y = |v: u64| TOP + ph - ph * v as f64 / ymax as f64;
    let mut o = String::new();
    let _ = writeln!(o, "{}", open(W, H, 11));
    let providers: Vec<String> = r
        .providers
        .iter()
        .map(|p| format!("{} {} TPM", p["name"].as_str().unwrap_or("?"), p["tpm"]))
        .collect();
    let title = format!(
        "llm-preflight drill ({}): load {}x, seed {}, {} ({} s bins)",
        r.mode,
        r.load,
        r.seed,
        providers.join(", "),
        s.bin_ms / 1000
    );
    let _ = writeln!(o, r#"<title>{}</title>"#, esc(&title));
    let _ = writeln!(
        o,
        r#"<rect x="0" y="0" width="{W}" height="{H}" fill="white"/>"#
    );
    let _ = writeln!(
        o,
        r#"<text x="{LEFT}" y="20" font-size="13">{}</text>"#,
        esc(&title)
    );
    // Axes and grid.
    let _ = writeln!(
        o,
        r##"<g stroke="#999999" fill="none"><line x1="{LEFT}" y1="{}" x2="{}" y2="{}"/><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{}"/></g>"##,
        TOP + ph,
        LEFT + pw,
        TOP + ph,
        TOP + ph
    );
    for k in 0..=4u64 {
        let v = ymax * k / 4;
        let yy = y(v);
        let _ = writeln!(
            o,
            r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#eeeeee"/><text x="{:.1}" y="{:.1}" text-anchor="end">{v}</text>"##,
            LEFT + pw,
            LEFT - 6.0,
            yy + 4.0
        );
    }
    let minutes = bins as f64 * s.bin_ms as f64 / 60_000.0;
    for k in 0..=4u64 {
        let frac = k as f64 / 4.0;
        let xx = LEFT + pw * frac;
        let _ = writeln!(
            o,
            r#"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{:.1} min</text>"#,
            TOP + ph + 16.0,
            minutes * frac
        );
    }
    let _ = writeln!(
        o,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">time (requests per bin)</text>"#,
        LEFT + pw / 2.0,
        H - 10.0
    );
    for (i, (name, color, v)) in series.iter().enumerate() {
        let mut pts = String::new();
        for (j, c) in v.iter().enumerate() {
            let _ = write!(pts, "{:.1},{:.1} ", x(j), y(*c));
        }
        let _ = writeln!(
            o,
            r#"<polyline id="{name}" fill="none" stroke="{color}" stroke-width="1.5" points="{}"/>"#,
            pts.trim_end()
        );
        let ly = TOP + 14.0 * i as f64;
        let total: u64 = v.iter().sum();
        let _ = writeln!(
            o,
            r#"<line x1="{:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{color}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{name} ({total})</text>"#,
            W - RIGHT + 12.0,
            W - RIGHT + 30.0,
            W - RIGHT + 36.0,
            ly + 4.0
        );
    }
    let f = &r.fallback_delay_ms;
    let x0 = W - RIGHT + 12.0;
    let ms = |v: Option<u64>| v.map_or("-".to_string(), |v| format!("{:.1} s", v as f64 / 1000.0));
    let _ = writeln!(
        o,
        r#"<text x="{x0:.1}" y="{:.1}">fallback delay ({}), p50/p90/max:</text><text x="{x0:.1}" y="{:.1}">{} / {} / {}</text>"#,
        TOP + 14.0 * series.len() as f64 + 28.0,
        f.count,
        TOP + 14.0 * series.len() as f64 + 42.0,
        ms(f.p50),
        ms(f.p90),
        ms(f.max)
    );
    let held = r.assertions.iter().filter(|a| a.held).count();
    let _ = writeln!(
        o,
        r#"<text x="{:.1}" y="{:.1}">assertions held: {held}/{}</text>"#,
        W - RIGHT + 12.0,
        TOP + 14.0 * series.len() as f64 + 10.0,
        r.assertions.len()
    );
    o.push_str("</svg>\n");
    o
}
