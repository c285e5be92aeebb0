//! Output: tables as aligned text, CSV/TSV for spreadsheets, JSON. One writer per text format
//! behind one method; JSON is serialised from the analysis structs directly.

pub mod advice;
pub mod batch;
pub mod compare;
pub mod correlate;
pub mod export;
pub mod gc;
pub mod page;
pub mod perf;
pub mod slo;
pub mod summary;
pub mod tags;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A rectangular table of already-formatted cells.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Columns that hold numbers (right-aligned in text output).
    pub numeric: Vec<bool>,
}

impl Table {
    /// The table without its first column (the file, where a section names it).
    pub fn drop_first_column(&mut self) {
        self.headers.remove(0);
        self.numeric.remove(0);
        for r in &mut self.rows {
            r.remove(0);
        }
    }

    /// Rows as columns and columns as rows: the first column's cells become the headers
    /// after `first`, each other column a row named by its header. Every column but the
    /// first is numeric.
    pub fn transposed(&self, first: &str) -> Table {
        // Column `j` as a row named `name`.
        let column = |j: usize, name: &str| -> Vec<String> {
            let cells = self
                .rows
                .iter()
                .map(|r| r.get(j).cloned().unwrap_or_default());
            std::iter::once(name.to_string()).chain(cells).collect()
        };
        Table {
            rows: (1..self.headers.len())
                .map(|j| column(j, &self.headers[j]))
                .collect(),
            ..Table::new(&column(0, first)).numeric_from(1)
        }
    }

    pub fn new(headers: &[impl AsRef<str>]) -> Self {
        Table {
            headers: headers.iter().map(|s| s.as_ref().to_string()).collect(),
            rows: Vec::new(),
            numeric: vec![false; headers.len()],
        }
    }
    pub fn numeric_from(mut self, first: usize) -> Self {
        self.numeric = (0..self.numeric.len()).map(|i| i >= first).collect();
        self
    }
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }
}

/// A section's heading (Markdown's `###` in `md`), after a blank line unless it comes first.
fn push_heading(s: &mut String, title: &str, md: bool) {
    if !s.is_empty() {
        s.push('\n');
    }
    let hashes = if md { "### " } else { "" };
    s.push_str(&format!("{hashes}{title}\n\n"));
}

/// One file's `t` in its text section, which names the file: without the file column, a
/// blank line after.
fn push_file_table(out: &mut String, mut t: Table) {
    t.drop_first_column();
    out.push_str(&Text.write(&t));
    out.push('\n');
}

/// Per file (`bands`: its name and bands), each band's `count` column and share.
fn band_table<'a>(
    count: &str,
    bands: impl Iterator<Item = (&'a String, &'a [crate::analyze::Band])>,
    digits: Option<usize>,
) -> Table {
    let mut t = Table::new(&["file", "band_ms", count, "share_pct"]).numeric_from(2);
    for (file, bands) in bands {
        for b in bands {
            t.push(vec![
                file.clone(),
                b.label.clone(),
                b.count.to_string(),
                opt(b.share_pct, digits),
            ]);
        }
    }
    t
}

/// A text format for tables.
pub trait TableWriter {
    fn write(&self, t: &Table) -> String;
}

/// Aligned columns for people.
pub struct Text;

/// How text tables are shown: the width they must fit (0: any), and whether FAIL is red.
/// Set once by a command for its stdout (`set_terminal`); the library's own default is plain
/// text of every column.
static TEXT_WIDTH: AtomicUsize = AtomicUsize::new(0);
static TEXT_COLOR: AtomicBool = AtomicBool::new(false);

/// The terminal text tables are written for: its width (None: every column) and colour.
pub fn set_terminal(width: Option<usize>, color: bool) {
    TEXT_WIDTH.store(width.unwrap_or(0), Ordering::Relaxed);
    TEXT_COLOR.store(color, Ordering::Relaxed);
}

/// The width text tables must fit (None: any, as for a pipe or a file).
pub fn text_width() -> Option<usize> {
    Some(TEXT_WIDTH.load(Ordering::Relaxed)).filter(|&w| w > 0)
}

/// Red, for a terminal.
pub fn red(s: &str) -> String {
    format!("\x1b[31m{s}\x1b[0m")
}

