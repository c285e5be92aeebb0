//! One parser per log family. Parsers take the whole (decompressed) input as bytes and return
//! typed records; they never print and never do I/O.

pub mod hotspot;
pub mod jrockit;
pub mod lines;
pub mod num;
pub mod unified;
