//! A simulated OpenAI-style provider on a simulated clock: token and request buckets refilled continuously, its own
//! tokenizer (the library's estimate skewed by a few percent, with noise), refusals before generation (429s with
//! OpenAI's bodies and headers, 503 overloads) and inside a 200 stream (an `error` event before or after content).
//!
//! It answers with the raw status, headers and body a real provider sends, so the drill feeds them through the
//! library's real header parser and refusal classifier. Like the fake upstream in `examples/fake-upstream`, it
//! charges the prompt plus the request's output cap at admission and gives the unused part of the cap back when the
//! answer ends.

use crate::upstream::Reply;
use llm_preflight::estimate_request;
use llm_preflight::internals::SplitMix64;
use std::collections::BTreeMap;

/// How a simulated provider behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct SimProviderConfig {
    /// A name for reports.
    pub name: String,
    /// The model named in its messages.
    pub model: String,
    /// Tokens per minute.
    pub tpm: u64,
    /// Requests per minute, if limited.
    pub rpm: Option<u64>,
    /// Its tokenizer's skew against the library's estimate: it counts `estimate × (1 + skew + skew/2 · N(0,1))`.
    pub skew: f64,
    /// The share of streamed answers that fail inside the 200 (half before any content, half after).
    pub mid_stream_error_rate: f64,
    /// The share of admitted requests answered 503 "overloaded" instead (nothing charged).
    pub overload_rate: f64,
    /// Other callers on the same key, unseen by the drill: they take this share of the TPM on average, in
    /// uneven bursts, so the provider's bucket is lower than the caller's ledger believes until headers say so.
    pub shared_fraction: f64,
}

#[derive(Debug, Clone)]
struct Bucket {
    limit: f64,
    level: f64,
    at_ms: u64,
}

impl Bucket {
    fn new(limit: u64, now_ms: u64) -> Bucket {
        Bucket {
            limit: limit as f64,
            level: limit as f64,
            at_ms: now_ms,
        }
    }
    fn refill(&mut self, now_ms: u64) {
        if now_ms > self.at_ms {
            let dt = (now_ms - self.at_ms) as f64;
            self.level = (self.level + dt * self.limit / 60_000.0).min(self.limit);
            self.at_ms = now_ms;
        }
    }
    fn reset_ms(&self) -> f64 {
        ((self.limit - self.level).max(0.0) * 60_000.0) / self.limit
    }
    /// Milliseconds until it holds `n`.
    fn wait_for(&self, n: f64) -> f64 {
        ((n - self.level).max(0.0) * 60_000.0) / self.limit
    }
}

/// A provider's reset durations as OpenAI writes them: `577ms`, `6.3s`, `1m0s`.
pub fn duration_text(ms: f64) -> String {
    if ms < 1000.0 {
        return format!("{}ms", ms.ceil() as u64);
    }
    let s = ms / 1000.0;
    if s < 60.0 {
        return format!("{}s", trim3(s));
    }
    format!("{}m{}s", (s / 60.0).floor() as u64, trim3(s % 60.0))
}

fn trim3(x: f64) -> String {
    let t = format!("{x:.3}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    t.to_string()
}

/// One simulated provider.
#[derive(Debug, Clone)]
pub struct SimProvider {
    cfg: SimProviderConfig,
    tokens: Bucket,
    requests: Option<Bucket>,
    /// Refunds of unused output reservation, due when each answer ends: (time, sequence) → tokens.
    refunds: BTreeMap<(u64, u64), f64>,
    seq: u64,
    rng: SplitMix64,
}

/// What the provider counted for one request (kept for the report: the skew is visible here).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Counted {
    /// Prompt tokens by its own tokenizer.
    pub prompt: u64,
    /// The output cap reserved.
    pub cap: u64,
}

