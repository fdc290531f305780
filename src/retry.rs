//! The next move after a refusal: retry policy, breaker, retry budget (being written).
