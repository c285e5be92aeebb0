//! Every chart that applies to one input: what `gcperf chart` writes per log and what
//! `gcperf report` puts on its page. Analyses run here (polars, in `analyze`); drawing in
//! `render::gc` and `render::perf`.

use super::Size;
use crate::analyze;
use crate::load::{Input, LoadedPerf};
use std::path::{Path, PathBuf};

/// A timeline of more points than this is refused: nobody reads 20,000 points, and drawing
/// them would take long.
pub const MAX_TIMELINE_POINTS: i64 = 20_000;

/// How to draw.
#[derive(Debug, Clone)]
pub struct ChartSettings {
    pub size: Size,
    pub log_y: bool,
    /// GC pause-duration band edges (ms) for the pause histogram.
    pub gc_bands: Vec<f64>,
    /// Which requests count and the latency bands, for performance logs.
    pub perf: analyze::perf::PerfOptions,
    /// Timeline interval (ms); None: chosen from the log's span.
    pub interval_ms: Option<i64>,
    /// The request window in words (`first 60s left out`), for the charts' titles.
    pub window: String,
    /// `--pause-target` (ms): GC pauses counted against it instead of the log's own target.
    pub pause_target_ms: Option<f64>,
    /// `--skip`, `--from`, `--to` on GC logs (`report` applies it as it loads each input).
    pub gc_window: analyze::window::GcWindow,
}

#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    #[error(transparent)]
    Render(#[from] super::RenderError),
    #[error("{0}")]
    Polars(#[from] polars::prelude::PolarsError),
    #[error("{0}")]
    Settings(String),
}

/// The file name shown in chart titles.
pub fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Draw every chart of `input`; `path_for(chart)` names each file (`pauses`, `heap`,
/// `pause-histogram` for GC logs; `timeline`, `latency-histogram`, `split` for performance
/// logs). Returns the files written, in that order.
pub fn charts_for(
    input: &Input,
    s: &ChartSettings,
    path_for: &dyn Fn(&str) -> PathBuf,
) -> Result<Vec<PathBuf>, ChartError> {
    match input {
        Input::Gc(l) => {
            let title = file_name(&l.path);
            let series = analyze::gc::series(&l.frame, s.size.width as usize)?;
            let bands = analyze::gc::bands(&l.frame, &s.gc_bands)?;
            let (pp, hp, bp) = (
                path_for("pauses"),
                path_for("heap"),
                path_for("pause-histogram"),
            );
            let target = s
                .pause_target_ms
                .or_else(|| analyze::slo::meta_pause_target(&l.log.meta));
            let target = match target {
                Some(t) => Some((t, analyze::slo::pauses_over(&l.frame, t)?)),
                None => None,
            };
            super::gc::pauses(&pp, &title, &series, s.size, s.log_y, target)?;
            super::gc::heap(&hp, &title, &series, s.size)?;
            super::gc::histogram(&bp, &title, &bands, s.size, s.log_y)?;
            Ok(vec![pp, hp, bp])
        }
        Input::Perf(l) => perf_charts(l, s, path_for),
    }
}

/// A performance log's charts: timeline, latency histogram, Java/DB split.
fn perf_charts(
    l: &LoadedPerf,
    s: &ChartSettings,
    path_for: &dyn Fn(&str) -> PathBuf,
) -> Result<Vec<PathBuf>, ChartError> {
    use super::perf as chart;
    let title = file_name(&l.path);
    let sum = analyze::perf::summary(&l.frame, &s.perf)?;
    let span_ms = sum.span_s.map_or(0, |v| (v * 1000.0).round() as i64);
    // A chosen interval too fine for the span is the user's to change (below); the automatic
    // one is made coarse enough (a log whose dates span centuries gets years, not hours).
    let iv = s.interval_ms.unwrap_or_else(|| {
        analyze::perf::auto_interval_ms(span_ms, sum.requests)
            .max(span_ms / MAX_TIMELINE_POINTS + 1)
    });
    if span_ms / iv >= MAX_TIMELINE_POINTS {
        return Err(ChartError::Settings(format!(
            "{}: --interval {} gives {} points over the log's {:.0} s; use {} or longer",
            l.label,
            chart::duration_text(iv),
            span_ms / iv + 1,
            span_ms as f64 / 1000.0,
            chart::duration_text(span_ms / MAX_TIMELINE_POINTS + 1),
        )));
    }
    let series = analyze::perf::intervals(&l.frame, &s.perf, iv)?;
    let ops = analyze::perf::split(&sum.operations);
    let (tp, hp, sp) = (
        path_for("timeline"),
        path_for("latency-histogram"),
        path_for("split"),
    );
    chart::timeline(&tp, &title, &s.window, &series, iv, s.size)?;
    chart::latency_histogram(&hp, &title, &s.window, &sum.bands, s.size, s.log_y)?;
    chart::split(&sp, &title, &s.window, &ops, s.size)?;
    Ok(vec![tp, hp, sp])
}

/// File stems for inputs, in order: each file's stem, with `-2`, `-3`... where a stem repeats,
/// so that every input's charts get their own names.
pub fn unique_stems<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Vec<String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    paths
        .into_iter()
        .map(|p| {
            let stem = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "log".into());
            let n = seen.entry(stem.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                format!("{stem}-{n}")
            } else {
                stem
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_repeat_with_a_count() {
        let p = [
            Path::new("a/gc.log"),
            Path::new("b/gc.log"),
            Path::new("app.jtl"),
            Path::new("c/gc.log.gz"),
        ];
        assert_eq!(unique_stems(p), vec!["gc", "gc-2", "app", "gc.log"]);
    }
}
