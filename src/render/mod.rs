//! PNG charts with plotters. The font is embedded (DejaVu Sans), so rendering needs no system
//! fonts; the same input gives byte-identical files. Charts never parse: they take analysed
//! data (small, already aggregated) and draw it.

pub mod gc;

use plotters::style::{register_font, FontStyle, RGBColor};
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
        let px = |v: f64| (v * base).round().max(10.0) as u32;
        Scale {
            title: px(34.0),
            label: px(20.0),
            desc: px(22.0),
        }
    }
}

/// Rendering errors carry the chart's file name.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct RenderError {
    pub path: String,
    pub message: String,
}

pub(crate) fn err(path: &std::path::Path, e: impl std::fmt::Display) -> RenderError {
    RenderError {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Axis labels without a useless ".0".
pub(crate) fn tick(v: &f64) -> String {
    if v.fract() == 0.0 {
        return format!("{v:.0}");
    }
    // Axis steps like 0.1 accumulate float noise (0.30000000000000004): print six decimals
    // at most, trailing zeros cut.
    let s = format!("{v:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten at or above `v`.
pub(crate) fn nice_max(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    // 5% headroom so the tallest bar or impulse never touches the frame.
    let target = v * 1.05;
    let p = 10f64.powf(target.log10().floor());
    for m in [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0] {
        if m * p >= target {
            return m * p;
        }
    }
    10.0 * p
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn ticks_have_no_float_noise() {
        assert_eq!(tick(&(0.1 + 0.2)), "0.3");
        assert_eq!(tick(&0.7999999999999999), "0.8");
        assert_eq!(tick(&2.5), "2.5");
        assert_eq!(tick(&300.0), "300");
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
