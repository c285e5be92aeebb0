//! `--skip`, `--from`, `--to` on GC logs (and, for `export`, on performance logs): the rows of
//! a frame inside a time window, before any figure is computed, so that every figure, table,
//! chart and export of a command sees the same records.
//!
//! A GC record is in the window when it *starts* in it (a GC log stamps starts; a performance
//! log's requests are placed by their end, as `analyze::perf` does). `--skip` leaves out the
//! records starting less than that long after the log's first one (on the `t_s` axis: uptime,
//! or wall-clock seconds for a log without uptimes). `--from`/`--to` are a wall-clock time
//! (`2012-09-21T12:00:00`, compared with the records' date stamps) or an uptime (`10s`, `2m`,
//! `90`: seconds since JVM start, compared with `t_s`; after a restart, the runs laid end to
//! end). A bound the log has no clock for is an error for that log, never a window silently
//! ignored.

use crate::frame::{gc, GcFrame, PerfFrame};
use polars::prelude::*;

/// One end of a window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// Seconds on the GC frame's `t_s` axis (JVM uptime).
    Uptime(f64),
    /// Wall clock, ms since the epoch of the log's own clock (as `GcEvent::wall_ms`).
    Wall(i64),
}

/// The window of a command, as given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GcWindow {
    pub skip_s: f64,
    /// Records starting at or after this.
    pub from: Option<Bound>,
    /// Records starting before this.
    pub to: Option<Bound>,
}

impl GcWindow {
    /// No bound and no skip: every record.
    pub fn is_all(&self) -> bool {
        self.skip_s <= 0.0 && self.from.is_none() && self.to.is_none()
    }

    /// An uptime bound: performance logs have no uptime, so it cannot apply to them.
    pub fn has_uptime(&self) -> bool {
        [self.from, self.to]
            .iter()
            .any(|b| matches!(b, Some(Bound::Uptime(_))))
    }

    /// The frame's records inside the window; `Err` says which bound the log has no clock
    /// for (no uptime stamps for an uptime, no date stamps for a time, no stamps for `--skip`).
    pub fn apply(&self, f: &GcFrame) -> Result<GcFrame, String> {
        if self.is_all() {
            return Ok(f.clone());
        }
        let df = &f.df;
        let present = |name: &str| df.column(name).map_or(0, |c| c.len() - c.null_count());
        let mut lf = df.clone().lazy();
        if self.skip_s > 0.0 {
            if present(gc::T_S) == 0 {
                return Err(format!(
                    "--skip: the log has no time stamps (no uptime, no date) to skip {} s of",
                    crate::analyze::clean(self.skip_s)
                ));
            }
            let cut = col(gc::T_S).min() + lit(self.skip_s);
            lf = lf.filter(col(gc::T_S).gt_eq(cut));
        }
        for (bound, flag, from) in [(self.from, "--from", true), (self.to, "--to", false)] {
            let Some(b) = bound else { continue };
            let (column, value) = match b {
                Bound::Uptime(s) => {
                    if present(gc::START_S) == 0 {
                        return Err(format!(
                            "{flag} {} s is an uptime and the log has no uptime stamps: give a time, e.g. 2012-09-21T12:00:00",
                            crate::analyze::clean(s)
                        ));
                    }
                    (gc::T_S, lit(s))
                }
                Bound::Wall(ms) => {
                    if present(gc::WALL_MS) == 0 {
                        return Err(format!(
                            "{flag} {} is a time and the log has no date stamps: give an uptime, e.g. 10s",
                            crate::parse::num::format_wall_ms(ms)
                        ));
                    }
                    (gc::WALL_MS, lit(ms))
                }
            };
            lf = lf.filter(if from {
                col(column).gt_eq(value)
            } else {
                col(column).lt(value)
            });
        }
        Ok(GcFrame {
            df: lf.collect().map_err(|e| e.to_string())?,
            strings: f.strings.clone(),
            damaged: f.damaged.clone(),
        })
    }

    /// A performance log's requests inside the window (by their end, as `analyze::perf`
    /// selects them); `Err` for an uptime bound.
    pub fn apply_perf(&self, f: &PerfFrame) -> Result<PerfFrame, String> {
        if self.has_uptime() {
            return Err(self.uptime_for_perf());
        }
        if self.is_all() {
            return Ok(f.clone());
        }
        let (from, to) = self.wall_ms();
        let lf = super::perf::in_window(f.df.clone().lazy(), self.skip_s, from, to);
        Ok(PerfFrame {
            df: lf.collect().map_err(|e| e.to_string())?,
            operations: f.operations.clone(),
        })
    }

    /// Why an uptime bound leaves a performance log out.
    pub fn uptime_for_perf(&self) -> String {
        "--from/--to given as an uptime: a performance log has no uptime, give a time (e.g. 2012-09-21T12:00:00); left out".to_string()
    }

    /// The wall-clock bounds in ms (for `PerfOptions`, which selects requests itself).
    pub fn wall_ms(&self) -> (Option<i64>, Option<i64>) {
        let wall = |b: Option<Bound>| match b {
            Some(Bound::Wall(ms)) => Some(ms),
            _ => None,
        };
        (wall(self.from), wall(self.to))
    }
}

/// The input with the window applied to its records: a GC log's frame cut to it (its line
/// counts stay the file's), a performance log as it is (its figures select their requests
/// through `PerfOptions`), or, unless `perf_too`, left out when the window has an uptime
/// bound. With `perf_too` (`export`, which computes no figures) a performance log's frame is
/// cut too. `Err`: why the input is left out.
pub fn apply_input(
    w: &GcWindow,
    input: crate::load::Input,
    perf_too: bool,
) -> Result<crate::load::Input, String> {
    use crate::load::Input;
    if w.is_all() {
        return Ok(input);
    }
    match input {
        Input::Gc(mut l) => {
            l.frame = w
                .apply(&l.frame)
                .map_err(|e| format!("{}: {e}; left out", l.label))?;
            Ok(Input::Gc(l))
        }
        Input::Perf(mut l) => {
            if perf_too {
                l.frame = w
                    .apply_perf(&l.frame)
                    .map_err(|e| format!("{}: {e}", l.label))?;
            } else if w.has_uptime() {
                return Err(format!("{}: {}", l.label, w.uptime_for_perf()));
            }
            Ok(Input::Perf(l))
        }
    }
}
