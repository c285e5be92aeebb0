//! `gcperf export`: every input's records into Parquet files.

use super::batch::{each_input, inputs, notes, Step};
use super::options::{gc_window, windowed};
use super::print;
use crate::cli::{Common, ExportArgs};

/// Bad files are named on stderr, left out of the record tables and given a row of the files
/// table; exit 1 only when nothing could be exported (a file that cannot be written is an
/// error: exit 2). Every input is held until the Parquet files are written (their row
/// groups gather small inputs in argument order).
pub(super) fn run(a: ExportArgs) -> anyhow::Result<i32> {
    use crate::report::export::{export, ExportOptions, Item, Records};
    let c = Common {
        inputs: a.inputs,
        format: None,
        csv: Default::default(),
        read: a.read,
    };
    let o = ExportOptions {
        tags: super::options::tags(&a.tags)?.to_vec(),
        partition_by: a.partition_by,
        tz: a
            .tz
            .as_deref()
            .map(|z| {
                crate::report::export::Tz::parse(z).ok_or_else(|| {
                    crate::error::Error::Usage(format!(
                        "--tz {z}: not an offset (+0200, -05:00, UTC) or a tz-database zone (Europe/Paris)"
                    ))
                })
            })
            .transpose()?,
    };
    o.partition().map_err(crate::error::Error::Usage)?;
    // Each input loaded, or its name and why not; in argument order.
    let mut got: Vec<Result<crate::load::Input, (String, String)>> = Vec::new();
    let win = gc_window(&a.window)?;
    let ins = inputs(&c)?;
    let mut tally = each_input(
        &ins,
        c.read.quiet,
        &|_, p, r| {
            let mut said = Vec::new();
            match windowed(&win, r, true, &mut said) {
                Err(why) => Step {
                    value: Some(Err((crate::load::name_of(p), why.clone()))),
                    ..Step::left_out(Some(format!("gcperf: {why}")))
                },
                Ok(Ok(l)) => Step::output(Ok(l)),
                Ok(Err(e)) => Step {
                    value: Some(Err((
                        crate::load::name_of(p),
                        crate::report::batch::error_text(&e),
                    ))),
                    ..Step::none()
                },
            }
            .said_first(said)
        },
        &mut |_, it| got.push(it),
    );
    // What was left out before reading (`PATH: WHY[: skipped]`: not a regular file, a second
    // zip member of a name, not there): a row each too; a folder without files is no input.
    for s in &ins.skipped {
        let text = s.strip_suffix(": skipped").unwrap_or(s);
        let (file, why) = text.rsplit_once(": ").unwrap_or((text, ""));
        if why != crate::input::NO_LOG_FILES {
            got.push(Err((file.to_string(), why.to_string())));
        }
    }
    let items: Vec<Item> = got
        .iter()
        .map(|g| match g {
            Ok(i) => Item::Loaded(i),
            Err((file, error)) => Item::Failed {
                file: file.clone(),
                error: error.clone(),
            },
        })
        .collect();
    super::options::access_used(&a.access)?;
    let loaded = items.iter().any(|i| matches!(i, Item::Loaded(_)));
    let e = export(&items, &a.out, &o)?;
    notes(&e.notes);
    let paths: String = e
        .written
        .iter()
        .map(|w| format!("{}\n", w.path.display()))
        .collect();
    print(&paths)?;
    if !loaded {
        eprintln!("gcperf: nothing to export");
        return Ok(1);
    }
    if e.written.iter().all(|w| w.records == Records::Files) {
        tally.produced = 0;
    }
    Ok(tally.exit_code(c.read.strict))
}
