//! `gcperf compare --chart`: the runs of a comparison side by side in one PNG, as the source
//! documents chart them (seed 001: throughput and response time per test primitive for two
//! servers as grouped bars; seed 003: the before/after latency-band table; seed 002: total GC
//! time per JVM option set).
//!
//! Every panel is horizontal grouped bars: one row per category (operation, latency band or
//! run), one bar per run in each row, in the run's colour, its value written after it. Rows
//! read like the tables of `gcperf compare`, names never collide however long they are, and
//! a value's label never runs into its neighbour's.
//!
//! Performance runs get one row of three panels: throughput per operation (requests / the
//! run's span), mean response time per operation (the busiest operations by total time, as
//! many as fit up to [`MAX_OPERATIONS`]) and the share of requests per latency band. GC runs
//! get one row of two: total GC pause time and the longest single pause per run. With both
//! kinds, performance above, GC below. Each run keeps its colour in every panel.

use super::perf::{count_text, share_text};
use super::{
    builder, centred, cut_labels, legend_row, note, render_scaled, style_mesh, titled, widest,
    Mark, RenderError, Root, Scale, Size, Ticked, FONT,
};
use crate::analyze::gc::GcSummary;
use crate::analyze::perf::PerfSummary;
use crate::report::compare::Run;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// At most this many operations are charted: the busiest by total time in all runs.
pub const MAX_OPERATIONS: usize = 12;

/// Run colours, in argument order (Okabe-Ito, then two of ColorBrewer's Dark2; none of them a
/// grey that antialiased text could make). A ninth run takes the first colour again.
pub const RUN_COLORS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(117, 112, 179),
    RGBColor(166, 118, 29),
];

/// The colour of the `i`-th run given (counting every kind).
pub fn run_color(i: usize) -> RGBColor {
    RUN_COLORS[i % RUN_COLORS.len()]
}

/// The chart title: the runs' labels, "before vs after"; beyond four runs the first three and
/// how many there are.
pub fn chart_title(labels: &[&str]) -> String {
    if labels.len() <= 4 {
        labels.join(" vs ")
    } else {
        format!(
            "{} vs … ({} runs)",
            labels[..3].join(" vs "),
            count_text(labels.len() as u64)
        )
    }
}

/// Every operation of the runs, busiest first: by the time spent in it in all runs together
/// (the sum of each run's total), ties by name. Returns the names.
pub fn busiest_operations(runs: &[&PerfSummary]) -> Vec<String> {
    // By name: a search of a list for each operation is quadratic (two runs of 100,000
    // operations: 37 s).
    let mut by_name: std::collections::HashMap<&str, f64> = Default::default();
    for r in runs {
        for o in &r.operations {
            *by_name.entry(&o.name).or_insert(0.0) += o.total_ms_sum;
        }
    }
    let mut total: Vec<(&str, f64)> = by_name.into_iter().collect();
    total.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    total.into_iter().map(|(n, _)| n.to_string()).collect()
}

/// An operation's throughput in a run: its requests over the run's span (requests/s); none
/// when the run has no span (a single request).
pub fn operation_throughput(count: u64, span_s: Option<f64>) -> Option<f64> {
    span_s.filter(|s| *s > 0.0).map(|s| count as f64 / s)
}

/// A value for a bar label: three significant digits (at least the units), no thousands
/// separator: "2591", "725.6" → "726", "32.1", "0.470" → "0.47", "0.00123".
pub fn value_text(v: f64) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if a >= 99.95 {
        let s = count_text(a.round() as u64);
        return if v < 0.0 { format!("-{s}") } else { s };
    }
    let decimals = (2 - a.log10().floor() as i32).max(0) as usize;
    super::trimmed(format!("{v:.decimals$}"))
}

/// Milliseconds of a GC pause for a label: tenths as the GC charts and tables show them
/// ("274.9", "605.2"), whole from 1000 ("2591"), 3 significant digits below 1.
pub fn pause_text(ms: f64) -> String {
    if ms.is_finite() && (1.0..999.95).contains(&ms) {
        format!("{ms:.1}")
    } else {
        value_text(ms)
    }
}

/// How many operation rows fit in a plot `plot_h` pixels high with `runs` bars per row, each
/// bar at least as thick as a label's text (so that the labels after the bars do not overlap);
/// at most `MAX_OPERATIONS`, at least one.
pub fn operations_that_fit(plot_h: u32, runs: usize, label_px: u32) -> usize {
    // Bars take 80% of a row (see `draw_panel`), each 0.9 label high at least.
    let row = runs.max(1) as f64 * label_px as f64 * 0.9 / 0.8;
    ((plot_h as f64 / row).floor() as usize).clamp(1, MAX_OPERATIONS)
}

