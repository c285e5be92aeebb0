//! PNG charts with plotters. The font is embedded (DejaVu Sans), so rendering needs no system
//! fonts; the same input gives byte-identical files. Charts never parse: they take analysed
//! data (small, already aggregated) and draw it.

pub mod charts;
pub mod compare;
pub mod correlate;
pub mod gc;
pub mod load_curve;
pub mod perf;

use plotters::chart::{ChartBuilder, ChartContext, MeshStyle, SeriesLabelPosition};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind, IntoDrawingArea};
use plotters::element::{PathElement, Rectangle, Text};
use plotters::prelude::{BitMapBackend, DrawingBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{
    register_font, Color, FontStyle, IntoFont, IntoTextStyle, RGBColor, TextStyle, BLACK, WHITE,
};
use std::path::Path;
use std::sync::Once;

/// Register the embedded font under the family name every chart uses.
pub fn init_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is compiled in and known valid; a failure would only mean no text.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

pub const FONT: &str = "sans-serif";

/// The bold face at `px`. (plotters' `FontDesc::style(Bold)` only relabels a font already
/// looked up as regular, so the glyphs stay regular: the face must be asked for by name.)
pub(crate) fn bold(px: u32) -> plotters::style::FontDesc<'static> {
    (FONT, px, FontStyle::Bold).into_font()
}

/// Colours by pause kind, chosen to stay apart for colour-blind readers.
pub fn kind_color(kind: &str) -> RGBColor {
    match kind {
        "young" => RGBColor(0, 114, 178),
        "mixed" => RGBColor(86, 180, 233),
        "full" => RGBColor(213, 94, 0),
        "old" => RGBColor(230, 159, 0),
        "initial-mark" => RGBColor(0, 158, 115),
        "remark" => RGBColor(204, 121, 167),
        "cleanup" => RGBColor(120, 120, 120),
        _ => RGBColor(60, 60, 60),
    }
}

/// Chart size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    pub width: u32,
    pub height: u32,
}

impl std::str::FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (w, h) = s
            .split_once(['x', 'X'])
            .ok_or_else(|| format!("size must be WIDTHxHEIGHT, e.g. 1600x900, not {s:?}"))?;
        let parse = |v: &str| {
            v.trim()
                .parse::<u32>()
                .map_err(|_| format!("bad size {s:?}"))
        };
        let (width, height) = (parse(w)?, parse(h)?);
        if !(200..=10000).contains(&width) || !(150..=10000).contains(&height) {
            return Err(format!("size {s:?} out of range (200x150 to 10000x10000)"));
        }
        Ok(Size { width, height })
    }
}

impl Default for Size {
    fn default() -> Self {
        Size {
            width: 1600,
            height: 900,
        }
    }
}

/// Text sizes scaled with the chart so that text stays readable at 100% zoom.
pub(crate) struct Scale {
    pub title: u32,
    pub label: u32,
    pub desc: u32,
}

impl Scale {
    pub fn of(size: Size) -> Self {
        let base = (size.height.min(size.width) as f64 / 900.0).max(0.4);
        // Half the default size would give 10 px labels, too small to read at 100% zoom:
        // small charts keep 12 px labels and 13 px axis descriptions.
        let px = |v: f64, min: f64| (v * base).round().max(min) as u32;
        Scale {
            title: px(34.0, 16.0),
            label: px(20.0, 12.0),
            desc: px(22.0, 13.0),
        }
    }
}

/// Rendering errors carry the chart's file name, and whether the file could not be written
/// (an output error: exit 2) rather than the chart drawn.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct RenderError {
    pub path: String,
    pub message: String,
    pub unwritten: bool,
}

pub(crate) fn err(path: &std::path::Path, e: impl std::fmt::Display) -> RenderError {
    RenderError {
        path: path.display().to_string(),
        message: e.to_string(),
        unwritten: false,
    }
}

/// The drawing area of a chart file.
pub(crate) type Root<'a> = DrawingArea<BitMapBackend<'a>, Shift>;
/// What drawing a chart returns: plotters' errors, named with the file by `render`.
pub(crate) type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Draw a chart into the PNG at `path`: fonts registered, white background, `draw` given the
/// root area and the text sizes for `size`, the file written at the end. Errors name the file.
pub(crate) fn render(
    path: &Path,
    size: Size,
    draw: impl FnOnce(&Root, &Scale) -> Drawn,
) -> Result<(), RenderError> {
    render_scaled(path, size, Scale::of(size), draw)
}

