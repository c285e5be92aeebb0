//! The load curve (the SIP document's figure): response-time percentiles against throughput,
//! one point per run (`compare --chart FILE --load-curve`: runs at increasing call rates).
//! Objectives on a percentile (`--slo p95<=50ms`) are dashed horizontal lines in the
//! percentile's colour; points over their objective are ringed in red.

use super::compare::run_color;
use super::{builder, nice_max, render, style_mesh, tick, titled, RenderError, Size, FONT};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// One point: the throughput (requests/s) and each percentile's value (ms), in the order of
/// the series names given to `load_curve`; None where the run has none.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadPoint {
    pub throughput: f64,
    pub values: Vec<Option<f64>>,
}

/// The series of percentiles `pcts` (`p50`, `p99`) and the objectives' limits on them.
pub fn series_of(
    objectives: &[crate::analyze::slo::Objective],
    pcts: &[u32],
) -> (Vec<String>, Vec<Limit>) {
    let limits = crate::analyze::compare::percentile_limits(objectives, pcts)
        .into_iter()
        .map(|(series, ms, text)| Limit { series, ms, text })
        .collect();
    (pcts.iter().map(|p| format!("p{p}")).collect(), limits)
}

/// An objective drawn: the series it limits (an index into the series names), its limit (ms)
/// and its text (`p95<=50ms`).
#[derive(Debug, Clone, PartialEq)]
pub struct Limit {
    pub series: usize,
    pub ms: f64,
    pub text: String,
}

/// Red of the rings around points over their objective.
pub const OVER: RGBColor = RGBColor(213, 0, 0);

/// Whether a point's value breaks its series' limits (over the lowest limit on it).
pub fn over(value: f64, series: usize, limits: &[Limit]) -> bool {
    limits
        .iter()
        .filter(|l| l.series == series)
        .any(|l| value > l.ms)
}

/// What a load curve shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve<'a> {
    pub title: &'a str,
    /// What a point's throughput is (over a run's span, or within an interval).
    pub x_desc: &'a str,
    /// The series' names (`p50`, `p95`), one per value of a point.
    pub series: &'a [String],
    pub points: &'a [LoadPoint],
    pub limits: &'a [Limit],
    /// Join each series' points (sorted by throughput) with a line: runs at increasing load.
    /// A single run's intervals are a cloud of points, which a line would only scribble over.
    pub connect: bool,
}

/// Draw the load curve into the PNG at `path`: each series (`p50`, `p95`) its colour, points
/// by throughput.
pub fn load_curve(path: &Path, c: &Curve, size: Size) -> Result<(), RenderError> {
    let (title, series, points, limits) = (c.title, c.series, c.points, c.limits);
    let mut pts: Vec<&LoadPoint> = points.iter().filter(|p| p.throughput.is_finite()).collect();
    pts.sort_by(|a, b| a.throughput.total_cmp(&b.throughput));
    render(path, size, |root, sc| {
        let area = titled(root, title, sc)?;
        let x_max = pts.iter().map(|p| p.throughput).fold(0.0, f64::max);
        let y_max = pts
            .iter()
            .flat_map(|p| p.values.iter().flatten())
            .copied()
            .chain(limits.iter().map(|l| l.ms))
            .fold(0.0, f64::max);
        let (xh, yh) = (
            nice_max(x_max * 1.05).max(1.0),
            nice_max(y_max * 1.1).max(1.0),
        );
        let mut chart = builder(&area, sc)
            .margin_right(sc.label * 2)
            .y_label_area_size(sc.label * 5)
            .build_cartesian_2d(0.0..xh, 0.0..yh)?;
        style_mesh(&mut chart.configure_mesh(), sc)
            .x_desc(c.x_desc)
            .y_desc("response time (ms)")
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .draw()?;
        let r = (sc.label / 4).max(3) as i32;
        let mut labels: Vec<(String, RGBColor, i32, i32)> = Vec::new();
        for (s, name) in series.iter().enumerate() {
            let color = run_color(s);
            let line: Vec<(f64, f64)> = pts
                .iter()
                .filter_map(|p| Some((p.throughput, p.values.get(s).copied()??)))
                .collect();
            let width = if c.connect { 2 } else { 0 };
            chart
                .draw_series(LineSeries::new(
                    if c.connect { line.clone() } else { Vec::new() },
                    color.stroke_width(width),
                ))?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(3))
                });
            chart.draw_series(line.iter().map(|&p| Circle::new(p, r, color.filled())))?;
            chart.draw_series(
                line.iter()
                    .filter(|p| over(p.1, s, limits))
                    .map(|&p| Circle::new(p, r * 2, OVER.stroke_width(2))),
            )?;
            for l in limits.iter().filter(|l| l.series == s) {
                chart.draw_series(DashedLineSeries::new(
                    [(0.0, l.ms), (xh, l.ms)],
                    sc.label / 2,
                    sc.label / 3,
                    color.stroke_width(2),
                ))?;
                let n = line.iter().filter(|p| p.1 > l.ms).count();
                let (x, y) = chart.backend_coord(&(xh * 0.01, l.ms));
                labels.push((
                    format!("{}: {n} of {} over", l.text, line.len()),
                    color,
                    x,
                    y,
                ));
            }
        }
        // Each limit's label sits on its line; one whose line is too near the one below to
        // hold both is raised above it (p50<=20 and p95<=25 were printed over each other).
        let font = sc.label * 4 / 5;
        labels.sort_by_key(|l| std::cmp::Reverse(l.3));
        let mut lowest = i32::MAX;
        for (text, color, x, y) in labels {
            let y = y.min(lowest);
            root.draw(&Text::new(
                text,
                (x, y),
                (FONT, font)
                    .into_font()
                    .color(&color)
                    .pos(Pos::new(HPos::Left, VPos::Bottom)),
            ))?;
            lowest = y - font as i32 - 2;
        }
        super::legend_inside(&mut chart, sc, SeriesLabelPosition::UpperLeft)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_over_their_own_series_limit() {
        let l = [Limit {
            series: 1,
            ms: 50.0,
            text: "p95<=50ms".into(),
        }];
        assert!(over(50.1, 1, &l));
        assert!(!over(50.0, 1, &l));
        assert!(!over(99.0, 0, &l));
    }
}