/// Green, for a terminal.
pub fn green(s: &str) -> String {
    format!("\x1b[32m{s}\x1b[0m")
}

/// How many of the columns of widths `w` (two spaces between) fit `width`: the first
/// always, then from the left while they fit.
fn fitting(w: &[usize], width: usize) -> usize {
    let mut used = 0;
    let mut kept = 0;
    for (i, &k) in w.iter().enumerate() {
        let need = used + k + if i > 0 { 2 } else { 0 };
        if i > 0 && need > width {
            break;
        }
        used = need;
        kept = i + 1;
    }
    kept
}

/// A numeric cell the input cannot give, as a text table shows it (CSV and JSON leave it
/// empty or null).
pub const NO_FIGURE: &str = "\u{2013}";

/// A writer that adds the `--tag` columns to every table.
struct Tagged(Box<dyn TableWriter>);

impl TableWriter for Tagged {
    fn write(&self, t: &Table) -> String {
        self.0.write(&tags::table(t))
    }
}

impl TableWriter for Text {
    fn write(&self, t: &Table) -> String {
        self.fit(
            t,
            TEXT_WIDTH.load(Ordering::Relaxed),
            TEXT_COLOR.load(Ordering::Relaxed),
        )
    }
}

impl Text {
    /// The table as text `width` characters wide at most (0: any; the first column is kept
    /// whatever its width), FAIL in red where `color`.
    pub fn fit(&self, t: &Table, width: usize, color: bool) -> String {
        let n = t.headers.len();
        let numeric = |i: usize| t.numeric.get(i).copied().unwrap_or(false);
        // An empty numeric cell is a figure the input cannot give: shown, not left blank.
        let shown = |i: usize, c: &str| match c.is_empty() && numeric(i) {
            true => NO_FIGURE.to_string(),
            false => c.to_string(),
        };
        let mut w: Vec<usize> = t.headers.iter().map(|h| h.chars().count()).collect();
        for r in &t.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                w[i] = w[i].max(shown(i, c).chars().count());
            }
        }
        // Wider than the terminal: the columns from the right that do not fit are left out,
        // and said (a table that wraps is unreadable).
        let full = n;
        let n = if width > 0 { fitting(&w, width) } else { n };
        let mut out = String::new();
        let line = |cells: &[String], out: &mut String| {
            let mut parts = Vec::with_capacity(n);
            for (i, c) in cells.iter().enumerate().take(n) {
                let c = &shown(i, c);
                // Made only where it is written: the last column is not padded, and a
                // padding made for every row of it is quadratic in a table whose last
                // column has one long cell (an error message failed in every operation).
                let pad = || " ".repeat(w[i].saturating_sub(c.chars().count()));
                // Coloured after padding: the escapes take no width on a terminal.
                let text = if color && c == "FAIL" {
                    red(c)
                } else {
                    c.clone()
                };
                parts.push(match (numeric(i), i + 1 == n) {
                    (true, _) => pad() + &text,
                    (false, true) => text,
                    (false, false) => text + &pad(),
                });
            }
            out.push_str(parts.join("  ").trim_end());
            out.push('\n');
        };
        line(&t.headers, &mut out);
        let rule: Vec<String> = w.iter().take(n).map(|&k| "-".repeat(k)).collect();
        out.push_str(&rule.join("  "));
        out.push('\n');
        for r in &t.rows {
            line(r, &mut out);
        }
        if n < full {
            let note = format!(
                "({} of {full} columns left out to fit {width} characters: {}; --wide shows them)",
                full - n,
                t.headers[n..].join(", ")
            );
            // The note fits too, wrapped between words.
            let mut line = String::new();
            for word in note.split(' ') {
                if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                    out.push_str(&line);
                    out.push('\n');
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(word);
            }
            out.push_str(&line);
            out.push('\n');
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
    /// `s` as a cell (a decimal comma where asked for, quoted where it holds the separator, a
    /// quote or a line break), appended to `out`: nothing allocated.
    pub fn push_cell(&self, out: &mut Vec<u8>, s: &str) {
        let comma = self.decimal_comma && is_decimal(s);
        // One pass over the bytes for the usual ASCII separator.
        let special = |b: u8| b == b'"' || b == b'\n' || b == b'\r';
        let holds_special = match u8::try_from(self.sep) {
            Ok(sep) if sep.is_ascii() => s.bytes().any(|b| b == sep || special(b)),
            _ => s.contains(self.sep) || s.bytes().any(special),
        };
        let needs = holds_special || (comma && self.sep == ',');
        if !comma && !needs {
            out.extend_from_slice(s.as_bytes());
            return;
        }
        if needs {
            out.push(b'"');
        }
        // '.' and '"' are ASCII: replacing them byte by byte keeps the UTF-8 whole.
        for &b in s.as_bytes() {
            match b {
                b'.' if comma => out.push(b','),
                b'"' => out.extend_from_slice(b"\"\""),
                _ => out.push(b),
            }
        }
        if needs {
            out.push(b'"');
        }
    }

    /// One row, its cells as `write` quotes them, straight to `w` (rows too many to hold as a
    /// table: `gc --events`).
    pub fn write_row<S: AsRef<str>>(
        &self,
        cells: &[S],
        w: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let mut line = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                self.push_sep(&mut line);
            }
            self.push_cell(&mut line, c.as_ref());
        }
        line.push(b'\n');
        w.write_all(&line)
    }

    /// A number written by `num_into`/`push_u64` (`write`: digits, '.', '-') appended to
    /// `out` by `write`, as `push_cell` would append its text: as written unless a decimal
    /// comma or a separator among those characters asks for more.
    pub fn push_number(&self, out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
        let plain = !self.decimal_comma && !matches!(self.sep, '0'..='9' | '.' | '-' | '"');
        if plain {
            write(out);
            return;
        }
        let mut b = Vec::new();
        write(&mut b);
        self.push_cell(out, std::str::from_utf8(&b).unwrap_or_default());
    }

    /// The separator appended to `out`.
    #[inline]
    pub fn push_sep(&self, out: &mut Vec<u8>) {
        if self.sep.is_ascii() {
            out.push(self.sep as u8);
        } else {
            let mut sep = [0u8; 4];
            out.extend_from_slice(self.sep.encode_utf8(&mut sep).as_bytes());
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
                out.push_str(&format!(" {} |", esc(c)));
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
        let class = |i: usize| match t.numeric.get(i) {
            Some(true) => " class=\"n\"",
            _ => "",
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
    /// JSON Lines: one compact object a line (a run, a group, a correlation), each input's
    /// written as it finishes where no ranking waits for all (schema/*.schema.json).
    Jsonl,
    Markdown,
}

impl Format {
    /// Its name as `--format` takes it (clap's, from the variant).
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }

    /// JSON, whole (one document) or a line an object.
    pub fn is_json(self) -> bool {
        matches!(self, Format::Json | Format::Jsonl)
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
        let sep = match self.format {
            Format::Csv if self.decimal_comma => ';',
            Format::Csv => ',',
            Format::Tsv => '\t',
            _ => return None,
        };
        Some(Delimited {
            sep: self.sep.unwrap_or(sep),
            decimal_comma: self.decimal_comma,
        })
    }

    /// The writer of the format: every table it writes gets the `--tag` columns
    /// (`tags::table`).
    pub fn writer(self) -> Box<dyn TableWriter> {
        let w: Box<dyn TableWriter> = match (self.format, self.delimited()) {
            (_, Some(d)) => Box::new(d),
            (Format::Markdown, None) => Box::new(Markdown),
            _ => Box::new(Text),
        };
        Box::new(Tagged(w))
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

/// serde_json's printers with every float `clean`ed on its way out. Pretty (`json`): an
/// array whose first value is a number, string, boolean or null is written on one line
/// (`"first_lines": [12, 30]`, a sketch's hundreds of buckets), others one value a line.
/// Compact (`json_line`): one object a line.
struct CleanFormatter<'a> {
    pretty: Option<serde_json::ser::PrettyFormatter<'a>>,
    /// Per open array: None until its first value says how it is laid out, then Some(inline).
    arrays: Vec<Option<bool>>,
    /// A value of the innermost array is to start, first or not, its layout not yet written.
    pending: Option<bool>,
}

impl CleanFormatter<'_> {
    fn new(pretty: bool) -> Self {
        CleanFormatter {
            pretty: pretty.then(serde_json::ser::PrettyFormatter::new),
            arrays: Vec::new(),
            pending: None,
        }
    }

    /// The pretty printer's `step`, or `compact` written where there is none.
    fn either<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        step: impl FnOnce(&mut serde_json::ser::PrettyFormatter<'_>, &mut W) -> std::io::Result<()>,
        compact: &[u8],
    ) -> std::io::Result<()> {
        match &mut self.pretty {
            Some(p) => step(p, w),
            None => w.write_all(compact),
        }
    }

    /// Before a value: what its array's layout puts before it, now that its kind is known.
    fn start<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        scalar: bool,
    ) -> std::io::Result<()> {
        let Some(first) = self.pending.take() else {
            return Ok(());
        };
        let inline = match self.arrays.last_mut() {
            Some(mode) => *mode.get_or_insert(scalar && self.pretty.is_some()),
            None => false,
        };
        match (&mut self.pretty, inline) {
            (Some(p), false) => serde_json::ser::Formatter::begin_array_value(p, w, first),
            _ if first => Ok(()),
            (Some(_), true) => w.write_all(b", "),
            (None, _) => w.write_all(b","),
        }
    }
}

