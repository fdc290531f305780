//! `llm-preflight drill`: drive load past a budget's ceiling, against the built-in simulator (`--simulate`) or a
//! real OpenAI-compatible endpoint (`--target URL`, http or https), and report every outcome; `--canary` runs the
//! small scripted check instead.
//!
//! Writes one JSON object (to `--json OUT`, else stdout), optionally an SVG chart (`--plot`) and every event as JSON
//! lines (`--records`). Exit status: 0 when every assertion held (or the canary matched), 1 when one broke (or the
//! canary saw a changed shape), 2 for bad input.

use llm_preflight::Policy;
use llm_preflight_drill::canary::run_canary;
use llm_preflight_drill::{
    parse_size_log, run, simulate, Clock, DrillConfig, Reply, SimSettings, Sizes, Upstream,
};
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[derive(clap::Args)]
pub struct DrillArgs {
    /// Run against the built-in simulated provider on a simulated clock (repeatable from --seed).
    #[arg(long, conflicts_with = "target")]
    simulate: bool,
    /// Run against a real OpenAI-compatible endpoint (plain http, e.g. http://127.0.0.1:8787).
    #[arg(long, value_name = "URL")]
    target: Option<String>,
    /// A fallback endpoint for --target (plain http).
    #[arg(long, value_name = "URL", requires = "target")]
    fallback_target: Option<String>,
    /// Run the canary (needs --target): a few scripted requests that trip a tiny budget; exit 1 when the shape of
    /// the answers no longer matches what the classifier expects.
    #[arg(long, requires = "target")]
    canary: bool,
    /// The primary's tokens-per-minute budget (for --canary: the route's tiny budget).
    #[arg(long)]
    tpm: u64,
    /// The primary's requests-per-minute budget.
    #[arg(long)]
    rpm: Option<u64>,
    /// Offered load as a multiple of the primary's ceiling (3 = three times what it admits).
    #[arg(long, default_value_t = 3.0, allow_negative_numbers = true)]
    load: f64,
    /// How long arrivals last, in minutes (simulated minutes with --simulate).
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    minutes: f64,
    /// Minutes for the arrival rate to ramp up to full load (default: a quarter of --minutes, at most 5).
    #[arg(long, allow_negative_numbers = true)]
    ramp_minutes: Option<f64>,
    /// The seed of every random draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The fallback provider's TPM (simulated: default a quarter of --tpm; 0 for no fallback).
    #[arg(long)]
    fallback_tpm: Option<u64>,
    /// The fallback provider's RPM.
    #[arg(long)]
    fallback_rpm: Option<u64>,
    /// Write the report (one JSON object) here instead of stdout.
    #[arg(long, value_name = "OUT")]
    json: Option<PathBuf>,
    /// Write the chart of outcomes over time here (SVG).
    #[arg(long, value_name = "OUT.svg")]
    plot: Option<PathBuf>,
    /// Write every event, as it happened, here (JSON lines).
    #[arg(long, value_name = "OUT.jsonl")]
    records: Option<PathBuf>,
    /// Replay request sizes from a log: `PROMPT_TOKENS [MAX_TOKENS]` per line (or JSON lines).
    #[arg(long, value_name = "FILE")]
    sizes: Option<PathBuf>,
    /// Median prompt tokens of the size distribution.
    #[arg(long, default_value_t = 600)]
    prompt_tokens: u64,
    /// Typical output cap (each request draws half, once or twice this).
    #[arg(long, default_value_t = 256)]
    max_tokens: u64,
    /// Share of requests sized around the primary's whole budget (0.9-1.3 x its TPM).
    #[arg(long, default_value_t = 0.03, allow_negative_numbers = true)]
    oversize: f64,
    /// Share of streamed requests (default 0.5 simulated, 0 against a target).
    #[arg(long, allow_negative_numbers = true)]
    stream_fraction: Option<f64>,
    /// Simulated tokenizer skew (0.04: the provider counts 4% more than the estimate, with noise).
    #[arg(long, default_value_t = 0.04, allow_negative_numbers = true)]
    skew: f64,
    /// Simulated share of streamed answers that fail inside the 200.
    #[arg(long, default_value_t = 0.03, allow_negative_numbers = true)]
    mid_stream_rate: f64,
    /// Simulated share of admitted requests answered 503 overloaded.
    #[arg(long, default_value_t = 0.01, allow_negative_numbers = true)]
    overload_rate: f64,
    /// Simulated share of each TPM taken by other callers on the same key, unseen by the drill's ledger.
    #[arg(long, default_value_t = 0.15, allow_negative_numbers = true)]
    shared: f64,
    /// Each request must start within this many milliseconds of its arrival.
    #[arg(long, default_value_t = 10_000)]
    deadline_ms: u64,
    /// The admission queue's bound, in milliseconds of work.
    #[arg(long, default_value_t = 20_000)]
    queue_ms: u64,
    /// median, conservative (p95) or optimistic (p5).
    #[arg(long, default_value = "median")]
    policy: String,
    /// --target: at most this many requests are offered (retries and fallbacks come on top, bounded by the policy).
    #[arg(long, default_value_t = 100)]
    max_requests: u64,
    /// --target: the environment variable holding the API key (sent as a bearer token when set).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    key_env: String,
    /// The model named in the request bodies.
    #[arg(long, default_value = "gpt-4o-mini")]
    model: String,
    /// --canary: at most this many half-budget requests to trip the rate limit.
    #[arg(long, default_value_t = 6)]
    burst: u32,
    /// --target over https: also trust the certificates in this PEM file (a private CA, a local test server);
    /// the Mozilla roots are always trusted.
    #[arg(long, value_name = "PEM")]
    ca_file: Option<PathBuf>,
    /// --target: per-request timeout in seconds.
    #[arg(long, default_value_t = 30)]
    timeout_s: u64,
}

