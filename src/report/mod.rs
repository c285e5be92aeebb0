//! Output: tables as aligned text, CSV/TSV for spreadsheets, JSON. One writer per text format
//! behind one method; JSON is serialised from the analysis structs directly.

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
/// no thousands separators.
pub struct Delimited {
    pub sep: char,
}

impl Delimited {
    fn cell(&self, s: &str) -> String {
        let needs = s.contains(self.sep) || s.contains('"') || s.contains('\n') || s.contains('\r');
        if needs {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
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

/// The output formats of the table-producing commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Tsv,
    Json,
}

impl Format {
    pub fn writer(self) -> Box<dyn TableWriter> {
        match self {
            Format::Table | Format::Json => Box::new(Text),
            Format::Csv => Box::new(Delimited { sep: ',' }),
            Format::Tsv => Box::new(Delimited { sep: '\t' }),
        }
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
        assert_eq!(
            Delimited { sep: ',' }.write(&t),
            "file,n\n\"a,b \"\"x\"\".log\",3\n"
        );
        // A quote still needs quoting in TSV (spreadsheets read it that way).
        assert_eq!(
            Delimited { sep: '\t' }.write(&t),
            "file\tn\n\"a,b \"\"x\"\".log\"\t3\n"
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
