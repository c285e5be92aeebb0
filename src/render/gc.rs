//! GC charts: pauses over time, heap over time, pause-duration histogram.

use super::{
    bold, builder, kind_color, legend_inside, nice_max, note, render, style_mesh, thick_line, tick,
    titled, RenderError, Size, FONT,
};
use crate::analyze::gc::{ChartSeries as Series, HeapPoint};
use crate::analyze::Band;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// The time axis' unit: seconds for up to two hours, then hours, then days past two days
/// (a 5-day log labelled in seconds read 0 to 500000). `div` turns seconds into it.
#[derive(Clone, Copy)]
struct Unit {
    div: f64,
    name: &'static str,
}

fn unit(s: &Series) -> Unit {
    let (lo, hi) = x_range_s(s);
    let (div, name) = match hi - lo {
        _ if s.x_is_index => (1.0, ""),
        d if d > 2.0 * 86_400.0 => (86_400.0, "d"),
        d if d > 2.0 * 3_600.0 => (3_600.0, "h"),
        _ => (1.0, "s"),
    };
    Unit { div, name }
}

/// A time since JVM start as a reader says it: `73.5 s`, `12 min 05 s`, `5 h 03 min`,
/// `3 d 4 h` (in the axis' unit, the longest pause of a 5-day log at 73 s read `0.0 d`).
fn at_text(sec: f64) -> String {
    let t = sec.max(0.0);
    let whole = t.round() as u64;
    match t {
        _ if t < 120.0 => format!("{t:.1} s"),
        _ if t < 7_200.0 => format!("{} min {:02} s", whole / 60, whole % 60),
        _ if t < 172_800.0 => format!("{} h {:02} min", whole / 3_600, whole % 3_600 / 60),
        _ => format!("{} d {} h", whole / 86_400, whole % 86_400 / 3_600),
    }
}

fn x_desc(s: &Series, u: Unit) -> String {
    if s.x_is_index {
        "collection number (the log has no time stamps)".into()
    } else {
        format!("time since JVM start ({})", u.name)
    }
}

/// The x range in the axis' unit.
fn x_range(s: &Series, u: Unit) -> (f64, f64) {
    let (lo, hi) = x_range_s(s);
    (lo / u.div, hi / u.div)
}

