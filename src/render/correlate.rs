//! The correlate chart: the two-hour chart (mean and p99 response time per interval on a log
//! axis, throughput on the right) with the slow requests as dots — highlighted where most of
//! a dot's requests overlap a GC pause — and the GC pauses in a strip under the plot on the same time axis
//! (bar height = pause duration, colour = kind); the longest pauses (over the slow threshold)
//! are also shaded across the plot, so a reader sees which spikes they line up with.

use super::perf::{duration_text, runs, TimeAxis, LATENCY_LINES, MEAN, P99, THROUGHPUT};
use super::{
    builder, kind_color, legend_row, nice_max, note, render, style_mesh, thick_line, tick, titled,
    Mark, RenderError, Size, Ticked, FONT,
};
use crate::analyze::correlate::ChartData;
use crate::analyze::perf::Interval;
use plotters::prelude::*;
use std::path::Path;

/// Slow requests overlapping a pause, and the others.
const HIT: RGBColor = RGBColor(148, 0, 211);
const MISS: RGBColor = RGBColor(150, 150, 150);
const SHADE: RGBColor = RGBColor(230, 159, 0);
/// Pauses shaded across the plot: the longest this many (if over the slow threshold).
const SHADED: usize = 30;
const KINDS: [&str; 8] = [
    "young",
    "mixed",
    "old",
    "full",
    "initial-mark",
    "remark",
    "cleanup",
    "other",
];

/// `0.1 ms`, `10 ms`, `1 s`, `10 s` for a log axis at powers of ten.
fn ms_label(log_v: &f64) -> String {
    let v = 10f64.powf(*log_v);
    if v >= 1000.0 {
        format!("{} s", tick(&((v / 1000.0 * 1e6).round() / 1e6)))
    } else {
        format!("{} ms", tick(&((v * 1e6).round() / 1e6)))
    }
}

