//! `gcperf completions`: a shell's completion script on stdout.

use super::print;
use crate::cli::CompletionsArgs;

pub(super) fn run(a: CompletionsArgs) -> anyhow::Result<i32> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut crate::cli::command(), "gcperf", &mut out);
    print(&String::from_utf8_lossy(&out))?;
    Ok(0)
}
