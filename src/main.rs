use clap::Parser;
use sketchlab::metrics::alloc::CountingAlloc;

/// Counts allocations so studies can measure exact structures' memory.
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// A failed write to stdout (`println!` panics on it) ends the process the
/// way a command-line tool should: quietly with exit 0 when the reader went
/// away (`sketchlab list | head -1`, as coreutils do), with one line and exit
/// 1 otherwise (`> /dev/full`). Every other panic is a bug and keeps the
/// default report.
fn quiet_stdout_errors() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = msg.strip_prefix("failed printing to stdout: ") {
            if why.contains("Broken pipe") {
                std::process::exit(0);
            }
            eprintln!("error: writing to stdout: {why}");
            std::process::exit(1);
        }
        default(info);
    }));
}

fn main() {
    quiet_stdout_errors();
    let cli = match sketchlab::cli::Cli::try_parse() {
        Ok(cli) => cli,
        // help and --version print in full; a bad argument is one line, exit 2
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            // clap's message up to its usage, and its tips ("a similar
            // argument exists: '--threads'"), on one line
            let text = e.to_string();
            let mut line: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .collect();
            line.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| l.starts_with("tip:")),
            );
            eprintln!("{}", line.join(" "));
            std::process::exit(2);
        }
    };
    if let Err(e) = sketchlab::app::run(cli) {
        // a file name or a spec's text in the message: shown, never obeyed
        eprintln!(
            "error: {}",
            sketchlab::export::text::terminal(&format!("{e:#}"))
        );
        std::process::exit(e.exit_code());
    }
}
