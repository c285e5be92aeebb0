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

/// A chart by name (`chart --kind`), each written as `<stem>-<name>.png`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChartKind {
    Pauses,
    Heap,
    PauseHistogram,
    Timeline,
    LatencyHistogram,
    Split,
    LoadCurve,
}

impl ChartKind {
    pub const ALL: [ChartKind; 7] = [
        ChartKind::Pauses,
        ChartKind::Heap,
        ChartKind::PauseHistogram,
        ChartKind::Timeline,
        ChartKind::LatencyHistogram,
        ChartKind::Split,
        ChartKind::LoadCurve,
    ];
    /// What `chart` draws when no `--kind` is given: all but the load curve, which only
    /// says something of a run whose load varied.
    pub fn defaults() -> Vec<ChartKind> {
        ChartKind::ALL
            .into_iter()
            .filter(|k| *k != ChartKind::LoadCurve)
            .collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Pauses => "pauses",
            ChartKind::Heap => "heap",
            ChartKind::PauseHistogram => "pause-histogram",
            ChartKind::Timeline => "timeline",
            ChartKind::LatencyHistogram => "latency-histogram",
            ChartKind::Split => "split",
            ChartKind::LoadCurve => "load-curve",
        }
    }

    /// Whether the chart is drawn from GC logs (else from performance logs).
    pub fn of_gc(self) -> bool {
        matches!(
            self,
            ChartKind::Pauses | ChartKind::Heap | ChartKind::PauseHistogram
        )
    }
}

impl std::str::FromStr for ChartKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        ChartKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = ChartKind::ALL.iter().map(|k| k.name()).collect();
                format!("no chart kind `{s}`: use any of {}", names.join(", "))
            })
    }
}