macro_rules! scalars {
    ($($name:ident: $t:ty),*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: $t) -> std::io::Result<()> {
            self.start(w, true)?;
            serde_json::ser::CompactFormatter.$name(w, v)
        }
    )*};
}

impl serde_json::ser::Formatter for CleanFormatter<'_> {
    scalars!(write_bool: bool, write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64,
        write_i128: i128, write_u8: u8, write_u16: u16, write_u32: u32, write_u64: u64,
        write_u128: u128, write_number_str: &str);
    fn write_null<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.start(w, true)?;
        w.write_all(b"null")
    }
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        self.start(w, true)?;
        serde_json::ser::CompactFormatter.write_f64(w, clean(v))
    }
    fn write_f32<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f32) -> std::io::Result<()> {
        self.write_f64(w, f64::from(v))
    }
    fn begin_string<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.start(w, true)?;
        w.write_all(b"\"")
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.start(w, false)?;
        self.arrays.push(None);
        self.either(w, |p, w| p.begin_array(w), b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        // An inline array never told the pretty printer it had values: it closes without a
        // line break, as an empty one does.
        self.arrays.pop();
        self.either(w, |p, w| p.end_array(w), b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        _w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.pending = Some(first);
        Ok(())
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        match (&mut self.pretty, self.arrays.last()) {
            (Some(p), Some(Some(false))) => p.end_array_value(w),
            _ => Ok(()),
        }
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.start(w, false)?;
        self.either(w, |p, w| p.begin_object(w), b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.either(w, |p, w| p.end_object(w), b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        let comma: &[u8] = if first { b"" } else { b"," };
        self.either(w, |p, w| p.begin_object_key(w, first), comma)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.either(w, |p, w| p.begin_object_value(w), b":")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.either(w, |p, w| p.end_object_value(w), b"")
    }
}

/// The JSON output of every command: pretty-printed, a line break at the end, every float
/// `clean`ed (on the way out, so key order stays the serialised one). Every JSON writer goes
/// through here, so none can print noise.
pub fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    write_json(v, true)
}

/// `items` as `format` writes JSON: one array (`json`), or a line each (`json_line`).
pub fn json_rows<T: serde::Serialize>(items: &[T], format: Format) -> String {
    match format {
        Format::Jsonl => items.iter().map(json_line).collect(),
        _ => json(items),
    }
}

/// `s` as a JSON string appended to `out`, for rows written a cell at a time (`gc --events
/// -f jsonl`, whose numbers are the CSV's).
pub fn push_json_str(out: &mut Vec<u8>, s: &str) {
    // Writing a string into a Vec fails only on memory.
    serde_json::to_writer(&mut *out, s).unwrap_or_default();
}

/// `--format jsonl`: `v` as one line of compact JSON (tags added as `json` adds them), with
/// its line break.
pub fn json_line<T: serde::Serialize + ?Sized>(v: &T) -> String {
    write_json(v, false)
}

fn write_json<T: serde::Serialize + ?Sized>(v: &T, pretty: bool) -> String {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, CleanFormatter::new(pretty));
    // `--tag`s: a field of the object, or of each object of the array.
    let tagged = match tags::get().is_empty() {
        true => None,
        false => serde_json::to_value(v).ok().map(tags::json),
    };
    let written = match &tagged {
        Some(t) => serde::Serialize::serialize(t, &mut ser),
        None => v.serialize(&mut ser),
    };
    let mut s = written
        .ok()
        .and_then(|()| String::from_utf8(buf).ok())
        .unwrap_or_else(|| "[]".into());
    s.push('\n');
    s
}