/// A bar's value (None: the run has no such figure) and its label.
type Figure = (Option<f64>, String);

/// One bar: its value (None: the run has no such figure), colour and label.
struct Bar {
    value: Option<f64>,
    color: RGBColor,
    text: String,
}

/// A panel of horizontal grouped bars, rows top to bottom.
#[derive(Default)]
struct Panel {
    caption: String,
    rows: Vec<(String, Vec<Bar>)>,
    /// Row names drawn (else the rows of the panel on the left, in the same places).
    names: bool,
    y_desc: &'static str,
    x_desc: String,
    /// A log-scale value axis.
    log: bool,
    /// No value tick above this (shares: 100%), though the axis goes on for the labels.
    max_tick: Option<f64>,
    /// What to say when there is nothing to draw.
    empty: &'static str,
}

/// The caption's text style: `px`, shrunk until the text fits `width`.
fn fitting<'a>(area: &Root, text: &str, mut px: u32, width: u32) -> Res<TextStyle<'a>> {
    loop {
        let style: TextStyle = (FONT, px).into_text_style(area);
        let (w, _) = area.estimate_text_size(text, &style)?;
        if w <= width || px <= 10 {
            return Ok(style);
        }
        px -= 1;
    }
}

/// Height of a panel's caption as plotters' `titled` takes it.
fn caption_h(area: &Root, sc: &Scale) -> Res<u32> {
    let style: TextStyle = (FONT, sc.desc).into_text_style(area);
    let (_, h) = area.estimate_text_size("Mg", &style)?;
    Ok(h + 2 * (h / 2).min(5))
}

/// Width of the y label area for row names `name_w` wide: the names, the rotated axis
/// description and a gap.
fn name_area(name_w: u32, sc: &Scale) -> u32 {
    name_w + sc.desc * 2 + sc.label / 2
}

/// The y label area of a panel without names.
fn no_name_area(sc: &Scale) -> u32 {
    sc.label / 2
}

fn margin_top(sc: &Scale) -> u32 {
    sc.label / 2
}

/// Room after a panel's plot: for half its last tick label and a gap to the next panel.
fn margin_right(sc: &Scale) -> u32 {
    sc.label * 2
}

/// The axis descriptions' size: the panel's, or smaller (10 px at least) where a description
/// would be longer than its axis.
fn desc_px(area: &Root, texts: &[(&str, f64)], sc: &Scale) -> Res<u32> {
    let mut px = sc.desc;
    while px > 10 {
        let style: TextStyle = (FONT, px).into_text_style(area);
        let mut fits = true;
        for (t, len) in texts {
            fits &= area.estimate_text_size(t, &style)?.0 as f64 <= *len;
        }
        if fits {
            break;
        }
        px -= 1;
    }
    Ok(px)
}

/// The share of a row its bars take together, and a bar's thickness in pixels, for `k` rows
/// of `n` bars in a plot `plot_h` pixels high. Bars take 80% of their row, each no thicker
/// than 1.5 lines of text (two runs get bars, not slabs); where bars would be thinner than a
/// line of text, the gap between rows gives up to 12% more.
fn bars_in_row(plot_h: f64, k: usize, n: usize, sc: &Scale) -> (f64, f64) {
    let row_px = plot_h / k.max(1) as f64;
    let n = n.max(1) as f64;
    let line = n * 0.9 * sc.label as f64 / row_px;
    let group = 0.8f64
        .max(line.min(0.92))
        .min(n * 1.5 * sc.label as f64 / row_px);
    (group, row_px * group / n)
}

/// Name every k-th row of rows `row_px` high: rows at least 1.2 lines of text high get all
/// their names.
fn name_every(row_px: f64, sc: &Scale) -> usize {
    let line = sc.label as f64 * 1.2;
    if row_px >= line || row_px <= 0.0 {
        1
    } else {
        (line / row_px).ceil() as usize
    }
}

/// Height of the plot of a panel drawn into `area`: less its caption, x axis and margin.
fn plot_height(area: &Root, sc: &Scale) -> Res<u32> {
    let (_, h) = area.dim_in_pixel();
    Ok(h.saturating_sub(caption_h(area, sc)? + sc.label * 3 + margin_top(sc)))
}

