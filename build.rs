// The binary is linked non-PIE: a position-independent gcperf carries ~3 MB of dynamic
// relocations (polars' vtables and string tables in .data.rel.ro), which the loader writes at
// every start, dirtying those pages: 5-13 MB of each run's peak RSS, even on a tiny log. A
// command-line tool loses little by a fixed load address (the libraries still move).
fn main() {
    println!("cargo:rustc-link-arg-bins=-no-pie");
}
