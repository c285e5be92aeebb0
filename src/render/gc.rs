//! GC charts: pauses over time, heap over time, pause-duration histogram.

use super::{err, init_fonts, kind_color, nice_max, tick, RenderError, Scale, Size, FONT};
use crate::analyze::gc::{Band, ChartSeries as Series, HeapPoint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

fn x_desc(s: &Series) -> &'static str {
    if s.x_is_index {
        "collection number (the log has no time stamps)"
    } else {
        "time since JVM start (s)"
    }
}

fn x_range(s: &Series) -> (f64, f64) {
    let xs = s
        .pauses
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.0))
        .chain(s.heap.iter().map(|h| h.x));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.02).max(0.5);
    ((lo - pad).max(0.0), hi + pad)
}

/// Every stop-the-world pause as an impulse at its time, coloured by kind, the longest one
/// labelled. `log_y` plots log10(ms) with labels in ms.
pub fn pauses(
    path: &Path,
    title: &str,
    s: &Series,
    size: Size,
    log_y: bool,
) -> Result<(), RenderError> {
    init_fonts();
    let sc = Scale::of(size);
    let root = BitMapBackend::new(path, (size.width, size.height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(path, e))?;
    let (x0, x1) = x_range(s);
    let max = s
        .pauses
        .iter()
        .flat_map(|(_, v)| v.iter())
        .fold(None::<(f64, f64)>, |m, &(x, y)| match m {
            Some((_, my)) if my >= y => m,
            _ => Some((x, y)),
        });
    let ymax_ms = max.map_or(1.0, |m| m.1);
    let tr = |v: f64| if log_y { v.max(0.001).log10() } else { v };
    let (y0, y1) = if log_y {
        (
            -3.0f64.max(
                tr(s.pauses
                    .iter()
                    .flat_map(|(_, v)| v.iter().map(|p| p.1))
                    .fold(f64::INFINITY, f64::min))
                .floor(),
            ),
            tr(nice_max(ymax_ms)).ceil(),
        )
    } else {
        (0.0, nice_max(ymax_ms))
    };
    let caption = format!("{title} — GC pauses");
    let mut chart = ChartBuilder::on(&root)
        .caption(&caption, (FONT, sc.title))
        .margin(sc.label)
        .x_label_area_size(sc.label * 3)
        .y_label_area_size(sc.label * 4)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(path, e))?;
    let ylabel = |v: &f64| {
        if log_y {
            let ms = 10f64.powf(*v);
            if ms >= 1.0 {
                format!("{ms:.0}")
            } else {
                format!("{ms}")
            }
        } else {
            tick(v)
        }
    };
    chart
        .configure_mesh()
        .x_desc(x_desc(s))
        .y_desc(if log_y {
            "pause (ms, log scale)"
        } else {
            "pause (ms)"
        })
        .x_label_formatter(&tick)
        .y_label_formatter(&ylabel)
        .label_style((FONT, sc.label))
        .axis_desc_style((FONT, sc.desc))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(|e| err(path, e))?;
    let base = y0;
    for (kind, pts) in &s.pauses {
        let color = kind_color(kind);
        let n = pts.len();
        chart
            .draw_series(pts.iter().map(move |&(x, y)| {
                PathElement::new(vec![(x, base), (x, tr(y))], color.stroke_width(2))
            }))
            .map_err(|e| err(path, e))?
            .label(format!("{kind} ({n})"))
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled()));
    }
    if let Some((mx, my)) = max {
        let text = if s.x_is_index {
            format!("longest: {my:.1} ms (#{mx:.0})")
        } else {
            format!("longest: {my:.1} ms at {mx:.1} s")
        };
        chart
            .draw_series(std::iter::once(Circle::new(
                (mx, tr(my)),
                5,
                BLACK.filled(),
            )))
            .map_err(|e| err(path, e))?;
        let anchor = if mx > (x0 + x1) / 2.0 {
            // Keep the label inside the plot: right-aligned text left of the point.
            Pos::new(HPos::Right, VPos::Bottom)
        } else {
            Pos::new(HPos::Left, VPos::Bottom)
        };
        chart
            .draw_series(std::iter::once(Text::new(
                text,
                (mx, tr(my)),
                (FONT, sc.label)
                    .into_font()
                    .style(FontStyle::Bold)
                    .into_text_style(&root)
                    .pos(anchor),
            )))
            .map_err(|e| err(path, e))?;
    }
    if s.pauses.is_empty() {
        chart
            .draw_series(std::iter::once(Text::new(
                "no stop-the-world pauses in this log",
                ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
                (FONT, sc.desc)
                    .into_font()
                    .into_text_style(&root)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            )))
            .map_err(|e| err(path, e))?;
    } else {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, sc.label))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(path, e))?;
    }
    root.present().map_err(|e| err(path, e))
}

