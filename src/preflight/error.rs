//! What can be wrong with the input to a check, and the rules every number from JSON or JavaScript must meet.

use crate::dimension::Dimension;
use serde::Serialize;
use std::fmt;
use std::num::NonZeroU64;

/// Everything that can be wrong with the input to a preflight check. Never a panic.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum PreflightError {
    /// A limit that is negative, not a number, infinite or fractional.
    InvalidLimit {
        /// Which limit.
        dimension: Dimension,
        /// The value as given.
        value: String,
    },
    /// A limit of zero: nothing could ever be sent (say "no limit" by leaving it out).
    ZeroLimit {
        /// Which limit.
        dimension: Dimension,
    },
    /// A remaining count or token count that is not a non-negative integer.
    InvalidCount {
        /// What the number was for.
        what: String,
        /// The value as given.
        value: String,
    },
    /// The request body is not JSON.
    NotJson(String),
    /// The request body is JSON of the wrong shape.
    WrongShape {
        /// Where in the body (a JSON pointer such as `/messages/2/content`).
        path: String,
        /// What was expected there.
        expected: String,
    },
}

impl fmt::Display for PreflightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PreflightError::InvalidLimit { dimension, value } => write!(
                f,
                "invalid {dimension} limit {value:?}: a limit must be a whole number of at least 1 (leave it out for no limit)"
            ),
            PreflightError::ZeroLimit { dimension } => write!(
                f,
                "a {dimension} limit of 0 admits nothing: leave the limit out if there is none"
            ),
            PreflightError::InvalidCount { what, value } => {
                write!(f, "invalid {what} {value:?}: expected a whole number of at least 0")
            }
            PreflightError::NotJson(e) => write!(f, "the request body is not JSON: {e}"),
            PreflightError::WrongShape { path, expected } => {
                write!(f, "the request body has the wrong shape at {path}: expected {expected}")
            }
        }
    }
}

impl std::error::Error for PreflightError {}

/// Whether a float is a whole number from 0 to 9·10^15 (exact in an f64): the rule every count and limit from
/// JSON or JavaScript must meet. Bindings check it before formatting a rejected value their own way.
pub fn is_whole_count(value: f64) -> bool {
    value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= 9.0e15
}

/// Validates a limit given as a float (from JSON, JavaScript or a config file): a whole number ≥ 1.
pub fn limit_from_f64(dimension: Dimension, value: f64) -> Result<NonZeroU64, PreflightError> {
    if !is_whole_count(value) {
        return Err(PreflightError::InvalidLimit {
            dimension,
            value: value.to_string(),
        });
    }
    NonZeroU64::new(value as u64).ok_or(PreflightError::ZeroLimit { dimension })
}

/// Validates a count given as a float (remaining tokens, reported usage): a whole number ≥ 0.
pub fn count_from_f64(what: &str, value: f64) -> Result<u64, PreflightError> {
    if !is_whole_count(value) {
        return Err(PreflightError::InvalidCount {
            what: what.to_string(),
            value: value.to_string(),
        });
    }
    Ok(value as u64)
}
