//! The `treequiz` command line: a thin layer over the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

/// Writes a command's output to standard output and returns `status`, or 2
/// with a message when the output cannot be written (`> /dev/full`, a full
/// disk, a closed file): a result that did not arrive is not a success. A
/// reader that stopped early (`| head`, a broken pipe) is no error: the run
/// ends quietly with `status`, as ripgrep's does. Every command's standard
/// output goes through here.
pub(crate) fn print_output(text: &str, status: std::process::ExitCode) -> std::process::ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