impl SimProvider {
    /// A provider with full buckets at `now_ms`, drawing its randomness from `seed`.
    pub fn new(cfg: SimProviderConfig, seed: u64, now_ms: u64) -> SimProvider {
        SimProvider {
            tokens: Bucket::new(cfg.tpm.max(1), now_ms),
            // Real keys always have a request limit: without one configured, a generous one that never binds.
            requests: Some(Bucket::new(cfg.rpm.unwrap_or(10_000).max(1), now_ms)),
            cfg,
            refunds: BTreeMap::new(),
            seq: 0,
            rng: SplitMix64::new(seed),
        }
    }

    /// Its configuration.
    pub fn config(&self) -> &SimProviderConfig {
        &self.cfg
    }

    fn advance(&mut self, now_ms: u64) {
        let due: Vec<(u64, u64)> = self
            .refunds
            .range(..(now_ms + 1, 0))
            .map(|(k, _)| *k)
            .collect();
        for k in due {
            if let Some(n) = self.refunds.remove(&k) {
                self.tokens.refill(k.0);
                self.tokens.level = (self.tokens.level + n).min(self.tokens.limit);
            }
        }
        let dt = now_ms.saturating_sub(self.tokens.at_ms) as f64;
        self.tokens.refill(now_ms);
        if let Some(r) = self.requests.as_mut() {
            r.refill(now_ms);
        }
        if self.cfg.shared_fraction > 0.0 && dt > 0.0 {
            // Uneven: between none and twice the average share since the last look.
            let take = self.cfg.shared_fraction * self.tokens.limit * dt / 60_000.0
                * 2.0
                * self.rng.next_f64();
            self.tokens.level = (self.tokens.level - take).max(0.0);
        }
    }

    fn rate_headers(&self) -> Vec<(String, String)> {
        let mut h = vec![
            (
                "x-ratelimit-limit-tokens".to_string(),
                self.cfg.tpm.to_string(),
            ),
            (
                "x-ratelimit-remaining-tokens".to_string(),
                (self.tokens.level.max(0.0).floor() as u64).to_string(),
            ),
            (
                "x-ratelimit-reset-tokens".to_string(),
                duration_text(self.tokens.reset_ms()),
            ),
        ];
        if let Some(r) = self.requests.as_ref() {
            let rpm = self.cfg.rpm.unwrap_or(10_000);
            h.push(("x-ratelimit-limit-requests".to_string(), rpm.to_string()));
            h.push((
                "x-ratelimit-remaining-requests".to_string(),
                (r.level.max(0.0).floor() as u64).to_string(),
            ));
            h.push((
                "x-ratelimit-reset-requests".to_string(),
                duration_text(r.reset_ms()),
            ));
        }
        h
    }

    /// What this provider counts for a request body: its own tokenizer's prompt count and the output cap.
    pub fn count(&mut self, body: &serde_json::Value) -> Counted {
        let est = estimate_request(&body.to_string(), None, None)
            .map(|e| e.estimate.tokens)
            .unwrap_or(0);
        let s = self.cfg.skew;
        // A tokenizer is deterministic: the noise is a function of the messages (an FNV-1a hash seeds it), so the
        // same prompt resent with a smaller cap counts the same.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in body
            .get("messages")
            .map(|m| m.to_string())
            .unwrap_or_default()
            .bytes()
        {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let factor = (1.0 + s + 0.5 * s.abs() * SplitMix64::new(h).normal()).max(0.5);
        let cap = body
            .get("max_completion_tokens")
            .or_else(|| body.get("max_tokens"))
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0);
        Counted {
            prompt: (est as f64 * factor).round() as u64,
            cap,
        }
    }

