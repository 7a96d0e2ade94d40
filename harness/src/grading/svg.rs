//! Small self-contained SVG charts for the HTML report: a line chart (one line per entrant over
//! the parameter values) and a bar chart. Plain SVG elements, no scripts, no external files.

use std::fmt::Write as _;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 360.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// Escapes text for XML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A round upper bound for the y axis and its tick step.
fn axis(max: f64) -> (f64, f64) {
    if !(max.is_finite() && max > 0.0) {
        return (1.0, 0.25);
    }
    let raw = max / 4.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    ((max / step).ceil() * step, step)
}

struct Frame {
    out: String,
    x: Vec<f64>,
    top: f64,
}

impl Frame {
    fn new(title: &str, y_label: &str, x_labels: &[String], y_max: f64) -> Frame {
        let (top, step) = axis(y_max);
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{t}"><title>{t}</title><rect width="{WIDTH}" height="{HEIGHT}" fill="white"/><text x="{cx}" y="22" text-anchor="middle" font-size="16" font-family="sans-serif">{t}</text>"#,
            t = escape(title),
            cx = (LEFT + WIDTH - RIGHT) / 2.0
        );
        let plot_bottom = HEIGHT - BOTTOM;
        let mut tick = 0.0;
        while tick <= top + step / 2.0 {
            let y = plot_bottom - (plot_bottom - TOP) * tick / top;
            let _ = write!(
                out,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{x2}" y2="{y:.1}" stroke="#ddd"/><text x="{tx}" y="{ty:.1}" text-anchor="end" font-size="11" font-family="sans-serif">{label}</text>"##,
                x2 = WIDTH - RIGHT,
                tx = LEFT - 6.0,
                ty = y + 4.0,
                label = trim_number(tick)
            );
            tick += step;
        }
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{plot_bottom}" stroke="#333"/><line x1="{LEFT}" y1="{plot_bottom}" x2="{x2}" y2="{plot_bottom}" stroke="#333"/><text transform="translate(16,{my}) rotate(-90)" text-anchor="middle" font-size="12" font-family="sans-serif">{yl}</text>"##,
            x2 = WIDTH - RIGHT,
            my = (TOP + plot_bottom) / 2.0,
            yl = escape(y_label)
        );
        let span = WIDTH - RIGHT - LEFT;
        let slot = span / x_labels.len().max(1) as f64;
        let x: Vec<f64> = (0..x_labels.len())
            .map(|i| LEFT + slot * (i as f64 + 0.5))
            .collect();
        for (label, &px) in x_labels.iter().zip(&x) {
            let _ = write!(
                out,
                r#"<text x="{px:.1}" y="{y}" text-anchor="middle" font-size="11" font-family="sans-serif">{l}</text>"#,
                y = plot_bottom + 18.0,
                l = escape(label)
            );
        }
        Frame { out, x, top }
    }

    fn y(&self, value: f64) -> f64 {
        let plot_bottom = HEIGHT - BOTTOM;
        plot_bottom - (plot_bottom - TOP) * (value / self.top).clamp(0.0, 1.0)
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

fn trim_number(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One line per series over the x labels (a single x value shows as points).
pub fn line_chart(
    title: &str,
    y_label: &str,
    x_labels: &[String],
    series: &[(String, Vec<f64>)],
) -> String {
    let max = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0f64, f64::max);
    let mut frame = Frame::new(title, y_label, x_labels, max);
    for (k, (name, values)) in series.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let points: Vec<String> = values
            .iter()
            .zip(&frame.x)
            .map(|(v, x)| format!("{x:.1},{:.1}", frame.y(*v)))
            .collect();
        let _ = write!(
            frame.out,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"><title>{}</title></polyline>"#,
            points.join(" "),
            escape(name)
        );
        for (v, x) in values.iter().zip(&frame.x) {
            let _ = write!(
                frame.out,
                r#"<circle cx="{x:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{}: {}</title></circle>"#,
                frame.y(*v),
                escape(name),
                trim_number(*v)
            );
        }
        let ly = TOP + 16.0 * k as f64;
        let _ = write!(
            frame.out,
            r#"<rect x="{lx}" y="{ry:.1}" width="12" height="12" fill="{colour}"/><text x="{tx}" y="{ty:.1}" font-size="12" font-family="sans-serif">{}</text>"#,
            escape(name),
            lx = WIDTH - RIGHT + 14.0,
            ry = ly,
            tx = WIDTH - RIGHT + 32.0,
            ty = ly + 10.0
        );
    }
    frame.finish()
}

/// One bar per x label.
pub fn bar_chart(title: &str, y_label: &str, x_labels: &[String], values: &[f64]) -> String {
    let max = values.iter().copied().fold(0.0f64, f64::max);
    let mut frame = Frame::new(title, y_label, x_labels, max);
    let slot = (WIDTH - RIGHT - LEFT) / x_labels.len().max(1) as f64;
    let bottom = HEIGHT - BOTTOM;
    for (v, x) in values.iter().zip(frame.x.clone()) {
        let y = frame.y(*v);
        let _ = write!(
            frame.out,
            r##"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="#4c78a8"><title>{}</title></rect>"##,
            x - slot * 0.3,
            slot * 0.6,
            bottom - y,
            trim_number(*v)
        );
    }
    frame.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_round_up() {
        assert_eq!(axis(100.0), (100.0, 25.0));
        assert_eq!(axis(7.0), (8.0, 2.0));
        assert_eq!(axis(0.0), (1.0, 0.25));
    }

    #[test]
    fn charts_escape_names_and_draw_every_point() {
        let svg = line_chart(
            "Win % <by> n",
            "%",
            &["n=1".into(), "n=2".into()],
            &[
                ("a&b".into(), vec![10.0, 90.0]),
                ("c".into(), vec![50.0, 50.0]),
            ],
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains("a&amp;b") && svg.contains("Win % &lt;by&gt; n"));
        let bars = bar_chart("Draws", "games", &["x".into()], &[3.0]);
        assert_eq!(bars.matches("fill=\"#4c78a8\"").count(), 1);
    }
}
