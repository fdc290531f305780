//! The drill drives a `Guard`: at 1×, 3× and 10× the primary's ceiling, with a primary and a fallback, every
//! assertion holds (never-sendable requests never sent, no send before a stated wait, no resend of a refusal no
//! wait clears or after output was delivered, nothing held at the end, one outcome per request), and the guard
//! learns how the simulated providers count.

use llm_preflight_drill::{simulate, DrillConfig, SimSettings};

#[test]
fn the_assertions_hold_through_the_guard_at_one_three_and_ten_times_the_ceiling() {
    for (load, seed) in [(1.0, 21), (3.0, 22), (10.0, 23)] {
        let cfg = DrillConfig::simulated(10_000, Some(30), Some(2_500), load, 15.0, seed);
        let r = simulate(&cfg, &SimSettings::default()).unwrap();
        let broken: Vec<_> = r.assertions.iter().filter(|a| !a.held).collect();
        assert!(broken.is_empty(), "load {load}: {broken:?}");
        assert_eq!(r.never_sendable_sent, 0);
        assert_eq!(r.retries_before_retry_after, 0);
        assert_eq!(r.hard_refusals_resent, 0);
        assert_eq!(r.resent_after_output, 0);
        assert_eq!(r.held_at_end, 0);
        assert_eq!(r.abandoned, 0);
        assert_eq!(r.offered, r.succeeded + r.shed + r.failed);
        assert!(r.succeeded > 0, "load {load}");
        if load > 1.0 {
            // Past the ceiling the guard queues, sheds and falls back.
            assert!(
                r.queued > 0 && r.shed > 0 && r.fell_back > 0,
                "load {load}: {r:?}"
            );
        }
        // Both providers answered, so the guard learned both.
        assert!(r.learned.contains_key("primary"), "load {load}");
    }
}

#[test]
fn the_guard_learns_a_providers_skew_from_the_usage_it_settles() {
    // The simulated providers count 20% above the library's estimate; the drill's guard learns it from their usage
    // blocks.
    let cfg = DrillConfig::simulated(10_000, None, Some(2_500), 1.0, 20.0, 5);
    let settings = SimSettings {
        skew: 0.2,
        ..SimSettings::default()
    };
    let r = simulate(&cfg, &settings).unwrap();
    let primary = &r.learned["primary"];
    let ratio = primary["ratio"].as_f64().unwrap();
    assert!(primary["answers"].as_u64().unwrap() > 50, "{primary}");
    assert!((1.15..1.25).contains(&ratio), "learned {ratio}");
    assert!(r.all_held(), "{:?}", r.assertions);
}
