//! The frames analyses read: a GC log's and a performance log's records as polars DataFrames
//! (built by `columns`). Every schema lives here, so that analyses, exports and charts agree
//! on column names and types.

use crate::model::{Kind, Record};
use polars::prelude::*;
use std::borrow::Cow;

/// Columns of the GC event frame, one row per record (pause, collection, concurrent phase,
/// safepoint). Names are not stored per row: `record` and `kind` are codes, `collector`,
/// `cause` and `name` ids into `GcFrame::strings`, so a row is a few dozen bytes.
pub mod gc {
    /// `Record::code()` (Int8: polars' UInt8 is a build feature this crate does not enable;
    /// the codes are 0..=5): 0 pause, 1 collection, 2 concurrent, 3 safepoint, 4 stall,
    /// 5 nested.
    pub const RECORD: &str = "record";
    /// `Kind::code()` (Int8, 0..=7): young, mixed, old, full, initial-mark, remark, cleanup,
    /// other.
    pub const KIND: &str = "kind";
    /// Id into `GcFrame::strings` (0 = the log does not say): Int8 while the log's ids are
    /// below 128, else UInt32; read it cast to UInt32.
    pub const COLLECTOR: &str = "collector";
    /// As `COLLECTOR`.
    pub const CAUSE: &str = "cause";
    /// As `COLLECTOR`.
    pub const NAME: &str = "name";
    /// Start, seconds since JVM start (null where the log has no uptime stamps).
    pub const START_S: &str = "start_s";
    /// Start, wall clock, milliseconds since the epoch (null where the log has no date stamps).
    pub const WALL_MS: &str = "wall_ms";
    /// The event's time on one axis: `start_s` where the log has it (after a JVM restart, the
    /// runs laid end to end: a later run's uptime plus the earlier runs' last ends), else
    /// wall-clock seconds relative to the first event.
    pub const T_S: &str = "t_s";
    /// Which JVM run the event belongs to (u32, 0 first): a run starts where the uptime goes
    /// back, the JVM having restarted within one file or between rotated parts.
    pub const RUN: &str = "run";
    pub const DURATION_MS: &str = "duration_ms";
    /// A safepoint's time to safepoint, ms, part of its `duration_ms` (`GcEvent::ttsp_ms`);
    /// null for other records and where the log does not say.
    pub const TTSP_MS: &str = "ttsp_ms";
    pub const HEAP_BEFORE_KB: &str = "heap_before_kb";
    pub const HEAP_AFTER_KB: &str = "heap_after_kb";
    pub const HEAP_TOTAL_KB: &str = "heap_total_kb";
    /// Young-generation occupancy before / after, K (null where the log has no young figures).
    pub const YOUNG_BEFORE_KB: &str = "young_before_kb";
    pub const YOUNG_AFTER_KB: &str = "young_after_kb";
    /// K promoted as the log states it (JRockit R28), null elsewhere.
    pub const PROMOTED_KB: &str = "promoted_kb";
    /// `model::FLAG_*` bits (Int8; a scalar 0 when no row has any).
    pub const FLAGS: &str = "flags";
    /// The collection's number where the log has one; where it has none, the number the
    /// JRockit parser gave a collection with itemised pauses (their link to it); else null.
    pub const GC_ID: &str = "gc_id";
    pub const IN_COLLECTION: &str = "in_collection";
    /// 1-based line (u32, capped at u32::MAX as `perf::LINE`).
    pub const LINE: &str = "line";
    /// The offset from UTC the row's wall-clock stamp carried, in quarter hours east (Int8:
    /// `+0100` 4, `-0330` -14; `GcEvent::utc_offset_qh`), each row its own so that a log
    /// across a DST change has the right instants on both sides; null where the stamp wrote
    /// none (a scalar where one value, or none, fills the column).
    pub const UTC_OFFSET_QH: &str = "utc_offset_qh";
}

/// A GC log's records as a frame, with the strings its id columns point into.
#[derive(Debug, Clone, Default)]
pub struct GcFrame {
    pub df: DataFrame,
    /// By id; `strings[0]` is `""`, "none".
    pub strings: Vec<String>,
    /// Uptimes read as damage (line, the start they gave): their records are in the frame
    /// without a start (see `columns::runs`).
    pub damaged: Vec<(u32, f64)>,
}

