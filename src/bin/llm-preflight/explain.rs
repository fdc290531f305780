//! `llm-preflight explain-response` (being written).
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ExplainArgs {}

pub fn run(_a: ExplainArgs) -> ExitCode {
    eprintln!("llm-preflight explain-response: not yet available");
    ExitCode::from(2)
}
