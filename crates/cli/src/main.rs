//! The `llm-preflight` command: estimate, count, check and explain from the shell.
//! Every subcommand prints one JSON object per line on stdout; messages go to stderr.

mod check;
mod drill;
mod estimate;
mod explain;
mod traffic;

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
    /// List the tokenizer profiles, or export one as a profile file (`--export NAME`).
    Profiles(ProfilesArgs),
    /// Fit a profile to your own logged requests (JSON lines with text or chars, and prompt_tokens), and report
    /// how far the shipped one was off for you and what output cap your completions suggest.
    Calibrate(traffic::CalibrateArgs),
    /// Replay a log against a tokens-per-minute limit: what skipping never-sendable requests (or a character cap)
    /// would have prevented, and what it would have skipped wrongly.
    Backtest(traffic::BacktestArgs),
}

#[derive(clap::Args)]
struct ProfilesArgs {
    /// Print this shipped profile as a profile file (the format `--profile-file` and `calibrate -o` use).
    #[arg(long, value_name = "NAME")]
    export: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Estimate(a) => estimate::run_estimate(a),
        Command::Count(a) => estimate::run_count(a),
        Command::Check(a) => check::run(a),
        Command::ExplainResponse(a) => explain::run(a),
        Command::Drill(a) => drill::run_drill(*a),
        Command::Calibrate(a) => traffic::run_calibrate(a),
        Command::Backtest(a) => traffic::run_backtest(a),
        Command::Profiles(ProfilesArgs { export: Some(name) }) => {
            match llm_preflight::Profile::from_name(&name) {
                Ok(p) => {
                    print!("{}", p.to_json());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("llm-preflight profiles: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Profiles(ProfilesArgs { export: None }) => {
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