fn x_range_s(s: &Series) -> (f64, f64) {
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
/// labelled. `log_y` plots log10(ms) with labels in ms. `target`: the pause target (ms) and
/// the pauses over it, drawn as a dashed horizontal line named in the legend.
pub fn pauses(
    path: &Path,
    title: &str,
    s: &Series,
    size: Size,
    log_y: bool,
    target: Option<(f64, u64)>,
) -> Result<(), RenderError> {
    render(path, size, |root, sc| {
        let u = unit(s);
        let (x0, x1) = x_range(s, u);
        let max =
            s.pauses
                .iter()
                .flat_map(|(_, v)| v.iter())
                .fold(None::<(f64, f64)>, |m, &(x, y)| match m {
                    Some((_, my)) if my >= y => m,
                    _ => Some((x / u.div, y)),
                });
        // The target stays in view above the pauses.
        let ymax_ms = max
            .map_or(1.0, |m| m.1)
            .max(target.map_or(0.0, |(t, _)| t * 1.05));
        let tr = |v: f64| if log_y { v.max(0.001).log10() } else { v };
        let (y0, y1) = if log_y {
            let shortest = s.pauses.iter().flat_map(|(_, v)| v.iter().map(|p| p.1));
            (
                log_floor(shortest.fold(f64::INFINITY, f64::min)),
                tr(nice_max(ymax_ms)).ceil(),
            )
        } else {
            (0.0, nice_max(ymax_ms))
        };
        let area = titled(root, &format!("{title} — GC pauses"), sc)?;
        let mut chart = builder(&area, sc).build_cartesian_2d(x0..x1, y0..y1)?;
        let ylabel = |v: &f64| {
            if log_y {
                // Whole decades only: on a short axis the mesh also puts ticks between them
                // (316, 0.31622776601683794).
                if (v - v.round()).abs() > 1e-9 {
                    return String::new();
                }
                let ms = 10f64.powf(v.round());
                if ms >= 1.0 {
                    format!("{ms:.0}")
                } else {
                    format!("{ms}")
                }
            } else {
                tick(v)
            }
        };
        style_mesh(&mut chart.configure_mesh(), sc)
            .x_desc(x_desc(s, u))
            .y_desc(if log_y {
                "pause (ms, log scale)"
            } else {
                "pause (ms)"
            })
            .x_label_formatter(&tick)
            .y_label_formatter(&ylabel)
            .draw()?;
        // The kinds with the longest pauses drawn first: a short pause's bar then stands over
        // the long ones at its time, where drawn after it was hidden (a dense log's full GCs
        // covered every young pause).
        let mut kinds: Vec<&(String, Vec<(f64, f64)>)> = s.pauses.iter().collect();
        let top = |v: &[(f64, f64)]| v.iter().map(|p| p.1).fold(0.0f64, f64::max);
        kinds.sort_by(|a, b| top(&b.1).total_cmp(&top(&a.1)));
        for (kind, pts) in kinds {
            let color = kind_color(kind);
            // Pauses in the log, not points drawn (a big log is drawn reduced).
            let n = s
                .counts
                .iter()
                .find(|(k, _)| k == kind)
                .map_or(pts.len() as u64, |(_, n)| *n);
            chart
                .draw_series(pts.iter().map(move |&(x, y)| {
                    let x = x / u.div;
                    PathElement::new(vec![(x, y0), (x, tr(y))], color.stroke_width(2))
                }))?
                .label(format!("{kind} ({n})"))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled())
                });
        }
        if let Some((t, over)) = target {
            let red = RGBColor(200, 30, 30);
            let y = tr(t);
            // Dashes drawn as short segments: the same pixels on every run.
            let step = (x1 - x0) / 120.0;
            let dashes = (0..120).step_by(2).map(move |i| {
                let a = x0 + step * f64::from(i);
                PathElement::new(vec![(a, y), (a + step, y)], red.stroke_width(2))
            });
            chart
                .draw_series(dashes)?
                .label(format!(
                    "pause target {} ms ({over} over)",
                    crate::analyze::clean(t)
                ))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 14, y)], red.stroke_width(2))
                });
        }
        // The longest pause in the right half: its label left of it, the legend upper left.
        let right_half = max.is_some_and(|(mx, _)| mx > (x0 + x1) / 2.0);
        if let Some((mx, my)) = max {
            let text = if s.x_is_index {
                format!("longest: {my:.1} ms (#{mx:.0})")
            } else {
                // On a seconds axis in seconds, as the axis reads.
                let at = if u.div == 1.0 {
                    format!("{mx:.1} s")
                } else {
                    at_text(mx * u.div)
                };
                format!("longest: {my:.1} ms at {at}")
            };
            chart.draw_series([Circle::new((mx, tr(my)), 5, BLACK.filled())])?;
            // Kept inside the plot: right-aligned text left of a point in the right half.
            let h = if right_half { HPos::Right } else { HPos::Left };
            chart.draw_series([Text::new(
                text,
                (mx, tr(my)),
                bold(sc.label)
                    .into_text_style(root)
                    .pos(Pos::new(h, VPos::Bottom)),
            )])?;
        }
        if s.pauses.is_empty() {
            note(&chart, "no stop-the-world pauses in this log", sc)?;
        } else {
            // The legend in the upper corner away from the longest pause and its label (at the
            // top of the plot), which it would cover.
            let corner = if right_half {
                SeriesLabelPosition::UpperLeft
            } else {
                SeriesLabelPosition::UpperRight
            };
            legend_inside(&mut chart, sc, corner)?;
        }
        Ok(())
    })
}

/// Heap occupancy before and after each collection, and the heap's capacity, over time.
pub fn heap(path: &Path, title: &str, s: &Series, size: Size) -> Result<(), RenderError> {
    render(path, size, |root, sc| {
        let u = unit(s);
        let (x0, x1) = x_range(s, u);
        let to_mb = |kb: f64| kb / 1024.0;
        let ymax = s
            .heap
            .iter()
            .flat_map(|h| [h.before, h.after, h.capacity])
            .flatten()
            .fold(0.0f64, f64::max);
        let area = titled(root, &format!("{title} — heap"), sc)?;
        let mut chart =
            builder(&area, sc).build_cartesian_2d(x0..x1, 0.0..nice_max(to_mb(ymax)))?;
        style_mesh(&mut chart.configure_mesh(), sc)
            .x_desc(x_desc(s, u))
            .y_desc("heap (MB)")
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .draw()?;
        // Lines as `thick_line`s: plotters' 2 px polylines join segments with mitres, and a
        // dense sawtooth's sharp turns sent spikes of "used after GC" below 0 MB, through
        // the axis title.
        let mut any = false;
        for (get, color, name, dots) in [
            (
                (|h: &HeapPoint| h.capacity) as fn(&HeapPoint) -> Option<f64>,
                RGBColor(120, 120, 120),
                "capacity",
                false,
            ),
            (|h| h.before, RGBColor(213, 94, 0), "used before GC", true),
            (|h| h.after, RGBColor(0, 114, 178), "used after GC", false),
        ] {
            let pts: Vec<(f64, f64)> = s
                .heap
                .iter()
                .filter_map(|h| get(h).map(|v| (h.x / u.div, to_mb(v))))
                .collect();
            if pts.is_empty() {
                continue;
            }
            any = true;
            let marks = pts
                .iter()
                .filter(|_| dots)
                .map(|&p| Circle::new(p, 3, color.filled()));
            if dots {
                chart
                    .draw_series(marks)?
                    .label(name)
                    .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
            } else {
                let px: Vec<_> = pts.iter().map(|p| chart.backend_coord(p)).collect();
                thick_line(root, &px, color, 2)?;
                chart.draw_series(marks)?.label(name).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(3))
                });
            }
        }
        if any {
            legend_inside(&mut chart, sc, SeriesLabelPosition::UpperLeft)?;
        } else {
            note(&chart, "this log has no heap figures", sc)?;
        }
        Ok(())
    })
}