/// Whether the bars of panel `p` drawn into `area` are too thin to carry a label (7 px).
fn thin_bars(area: &Root, p: &Panel, sc: &Scale) -> Res<bool> {
    let plot_h = plot_height(area, sc)?;
    let n = p.rows.iter().map(|r| r.1.len()).max().unwrap_or(1);
    Ok(bars_in_row(plot_h as f64, p.rows.len(), n, sc).1 < 7.0)
}

/// Draw a panel into `area`; its row names are already cut to fit.
fn draw_panel(area: &Root, p: &Panel, sc: &Scale) -> Res<()> {
    // Bars too thin for a label's text (many runs in a small chart) go unlabelled, and the
    // caption says so: labels on top of each other would be worse than none.
    let thin = thin_bars(area, p, sc)?;
    let caption = if thin {
        format!("{} (too many bars to label)", p.caption)
    } else {
        p.caption.clone()
    };
    let (aw, _) = area.dim_in_pixel();
    let area = area.titled(&caption, fitting(area, &caption, sc.desc, aw)?)?;
    let y_area = if p.names {
        let style: TextStyle = (FONT, sc.label).into_text_style(&area);
        name_area(
            widest(&area, p.rows.iter().map(|(n, _)| n.as_str()), &style)?,
            sc,
        )
    } else {
        no_name_area(sc)
    };
    let (aw, ah) = area.dim_in_pixel();
    let plot_w = aw.saturating_sub(y_area + margin_right(sc)).max(1) as f64;
    let plot_h = ah.saturating_sub(sc.label * 3 + margin_top(sc)).max(1) as f64;
    let k = p.rows.len().max(1);
    let n = p.rows.iter().map(|r| r.1.len()).max().unwrap_or(1).max(1);
    let (group, bar_px) = bars_in_row(plot_h, k, n, sc);
    // Labels as high as the bars are thick, 10 px at least.
    let value_px = (bar_px * 1.1)
        .round()
        .clamp(10f64.min(sc.label as f64), sc.label as f64);
    let value_style: TextStyle = (FONT, value_px as u32).into_text_style(&area);
    let texts = p.rows.iter().flat_map(|r| r.1.iter()).filter(|_| !thin);
    let text_w = widest(&area, texts.map(|b| b.text.as_str()), &value_style)?;
    // Room right of the longest bar for its label.
    let room = ((text_w + sc.label) as f64 / plot_w).min(0.6);
    let values = || {
        p.rows
            .iter()
            .flat_map(|r| r.1.iter())
            .filter_map(|b| b.value)
    };
    let max = values().fold(0.0f64, f64::max);
    let max_ticks = ((plot_w / (sc.label as f64 * 3.5)) as usize).clamp(2, 10);
    let x = if p.log {
        let min_pos = values().filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
        let (lo, top) = if min_pos.is_finite() {
            ((min_pos.log10() - 0.5).floor(), max.log10())
        } else {
            (0.0, 1.0)
        };
        let hi = (lo + (top - lo) / (1.0 - room)).max(lo + 1.0);
        let last = p.max_tick.map_or(hi, |m| m.log10().min(hi));
        let decades: Vec<f64> = (lo as i32..=last.floor() as i32).map(f64::from).collect();
        let every = decades.len().div_ceil(max_ticks).max(1);
        Ticked::new(lo, hi, decades.into_iter().step_by(every).collect())
    } else {
        let need = if max > 0.0 { max / (1.0 - room) } else { 1.0 };
        let mut t = Ticked::up_to(need, max_ticks, false);
        t.bold
            .retain(|v| p.max_tick.is_none_or(|m| *v <= m * (1.0 + 1e-9)));
        t
    };
    let y = Ticked::centres(k);
    let mut chart = builder(&area, sc)
        .y_label_area_size(y_area)
        .margin_top(margin_top(sc))
        .margin_right(margin_right(sc))
        .build_cartesian_2d(x.clone(), y)?;
    // Row 0 at the top. Rows thinner than a line of text name every k-th row only (counted
    // from the top), so that names never overlap.
    let every = name_every(plot_h / k as f64, sc);
    let ylabel = |v: &f64| {
        let r = v.floor().max(0.0) as usize;
        if p.names && r < p.rows.len() && (p.rows.len() - 1 - r).is_multiple_of(every) {
            p.rows[p.rows.len() - 1 - r].0.clone()
        } else {
            String::new()
        }
    };
    let xlabel = |v: &f64| {
        if p.log {
            format!("{}", 10f64.powi(v.round() as i32))
        } else {
            super::tick(v)
        }
    };
    let mut descs = vec![(p.x_desc.as_str(), plot_w)];
    if p.names {
        descs.push((p.y_desc, plot_h));
    }
    let desc = desc_px(&area, &descs, sc)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, sc)
        .axis_desc_style((FONT, desc))
        .disable_y_mesh()
        .max_light_lines(1)
        .x_desc(p.x_desc.as_str())
        .x_label_formatter(&xlabel)
        .y_label_formatter(&ylabel);
    if p.names {
        mesh.y_desc(p.y_desc);
    }
    mesh.draw()?;
    // Tiny values on a linear axis still get 2 px; their label says what they are.
    let min_len = (x.hi - x.lo) * 2.5 / plot_w;
    let bar_h = group / n as f64;
    let pad = (sc.label / 3) as i32;
    for (i, (_, bars)) in p.rows.iter().enumerate() {
        let top = (k - i) as f64 - (1.0 - group) / 2.0;
        for (j, b) in bars.iter().enumerate() {
            let (y1, y0) = (top - j as f64 * bar_h, top - (j + 1) as f64 * bar_h);
            let end = match b.value {
                Some(v) if v > 0.0 => {
                    let end = if p.log {
                        v.log10()
                    } else {
                        v.max(x.lo + min_len)
                    };
                    chart
                        .draw_series([Rectangle::new([(x.lo, y0), (end, y1)], b.color.filled())])?;
                    end
                }
                _ => x.lo,
            };
            if thin {
                continue;
            }
            chart.draw_series([EmptyElement::at((end, (y0 + y1) / 2.0))
                + Text::new(
                    b.text.clone(),
                    (pad, 0),
                    value_style.pos(Pos::new(HPos::Left, VPos::Center)),
                )])?;
        }
    }
    if p.rows.is_empty() {
        note(&chart, p.empty, sc)?;
    }
    Ok(())
}