impl GcFrame {
    /// The string of an id of the `collector`, `cause` or `name` column (`""` for none, or
    /// for an id the frame does not have).
    pub fn string(&self, id: u32) -> &str {
        self.strings.get(id as usize).map_or("", String::as_str)
    }

    pub fn height(&self) -> usize {
        self.df.height()
    }

    /// Column `name` of `df` (this frame, or a slice or filter of it) as text: `record` and
    /// `kind` codes as their names, `collector`, `cause` and `name` ids as their strings, and
    /// none (`""`) as null.
    pub fn decoded(&self, df: &DataFrame, name: &str) -> PolarsResult<StringChunked> {
        let table: StringChunked = match name {
            gc::RECORD => names(name, Record::ALL.iter().map(|r| r.as_str())),
            gc::KIND => names(name, Kind::ALL.iter().map(|k| k.as_str())),
            gc::COLLECTOR | gc::CAUSE | gc::NAME => {
                names(name, self.strings.iter().map(String::as_str))
            }
            _ => polars_bail!(ColumnNotFound: "{name} is not a code or id column"),
        };
        // Cast first: the codes are Int8, and a scalar column is materialised in the copy.
        let idx = df.column(name)?.cast(&DataType::UInt32)?;
        table.take(idx.u32()?)
    }
}

/// A lookup column for `take`: each name, `""` as null.
fn names<'a>(name: &str, it: impl Iterator<Item = &'a str>) -> StringChunked {
    StringChunked::from_iter_options(name.into(), it.map(|s| (!s.is_empty()).then_some(s)))
}

/// Columns of the performance frame, one row per request / operation.
pub mod perf {
    /// When the operation ended, milliseconds since the epoch (local time taken as UTC for
    /// logs that write local dates).
    pub const END_MS: &str = "end_ms";
    pub const TOTAL_MS: &str = "total_ms";
    /// Null where the source has no Java/DB split (JMeter, The Grinder).
    pub const JAVA_MS: &str = "java_ms";
    pub const DB_MS: &str = "db_ms";
    /// u64: summed as stored (polars sums a u32 column as u32, and a cast would copy it).
    pub const DB_CALLS: &str = "db_calls";
    /// Index into `PerfFrame::operations` (u32): names are few and rows many, so the frame
    /// holds 4 bytes per row instead of a string.
    pub const OPERATION_ID: &str = "operation_id";
    pub const OK: &str = "ok";
    pub const INCONSISTENT: &str = "inconsistent";
    /// 1-based line number (u32: a log of 4G lines could not be held as a frame anyway; larger
    /// numbers are capped at u32::MAX rather than wrapped).
    pub const LINE: &str = "line";
    /// A failed request's message (u32, null for the others): an index into
    /// `PerfFrame::operations`, which holds the log's messages beside its operation names.
    pub const ERROR_ID: &str = "error_id";
}

/// A performance log's records as a frame, with the operation names the frame's
/// `operation_id` column points into.
#[derive(Debug, Clone)]
pub struct PerfFrame {
    pub df: DataFrame,
    pub operations: Vec<String>,
}

impl PerfFrame {
    pub fn operation(&self, id: u32) -> &str {
        self.operations.get(id as usize).map_or("", String::as_str)
    }
}
// ---------------------------------------------------------------------------------------------
// Reading a frame's columns row by row, whatever type the frame narrowed them to
// ---------------------------------------------------------------------------------------------

