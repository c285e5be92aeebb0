//! Performance-log charts: the two-hour chart (throughput and response times per interval), the
//! latency histogram (requests per response-time band) and the Java/DB split per operation.
//! They draw the aggregates of `analyze::perf` (a few hundred points at most), whatever the
//! size of the log.

use super::{
    bold, builder, cut_labels, legend_row, nice_max, note, render, style_mesh, thick_line, tick,
    titled, widest, Mark, RenderError, Size, Ticked, FONT,
};
use crate::analyze::perf::{Interval, OperationSplit};
use crate::analyze::Band;
use crate::parse::num::format_wall_ms;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

pub(crate) const THROUGHPUT: RGBColor = RGBColor(0, 0, 0);
pub(crate) const MEAN: RGBColor = RGBColor(0, 114, 178);
pub(crate) const P99: RGBColor = RGBColor(204, 37, 41);
/// A figure of an interval, where it has one.
type OfInterval = fn(&Interval) -> Option<f64>;
/// The response-time lines per interval, p99 first: the mean is drawn over it.
pub(crate) const LATENCY_LINES: [(OfInterval, RGBColor); 2] =
    [(|i| i.total_ms_p99, P99), (|i| i.total_ms_mean, MEAN)];
const BAR: RGBColor = RGBColor(0, 114, 178);
const JAVA: RGBColor = RGBColor(0, 114, 178);
const DB: RGBColor = RGBColor(230, 159, 0);
const TOTAL: RGBColor = RGBColor(0, 158, 115);

/// What the charts say about the records they leave out (`--skip`, `--from`, `--to`), e.g.
/// "first 60 s left out"; empty when every record is charted.
pub type Window<'a> = &'a str;

fn with_window(desc: String, window: Window) -> String {
    if window.is_empty() {
        desc
    } else {
        format!("{desc}; {window}")
    }
}

/// `60000` → "1 min", `30000` → "30 s", `3600000` → "1 h", `250` → "250 ms".
pub fn duration_text(ms: i64) -> String {
    const DAY: i64 = 86_400_000;
    // A length that is no whole number of a unit (an interval made from a span of years):
    // one decimal in the largest unit it holds twice.
    let in_unit = |unit: i64, name: &str| {
        let v = format!("{:.1}", ms as f64 / unit as f64);
        format!("{} {name}", v.trim_end_matches(".0"))
    };
    if ms > 0 && ms % DAY == 0 {
        format!("{} d", ms / DAY)
    } else if ms >= 2 * DAY {
        in_unit(DAY, "d")
    } else if ms > 0 && ms % 3_600_000 == 0 {
        format!("{} h", ms / 3_600_000)
    } else if ms > 0 && ms % 60_000 == 0 {
        format!("{} min", ms / 60_000)
    } else if ms > 0 && ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else if ms >= 7_200_000 {
        in_unit(3_600_000, "h")
    } else if ms >= 120_000 {
        in_unit(60_000, "min")
    } else if ms >= 10_000 {
        in_unit(1000, "s")
    } else {
        format!("{ms} ms")
    }
}

/// `ms` rounded up to a whole number of the largest unit (d, h, min, s) it holds twice: a
/// length to suggest that is at least `ms` and reads as written.
pub fn whole_up(ms: i64) -> i64 {
    [86_400_000, 3_600_000, 60_000, 1000]
        .into_iter()
        .find(|unit| ms >= 2 * unit)
        .map_or(ms, |unit| (ms + unit - 1) / unit * unit)
}

/// A share for a bar label, never rounded to zero: "95.2%", "3.6%", "0.21%", "0.0005%".
pub fn share_text(pct: f64) -> String {
    if !(pct.is_finite() && pct > 0.0) {
        return "0%".into();
    }
    let decimals = if pct >= 1.0 {
        1
    } else {
        // Two significant digits.
        (-pct.log10().floor()) as usize + 1
    };
    format!("{}%", super::trimmed(format!("{pct:.decimals$}")))
}

/// A count as users see it everywhere in gcperf: digits only, no thousands separator
/// ("4720000"), so that a figure read off a chart is the one in the table.
pub fn count_text(n: u64) -> String {
    n.to_string()
}

