//! The SVG charts of the tournament report and the replay viewer, drawn with plotters. Text is
//! left to the browser (no font files): the SVG names a generic family.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde_json::{json, Value};

/// Seats' and entrants' colours, distinguishable in colour and in grey; the viewer's page
/// receives them (`Agon.colours`), so its board and its chart agree.
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

/// The viewer's chart of each seat's game score over the plies: its SVG, with a cursor line `#chart-cursor`, and its plot area's left and right
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

/// A bar chart with categories along x (parameter values, puzzles, maps) and one bar per
/// series (entrant) in each, with a legend: no line joins values that are not a continuum.
pub fn grouped_bars(
    title: &str,
    y_label: &str,
    categories: &[String],
    series: &[(String, Vec<f64>)],
) -> String {
    let values = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .filter(|v| v.is_finite());
    let top = values.clone().fold(0.0f64, f64::max);
    let bottom = values.fold(0.0f64, f64::min);
    let top = if top <= bottom {
        bottom + 1.0
    } else {
        top + (top - bottom) * 0.08
    };
    let rows = series.len().div_ceil(3).max(1) as u32;
    let (width, height) = (560u32, 300 + 18 * rows);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let (plot, legend) = root.split_vertically(height - 18 * rows - 6);
        if let Some(mut chart) = categorical(&plot, title, y_label, categories.len(), bottom..top) {
            let k = series.len().max(1) as f64;
            let slot = 0.8 / k;
            for (s, (_, values)) in series.iter().enumerate() {
                let colour = COLOURS[s % COLOURS.len()];
                let bars = values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| v.is_finite())
                    .map(|(c, &v)| {
                        let x0 = c as f64 + 0.1 + slot * s as f64;
                        Rectangle::new(
                            [
                                (x0, bottom.max(0.0).min(v)),
                                (x0 + slot * 0.9, v.max(bottom.max(0.0))),
                            ],
                            colour.filled(),
                        )
                    });
                let _ = chart.draw_series(bars);
            }
            name_categories(&plot, &chart, categories, width, bottom);
        }
        for (s, (name, _)) in series.iter().enumerate() {
            let (col, row) = ((s % 3) as i32, (s / 3) as i32);
            let (x, y) = (60 + col * 165, 4 + row * 18);
            let colour = COLOURS[s % COLOURS.len()];
            let _ = legend.draw(&Rectangle::new(
                [(x, y + 2), (x + 12, y + 14)],
                colour.filled(),
            ));
            let style = ("sans-serif", 12).into_font().color(&BLACK);
            let _ = legend.draw(&Text::new(shorten(name, 22), (x + 18, y + 1), style));
        }
        let _ = root.present();
    }
    svg
}

/// Each entrant's rating as a dot with its 95% interval as a bar, best first.
pub fn intervals(title: &str, y_label: &str, items: &[(String, f64, f64, f64)]) -> String {
    let low = items.iter().map(|i| i.2).fold(f64::INFINITY, f64::min);
    let high = items.iter().map(|i| i.3).fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = if low.is_finite() && high > low {
        (low, high)
    } else {
        (0.0, 1.0)
    };
    let pad = (high - low) * 0.08;
    let (width, height) = (560u32, 300u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let y_range = (low - pad)..(high + pad);
        if let Some(mut chart) = categorical(&root, title, y_label, items.len(), y_range) {
            for (i, (_, mid, lo, hi)) in items.iter().enumerate() {
                let colour = COLOURS[i % COLOURS.len()];
                let x = i as f64 + 0.5;
                let _ = chart.draw_series(LineSeries::new(
                    [(x, *lo), (x, *hi)],
                    colour.stroke_width(3),
                ));
                let _ =
                    chart.draw_series(std::iter::once(Circle::new((x, *mid), 5, colour.filled())));
            }
            let names: Vec<String> = items.iter().map(|i| i.0.clone()).collect();
            name_categories(&root, &chart, &names, width, low - pad);
        }
        let _ = root.present();
    }
    svg
}

