//! Output: tables as aligned text, CSV/TSV for spreadsheets, JSON. One writer per text format
//! behind one method; JSON is serialised from the analysis structs directly.

pub mod batch;
pub mod compare;
pub mod correlate;
pub mod export;
pub mod gc;
pub mod perf;
pub mod summary;

/// A rectangular table of already-formatted cells.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Columns that hold numbers (right-aligned in text output).
    pub numeric: Vec<bool>,
}

impl Table {
    pub fn new(headers: &[&str]) -> Self {
        Table {
            headers: headers.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
            numeric: vec![false; headers.len()],
        }
    }
    pub fn numeric_from(mut self, first: usize) -> Self {
        for (i, n) in self.numeric.iter_mut().enumerate() {
            *n = i >= first;
        }
        self
    }
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }
}

/// A text format for tables.
pub trait TableWriter {
    fn write(&self, t: &Table) -> String;
}

/// Aligned columns for people.
pub struct Text;

impl TableWriter for Text {
    fn write(&self, t: &Table) -> String {
        let n = t.headers.len();
        let mut w: Vec<usize> = t.headers.iter().map(|h| h.chars().count()).collect();
        for r in &t.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                w[i] = w[i].max(c.chars().count());
            }
        }
        let mut out = String::new();
        let line = |cells: &[String], out: &mut String| {
            let mut parts = Vec::with_capacity(n);
            for (i, c) in cells.iter().enumerate().take(n) {
                let pad = w[i].saturating_sub(c.chars().count());
                let last = i + 1 == n;
                if t.numeric.get(i).copied().unwrap_or(false) {
                    parts.push(format!("{}{}", " ".repeat(pad), c));
                } else if last {
                    parts.push(c.clone());
                } else {
                    parts.push(format!("{}{}", c, " ".repeat(pad)));
                }
            }
            out.push_str(parts.join("  ").trim_end());
            out.push('\n');
        };
        line(&t.headers, &mut out);
        let rule: Vec<String> = w.iter().map(|&k| "-".repeat(k)).collect();
        out.push_str(&rule.join("  "));
        out.push('\n');
        for r in &t.rows {
            line(r, &mut out);
        }
        out
    }
}

/// RFC 4180 CSV (or TSV with `sep = '\t'`): header row, quoting where needed, `\n` line ends,
/// no thousands separators. With `decimal_comma`, numbers are written `12,5` for spreadsheet
/// locales that read `.` as a thousands separator (then the separator must not be `,`).
pub struct Delimited {
    pub sep: char,
    pub decimal_comma: bool,
}

impl Delimited {
    fn cell(&self, s: &str) -> String {
        let s = if self.decimal_comma && is_decimal(s) {
            std::borrow::Cow::Owned(s.replace('.', ","))
        } else {
            std::borrow::Cow::Borrowed(s)
        };
        let needs = s.contains(self.sep) || s.contains('"') || s.contains('\n') || s.contains('\r');
        if needs {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.into_owned()
        }
    }
}

/// A number as the tables write it: `-12.5`, `0.0001` (never an exponent, never grouped).
/// Times (`2012-09-21T10:05:14.536`), band labels (`0-50`) and names do not match.
fn is_decimal(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s).as_bytes();
    let Some(dot) = b.iter().position(|&c| c == b'.') else {
        return false;
    };
    dot > 0
        && dot + 1 < b.len()
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == dot || c.is_ascii_digit())
}

/// Markdown (GitHub-flavoured) tables for pasting into wikis: `|` in cells escaped, numbers
/// right-aligned.
pub struct Markdown;

impl TableWriter for Markdown {
    fn write(&self, t: &Table) -> String {
        let esc = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        let mut out = String::new();
        let row = |cells: &[String], out: &mut String| {
            out.push('|');
            for c in cells {
                out.push(' ');
                out.push_str(&esc(c));
                out.push_str(" |");
            }
            out.push('\n');
        };
        row(&t.headers, &mut out);
        out.push('|');
        for i in 0..t.headers.len() {
            let right = t.numeric.get(i).copied().unwrap_or(false);
            out.push_str(if right { " ---: |" } else { " --- |" });
        }
        out.push('\n');
        for r in &t.rows {
            row(r, &mut out);
        }
        out
    }
}

impl TableWriter for Delimited {
    fn write(&self, t: &Table) -> String {
        let mut out = String::new();
        let sep = self.sep.to_string();
        let mut row = |cells: &[String]| {
            let v: Vec<String> = cells.iter().map(|c| self.cell(c)).collect();
            out.push_str(&v.join(&sep));
            out.push('\n');
        };
        row(&t.headers);
        for r in &t.rows {
            row(r);
        }
        out
    }
}

/// An HTML `<table>` (escaped; numbers right-aligned by class), for the report page.
pub struct Html;

/// Text made safe inside HTML elements and attribute values.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

