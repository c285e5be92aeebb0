//! Access logs read by the format the user gives (`--log-format`): Apache's `LogFormat`,
//! Tomcat's `AccessLogValve` pattern, nginx's `log_format`, or a regex with named groups.
//! Their lines hold the request's time as a bare number whose unit only the server's
//! configuration says (Apache's `%D` is µs, Tomcat 9's ms), so such a log is read only with its
//! format given; `common_log_refusal` says so for a common or combined log read without one.
//!
//! Every kind compiles to one byte regex with named groups, read alike:
//! - the time: `end` (when the line was written: nginx `$time_local`, `$time_iso8601`,
//!   `$msec`) or `start` (when the request came in: Apache and Tomcat `%t`), in the common log
//!   format (`10/Oct/2000:13:55:36 -0700`), ISO 8601 or epoch seconds; `regex:`'s `time` is
//!   the end, `start` the start. A request's end is its end time, or its start plus its time.
//! - the request's time: `elapsed_ms`, `elapsed_s`, `elapsed_us` (a list such as nginx's
//!   `$upstream_response_time` `0.100, 0.004` summed: one request tried on two upstreams);
//! - `status`, and `request` (`GET /path HTTP/1.1`) or `method` and `path`.
//!
//! A time with a zone (`-0200`) or an epoch stamp is put on UTC (the family's `utc()`); one
//! without a zone (a `regex:` time so written) is taken as UTC too.
//!
//! A user-given format is a family only at run time: it is built once per process from the
//! command line, leaked to `'static` and registered as the family detection tries first
//! (`family::set_given`), so that the rest of the program asks it what it asks every family,
//! through the same `PerfFormat` handle.

use super::access::{believable, clf_date, parse_lines, rules, Line, Request, Rules};
use super::family::{Handle, PerfBlock, PerfFamily, PerfFormat};
use super::lines::lines;
use super::num::{iso_datetime_prefix, trim};
use crate::model::PerfLog;
use regex::bytes::Regex;
use std::borrow::Cow;
use std::collections::HashSet;

/// A format the user gives, compiled.
#[derive(Clone)]
pub struct LogFormat {
    name: &'static str,
    re: Regex,
}

/// The unit of the request's time.
#[derive(Clone, Copy)]
enum Unit {
    Ms,
    S,
    Us,
}

const ELAPSED: [(&str, Unit); 3] = [
    ("elapsed_ms", Unit::Ms),
    ("elapsed_s", Unit::S),
    ("elapsed_us", Unit::Us),
];

impl LogFormat {
    /// `kind:format` as `--log-format` takes it; the error names the problem.
    pub fn parse(spec: &str) -> Result<LogFormat, String> {
        let (kind, format) = spec.split_once(':').ok_or_else(|| {
            format!("{spec:?}: give KIND:FORMAT, KIND one of apache, tomcat, nginx, regex")
        })?;
        let (name, pattern) = match kind {
            "apache" => ("access-apache", percent(format, kind)?),
            "tomcat" => ("access-tomcat", percent(format, kind)?),
            "nginx" => ("access-nginx", nginx(format)?),
            "regex" => ("access-regex", format.to_string()),
            _ => {
                return Err(format!(
                    "{kind:?}: not a --log-format kind (apache, tomcat, nginx or regex)"
                ))
            }
        };
        let re = Regex::new(&pattern).map_err(|e| format!("{kind}: {e}"))?;
        let has = |n: &str| re.capture_names().flatten().any(|g| g == n);
        if !ELAPSED.iter().any(|(n, _)| has(n)) && !has("upstream") {
            return Err(match kind {
                "regex" => "regex: no group elapsed_ms, elapsed_s or elapsed_us: the request's time is what gcperf reads".to_string(),
                _ => format!("{kind}: the format has no field of the request's time (apache: %D, %T, %{{ms}}T; tomcat: %D, %T; nginx: $request_time, $upstream_response_time)"),
            });
        }
        if !"time end start end_clf start_clf end_iso end_epoch"
            .split(' ')
            .any(has)
        {
            return Err(match kind {
                "regex" => "regex: no group time (the end) or start: a request needs a time".to_string(),
                _ => format!("{kind}: the format has no time (apache, tomcat: %t; nginx: $time_local, $time_iso8601, $msec)"),
            });
        }
        Ok(LogFormat { name, re })
    }

