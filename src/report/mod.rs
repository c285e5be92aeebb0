//! Output: tables as aligned text, CSV/TSV for spreadsheets, JSON. One writer per text format
//! behind one method; JSON is serialised from the analysis structs directly.

pub mod batch;
pub mod compare;
pub mod correlate;
pub mod export;
pub mod gc;
pub mod perf;
pub mod slo;
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

impl Delimited {
    /// One row, its cells as `write` quotes them, straight to `w` (rows too many to hold as a
    /// table: `gc --events`).
    pub fn write_row<S: AsRef<str>>(
        &self,
        cells: &[S],
        w: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let mut sep = [0u8; 4];
        let sep = self.sep.encode_utf8(&mut sep).as_bytes();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                w.write_all(sep)?;
            }
            w.write_all(self.cell(c.as_ref()).as_bytes())?;
        }
        w.write_all(b"\n")
    }
}

impl TableWriter for Delimited {
    fn write(&self, t: &Table) -> String {
        let mut out: Vec<u8> = Vec::new();
        // Writing to a Vec cannot fail; the bytes are the cells' UTF-8 and separators.
        for r in std::iter::once(&t.headers).chain(&t.rows) {
            let _ = self.write_row(r, &mut out);
        }
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
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
    /// The CSV or TSV writer (None for other formats).
    pub fn delimited(self) -> Option<Delimited> {
        let decimal_comma = self.decimal_comma;
        match self.format {
            Format::Csv => Some(Delimited {
                sep: self.sep.unwrap_or(if decimal_comma { ';' } else { ',' }),
                decimal_comma,
            }),
            Format::Tsv => Some(Delimited {
                sep: self.sep.unwrap_or('\t'),
                decimal_comma,
            }),
            _ => None,
        }
    }

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

/// Figures are cleaned where they are computed (`analyze::clean`); every writer here prints
/// them through it too.
pub use crate::analyze::clean;

/// serde_json's pretty printer with every float `clean`ed on its way out.
struct CleanFormatter<'a>(serde_json::ser::PrettyFormatter<'a>);

impl serde_json::ser::Formatter for CleanFormatter<'_> {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        self.0.write_f64(w, clean(v))
    }
    fn write_f32<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f32) -> std::io::Result<()> {
        self.0.write_f64(w, clean(f64::from(v)))
    }
    // The layout is PrettyFormatter's: every method it overrides is passed on.
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// The JSON output of every command: pretty-printed, a line break at the end, every float
/// `clean`ed (on the way out, so key order stays the serialised one). Every JSON writer goes
/// through here, so none can print noise.
pub fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    let mut buf = Vec::new();
    let fmt = CleanFormatter(serde_json::ser::PrettyFormatter::new());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let mut s = match v.serialize(&mut ser) {
        Ok(()) => String::from_utf8(buf).unwrap_or_else(|_| "[]".into()),
        Err(_) => "[]".into(),
    };
    s.push('\n');
    s
}

