//! `gcperf completions`: a shell's completion script on stdout.

use super::print;
use crate::cli::{Cli, CompletionsArgs};
use clap::CommandFactory;

pub(super) fn run(a: CompletionsArgs) -> anyhow::Result<i32> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "gcperf", &mut out);
    print(&String::from_utf8_lossy(&out))?;
    Ok(0)
}
