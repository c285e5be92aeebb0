#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's option number of `mi_option_purge_delay`, not named by the Rust bindings: 15 in
/// both bundled versions' mimalloc.h.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // Give freed memory back to the OS within 100 ms: analysis phases free large temporaries,
    // and the next phase should not add to the peak (5M-line performance log: 371 MB peak
    // instead of 427 MB with purging off; 0 ms saves 15 MB more but costs a second of
    // system time). MIMALLOC_PURGE_DELAY still overrides it.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets a plain integer option; valid at any time, no pointers involved.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 100) };
    }
    // No transparent huge pages: faulting in 2 MB pages for columns and temporaries made the
    // system time swing between 0.2 and 1.9 s a run on the 5M-line log (0.4 s without them),
    // and 0.6-1.0 s instead of 0.2 s on a 210 MB JRockit log with the machine busy. mimalloc
    // is built not to ask for them (`no_thp`: it asked before `main`, and the first arena's
    // pages, cleared 2 MB at a time, held up the start by 1.6 ms at the median and up to
    // 24 ms); this switch is for a system that gives them unasked. MIMALLOC_ALLOW_THP set leaves the system's setting.
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // SAFETY: prctl takes integers only (no pointers) and its failure (an old kernel)
        // leaves huge pages as they were.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    }
    let cli = gcperf::cli::parse();
    gcperf::output::remove_on_signal();
    let code = match gcperf::commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            // Errors can quote file names: control characters escaped.
            eprintln!("gcperf: {}", gcperf::error::escape(&format!("{e:#}")));
            2
        }
    };
    // Ends without the exit handlers: mimalloc's gives every arena's freed pages back one
    // range at a time (madvise), which the kernel's teardown of the process does anyway,
    // all at once.
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: ends the process; stdout is flushed above, stderr is unbuffered, and every
    // file gcperf writes is complete (renamed into place) before `run` returns.
    unsafe { libc::_exit(code) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The option number points at the purge delay in the mimalloc linked in: read back at
    /// its default (1000 ms in v3, 10 in v2), which the options next to it do not have.
    #[test]
    fn mimalloc_option_numbers() {
        if std::env::vars().any(|(k, _)| k.starts_with("MIMALLOC_")) {
            eprintln!("skipped: a MIMALLOC_ variable changes the defaults read here");
            return;
        }
        // SAFETY: integer reads of an option and the version.
        let (delay, version) = unsafe {
            (
                libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY),
                libmimalloc_sys::mi_version(),
            )
        };
        assert_eq!(delay, if version >= 30000 { 1000 } else { 10 });
    }
}