    /// Answers one request body (OpenAI chat JSON) sent at `now_ms`.
    pub fn respond(&mut self, body: &str, now_ms: u64) -> Reply {
        self.advance(now_ms);
        let parsed: serde_json::Value = match serde_json::from_str(body) {
            Ok(v @ serde_json::Value::Object(_)) => v,
            _ => {
                return self.json(
                    400,
                    serde_json::json!({"error": {"message": "We could not parse the JSON body of your request.", "type": "invalid_request_error", "param": null, "code": null}}),
                    vec![],
                    40,
                )
            }
        };
        let stream = parsed.get("stream").and_then(serde_json::Value::as_bool) == Some(true);
        let c = self.count(&parsed);
        let charge = c.prompt + c.cap;
        let model = self.cfg.model.clone();
        let tpm = self.cfg.tpm;
        if charge > tpm {
            let msg = format!("Request too large for {model} in organization org-sim on tokens per min (TPM): Limit {tpm}, Requested {charge}. The input or output tokens must be reduced in order to run successfully. Visit https://platform.example/account/rate-limits to learn more.");
            return self.json(
                429,
                serde_json::json!({"error": {"message": msg, "type": "tokens", "param": null, "code": "rate_limit_exceeded"}}),
                vec![],
                60,
            );
        }
        let short_requests = self.requests.as_ref().is_some_and(|r| r.level < 1.0);
        if short_requests || self.tokens.level < charge as f64 {
            let wait = if short_requests {
                self.requests.as_ref().map_or(0.0, |r| r.wait_for(1.0))
            } else {
                self.tokens.wait_for(charge as f64)
            };
            let what = if short_requests {
                let rpm = self.cfg.rpm.unwrap_or(10_000);
                format!("requests per min (RPM): Limit {rpm}, Used {rpm}, Requested 1")
            } else {
                let used = (tpm as f64 - self.tokens.level).round().max(0.0) as u64;
                format!("tokens per min (TPM): Limit {tpm}, Used {used}, Requested {charge}")
            };
            let msg = format!("Rate limit reached for {model} in organization org-sim on {what}. Please try again in {}. Visit https://platform.example/account/rate-limits to learn more.", duration_text(wait));
            let kind = if short_requests { "requests" } else { "tokens" };
            let retry_after = ((wait / 1000.0).ceil() as u64).max(1);
            return self.json(
                429,
                serde_json::json!({"error": {"message": msg, "type": kind, "param": null, "code": "rate_limit_exceeded"}}),
                vec![("retry-after".to_string(), retry_after.to_string())],
                60,
            );
        }
        if self.rng.next_f64() < self.cfg.overload_rate {
            return self.json(
                503,
                serde_json::json!({"error": {"message": "That model is currently overloaded with other requests. You can retry your request.", "type": "server_error", "param": null, "code": null}}),
                vec![],
                300,
            );
        }
        // Admitted: charge the prompt and the whole cap now.
        self.tokens.level -= charge as f64;
        if let Some(r) = self.requests.as_mut() {
            r.level -= 1.0;
        }
        let headers = self.rate_headers();
        let wanted = self.rng.log_normal(120.0, 0.7).round().max(1.0) as u64;
        let completion = if c.cap > 0 { wanted.min(c.cap) } else { wanted };
        let ttft = 150 + self.rng.log_normal(250.0, 0.5).round() as u64;
        let per_token = 12u64;
        let mid_error = stream && self.rng.next_f64() < self.cfg.mid_stream_error_rate;
        let id = format!("chatcmpl-sim{}", self.seq);
        if mid_error {
            // Half fail before any content, half after some.
            let delivered = if self.rng.next_f64() < 0.5 {
                0
            } else {
                1 + self.rng.below(completion.max(1))
            };
            let latency = ttft + delivered * per_token;
            self.refund_at(now_ms + latency, c.cap.saturating_sub(delivered));
            let mut body = String::new();
            if delivered > 0 {
                body.push_str(&chunk(&id, &model, "Hello"));
                body.push_str(&chunk(&id, &model, " from the simulated provider"));
            }
            if self.rng.next_f64() < 0.5 {
                body.push_str("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n");
            } else {
                body.push_str("data: {\"error\":{\"message\":\"The server had an error while processing your request. Sorry about that!\",\"type\":\"server_error\",\"param\":null,\"code\":\"server_error\"}}\n\n");
            }
            return Reply {
                status: 200,
                headers: with_type(headers, "text/event-stream"),
                body,
                ttft_ms: Some(ttft),
                latency_ms: latency,
            };
        }
        let latency = ttft + completion * per_token;
        self.refund_at(now_ms + latency, c.cap.saturating_sub(completion));
        let usage = serde_json::json!({"prompt_tokens": c.prompt, "completion_tokens": completion, "total_tokens": c.prompt + completion});
        if stream {
            let mut body = chunk(&id, &model, "Hello");
            body.push_str(&chunk(&id, &model, " from the simulated provider."));
            body.push_str(&format!(
                "data: {}\n\ndata: [DONE]\n\n",
                serde_json::json!({"id": id, "object": "chat.completion.chunk", "model": model, "choices": [], "usage": usage})
            ));
            Reply {
                status: 200,
                headers: with_type(headers, "text/event-stream"),
                body,
                ttft_ms: Some(ttft),
                latency_ms: latency,
            }
        } else {
            let body = serde_json::json!({
                "id": id, "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello from the simulated provider."}, "finish_reason": "stop"}],
                "usage": usage,
            });
            Reply {
                status: 200,
                headers: with_type(headers, "application/json"),
                body: body.to_string(),
                ttft_ms: Some(latency),
                latency_ms: latency,
            }
        }
    }

    fn refund_at(&mut self, at_ms: u64, tokens: u64) {
        self.seq += 1;
        if tokens > 0 {
            self.refunds.insert((at_ms, self.seq), tokens as f64);
        }
    }

    fn json(
        &mut self,
        status: u16,
        body: serde_json::Value,
        extra: Vec<(String, String)>,
        latency_ms: u64,
    ) -> Reply {
        self.seq += 1;
        let mut headers = with_type(self.rate_headers(), "application/json");
        headers.extend(extra);
        Reply {
            status,
            headers,
            body: body.to_string(),
            ttft_ms: None,
            latency_ms,
        }
    }
}