/// Milliseconds for a bar label: 3 significant digits at least, no float noise.
fn ms_text(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Clock-aligned tick steps for a time axis, ms.
#[rustfmt::skip]
const TIME_STEPS: [i64; 23] = [
    100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000,
    600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000,
    86_400_000, 172_800_000, 604_800_000,
];

/// The time axis' ticks from `t0` to `t1` (epoch ms, log clock): the smallest clock step
/// (100 ms … 7 d) of at least `min_step` giving at most `max_n(step)` intervals (the labels'
/// width depends on the step), at multiples of the step (so a 15-minute step ticks at :00,
/// :15, :30, :45), and the step.
pub fn time_ticks(
    t0: i64,
    t1: i64,
    min_step: i64,
    max_n: impl Fn(i64) -> usize,
) -> (Vec<i64>, i64) {
    let span = (t1 - t0).max(1);
    let week = TIME_STEPS[TIME_STEPS.len() - 1];
    let step = TIME_STEPS
        .iter()
        .copied()
        .filter(|&s| s >= min_step)
        .find(|&s| span / s <= max_n(s).max(1) as i64)
        // Past weeks (dates that span years): whole weeks, as few as the labels need. A
        // week's ticks over 10,000 years took 6 s to draw.
        .unwrap_or_else(|| {
            let n = max_n(2 * week).max(1) as i64;
            week * (span / week / n + 1).max((min_step + week - 1) / week)
        });
    let first = (t0 + step - 1).div_euclid(step) * step;
    let ticks = (0..)
        .map(|i| first + i * step)
        .take_while(|t| *t <= t1)
        .collect();
    (ticks, step)
}

/// A time axis from `t0` to `t1` (epoch ms, `t1` not included) drawn across `area`: ticks
/// as many as their labels fit with a label's width of room between them, none finer than
/// `finest`; the step; and the first and last day, which labels and titles name when they
/// differ.
pub(crate) struct TimeAxis {
    pub ticks: Vec<i64>,
    pub step: i64,
    pub first_day: String,
    pub last_day: String,
}

impl TimeAxis {
    pub(crate) fn new<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        sc: &super::Scale,
        (t0, t1): (i64, i64),
        finest: i64,
    ) -> TimeAxis {
        let day = |t: i64| format_wall_ms(t).get(..10).unwrap_or_default().to_string();
        let (first_day, last_day) = (
            day(t0),
            day((t1 - 1).min(crate::parse::limits::MAX_WALL_MS)),
        );
        let multi_day = first_day != last_day;
        let label_style: TextStyle = (FONT, sc.label).into_text_style(area);
        let plot_w = area.dim_in_pixel().0.saturating_sub(sc.label * 8).max(1);
        let fits = |step: i64| {
            let sample = time_label(t0, step, multi_day);
            let lw = area
                .estimate_text_size(&sample, &label_style)
                .map_or(sc.label * 8, |s| s.0);
            (plot_w / (2 * lw.max(1))) as usize
        };
        let (ticks, step) = time_ticks(t0, t1, finest, fits);
        TimeAxis {
            ticks,
            step,
            first_day,
            last_day,
        }
    }

    pub(crate) fn multi_day(&self) -> bool {
        self.first_day != self.last_day
    }

    /// The x coordinate over the axis.
    pub(crate) fn coord(&self, (t0, t1): (i64, i64)) -> Ticked {
        Ticked::new(
            t0 as f64,
            t1 as f64,
            self.ticks.iter().map(|&t| t as f64).collect(),
        )
    }

    /// The axis' description: the day, or the last of the days, and the clock of the times.
    pub(crate) fn desc(&self, clock: &str) -> String {
        if self.multi_day() {
            format!("date and time ({clock}), to {}", self.last_day)
        } else {
            format!("time of day on {} ({clock})", self.first_day)
        }
    }

    /// A tick's label.
    pub(crate) fn label(&self, v: &f64) -> String {
        time_label(*v as i64, self.step, self.multi_day())
    }
}

