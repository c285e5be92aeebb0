//! `gcperf export`: every input's records into Parquet files.

use super::batch::{each_input, inputs, note, Step};
use super::options::{gc_window, windowed};
use super::print;
use crate::cli::{Common, ExportArgs};
use crate::load::Input;

/// Bad files are named on stderr and left out; exit 1 only when nothing could be exported (a
/// file that cannot be written is an error: exit 2). Every input is held until the Parquet
/// files are written (their row groups gather small inputs in argument order).
pub(super) fn run(a: ExportArgs) -> anyhow::Result<i32> {
    let c = Common {
        paths: a.paths,
        format: None,
        quiet: a.quiet,
        sep: None,
        decimal_comma: false,
        excel: false,
        join: a.join,
        rotated: a.rotated,
        strict: a.strict,
    };
    let mut loaded: Vec<Input> = Vec::new();
    let win = gc_window(&a.window)?;
    let mut tally = each_input(
        &inputs(&c),
        c.quiet,
        &|_, _, r| match windowed(&win, r, true) {
            Err(step) => step,
            Ok(Ok(l)) => Step::output(l),
            Ok(Err(_)) => Step::none(),
        },
        &mut |_, l| loaded.push(l),
    );
    if loaded.is_empty() {
        eprintln!("gcperf: nothing to export");
        return Ok(1);
    }
    super::options::access_used(&a.access)?;
    let refs: Vec<&Input> = loaded.iter().collect();
    let e = crate::report::export::export(&refs, &a.out)?;
    for n in &e.notes {
        note(&format!("gcperf: {n}"));
    }
    let paths: String = e
        .written
        .iter()
        .map(|w| format!("{}\n", w.path.display()))
        .collect();
    print(&paths)?;
    if e.written.is_empty() {
        tally.produced = 0;
    }
    Ok(tally.exit_code(c.strict))
}