/// Pause counts per duration band (bars), the count written on each bar.
pub fn histogram(
    path: &Path,
    title: &str,
    bands: &[Band],
    size: Size,
    log_y: bool,
) -> Result<(), RenderError> {
    render(path, size, |root, sc| {
        let maxc = bands.iter().map(|b| b.count).max().unwrap_or(0) as f64;
        let tr = |c: f64| if log_y { (c + 1.0).log10() } else { c };
        let top = nice_max(maxc.max(1.0));
        let y1 = if log_y { tr(top).ceil().max(1.0) } else { top };
        let n = bands.len().max(1);
        let area = titled(root, &format!("{title} — pause durations"), sc)?;
        let mut chart = builder(&area, sc).build_cartesian_2d(0.0..n as f64, 0.0..y1)?;
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
        style_mesh(&mut chart.configure_mesh(), sc)
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
            .draw()?;
        let bar = RGBColor(0, 114, 178);
        chart.draw_series(bands.iter().enumerate().map(|(i, b)| {
            Rectangle::new(
                [
                    (i as f64 + 0.15, 0.0),
                    (i as f64 + 0.85, tr(b.count as f64)),
                ],
                bar.filled(),
            )
        }))?;
        chart.draw_series(bands.iter().enumerate().map(|(i, b)| {
            Text::new(
                match b.share_pct {
                    Some(p) => format!("{} ({p:.1}%)", b.count),
                    None => b.count.to_string(),
                },
                (i as f64 + 0.5, tr(b.count as f64)),
                (FONT, sc.label)
                    .into_font()
                    .into_text_style(root)
                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
            )
        }))?;
        Ok(())
    })
}

/// Where a log-scale pause axis starts (log10 of ms): the decade below the shortest pause, so
/// that a pause on a decade (1 ms) is a bar one decade tall, not none; 0.001 ms at the lowest
/// and where there is no pause.
fn log_floor(shortest_ms: f64) -> f64 {
    let d = shortest_ms.max(0.001).log10().ceil() - 1.0;
    if d.is_finite() {
        d.max(-3.0)
    } else {
        -3.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The axis shows the decades the pauses are in (it started at 0.001 ms whatever they
    /// were: `-3.0f64.max(x)` is `-(3.0f64.max(x))`).
    #[test]
    fn a_log_pause_axis_starts_below_the_shortest_pause() {
        for (ms, floor) in [
            (1.0, -1.0),
            (2.0, 0.0),
            (10.0, 0.0),
            (0.5, -1.0),
            (20_000.0, 4.0),
            (0.0001, -3.0),
            (0.0, -3.0),
            (f64::INFINITY, -3.0),
        ] {
            assert_eq!(log_floor(ms), floor, "{ms} ms");
        }
    }

    #[test]
    fn times_read_in_the_unit_of_their_size() {
        assert_eq!(at_text(73.49), "73.5 s");
        assert_eq!(at_text(725.0), "12 min 05 s");
        assert_eq!(at_text(18_180.0), "5 h 03 min");
        assert_eq!(at_text(273_600.0), "3 d 4 h");
        let series = |x1: f64| Series {
            pauses: vec![("young".into(), vec![(0.0, 1.0), (x1, 2.0)])],
            ..Series::default()
        };
        // Up to two hours in seconds, then hours, then days past two days.
        assert_eq!(unit(&series(7_000.0)).name, "s");
        assert_eq!(unit(&series(100_000.0)).name, "h");
        let u = unit(&series(494_978.0));
        assert_eq!((u.name, u.div), ("d", 86_400.0));
        assert_eq!(x_desc(&series(494_978.0), u), "time since JVM start (d)");
    }
}