/// A number for a table cell: full precision for machines (`clean`ed), no exponent, no
/// thousands separators; `digits` fixes the decimals (None: shortest representation).
pub fn num(v: f64, digits: Option<usize>) -> String {
    if !v.is_finite() {
        return String::new();
    }
    match digits {
        Some(d) => format!("{v:.d$}"),
        None => {
            let v = clean(v);
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
    fn clean_drops_binary_noise_and_keeps_exact_values() {
        // The noise `gcperf summary` and `gcperf perf` printed before (sums, means, linear
        // quantiles, a span, a quotient) and the classic one.
        assert_eq!(clean(2047.1390000000001), 2047.139);
        assert_eq!(clean(409.42780000000005), 409.4278);
        assert_eq!(clean(1486.8859999999997), 1486.886);
        assert_eq!(clean(10.065000000000055), 10.065);
        assert_eq!(clean(139.29999999999998), 139.3);
        assert_eq!(clean(0.1 + 0.2), 0.3);
        assert_eq!(clean(4.35 * 100.0), 435.0);
        assert_eq!(clean(-(1.1 * 1.1)), -1.21);
        // A genuine quotient keeps 12 significant digits.
        assert_eq!(clean(18.942981625307823), 18.9429816253);
        assert_eq!(clean(2.0 / 3.0), 0.666666666667);
        // Small: 9.000000000000001e-8.
        assert_eq!(clean(0.7e-7 + 0.2e-7), 9e-8);
        assert_eq!(clean(1.2345678901234e-300), 1.23456789012e-300);
        assert_eq!(clean(5e-324), 5e-324);
        // Huge: no overflow, still finite.
        assert_eq!(clean(f64::MAX), 1.79769313486e308);
        assert_eq!(clean(-1.2345678901234e300), -1.23456789012e300);
        // Exact values unchanged: integers (also past 12 digits), short decimals.
        for v in [
            0.0,
            -0.0,
            1.0,
            -7.0,
            1e15,
            1_452_507_302_114.0,
            9_007_199_254_740_991.0,
        ] {
            assert_eq!(clean(v).to_bits(), v.to_bits(), "{v}");
        }
        for v in [
            2.858,
            1754.5748,
            0.0001,
            -0.125,
            12.345,
            1e-7,
            123456.789012,
        ] {
            assert_eq!(clean(v), v, "{v}");
        }
        // 1e15 + 0.125 (a representable 17-digit value) is taken as noise at 12 digits.
        assert_eq!(clean(1e15 + 0.125), 1e15);
        assert!(clean(f64::NAN).is_nan());
        assert_eq!(clean(f64::INFINITY), f64::INFINITY);
        assert_eq!(clean(f64::NEG_INFINITY), f64::NEG_INFINITY);
    }

    /// 12-digit rounding by formatting, the reference the fast path must agree with.
    fn by_formatting(v: f64) -> f64 {
        format!("{v:.11e}").parse().unwrap()
    }

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn clean_restores_short_decimals_through_ulps_of_noise() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            let r = xorshift(&mut seed);
            // A decimal of 1 to 12 digits, 10^-12 to 10^15: what logs and sums of them hold.
            let digits = 1 + (r % 12) as u32;
            let k = (r >> 8) % 10u64.pow(digits);
            let exp = ((r >> 48) % 28) as i32 - 12 - digits as i32;
            let d: f64 = format!("{k}e{exp}").parse().unwrap();
            // Short values are kept.
            assert_eq!(clean(d), d, "{k}e{exp}");
            assert_eq!(clean(-d), -d, "-{k}e{exp}");
            if d == 0.0 {
                continue;
            }
            // Up to 64 ulps either side (a long sum's drift) are noise.
            let ulps = ((r >> 40) % 64) as i64 + 1;
            let ulps = if r & 1 == 0 { ulps } else { -ulps };
            let noisy = f64::from_bits((d.to_bits() as i64 + ulps) as u64);
            if noisy.fract() == 0.0 {
                // Near 10^15 ulps are 1/8: an integer is kept (exact, by design).
                assert_eq!(clean(noisy), noisy);
                continue;
            }
            assert_eq!(clean(noisy), d, "{noisy:e} from {k}e{exp}");
        }
    }

    #[test]
    fn clean_agrees_with_rounding_by_formatting() {
        let mut seed = 12345;
        let mut ties = 0;
        for _ in 0..1_000_000 {
            let v = f64::from_bits(xorshift(&mut seed));
            if !v.is_finite() || (v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0) {
                // Kept as they are (NaN, infinities, exact integers).
                continue;
            }
            let (c, want) = (clean(v), by_formatting(v));
            if c != want {
                // Only a near-tie at the 13th digit (`-1.4629629843049999e23`, where a/10^12
                // rounds up to ...430.5) may round the other way: by one in the 12th digit.
                let unit = 10f64.powi(v.abs().log10().floor() as i32 - 11);
                let mid = (c + want) / 2.0;
                assert!(
                    (c - want).abs() <= 1.001 * unit && (v - mid).abs() <= 1e-15 * v.abs(),
                    "{v:e}: {c:e} != {want:e}"
                );
                ties += 1;
            }
        }
        assert!(ties < 10, "{ties}");
    }

    #[test]
    fn full_precision_cells_and_json_are_clean() {
        assert_eq!(num(2047.1390000000001, None), "2047.139");
        assert_eq!(num(10.065000000000055, None), "10.065");
        assert_eq!(num(0.7e-7 + 0.2e-7, None), "0.00000009");
        assert_eq!(num(1_452_507_302_114.0, None), "1452507302114");
        // Fixed digits are the text tables' business, left as they were.
        assert_eq!(num(1486.8859999999997, Some(3)), "1486.886");

        #[derive(serde::Serialize)]
        struct S {
            z: f64,
            a: Vec<f64>,
            n: u64,
            none: Option<f64>,
            nan: f64,
        }
        let s = S {
            z: 0.1 + 0.2,
            a: vec![139.29999999999998, 5.0],
            n: 9_007_199_254_740_993,
            none: None,
            nan: f64::NAN,
        };
        // Field order kept; the pretty layout is serde_json's; integers and null untouched.
        assert_eq!(
            json(&s),
            "{\n  \"z\": 0.3,\n  \"a\": [\n    139.3,\n    5.0\n  ],\n  \"n\": 9007199254740993,\n  \"none\": null,\n  \"nan\": null\n}\n"
        );
        // serde_json::Value numbers (the summary builds one) go the same way.
        let v = serde_json::json!({ "x": [10.065000000000055, { "y": 1486.8859999999997 }] });
        assert_eq!(
            json(&v),
            "{\n  \"x\": [\n    10.065,\n    {\n      \"y\": 1486.886\n    }\n  ]\n}\n"
        );
        assert_eq!(json(&Vec::<f64>::new()), "[]\n");
    }

    /// Every JSON writer goes through `json` (the one place floats are cleaned): no other
    /// serde_json printer outside tests.
    #[test]
    fn json_is_printed_in_one_place() {
        fn rs_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    rs_files(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rs_files(&src, &mut files);
        assert!(files.len() > 10);
        let printers = [
            "serde_json::to_string",
            "serde_json::to_vec",
            "serde_json::to_writer",
            "serde_json::Serializer",
        ];
        for f in files {
            if f.ends_with("report/mod.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            // Tests may print as they like.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for p in printers {
                assert!(
                    !code.contains(p),
                    "{} prints JSON with {p}: use report::json",
                    f.display()
                );
            }
        }
    }

    #[test]
    fn numbers_have_no_exponent_or_separators() {
        assert_eq!(num(1234567.5, None), "1234567.5");
        assert_eq!(num(0.0000001, None), "0.0000001");
        assert_eq!(num(2.0, Some(3)), "2.000");
        assert_eq!(num(f64::INFINITY, None), "");
    }
}