    /// This format as the family detection tries first, for the rest of the process.
    pub fn register(self) -> PerfFormat {
        let f: &'static LogFormat = Box::leak(Box::new(self));
        let h = Handle(f as &'static dyn PerfFamily);
        super::family::set_given(h);
        h
    }

    fn request<'a>(&self, line: &'a [u8]) -> Option<Request<'a>> {
        let c = self.re.captures(line)?;
        let get = |n: &str| c.name(n).map(|m| m.as_bytes());
        // nginx: `$request_time` where it is there, else the upstreams'.
        let ms = match ELAPSED
            .into_iter()
            .find_map(|(n, unit)| Some((get(n)?, unit)))
        {
            Some((v, unit)) => elapsed(v, unit)?,
            None => elapsed(get("upstream")?, Unit::S)?,
        };
        // The time read, and what it takes to reach the request's end from it.
        let (time, to_end) = if let Some(t) = get("end_clf") {
            (clf_utc(t)?, 0)
        } else if let Some(t) = get("start_clf") {
            (clf_utc(t)?, ms as i64)
        } else if let Some(t) = ["end_iso", "end_epoch", "time", "end"]
            .into_iter()
            .find_map(get)
        {
            (any_time(t)?, 0)
        } else {
            (any_time(get("start")?)?, ms as i64)
        };
        let end_ms = time.checked_add(to_end)?;
        if !believable(end_ms, ms) {
            return None;
        }
        let status = match get("status") {
            None | Some(b"-") => None,
            Some(s) => Some(
                std::str::from_utf8(s)
                    .ok()?
                    .parse::<u16>()
                    .ok()
                    .filter(|&s| s <= 999)?,
            ),
        };
        let (method, path): (&[u8], &[u8]) = match get("request") {
            Some(r) => {
                let mut p = r.splitn(3, |&b| b == b' ');
                match (p.next(), p.next()) {
                    (Some(m), Some(u)) => (m, u),
                    _ => (b"", r),
                }
            }
            None => (
                get("method").unwrap_or_default(),
                get("path").unwrap_or_default(),
            ),
        };
        Some(Request {
            end_ms,
            ms,
            method: Cow::Borrowed(method),
            path: Cow::Borrowed(path),
            status,
            aborted: false,
        })
    }
}

impl std::fmt::Debug for LogFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} /{}/", self.name, self.re.as_str())
    }
}

/// A request's time in ms: one number, or a list (`0.100, 0.004`, `0.1 : 0.2`) summed; `-`
/// (none) is not one.
fn elapsed(v: &[u8], unit: Unit) -> Option<f64> {
    let s = std::str::from_utf8(v).ok()?;
    let mut total = 0.0;
    for part in s.split([',', ':']) {
        let x: f64 = part.trim().parse().ok()?;
        if !x.is_finite() || x < 0.0 {
            return None;
        }
        total += x;
    }
    let ms = match unit {
        Unit::Ms => total,
        Unit::S => total * 1000.0,
        Unit::Us => total / 1000.0,
    };
    // To the nanosecond: decimal seconds (`0.100, 0.004`) are not exact doubles, and their
    // sum in ms is 104.00000000000001 unrounded.
    Some((ms * 1e6).round() / 1e6)
}

/// A common-log-format time put on UTC where it has a zone.
fn clf_utc(t: &[u8]) -> Option<i64> {
    let (ms, zone, n) = clf_date(t)?;
    if n != t.len() {
        return None;
    }
    Some(ms - i64::from(zone.unwrap_or(0)) * 60_000)
}

/// A time as a `regex:` group holds it: the common log format, ISO 8601 (its offset
/// applied), or epoch seconds.
fn any_time(t: &[u8]) -> Option<i64> {
    if let Some(ms) = clf_utc(t) {
        return Some(ms);
    }
    let s = std::str::from_utf8(t).ok()?;
    if let Ok(d) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(d.timestamp_millis());
    }
    if let Some((ms, n)) = iso_datetime_prefix(t) {
        return (n == t.len()).then_some(ms);
    }
    let secs: f64 = s.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as i64)
}

impl PerfFamily for LogFormat {
    fn name(&self) -> &'static str {
        self.name
    }
    fn about(&self) -> &'static str {
        "an access log of the format `--log-format` gives"
    }

    fn recognises(&self, line: &[u8]) -> bool {
        self.request(line).is_some()
    }

    fn parse_block(&self, _header: Option<&[u8]>, buf: &[u8], _last: bool) -> PerfBlock {
        PerfBlock::from(parse(self, buf, rules()))
    }
}