/// As `render`, with text sizes of another size's (a chart grown taller for its rows keeps
/// the text of the size asked for).
pub(crate) fn render_scaled(
    path: &Path,
    size: Size,
    sc: Scale,
    draw: impl FnOnce(&Root, &Scale) -> Drawn,
) -> Result<(), RenderError> {
    init_fonts();
    let (w, h) = (size.width, size.height);
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        (|| -> Drawn {
            root.fill(&WHITE)?;
            draw(&root, &sc)?;
            root.present()?;
            Ok(())
        })()
        .map_err(|e| err(path, e))?;
    }
    // Encoded in memory, then written whole: a full disk left a truncated PNG under the
    // chart's name.
    let png = palette_png(&rgb, w, h).map_err(|e| err(path, e))?;
    crate::output::write(path, &png).map_err(|e| RenderError {
        unwritten: true,
        ..err(path, format!("cannot write: {e}"))
    })
}

/// The RGB pixels as runs of one colour: (colour as 0x00RRGGBB, length). Eight pixels are
/// compared at once where they equal the pixel before them (24 bytes against the same shifted
/// by one pixel): a run of white across a chart is a few comparisons, not one per pixel.
fn pixel_runs(rgb: &[u8]) -> impl Iterator<Item = (u32, usize)> + '_ {
    let n = rgb.len() / 3;
    let mut i = 0;
    std::iter::from_fn(move || {
        if i >= n {
            return None;
        }
        let start = i;
        let p = &rgb[3 * i..3 * i + 3];
        i += 1;
        while i + 8 <= n && rgb[3 * i..3 * i + 24] == rgb[3 * i - 3..3 * i + 21] {
            i += 8;
        }
        while i < n && rgb[3 * i..3 * i + 3] == *p {
            i += 1;
        }
        Some((
            u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]),
            i - start,
        ))
    })
}

/// A chart as an indexed PNG. Charts are a few flat colours plus the edges antialiasing
/// blends (260-1,700 colours on the fixtures' charts): a palette of the 256 most frequent
/// colours, the rarer blends drawn in the nearest of them, writes them about 3x smaller than
/// RGB (the fixtures' report charts 20 MB → 6.3 MB; a 1,000-log report 321 MB → about 70 MB)
/// with no difference the eye sees. A chart of 256 colours or fewer is written exactly.
fn palette_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
    use rustc_hash::FxHashMap;
    // The pixels as runs of one colour, each colour a dense id: most of a chart is long runs
    // of white, and a run costs one lookup, mostly in a small direct-mapped cache (a hash
    // probe per run was a quarter of a report's time).
    let mut ids: FxHashMap<u32, u32> = FxHashMap::default();
    let mut colours: Vec<u32> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let mut cache = vec![(u32::MAX, 0u32); 4096];
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for (c, n) in pixel_runs(rgb) {
        let slot = (c.wrapping_mul(0x9E37_79B1) >> 20) as usize & 4095;
        let id = match cache[slot] {
            (k, id) if k == c => id,
            _ => {
                let id = *ids.entry(c).or_insert_with(|| {
                    colours.push(c);
                    counts.push(0);
                    colours.len() as u32 - 1
                });
                cache[slot] = (c, id);
                id
            }
        };
        counts[id as usize] += n as u64;
        runs.push((id, n as u32));
    }
    let mut by_count: Vec<u32> = (0..colours.len() as u32).collect();
    by_count.sort_unstable_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        counts[b].cmp(&counts[a]).then(colours[a].cmp(&colours[b]))
    });
    let palette: Vec<u32> = by_count
        .iter()
        .take(256)
        .map(|&id| colours[id as usize])
        .collect();
    let rgb_of = |c: u32| [(c >> 16) as u8, (c >> 8) as u8, c as u8];
    let nearest = |c: u32| -> u8 {
        let [r, g, b] = rgb_of(c).map(i32::from);
        let d = |p: u32| {
            let [pr, pg, pb] = rgb_of(p).map(i32::from);
            (r - pr).pow(2) + (g - pg).pow(2) + (b - pb).pow(2)
        };
        (0..palette.len())
            .min_by_key(|&i| d(palette[i]))
            .map_or(0, |i| i as u8)
    };
    // Each colour's palette index: its own among the 256, else the nearest's.
    let mut index = vec![0u8; colours.len()];
    for (rank, &id) in by_count.iter().enumerate() {
        index[id as usize] = u8::try_from(rank).unwrap_or_else(|_| nearest(colours[id as usize]));
    }
    let mut indices = Vec::with_capacity(rgb.len() / 3);
    for (id, n) in runs {
        indices.resize(indices.len() + n as usize, index[id as usize]);
    }
    // Each row as the difference from the row above (PNG's Up filter: a chart's rows repeat
    // the one above but where a line crosses), deflated at level 1. On the fixtures' charts
    // against png's own level-6 encoding of the unfiltered indices: 1.7 ms a chart instead of
    // 9 ms, 37 KB instead of 29 KB (level 6 made a 1,000-log report 40 % slower than RGB).
    use std::io::Write;
    let width = w as usize;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(1));
    let mut line = Vec::with_capacity(width + 1);
    let mut above: &[u8] = &[];
    for row in indices.chunks(width.max(1)) {
        line.clear();
        if above.is_empty() {
            line.push(0);
            line.extend_from_slice(row);
        } else {
            line.push(2);
            line.extend(row.iter().zip(above).map(|(a, b)| a.wrapping_sub(*b)));
        }
        z.write_all(&line).map_err(png::EncodingError::IoError)?;
        above = row;
    }
    let data = z.finish().map_err(png::EncodingError::IoError)?;
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, w, h);
    e.set_color(png::ColorType::Indexed);
    e.set_depth(png::BitDepth::Eight);
    e.set_palette(palette.iter().flat_map(|&c| rgb_of(c)).collect::<Vec<u8>>());
    let mut writer = e.write_header()?;
    writer.write_chunk(png::chunk::IDAT, &data)?;
    writer.finish()?;
    Ok(out)
}