/// A number for a table cell: full precision for machines (`clean`ed), no exponent, no
/// thousands separators; `digits` fixes the decimals (None: shortest representation).
pub fn num(v: f64, digits: Option<usize>) -> String {
    match digits {
        Some(_) if !v.is_finite() => String::new(),
        Some(d) => format!("{v:.d$}"),
        None => {
            let mut b = Vec::new();
            num_into(&mut b, v);
            // ASCII: digits, '.', '-'.
            String::from_utf8(b).unwrap_or_default()
        }
    }
}

/// `num(v, None)` appended to `out` (millions of `gc --events` cells: no allocation).
pub fn num_into(out: &mut Vec<u8>, v: f64) {
    use std::io::Write;
    if !v.is_finite() {
        return;
    }
    // A figure of at most 12 significant digits (most of a log's) is its own `clean`: written
    // as it is, without `clean`'s logarithm and rounding.
    if shortest_decimal(out, v, 1e12) {
        return;
    }
    let v = clean(v);
    if shortest_decimal(out, v, 1e15) {
        return;
    }
    // Writing to a Vec cannot fail.
    let start = out.len();
    let _ = write!(out, "{v}");
    if out[start..].contains(&b'e') {
        out.truncate(start);
        let _ = write!(out, "{v:.12}");
        let text = std::str::from_utf8(&out[start..]).unwrap_or_default();
        let kept = text.trim_end_matches('0').trim_end_matches('.').len();
        out.truncate(start + kept);
    }
}