/// A tick label for a time axis: "12:05", "12:05:30", "12:05:30.500", with the day
/// ("09-21 12:05", or "09-21" for day steps) when the axis spans more than one day.
pub fn time_label(ms: i64, step: i64, multi_day: bool) -> String {
    let w = format_wall_ms(ms);
    let clock = if step < 1000 {
        w.get(11..23)
    } else if step < 60_000 {
        w.get(11..19)
    } else {
        w.get(11..16)
    }
    .unwrap_or_default();
    match (multi_day, step >= 86_400_000) {
        // Steps past a week: the year too (a log whose dates span years).
        (true, true) if step > 604_800_000 => w.get(..10).unwrap_or_default().to_string(),
        (true, true) => w.get(5..10).unwrap_or_default().to_string(),
        (true, false) => format!("{} {clock}", w.get(5..10).unwrap_or_default()),
        (false, _) => clock.to_string(),
    }
}

/// Points of a series, split where a value is missing: each run is drawn as its own line, so
/// an interval without requests is a gap, never a drop to zero.
pub(crate) fn runs(points: impl Iterator<Item = (f64, Option<f64>)>) -> Vec<Vec<(f64, f64)>> {
    let points: Vec<(f64, Option<f64>)> = points.collect();
    points
        .split(|p| !p.1.is_some_and(f64::is_finite))
        .filter(|run| !run.is_empty())
        .map(|run| run.iter().filter_map(|&(x, y)| Some((x, y?))).collect())
        .collect()
}

/// The two-hour chart: throughput per interval as a black line on the right-hand axis, mean
/// and p99 response time per interval as blue and red lines on the left-hand axis, wall-clock
/// time along the bottom. Each interval is a point at its middle; an interval without requests
/// is a gap in the response-time lines (and a zero in the throughput, which it is).
pub fn timeline(
    path: &Path,
    title: &str,
    window: Window,
    series: &[Interval],
    interval_ms: i64,
    size: Size,
) -> Result<(), RenderError> {
    render(path, size, |root, sc| {
        let iv = duration_text(interval_ms);
        let area = titled(
            root,
            &format!("{title} — throughput and response times per {iv}"),
            sc,
        )?;
        let area = legend_row(
            &area,
            &[
                (Mark::Line(MEAN), "mean response time (ms, left)".into()),
                (Mark::Line(P99), "p99 response time (ms, left)".into()),
                (
                    Mark::Line(THROUGHPUT),
                    "throughput (requests/s, right)".into(),
                ),
            ],
            sc,
        )?;
        let (t0, t1) = match (series.first(), series.last()) {
            (Some(a), Some(b)) => (a.start_ms, b.start_ms + interval_ms),
            _ => (0, interval_ms.max(1)),
        };
        let mid = |r: &Interval| (r.start_ms + interval_ms / 2) as f64;
        let lat_max = series
            .iter()
            .flat_map(|r| [r.total_ms_mean, r.total_ms_p99])
            .flatten()
            .fold(0.0f64, f64::max);
        let tp_max = series
            .iter()
            .filter_map(|r| r.throughput_per_s)
            .fold(0.0f64, f64::max);
        // None finer than the interval: a point per interval is all there is to tick.
        let mut axis = TimeAxis::new(&area, sc, (t0, t1), interval_ms.min(86_400_000));
        if series.is_empty() {
            axis.ticks.clear();
        }
        let x = axis.coord((t0, t1));
        let mut chart = builder(&area, sc)
            .right_y_label_area_size(sc.label * 4)
            .build_cartesian_2d(x, 0.0..nice_max(lat_max))?
            .set_secondary_coord(t0 as f64..t1 as f64, 0.0..nice_max(tp_max));
        let x_desc = if series.is_empty() {
            "time (log clock)".to_string()
        } else {
            format!("{}; a point per {iv}", axis.desc("log clock"))
        };
        let xlabel = |v: &f64| axis.label(v);
        style_mesh(&mut chart.configure_mesh(), sc)
            .max_light_lines(1)
            .x_desc(with_window(x_desc, window))
            .y_desc("response time (ms)")
            .x_label_formatter(&xlabel)
            .y_label_formatter(&tick)
            .draw()?;
        chart
            .configure_secondary_axes()
            .y_desc("throughput (requests/s)")
            .label_style((FONT, sc.label))
            .axis_desc_style((FONT, sc.desc))
            .y_label_formatter(&tick)
            .draw()?;
        // Points are marked where lines alone could hide them: on a short series, and where
        // a point has no neighbour to draw a line to.
        let dots = series.len() <= 60;
        let r = (sc.label / 5).max(2);
        let width = (sc.label / 6).max(2);
        // p99's dots are larger: where p99 and mean coincide (an interval of one request)
        // both still show.
        for ((get, color), r) in LATENCY_LINES.into_iter().zip([r + 2, r]) {
            for run in runs(series.iter().map(|i| (mid(i), get(i)))) {
                if dots || run.len() == 1 {
                    chart.draw_series(run.iter().map(|&p| Circle::new(p, r, color.filled())))?;
                }
                let px: Vec<_> = run.iter().map(|p| chart.backend_coord(p)).collect();
                thick_line(root, &px, color, width)?;
            }
        }
        for run in runs(series.iter().map(|i| (mid(i), i.throughput_per_s))) {
            if dots || run.len() == 1 {
                chart.draw_secondary_series(
                    run.iter().map(|&p| Circle::new(p, r, THROUGHPUT.filled())),
                )?;
            }
            let secondary = chart.borrow_secondary();
            let px: Vec<_> = run.iter().map(|p| secondary.backend_coord(p)).collect();
            thick_line(root, &px, THROUGHPUT, width)?;
        }
        if series.is_empty() {
            note(&chart, "no requests in the charted time window", sc)?;
        } else if tp_max == 0.0 && series.iter().all(|i| i.throughput_per_s.is_none()) {
            note(&chart, "too short a span for a throughput", sc)?;
        }
        Ok(())
    })
}

