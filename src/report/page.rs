//! The report's pages. `index.html` ranks the runs worst first, per kind: KPI cards for the
//! worst, then a table of every run that sorts and filters on click; `runs/<stem>.html` is
//! one run's page with its cards, objectives, tables, findings explained, errors, figures
//! over time and charts. Pages open from disk and fetch nothing: the style and the one small
//! script are inline, charts are files beside them, loaded as they scroll into view.

use super::batch::{Entry, Extras};
use super::summary::{FileSummary, Outcome};
use super::{html_escape, num, size_kb, Html, TableWriter};
use crate::analyze::slo::{Cmp, Verdict};

/// Cards shown on the index per kind; the table below them has every run.
pub const INDEX_CARDS: usize = 12;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em 2em;color:#222;max-width:1500px}\
h1{margin-bottom:.2em;overflow-wrap:anywhere}h2{margin-top:1.6em}\
table{border-collapse:collapse;margin:.6em 0;font-size:14px}\
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;white-space:nowrap}\
th{background:#f3f3f3;position:sticky;top:0}th.s{cursor:pointer}th.s:after{content:' \\2195';color:#aaa}\
th[data-dir=asc]:after{content:' \\2191';color:#222}th[data-dir=desc]:after{content:' \\2193';color:#222}\
td.n,th.n{text-align:right}td.wrap{white-space:normal;max-width:40em}\
.error,.bad{color:#b00020}.warn{color:#a15c00}.good{color:#1b6e20}.muted{color:#666}\
img{max-width:100%;height:auto;border:1px solid #ddd;margin:.5em 0}\
.wide{overflow-x:auto;max-height:80vh}\
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(290px,1fr));gap:10px;margin:.8em 0}\
.card{display:block;border:1px solid #ccc;border-radius:6px;padding:8px 12px;color:inherit;text-decoration:none;background:#fafafa}\
a.card:hover{border-color:#555}.card h3{margin:0 0 6px;font-size:15px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\
.card p.folder{margin:-4px 0 6px;font-size:12px;color:#666;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;direction:rtl;text-align:left}\
.kpis{display:flex;flex-wrap:wrap;gap:10px;margin:.8em 0}.kpi{border:1px solid #ccc;border-radius:6px;padding:8px 14px;min-width:8em;background:#fafafa}\
.kpi .v{font-size:22px;font-variant-numeric:tabular-nums}.kpi .k{font-size:13px;color:#555}\
.card dl{display:grid;grid-template-columns:auto auto;gap:2px 12px;margin:0;font-size:13px}\
.card dt{color:#555}.card dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}\
.finding{border-left:4px solid #b00020;padding:2px 12px;margin:.8em 0;background:#fff8f8}\
.finding h3{margin:.3em 0}input.filter{margin:.3em 0;padding:3px 6px;width:20em}\
nav.back{margin-bottom:1em}";

/// Sorts a table on a click of its header (numbers by `data-v` or their text, empty cells
/// last either way) and filters the rows of the table an `input.filter` names.
const SCRIPT: &str = r#"(function(){
function val(td){var v=td.getAttribute('data-v');if(v===null)v=td.textContent.trim();return v;}
document.querySelectorAll('table.sort').forEach(function(t){
 var hs=t.tHead.rows[0].cells;
 Array.prototype.forEach.call(hs,function(th,i){th.classList.add('s');th.addEventListener('click',function(){
  var dir=th.getAttribute('data-dir')==='desc'?'asc':'desc';
  Array.prototype.forEach.call(hs,function(h){h.removeAttribute('data-dir');});th.setAttribute('data-dir',dir);
  var num=th.classList.contains('n'),b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);
  rows.sort(function(x,y){var a=val(x.cells[i]),c=val(y.cells[i]);
   if(a===''||c==='')return a===c?0:(a===''?1:-1);
   var r=num?parseFloat(a)-parseFloat(c):a.localeCompare(c);return dir==='asc'?r:-r;});
  rows.forEach(function(r){b.appendChild(r);});});});});
document.querySelectorAll('input.filter').forEach(function(f){
 var t=document.getElementById(f.getAttribute('data-for'));
 f.addEventListener('input',function(){var q=f.value.toLowerCase();
  Array.prototype.forEach.call(t.tBodies[0].rows,function(r){
   r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':'';});});});
})();"#;

/// A page: `title`, `body`, the shared style and script.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width\">\n<title>{}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n{body}<script>{SCRIPT}</script>\n</body>\n</html>\n",
        html_escape(title)
    )
}

/// The title of the index page: `prepare_out` knows an earlier report by it.
pub const INDEX_TITLE: &str = "gcperf report";

/// A table cell: its text, the number it sorts by, a link, a class.
#[derive(Default)]
struct Cell {
    text: String,
    sort: Option<f64>,
    href: Option<String>,
    class: Option<&'static str>,
}

fn text(t: impl Into<String>) -> Cell {
    Cell {
        text: t.into(),
        ..Cell::default()
    }
}

/// Text that links to `href`, where there is one.
fn link(t: impl Into<String>, href: Option<String>) -> Cell {
    Cell { href, ..text(t) }
}

impl Cell {
    fn class(self, class: &'static str) -> Cell {
        Cell {
            class: Some(class),
            ..self
        }
    }
}

/// A number shown as `shown`, sorted by `v`; empty where there is none.
fn figure(v: Option<f64>, shown: impl FnOnce(f64) -> String) -> Cell {
    match v.filter(|v| v.is_finite()) {
        Some(v) => Cell {
            text: shown(v),
            sort: Some(v),
            ..Cell::default()
        },
        None => text(""),
    }
}

/// A count, sorted by its value.
fn count(n: u64) -> Cell {
    figure(Some(n as f64), |v| num(v, Some(0)))
}

/// A table that sorts on a click of its headers; `numeric` columns sort as numbers.
fn sortable(id: &str, headers: &[(&str, bool)], rows: &[Vec<Cell>], filter: bool) -> String {
    sortable_titled(id, headers, &[], rows, filter)
}

/// `sortable`, with a title (shown on hover) for the headers that have one.
fn sortable_titled(
    id: &str,
    headers: &[(&str, bool)],
    titles: &[Option<&str>],
    rows: &[Vec<Cell>],
    filter: bool,
) -> String {
    let mut h = String::new();
    if filter {
        h.push_str(&format!(
            "<input class=\"filter\" type=\"search\" data-for=\"{id}\" placeholder=\"filter rows\" aria-label=\"filter rows\">\n"
        ));
    }
    h.push_str(&format!(
        "<div class=\"wide\"><table class=\"sort\" id=\"{id}\">\n<thead><tr>"
    ));
    for (i, (name, n)) in headers.iter().enumerate() {
        let c = if *n { " class=\"n\"" } else { "" };
        let title = titles.get(i).copied().flatten();
        let title = title.map_or(String::new(), |t| format!(" title=\"{}\"", html_escape(t)));
        h.push_str(&format!("<th{c}{title}>{}</th>", html_escape(name)));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        h.push_str("<tr>");
        for (i, c) in r.iter().enumerate() {
            let n = headers.get(i).is_some_and(|h| h.1).then_some("n");
            let classes: Vec<&str> = n.into_iter().chain(c.class).collect();
            let class = match classes.is_empty() {
                true => String::new(),
                false => format!(" class=\"{}\"", classes.join(" ")),
            };
            let sort = c
                .sort
                .map(|v| format!(" data-v=\"{v}\""))
                .unwrap_or_default();
            let inner = match &c.href {
                Some(href) => format!(
                    "<a href=\"{}\">{}</a>",
                    html_escape(href),
                    html_escape(&c.text)
                ),
                None => html_escape(&c.text),
            };
            h.push_str(&format!("<td{class}{sort}>{inner}</td>"));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody>\n</table></div>\n");
    h
}

/// How far a verdict is from its limit, relative to it: above 0 it failed by that share
/// (0.25: 25 % beyond), at or below 0 it passed with that room. A run without the figure is
/// as far off as can be.
pub fn margin(v: &Verdict) -> f64 {
    let Some(x) = v.value else {
        return f64::INFINITY;
    };
    let d = match v.op {
        Cmp::Lt | Cmp::Le => x - v.limit,
        Cmp::Gt | Cmp::Ge => v.limit - x,
        Cmp::Eq => (x - v.limit).abs(),
    };
    let r = d / v.limit.abs().max(f64::MIN_POSITIVE);
    // A failed `<` at the limit is beyond it by nothing, but beyond it.
    match (v.pass, r <= 0.0) {
        (false, true) => f64::MIN_POSITIVE,
        _ => r,
    }
}

/// What ranks a run: its worst objective's margin when it has verdicts (`by_slo`), else its
/// longest pause (GC) or p99 (performance). Larger is worse; None last.
pub fn badness(s: &FileSummary, by_slo: bool) -> Option<f64> {
    if by_slo {
        return s.slo.iter().map(margin).reduce(f64::max);
    }
    match (&s.gc, &s.perf) {
        (Some(g), _) => g.pause_max_ms,
        (_, Some(p)) => p.total_ms_p99,
        _ => None,
    }
}

/// The entries of reported runs of one kind, worst first (ties by file name).
pub(super) fn ranked(entries: &[Entry], gc: bool, by_slo: bool) -> Vec<(&Entry, &FileSummary)> {
    let mut v: Vec<(&Entry, &FileSummary)> = entries
        .iter()
        .filter_map(|e| Some((e, e.outcome.summary().filter(|s| s.gc.is_some() == gc)?)))
        .collect();
    v.sort_by(|a, b| {
        let (x, y) = (badness(a.1, by_slo), badness(b.1, by_slo));
        crate::analyze::compare::missing_last(x, y, true).then_with(|| a.1.file.cmp(&b.1.file))
    });
    v
}

/// The folder of the runs' pages, in the report's.
pub const RUNS: &str = "runs";

/// The page of a run, relative to the index.
pub fn run_href(e: &Entry) -> String {
    format!("{RUNS}/{}.html", e.stem)
}

/// A KPI: its name, and its cell (value as shown, sort value, and how it reads: `bad`,
/// `warn`, `good`).
type Kpi = (&'static str, Cell);

/// A KPI's value as a card or box shows it: a dash where there is none.
fn shown(c: &Cell) -> &str {
    match c.text.as_str() {
        "" => "–",
        t => t,
    }
}

/// How a figure reads against thresholds: `bad` beyond `bad_at`, `warn` beyond `warn_at`;
/// `low` when smaller is worse.
fn judged(mut c: Cell, warn_at: f64, bad_at: f64, low: bool) -> Cell {
    if let Some(v) = c.sort {
        let beyond = |t: f64| if low { v < t } else { v > t };
        c.class = [(bad_at, "bad"), (warn_at, "warn")]
            .into_iter()
            .find_map(|(t, class)| beyond(t).then_some(class));
    }
    c
}

fn ms(v: f64) -> String {
    format!("{} ms", num(v, Some(1)))
}

/// A GC run's KPIs. The colours: throughput under 98 % (95 %), a longest pause over 200 ms
/// (1 s) read as a warning (bad); objectives, where given, decide instead for their figures.
fn gc_kpis(s: &FileSummary, x: &Extras) -> Vec<Kpi> {
    let Some(g) = &s.gc else {
        return Vec::new();
    };
    let d = g.diag.as_ref();
    vec![
        (
            "throughput",
            judged(
                figure(g.throughput_pct, |v| format!("{} %", num(v, Some(2)))),
                98.0,
                95.0,
                true,
            ),
        ),
        (
            "longest pause",
            judged(figure(g.pause_max_ms, ms), 200.0, 1000.0, false),
        ),
        ("p99 pause", figure(g.pause_p99_ms, ms)),
        (
            "pause total",
            figure(g.pause_total_ms, |v| {
                format!("{} s", num(v / 1000.0, Some(2)))
            }),
        ),
        (
            "peak heap after GC",
            figure(x.heap_after_max_kb, |v| size_kb(Some(v), "")),
        ),
        (
            "allocation rate",
            figure(d.and_then(|d| d.alloc_rate_kb_per_s), |v| {
                size_kb(Some(v), "/s")
            }),
        ),
    ]
}

/// A performance run's KPIs. The colours: errors over 0 % (1 %), APDEX under 0.85 (0.7,
/// "fair" and "poor" on the APDEX scale).
fn perf_kpis(s: &FileSummary, x: &Extras) -> Vec<Kpi> {
    let Some(p) = &s.perf else {
        return Vec::new();
    };
    vec![
        ("requests", count(p.requests)),
        (
            "throughput",
            figure(p.throughput_per_s, |v| format!("{} /s", num(v, Some(1)))),
        ),
        ("p95", figure(p.total_ms_p95, ms)),
        ("p99", figure(p.total_ms_p99, ms)),
        (
            "errors",
            judged(
                figure(p.error_pct, |v| format!("{} %", num(v, Some(2)))),
                0.0,
                1.0,
                false,
            ),
        ),
        (
            "APDEX",
            judged(
                figure(x.apdex.and_then(|a| a.score), |v| num(v, Some(3))),
                0.85,
                0.7,
                true,
            ),
        ),
    ]
}

fn kpis(s: &FileSummary, x: &Extras) -> Vec<Kpi> {
    match s.gc.is_some() {
        true => gc_kpis(s, x),
        false => perf_kpis(s, x),
    }
}

/// A run's card, a link to its page: its name and folder, and its KPIs; a failed
/// objective and the count of findings below them.
fn card(s: &FileSummary, x: &Extras, href: &str) -> String {
    let mut h = format!("<a class=\"card\" href=\"{}\">", html_escape(href));
    // The file's name first: a folder shared by every run says nothing of this one.
    let (folder, name) = match s.file.rsplit_once(['/', '\\']) {
        Some((d, n)) if !n.is_empty() => (d, n),
        _ => ("", s.file.as_str()),
    };
    h.push_str(&format!(
        "<h3 title=\"{}\">{}</h3><p class=\"folder\">{}</p><dl>",
        html_escape(&s.file),
        html_escape(&middle_cut(name, CARD_NAME)),
        html_escape(folder)
    ));
    for (name, cell) in kpis(s, x) {
        let class = cell
            .class
            .map(|c| format!(" class=\"{c}\""))
            .unwrap_or_default();
        let v = html_escape(shown(&cell));
        h.push_str(&format!("<dt>{name}</dt><dd{class}>{v}</dd>"));
    }
    if let Some((met, class)) = objectives_met(&s.slo) {
        h.push_str(&format!(
            "<dt>objectives</dt><dd class=\"{class}\">{met} met</dd>"
        ));
    }
    if let Some(n) = findings(s).filter(|&n| n > 0) {
        h.push_str(&format!("<dt>findings</dt><dd class=\"warn\">{n}</dd>"));
    }
    h.push_str("</dl></a>\n");
    h
}

/// Characters of a file name a card shows: names of one fleet share their start and their
/// end says which run it is, so a longer one loses its middle (the whole name is the title).
const CARD_NAME: usize = 34;

/// `s` cut to `max` characters with "…" in the middle.
fn middle_cut(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let head = (max - 1) * 2 / 5;
    let tail = max - 1 - head;
    let mut out: String = s.chars().take(head).collect();
    out.push('…');
    out.extend(s.chars().skip(n - tail));
    out
}

/// A run's KPIs as a row of boxes, a figure large over its name.
fn kpi_strip(s: &FileSummary, x: &Extras) -> String {
    let mut h = String::from("<div class=\"kpis\">");
    let mut boxed = |v: &str, class: Option<&str>, k: &str| {
        let class = class.map(|c| format!(" {c}")).unwrap_or_default();
        h.push_str(&format!(
            "<div class=\"kpi\"><div class=\"v{class}\">{}</div><div class=\"k\">{}</div></div>",
            html_escape(v),
            html_escape(k)
        ));
    };
    for (name, cell) in kpis(s, x) {
        boxed(shown(&cell), cell.class, name);
    }
    if let Some((met, class)) = objectives_met(&s.slo) {
        boxed(&met, Some(class), "objectives met");
    }
    h.push_str("</div>\n");
    h
}

/// How many findings a GC run has (None: no diagnosis).
fn findings(s: &FileSummary) -> Option<usize> {
    Some(s.gc.as_ref()?.diag.as_ref()?.findings.len())
}

/// `N of M` objectives met and the class that colours it; None without objectives.
fn objectives_met(slo: &[Verdict]) -> Option<(String, &'static str)> {
    let failed = slo.iter().filter(|v| !v.pass).count();
    let class = if failed > 0 { "bad" } else { "good" };
    (!slo.is_empty()).then(|| (format!("{} of {}", slo.len() - failed, slo.len()), class))
}

/// What the ranking says it is by.
pub(super) fn ranked_by(gc: bool, by_slo: bool) -> &'static str {
    match (by_slo, gc) {
        (true, _) => "worst objective margin (how far beyond its limit, relative to it)",
        (false, true) => "longest pause",
        (false, false) => "p99 response time",
    }
}

/// The runs of a kind as one: their pauses (requests) as one distribution, from their
/// sketches merged (`analyze::sketch`), for two runs and more; nothing otherwise.
fn pooled<'a>(runs: impl Iterator<Item = &'a FileSummary>, gc: bool) -> String {
    use crate::analyze::sketch::ALPHA;
    let runs: Vec<&FileSummary> = runs.collect();
    let n = runs.len();
    let Some(all) = super::summary::pooled(runs, gc).filter(|_| n > 1) else {
        return String::new();
    };
    let q = |p: f64| all.quantile(p).map_or(String::new(), |v| num(v, Some(1)));
    format!(
        "<p>All {n} runs together: {} {}{}, p50 {} ms, p95 {} ms, p99 {} ms (within {} %, from \
         the runs' distributions merged).</p>\n",
        all.len(),
        if gc { "pause" } else { "request" },
        plural(all.len()),
        q(0.50),
        q(0.95),
        q(0.99),
        num(ALPHA * 100.0, None),
    )
}

/// `index.html`.
pub fn index(entries: &[Entry], pairs: &[super::correlate::Pair], intro: &str) -> String {
    let by_slo = entries
        .iter()
        .any(|e| e.outcome.summary().is_some_and(|s| !s.slo.is_empty()));
    let mut h = format!("<h1>{INDEX_TITLE}</h1>\n{intro}");
    let verdicts: Vec<(&Entry, &FileSummary, &Verdict)> = entries
        .iter()
        .filter_map(|e| Some((e, e.outcome.summary()?)))
        .flat_map(|(e, s)| s.slo.iter().map(move |v| (e, s, v)))
        .collect();
    if !verdicts.is_empty() {
        let mut failed: Vec<_> = verdicts.iter().filter(|(_, _, v)| !v.pass).collect();
        h.push_str(&format!(
            "<h2>Objectives: {} of {} met</h2>\n<p>All verdicts in <a href=\"slo.csv\">slo.csv</a> and on each run's page{}.</p>\n",
            verdicts.len() - failed.len(),
            verdicts.len(),
            if failed.is_empty() { "" } else { "; the failed ones, furthest off first" }
        ));
        if !failed.is_empty() {
            failed.sort_by(|a, b| margin(b.2).total_cmp(&margin(a.2)));
            let rows: Vec<Vec<Cell>> = failed
                .iter()
                .map(|(e, s, v)| {
                    let m = margin(v);
                    vec![
                        link(s.file.clone(), Some(run_href(e))),
                        text(v.objective.clone()),
                        text(v.operation.clone().unwrap_or_default()),
                        figure(v.value, |x| num(x, None)),
                        figure(m.is_finite().then_some(m * 100.0), |x| {
                            format!("+{} %", num(x, Some(1)))
                        })
                        .class("bad"),
                    ]
                })
                .collect();
            h.push_str(&sortable(
                "objectives",
                &[
                    ("run", false),
                    ("objective", false),
                    ("operation", false),
                    ("value", true),
                    ("beyond the limit", true),
                ],
                &rows,
                rows.len() > 10,
            ));
        }
    }
    for gc in [true, false] {
        let runs = ranked(entries, gc, by_slo);
        if runs.is_empty() {
            continue;
        }
        let (what, id) = match gc {
            true => ("GC logs", "gc-runs"),
            false => ("Performance logs", "perf-runs"),
        };
        h.push_str(&format!(
            "<h2 id=\"{id}-h\">{what}, worst first</h2>\n<p class=\"muted\">{} run{}, ranked by {}.{}</p>\n",
            runs.len(),
            if runs.len() == 1 { "" } else { "s" },
            ranked_by(gc, by_slo),
            if runs.len() > INDEX_CARDS {
                format!(" The {INDEX_CARDS} worst as cards; every run in the table below.")
            } else {
                String::new()
            }
        ));
        h.push_str(&pooled(runs.iter().map(|(_, s)| *s), gc));
        h.push_str("<div class=\"cards\">\n");
        for (e, s) in runs.iter().take(INDEX_CARDS) {
            h.push_str(&card(s, &e.extras, &run_href(e)));
        }
        h.push_str("</div>\n");
        let mut headers: Vec<(&str, bool)> =
            vec![("rank", true), ("run", false), ("format", false)];
        let names: Vec<&'static str> = runs
            .first()
            .map(|(e, s)| kpis(s, &e.extras).iter().map(|k| k.0).collect())
            .unwrap_or_default();
        headers.extend(names.iter().map(|n| (*n, true)));
        if gc {
            headers.push(("findings", true));
        }
        if by_slo {
            headers.extend([("objectives met", false), ("worst margin", true)]);
        }
        headers.push(("lines not understood", true));
        let rows: Vec<Vec<Cell>> = runs
            .iter()
            .enumerate()
            .map(|(i, (e, s))| {
                let mut r = vec![
                    count(i as u64 + 1),
                    link(s.file.clone(), Some(run_href(e))),
                    text(s.format),
                ];
                r.extend(kpis(s, &e.extras).into_iter().map(|k| k.1));
                if gc {
                    r.push(findings(s).map_or_else(|| text(""), |n| count(n as u64)));
                }
                if by_slo {
                    r.push(match objectives_met(&s.slo) {
                        None => text(""),
                        Some((met, class)) => text(met).class(class),
                    });
                    let m = badness(s, true);
                    r.push(figure(
                        m.filter(|m| m.is_finite()).map(|m| m * 100.0),
                        |v| format!("{}{} %", if v > 0.0 { "+" } else { "" }, num(v, Some(1))),
                    ));
                }
                r.push(count(s.skipped_lines));
                r
            })
            .collect();
        h.push_str(&sortable(id, &headers, &rows, runs.len() > 10));
    }
    if !pairs.is_empty() {
        h.push_str("<h2>GC pauses on the latency timeline</h2>\n<p class=\"muted\">Performance logs paired with the GC log of the same JVM and time; the figures and chart are on the performance log's page.</p>\n<ul>\n");
        for p in pairs {
            h.push_str(&format!(
                "<li><a href=\"runs/{}.html#correlate\">{}</a></li>\n",
                html_escape(&p.perf_stem),
                html_escape(&p.title)
            ));
        }
        h.push_str("</ul>\n");
    }
    let failed: Vec<Vec<Cell>> = entries
        .iter()
        .filter_map(|e| match &e.outcome {
            Outcome::Failed { file, error } => {
                Some(vec![text(file.clone()), text(error.clone()).class("wrap")])
            }
            Outcome::Ok(_) => None,
        })
        .collect();
    if !failed.is_empty() {
        h.push_str(&format!(
            "<h2>Not reported</h2>\n<p class=\"muted\">{} input{} with no figures; also in <a href=\"summary.csv\">summary.csv</a>.</p>\n",
            failed.len(),
            if failed.len() == 1 { "" } else { "s" }
        ));
        h.push_str(&sortable(
            "failed",
            &[("file", false), ("why", false)],
            &failed,
            failed.len() > 10,
        ));
    }
    page(INDEX_TITLE, &h)
}

/// The `--tag`s as a line of their own (`host=web01 · run=42`), on the index and every run
/// page, as every CSV has them as columns; nothing without tags.
pub(super) fn tags_line() -> String {
    let tags = crate::report::tags::get();
    if tags.is_empty() {
        return String::new();
    }
    let t: Vec<String> = tags
        .iter()
        .map(|(k, v)| format!("<code>{}={}</code>", html_escape(k), html_escape(v)))
        .collect();
    format!("<p class=\"muted\">Tags: {}</p>\n", t.join(" · "))
}

/// A run's page, `runs/<stem>.html`: links go up a folder.
pub fn run(
    e: &Entry,
    s: &FileSummary,
    rank: Option<(usize, usize, &str)>,
    pairs: &[&super::correlate::Pair],
) -> String {
    let mut h =
        String::from("<nav class=\"back\"><a href=\"../index.html\">← all runs</a></nav>\n");
    h.push_str(&format!("<h1>{}</h1>\n", html_escape(&s.file)));
    let kind = if s.gc.is_some() { "GC" } else { "performance" };
    h.push_str(&format!(
        "<p class=\"muted\">{kind} log, {} format; {} lines, {} not understood{}</p>\n",
        html_escape(s.format),
        s.lines,
        s.skipped_lines,
        rank.map(|(i, n, by)| format!(
            "; {} of {n} {kind} logs ranked by {by}, worst first",
            i + 1
        ))
        .unwrap_or_default()
    ));
    h.push_str(&tags_line());
    h.push_str(&kpi_strip(s, &e.extras));
    if !s.slo.is_empty() {
        h.push_str("<h2>Objectives</h2>\n");
        h.push_str(&Html.write(&super::slo::table(&[(s.file.as_str(), s.slo.as_slice())])));
    }
    for n in &e.notes {
        h.push_str(&format!("<p class=\"warn\">{}</p>\n", html_escape(n)));
    }
    if !e.bad.is_empty() {
        h.push_str("<p class=\"muted\">First lines not understood: ");
        let items: Vec<String> = e
            .bad
            .iter()
            .take(3)
            .map(|(n, t)| format!("line {n}: <code>{}</code>", html_escape(t)))
            .collect();
        h.push_str(&items.join("; "));
        h.push_str("</p>\n");
    }
    if let Some(g) = &s.gc {
        gc_sections(&mut h, s, g);
    }
    if let Some(p) = &s.perf {
        perf_sections(&mut h, s, p, &e.extras);
    }
    if !pairs.is_empty() {
        h.push_str("<h2 id=\"correlate\">GC pauses on the latency timeline</h2>\n");
        for p in pairs {
            h.push_str(&p.html);
        }
    }
    if let Some(err) = &e.chart_error {
        h.push_str(&format!(
            "<p class=\"error\">Charts not drawn: {}</p>\n",
            html_escape(err)
        ));
    }
    if !e.charts.is_empty() {
        h.push_str("<h2>Charts</h2>\n");
    }
    for c in &e.charts {
        h.push_str(&img(
            &format!("../{c}"),
            c.trim_start_matches("charts/").trim_end_matches(".png"),
            e.chart_size,
        ));
    }
    page(&s.file, &h)
}

/// A chart, loaded as it scrolls into view, its box sized before it loads.
pub fn img(src: &str, alt: &str, size: (u32, u32)) -> String {
    format!(
        "<p><img src=\"{}\" alt=\"{}\" width=\"{}\" height=\"{}\" loading=\"lazy\"></p>\n",
        html_escape(src),
        html_escape(alt),
        size.0,
        size.1
    )
}

fn gc_sections(h: &mut String, s: &FileSummary, g: &crate::analyze::gc::GcSummary) {
    use crate::report::gc as r;
    h.push_str(&format!(
        "<p>{} collection{}, {} pause{} ({} full collection{}); span {}</p>\n",
        g.collections,
        plural(g.collections),
        g.pauses,
        plural(g.pauses),
        g.full_collections,
        plural(g.full_collections),
        g.span_s
            .map(|v| format!("{} s", num(v, Some(1))))
            .unwrap_or_else(|| "unknown".into())
    ));
    let Some(d) = &g.diag else {
        return;
    };
    h.push_str("<h2>Allocation, promotion, live set</h2>\n<p>");
    let lines: Vec<String> = r::diag_text(d).lines().map(html_escape).collect();
    h.push_str(&lines.join("<br>\n"));
    h.push_str("</p>\n");
    let rep = [r::of_summary(s)];
    let mut c = r::cause_table(&rep, Some(3));
    if !c.rows.is_empty() {
        c.drop_first_column();
        h.push_str("<h2>Pause time per cause</h2>\n");
        h.push_str(&table_sortable("causes", &c));
    }
    h.push_str(&format!("<h2>Findings ({})</h2>\n", d.findings.len()));
    if d.findings.is_empty() {
        h.push_str("<p>None.</p>\n");
    }
    for f in &d.findings {
        let lines: Vec<String> = f.first_lines.iter().map(u64::to_string).collect();
        let evidence = format!(
            "{} time{}, {} ms in all; first at line{} {}",
            f.count,
            if f.count == 1 { "" } else { "s" },
            num(f.total_ms, Some(1)),
            if lines.len() == 1 { "" } else { "s" },
            lines.join(", ")
        );
        match super::advice::of(f.id) {
            Some(a) => h.push_str(&format!(
                "<div class=\"finding\" id=\"{id}\"><h3>{} <span class=\"muted\">({id})</span></h3>\n\
                 <p class=\"muted\">{}</p>\n<p>{}</p>\n<p><b>What to try:</b> {}</p>\n\
                 <p class=\"muted\">Source: <a href=\"{}\">{}</a></p></div>\n",
                a.title,
                html_escape(&evidence),
                html_escape(a.what),
                html_escape(a.try_this),
                a.source.1,
                html_escape(a.source.0),
                id = f.id,
            )),
            None => h.push_str(&format!(
                "<div class=\"finding\"><h3>{}</h3><p class=\"muted\">{}</p></div>\n",
                html_escape(f.id),
                html_escape(&evidence)
            )),
        }
    }
}

/// A `Table` as a sortable one: numbers sort by their text.
fn table_sortable(id: &str, t: &super::Table) -> String {
    let headers: Vec<(&str, bool)> = t
        .headers
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), t.numeric.get(i).copied().unwrap_or(false)))
        .collect();
    let rows: Vec<Vec<Cell>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|c| text(c.clone())).collect())
        .collect();
    sortable(id, &headers, &rows, t.rows.len() > 10)
}

fn perf_sections(
    h: &mut String,
    s: &FileSummary,
    p: &crate::analyze::perf::PerfSummary,
    x: &Extras,
) {
    h.push_str(&format!(
        "<p>{} requests from {} to {} ({}), {} errors; mean {}, max {}{}</p>\n",
        p.requests,
        p.first.as_deref().unwrap_or("–"),
        p.last.as_deref().unwrap_or("–"),
        p.span_s
            .map(|v| format!("{} s", num(v, Some(1))))
            .unwrap_or_else(|| "no span".into()),
        p.errors,
        p.total_ms_mean.map(ms).unwrap_or_else(|| "–".into()),
        p.total_ms_max.map(ms).unwrap_or_else(|| "–".into()),
        match x.apdex {
            Some(a) if a.score.is_some() => format!(
                "; APDEX {} with T {} ms, F {} ms ({} satisfied, {} tolerated of {})",
                num(a.score.unwrap_or(0.0), Some(3)),
                num(a.t_ms, None),
                num(a.f_ms, None),
                a.satisfied,
                a.tolerated,
                a.requests
            ),
            _ => String::new(),
        }
    ));
    h.push_str("<h2>Operations</h2>\n");
    let t = super::perf::ops_people_table(std::slice::from_ref(s), false);
    h.push_str(&table_sortable("operations", &t));
    h.push_str(&format!("<h2>Errors ({})</h2>\n", p.errors));
    if p.error_messages.is_empty() {
        h.push_str("<p>None.</p>\n");
    } else {
        let rows: Vec<Vec<Cell>> = p
            .error_messages
            .iter()
            .map(|m| {
                let ops: Vec<String> = m
                    .operations
                    .iter()
                    .take(3)
                    .map(|o| format!("{} ×{}", o.operation, o.count))
                    .collect();
                let more = m.operations.len().saturating_sub(3);
                vec![
                    text(if m.message.is_empty() {
                        "(no message)".into()
                    } else {
                        m.message.clone()
                    })
                    .class("wrap"),
                    count(m.count),
                    figure(Some(m.errors_pct), |v| num(v, Some(2))),
                    figure(Some(m.requests_pct), |v| num(v, Some(2))),
                    text(
                        ops.join(", ")
                            + &if more > 0 {
                                format!(" and {more} more")
                            } else {
                                String::new()
                            },
                    )
                    .class("wrap"),
                ]
            })
            .collect();
        h.push_str(&sortable(
            "errors",
            &[
                ("message", false),
                ("count", true),
                ("% of errors", true),
                ("% of requests", true),
                ("operations", false),
            ],
            &rows,
            rows.len() > 10,
        ));
    }
    if let Some(ot) = &x.over_time {
        over_time(h, ot);
    }
}

/// Characters of an error message in a column header; the whole message is its title.
const MESSAGE_HEADER: usize = 32;

fn over_time(h: &mut String, ot: &crate::analyze::perf::OverTime) {
    h.push_str(&format!(
        "<h2>Over time</h2>\n<p class=\"muted\">Per {} (by request end); percentiles of the requests ending in each interval, failed requests by message.</p>\n",
        crate::render::perf::duration_text(ot.interval_ms)
    ));
    let mut headers: Vec<(String, bool)> = [
        "start", "requests", "errors", "per s", "p50 ms", "p95 ms", "p99 ms", "max ms",
    ]
    .iter()
    .enumerate()
    .map(|(i, n)| (n.to_string(), i > 0))
    .collect();
    for m in &ot.messages {
        let short: String = m.chars().take(MESSAGE_HEADER).collect();
        let cut = if short.len() < m.len() { "…" } else { "" };
        headers.push((format!("{short}{cut}"), true));
    }
    let other = !ot.messages.is_empty() && ot.rows.iter().any(|r| r.other_errors > 0);
    if other {
        headers.push(("other errors".into(), true));
    }
    let d1 = |v: Option<f64>| figure(v, |v| num(v, Some(1)));
    let rows: Vec<Vec<Cell>> = ot
        .rows
        .iter()
        .map(|r| {
            let i = &r.interval;
            let mut row = vec![
                text(i.start.clone()),
                count(i.requests),
                Cell {
                    class: (i.errors > 0).then_some("bad"),
                    ..count(i.errors)
                },
                d1(i.throughput_per_s),
                d1(r.total_ms_p50),
                d1(r.total_ms_p95),
                d1(i.total_ms_p99),
                d1(i.total_ms_max),
            ];
            row.extend(r.by_message.iter().map(|&c| count(c)));
            if other {
                row.push(count(r.other_errors));
            }
            row
        })
        .collect();
    let hs: Vec<(&str, bool)> = headers.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    // Whole messages as their columns' titles.
    let titles: Vec<Option<&str>> = [None; 8]
        .into_iter()
        .chain(ot.messages.iter().map(|m| Some(m.as_str())))
        .collect();
    h.push_str(&sortable_titled("over-time", &hs, &titles, &rows, false));
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(op: Cmp, value: Option<f64>, limit: f64, pass: bool) -> Verdict {
        Verdict {
            objective: String::new(),
            metric: String::new(),
            operation: None,
            op,
            value,
            limit,
            unit: "ms",
            pass,
        }
    }

    #[test]
    fn margins_are_relative_to_the_limit() {
        // p99 < 200 at 250: 25 % beyond; at 150: 25 % inside.
        assert_eq!(margin(&verdict(Cmp::Lt, Some(250.0), 200.0, false)), 0.25);
        assert_eq!(margin(&verdict(Cmp::Lt, Some(150.0), 200.0, true)), -0.25);
        // throughput > 100 at 80: 20 % short.
        assert_eq!(margin(&verdict(Cmp::Gt, Some(80.0), 100.0, false)), 0.2);
        // No figure: as far off as can be; a failed `<` at its limit is beyond it.
        assert_eq!(margin(&verdict(Cmp::Le, None, 1.0, false)), f64::INFINITY);
        assert!(margin(&verdict(Cmp::Lt, Some(200.0), 200.0, false)) > 0.0);
    }

    #[test]
    fn long_card_names_lose_their_middle() {
        let n = "shared_corpus_gc_hotspot_SampleSun1_8_0CMS_HeadDumpBeforeFullGc.txt";
        let c = middle_cut(n, CARD_NAME);
        assert_eq!(c, "shared_corpus…DumpBeforeFullGc.txt");
        assert_eq!(c.chars().count(), CARD_NAME);
        assert_eq!(middle_cut("gc.log", CARD_NAME), "gc.log");
    }
}
