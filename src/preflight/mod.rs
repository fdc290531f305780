//! Checking a request against the provider's per-minute budgets (being written).