/// `v` as `{v}` writes it (the shortest decimal that reads back as `v`, the nearest of those),
/// for the magnitudes a log's figures have: the fewest decimals `d` (up to 9) for which
/// `round(|v|·10^d) / 10^d` is `v` again, written from that integer if it is below `max_k`
/// (at most 10^15). False, with nothing written, for anything else (zero, huge, tiny, more
/// digits), which `{v}` writes itself.
///
/// Why it is `{v}`'s decimal: that quotient of two exact integers is the f64 nearest the
/// decimal, as reading it gives, so the decimal reads back as `v`; with fewer decimals none
/// does (below 10^15 the product's rounding error is under 0.11, and a decimal that reads
/// back is within 0.11 of the exact product, so `round` finds it if there is one); and fewer
/// decimals are fewer significant digits.
fn shortest_decimal(out: &mut Vec<u8>, v: f64, max_k: f64) -> bool {
    let a = v.abs();
    if !(1e-6..1e15).contains(&a) {
        return false;
    }
    // p: 10^d, d up to 9.
    for (d, p) in std::iter::successors(Some(1u64), |p| Some(p * 10))
        .take(10)
        .enumerate()
    {
        let pf = p as f64;
        let k = (a * pf).round();
        if k >= max_k.min(1e15) {
            return false;
        }
        if k / pf != a {
            continue;
        }
        let k = k as u64;
        if v < 0.0 {
            out.push(b'-');
        }
        push_u64(out, k / p);
        if d > 0 {
            out.push(b'.');
            let frac = k % p;
            // Zero-padded to `d` digits.
            let digits = frac.checked_ilog10().map_or(1, |l| l as usize + 1);
            out.extend_from_slice(&b"000000000"[..d.saturating_sub(digits).min(9)]);
            push_u64(out, frac);
        }
        return true;
    }
    false
}

/// `n` in decimal appended to `out`.
pub fn push_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

pub fn opt(v: Option<f64>, digits: Option<usize>) -> String {
    v.map(|v| num(v, digits)).unwrap_or_default()
}