/// Requests per response-time band as bars, each labelled with its share of all requests and
/// its count. `log_y`: a log-scale count axis starting at ½, so that a band holding one
/// request out of millions is still a visible bar.
pub fn latency_histogram(
    path: &Path,
    title: &str,
    window: Window,
    bands: &[Band],
    size: Size,
    log_y: bool,
) -> Result<(), RenderError> {
    render(path, size, |root, sc| {
        let requests: u64 = bands.iter().map(|b| b.count).sum();
        let area = titled(
            root,
            &format!(
                "{title} — requests per response-time band ({} request{})",
                count_text(requests),
                if requests == 1 { "" } else { "s" }
            ),
            sc,
        )?;
        let area = legend_row(
            &area,
            &[(
                Mark::Bar(BAR),
                "requests in the band; above each bar: share of all requests, count".into(),
            )],
            sc,
        )?;
        let maxc = bands.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64;
        // Room above the tallest bar for its two label lines.
        let plot_h = area.dim_in_pixel().1.saturating_sub(sc.label * 3).max(1) as f64;
        let room = (sc.label as f64 * 3.0 / plot_h).min(0.5);
        let (y, bottom) = if log_y {
            let lo = 0.5f64.log10();
            let hi = ((maxc.log10() - lo * room) / (1.0 - room)).max(1.0);
            let mut t = Ticked::new(lo, hi, (0..=hi.floor() as i32).map(f64::from).collect());
            t.light = (0..=hi.floor() as i32)
                .flat_map(|k| (2..10).map(move |m| (m as f64).log10() + k as f64))
                .filter(|v| *v < hi)
                .collect();
            (t, lo)
        } else {
            (Ticked::up_to(maxc / (1.0 - room), 8, true), 0.0)
        };
        let x = Ticked::centres(bands.len());
        let mut chart = builder(&area, sc)
            .margin_right(sc.label)
            .build_cartesian_2d(x, y.clone())?;
        let xlabel = |v: &f64| {
            bands
                .get(v.floor().max(0.0) as usize)
                .map(|b| b.label.clone())
                .unwrap_or_default()
        };
        let ylabel = |v: &f64| {
            if log_y {
                let c = 10f64.powf(*v).round();
                // Thousands from 10k on.
                let units = [(1e9, "G"), (1e6, "M"), (1e3, "k")];
                match units.into_iter().find(|&(d, _)| c >= f64::max(d, 1e4)) {
                    Some((d, unit)) => format!("{}{unit}", c / d),
                    None => format!("{c}"),
                }
            } else {
                count_text(*v as u64)
            }
        };
        style_mesh(&mut chart.configure_mesh(), sc)
            .disable_x_mesh()
            .x_label_formatter(&xlabel)
            .y_label_formatter(&ylabel)
            .x_desc(with_window(
                "response time (ms); a band a-b holds a < t ≤ b".into(),
                window,
            ))
            .y_desc(if log_y {
                "requests (log scale)"
            } else {
                "requests"
            })
            .draw()?;
        let ph = chart.plotting_area().dim_in_pixel().1.max(1) as f64;
        // On a linear axis a band of 1 in 10 million is less than a pixel: it gets 2 pixels
        // (3 before rounding), so that it shows; its label says what it is.
        let min_h = (y.hi - y.lo) * 3.0 / ph;
        let top = |c: u64| {
            if log_y {
                (c as f64).log10()
            } else {
                (c as f64).max(min_h)
            }
        };
        let shown = bands.iter().enumerate().filter(|(_, b)| b.count > 0);
        chart.draw_series(shown.clone().map(|(i, b)| {
            Rectangle::new(
                [(i as f64 + 0.15, bottom), (i as f64 + 0.85, top(b.count))],
                BAR.filled(),
            )
        }))?;
        let line = (sc.label + sc.label / 4) as i32;
        let label = (FONT, sc.label).into_font();
        // An empty band says "0"; the others their share (bold) over their count.
        chart.draw_series(bands.iter().enumerate().map(|(i, b)| {
            let at = (
                i as f64 + 0.5,
                if b.count > 0 { top(b.count) } else { bottom },
            );
            EmptyElement::at(at)
                + Text::new(
                    b.share_pct
                        .filter(|_| b.count > 0)
                        .map_or(String::new(), share_text),
                    (0, -line - 3),
                    bold(sc.label)
                        .into_text_style(root)
                        .pos(Pos::new(HPos::Center, VPos::Bottom)),
                )
                + Text::new(
                    count_text(b.count),
                    (0, -3),
                    label
                        .clone()
                        .into_text_style(root)
                        .pos(Pos::new(HPos::Center, VPos::Bottom)),
                )
        }))?;
        if requests == 0 {
            note(&chart, "no requests in the charted time window", sc)?;
        }
        Ok(())
    })
}

