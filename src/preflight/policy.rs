//! Which end of an estimate's band a verdict is decided on.

use crate::names::{self, Names, UnknownName};
use serde::Serialize;

/// Which end of the estimate's band to decide on: which way the caller prefers to be wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// The median estimate (the default): wrong either way about equally often.
    #[default]
    Median,
    /// The p95 end: rarely admits a request that the provider will refuse, sometimes holds one back needlessly.
    Conservative,
    /// The p5 end: rarely holds a request back needlessly, sometimes admits one the provider will refuse.
    Optimistic,
}

impl Policy {
    /// Every policy's name.
    pub const NAMES: [&'static str; 3] = ["median", "conservative", "optimistic"];

    /// Parses `median` (or `p50`), `conservative` (or `p95`), `optimistic` (or `p5`).
    pub fn from_name(name: &str) -> Result<Policy, UnknownName> {
        const ALIASES: [(&str, Policy); 6] = [
            ("median", Policy::Median),
            ("conservative", Policy::Conservative),
            ("optimistic", Policy::Optimistic),
            ("p50", Policy::Median),
            ("p95", Policy::Conservative),
            ("p5", Policy::Optimistic),
        ];
        static POLICIES: Names = Names {
            what: "policy",
            list: "policies",
            valid: &Policy::NAMES,
            note: " (p50, p95 and p5 name them too)",
        };
        names::find(&ALIASES, name).ok_or_else(|| POLICIES.unknown(name))
    }

    /// The policy's name.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Median => "median",
            Policy::Conservative => "conservative",
            Policy::Optimistic => "optimistic",
        }
    }
}

impl std::str::FromStr for Policy {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Policy::from_name(s)
    }
}