fn unit(what: &str, v: f64) -> Result<f64, String> {
    if v.is_finite() && (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("--{what} {v}: expected a number from 0 to 1"))
    }
}

fn config(a: &DrillArgs, target: bool) -> Result<(DrillConfig, SimSettings), String> {
    if !a.minutes.is_finite() || a.minutes <= 0.0 || a.minutes > 10_080.0 {
        return Err(format!(
            "--minutes {}: expected a number above 0 (at most a week)",
            a.minutes
        ));
    }
    if !a.load.is_finite() || a.load <= 0.0 {
        return Err(format!(
            "--load {}: expected a multiple of the ceiling above 0",
            a.load
        ));
    }
    if a.tpm == 0 {
        return Err("--tpm 0: a budget of zero admits nothing".into());
    }
    let policy = Policy::from_name(&a.policy).map_err(|e| e.to_string())?;
    let fallback_tpm = match (a.fallback_tpm, target) {
        (Some(0), _) => None,
        (Some(n), _) => Some(n),
        (None, false) => Some((a.tpm / 4).max(1)),
        (None, true) => a.fallback_target.as_ref().map(|_| a.tpm),
    };
    if target && a.fallback_target.is_none() && a.fallback_tpm.is_some_and(|n| n > 0) {
        return Err("--fallback-tpm with --target needs --fallback-target URL".into());
    }
    let mut cfg = DrillConfig::simulated(a.tpm, a.rpm, fallback_tpm, a.load, a.minutes, a.seed);
    if let (Some(f), Some(r)) = (cfg.providers.get_mut(1), a.fallback_rpm) {
        f.rpm = Some(r);
    }
    if let Some(r) = a.ramp_minutes {
        if !r.is_finite() || r < 0.0 || r > a.minutes {
            return Err(format!("--ramp-minutes {r}: expected 0 to --minutes"));
        }
        cfg.ramp_ms = (r * 60_000.0) as u64;
    }
    cfg.sizes = match &a.sizes {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Sizes::Replay(parse_size_log(&text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => Sizes::Distribution {
            prompt_median: a.prompt_tokens,
            prompt_sigma: 0.9,
            max_tokens: a.max_tokens,
            oversize_fraction: unit("oversize", a.oversize)?,
        },
    };
    cfg.stream_fraction = unit(
        "stream-fraction",
        a.stream_fraction.unwrap_or(if target { 0.0 } else { 0.5 }),
    )?;
    cfg.deadline_ms = a.deadline_ms;
    cfg.queue_max_work_ms = a.queue_ms;
    cfg.policy = policy;
    cfg.model = a.model.clone();
    if target {
        cfg.max_requests = Some(a.max_requests);
        cfg.providers[0].name = "target".into();
    }
    if !a.skew.is_finite() || a.skew.abs() > 0.5 {
        return Err(format!(
            "--skew {}: expected a number from -0.5 to 0.5",
            a.skew
        ));
    }
    let settings = SimSettings {
        skew: a.skew,
        mid_stream_error_rate: unit("mid-stream-rate", a.mid_stream_rate)?,
        overload_rate: unit("overload-rate", a.overload_rate)?,
        shared_fraction: unit("shared", a.shared)?,
    };
    cfg.validate().map_err(|e| e.to_string())?;
    Ok((cfg, settings))
}

fn write_out(path: &Option<PathBuf>, text: &str) -> Result<(), String> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .map_err(|e| format!("cannot write stdout: {e}"))
        }
    }
}

