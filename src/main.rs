use clap::Parser;
use sketchlab::metrics::alloc::CountingAlloc;

/// Counts allocations so studies can measure exact structures' memory.
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn main() {
    let cli = match sketchlab::cli::Cli::try_parse() {
        Ok(cli) => cli,
        // help and --version print in full; a bad argument is one line, exit 2
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            // clap's message, up to its usage and tips, on one line
            let text = e.to_string();
            let line: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .collect();
            eprintln!("{}", line.join(" "));
            std::process::exit(2);
        }
    };
    if let Err(e) = sketchlab::app::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(e.exit_code());
    }
}
