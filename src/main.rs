use clap::Parser;

fn main() {
    let cli = gcperf::cli::Cli::parse();
    match gcperf::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("gcperf: {e:#}");
            std::process::exit(2);
        }
    }
}
