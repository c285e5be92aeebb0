pub mod model;
pub mod parse;
