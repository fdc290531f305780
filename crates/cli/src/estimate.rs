//! `llm-preflight estimate` and `llm-preflight count`.

use llm_preflight::{CustomProfile, Estimator, Profile, Tables};
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

/// Which profile: by name or by model.
#[derive(clap::Args)]
pub struct Which {
    /// Tokenizer profile: o200k (default), cl100k, llama3, qwen3, deepseek-v3, gemini, gemma3, mistral-v1,
    /// claude-legacy (the pre-Claude-3 tokenizer, the only public Claude one).
    #[arg(long, conflicts_with_all = ["model", "profile_file"])]
    pub profile: Option<String>,
    /// A model name (gpt-4o, claude-sonnet-4, gemini-2.5-pro, ...) mapped to its profile.
    #[arg(long, conflicts_with = "profile_file")]
    pub model: Option<String>,
    /// A profile file: one fitted to your traffic by `llm-preflight calibrate`, or a shipped one exported by
    /// `llm-preflight profiles --export NAME`.
    #[arg(long, value_name = "PROFILE.json")]
    pub profile_file: Option<String>,
}

/// A shipped profile or one loaded from a file.
pub enum Chosen {
    Shipped(Profile),
    Custom(Box<CustomProfile>),
}

impl Chosen {
    pub fn tables(&self) -> Tables<'_> {
        match self {
            Chosen::Shipped(p) => Tables::from(*p),
            Chosen::Custom(c) => c.tables(),
        }
    }
}

/// Reads and checks a profile file.
pub fn load_profile_file(path: &str) -> Result<CustomProfile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    CustomProfile::from_json(&text).map_err(|e| format!("{path}: {e}"))
}

impl Which {
    /// Whether any of the flags was given.
    pub fn given(&self) -> bool {
        self.profile.is_some() || self.model.is_some() || self.profile_file.is_some()
    }

    /// The profile asked for (o200k when none), or a message listing the profiles or saying what is wrong with
    /// the file.
    pub fn load(&self) -> Result<Chosen, String> {
        match (&self.profile, &self.model, &self.profile_file) {
            (_, _, Some(f)) => load_profile_file(f).map(|c| Chosen::Custom(Box::new(c))),
            (Some(p), _, _) => Profile::from_name(p)
                .map(Chosen::Shipped)
                .map_err(|e| e.to_string()),
            (None, Some(m), _) => Profile::for_model(m)
                .map(Chosen::Shipped)
                .map_err(|e| e.to_string()),
            (None, None, None) => Ok(Chosen::Shipped(Profile::O200k)),
        }
    }
}

#[derive(clap::Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    which: Which,
    /// Files to estimate; stdin when none or `-`.
    files: Vec<String>,
}

#[derive(clap::Args)]
pub struct CountArgs {
    /// o200k (default) or cl100k.
    #[arg(long, default_value = "o200k")]
    profile: String,
    /// Files to count; stdin when none or `-`.
    files: Vec<String>,
}

/// Streams one input through `sink` in fixed-size pieces. Returns whether the input was readable.
fn read_input(source: &str, buf: &mut [u8], mut sink: impl FnMut(&[u8])) -> io::Result<()> {
    let mut reader: Box<dyn Read> = if source == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(source)?)
    };
    loop {
        let n = match reader.read(buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        sink(&buf[..n]);
    }
}

fn sources(files: &[String]) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    }
}

pub fn run_estimate(a: EstimateArgs) -> ExitCode {
    let chosen = match a.which.load() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("llm-preflight: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = vec![0u8; 256 * 1024];
    let mut failed = false;
    let tables = chosen.tables();
    for source in sources(&a.files) {
        let mut est = Estimator::new(tables.base());
        if let Err(e) = read_input(&source, &mut buf, |b| {
            est.update_bytes(b);
        }) {
            eprintln!("llm-preflight: cannot read {source}: {e}");
            failed = true;
            continue;
        }
        if est.saw_invalid_utf8() {
            eprintln!(
                "llm-preflight: {source}: invalid UTF-8, estimated with replacement characters"
            );
        }
        let e = est.finish_as(tables);
        let line = serde_json::json!({
            "source": source, "chars": e.chars, "tokens": e.tokens, "low": e.low, "high": e.high,
            "content": e.content.kind.name(), "profile": tables.name(),
        });
        if writeln!(out, "{line}").is_err() {
            return ExitCode::from(1);
        }
    }
    if out.flush().is_err() || failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn run_count(a: CountArgs) -> ExitCode {
    let counter = match Profile::from_name(&a.profile)
        .map_err(|e| e.to_string())
        .and_then(|p| llm_preflight::ExactCounter::new(p).map_err(|e| e.to_string()))
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("llm-preflight: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = vec![0u8; 256 * 1024];
    let mut failed = false;
    for source in sources(&a.files) {
        let mut bytes = Vec::new();
        if let Err(e) = read_input(&source, &mut buf, |b| bytes.extend_from_slice(b)) {
            eprintln!("llm-preflight: cannot read {source}: {e}");
            failed = true;
            continue;
        }
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                eprintln!(
                    "llm-preflight: {source}: invalid UTF-8, counted with replacement characters"
                );
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        let chars = text.chars().count();
        let tokens = counter.count(&text);
        let line = serde_json::json!({
            "source": source, "chars": chars, "tokens": tokens,
            "content": llm_preflight::estimate(&text, counter.profile()).content.kind.name(),
            "profile": counter.profile().name(),
        });
        if writeln!(out, "{line}").is_err() {
            return ExitCode::from(1);
        }
    }
    if out.flush().is_err() || failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