pub fn chart(path: &Path, title: &str, d: &ChartData, size: Size) -> Result<(), RenderError> {
    render(path, size, |root, sc| {
        let iv = d.interval_ms.max(1);
        let area = titled(
            root,
            &format!(
                "{title} — GC pauses on the latency timeline (a point per {})",
                duration_text(iv)
            ),
            sc,
        )?;
        let mut legend = vec![
            (Mark::Line(MEAN), "mean (left)".to_string()),
            (Mark::Line(P99), "p99 (left)".to_string()),
            (Mark::Line(THROUGHPUT), "requests/s (right)".to_string()),
            (
                Mark::Bar(HIT),
                format!(
                    "slow requests overlapping a GC pause ({} of {})",
                    d.slow_with_gc, d.slow_requests
                ),
            ),
            (Mark::Bar(MISS), "slow requests without GC".to_string()),
        ];
        legend.extend(
            KINDS
                .iter()
                .filter(|k| d.pauses.iter().any(|p| p.kind == **k))
                .map(|k| (Mark::Bar(kind_color(k)), format!("{k} pause"))),
        );
        let area = legend_row(&area, &legend, sc)?;
        let (t0, t1) = match (d.intervals.first(), d.intervals.last()) {
            (Some(a), Some(b)) => (a.start_ms, b.start_ms + iv),
            _ => (0, iv),
        };
        let h = area.dim_in_pixel().1;
        let (top, bottom) = area.split_vertically((h as f64 * 0.70) as u32);
        // Ticks as the two-hour chart sets them: as many as their labels fit.
        let axis = TimeAxis::new(&area, sc, (t0, t1), iv.min(86_400_000).min(1000));
        let x = || axis.coord((t0, t1));
        // Response times on a log axis: the slow requests reach seconds while the mean sits
        // at milliseconds, and both must read.
        let ys = d
            .intervals
            .iter()
            .flat_map(|i| [i.total_ms_mean, i.total_ms_p99])
            .flatten()
            .chain(d.slow.iter().map(|s| s.total_ms))
            .chain(std::iter::once(d.slow_ms))
            .filter(|v| *v > 0.0);
        let (lo, hi) = ys.fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        let lo = if lo.is_finite() {
            lo.max(0.01).log10().floor()
        } else {
            0.0
        };
        let hi = (hi.max(10f64.powf(lo + 1.0)) * 1.5).log10();
        let mut y = Ticked::new(
            lo,
            hi,
            (lo as i32..=hi.floor() as i32).map(f64::from).collect(),
        );
        y.light = (lo as i32..=hi.floor() as i32)
            .flat_map(|k| [2.0f64, 5.0].map(|m| m.log10() + k as f64))
            .filter(|v| *v < hi && *v > lo)
            .collect();
        let to_y = |ms: f64| ms.max(10f64.powf(lo)).log10();
        let tp_max = d
            .intervals
            .iter()
            .filter_map(|r| r.throughput_per_s)
            .fold(0.0f64, f64::max);
        let right = sc.label * 4;
        let mut chart = builder(&top, sc)
            .x_label_area_size(0)
            .right_y_label_area_size(right)
            .build_cartesian_2d(x(), y)?
            .set_secondary_coord(t0 as f64..t1 as f64, 0.0..nice_max(tp_max));
        style_mesh(&mut chart.configure_mesh(), sc)
            .y_desc("response time (log)")
            .y_label_formatter(&ms_label)
            .x_label_formatter(&|_| String::new())
            .draw()?;
        chart
            .configure_secondary_axes()
            .y_desc("requests/s")
            .label_style((FONT, sc.label))
            .axis_desc_style((FONT, sc.desc))
            .y_label_formatter(&tick)
            .draw()?;
        // Long pauses shaded across the plot, at least a pixel wide.
        let px_ms = (t1 - t0) as f64 / chart.plotting_area().dim_in_pixel().0.max(1) as f64;
        // Only the longest few: a young pause over the threshold every few seconds would
        // shade the whole plot.
        let mut longest: Vec<f64> = d.pauses.iter().map(|p| p.duration_ms).collect();
        longest.sort_by(|a, b| b.total_cmp(a));
        let shade_from = longest
            .get(SHADED - 1)
            .copied()
            .unwrap_or(0.0)
            .max(d.slow_ms)
            .max(f64::MIN_POSITIVE);
        chart.draw_series(
            d.pauses
                .iter()
                .filter(|p| p.duration_ms >= shade_from)
                .map(|p| {
                    Rectangle::new(
                        [
                            (p.start_ms, lo),
                            (p.start_ms + p.duration_ms.max(px_ms), hi),
                        ],
                        SHADE.mix(0.25).filled(),
                    )
                }),
        )?;
        // The slow threshold.
        let ty = to_y(d.slow_ms);
        chart.draw_series(DashedLineSeries::new(
            [(t0 as f64, ty), (t1 as f64, ty)],
            sc.label / 2,
            sc.label / 3,
            MISS.stroke_width(1),
        ))?;
        chart.draw_series([Text::new(
            format!("slow: over {} ms", tick(&d.slow_ms)),
            (t0 as f64, ty),
            (FONT, sc.label * 4 / 5).into_font().color(&MISS),
        )])?;
        let r = (sc.label / 6).max(2);
        chart.draw_series(d.slow.iter().map(|s| {
            let (c, rr) = if s.gc { (HIT, r + 1) } else { (MISS, r) };
            Circle::new((s.end_ms as f64, to_y(s.total_ms)), rr, c.filled())
        }))?;
        let mid = |i: &Interval| (i.start_ms + iv / 2) as f64;
        let width = (sc.label / 6).max(2);
        for (get, color) in LATENCY_LINES {
            for run in runs(d.intervals.iter().map(|i| (mid(i), get(i).map(to_y)))) {
                if run.len() == 1 {
                    chart
                        .draw_series(run.iter().map(|&p| Circle::new(p, r + 1, color.filled())))?;
                }
                let px: Vec<_> = run.iter().map(|p| chart.backend_coord(p)).collect();
                thick_line(root, &px, color, width)?;
            }
        }
        for run in runs(d.intervals.iter().map(|i| (mid(i), i.throughput_per_s))) {
            let secondary = chart.borrow_secondary();
            let px: Vec<_> = run.iter().map(|p| secondary.backend_coord(p)).collect();
            thick_line(root, &px, THROUGHPUT, width)?;
        }
        if d.intervals.is_empty() {
            note(&chart, "no requests in the charted time window", sc)?;
        }

        // The pause strip: the same x axis (same label areas left and right).
        let pmax = nice_max(d.pause_max_ms);
        let mut strip = builder(&bottom, sc)
            .margin_top(sc.label)
            .right_y_label_area_size(right)
            .build_cartesian_2d(x(), 0.0..pmax)?;
        let longest = tick(&((d.pause_max_ms * 10.0).round() / 10.0));
        let when = axis.desc("host clock");
        let x_desc = format!("{when}; {} GC pauses, longest {longest} ms", d.pause_count);
        let xlabel = |v: &f64| axis.label(v);
        style_mesh(&mut strip.configure_mesh(), sc)
            .max_light_lines(1)
            .y_labels(3)
            .x_desc(x_desc)
            .y_desc("pause (ms)")
            .x_label_formatter(&xlabel)
            .y_label_formatter(&tick)
            .draw()?;
        let (sw, sh) = strip.plotting_area().dim_in_pixel();
        let strip_px_ms = (t1 - t0) as f64 / sw.max(1) as f64;
        // A 5 ms pause under an 800 ms one still shows: 2 pixels high at least.
        let min_h = pmax * 2.0 / sh.max(1) as f64;
        strip.draw_series(d.pauses.iter().map(|p| {
            Rectangle::new(
                [
                    (p.start_ms, 0.0),
                    (
                        p.start_ms + p.duration_ms.max(strip_px_ms),
                        p.duration_ms.max(min_h),
                    ),
                ],
                kind_color(p.kind).filled(),
            )
        }))?;
        if d.pauses.is_empty() {
            note(&strip, "no GC pauses in this time range", sc)?;
        }
        Ok(())
    })
}