/// A column read row by row as it is, borrowed from the frame: a scalar column (one value
/// everywhere: a log of one run, without flags or young figures) is read as its value, never
/// materialised (the copy would stay cached in the frame); a plain one as its value slice
/// (and its validity where it has nulls), no copy, no cast.
pub enum Num<'a, T: PolarsNumericType> {
    Const(Option<T::Native>),
    Slice {
        vals: &'a [T::Native],
        /// Where the column has nulls: its validity bits and their offset.
        valid: Option<(&'a [u8], usize)>,
    },
    /// Several chunks, or a column cast to `T`.
    Chunked(Cow<'a, ChunkedArray<T>>),
}

impl<'a, T: PolarsNumericType> Num<'a, T> {
    /// `None` when the column is not of type `T`.
    pub fn of(c: &'a Column) -> PolarsResult<Option<Num<'a, T>>> {
        if c.dtype() != &T::get_static_dtype() {
            return Ok(None);
        }
        if let Column::Scalar(sc) = c {
            return Ok(Some(Num::Const(sc.scalar().value().extract::<T::Native>())));
        }
        let ca: &'a ChunkedArray<T> = c.as_materialized_series().unpack::<T>()?;
        Ok(Some(match (ca.chunks().len(), ca.downcast_iter().next()) {
            (1, Some(a)) => Num::Slice {
                vals: a.values().as_slice(),
                valid: a.validity().filter(|_| ca.null_count() > 0).map(|b| {
                    let (bytes, offset, _) = b.as_slice();
                    (bytes, offset)
                }),
            },
            _ => Num::Chunked(Cow::Borrowed(ca)),
        }))
    }
    /// Column `name` of `df`, which the frame stores as `T`.
    pub fn col(df: &'a DataFrame, name: &str) -> PolarsResult<Num<'a, T>> {
        Num::cast(df.column(name)?)
    }
    /// `c` read as `T` (cast where it is of another type; a scalar as its value, which
    /// polars would spread out to cast).
    pub fn cast(c: &'a Column) -> PolarsResult<Num<'a, T>> {
        if let Some(n) = Num::of(c)? {
            return Ok(n);
        }
        if let Column::Scalar(sc) = c {
            return Ok(Num::Const(sc.scalar().value().extract::<T::Native>()));
        }
        let ca = c.cast(&T::get_static_dtype())?.take_materialized_series();
        Ok(Num::Chunked(Cow::Owned(ca.unpack::<T>()?.clone())))
    }
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<T::Native> {
        match self {
            Num::Const(v) => *v,
            Num::Slice { vals, valid } => {
                let v = *vals.get(i)?;
                valid
                    .is_none_or(|(bits, off)| bit(bits, off + i))
                    .then_some(v)
            }
            Num::Chunked(a) => a.get(i),
        }
    }
}

/// Bit `j` of `bits` (false past the end).
#[inline(always)]
fn bit(bits: &[u8], j: usize) -> bool {
    bits.get(j >> 3).is_some_and(|b| b >> (j & 7) & 1 == 1)
}

/// A column the frame narrows where its values allow (`N`, else `W`), read without a
/// widening copy.
pub enum Narrowed<'a, N: PolarsNumericType, W: PolarsNumericType> {
    Narrow(Num<'a, N>),
    Wide(Num<'a, W>),
}

/// A u64-valued column (UInt32 or UInt64).
pub type UCol<'a> = Narrowed<'a, UInt32Type, UInt64Type>;
/// An id column (Int8 while ids are small, else UInt32).
pub type IdReader<'a> = Narrowed<'a, Int8Type, UInt32Type>;

impl<'a, N: PolarsNumericType, W: PolarsNumericType> Narrowed<'a, N, W> {
    pub fn of(c: &'a Column) -> PolarsResult<Self> {
        Num::of(c)?.map_or_else(|| Num::cast(c).map(Self::Wide), |n| Ok(Self::Narrow(n)))
    }
}

impl UCol<'_> {
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<u64> {
        match self {
            UCol::Narrow(c) => c.get(i).map(u64::from),
            UCol::Wide(c) => c.get(i),
        }
    }
}

impl IdReader<'_> {
    #[inline(always)]
    pub fn get(&self, i: usize) -> u32 {
        match self {
            IdReader::Narrow(c) => c.get(i).and_then(|v| u32::try_from(v).ok()).unwrap_or(0),
            IdReader::Wide(c) => c.get(i).unwrap_or(0),
        }
    }
}

/// A boolean column without nulls (`in_collection`), a scalar one read as its value, a
/// plain one as its bits.
pub enum Flag<'a> {
    Const(bool),
    Bits(&'a [u8], usize, usize),
    Arr(&'a BooleanChunked),
}

impl<'a> Flag<'a> {
    pub fn of(c: &'a Column) -> PolarsResult<Flag<'a>> {
        Ok(match c {
            Column::Scalar(sc) => Flag::Const(sc.scalar().value().extract_bool().unwrap_or(false)),
            c => match c.as_materialized_series().bool()? {
                ca if ca.chunks().len() == 1 && ca.null_count() == 0 => {
                    let (bytes, offset, len) = ca.downcast_as_array().values().as_slice();
                    Flag::Bits(bytes, offset, len)
                }
                ca => Flag::Arr(ca),
            },
        })
    }
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<bool> {
        match self {
            Flag::Const(v) => Some(*v),
            Flag::Bits(bits, off, len) => (i < *len).then(|| bit(bits, off + i)),
            Flag::Arr(a) => a.get(i),
        }
    }
}