pub fn run_drill(a: DrillArgs) -> ExitCode {
    match go(a) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("llm-preflight drill: {e}");
            ExitCode::from(2)
        }
    }
}

fn go(a: DrillArgs) -> Result<ExitCode, String> {
    if a.simulate == a.target.is_some() {
        return Err("say where to drive load: --simulate or --target URL (one of them)".into());
    }
    let timeout = Duration::from_secs(a.timeout_s.clamp(1, 600));
    if a.canary {
        let url = a.target.as_deref().unwrap_or_default();
        let key = std::env::var(&a.key_env).ok().filter(|k| !k.is_empty());
        let mut up = Http::new(
            &[url],
            key,
            timeout,
            u64::from(a.burst) + 4,
            a.ca_file.as_deref(),
        )?;
        let report = run_canary(&mut up, &mut WallClock::new(), &a.model, a.tpm, a.burst);
        let text = serde_json::to_string(&report).map_err(|e| e.to_string())? + "\n";
        write_out(&a.json, &text)?;
        if report.ok {
            return Ok(ExitCode::SUCCESS);
        }
        for c in &report.changed {
            eprintln!("llm-preflight drill --canary: changed: {c}");
        }
        return Ok(ExitCode::from(1));
    }
    let target = a.target.is_some();
    let (mut cfg, settings) = config(&a, target)?;
    let started = Instant::now();
    let report = if let Some(url) = &a.target {
        let key = std::env::var(&a.key_env).ok().filter(|k| !k.is_empty());
        if key.is_none() {
            eprintln!(
                "llm-preflight drill: ${} is not set: sending without an Authorization header",
                a.key_env
            );
        }
        let mut urls = vec![url.as_str()];
        if let Some(f) = &a.fallback_target {
            urls.push(f);
        }
        // Every request is sent at most once per provider plus three retries on each.
        let bound = cfg
            .max_requests
            .unwrap_or(100)
            .saturating_mul(4 * urls.len() as u64);
        let mut up = Http::new(&urls, key, timeout, bound, a.ca_file.as_deref())?;
        let mut clock = WallClock::new();
        cfg.start_ms = clock.unix_ms();
        run(&cfg, &mut up, &mut clock).map_err(|e| e.to_string())?
    } else {
        simulate(&cfg, &settings).map_err(|e| e.to_string())?
    };
    let elapsed = started.elapsed();
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n";
    write_out(&a.json, &json)?;
    if let Some(p) = &a.plot {
        std::fs::write(p, report.svg())
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let Some(p) = &a.records {
        let mut lines = String::new();
        for r in &report.records {
            lines.push_str(&serde_json::to_string(r).map_err(|e| e.to_string())?);
            lines.push('\n');
        }
        std::fs::write(p, lines).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    eprintln!(
        "llm-preflight drill: {} {:.1} min at {}x in {:.2} s wall: offered {}, succeeded {}, queued {}, shed {}, fell back {}, retried {}, failed {}",
        report.mode,
        report.minutes,
        report.load,
        elapsed.as_secs_f64(),
        report.offered,
        report.succeeded,
        report.queued,
        report.shed,
        report.fell_back,
        report.retried,
        report.failed
    );
    let mut code = ExitCode::SUCCESS;
    let transport = report.refused.get("transport").copied().unwrap_or(0);
    if report.attempts > 0 && transport == report.attempts {
        let first = report
            .records
            .iter()
            .find(|r| r.event == "response")
            .and_then(|r| r.detail.clone())
            .unwrap_or_default();
        eprintln!(
            "llm-preflight drill: no answer at all from the target ({transport} sends): {first}"
        );
        code = ExitCode::from(1);
    }
    for x in &report.assertions {
        if !x.held {
            eprintln!(
                "llm-preflight drill: assertion broke: {}: {}",
                x.name, x.detail
            );
            code = ExitCode::from(1);
        }
    }
    Ok(code)
}

// ---------------------------------------------------------------------------------------------------------------
// The wall clock and a small blocking HTTP/1.1 client (plain http) for --target.

struct WallClock {
    start: Instant,
    start_unix_ms: u64,
}

impl WallClock {
    fn new() -> WallClock {
        let unix = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        WallClock {
            start: Instant::now(),
            start_unix_ms: unix,
        }
    }
    fn unix_ms(&self) -> u64 {
        self.start_unix_ms + self.start.elapsed().as_millis() as u64
    }
}

impl Clock for WallClock {
    fn wait_until(&mut self, at_ms: u64) -> u64 {
        let now = self.unix_ms();
        if at_ms > now {
            std::thread::sleep(Duration::from_millis(at_ms - now));
        }
        self.unix_ms().max(at_ms)
    }
}

struct Endpoint {
    host: String,
    port: u16,
    path: String,
    tls: bool,
}

fn parse_url(url: &str) -> Result<Endpoint, String> {
    let (rest, tls) = match (url.strip_prefix("http://"), url.strip_prefix("https://")) {
        (Some(r), _) => (r, false),
        (_, Some(r)) => (r, true),
        _ => {
            return Err(format!(
                "{url}: expected a URL starting with http:// or https://"
            ))
        }
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (
            h,
            p.parse::<u16>()
                .map_err(|_| format!("{url}: bad port {p:?}"))?,
        ),
        None => (authority, if tls { 443 } else { 80 }),
    };
    if host.is_empty() {
        return Err(format!("{url}: no host"));
    }
    let path = if path.ends_with("/chat/completions") {
        path.to_string()
    } else {
        format!("{}/v1/chat/completions", path.trim_end_matches('/'))
    };
    Ok(Endpoint {
        host: host.to_string(),
        port,
        path,
        tls,
    })
}

/// The TLS settings for https targets: the Mozilla roots, plus a PEM file's certificates when given.
fn tls_config(ca_file: Option<&std::path::Path>) -> Result<Arc<rustls::ClientConfig>, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = ca_file {
        let shown = path.display();
        let mut n = 0;
        for cert in
            CertificateDer::pem_file_iter(path).map_err(|e| format!("--ca-file {shown}: {e}"))?
        {
            let cert = cert.map_err(|e| format!("--ca-file {shown}: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("--ca-file {shown}: {e}"))?;
            n += 1;
        }
        if n == 0 {
            return Err(format!("--ca-file {shown}: no certificate in it"));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

struct Http {
    endpoints: Vec<Endpoint>,
    tls: Option<Arc<rustls::ClientConfig>>,
    key: Option<String>,
    timeout: Duration,
    sent: u64,
    bound: u64,
}

impl Http {
    fn new(
        urls: &[&str],
        key: Option<String>,
        timeout: Duration,
        bound: u64,
        ca_file: Option<&std::path::Path>,
    ) -> Result<Http, String> {
        let endpoints = urls
            .iter()
            .map(|u| parse_url(u))
            .collect::<Result<Vec<_>, _>>()?;
        let tls = if endpoints.iter().any(|e| e.tls) {
            Some(tls_config(ca_file)?)
        } else {
            None
        };
        Ok(Http {
            endpoints,
            tls,
            key,
            timeout,
            sent: 0,
            bound,
        })
    }
}

const MAX_RESPONSE: usize = 8 << 20;

impl Upstream for Http {
    fn send(&mut self, provider: usize, body: &str, _now_ms: u64) -> Result<Reply, String> {
        if self.sent >= self.bound {
            return Err(format!(
                "the drill's bound of {} sends is reached",
                self.bound
            ));
        }
        self.sent += 1;
        let ep = self.endpoints.get(provider).ok_or("no such endpoint")?;
        let started = Instant::now();
        let addr = (ep.host.as_str(), ep.port)
            .to_socket_addrs()
            .map_err(|e| format!("cannot resolve {}: {e}", ep.host))?
            .next()
            .ok_or_else(|| format!("{} resolves to no address", ep.host))?;
        let tcp = TcpStream::connect_timeout(&addr, self.timeout.min(Duration::from_secs(10)))
            .map_err(|e| format!("cannot connect to {}:{}: {e}", ep.host, ep.port))?;
        let _ = tcp.set_read_timeout(Some(self.timeout));
        let _ = tcp.set_write_timeout(Some(self.timeout));
        let mut req = format!(
            "POST {} HTTP/1.1\r\nHost: {}:{}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
            ep.path,
            ep.host,
            ep.port,
            body.len()
        );
        if let Some(k) = &self.key {
            req.push_str(&format!("Authorization: Bearer {k}\r\n"));
        }
        req.push_str("\r\n");
        let (buf, first) = match (&self.tls, ep.tls) {
            (Some(config), true) => {
                let name = rustls::pki_types::ServerName::try_from(ep.host.clone())
                    .map_err(|e| format!("{}: not a TLS server name: {e}", ep.host))?;
                let conn = rustls::ClientConnection::new(config.clone(), name)
                    .map_err(|e| format!("TLS: {e}"))?;
                exchange(
                    &mut rustls::StreamOwned::new(conn, tcp),
                    &req,
                    body,
                    started,
                )?
            }
            _ => exchange(&mut { tcp }, &req, body, started)?,
        };
        let latency_ms = started.elapsed().as_millis() as u64;
        let mut reply = parse_response(&buf)?;
        reply.ttft_ms = first;
        reply.latency_ms = latency_ms;
        Ok(reply)
    }
}

/// Writes the request and reads the whole response (the server closes the connection), over plain TCP or TLS.
/// Returns the bytes and when the first of them arrived.
fn exchange<S: Read + Write>(
    s: &mut S,
    head: &str,
    body: &str,
    started: Instant,
) -> Result<(Vec<u8>, Option<u64>), String> {
    s.write_all(head.as_bytes())
        .and_then(|_| s.write_all(body.as_bytes()))
        .and_then(|_| s.flush())
        .map_err(|e| format!("cannot send: {e}"))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let mut first = None;
    loop {
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                first.get_or_insert_with(|| started.elapsed().as_millis() as u64);
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > MAX_RESPONSE {
                    return Err(format!("response larger than {MAX_RESPONSE} bytes"));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // A TLS server that closes without close_notify after a complete response: the response stands.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !buf.is_empty() => break,
            Err(e) => return Err(format!("cannot read the response: {e}")),
        }
    }
    Ok((buf, first))
}

fn parse_response(buf: &[u8]) -> Result<Reply, String> {
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("the response has no complete header block")?;
    let head = String::from_utf8_lossy(&buf[..end]);
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .filter(|s| (100..=599).contains(s))
        .ok_or_else(|| {
            format!(
                "not an HTTP status line: {:?}",
                status_line.chars().take(80).collect::<String>()
            )
        })?;
    let mut headers = Vec::new();
    for l in lines {
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let raw = &buf[end + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.to_ascii_lowercase().contains("chunked"));
    let body = if chunked { dechunk(raw)? } else { raw.to_vec() };
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        ttft_ms: None,
        latency_ms: 0,
    })
}

fn dechunk(mut raw: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let eol = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunked body ends without its last chunk")?;
        let size_text = String::from_utf8_lossy(&raw[..eol]);
        let size_hex = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_hex, 16)
            .map_err(|_| format!("bad chunk size {size_hex:?}"))?;
        raw = &raw[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        if raw.len() < size {
            return Err("a chunk is cut short".into());
        }
        out.extend_from_slice(&raw[..size]);
        raw = raw.get(size + 2..).unwrap_or(&[]);
    }
}
