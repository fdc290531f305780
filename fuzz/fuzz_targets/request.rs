//! Request-body estimation: arbitrary text as a request body (auto-detected API and profile, then every API
//! forced), and the resulting cost through a preflight check. Bad bodies give `PreflightError::NotJson` or
//! `PreflightError::WrongShape`, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::Profile;
use llm_preflight::{
    estimate_request, Api, Budget, Policy, PreflightError, Provider, State, VerdictKind,
};

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    let mut apis: Vec<Option<Api>> = vec![None];
    apis.extend(Api::ALL.map(Some));
    for api in apis {
        match estimate_request(&body, api, None) {
            Ok(r) => {
                let e = &r.estimate;
                assert!(e.low <= e.tokens && e.tokens <= e.high, "{e:?}");
                assert_eq!(r.incomplete, !r.unpriced.is_empty());
                let cost = r.cost();
                for provider in Provider::ALL {
                    let budget = Budget::new(provider)
                        .tokens_per_minute(nz(30_000))
                        .requests_per_minute(nz(500))
                        .context_window(nz(128_000));
                    let state = State::new(budget, 0);
                    let median = state.check(&cost, Policy::Median, 0);
                    let low = state.check(&cost, Policy::Optimistic, 0);
                    // Never sendable at p5 implies never sendable at the median.
                    if low.verdict.kind() == VerdictKind::NeverSendable {
                        assert_eq!(median.verdict.kind(), VerdictKind::NeverSendable);
                    }
                }
                let _ = estimate_request(&body, api, Some(Profile::Cl100k));
            }
            Err(PreflightError::NotJson(m)) => assert!(!m.is_empty()),
            Err(PreflightError::WrongShape { path, expected }) => {
                assert!(path.starts_with('/'));
                assert!(!expected.is_empty());
            }
            Err(other) => {
                // Counts out of range (a negative max_tokens) are typed errors too.
                let _ = other.to_string();
            }
        }
    }
});

/// A limit: never zero.
fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a limit is at least 1")
}
