//! The verdict's cost beyond estimation (target: ≤ 1 µs): a check against a state with headers applied, the same
//! through the thread-safe ledger, a reserve-and-release round trip, and routing over three candidates. Then a
//! guarded call's whole path (start, poll, headers, body, end, settle) beside the request estimate it includes, so
//! the difference is what the `Call` costs beyond estimation (target: ≤ 2 µs).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use llm_preflight::{
    estimate_request, route, Budget, Candidate, Cost, DimensionState, Guard, GuardConfig, Ledger,
    Policy, Provider, RateLimitSnapshot, State, Step, Target,
};

/// A limit for a test: never zero.
fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a test limit is at least 1")
}

fn state(tpm: u64, remaining: u64) -> State {
    let mut s = State::new(
        Budget::new(Provider::Groq)
            .tokens_per_minute(nz(tpm))
            .requests_per_minute(nz(1_000))
            .context_window(nz(131_072)),
        0,
    );
    s.observe(
        &RateLimitSnapshot {
            tokens: DimensionState {
                limit: Some(tpm),
                remaining: Some(remaining),
                reset_ms: Some(5_940),
            },
            requests: DimensionState {
                limit: Some(1_000),
                remaining: Some(999),
                reset_ms: Some(60),
            },
            ..RateLimitSnapshot::default()
        },
        0,
    );
    s
}

fn bench(c: &mut Criterion) {
    let s = state(8_000, 500);
    let cost = Cost {
        input: llm_preflight::Band {
            low: 1_050,
            tokens: 1_200,
            high: 1_400,
        },
        max_output: Some(512),
        incomplete: false,
    };
    c.bench_function("check (queueable, both band ends)", |b| {
        b.iter(|| black_box(&s).check(black_box(&cost), Policy::Median, black_box(1_000)))
    });
    let ledger = Ledger::new(state(8_000, 7_923));
    c.bench_function("ledger check", |b| {
        b.iter(|| ledger.check(black_box(&cost), Policy::Median, black_box(1_000)))
    });
    c.bench_function("ledger reserve + release", |b| {
        b.iter(|| {
            if let Ok(r) = ledger.try_reserve(black_box(&cost), Policy::Median, 1_000) {
                r.release();
            }
        })
    });
    let (a, big) = (state(8_000, 0), state(1_000_000, 900_000));
    c.bench_function("route over 3", |b| {
        let cands = [
            Candidate {
                name: "a",
                state: &a,
                cost: &cost,
            },
            Candidate {
                name: "b",
                state: &s,
                cost: &cost,
            },
            Candidate {
                name: "c",
                state: &big,
                cost: &cost,
            },
        ];
        b.iter(|| route(black_box(&cands), Policy::Median, 1_000))
    });

    // A guarded call on the drill's kind of request: a 600-token chat prompt with a 256-token cap, answered 200
    // with usage, on two targets with room to spare. Time moves a second per call so the buckets refill.
    let prompt = "the report shows next steps for people who read notes later ".repeat(60);
    let body = format!(
        r#"{{"model":"gpt-4o-mini","messages":[{{"role":"user","content":"{prompt}"}}],"max_tokens":256}}"#
    );
    let usage = br#"{"choices":[{"message":{"content":"ok"}}],"usage":{"prompt_tokens":600,"completion_tokens":40}}"#;
    let targets = vec![
        Target::new(
            "a",
            Budget::new(Provider::OpenAi).tokens_per_minute(nz(1 << 40)),
        ),
        Target::new(
            "b",
            Budget::new(Provider::OpenAi).tokens_per_minute(nz(1 << 40)),
        ),
    ];
    let guard = Guard::new(targets, GuardConfig::default()).expect("two targets");
    let mut now = 0u64;
    let mut g = c.benchmark_group("guard");
    g.bench_function("estimate_request alone", |b| {
        b.iter(|| estimate_request(black_box(&body), None, None))
    });
    g.bench_function("call: start to settled", |b| {
        b.iter(|| {
            now += 1_000;
            let mut call = guard.start(black_box(&body), now + 30_000, now);
            let Step::Send { .. } = call.poll(now) else {
                panic!("a call with room to spare is sent");
            };
            call.on_response(200, [("x-ratelimit-remaining-tokens", "1000000")], now);
            call.on_body(usage, now);
            call.on_end(now, 0.5);
            black_box(call.poll(now))
        })
    });
    g.finish();

    // A 20 MB base64 PNG (4000 × 3000): its header read from the text, and the whole body priced once parsed.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(4000u32.to_be_bytes());
    png.extend(3000u32.to_be_bytes());
    png.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
    png.resize(15 << 20, 0x5a);
    let big = llm_preflight::internals::media::base64(&png);
    let body: serde_json::Value = serde_json::json!({"model": "gpt-4o", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "What is in this picture?"},
        {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{big}")}}]}]});
    let mut g = c.benchmark_group("media");
    g.bench_function("20 MB base64 PNG: header", |b| {
        b.iter(|| llm_preflight::internals::media::image_base64(black_box(&big)))
    });
    g.bench_function("20 MB base64 PNG: request priced (parsed body)", |b| {
        b.iter(|| llm_preflight::estimate_request_value(black_box(&body), None, None))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