fn with_type(mut h: Vec<(String, String)>, t: &str) -> Vec<(String, String)> {
    h.insert(0, ("content-type".to_string(), t.to_string()));
    h
}

fn chunk(id: &str, model: &str, text: &str) -> String {
    format!(
        "data: {}\n\n",
        serde_json::json!({"id": id, "object": "chat.completion.chunk", "model": model, "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]})
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use llm_preflight::{classify, RefusalKind};

    fn provider(tpm: u64) -> SimProvider {
        SimProvider::new(
            SimProviderConfig {
                name: "p".into(),
                model: "gpt-4o-mini".into(),
                tpm,
                rpm: Some(3),
                skew: 0.04,
                mid_stream_error_rate: 0.0,
                overload_rate: 0.0,
                shared_fraction: 0.0,
            },
            1,
            0,
        )
    }

    fn body(words: usize, cap: u64) -> String {
        serde_json::json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello there ".repeat(words)}], "max_tokens": cap}).to_string()
    }

    #[test]
    fn durations_read_like_openai() {
        assert_eq!(duration_text(576.2), "577ms");
        assert_eq!(duration_text(6_300.0), "6.3s");
        assert_eq!(duration_text(60_000.0), "1m0s");
    }

    #[test]
    fn refuses_too_large_then_rate_limits_with_classifiable_answers() {
        let mut p = provider(1_000);
        let r = p.respond(&body(10, 5_000), 0);
        assert_eq!(r.status, 429);
        let c = classify(Some(r.status), r.headers.clone(), &r.body, 0);
        assert_eq!(c.kind, RefusalKind::TooLarge);
        let ok = p.respond(&body(10, 600), 0);
        assert_eq!(ok.status, 200);
        let limited = p.respond(&body(10, 600), 1);
        assert_eq!(limited.status, 429);
        let c = classify(Some(429), limited.headers.clone(), &limited.body, 1);
        assert_eq!(c.kind, RefusalKind::RateLimitTokens);
        assert!(c.retry_after_ms.is_some_and(|w| w >= 1000));
        // Requests: three per minute.
        let mut p = provider(100_000);
        for t in 0..3 {
            assert_eq!(p.respond(&body(2, 10), t).status, 200);
        }
        let r = p.respond(&body(2, 10), 3);
        let c = classify(Some(429), r.headers.clone(), &r.body, 3);
        assert_eq!(c.kind, RefusalKind::RateLimitRequests);
    }
}