/// Split `area` into panels side by side: each takes its y label area and an equal share of
/// the rest. `y_areas` are the label areas' widths.
fn side_by_side<'a>(area: &Root<'a>, y_areas: &[u32], sc: &Scale) -> Vec<Root<'a>> {
    let (w, _) = area.dim_in_pixel();
    let fixed: u32 = y_areas.iter().sum::<u32>() + margin_right(sc) * y_areas.len() as u32;
    let plot = w.saturating_sub(fixed) / y_areas.len().max(1) as u32;
    let mut out = Vec::new();
    let mut rest = area.clone();
    for (i, ya) in y_areas.iter().enumerate() {
        if i + 1 == y_areas.len() {
            out.push(rest.clone());
        } else {
            let (l, r) = rest.split_horizontally(ya + plot + margin_right(sc));
            out.push(l);
            rest = r;
        }
    }
    out
}

/// Row names cut to at most a sixth of the chart's width, and the widest.
fn names<'s>(
    area: &Root,
    rows: impl IntoIterator<Item = &'s str>,
    sc: &Scale,
    size: Size,
) -> Res<(Vec<String>, u32)> {
    let style: TextStyle = (FONT, sc.label).into_text_style(area);
    cut_labels(area, rows, &style, size.width / 6)
}

/// A legend of `runs` (each its colour and label) above the rest of `area`, which it returns.
fn run_legend<'a, T>(area: &Root<'a>, runs: &[(usize, &str, T)], sc: &Scale) -> Res<Root<'a>> {
    let legend: Vec<(Mark, String)> = runs
        .iter()
        .map(|(i, l, _)| (Mark::Bar(run_color(*i)), l.to_string()))
        .collect();
    legend_row(area, &legend, sc)
}