impl TableWriter for Html {
    fn write(&self, t: &Table) -> String {
        let class = |i: usize| {
            if t.numeric.get(i).copied().unwrap_or(false) {
                " class=\"n\""
            } else {
                ""
            }
        };
        let mut out = String::from("<table>\n<thead><tr>");
        for (i, h) in t.headers.iter().enumerate() {
            out.push_str(&format!("<th{}>{}</th>", class(i), html_escape(h)));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for r in &t.rows {
            out.push_str("<tr>");
            for (i, c) in r.iter().enumerate() {
                out.push_str(&format!("<td{}>{}</td>", class(i), html_escape(c)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        out
    }
}

/// The output formats of the table-producing commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Tsv,
    Json,
    Markdown,
}

impl Format {
    /// One table per output (CSV, TSV, Markdown), rather than the text report's sections.
    pub fn is_tabular(self) -> bool {
        matches!(self, Format::Csv | Format::Tsv | Format::Markdown)
    }
}

/// How to write: the format, and the spreadsheet conventions for CSV/TSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Output {
    pub format: Format,
    /// CSV field separator (default `,`; `;` by default with `decimal_comma`).
    pub sep: Option<char>,
    pub decimal_comma: bool,
    /// Start with a UTF-8 byte order mark, which Excel needs to read UTF-8.
    pub bom: bool,
}

impl From<Format> for Output {
    fn from(format: Format) -> Self {
        Output {
            format,
            sep: None,
            decimal_comma: false,
            bom: false,
        }
    }
}

impl Output {
    pub fn writer(self) -> Box<dyn TableWriter> {
        let decimal_comma = self.decimal_comma;
        match self.format {
            Format::Table | Format::Json => Box::new(Text),
            Format::Markdown => Box::new(Markdown),
            Format::Csv => Box::new(Delimited {
                sep: self.sep.unwrap_or(if decimal_comma { ';' } else { ',' }),
                decimal_comma,
            }),
            Format::Tsv => Box::new(Delimited {
                sep: self.sep.unwrap_or('\t'),
                decimal_comma,
            }),
        }
    }

    /// The text as it is printed or saved: with the BOM when asked for (CSV and TSV only).
    pub fn finish(self, mut s: String) -> String {
        if self.bom && matches!(self.format, Format::Csv | Format::Tsv) {
            s.insert(0, '\u{feff}');
        }
        s
    }
}

/// A number for a table cell: full precision for machines, no exponent, no thousands
/// separators; `digits` fixes the decimals (None: shortest exact representation).
pub fn num(v: f64, digits: Option<usize>) -> String {
    if !v.is_finite() {
        return String::new();
    }
    match digits {
        Some(d) => format!("{v:.d$}"),
        None => {
            let s = format!("{v}");
            if s.contains('e') {
                format!("{v:.12}")
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            } else {
                s
            }
        }
    }
}

pub fn opt(v: Option<f64>, digits: Option<usize>) -> String {
    v.map(|v| num(v, digits)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_per_rfc4180() {
        let mut t = Table::new(&["file", "n"]);
        t.push(vec!["a,b \"x\".log".into(), "3".into()]);
        let csv = Output::from(Format::Csv);
        assert_eq!(csv.writer().write(&t), "file,n\n\"a,b \"\"x\"\".log\",3\n");
        // A quote still needs quoting in TSV (spreadsheets read it that way).
        assert_eq!(
            Output::from(Format::Tsv).writer().write(&t),
            "file\tn\n\"a,b \"\"x\"\".log\"\t3\n"
        );
    }

    #[test]
    fn spreadsheet_locales_decimal_comma_separator_bom() {
        let mut t = Table::new(&["file", "when", "band_ms", "share_pct", "n"]);
        t.push(vec![
            "run 1.log".into(),
            "2012-09-21T10:05:14.536".into(),
            "0-50".into(),
            "12.5".into(),
            "-0.0001".into(),
        ]);
        let o = Output {
            format: Format::Csv,
            sep: None,
            decimal_comma: true,
            bom: true,
        };
        // `;` by default with decimal commas; only numbers change; the BOM comes first.
        let s = o.finish(o.writer().write(&t));
        assert_eq!(
            s,
            "\u{feff}file;when;band_ms;share_pct;n\nrun 1.log;2012-09-21T10:05:14.536;0-50;12,5;-0,0001\n"
        );
        // A chosen separator is kept, and a field holding it is quoted.
        let o = Output {
            sep: Some('|'),
            decimal_comma: false,
            bom: false,
            ..o
        };
        let mut t = Table::new(&["a"]);
        t.push(vec!["x|y".into()]);
        assert_eq!(o.finish(o.writer().write(&t)), "a\n\"x|y\"\n");
        // No BOM outside CSV/TSV.
        let j = Output {
            format: Format::Json,
            ..o
        };
        assert_eq!(j.finish("[]".into()), "[]");
        assert!(!is_decimal("1.") && !is_decimal(".5") && !is_decimal("1.2.3"));
        assert!(is_decimal("10.25") && !is_decimal("10"));
    }

    #[test]
    fn markdown_tables_escape_pipes_and_align_numbers() {
        let mut t = Table::new(&["run", "p95_ms"]).numeric_from(1);
        t.push(vec!["a|b".into(), "12.5".into()]);
        assert_eq!(
            Markdown.write(&t),
            "| run | p95_ms |\n| --- | ---: |\n| a\\|b | 12.5 |\n"
        );
    }

    #[test]
    fn text_aligns_numbers_right() {
        let mut t = Table::new(&["name", "value"]).numeric_from(1);
        t.push(vec!["a".into(), "1.5".into()]);
        t.push(vec!["bbb".into(), "10".into()]);
        assert_eq!(
            Text.write(&t),
            "name  value\n----  -----\na       1.5\nbbb      10\n"
        );
    }

    #[test]
    fn numbers_have_no_exponent_or_separators() {
        assert_eq!(num(1234567.5, None), "1234567.5");
        assert_eq!(num(0.0000001, None), "0.0000001");
        assert_eq!(num(2.0, Some(3)), "2.000");
        assert_eq!(num(f64::INFINITY, None), "");
    }
}
