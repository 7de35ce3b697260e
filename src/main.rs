use clap::Parser;
use sketchlab::metrics::alloc::CountingAlloc;

/// Counts allocations so studies can measure exact structures' memory.
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn main() {
    let cli = sketchlab::cli::Cli::parse();
    if let Err(e) = sketchlab::app::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(e.exit_code());
    }
}
