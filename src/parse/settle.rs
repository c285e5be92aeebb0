//! A streamed block's parser moving its settled events (those no later line can change) to the
//! block's columns as it reads (see `stream::Parser::flushing`): what the JRockit and HotSpot
//! parsers share. Each says which of its events are settled.

use crate::columns::GcColumns;
use crate::model::GcEvent;

#[derive(Default)]
pub(crate) struct Settle {
    /// Events held when a try is due (0: never).
    at: usize,
    /// After a try that found too few settled events: the next waits until this many are
    /// held (a pause followed by thousands of safepoints must not be looked for again after
    /// every line).
    retry: usize,
    cols: Option<Box<GcColumns>>,
}

impl Settle {
    pub(crate) fn every(at: usize) -> Self {
        Settle {
            at,
            ..Settle::default()
        }
    }

    /// How many events are held when a try is due (0: never).
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    /// A try is due with `held` events held.
    #[inline]
    pub(crate) fn due(&self, held: usize) -> bool {
        self.at > 0 && held >= self.at.max(self.retry)
    }

    /// Are `k` settled events of the `held` worth moving (half a try's worth)? If not, the
    /// next try waits for as many events more.
    pub(crate) fn worth(&mut self, k: usize, held: usize) -> bool {
        if k < self.at.div_ceil(2) {
            self.retry = held + (self.at / 2).max(1);
            return false;
        }
        self.retry = 0;
        true
    }

    /// No more tries in this block.
    pub(crate) fn stop(&mut self) {
        self.at = 0;
    }

    /// Move the first `k` of `events` to the block's columns.
    pub(crate) fn take(&mut self, events: &mut Vec<GcEvent>, k: usize) {
        let Some(settled) = events.get(..k) else {
            return;
        };
        // A block holds tens of settling tries' events: room for them up front, as growing
        // by doubling copied each column four times over (1.3 % of a CMS log's CPU).
        self.cols
            .get_or_insert_with(|| Box::new(GcColumns::with_capacity(16 * self.at.max(k))))
            .push_events(settled);
        events.drain(..k);
    }

    /// The block's columns, if any events went to them.
    pub(crate) fn cols(&mut self) -> Option<GcColumns> {
        self.cols.take().map(|c| *c)
    }
}