/// The user's format's lines: the access families' reading, each line matched by its regex.
fn parse(f: &LogFormat, buf: &[u8], rules: Rules) -> PerfLog {
    parse_lines(buf, rules, |t| {
        f.request(t).map_or(Line::Not, Line::Request)
    })
}

/// `body` as the regex group `name`; unnamed where `seen` holds the name already (a field
/// written twice is read once: the second is a field not read).
fn named_group(seen: &mut HashSet<String>, name: &str, body: &str) -> String {
    if seen.insert(name.to_string()) {
        format!("(?P<{name}>{body})")
    } else {
        format!("(?:{body})")
    }
}

/// A field that is not read: up to the next space, or inside quotes up to the quote.
fn filler(next: Option<char>) -> &'static str {
    match next {
        Some('"') => r#"(?:[^"\\]|\\.)*"#,
        Some(' ') | None => r"\S*",
        _ => r".*?",
    }
}

/// `format` as an anchored regex: its text matched as written, and each directive (from a
/// `marker` on) as `directive` reads it from the chars after the marker: its regex and the
/// chars it takes. `seen` holds the groups named so far (see `named_group`).
fn to_regex(
    format: &str,
    marker: char,
    mut directive: impl FnMut(&[char], &mut HashSet<String>) -> Result<(String, usize), String>,
) -> Result<String, String> {
    let chars: Vec<char> = format.chars().collect();
    let (mut out, mut i, mut seen) = (String::from("^"), 0, HashSet::new());
    while let Some(&c) = chars.get(i) {
        if c == marker {
            let (piece, n) = directive(&chars[i + 1..], &mut seen)?;
            out.push_str(&piece);
            i += 1 + n;
        } else {
            out.push_str(&regex::escape(&c.to_string()));
            i += 1;
        }
    }
    out.push('$');
    Ok(out)
}

