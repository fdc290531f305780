//! `llm-preflight explain-response`: classify a provider's refusal and say what to do next.
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Reads `{"status": N|null, "headers": {...}, "body": "<raw text>"|null, "stream": bool}` and prints
/// `{"kind", "retryable", "retry_after_ms", "limit", "requested", "used", "dimension", "window", "action"}`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// The response as JSON; stdin when absent or `-`. An optional `now_ms` (Unix milliseconds) dates an
    /// HTTP-date `retry-after`; otherwise the response's `date` header does.
    file: Option<PathBuf>,
}

pub fn run(a: ExplainArgs) -> ExitCode {
    let mut input = String::new();
    let read = match a.file.as_deref() {
        None => std::io::stdin().read_to_string(&mut input).map(|_| ()),
        Some(p) if p.as_os_str() == "-" => std::io::stdin().read_to_string(&mut input).map(|_| ()),
        Some(p) => std::fs::read_to_string(p).map(|s| input = s),
    };
    if let Err(e) = read {
        let what = a
            .file
            .as_deref()
            .map_or("stdin".to_string(), |p| p.display().to_string());
        eprintln!("llm-preflight explain-response: cannot read {what}: {e}");
        return ExitCode::from(2);
    }
    match llm_preflight::explain(&input) {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("llm-preflight explain-response: {e}");
            ExitCode::from(2)
        }
    }
}
