//! `llm-preflight check` (being written).
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CheckArgs {}

pub fn run(_a: CheckArgs) -> ExitCode {
    eprintln!("llm-preflight check: not yet available");
    ExitCode::from(2)
}