/// Apache's `LogFormat` or Tomcat's pattern as a regex.
/// `kind`: `apache` or `tomcat`.
fn percent(format: &str, kind: &str) -> Result<String, String> {
    let apache = kind == "apache";
    let format = match (kind, format) {
        ("tomcat", "common") => r#"%h %l %u %t "%r" %s %b"#,
        ("tomcat", "combined") => r#"%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-Agent}i""#,
        (_, f) => f,
    };
    // Apache's configuration writes quotes escaped.
    to_regex(&format.replace("\\\"", "\""), '%', |chars, seen| {
        let mut i = 0;
        // `%{arg}X`, `%>s`, `%<s`, and Apache's status conditions (`%400,501{User-agent}i`).
        let mut arg = None;
        while i < chars.len() && matches!(chars[i], '>' | '<' | '!' | ',' | '0'..='9') {
            i += 1;
        }
        if chars.get(i) == Some(&'{') {
            let close = chars[i..]
                .iter()
                .position(|&c| c == '}')
                .ok_or_else(|| format!("{kind}: a %{{ without its }}"))?;
            arg = Some(chars[i + 1..i + close].iter().collect::<String>());
            i += close + 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(format!("{kind}: the format ends in a lone %"));
        };
        i += 1;
        let next = chars.get(i).copied();
        let mut group = |name: &str, body: &str| named_group(seen, name, body);
        let piece = match (letter, arg.as_deref()) {
            ('%', _) => "%".to_string(),
            // `[10/Oct/2000:13:55:36 -0700]`, its brackets written by the server.
            ('t', None) => format!(r"\[{}\]", group("start_clf", r"[^\]]+")),
            ('t', Some(a)) => {
                return Err(format!(
                    "{kind}: %{{{a}}}t: only %t (the common log format's time) is read"
                ))
            }
            ('r', None) => group("request", r#"(?:[^"\\]|\\.)*"#),
            ('s', None) => group("status", r"\d{3}|-"),
            ('m', None) => group("method", r"[A-Za-z]+|-"),
            ('U', None) => group("path", r"\S*"),
            ('D', None) if apache => group("elapsed_us", r"\d+"),
            // Tomcat up to 9.0; Tomcat 10 writes µs, read with `%{us}T` in its place.
            ('D', None) => group("elapsed_ms", r"\d+"),
            ('T', None) if apache => group("elapsed_s", r"\d+"),
            ('T', None) => group("elapsed_s", r"\d+(?:\.\d+)?"),
            ('T', Some("ms")) => group("elapsed_ms", r"\d+"),
            ('T', Some("us")) => group("elapsed_us", r"\d+"),
            ('T', Some("s")) => group("elapsed_s", r"\d+(?:\.\d+)?"),
            (
                'a' | 'A' | 'b' | 'B' | 'h' | 'H' | 'l' | 'p' | 'q' | 'u' | 'v' | 'V' | 'P' | 'f'
                | 'X' | 'k' | 'L' | 'R' | 'I' | 'O' | 'S' | 'F',
                None,
            ) => filler(next).to_string(),
            (
                'i' | 'o' | 'e' | 'n' | 'C' | 'c' | 'r' | 's' | 'p' | 'P' | 'a' | 'h' | 'L',
                Some(_),
            ) => filler(next).to_string(),
            (l, Some(a)) => return Err(format!("{kind}: %{{{a}}}{l}: not a directive read here")),
            (l, None) => return Err(format!("{kind}: %{l}: not a directive read here")),
        };
        Ok((piece, i))
    })
}

/// nginx's `log_format` as a regex.
fn nginx(format: &str) -> Result<String, String> {
    let format = match format {
        "combined" => {
            r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent""#
        }
        f => f,
    };
    to_regex(format, '$', |chars, seen| {
        let mut i = 0;
        let braced = chars.get(i) == Some(&'{');
        if braced {
            i += 1;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        let var: String = chars[start..i].iter().collect();
        if braced {
            if chars.get(i) != Some(&'}') {
                return Err(format!("nginx: ${{{var} without its }}"));
            }
            i += 1;
        }
        if var.is_empty() {
            return Err("nginx: a $ without a variable name".to_string());
        }
        let next = chars.get(i).copied();
        let mut group = |name: &str, body: &str| named_group(seen, name, body);
        let piece = match var.as_str() {
            "time_local" => group("end_clf", r"[^\]]+"),
            "time_iso8601" => group("end_iso", r"\S+"),
            "msec" => group("end_epoch", r"\d+(?:\.\d+)?"),
            "request" => group("request", r#"(?:[^"\\]|\\.)*"#),
            "status" => group("status", r"\d{3}|-"),
            "request_method" => group("method", r"[A-Za-z]+|-"),
            "request_uri" | "uri" => group("path", r"\S*"),
            "request_time" => group("elapsed_s", r"\d+(?:\.\d+)?"),
            "upstream_response_time" => group("upstream", r"-|[0-9.]+(?:\s*[,:]\s*[0-9.]+)*"),
            _ => filler(next).to_string(),
        };
        Ok((piece, i))
    })
}

/// For a file no family claims: where its lines are a common or combined log (`host ident
/// user [date] "request" status bytes ...`), the refusal that says what to give.
pub fn common_log_refusal(head: &[u8]) -> Option<&'static str> {
    let re = Regex::new(r#"^\S+ \S+ \S+ \[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "(?:[^"\\]|\\.)*" (?:\d{3}|-) (?:\d+|-)(?P<rest>.*)$"#).ok()?;
    let (mut n, mut total, mut number_after) = (0, 0, 0);
    for (_, line) in lines(head).take(1000) {
        let line = trim(line);
        if line.is_empty() {
            continue;
        }
        total += 1;
        let Some(c) = re.captures(line) else {
            continue;
        };
        n += 1;
        let rest = c.name("rest").map_or(&b""[..], |m| m.as_bytes());
        if rest
            .rsplit(|&b| b == b' ')
            .next()
            .is_some_and(|w| !w.is_empty() && w.iter().all(|b| b.is_ascii_digit() || *b == b'.'))
        {
            number_after += 1;
        }
    }
    // Most lines of the head, and at least three.
    if n < 3 || n * 2 < total {
        return None;
    }
    Some(if number_after == n {
        "a common log whose last field may be the request's time, in a unit the line does not \
         say: give its format, e.g. --log-format 'apache:%h %l %u %t \"%r\" %>s %b %D' (Apache's \
         %D: µs) or 'tomcat:%h %l %u %t \"%r\" %s %b %D' (Tomcat's %D: ms up to Tomcat 9; \
         Tomcat 10's µs: %{us}T in its place)"
    } else {
        "a common or combined access log: it writes no request time. Log one (Apache: %D; \
         nginx: $request_time) and give the format, e.g. --log-format 'apache:%h %l %u %t \
         \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D'"
    })
}

#[cfg(test)]
#[path = "log_format_tests.rs"]
mod tests;
