//! The verdict's cost beyond estimation (target: ≤ 1 µs): a check against a state with headers applied, the same
//! through the thread-safe ledger, a reserve-and-release round trip, and routing over three candidates.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use llm_preflight::{
    route, Budget, Candidate, Cost, DimensionState, Ledger, Policy, Provider, RateLimitSnapshot,
    State,
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