/// Longest label drawn, in characters: wider than any chart's label room at the smallest
/// font, so cutting here never shows, and measuring stays cheap for a 100k-character name.
const LABEL_CHARS: usize = 200;

/// `name` cut in the middle with "…" to at most `max_w` pixels wide (keeping at least 4
/// characters), and its width: names that differ only at the end (`...Service.getOrder`,
/// `...Service.getOrders`) stay apart. A binary search over the kept length: a few
/// measurements, not one per character (a 20k-character operation name took 12 s measured
/// that way).
pub(crate) fn cut_label(
    area: &Root,
    name: &str,
    style: &TextStyle,
    max_w: u32,
) -> Result<(String, u32), Box<dyn std::error::Error>> {
    let n = name.chars().count();
    // Head and tail of a long name; nothing in between is ever shown.
    let head: Vec<char> = name.chars().take(LABEL_CHARS).collect();
    let tail: Vec<char> = name.chars().skip(n.saturating_sub(LABEL_CHARS)).collect();
    let with_dots = |k: usize| -> String {
        let front = k.div_ceil(2).min(head.len());
        let back = (k / 2).min(tail.len());
        let mut s: String = head[..front].iter().collect();
        s.push('…');
        s.extend(&tail[tail.len() - back..]);
        s
    };
    let chars = head.len();
    let full = if n > LABEL_CHARS {
        with_dots(LABEL_CHARS)
    } else {
        name.to_string()
    };
    let w = area.estimate_text_size(&full, style)?.0;
    if w <= max_w || chars <= 4 {
        return Ok((full, w));
    }
    // The most characters kept that fit: `lo` fits (or is the minimum), `hi` does not.
    let (mut lo, mut hi) = (4usize, chars);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if area.estimate_text_size(&with_dots(mid), style)?.0 <= max_w {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let cut = with_dots(lo);
    let w = area.estimate_text_size(&cut, style)?.0;
    Ok((cut, w))
}

/// `names` cut as `cut_label` cuts them, and the width of the widest.
pub(crate) fn cut_labels<'s>(
    area: &Root,
    names: impl IntoIterator<Item = &'s str>,
    style: &TextStyle,
    max_w: u32,
) -> Result<(Vec<String>, u32), Box<dyn std::error::Error>> {
    let cut: Vec<(String, u32)> = names
        .into_iter()
        .map(|n| cut_label(area, n, style, max_w))
        .collect::<Result<_, _>>()?;
    let widest = cut.iter().map(|c| c.1).max().unwrap_or(0);
    Ok((cut.into_iter().map(|c| c.0).collect(), widest))
}