/// How to draw.
#[derive(Debug, Clone)]
pub struct ChartSettings {
    /// The charts to draw, of those that apply to each log.
    pub kinds: Vec<ChartKind>,
    /// The load curve's percentiles (of 50, 90, 95, 99).
    pub percentiles: Vec<u32>,
    /// Objectives drawn on the load curve (those on its percentiles).
    pub objectives: Vec<analyze::slo::Objective>,
    pub size: Size,
    pub log_y: bool,
    /// The pause histogram's band edges, ms; empty: fitted to each log (`gc::fitted_bands`).
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

impl ChartError {
    /// A chart file could not be written (an output error), not a chart drawn.
    pub fn unwritten(&self) -> bool {
        matches!(self, ChartError::Render(r) if r.unwritten)
    }
    /// An option given cannot apply to this log (an `--interval` too fine for its span): the
    /// user's to change, a usage error.
    pub fn settings(&self) -> bool {
        matches!(self, ChartError::Settings(_))
    }
}

/// The file name shown in chart titles.
pub fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Draw the charts of `s.kinds` that apply to `input`; `path_for(chart)` names each file
/// (`pauses`, `heap`, `pause-histogram` for GC logs; `timeline`, `latency-histogram`, `split`,
/// `load-curve` for performance logs). Returns the files written, in that order; none when
/// no kind asked for applies to the log.
pub fn charts_for(
    input: &Input,
    s: &ChartSettings,
    path_for: &dyn Fn(&str) -> PathBuf,
) -> Result<Vec<PathBuf>, ChartError> {
    let want = |k: ChartKind| s.kinds.contains(&k);
    match input {
        Input::Gc(l) => {
            let title = file_name(&l.path);
            // Named here: `path_for` need not be shared between threads.
            let name = |k: ChartKind| want(k).then(|| path_for(k.name()));
            let (pp, hp, bp) = (
                name(ChartKind::Pauses),
                name(ChartKind::Heap),
                name(ChartKind::PauseHistogram),
            );
            // The pause and heap charts (one series) beside the histogram: all one after the
            // other, a 2.9 M-row log's charts kept one core busy for 0.25 s after the
            // streaming. (The pause and heap charts side by side as well: 4-9 MB more at the
            // peak, for no time to be seen.)
            let series_charts = || -> Result<Vec<PathBuf>, ChartError> {
                let mut out = Vec::new();
                if pp.is_none() && hp.is_none() {
                    return Ok(out);
                }
                let series = analyze::gc::series(&l.frame, s.size.width as usize)?;
                if let Some(pp) = pp {
                    let target = s
                        .pause_target_ms
                        .or_else(|| analyze::slo::meta_pause_target(&l.log.meta));
                    let target = target
                        .map(|t| analyze::slo::pauses_over(&l.frame, t).map(|n| (t, n)))
                        .transpose()?;
                    super::gc::pauses(&pp, &title, &series, s.size, s.log_y, target)?;
                    out.push(pp);
                }
                if let Some(hp) = hp {
                    super::gc::heap(&hp, &title, &series, s.size)?;
                    out.push(hp);
                }
                Ok(out)
            };
            let histogram = || -> Result<Option<PathBuf>, ChartError> {
                let Some(bp) = bp else {
                    return Ok(None);
                };
                let edges = match s.gc_bands.is_empty() {
                    true => analyze::gc::fitted_bands(&l.frame)?,
                    false => s.gc_bands.clone(),
                };
                let bands = analyze::gc::bands(&l.frame, &edges)?;
                super::gc::histogram(&bp, &title, &bands, s.size, s.log_y)?;
                Ok(Some(bp))
            };
            let (out, b) = rayon::join(series_charts, histogram);
            let mut out = out?;
            out.extend(b?);
            Ok(out)
        }
        Input::Perf(l) => perf_charts(l, s, path_for),
    }
}

/// A performance log's charts: timeline, latency histogram, Java/DB split, load curve.
fn perf_charts(
    l: &LoadedPerf,
    s: &ChartSettings,
    path_for: &dyn Fn(&str) -> PathBuf,
) -> Result<Vec<PathBuf>, ChartError> {
    use super::perf as chart;
    let want = |k: ChartKind| s.kinds.contains(&k);
    let title = file_name(&l.path);
    let sum = analyze::perf::summary(&l.frame, &s.perf)?;
    let span_ms = sum.span_s.map_or(0, |v| (v * 1000.0).round() as i64);
    // A chosen interval too fine for the span is the user's to change (below); the automatic
    // one is made coarse enough (a log whose dates span centuries gets years, not hours).
    let iv = s.interval_ms.unwrap_or_else(|| {
        analyze::perf::auto_interval_ms(span_ms, sum.requests)
            .max(span_ms / MAX_TIMELINE_POINTS + 1)
    });
    let timed = want(ChartKind::Timeline) || want(ChartKind::LoadCurve);
    if timed && span_ms / iv >= MAX_TIMELINE_POINTS {
        return Err(ChartError::Settings(format!(
            "{}: --interval {} gives {} points over the log's {:.0} s; use {} or longer",
            l.label,
            chart::duration_text(iv),
            span_ms / iv + 1,
            span_ms as f64 / 1000.0,
            chart::duration_text(chart::whole_up(span_ms / MAX_TIMELINE_POINTS + 1)),
        )));
    }
    let mut out = Vec::new();
    if want(ChartKind::Timeline) {
        let series = analyze::perf::intervals(&l.frame, &s.perf, iv)?;
        let tp = path_for(ChartKind::Timeline.name());
        chart::timeline(&tp, &title, &s.window, &series, iv, s.size)?;
        out.push(tp);
    }
    if want(ChartKind::LatencyHistogram) {
        let hp = path_for(ChartKind::LatencyHistogram.name());
        chart::latency_histogram(&hp, &title, &s.window, &sum.bands, s.size, s.log_y)?;
        out.push(hp);
    }
    if want(ChartKind::Split) {
        let ops = analyze::perf::split(&sum.operations);
        let sp = path_for(ChartKind::Split.name());
        chart::split(&sp, &title, &s.window, &ops, s.size)?;
        out.push(sp);
    }
    if want(ChartKind::LoadCurve) {
        let lp = path_for(ChartKind::LoadCurve.name());
        load_curve(&lp, l, s, iv, &title)?;
        out.push(lp);
    }
    Ok(out)
}

/// One run's load curve: a point per interval (of `iv` ms) that is a rate, its percentiles
/// against its throughput; the objectives on those percentiles as lines.
fn load_curve(
    path: &Path,
    l: &LoadedPerf,
    s: &ChartSettings,
    iv: i64,
    name: &str,
) -> Result<(), ChartError> {
    use super::load_curve::{self as lc, LoadPoint};
    let pcts: Vec<f64> = s.percentiles.iter().map(|&p| f64::from(p)).collect();
    let rows = analyze::perf::load_intervals(&l.frame, &s.perf, iv, &pcts)?;
    let points: Vec<LoadPoint> = rows
        .into_iter()
        .filter(|r| r.requests > 0)
        .filter_map(|r| {
            Some(LoadPoint {
                throughput: r.throughput_per_s?,
                values: r.percentiles,
            })
        })
        .collect();
    let (series, limits) = lc::series_of(&s.objectives, &s.percentiles);
    let every = super::perf::duration_text(iv);
    let window = if s.window.is_empty() {
        String::new()
    } else {
        format!(", {}", s.window)
    };
    let title = format!(
        "{name}: {} against throughput, {} intervals of {every}{window}",
        series.join(", "),
        points.len()
    );
    let x_desc = format!("throughput (requests/s within each {every})");
    let curve = lc::Curve {
        title: &title,
        x_desc: &x_desc,
        series: &series,
        points: &points,
        limits: &limits,
        connect: false,
    };
    Ok(lc::load_curve(path, &curve, s.size)?)
}

/// File stems for inputs, in order, each unique: every stem given once keeps its name, and each
/// repeat of a stem takes `<stem>-2`, `<stem>-3`... the first that neither another input's own
/// stem nor a name given before it takes (`results.csv`, `results.json`, `results-2.log`:
/// `results`, `results-3`, `results-2`), so that no input's charts or page overwrite
/// another's.
pub fn unique_stems<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Vec<String> {
    let stems: Vec<String> = paths
        .into_iter()
        .map(|p| {
            p.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "log".into())
        })
        .collect();
    // Every input's own stem is taken before any repeat is renamed: a renamed repeat must not
    // take the name a later input has by right.
    let mut taken: std::collections::HashSet<String> = stems.iter().cloned().collect();
    let mut first = std::collections::HashSet::new();
    // The next number to try for each stem: each is tried once, so 16,000 folders of a
    // `gc.log` each stay linear.
    let mut next = std::collections::HashMap::<String, u64>::new();
    stems
        .into_iter()
        .map(|stem| {
            if first.insert(stem.clone()) {
                return stem;
            }
            let n = next.entry(stem.clone()).or_insert(2);
            let name = loop {
                let name = format!("{stem}-{n}");
                *n += 1;
                if !taken.contains(&name) {
                    break name;
                }
            };
            taken.insert(name.clone());
            name
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

    #[test]
    fn a_renamed_repeat_takes_no_other_inputs_stem() {
        // `results` twice and `results-2` once: the repeat cannot be `results-2`, which the
        // third input has; `results-3` is the first name free.
        let p = [
            Path::new("k6-csv/results.csv"),
            Path::new("k6-json/results.json"),
            Path::new("results-2.log"),
        ];
        assert_eq!(unique_stems(p), vec!["results", "results-3", "results-2"]);
        // A renamed repeat takes no name an earlier rename took either: `a`, `a`, `a-2`, `a`
        // give `a`, `a-3`, `a-2`, `a-4`.
        let p = [
            Path::new("x/a.log"),
            Path::new("y/a.log"),
            Path::new("a-2.log"),
            Path::new("z/a.log"),
        ];
        assert_eq!(unique_stems(p), vec!["a", "a-3", "a-2", "a-4"]);
    }
}