type Categorical<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart whose x axis holds `n` categories (slot `i` spans `i..i + 1`), with its y axis and
/// horizontal grid drawn; the categories are named by [`name_categories`].
fn categorical<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    title: &str,
    y_label: &str,
    n: usize,
    y: std::ops::Range<f64>,
) -> Option<Categorical<'a, 'b>> {
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 15))
        .margin(10)
        .x_label_area_size(34)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..n.max(1) as f64, y)
        .ok()?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE.mix(0.0))
        .x_labels(0)
        .y_desc(y_label)
        .label_style(("sans-serif", 11))
        .axis_desc_style(("sans-serif", 12))
        .draw()
        .ok()?;
    Some(chart)
}

/// Each category's name under its slot, shortened to fit the slot.
fn name_categories(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    chart: &Categorical<'_, '_>,
    names: &[String],
    width: u32,
    bottom: f64,
) {
    let room = ((width as usize).saturating_sub(70) / names.len().max(1) / 7).max(4);
    for (i, name) in names.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64 + 0.5, bottom));
        let style = ("sans-serif", 11)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top));
        let _ = area.draw(&Text::new(shorten(name, room), (x, y + 6), style));
    }
}

/// `text` cut to `room` characters with an ellipsis.
fn shorten(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        text.to_string()
    } else {
        let cut: String = text.chars().take(room.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_draws_a_line_per_seat_and_a_cursor_inside_the_plot() {
        let scores: Vec<Vec<f64>> = (0..50).map(|p| vec![p as f64, (p / 2) as f64]).collect();
        let (svg, area) = scores_over_time(&scores, "captures");
        for colour in ["#D23C3C", "#2F6FD0"] {
            let line = format!("<polyline fill=\"none\" opacity=\"1\" stroke=\"{colour}\"");
            assert_eq!(svg.matches(&line).count(), 1, "{colour}: {svg}");
        }
        assert!(
            svg.contains("chart-cursor") && svg.contains("\nply\n"),
            "{svg}"
        );
        let (left, right) = (
            area["left"].as_i64().unwrap(),
            area["right"].as_i64().unwrap(),
        );
        assert!(0 < left && left < right && right <= 420, "{area}");
    }

    #[test]
    fn grouped_bars_draw_a_bar_per_entrant_and_category_with_names() {
        let categories = vec![
            "a.map".to_string(),
            "b.map".to_string(),
            "c.map".to_string(),
        ];
        let series = vec![
            ("alpha <b>".to_string(), vec![1.0, 2.0, 3.0]),
            ("beta".to_string(), vec![0.5, 0.0, 4.0]),
        ];
        let svg = grouped_bars("Points", "points", &categories, &series);
        // Three bars and a legend swatch per entrant; no line joins the categories.
        for colour in ["#D23C3C", "#2F6FD0"] {
            assert_eq!(
                svg.matches(&format!("fill=\"{colour}\"")).count(),
                4,
                "{colour}: {svg}"
            );
            assert!(!svg.contains(&format!("stroke=\"{colour}\"")), "{svg}");
        }
        for text in [
            "\na.map\n",
            "\nc.map\n",
            "\nalpha &lt;b&gt;\n",
            "\nbeta\n",
            "\nPoints\n",
        ] {
            assert!(svg.contains(text), "{text}: {svg}");
        }
    }

    #[test]
    fn intervals_draw_a_dot_and_a_bar_per_entrant() {
        let items = vec![
            ("a".to_string(), 1600.0, 1500.0, 1700.0),
            ("b".to_string(), 1400.0, 1300.0, 1500.0),
        ];
        let svg = intervals("Rating", "Elo", &items);
        assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
        assert!(svg.contains("\na\n") && svg.contains("\nb\n"), "{svg}");
    }
}
