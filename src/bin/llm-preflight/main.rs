//! The `llm-preflight` command: estimate, count, check and explain from the shell.
//! Every subcommand prints one JSON object per line on stdout; messages go to stderr.

mod check;
mod drill;
mod estimate;
mod explain;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Will this LLM request fit the provider's per-minute token budget? Estimates, checks and explains.
#[derive(Parser)]
#[command(name = "llm-preflight", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Estimate tokens for each FILE (stdin when none or `-`): one JSON line per input with a p5-p95 band.
    Estimate(estimate::EstimateArgs),
    /// Count tokens exactly (o200k or cl100k, via tiktoken): one JSON line per input.
    Count(estimate::CountArgs),
    /// Check a prompt or request body against per-minute budgets: sendable, queueable or never_sendable.
    Check(check::CheckArgs),
    /// Classify a provider's refusal (status, headers, body) and say what to do next.
    ExplainResponse(explain::ExplainArgs),
    /// Drive load past a budget's ceiling (simulated or a real endpoint) and report every outcome; or --canary.
    Drill(Box<drill::DrillArgs>),
    /// List the tokenizer profiles.
    Profiles,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Estimate(a) => estimate::run_estimate(a),
        Command::Count(a) => estimate::run_count(a),
        Command::Check(a) => check::run(a),
        Command::ExplainResponse(a) => explain::run(a),
        Command::Drill(a) => drill::run_drill(*a),
        Command::Profiles => {
            for p in llm_preflight::Profile::ALL {
                println!(
                    "{}",
                    serde_json::json!({"profile": p.name(), "description": p.description()})
                );
            }
            ExitCode::SUCCESS
        }
    }
}
