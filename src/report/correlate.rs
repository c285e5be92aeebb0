//! `gcperf correlate`: how much of the slow tail GC explains, as text, CSV/TSV, Markdown or
//! JSON (the analysis structs serialised as they are).

use super::{num, opt, opt_count, Format, Output, Table, TableWriter, Text};
use crate::analyze::correlate::{Clock, CorrelateError, Correlation, Figures, PauseFigures};
use crate::parse::num::format_wall_ms;

/// `3 h 05 min`, `12 min 30 s`, `4.2 s`, `350 ms`: how far apart two logs are.
pub fn gap_text(ms: i64) -> String {
    let ms = ms.max(0);
    let s = ms / 1000;
    if s >= 86_400 {
        format!("{} d {} h", s / 86_400, s % 86_400 / 3600)
    } else if s >= 3600 {
        format!("{} h {:02} min", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else if ms >= 1000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{ms} ms")
    }
}

/// The one-line message for an error of the analysis (the spans of logs that do not meet,
/// and how far apart they are).
pub fn error_text(e: &CorrelateError) -> String {
    match e {
        CorrelateError::NoOverlap {
            gc_first_ms,
            gc_last_ms,
            perf_first_ms,
            perf_last_ms,
        } => {
            let (gap, how) = if perf_last_ms < gc_first_ms {
                (gc_first_ms - perf_last_ms, "ends before the GC log starts")
            } else {
                (perf_first_ms - gc_last_ms, "starts after the GC log ends")
            };
            format!(
                "the logs do not overlap in time: GC log {} to {}, performance logs {} to {} \
                 (host clock); the performance logs' span {how}, {} apart (wrong files, or a \
                 clock offset: see --tz and --gc-start)",
                format_wall_ms(*gc_first_ms),
                format_wall_ms(*gc_last_ms),
                format_wall_ms(*perf_first_ms),
                format_wall_ms(*perf_last_ms),
                gap_text(gap)
            )
        }
        e => e.to_string(),
    }
}

/// How the clocks were aligned, in a sentence.
pub fn clock_text(c: &Clock) -> String {
    let gc = match (c.gc, &c.gc_zone, &c.gc_start) {
        ("--gc-start", _, Some(s)) => format!("GC log placed by --gc-start {s} (host local time)"),
        (_, Some(z), _) => format!("GC log's date stamps ({z})"),
        _ => "GC log's date stamps (local time)".to_string(),
    };
    let mut perf: Vec<&str> = c.perf.clone();
    perf.dedup();
    let mut s = format!(
        "{gc}; performance logs in {}",
        if perf.is_empty() {
            "-".to_string()
        } else {
            perf.join(" and ")
        }
    );
    if let (Some(h), Some(from)) = (&c.host_offset, c.host_offset_from) {
        s.push_str(&format!("; host clock {h} ({from})"));
    }
    let moved: Vec<String> = std::iter::once(("GC log", c.gc_shift_ms))
        .chain(c.perf_shift_ms.iter().map(|&m| ("performance log", m)))
        .filter(|(_, m)| *m != 0)
        .map(|(w, m)| {
            format!(
                "{w} moved {}{}",
                if m < 0 { "-" } else { "+" },
                gap_text(m.abs())
            )
        })
        .collect();
    if !moved.is_empty() {
        s.push_str(&format!("; {}", moved.join(", ")));
    }
    if c.gc_start_ignored {
        s.push_str("; --gc-start not used (the GC log has date stamps)");
    }
    if c.restarts > 0 && c.gc == "--gc-start" {
        s.push_str(&format!(
            "; the JVM restarted {} time(s): later runs placed end to end after the first",
            c.restarts
        ));
    }
    s
}

const FIGURE_HEADERS: [&str; 14] = [
    "requests",
    "slow_requests",
    "slow_with_gc",
    "slow_with_gc_pct",
    "fast_with_gc",
    "slow_only_by_gc",
    "gc_ms_in_slow",
    "gc_ms_in_slow_mean",
    "slow_total_ms",
    "gc_share_of_slow_pct",
    "db_ms_in_slow",
    "db_share_of_slow_pct",
    "p99_ms",
    "p99_without_gc_ms",
];

fn figure_cells(f: &Figures, d: Option<usize>) -> Vec<String> {
    vec![
        f.requests.to_string(),
        f.slow_requests.to_string(),
        f.slow_with_gc.to_string(),
        opt(f.slow_with_gc_pct, d),
        f.fast_with_gc.to_string(),
        f.slow_only_by_gc.to_string(),
        num(f.gc_ms_in_slow, d),
        opt(f.gc_ms_in_slow_mean, d),
        num(f.slow_total_ms, d),
        opt(f.gc_share_of_slow_pct, d),
        opt(f.db_ms_in_slow, d),
        opt(f.db_share_of_slow_pct, d),
        opt(f.p99_ms, d),
        opt(f.p99_without_gc_ms, d),
    ]
}

const PAUSE_HEADERS: [&str; 6] = [
    "pauses",
    "pause_ms",
    "pauses_hitting_requests",
    "longest_pause_ms",
    "longest_pause_start",
    "longest_pause_requests",
];

fn pause_cells(p: &PauseFigures, d: Option<usize>) -> Vec<String> {
    let l = p.longest_pause.as_ref();
    vec![
        p.pauses.to_string(),
        num(p.pause_ms, d),
        p.pauses_hitting_requests.to_string(),
        l.map(|l| num(l.duration_ms, d)).unwrap_or_default(),
        l.map(|l| l.start.clone()).unwrap_or_default(),
        opt_count(l.map(|l| l.requests)),
    ]
}

/// The whole correlation as one table (CSV, TSV, Markdown): a row for all requests, one per
/// pause kind (and safepoints), one per operation; pause columns empty on operation rows.
pub fn table(cs: &[Correlation], d: Option<usize>) -> Table {
    let mut h: Vec<&str> = vec!["gc_log", "scope", "name"];
    h.extend(FIGURE_HEADERS);
    h.extend(PAUSE_HEADERS);
    let mut t = Table::new(&h).numeric_from(3);
    // longest_pause_start is a time.
    t.numeric[3 + FIGURE_HEADERS.len() + 4] = false;
    for c in cs {
        let all = PauseFigures {
            kind: "all",
            pauses: c.pauses,
            pause_ms: c.pause_ms,
            pauses_hitting_requests: c.pauses_hitting_requests,
            longest_pause: c.longest_pause.clone(),
            figures: c.figures.clone(),
        };
        let mut row = |scope: &str, name: &str, f: &Figures, p: Option<&PauseFigures>| {
            let mut r = vec![c.gc_log.clone(), scope.to_string(), name.to_string()];
            r.extend(figure_cells(f, d));
            match p {
                Some(p) => r.extend(pause_cells(p, d)),
                None => r.extend(std::iter::repeat_n(String::new(), PAUSE_HEADERS.len())),
            }
            t.push(r);
        };
        row("all", "", &all.figures, Some(&all));
        for k in &c.kinds {
            row("kind", k.kind, &k.figures, Some(k));
        }
        if let Some(s) = &c.safepoints {
            row("safepoints", "safepoint", &s.figures, Some(s));
        }
        if let Some(s) = &c.stalls {
            row("stalls", "stall", &s.figures, Some(s));
        }
        for o in &c.operations {
            row("operation", &o.operation, &o.figures, None);
        }
    }
    t
}

/// The text report of one correlation.
fn text(c: &Correlation) -> String {
    let f = &c.figures;
    let d = Some(1);
    let mut s = format!("GC log {} against {}\n", c.gc_log, c.perf_logs.join(", "));
    s.push_str(&format!("clock: {}\n", clock_text(&c.clock)));
    s.push_str(&format!(
        "requests {} to {}; GC log {} to {}{}\n\n",
        c.perf_first,
        c.perf_last,
        c.gc_first,
        c.gc_last,
        if c.requests_outside_gc_log > 0 {
            format!(
                "; {} requests outside the GC log's span (GC unknown there, counted as without)",
                c.requests_outside_gc_log
            )
        } else {
            String::new()
        }
    ));
    // No slow request: no figure, never a lone unit.
    let with = |v: Option<f64>, u: &str| crate::report::with_unit(v, 1, u);
    let pct = |v: Option<f64>| with(v, " %");
    s.push_str(&format!(
        "{} requests, {} slow (over {} ms); {} of the slow overlap a GC pause ({}), {} only \
         because of it; {} fast requests overlap a pause\n",
        f.requests,
        f.slow_requests,
        num(c.slow_ms, None),
        f.slow_with_gc,
        pct(f.slow_with_gc_pct),
        f.slow_only_by_gc,
        f.fast_with_gc,
    ));
    s.push_str(&format!(
        "GC inside slow requests: {} ms, {} per slow request, {} of their time{}\n",
        num(f.gc_ms_in_slow, Some(1)),
        with(f.gc_ms_in_slow_mean, " ms"),
        pct(f.gc_share_of_slow_pct),
        match (f.db_share_of_slow_pct, f.gc_share_of_slow_pct) {
            (Some(db), Some(gc)) => format!(
                " (database {} %, the rest of Java {} %)",
                num(db, Some(1)),
                num((100.0 - db - gc).max(0.0), Some(1))
            ),
            _ => String::new(),
        }
    ));
    s.push_str(&format!(
        "p99 {}; without GC time {}\n",
        with(f.p99_ms, " ms"),
        with(f.p99_without_gc_ms, " ms")
    ));
    s.push_str(&format!(
        "{} GC pauses in the requests' span ({} ms), {} hit at least one request",
        c.pauses,
        num(c.pause_ms, Some(1)),
        c.pauses_hitting_requests
    ));
    if let Some(l) = &c.longest_pause {
        s.push_str(&format!(
            "; longest: {} ms ({}) at {}, stalled {} request{} ({} slow)",
            num(l.duration_ms, Some(1)),
            l.kind,
            l.start,
            l.requests,
            if l.requests == 1 { "" } else { "s" },
            l.slow_requests
        ));
    }
    s.push_str("\n\n");
    // Per kind (and safepoints): pause and request columns.
    let mut h: Vec<&str> = vec!["kind"];
    h.extend(PAUSE_HEADERS);
    h.extend([
        "slow_with_gc",
        "fast_with_gc",
        "slow_only_by_gc",
        "gc_ms_in_slow",
        "p99_without_gc_ms",
    ]);
    let mut t = Table::new(&h).numeric_from(1);
    t.numeric[5] = false;
    for k in c.kinds.iter().chain(&c.safepoints).chain(&c.stalls) {
        let mut r = vec![k.kind.to_string()];
        r.extend(pause_cells(k, d));
        r.extend([
            k.figures.slow_with_gc.to_string(),
            k.figures.fast_with_gc.to_string(),
            k.figures.slow_only_by_gc.to_string(),
            num(k.figures.gc_ms_in_slow, d),
            opt(k.figures.p99_without_gc_ms, d),
        ]);
        t.push(r);
    }
    s.push_str(&Text.write(&t));
    s.push('\n');
    let mut t = Table::new(&[
        "operation",
        "requests",
        "slow",
        "slow_with_gc",
        "slow_with_gc_pct",
        "fast_with_gc",
        "gc_ms_in_slow",
        "gc_share_of_slow_pct",
        "db_share_of_slow_pct",
        "p99_ms",
        "p99_without_gc_ms",
    ])
    .numeric_from(1);
    for o in &c.operations {
        let f = &o.figures;
        t.push(vec![
            o.operation.clone(),
            f.requests.to_string(),
            f.slow_requests.to_string(),
            f.slow_with_gc.to_string(),
            opt(f.slow_with_gc_pct, d),
            f.fast_with_gc.to_string(),
            num(f.gc_ms_in_slow, d),
            opt(f.gc_share_of_slow_pct, d),
            opt(f.db_share_of_slow_pct, d),
            opt(f.p99_ms, d),
            opt(f.p99_without_gc_ms, d),
        ]);
    }
    s.push_str(&Text.write(&t));
    s
}

pub fn render(cs: &[Correlation], out: Output) -> String {
    match out.format {
        Format::Json | Format::Jsonl => super::json_rows(cs, out.format),
        Format::Csv | Format::Tsv | Format::Markdown => out.writer().write(&table(cs, None)),
        Format::Table => cs.iter().map(text).collect::<Vec<_>>().join("\n"),
    }
}

/// A GC log and a performance log of one run, correlated: their stems, a title, and the
/// section of their pages (its chart linked from `runs/`).
#[derive(Debug, Clone)]
pub struct Pair {
    pub gc_stem: String,
    pub perf_stem: String,
    pub title: String,
    pub html: String,
}

/// The HTML sections `gcperf report` adds for pairs of a GC log and a performance log whose
/// wall-clock spans meet (each with its chart, `charts/correlate-<gc>-<perf>.png`), and what
/// went wrong (one line each). Candidates are spans within 14 hours of each other (a UTC side's
/// offset is not known before the pair is read); `prepare` then decides on the host clock,
/// and a pair that does not overlap there is left out without a word. Each pair is read
/// again, one at a time.
pub fn pairs(
    entries: &[super::batch::Entry],
    dir: &std::path::Path,
    s: &crate::render::charts::ChartSettings,
) -> (Vec<Pair>, Vec<String>) {
    const SLACK_MS: i64 = 14 * 3_600_000;
    let (mut html, mut notes) = (Vec::new(), Vec::new());
    let with_span = |gc: bool| {
        entries
            .iter()
            .filter_map(move |e| e.span.as_ref().filter(|s| s.gc == gc).map(|s| (e, s)))
    };
    // Each performance log goes with the one GC log its span overlaps most (the JVM that
    // served it: a folder of many servers' logs of one day would otherwise correlate every
    // pair, 60 of them for the 84-file fleet folder, 66 s); none when no span meets it.
    let overlap = |g: &super::batch::Span, p: &super::batch::Span| {
        (p.last_ms + SLACK_MS).min(g.last_ms) - (p.first_ms - SLACK_MS).max(g.first_ms)
    };
    let gcs: Vec<_> = with_span(true).collect();
    let mut by_gc: Vec<Vec<_>> = vec![Vec::new(); gcs.len()];
    for (pe, p) in with_span(false) {
        let best = gcs
            .iter()
            .enumerate()
            .map(|(i, (_, g))| (overlap(g, p), i))
            .filter(|&(o, _)| o >= 0)
            .max_by_key(|&(o, i)| (o, std::cmp::Reverse(i)));
        if let Some((_, i)) = best {
            by_gc[i].push((pe, p));
        }
    }
    // Each GC log is read again once, for all its performance logs, which are read and
    // correlated in parallel (one per core in flight, as the report's first pass).
    for ((ge, g), near) in gcs.into_iter().zip(by_gc) {
        if near.is_empty() {
            continue;
        }
        let gl = match pick(g) {
            Ok(crate::load::Input::Gc(l)) => l,
            r => {
                let why = r.map_or_else(|e| e.to_string(), |_| CHANGED.into());
                notes.push(format!("{}: not correlated: {why}", ge.stem));
                continue;
            }
        };
        // Plain threads (`batch::ordered`), not rayon tasks: a rayon worker waiting inside a
        // performance log's parallel read stole the next pair, and a GC log with 30 such
        // logs near it had them all in memory at once (2.0 GB for the fleet folder).
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let work = |k: usize| {
            near.get(k)
                .map(|&(pe, p)| (pe, pair(&gl, ge, pe, p, dir, s)))
        };
        let mut emit =
            |_: usize, done: Option<(&super::batch::Entry, anyhow::Result<Option<Pair>>)>| {
                match done {
                    Some((_, Ok(Some(h)))) => html.push(h),
                    Some((pe, Err(e))) => {
                        notes.push(format!("{} with {}: not correlated: {e}", ge.stem, pe.stem))
                    }
                    _ => {}
                }
            };
        super::batch::ordered(near.len(), workers, &work, &mut emit);
    }
    (html, notes)
}

/// Why a log read again is not correlated when it is no longer of the kind it was.
const CHANGED: &str = "the log changed since it was read";

/// The input of a span, read again.
fn pick(span: &super::batch::Span) -> anyhow::Result<crate::load::Input> {
    let (r, _) = super::batch::load_group(&span.group);
    r?.into_iter()
        .find(|i| i.part() == span.part)
        .ok_or_else(|| anyhow::anyhow!("the log could not be read again"))
}

fn pair(
    gl: &crate::load::Loaded,
    ge: &super::batch::Entry,
    pe: &super::batch::Entry,
    p: &super::batch::Span,
    dir: &std::path::Path,
    s: &crate::render::charts::ChartSettings,
) -> anyhow::Result<Option<Pair>> {
    use crate::analyze::correlate as cor;
    let crate::load::Input::Perf(pl) = pick(p)? else {
        anyhow::bail!(CHANGED);
    };
    let o = cor::Options {
        over_ms: s.perf.over.first().copied().unwrap_or(50.0),
        skip_s: s.perf.skip_s,
        from_ms: s.perf.from_ms,
        to_ms: s.perf.to_ms,
        ..cor::Options::default()
    };
    let side = cor::GcSide {
        frame: &gl.frame,
        clock: gl.format.clock(),
        zone: gl.zone,
    };
    let sides = [cor::PerfSide {
        frame: &pl.frame,
        utc: p.utc,
    }];
    let prepared = match cor::prepare(&side, &sides, &o) {
        Ok(x) => x,
        Err(cor::CorrelateError::Polars(e)) => return Err(e.into()),
        Err(_) => return Ok(None),
    };
    let c = cor::correlate(&prepared, &gl.label, std::slice::from_ref(&pl.label))?;
    // One run only where the GC log covers most of the requests: logs that overlap by a
    // minute of a 17-minute run said "2 of 480 slow overlap a GC pause" of requests the GC
    // log never saw.
    let (requests, outside) = (c.figures.requests, c.requests_outside_gc_log);
    if outside * 2 > requests {
        anyhow::bail!(
            "{outside} of its {requests} requests fall outside the GC log's span ({} to {})",
            c.gc_first,
            c.gc_last
        );
    }
    let name = format!("charts/correlate-{}-{}.png", ge.stem, pe.stem);
    let data = cor::chart_data(&prepared, s.size.width as usize, s.interval_ms)?;
    let title = format!(
        "{} + {}",
        crate::render::charts::file_name(&gl.path),
        crate::render::charts::file_name(&pl.path)
    );
    crate::render::correlate::chart(&dir.join(&name), &title, &data, s.size)?;
    let f = &c.figures;
    let outside_text = match outside {
        0 => String::new(),
        n => format!(" ({n} outside the GC log's span: GC unknown there, counted as without)"),
    };
    let mut h = format!(
        "<h3>{} and {}</h3>\n<p class=\"muted\">clock: {}</p>\n<p>{} requests{}, {} slow (over {} ms); \
         {} of the slow overlap a GC pause ({} %), {} only because of it; GC {} % of the slow \
         requests' time; p99 {} ms, without GC time {} ms</p>\n",
        super::html_escape(&c.gc_log),
        super::html_escape(&pl.label),
        super::html_escape(&clock_text(&c.clock)),
        f.requests,
        outside_text,
        f.slow_requests,
        num(c.slow_ms, None),
        f.slow_with_gc,
        opt(f.slow_with_gc_pct, Some(1)),
        f.slow_only_by_gc,
        opt(f.gc_share_of_slow_pct, Some(1)),
        opt(f.p99_ms, Some(1)),
        opt(f.p99_without_gc_ms, Some(1)),
    );
    let mut t = table(std::slice::from_ref(&c), Some(1));
    t.drop_first_column();
    h.push_str(&format!(
        "<div class=\"wide\">\n{}</div>\n",
        super::Html.write(&t)
    ));
    h.push_str(&super::page::img(
        &format!("../{name}"),
        "GC pauses on the latency timeline",
        (s.size.width, s.size.height),
    ));
    Ok(Some(Pair {
        gc_stem: ge.stem.clone(),
        perf_stem: pe.stem.clone(),
        title: format!("{} and {}", c.gc_log, pl.label),
        html: h,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_read_as_durations() {
        assert_eq!(gap_text(350), "350 ms");
        assert_eq!(gap_text(4_200), "4.2 s");
        assert_eq!(gap_text(750_000), "12 min 30 s");
        assert_eq!(gap_text(11_100_000), "3 h 05 min");
        assert_eq!(gap_text(90_000_000), "1 d 1 h");
    }

    #[test]
    fn logs_apart_say_by_how_much() {
        let e = CorrelateError::NoOverlap {
            gc_first_ms: 1_348_221_600_000, // 2012-09-21T10:00:00
            gc_last_ms: 1_348_225_200_000,
            perf_first_ms: 1_348_236_000_000, // 14:00
            perf_last_ms: 1_348_239_600_000,
        };
        let t = error_text(&e);
        assert!(
            t.contains("GC log 2012-09-21T10:00:00.000 to 2012-09-21T11:00:00.000"),
            "{t}"
        );
        assert!(
            t.contains("starts after the GC log ends, 3 h 00 min apart"),
            "{t}"
        );
    }
}