/// The performance runs: a legend, then throughput and mean response time per operation and
/// the share of requests per latency band.
fn perf_section(
    area: &Root,
    runs: &[(usize, &str, &PerfSummary)],
    sc: &Scale,
    size: Size,
    log_y: bool,
) -> Res<()> {
    let area = run_legend(area, runs, sc)?;
    let sums: Vec<&PerfSummary> = runs.iter().map(|r| r.2).collect();
    let all_ops = busiest_operations(&sums);
    let plot_h = plot_height(&area, sc)?;
    let k = all_ops
        .len()
        .min(operations_that_fit(plot_h, runs.len(), sc.label));
    let ops = &all_ops[..k];
    let (op_names, op_w) = names(&area, ops.iter().map(String::as_str), sc, size)?;
    // Bands as the first run has them (every run is analysed with the same --bands), every
    // one of them: an empty band says "–" as in the table.
    let bands = sums.first().map_or(&[][..], |s| &s.bands[..]);
    let (band_names, band_w) = names(&area, bands.iter().map(|b| b.label.as_str()), sc, size)?;
    let panels = side_by_side(
        &area,
        &[name_area(op_w, sc), no_name_area(sc), name_area(band_w, sc)],
        sc,
    );
    let shown = if k < all_ops.len() {
        format!(" — the {k} busiest of {}", count_text(all_ops.len() as u64))
    } else {
        String::new()
    };
    // A row per name, a bar per run: `bar(row, run)` gives the bar's value and label.
    let rows = |names: &[String], bar: &dyn Fn(usize, &PerfSummary) -> Figure| {
        names
            .iter()
            .enumerate()
            .map(|(r, name)| {
                let bars = runs
                    .iter()
                    .map(|(i, _, s)| {
                        let (value, text) = bar(r, s);
                        let color = run_color(*i);
                        Bar { value, color, text }
                    })
                    .collect();
                (name.clone(), bars)
            })
            .collect::<Vec<_>>()
    };
    let per_op = |get: &dyn Fn(&PerfSummary, &crate::analyze::perf::Operation) -> Option<f64>| {
        rows(&op_names, &|r, s| {
            let op = s.operations.iter().find(|o| o.name == ops[r]);
            let value = op.and_then(|o| get(s, o));
            (value, value.map_or("–".into(), value_text))
        })
    };
    let no_ops = "no requests";
    draw_panel(
        &panels[0],
        &Panel {
            caption: format!("throughput per operation{shown}"),
            rows: per_op(&|s, o| operation_throughput(o.count, s.span_s)),
            names: true,
            y_desc: "operation (busiest by total time first)",
            x_desc: "requests/s over the run's span".into(),
            empty: no_ops,
            ..Panel::default()
        },
        sc,
    )?;
    draw_panel(
        &panels[1],
        &Panel {
            caption: "mean response time per operation".into(),
            rows: per_op(&|_, o| Some(o.total_ms_mean)),
            x_desc: "mean response time (ms)".into(),
            empty: no_ops,
            ..Panel::default()
        },
        sc,
    )?;
    let x_desc = if log_y {
        "share of requests (%, log scale)"
    } else {
        "share of requests (%)"
    };
    let rows = rows(&band_names, &|b, s| {
        let v = s.bands.get(b).and_then(|b| b.share_pct);
        let text = v.filter(|v| *v > 0.0).map_or("–".into(), share_text);
        (v, text)
    });
    draw_panel(
        &panels[2],
        &Panel {
            caption: "requests per response-time band".into(),
            rows,
            names: true,
            y_desc: "response time (ms)",
            x_desc: x_desc.into(),
            log: log_y,
            max_tick: Some(100.0),
            empty: no_ops,
        },
        sc,
    )?;
    Ok(())
}

/// Whether the GC runs are one series: more runs than colours, each a row of its own (a
/// legend of repeating colours would say nothing the row names do not).
fn one_series(runs: usize) -> bool {
    runs > RUN_COLORS.len()
}

/// The GC runs: a legend (unless they are one series, in one colour), then total GC pause
/// time and the longest single pause per run; first the figure they are ranked by where it
/// is another.
fn gc_section(
    area: &Root,
    runs: &[(usize, &str, &GcSummary)],
    sc: &Scale,
    size: Size,
    opts: &ChartOptions,
) -> Res<()> {
    let single = one_series(runs.len());
    let color = |i: usize| if single { RUN_COLORS[0] } else { run_color(i) };
    let area = if single {
        area.clone()
    } else {
        run_legend(area, runs, sc)?
    };
    let (run_names, run_w) = names(&area, runs.iter().map(|r| r.1), sc, size)?;
    // The ranking figure as a panel of its own, unless it is one of the two drawn anyway.
    let ranked = opts.sort.as_ref().and_then(|k| {
        let key = k.key(crate::analyze::slo::LogKind::Gc)?;
        (key != "pause_total_ms" && key != "pause_max_ms").then_some((k, key))
    });
    let mut y_areas = vec![name_area(run_w, sc), no_name_area(sc)];
    if ranked.is_some() {
        y_areas.push(no_name_area(sc));
    }
    let panels = side_by_side(&area, &y_areas, sc);
    let rows = |get: &dyn Fn(&GcSummary) -> Figure| {
        runs.iter()
            .zip(&run_names)
            .map(|((i, _, s), name)| {
                let (value, text) = get(s);
                (
                    name.clone(),
                    vec![Bar {
                        value,
                        color: color(*i),
                        text,
                    }],
                )
            })
            .collect::<Vec<_>>()
    };
    let log = opts.log_y;
    let scale_word = if log { ", log scale" } else { "" };
    let mut next = panels.iter();
    let (Some(first), Some(second)) = (next.next(), next.next()) else {
        return Ok(());
    };
    if let (Some((k, key)), Some(third)) = (ranked, next.next()) {
        // Ranked by another figure: it comes first, the two pause panels after it.
        draw_panel(
            first,
            &Panel {
                caption: format!("{key} (ranked by it)"),
                rows: rows(&|s| {
                    let v = k.value(Some(s), None);
                    (v, v.map_or("–".into(), value_text))
                }),
                names: true,
                y_desc: "run",
                x_desc: format!("{key}{scale_word}"),
                log,
                empty: "no GC runs",
                ..Panel::default()
            },
            sc,
        )?;
        return gc_pause_panels(second, third, &rows, false, log, sc);
    }
    gc_pause_panels(first, second, &rows, true, log, sc)
}