/// Heap occupancy before and after each collection, and the heap's capacity, over time.
pub fn heap(path: &Path, title: &str, s: &Series, size: Size) -> Result<(), RenderError> {
    init_fonts();
    let sc = Scale::of(size);
    let root = BitMapBackend::new(path, (size.width, size.height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(path, e))?;
    let (x0, x1) = x_range(s);
    let to_mb = |kb: f64| kb / 1024.0;
    let ymax = s
        .heap
        .iter()
        .flat_map(|h| [h.before, h.after, h.capacity])
        .flatten()
        .fold(0.0f64, f64::max);
    let caption = format!("{title} — heap");
    let mut chart = ChartBuilder::on(&root)
        .caption(&caption, (FONT, sc.title))
        .margin(sc.label)
        .x_label_area_size(sc.label * 3)
        .y_label_area_size(sc.label * 4)
        .build_cartesian_2d(x0..x1, 0.0..nice_max(to_mb(ymax)))
        .map_err(|e| err(path, e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc(s))
        .y_desc("heap (MB)")
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .label_style((FONT, sc.label))
        .axis_desc_style((FONT, sc.desc))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(|e| err(path, e))?;
    let cap = RGBColor(120, 120, 120);
    let before = RGBColor(213, 94, 0);
    let after = RGBColor(0, 114, 178);
    let series = |f: fn(&HeapPoint) -> Option<f64>| -> Vec<(f64, f64)> {
        s.heap
            .iter()
            .filter_map(|h| f(h).map(|v| (h.x, to_mb(v))))
            .collect()
    };
    let caps = series(|h| h.capacity);
    let befores = series(|h| h.before);
    let afters = series(|h| h.after);
    let mut any = false;
    if !caps.is_empty() {
        any = true;
        chart
            .draw_series(LineSeries::new(caps, cap.stroke_width(2)))
            .map_err(|e| err(path, e))?
            .label("capacity")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], cap.stroke_width(3)));
    }
    if !befores.is_empty() {
        any = true;
        chart
            .draw_series(befores.iter().map(|&p| Circle::new(p, 3, before.filled())))
            .map_err(|e| err(path, e))?
            .label("used before GC")
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, before.filled()));
    }
    if !afters.is_empty() {
        any = true;
        chart
            .draw_series(LineSeries::new(afters, after.stroke_width(2)))
            .map_err(|e| err(path, e))?
            .label("used after GC")
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], after.stroke_width(3))
            });
    }
    if any {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font((FONT, sc.label))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(path, e))?;
    } else {
        chart
            .draw_series(std::iter::once(Text::new(
                "this log has no heap figures",
                ((x0 + x1) / 2.0, nice_max(to_mb(ymax)) / 2.0),
                (FONT, sc.desc)
                    .into_font()
                    .into_text_style(&root)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            )))
            .map_err(|e| err(path, e))?;
    }
    root.present().map_err(|e| err(path, e))
}

/// Pause counts per duration band (bars), the count written on each bar.
pub fn histogram(
    path: &Path,
    title: &str,
    bands: &[Band],
    size: Size,
    log_y: bool,
) -> Result<(), RenderError> {
    init_fonts();
    let sc = Scale::of(size);
    let root = BitMapBackend::new(path, (size.width, size.height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(path, e))?;
    let maxc = bands.iter().map(|b| b.count).max().unwrap_or(0) as f64;
    let tr = |c: f64| if log_y { (c + 1.0).log10() } else { c };
    let y1 = if log_y {
        tr(nice_max(maxc.max(1.0))).ceil().max(1.0)
    } else {
        nice_max(maxc.max(1.0))
    };
    let n = bands.len().max(1);
    let caption = format!("{title} — pause durations");
    let mut chart = ChartBuilder::on(&root)
        .caption(&caption, (FONT, sc.title))
        .margin(sc.label)
        .x_label_area_size(sc.label * 3)
        .y_label_area_size(sc.label * 4)
        .build_cartesian_2d(0.0..n as f64, 0.0..y1)
        .map_err(|e| err(path, e))?;
    let xlabel = |v: &f64| {
        let i = v.floor() as usize;
        if (v - i as f64 - 0.5).abs() < 1e-9 {
            bands.get(i).map(|b| b.label.clone()).unwrap_or_default()
        } else {
            String::new()
        }
    };
    let ylabel = |v: &f64| {
        if log_y {
            format!("{:.0}", 10f64.powf(*v) - 1.0)
        } else {
            tick(v)
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(2 * n + 1)
        .x_label_formatter(&xlabel)
        .y_label_formatter(&ylabel)
        .x_desc("pause duration (ms)")
        .y_desc(if log_y {
            "pauses (log scale)"
        } else {
            "pauses"
        })
        .label_style((FONT, sc.label))
        .axis_desc_style((FONT, sc.desc))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(|e| err(path, e))?;
    let bar = RGBColor(0, 114, 178);
    chart
        .draw_series(bands.iter().enumerate().map(|(i, b)| {
            Rectangle::new(
                [
                    (i as f64 + 0.15, 0.0),
                    (i as f64 + 0.85, tr(b.count as f64)),
                ],
                bar.filled(),
            )
        }))
        .map_err(|e| err(path, e))?;
    chart
        .draw_series(bands.iter().enumerate().map(|(i, b)| {
            Text::new(
                format!("{} ({:.1}%)", b.count, b.share_pct),
                (i as f64 + 0.5, tr(b.count as f64)),
                (FONT, sc.label)
                    .into_font()
                    .into_text_style(&root)
                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
            )
        }))
        .map_err(|e| err(path, e))?;
    root.present().map_err(|e| err(path, e))
}
