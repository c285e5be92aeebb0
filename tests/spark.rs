//! Issue 40, must-show 1 and 3: `examples/spark/` (the PySpark job, fleet.sql and
//! fleet_duckdb.sql) run on a 22-host fleet made from the fixtures, every figure per host and
//! for the fleet checked against gcperf's own single-machine output, the same through DuckDB,
//! and the merged fleet percentiles within the sketches' stated 1 % of the exact ones
//! (`tests/spark/check_fleet.py` does the work; this runs it on the binary under test).
//! `.ci/run` installs pyspark; elsewhere, without it, the test says how to get it and skips.

use std::path::Path;

#[test]
fn the_spark_example_gives_gcperfs_figures_per_host_and_for_the_fleet() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/spark/check_fleet.py"))
        .args(["--gcperf", env!("CARGO_BIN_EXE_gcperf")])
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI must have pyspark and duckdb (python3 -m pip install pyspark duckdb; Java 17+): {said}");
        }
        eprintln!(
            "SKIPPED the_spark_example_gives_gcperfs_figures_per_host_and_for_the_fleet: {said}"
        );
        return;
    }
    assert!(out.status.success(), "{said}{err}");
    // The groups of checks the issue asks for, each said as passed.
    for group in [
        "ok: per-host pauses",
        "ok: per-host requests",
        "ok: fleet: every exact figure",
        "ok: merged fleet percentiles within the stated error",
        "ok: export tables: gc and perf hold exactly the GC and the perf rows",
        "ok: alike-named files",
        "ok: inputs without records",
        "ok: runs: exit 1 for the host with nothing readable",
        "ok: fleet_duckdb.sql",
    ] {
        assert!(said.contains(group), "no `{group}` in:\n{said}{err}");
    }
    assert!(said.contains(" 0 failed"), "{said}");
}