/// Rows of one bar per run, from a run's value and its label.
type RowsOf<'a> = dyn Fn(&dyn Fn(&GcSummary) -> Figure) -> Vec<(String, Vec<Bar>)> + 'a;

/// The total and the longest pause per run; `names`: the first of them names the rows.
fn gc_pause_panels(
    total: &Root,
    longest: &Root,
    rows: &RowsOf,
    names: bool,
    log: bool,
    sc: &Scale,
) -> Res<()> {
    let scale_word = if log { ", log scale" } else { "" };
    draw_panel(
        total,
        &Panel {
            caption: "total GC pause time".into(),
            rows: rows(&|s| {
                let pauses = if s.pauses == 1 { "pause" } else { "pauses" };
                (
                    s.pause_total_ms,
                    format!(
                        "{} ms, {} {pauses}",
                        s.pause_total_ms
                            .map_or_else(|| crate::report::NO_FIGURE.to_string(), pause_text),
                        count_text(s.pauses)
                    ),
                )
            }),
            names,
            y_desc: "run",
            x_desc: format!("sum of all stop-the-world GC pauses (ms{scale_word})"),
            log,
            empty: "no GC runs",
            ..Panel::default()
        },
        sc,
    )?;
    draw_panel(
        longest,
        &Panel {
            caption: "longest single GC pause".into(),
            rows: rows(&|s| match s.pause_max_ms {
                Some(m) => (Some(m), format!("{} ms", pause_text(m))),
                None => (None, "no pauses".into()),
            }),
            x_desc: format!("longest stop-the-world GC pause (ms{scale_word})"),
            log,
            empty: "no GC runs",
            ..Panel::default()
        },
        sc,
    )?;
    Ok(())
}

/// Pixels the GC section asks for: legend (unless one series), caption, x axis and 1.6 lines
/// of text per run.
fn gc_height(runs: usize, sc: &Scale) -> u32 {
    let legend = if one_series(runs) {
        0
    } else {
        sc.label * 8 / 5 * runs.div_ceil(4) as u32 + sc.label / 2
    };
    let caption = sc.desc * 2 + 10;
    legend + caption + sc.label * 3 + margin_top(sc) + runs as u32 * sc.label * 8 / 5 + sc.label
}

/// How the comparison chart is drawn.
#[derive(Debug, Clone, Default)]
pub struct ChartOptions {
    /// Band shares, and the GC panels' pause times, on a log axis.
    pub log_y: bool,
    /// What the runs are ranked by, if anything (a GC figure other than the pause panels'
    /// gets a panel of its own).
    pub sort: Option<crate::analyze::compare::SortKey>,
    /// Said in the title: the ranking, and how many runs of how many are shown.
    pub note: Option<String>,
}

/// Characters a title of run names may have before the names are shortened: a title at the
/// chart's own font size, not one shrunk to a line no one can read.
const TITLE_CHARS: usize = 90;