/// A count for a cell; empty where there is none.
pub fn opt_count(v: Option<impl ToString>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// A figure in a text line with its unit (`12.500 ms`), or `NO_FIGURE` where there is none:
/// never a lone unit.
pub fn with_unit(v: Option<f64>, digits: usize, unit: &str) -> String {
    v.map_or_else(
        || NO_FIGURE.to_string(),
        |v| format!("{}{unit}", num(v, Some(digits))),
    )
}

/// A size in KB (K = 1024 bytes, as the JVM's logs count) as people read it in text: KB
/// below a megabyte, then MB to one decimal, GB to two; `per` is appended to the unit (`/s`).
/// Tables and machine formats keep the `_kb` figures as they are.
pub fn size_kb(v: Option<f64>, per: &str) -> String {
    let Some(kb) = v.filter(|v| v.is_finite()) else {
        return NO_FIGURE.to_string();
    };
    let a = kb.abs();
    if a < 1024.0 {
        format!("{} KB{per}", num(kb, Some(0)))
    } else if a < 1024.0 * 1024.0 {
        format!("{} MB{per}", num(kb / 1024.0, Some(1)))
    } else {
        format!("{} GB{per}", num(kb / (1024.0 * 1024.0), Some(2)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_for_people() {
        assert_eq!(size_kb(Some(512.0), ""), "512 KB");
        // 3072000 KB = 2.93 GB; 378474.517 KB/s = 369.6 MB/s; 40858 KB = 39.9 MB.
        assert_eq!(size_kb(Some(3_072_000.0), ""), "2.93 GB");
        assert_eq!(size_kb(Some(378_474.517), "/s"), "369.6 MB/s");
        assert_eq!(size_kb(Some(40_858.0), ""), "39.9 MB");
        assert_eq!(size_kb(Some(-2048.0), "/h"), "-2.0 MB/h");
        assert_eq!(size_kb(None, ""), NO_FIGURE);
    }

    #[test]
    fn transposed_tables() {
        let mut t = Table::new(&["metric", "a.log", "b.log"]).numeric_from(1);
        t.push(vec!["requests".into(), "2".into(), "3".into()]);
        t.push(vec!["errors".into(), "0".into(), "1".into()]);
        let r = t.transposed("run");
        assert_eq!(r.headers, ["run", "requests", "errors"]);
        assert_eq!(r.rows, [["a.log", "2", "0"], ["b.log", "3", "1"]]);
        assert_eq!(r.numeric, [false, true, true]);
        assert_eq!(r.transposed("metric"), t);
    }

    /// A table wider than the terminal keeps its first column and the columns from the left
    /// that fit, says which it left out; FAIL is red only where asked.
    #[test]
    fn text_fits_the_width_given() {
        let mut t = Table::new(&["file", "a", "bb", "verdict"]).numeric_from(1);
        t.numeric[3] = false;
        t.push(vec![
            "run.log".into(),
            "1".into(),
            "22".into(),
            "FAIL".into(),
        ]);
        // Widths 7, 1, 2, 7: all of it is 7+2+1+2+2+2+7 = 23 characters.
        let all = Text.fit(&t, 0, false);
        assert_eq!(
            all,
            "file     a  bb  verdict\n-------  -  --  -------\nrun.log  1  22  FAIL\n"
        );
        assert_eq!(Text.fit(&t, 23, false), all);
        // 22: the last column does not fit (7+2+1+2+2 = 14 does); the note is wrapped to 22.
        assert_eq!(
            Text.fit(&t, 22, false),
            "file     a  bb\n-------  -  --\nrun.log  1  22\n(1 of 4 columns left\nout to fit 22\n\
             characters: verdict;\n--wide shows them)\n"
        );
        // Narrower than the first column: it stays, alone.
        assert!(Text
            .fit(&t, 3, false)
            .starts_with("file\n-------\nrun.log\n(3\nof\n4\n"));
        // Colour after padding: the escapes do not shift the columns.
        assert_eq!(
            Text.fit(&t, 0, true).lines().nth(2),
            Some("run.log  1  22  \x1b[31mFAIL\x1b[0m")
        );
    }

    /// `num(v, None)` as it was written before `shortest_decimal`: `{v}` of the cleaned value.
    fn num_by_format(v: f64) -> String {
        if !v.is_finite() {
            return String::new();
        }
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

    /// Values as logs and sums make them, the same for the same seed.
    fn values(seed: u64, n: usize) -> Vec<f64> {
        let mut bounded = crate::xorshift(seed);
        let mut next = move || bounded(u64::MAX);
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let r = next();
            let v = match r % 6 {
                // A decimal of 1-15 digits with 0-12 of them after the point, as logs write.
                0 | 1 => {
                    let digits = 1 + (next() % 15) as u32;
                    let k = next() % 10u64.pow(digits);
                    let d = (next() % 13) as i32;
                    k as f64 / 10f64.powi(d)
                }
                // Seconds turned into ms the noisy way (`0.0050319 secs` * 1000).
                2 => (next() % 100_000_000) as f64 / 1e7 * 1000.0,
                // Sums and means, full of noise.
                3 => (next() % 1_000_000) as f64 * 0.1 + 0.2,
                // Any finite bit pattern.
                4 => f64::from_bits(next()),
                // Near powers of ten and halfway points.
                _ => {
                    let e = (next() % 30) as i32 - 12;
                    10f64.powi(e) * (1.0 + (next() % 3) as f64 * 0.5e-12)
                }
            };
            out.push(if r & 64 == 0 { v } else { -v });
        }
        out
    }

    #[test]
    fn numbers_written_from_digits_are_those_format_writes() {
        let mut vals = values(0x9e37_79b9_7f4a_7c15, 400_000);
        vals.extend([
            0.0,
            -0.0,
            1.0,
            28.0,
            0.5,
            0.05,
            2.858,
            2.8579999999999997,
            5.031899999999999,
            999_999_999_999.5,
            1e15,
            1e15 - 1.0,
            999_999_999_999_999.0,
            1e-6,
            9.99e-7,
            1e-9,
            0.1 + 0.2,
            123_456.789_012_345,
            f64::MAX,
            f64::MIN_POSITIVE,
            4.9e-324,
            f64::INFINITY,
            f64::NAN,
        ]);
        for v in vals {
            let mut b = Vec::new();
            num_into(&mut b, v);
            assert_eq!(
                String::from_utf8(b).unwrap(),
                num_by_format(v),
                "{v:e} ({:#x})",
                v.to_bits()
            );
        }
    }

    #[test]
    fn integers_written_from_digits_are_those_format_writes() {
        let mut x = 1u64;
        for k in 0..=64 {
            for n in [
                x.wrapping_sub(1),
                x,
                x.wrapping_add(1),
                u64::MAX >> k,
                10u64.pow(k % 20),
            ] {
                let mut b = Vec::new();
                push_u64(&mut b, n);
                assert_eq!(String::from_utf8(b).unwrap(), n.to_string());
            }
            x = x.wrapping_mul(3);
        }
    }

    #[test]
    fn cells_appended_are_quoted_as_rfc4180_says() {
        let csv = Delimited {
            sep: ',',
            decimal_comma: false,
        };
        let semi = Delimited {
            sep: ';',
            decimal_comma: true,
        };
        let comma = Delimited {
            sep: ',',
            decimal_comma: true,
        };
        let cell = |d: &Delimited, s: &str| {
            let mut b = Vec::new();
            d.push_cell(&mut b, s);
            String::from_utf8(b).unwrap()
        };
        assert_eq!(cell(&csv, "G1 Young"), "G1 Young");
        assert_eq!(cell(&csv, "a,b"), "\"a,b\"");
        assert_eq!(cell(&csv, "say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell(&csv, "two\nlines"), "\"two\nlines\"");
        assert_eq!(cell(&csv, "cr\r"), "\"cr\r\"");
        assert_eq!(cell(&csv, "2.858"), "2.858");
        assert_eq!(cell(&semi, "2.858"), "2,858");
        assert_eq!(cell(&semi, "-0.5"), "-0,5");
        // Not a decimal: kept as it is.
        assert_eq!(
            cell(&semi, "2012-09-21T10:05:14.536"),
            "2012-09-21T10:05:14.536"
        );
        assert_eq!(cell(&semi, "a;b.c"), "\"a;b.c\"");
        // A decimal comma under a comma separator must be quoted.
        assert_eq!(cell(&comma, "2.5"), "\"2,5\"");
        // Multi-byte text and a multi-byte separator.
        let pipe = Delimited {
            sep: '¦',
            decimal_comma: false,
        };
        assert_eq!(cell(&pipe, "Größe¦x"), "\"Größe¦x\"");
        assert_eq!(cell(&pipe, "Größe"), "Größe");
        let mut b = Vec::new();
        pipe.push_sep(&mut b);
        assert_eq!(b, "¦".as_bytes());
        // Numbers written straight in, unless the cell needs more.
        let number = |d: &Delimited, v: f64| {
            let mut b = Vec::new();
            d.push_number(&mut b, |o| num_into(o, v));
            String::from_utf8(b).unwrap()
        };
        assert_eq!(number(&csv, 2.858), "2.858");
        assert_eq!(number(&semi, 2.858), "2,858");
        assert_eq!(number(&comma, -2.5), "\"-2,5\"");
        let dot = Delimited {
            sep: '.',
            decimal_comma: false,
        };
        assert_eq!(number(&dot, 2.5), "\"2.5\"");
    }

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
    fn text_pads_every_column_but_a_last_one_of_text() {
        // Text left, figures right; the last column (text) is not padded to its longest cell.
        let mut t = Table::new(&["name", "n", "operations"]).numeric_from(1);
        t.numeric[2] = false;
        t.push(vec!["a".into(), "1".into(), "x 1, y 1, z 1".into()]);
        t.push(vec!["bbb".into(), "10".into(), "q 10".into()]);
        t.push(vec!["cc".into(), "".into(), "".into()]);
        assert_eq!(
            Text.write(&t),
            "name   n  operations\n----  --  -------------\na      1  x 1, y 1, z 1\nbbb   10  q 10\ncc     \u{2013}\n"
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
        // Field order kept; the pretty layout is serde_json's but for arrays of numbers, on
        // one line; integers and null untouched.
        assert_eq!(
            json(&s),
            "{\n  \"z\": 0.3,\n  \"a\": [139.3, 5.0],\n  \"n\": 9007199254740993,\n  \"none\": null,\n  \"nan\": null\n}\n"
        );
        // JSON Lines: the same, compact.
        assert_eq!(
            json_line(&s),
            "{\"z\":0.3,\"a\":[139.3,5.0],\"n\":9007199254740993,\"none\":null,\"nan\":null}\n"
        );
        // Arrays of objects (and empty ones, and nested arrays) keep a value a line.
        #[derive(serde::Serialize)]
        struct T {
            o: Vec<S2>,
            e: Vec<u8>,
            m: Vec<Vec<u8>>,
        }
        #[derive(serde::Serialize)]
        struct S2 {
            k: Vec<&'static str>,
        }
        let t = T {
            o: vec![S2 { k: vec!["x", "y"] }, S2 { k: vec![] }],
            e: vec![],
            m: vec![vec![1, 2], vec![3]],
        };
        assert_eq!(
            json(&t),
            "{\n  \"o\": [\n    {\n      \"k\": [\"x\", \"y\"]\n    },\n    {\n      \"k\": []\n    }\n  ],\n  \"e\": [],\n  \"m\": [\n    [1, 2],\n    [3]\n  ]\n}\n"
        );
        let back: serde_json::Value = serde_json::from_str(&json(&t)).unwrap();
        assert_eq!(back, serde_json::to_value(&t).unwrap());
        // serde_json::Value numbers (the summary builds one) go the same way.
        let v = serde_json::json!({ "x": [{ "y": 1486.8859999999997 }, 10.065000000000055] });
        assert_eq!(
            json(&v),
            "{\n  \"x\": [\n    {\n      \"y\": 1486.886\n    },\n    10.065\n  ]\n}\n"
        );
        // An array that mixes numbers and objects (none of gcperf's own) is laid out as its
        // first value says; still the same JSON.
        let v = serde_json::json!({ "x": [10.065, { "y": 1.5 }] });
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&json(&v)).unwrap(),
            v
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
