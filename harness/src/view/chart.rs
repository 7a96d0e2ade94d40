//! The viewer's score chart: each seat's game score over the plies, drawn once with plotters;
//! the page moves only a cursor across it.

use plotters::prelude::*;
use serde_json::{json, Value};

/// The seats' colours, as the page's drawing modules use them (`Agon.colours` in viewer.js).
pub const COLOURS: [RGBColor; 8] = [
    RGBColor(0xd2, 0x3c, 0x3c),
    RGBColor(0x2f, 0x6f, 0xd0),
    RGBColor(0x2e, 0x9e, 0x4f),
    RGBColor(0xe0, 0xa2, 0x1b),
    RGBColor(0x8a, 0x4f, 0xc7),
    RGBColor(0x1b, 0xa6, 0xb0),
    RGBColor(0xe0, 0x60, 0x9e),
    RGBColor(0x6b, 0x6b, 0x6b),
];

/// The chart's SVG, with a cursor line `#chart-cursor`, and its plot area's left and right
/// edges in the SVG's pixels (the page places the cursor by ply within them).
pub fn scores_over_time(scores: &[Vec<f64>], y_label: &str) -> (String, Value) {
    let seats = scores.iter().map(Vec::len).max().unwrap_or(0);
    let last = scores.len().saturating_sub(1).max(1) as u32;
    let top = scores
        .iter()
        .flatten()
        .cloned()
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1.0);
    let bottom = scores
        .iter()
        .flatten()
        .cloned()
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::min);
    let (width, height) = (420u32, 180u32);
    let mut svg = String::new();
    let mut area = (0i32, 0i32, 0i32, 0i32);
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(0u32..last, bottom..top * 1.05);
        if let Ok(mut chart) = chart {
            let _ = chart
                .configure_mesh()
                .x_desc("ply")
                .y_desc(y_label)
                .label_style(("sans-serif", 11))
                .axis_desc_style(("sans-serif", 12))
                .light_line_style(WHITE.mix(0.0))
                .draw();
            for seat in 0..seats {
                let colour = COLOURS[seat % COLOURS.len()];
                let points = scores
                    .iter()
                    .enumerate()
                    .filter_map(|(ply, s)| s.get(seat).map(|&v| (ply as u32, v)))
                    .filter(|(_, v)| v.is_finite());
                let _ = chart.draw_series(LineSeries::new(points, colour.stroke_width(2)));
            }
            let (xs, ys) = chart.plotting_area().get_pixel_range();
            area = (xs.start, xs.end, ys.start, ys.end);
        }
        let _ = root.present();
    }
    let cursor = format!(
        r##"<line id="chart-cursor" x1="{l}" x2="{l}" y1="{t}" y2="{b}" stroke="#1d1f24" stroke-width="1.5" stroke-dasharray="3 3"/>"##,
        l = area.0,
        t = area.2,
        b = area.3
    );
    if let Some(end) = svg.rfind("</svg>") {
        svg.insert_str(end, &cursor);
    }
    (svg, json!({ "left": area.0, "right": area.1 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_draws_a_line_per_seat_and_a_cursor_inside_the_plot() {
        let scores: Vec<Vec<f64>> = (0..50).map(|p| vec![p as f64, (p / 2) as f64]).collect();
        let (svg, area) = scores_over_time(&scores, "captures");
        assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
        assert!(
            svg.contains("chart-cursor") && svg.contains(">ply<"),
            "{svg}"
        );
        let (left, right) = (
            area["left"].as_i64().unwrap(),
            area["right"].as_i64().unwrap(),
        );
        assert!(0 < left && left < right && right <= 420, "{area}");
    }
}