/// Mean time per request of each operation as a horizontal bar, Java and database stacked
/// where the log has the split (else the total in one colour), the slowest at the top. Only
/// as many operations as fit at a readable size are drawn; the title says so.
pub fn split(
    path: &Path,
    title: &str,
    window: Window,
    ops: &[OperationSplit],
    size: Size,
) -> Result<(), RenderError> {
    render(path, size, |root, sc| {
        let has_split = ops
            .iter()
            .any(|o| o.java_ms_mean.is_some() && o.db_ms_mean.is_some());
        let label_style: TextStyle = (FONT, sc.label).into_text_style(root);
        let row_px = sc.label * 2;
        // Rows that fit: the plot is the chart less the title, legend and x axis.
        let avail = size.height.saturating_sub(sc.title * 2 + sc.label * 8);
        let fit = ((avail / row_px) as usize).max(1);
        let k = ops.len().min(fit);
        let what = if has_split {
            "Java and database time per operation"
        } else {
            "mean response time per operation"
        };
        let caption = if k < ops.len() {
            format!("{title} — {what} (the {k} slowest of {})", ops.len())
        } else {
            format!("{title} — {what}")
        };
        let area = titled(root, &caption, sc)?;
        let legend = if has_split {
            vec![
                (Mark::Bar(JAVA), "Java (JVM)".to_string()),
                (Mark::Bar(DB), "database (PL/SQL)".to_string()),
            ]
        } else {
            vec![(
                Mark::Bar(TOTAL),
                "total (no Java/DB split in this log)".to_string(),
            )]
        };
        let area = legend_row(&area, &legend, sc)?;
        let shown = &ops[..k];
        // Operation names as y labels, cut with "…" to at most a third of the width.
        let max_w = size.width / 3;
        let (names, name_w) = cut_labels(
            &area,
            shown.iter().map(|o| o.name.as_str()),
            &label_style,
            max_w,
        )?;
        let ends: Vec<String> = shown
            .iter()
            .map(|o| {
                let db = o.db_share_pct.filter(|_| has_split);
                let db = db.map_or(String::new(), |db| format!(", DB {db:.0}%"));
                let ms = ms_text(o.total_ms_mean);
                format!("{ms} ms{db}, n={}", count_text(o.count))
            })
            .collect();
        let end_w = widest(&area, ends.iter().map(String::as_str), &label_style)?;
        let y_area = name_w + sc.label;
        let plot_w = area
            .dim_in_pixel()
            .0
            .saturating_sub(y_area + sc.label)
            .max(1) as f64;
        let bar_len = |o: &OperationSplit| match (has_split, o.java_ms_mean, o.db_ms_mean) {
            (true, Some(j), Some(d)) => j + d,
            _ => o.total_ms_mean,
        };
        let max_len = shown
            .iter()
            .map(|o| bar_len(o).max(o.total_ms_mean))
            .fold(0.0f64, f64::max);
        // Room right of the longest bar for its label.
        let room = ((end_w + sc.label) as f64 / plot_w).min(0.6);
        let x1 = nice_max(max_len / (1.0 - room));
        let y = Ticked::centres(k);
        let mut chart = builder(&area, sc)
            .y_label_area_size(y_area)
            .margin_right(sc.label)
            .build_cartesian_2d(0.0..x1, y)?;
        let ylabel = |v: &f64| {
            let r = v.floor() as usize;
            if r < k {
                names[k - 1 - r].clone()
            } else {
                String::new()
            }
        };
        let x_desc = if has_split {
            "mean time per request (ms); after each bar: mean total, database share, requests"
        } else {
            "mean time per request (ms); after each bar: mean, requests"
        };
        style_mesh(&mut chart.configure_mesh(), sc)
            .disable_y_mesh()
            .max_light_lines(1)
            .x_desc(with_window(x_desc.into(), window))
            .x_label_formatter(&tick)
            .y_label_formatter(&ylabel)
            .draw()?;
        // Bars fill 60% of their row, but no thicker than three lines of text: a log with one
        // or two operations gets bars, not slabs.
        let row_h = chart.plotting_area().dim_in_pixel().1 as f64 / k.max(1) as f64;
        let half = (0.3f64).min(1.5 * sc.label as f64 / row_h.max(1.0));
        let (b0, b1) = (0.5 - half, 0.5 + half);
        for (i, o) in shown.iter().enumerate() {
            // Row 0 (the slowest) at the top.
            let y = (k - 1 - i) as f64;
            let bars = match (has_split, o.java_ms_mean, o.db_ms_mean) {
                (true, Some(j), Some(d)) => vec![
                    Rectangle::new([(0.0, y + b0), (j, y + b1)], JAVA.filled()),
                    Rectangle::new([(j, y + b0), (j + d, y + b1)], DB.filled()),
                ],
                _ => vec![Rectangle::new(
                    [(0.0, y + b0), (o.total_ms_mean, y + b1)],
                    TOTAL.filled(),
                )],
            };
            chart.draw_series(bars)?;
            let end = bar_len(o);
            chart.draw_series([EmptyElement::at((end, y + 0.5))
                + Text::new(
                    ends[i].clone(),
                    ((sc.label / 2) as i32, 0),
                    label_style.pos(Pos::new(HPos::Left, VPos::Center)),
                )])?;
        }
        if ops.is_empty() {
            note(&chart, "no requests in the charted time window", sc)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_never_round_to_zero() {
        assert_eq!(share_text(95.208), "95.2%");
        assert_eq!(share_text(100.0), "100%");
        assert_eq!(share_text(3.6), "3.6%");
        assert_eq!(share_text(0.2083), "0.21%");
        assert_eq!(share_text(0.0005), "0.0005%");
        assert_eq!(share_text(0.0001), "0.0001%");
        assert_eq!(share_text(0.000123), "0.00012%");
        assert_eq!(share_text(0.0), "0%");
    }

    #[test]
    fn counts_and_durations() {
        assert_eq!(count_text(4_720_000), "4720000");
        assert_eq!(count_text(480), "480");
        assert_eq!(count_text(1000), "1000");
        assert_eq!(duration_text(60_000), "1 min");
        assert_eq!(duration_text(30_000), "30 s");
        assert_eq!(duration_text(90_000), "90 s");
        assert_eq!(duration_text(3_600_000), "1 h");
        assert_eq!(duration_text(250), "250 ms");
        assert_eq!(duration_text(86_400_000), "1 d");
        assert_eq!(duration_text(172_800_000), "2 d");
        // No whole number of a unit: one decimal of the largest that fits twice.
        assert_eq!(duration_text(15_776_894_880), "182.6 d");
        assert_eq!(duration_text(90_000_000), "25 h");
        assert_eq!(duration_text(9_000_001), "2.5 h");
        assert_eq!(duration_text(150_001), "2.5 min");
        assert_eq!(duration_text(12_345), "12.3 s");
        assert_eq!(duration_text(2_345), "2345 ms");
        assert_eq!(duration_text(whole_up(15_776_894_880)), "183 d");
        assert_eq!(duration_text(whole_up(150_001)), "3 min");
        assert_eq!(whole_up(1_999), 1_999);
    }

    #[test]
    fn time_ticks_land_on_the_clock() {
        // 12:00:03.188 to 12:20:00: at most 6 ticks → 5-minute steps from 12:05.
        let t0 = 1_348_228_803_188; // 2012-09-21T12:00:03.188
        let t1 = 1_348_230_000_000; // 2012-09-21T12:20:00.000
        let (ticks, step) = time_ticks(t0, t1, 1000, |_| 6);
        assert_eq!(step, 300_000);
        let labels: Vec<String> = ticks.iter().map(|&t| time_label(t, step, false)).collect();
        assert_eq!(labels, ["12:05", "12:10", "12:15", "12:20"]);
        // 40 s at most 8 ticks: 5 s steps, seconds shown.
        let (ticks, step) = time_ticks(t1, t1 + 40_000, 1000, |_| 8);
        assert_eq!((ticks.len(), step), (9, 5_000));
        assert_eq!(time_label(ticks[1], step, false), "12:20:05");
        // Never finer than the interval: one 1 s interval is ticked at its ends, not every
        // 200 ms.
        let (ticks, step) = time_ticks(t1, t1 + 1000, 1000, |_| 8);
        assert_eq!((ticks, step), (vec![t1, t1 + 1000], 1000));
        // Wider labels, fewer ticks: 40 s with room for 3 labels → 15 s steps.
        let (ticks, step) = time_ticks(t1, t1 + 40_000, 1000, |s| if s < 60_000 { 3 } else { 8 });
        assert_eq!((ticks.len(), step), (3, 15_000));
        // Dates 10,000 years apart: whole weeks, no more ticks than fit, the year shown.
        let (a, b) = (-62_135_553_600_000, 253_402_214_400_000); // 0001-01-01 to 9999-12-31
        let (ticks, step) = time_ticks(a, b, 3_600_000, |_| 8);
        assert_eq!(step % 604_800_000, 0);
        assert!(ticks.len() <= 9, "{}", ticks.len());
        assert_eq!(time_label(ticks[0], step, true).len(), 10);
        // Across midnight the day is in the label.
        assert_eq!(time_label(t1, 3_600_000, true), "09-21 12:20");
        assert_eq!(time_label(t1, 86_400_000, true), "09-21");
    }

    #[test]
    fn gaps_split_lines() {
        let r = runs(
            [
                (0.0, Some(1.0)),
                (1.0, Some(2.0)),
                (2.0, None),
                (3.0, Some(4.0)),
                (4.0, None),
            ]
            .into_iter(),
        );
        assert_eq!(r, vec![vec![(0.0, 1.0), (1.0, 2.0)], vec![(3.0, 4.0)]]);
    }
}