/// The width of the widest of `texts` in `style` (0 for none).
pub(crate) fn widest<'s>(
    area: &Root,
    texts: impl IntoIterator<Item = &'s str>,
    style: &TextStyle,
) -> Result<u32, Box<dyn std::error::Error>> {
    texts
        .into_iter()
        .try_fold(0, |w, t| Ok(w.max(area.estimate_text_size(t, style)?.0)))
}

/// The chart's frame: a margin all round and the caption on top; returns the area below it.
/// (What plotters' `ChartBuilder::margin` + `caption` do, as a step of its own so that a
/// legend row can go between the caption and the plot.)
pub(crate) fn titled<'a>(
    root: &Root<'a>,
    caption: &str,
    sc: &Scale,
) -> Result<Root<'a>, Box<dyn std::error::Error>> {
    let m = sc.label as i32;
    let area = root.margin(m, m, m, m);
    // A long file name shrinks the caption's font rather than running off the chart; one
    // longer than the chart at the smallest font is cut with "…".
    let mut px = sc.title;
    loop {
        let style = (FONT, px).into_text_style(root);
        let (cut, w) = cut_label(&area, caption, &style, area.dim_in_pixel().0)?;
        let fits = w <= area.dim_in_pixel().0 && cut == caption;
        if fits || px <= 10 {
            return Ok(area.titled(&cut, style)?);
        }
        px -= 1;
    }
}

/// A chart builder on `area` with the label areas every chart uses: the x axis below (tick
/// labels and description), the y axis on the left.
pub(crate) fn builder<'a, 'b>(
    area: &'a Root<'b>,
    sc: &Scale,
) -> ChartBuilder<'a, 'b, BitMapBackend<'b>> {
    let mut b = ChartBuilder::on(area);
    b.x_label_area_size(sc.label * 3)
        .y_label_area_size(sc.label * 4);
    b
}

/// The mesh style every chart uses: label and description fonts, light grid lines.
pub(crate) fn style_mesh<'a, 'b, 'm, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    m: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
    sc: &Scale,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    m.label_style((FONT, sc.label))
        .axis_desc_style((FONT, sc.desc))
        .light_line_style(RGBColor(235, 235, 235))
}

/// The series legend inside the plot (GC charts), on a translucent white box.
pub(crate) fn legend_inside<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    sc: &Scale,
    position: SeriesLabelPosition,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font((FONT, sc.label))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
}

/// A sentence in the middle of the plot, where there is nothing to draw.
pub(crate) fn note<DB: DrawingBackend, CT: CoordTranslate>(
    chart: &ChartContext<'_, DB, CT>,
    text: &str,
    sc: &Scale,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    centred(&chart.plotting_area().strip_coord_spec(), text, sc)
}

/// A sentence in the middle of `area`.
pub(crate) fn centred<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    sc: &Scale,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, h) = area.dim_in_pixel();
    let style = (FONT, sc.desc)
        .into_font()
        .into_text_style(area)
        .pos(Pos::new(HPos::Center, VPos::Center));
    area.draw(&Text::new(text, (w as i32 / 2, h as i32 / 2), style))
}

/// A polyline `width` px thick through pixel points, drawn as 1 px lines shifted to every
/// pixel offset within the width. (plotters' own thick polylines break up into dashes where
/// a segment is nearly vertical, as a throughput line falling to zero in a stall is.)
pub(crate) fn thick_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: &[(i32, i32)],
    color: RGBColor,
    width: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let w = width.max(1) as i32;
    let (lo, hi) = (-(w - 1) / 2, w / 2);
    for dx in lo..=hi {
        for dy in lo..=hi {
            area.draw(&PathElement::new(
                points
                    .iter()
                    .map(|&(x, y)| (x + dx, y + dy))
                    .collect::<Vec<_>>(),
                color,
            ))?;
        }
    }
    Ok(())
}

/// How a legend entry shows its series.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Mark {
    Line(RGBColor),
    Bar(RGBColor),
}

