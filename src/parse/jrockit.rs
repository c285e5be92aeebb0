//! Placeholder: being written.
use crate::model::GcLog;

pub fn parse(buf: &[u8]) -> GcLog {
    let mut log = GcLog::default();
    log.lines = super::lines::count(buf);
    log
}
