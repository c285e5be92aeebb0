//! `gcperf man`: the manual page, troff, on stdout.

use super::print;

pub(super) fn run() -> anyhow::Result<i32> {
    let mut out = Vec::new();
    man_page(&mut out)?;
    print(&String::from_utf8_lossy(&out))?;
    Ok(0)
}

/// The manual page: the top-level page (its SUBCOMMANDS section lists every command) and a
/// section per command with that command's options, in one troff document.
fn man_page(out: &mut Vec<u8>) -> anyhow::Result<()> {
    let cmd = crate::cli::command();
    clap_mangen::Man::new(cmd.clone()).render(out)?;
    for sub in cmd.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = sub.get_name();
        out.extend_from_slice(format!(".SH \"GCPERF {}\"\n", name.to_uppercase()).as_bytes());
        let sub = sub.clone().bin_name(format!("gcperf {name}"));
        let man = clap_mangen::Man::new(sub);
        man.render_synopsis_section(out)?;
        man.render_description_section(out)?;
        man.render_options_section(out)?;
    }
    Ok(())
}
