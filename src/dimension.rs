//! The limits a provider meters: one [`Dimension`] type shared by the rate-limit headers, refusals and the
//! verdicts, so a refusal's "tokens" and a verdict's "tokens" are the same value.

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::ops::{Index, IndexMut};

use crate::names::{Names, UnknownName};

/// One limit a request is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    /// Requests per minute.
    Requests,
    /// Tokens per minute (input plus whatever output the provider reserves at admission).
    Tokens,
    /// Input tokens per minute (Anthropic's ITPM, Groq's ITPM where an organization has one).
    InputTokens,
    /// Output tokens per minute (Anthropic's OTPM).
    OutputTokens,
    /// Requests per day.
    RequestsPerDay,
    /// Tokens per day.
    TokensPerDay,
    /// The model's context window: not a rate, a size. Only ever never-sendable.
    Context,
}

impl Dimension {
    /// Every dimension: the rates in the order they are checked, then the context window.
    pub const ALL: [Dimension; 7] = [
        Dimension::Tokens,
        Dimension::InputTokens,
        Dimension::OutputTokens,
        Dimension::Requests,
        Dimension::TokensPerDay,
        Dimension::RequestsPerDay,
        Dimension::Context,
    ];

    /// Every dimension's name, in [`Dimension::ALL`] order.
    pub const NAMES: [&'static str; 7] = [
        "tokens",
        "input_tokens",
        "output_tokens",
        "requests",
        "tokens_per_day",
        "requests_per_day",
        "context",
    ];

    /// The dimensions that are rates (have a bucket), in the order they are checked.
    pub const RATES: [Dimension; 6] = [
        Dimension::Tokens,
        Dimension::InputTokens,
        Dimension::OutputTokens,
        Dimension::Requests,
        Dimension::TokensPerDay,
        Dimension::RequestsPerDay,
    ];

    /// Whether the dimension meters tokens (per minute or per day, input, output or both).
    pub const fn counts_tokens(self) -> bool {
        matches!(
            self,
            Dimension::Tokens
                | Dimension::InputTokens
                | Dimension::OutputTokens
                | Dimension::TokensPerDay
        )
    }

    /// The name used in JSON output (`tokens`, `input_tokens`, `context`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Dimension::Requests => "requests",
            Dimension::Tokens => "tokens",
            Dimension::InputTokens => "input_tokens",
            Dimension::OutputTokens => "output_tokens",
            Dimension::RequestsPerDay => "requests_per_day",
            Dimension::TokensPerDay => "tokens_per_day",
            Dimension::Context => "context",
        }
    }

    /// The refill window: one minute, one day, or none for the context window.
    pub const fn window_ms(self) -> u64 {
        match self {
            Dimension::RequestsPerDay | Dimension::TokensPerDay => 86_400_000,
            Dimension::Context => 0,
            _ => 60_000,
        }
    }

    /// Where the dimension sits in [`Dimension::ALL`].
    const fn slot(self) -> usize {
        match self {
            Dimension::Tokens => 0,
            Dimension::InputTokens => 1,
            Dimension::OutputTokens => 2,
            Dimension::Requests => 3,
            Dimension::TokensPerDay => 4,
            Dimension::RequestsPerDay => 5,
            Dimension::Context => 6,
        }
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Dimension {
    type Err = UnknownName;
    /// Parses a dimension's name (`tokens`, `input_tokens`, `requests_per_day`, `context`, ...; `-` for `_` too).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        static DIMENSIONS: Names = Names {
            what: "dimension",
            list: "dimensions",
            valid: &Dimension::NAMES,
            note: "",
        };
        DIMENSIONS.parse(&Dimension::ALL, s)
    }
}

/// One value per [`Dimension`], indexed by it: what a request needs in each, what a ledger holds, a key's
/// buckets. Serialized as an object keyed by the dimensions' names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PerDimension<T>([T; 7]);

impl<T> PerDimension<T> {
    /// The value of `f` for each dimension.
    pub fn from_fn(mut f: impl FnMut(Dimension) -> T) -> PerDimension<T> {
        PerDimension(std::array::from_fn(|i| f(Dimension::ALL[i])))
    }

    /// Each dimension with its value, in [`Dimension::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Dimension, &T)> {
        Dimension::ALL.into_iter().zip(self.0.iter())
    }

    /// Each value through `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> PerDimension<U> {
        PerDimension(self.0.map(f))
    }

    /// The two values of each dimension through `f`.
    pub fn zip_with<U, V>(
        &self,
        other: &PerDimension<U>,
        mut f: impl FnMut(&T, &U) -> V,
    ) -> PerDimension<V> {
        PerDimension::from_fn(|d| f(&self[d], &other[d]))
    }
}

impl<T> Index<Dimension> for PerDimension<T> {
    type Output = T;
    fn index(&self, d: Dimension) -> &T {
        &self.0[d.slot()]
    }
}

impl<T> IndexMut<Dimension> for PerDimension<T> {
    fn index_mut(&mut self, d: Dimension) -> &mut T {
        &mut self.0[d.slot()]
    }
}

impl<T: Serialize> Serialize for PerDimension<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(7))?;
        for (d, v) in self.iter() {
            m.serialize_entry(d.name(), v)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_slots_agree() {
        for (i, d) in Dimension::ALL.into_iter().enumerate() {
            assert_eq!(d.slot(), i);
            assert_eq!(Dimension::NAMES[i], d.name());
            assert_eq!(d.name().parse::<Dimension>(), Ok(d));
        }
        let e = "tokens_per_hour"
            .parse::<Dimension>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("requests_per_day") && e.contains("tokens_per_hour"),
            "{e}"
        );
    }

    #[test]
    fn indexed_by_dimension() {
        let mut p = PerDimension::from_fn(|d| d.window_ms());
        assert_eq!(p[Dimension::TokensPerDay], 86_400_000);
        p[Dimension::Context] = 5;
        assert_eq!(p.iter().last(), Some((Dimension::Context, &5)));
        let j = serde_json::to_value(p.map(|v| v / 1000)).unwrap();
        assert_eq!(j["requests"], 60);
    }
}