/// The title: the runs' labels (or, beyond four runs, what is shown of them), and the note.
/// Labels too long for the title together are shortened at the end with "…"; the legend
/// names each run in full.
fn title(labels: &[&str], note: Option<&str>) -> String {
    let shown = labels.len().clamp(1, 4);
    let joined: usize = labels
        .iter()
        .take(shown)
        .map(|l| l.chars().count() + 4)
        .sum();
    // Labels that fit together are kept whole.
    let each = if joined > TITLE_CHARS {
        (TITLE_CHARS / shown).saturating_sub(4).max(12)
    } else {
        usize::MAX
    };
    let short: Vec<String> = labels
        .iter()
        .map(|l| match l.chars().count() > each {
            true => l.chars().take(each - 1).chain(['…']).collect(),
            false => l.to_string(),
        })
        .collect();
    let labels: &[&str] = &short.iter().map(String::as_str).collect::<Vec<_>>();
    match note {
        Some(n) if labels.len() > 4 => n.to_string(),
        Some(n) => format!("{} — {n}", chart_title(labels)),
        None => chart_title(labels),
    }
}

/// The size a comparison of `gc_runs` GC runs is drawn at: `size`, grown taller (up to the
/// 10 000 px a size may have) where the runs need more rows than fit, with text as at `size`.
pub fn grown_size(size: Size, gc_runs: usize, perf: bool) -> Size {
    if gc_runs == 0 {
        return size;
    }
    let sc = Scale::of(size);
    let title = sc.title * 3 / 2 + sc.label * 2;
    // With performance runs above, they keep half of the height asked for.
    let above = if perf { size.height / 2 } else { 0 };
    let need = title + above + gc_height(gc_runs, &sc);
    Size {
        width: size.width,
        height: size.height.max(need.min(10_000)),
    }
}