/// A legend as a row of entries (wrapped onto more rows if the width asks for it) at the top
/// of `area`, centred, outside the plot so that it never hides data; returns the area below.
pub(crate) fn legend_row<'a>(
    area: &Root<'a>,
    entries: &[(Mark, String)],
    sc: &Scale,
) -> Result<Root<'a>, Box<dyn std::error::Error>> {
    let style: TextStyle = (FONT, sc.label).into_text_style(area);
    let (w, _) = area.dim_in_pixel();
    let (mark_w, gap, spacing) = (sc.label * 2, sc.label / 2, sc.label * 2);
    let mut rows: Vec<Vec<(Mark, &str, u32)>> = vec![Vec::new()];
    let mut used = 0u32;
    for (mark, text) in entries {
        let ew = mark_w + gap + area.estimate_text_size(text, &style)?.0;
        let last = rows.last_mut().expect("one row at least");
        if !last.is_empty() && used + spacing + ew > w {
            rows.push(vec![(*mark, text.as_str(), ew)]);
            used = ew;
        } else {
            used += if last.is_empty() { ew } else { spacing + ew };
            last.push((*mark, text.as_str(), ew));
        }
    }
    let row_h = sc.label * 8 / 5;
    let height = row_h * rows.len() as u32 + sc.label / 2;
    let (top, rest) = area.split_vertically(height);
    for (r, row) in rows.iter().enumerate() {
        let row_w: u32 = row.iter().map(|e| e.2).sum::<u32>() + spacing * (row.len() as u32 - 1);
        let mut x = (w.saturating_sub(row_w) / 2) as i32;
        let y = (row_h * r as u32 + row_h / 2) as i32;
        for &(mark, text, ew) in row {
            let (x1, half) = (x + mark_w as i32, (sc.label / 3).max(3) as i32);
            match mark {
                Mark::Line(c) => top.draw(&PathElement::new(
                    vec![(x, y), (x1, y)],
                    c.stroke_width((sc.label / 6).max(2)),
                ))?,
                Mark::Bar(c) => top.draw(&Rectangle::new(
                    [
                        (x + mark_w as i32 / 4, y - half),
                        (x1 - mark_w as i32 / 4, y + half),
                    ],
                    c.filled(),
                ))?,
            }
            top.draw(&Text::new(
                text,
                (x1 + gap as i32, y),
                style.pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            x += (ew + spacing) as i32;
        }
    }
    Ok(rest)
}

/// A linear f64 axis with the ticks given. Plotters picks 1-2-5 steps of the value, which do
/// not land on clock times, category centres or powers of ten; this one draws bold ticks and
/// grid lines at `bold` and light grid lines at `light`, and labels through the mesh's
/// formatter.
#[derive(Debug, Clone)]
pub(crate) struct Ticked {
    pub lo: f64,
    pub hi: f64,
    pub bold: Vec<f64>,
    pub light: Vec<f64>,
}

impl Ticked {
    pub fn new(lo: f64, hi: f64, bold: Vec<f64>) -> Self {
        Ticked {
            lo,
            hi,
            bold,
            light: Vec::new(),
        }
    }

    /// An axis of `n` categories (room for one at least), ticked at their centres.
    pub fn centres(n: usize) -> Self {
        Ticked::new(
            0.0,
            n.max(1) as f64,
            (0..n).map(|i| i as f64 + 0.5).collect(),
        )
    }

    /// From 0 to `need` rounded up to a tick, so that the axis ends on one: ticks at the step
    /// `linear_step` takes for at most `max_n` of them (`whole`: 1 or more).
    pub fn up_to(need: f64, max_n: usize, whole: bool) -> Self {
        let step = linear_step(nice_max(need), max_n, whole);
        let hi = (need / step).ceil() * step;
        let ticks = (0..=(hi / step).round() as u64).map(|i| i as f64 * step);
        Ticked::new(0.0, hi, ticks.collect())
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        RangedCoordf64::from(self.lo..self.hi).map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// The step of ticks from 0 up to `hi`: 1, 2 or 5 times a power of ten, at most `max_n + 1`
/// ticks; 1 where no step fits under `hi`. `whole` keeps the step at 1 or more (counts).
fn linear_step(hi: f64, max_n: usize, whole: bool) -> f64 {
    if !(hi.is_finite() && hi > 0.0) {
        return 1.0;
    }
    let max_n = max_n.max(1) as f64;
    let mut p = 10f64.powf((hi / max_n).log10().floor());
    if whole {
        p = p.max(1.0);
    }
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| hi / s <= max_n)
        .unwrap_or(10.0 * p);
    if step <= hi * (1.0 + 1e-9) {
        step
    } else {
        1.0
    }
}

/// Axis labels without a useless ".0".
pub(crate) fn tick(v: &f64) -> String {
    if v.fract() == 0.0 {
        return format!("{v:.0}");
    }
    if v.abs() < 1e-4 {
        // Below what six decimals show (2 requests over centuries: 6e-12 req/s), not "0".
        return format!("{v:.1e}");
    }
    // Axis steps like 0.1 accumulate float noise (0.30000000000000004): print six decimals
    // at most, trailing zeros cut.
    trimmed(format!("{v:.6}"))
}

/// A number's text without the trailing zeros of its decimals ("0.470" → "0.47", "5.0" → "5").
pub(crate) fn trimmed(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten at or above `v`.
pub(crate) fn nice_max(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    // 5% headroom so the tallest bar or impulse never touches the frame.
    let target = v * 1.05;
    let p = 10f64.powf(target.log10().floor());
    [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0]
        .into_iter()
        .map(|m| m * p)
        .find(|v| *v >= target)
        .unwrap_or(10.0 * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(png: &[u8]) -> Vec<[u8; 3]> {
        let mut d = png::Decoder::new(png);
        d.set_transformations(png::Transformations::EXPAND);
        let mut r = d.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        buf[..info.buffer_size()]
            .chunks(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect()
    }

    /// 30 x 20 pixels: the 256 greys, two pixels each (white more), and three colours of a
    /// pixel each: the greys are the palette, kept exactly; each rare colour is drawn in its
    /// nearest grey by squared distance: [7, 8, 9] in grey 8 (2), [200, 201, 199] in grey 200
    /// (2), pure red in grey 85 ((255 - g)² + 2g² is least at g = 85).
    #[test]
    fn palettes_keep_the_frequent_colours_and_map_the_rare_to_the_nearest() {
        let grey = |v: u8| [v, v, v];
        let mut px: Vec<[u8; 3]> = (0..=255u8).flat_map(|v| [grey(v), grey(v)]).collect();
        px.extend([[7, 8, 9], [200, 201, 199], [255, 0, 0]]);
        px.resize(600, grey(255));
        let rgb: Vec<u8> = px.iter().flatten().copied().collect();
        let out = decoded(&palette_png(&rgb, 30, 20).unwrap());
        assert_eq!(out[..512], px[..512]);
        assert_eq!(out[512..515], [grey(8), grey(200), grey(85)]);
        assert_eq!(out[515..], px[515..]);
        // 256 colours or fewer: exactly the image.
        assert_eq!(
            decoded(&palette_png(&rgb[..512 * 3], 32, 16).unwrap()),
            px[..512]
        );
    }

    #[test]
    fn sizes_parse_and_reject() {
        assert_eq!(
            "1600x900".parse::<Size>(),
            Ok(Size {
                width: 1600,
                height: 900
            })
        );
        assert!("1600".parse::<Size>().is_err());
        assert!("10x10".parse::<Size>().is_err());
    }

    #[test]
    fn long_labels_are_cut_in_the_middle_to_the_width() {
        init_fonts();
        let mut buf = vec![0u8; 800 * 100 * 3];
        let root = BitMapBackend::with_buffer(&mut buf, (800, 100)).into_drawing_area();
        let style: TextStyle = (FONT, 12).into_text_style(&root);
        let name = format!("head{}tail", "y".repeat(100_000));
        let (cut, w) = cut_label(&root, &name, &style, 300).unwrap();
        assert!(w <= 300, "{w}");
        assert!(cut.starts_with("head") && cut.ends_with("tail") && cut.contains('…'));
        // The most that fit: one more character would not.
        let n = cut.chars().count() - 1;
        assert!(n >= 20, "{cut}");
        // A name that fits is kept as it is; a tiny room still keeps 4 characters.
        assert_eq!(
            cut_label(&root, "getContract", &style, 300).unwrap().0,
            "getContract"
        );
        assert_eq!(cut_label(&root, &name, &style, 1).unwrap().0, "he…il");
    }

    #[test]
    fn ticks_have_no_float_noise() {
        assert_eq!(tick(&(0.1 + 0.2)), "0.3");
        assert_eq!(tick(&0.7999999999999999), "0.8");
        assert_eq!(tick(&2.5), "2.5");
        assert_eq!(tick(&300.0), "300");
        assert_eq!(tick(&0.000_003), "3.0e-6");
        assert_eq!(tick(&0.000_25), "0.00025");
    }

    #[test]
    fn nice_bounds() {
        assert_eq!(nice_max(275.0), 300.0);
        assert_eq!(nice_max(30.0), 40.0);
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(96.0), 120.0);
        assert_eq!(nice_max(4096.0), 5000.0);
    }
}