/// Draw the comparison of `runs` into the PNG at `path`: performance panels for the
/// performance runs, GC panels for the GC runs, both kinds one above the other; taller than
/// `size` where the GC runs need it (see `grown_size`).
pub fn compare(
    path: &Path,
    runs: &[Run],
    size: Size,
    opts: &ChartOptions,
) -> Result<(), RenderError> {
    let perf: Vec<(usize, &str, &PerfSummary)> = runs
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.summary.perf.as_ref().map(|p| (i, r.label.as_str(), p)))
        .collect();
    let gc: Vec<(usize, &str, &GcSummary)> = runs
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.summary.gc.as_ref().map(|g| (i, r.label.as_str(), g)))
        .collect();
    let drawn = grown_size(size, gc.len(), !perf.is_empty());
    render_scaled(path, drawn, Scale::of(size), |root, sc| {
        let labels: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
        let area = titled(root, &title(&labels, opts.note.as_deref()), sc)?;
        match (perf.is_empty(), gc.is_empty()) {
            (false, true) => perf_section(&area, &perf, sc, size, opts.log_y)?,
            (true, false) => gc_section(&area, &gc, sc, size, opts)?,
            (false, false) => {
                // GC below, as high as its runs ask (a quarter of the height at least, half
                // at most, unless the chart grew for them); performance above with the rest.
                let h = area.dim_in_pixel().1;
                let want = gc_height(gc.len(), sc);
                let gc_h = if drawn.height > size.height {
                    h.saturating_sub(size.height / 2)
                } else {
                    want.clamp(h / 4, h / 2)
                };
                let (top, bottom) = area.split_vertically(h - gc_h);
                let top = top.margin(0, sc.label, 0, 0);
                perf_section(&top, &perf, sc, size, opts.log_y)?;
                gc_section(&bottom, &gc, sc, size, opts)?;
            }
            (true, true) => centred(&area, "no runs to compare", sc)?,
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::perf::Operation;

    fn op(name: &str, count: u64, total: f64) -> Operation {
        Operation {
            name: name.into(),
            count,
            errors: 0,
            total_ms_sum: total,
            java_ms_sum: None,
            db_ms_sum: None,
            db_calls_sum: None,
            total_ms_mean: total / count as f64,
            total_ms_p95: 0.0,
            total_ms_max: 0.0,
            db_share_pct: None,
            error_pct: 0.0,
            throughput_per_s: None,
            total_ms_min: 0.0,
            total_ms_p50: 0.0,
            total_ms_p90: 0.0,
            total_ms_p99: 0.0,
            java_ms_mean: None,
            db_ms_mean: None,
        }
    }

    fn summary(ops: Vec<Operation>) -> PerfSummary {
        PerfSummary {
            requests: ops.iter().map(|o| o.count).sum(),
            errors: 0,
            error_pct: None,
            inconsistent: 0,
            first: None,
            last: None,
            span_s: None,
            throughput_per_s: None,
            total_ms_sum: 0.0,
            java_ms_sum: None,
            db_ms_sum: None,
            db_share_pct: None,
            db_calls_sum: None,
            total_ms_mean: None,
            total_ms_p50: None,
            total_ms_p90: None,
            total_ms_p95: None,
            total_ms_p99: None,
            total_ms_max: None,
            over: Vec::new(),
            bands: Vec::new(),
            operations: ops,
            intervals: None,
            error_messages: Vec::new(),
            total_ms_sketch: None,
        }
    }

    #[test]
    fn busiest_operations_sum_every_run() {
        // before: a 100, b 300; after: a 250, c 40, b 10 → a 350, b 310, c 40.
        let before = summary(vec![op("b", 3, 300.0), op("a", 1, 100.0)]);
        let after = summary(vec![op("a", 5, 250.0), op("c", 2, 40.0), op("b", 1, 10.0)]);
        assert_eq!(busiest_operations(&[&before, &after]), ["a", "b", "c"]);
        // Equal totals: by name.
        let tie = summary(vec![op("y", 1, 5.0), op("x", 2, 5.0)]);
        assert_eq!(busiest_operations(&[&tie]), ["x", "y"]);
        assert!(busiest_operations(&[]).is_empty());
    }

    #[test]
    fn throughput_is_requests_over_the_runs_span() {
        // soap-before's loadCustomersList: 153 requests over 1020.830 s.
        let t = operation_throughput(153, Some(1020.830)).unwrap();
        assert!((t - 0.149878).abs() < 1e-6, "{t}");
        assert_eq!(operation_throughput(4, Some(2.0)), Some(2.0));
        assert_eq!(operation_throughput(1, None), None);
        assert_eq!(operation_throughput(1, Some(0.0)), None);
    }

    #[test]
    fn values_have_three_significant_digits() {
        assert_eq!(value_text(2590.834), "2591");
        assert_eq!(value_text(725.64), "726");
        assert_eq!(value_text(99.96), "100");
        assert_eq!(value_text(32.133), "32.1");
        assert_eq!(value_text(28.907), "28.9");
        assert_eq!(value_text(0.470), "0.47");
        assert_eq!(value_text(0.149878), "0.15");
        assert_eq!(value_text(0.001234), "0.00123");
        assert_eq!(value_text(5.0), "5");
        assert_eq!(value_text(0.0), "0");
    }

    #[test]
    fn pauses_in_tenths() {
        assert_eq!(pause_text(274.862), "274.9");
        assert_eq!(pause_text(605.221), "605.2");
        assert_eq!(pause_text(10.0), "10.0");
        assert_eq!(pause_text(2590.834), "2591");
        assert_eq!(pause_text(999.96), "1000");
        assert_eq!(pause_text(0.03), "0.03");
        assert_eq!(pause_text(0.0), "0");
    }

    #[test]
    fn long_names_are_shortened_at_the_end_in_the_title() {
        let a = "a-very-long-run-name-for-the-nightly-soak-test-of-the-order-service-before.log";
        let b = "a-very-long-run-name-for-the-nightly-soak-test-of-the-order-service-after.log";
        // Two runs: 45 characters each less " vs ", the last of them "…".
        let t = title(&[a, b], None);
        let want = format!("{}… vs {}…", &a[..40], &b[..40]);
        assert_eq!(t, want);
        assert!(t.chars().count() <= TITLE_CHARS);
        assert_eq!(title(&["before", "after"], None), "before vs after");
    }

    #[test]
    fn titles_name_the_runs() {
        assert_eq!(chart_title(&["before", "after"]), "before vs after");
        assert_eq!(
            chart_title(&["a", "b", "c", "d", "e", "f"]),
            "a vs b vs c vs … (6 runs)"
        );
    }

    #[test]
    fn operations_fit_the_plot() {
        // 2 runs at 20 px labels: a row is 2 × 18 / 0.8 = 45 px; 300 px hold 6 rows.
        assert_eq!(operations_that_fit(300, 2, 20), 6);
        // Plenty of room: 12 at most; none: 1 at least.
        assert_eq!(operations_that_fit(5000, 2, 20), MAX_OPERATIONS);
        assert_eq!(operations_that_fit(10, 3, 20), 1);
    }

    #[test]
    fn colours_follow_the_runs_and_repeat_after_eight() {
        assert_eq!(run_color(0), RGBColor(0, 114, 178));
        assert_eq!(run_color(1), RGBColor(230, 159, 0));
        assert_eq!(run_color(8), run_color(0));
    }
}
