//! Exact token counts for the OpenAI encodings (`o200k_base`, `cl100k_base`) through tiktoken-rs.
//!
//! Behind the `exact` cargo feature (on by default for native builds): each vocabulary costs megabytes and takes a
//! moment to load, so a counter is built once and reused. Other profiles have no exact counter here.

use crate::profile::Profile;
use std::fmt;

/// Why an exact count could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExactError {
    /// Only `o200k` and `cl100k` have an exact counter.
    Unsupported(Profile),
    /// The vocabulary failed to load.
    Load(String),
}

impl fmt::Display for ExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactError::Unsupported(p) => write!(
                f,
                "no exact counter for profile {p}: exact counts exist for o200k and cl100k only (use estimate for the others)"
            ),
            ExactError::Load(e) => write!(f, "could not load the tokenizer vocabulary: {e}"),
        }
    }
}

impl std::error::Error for ExactError {}

/// An exact counter for one OpenAI encoding. Build once, count many texts.
pub struct ExactCounter {
    profile: Profile,
    bpe: tiktoken_rs::CoreBPE,
}

impl fmt::Debug for ExactCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExactCounter")
            .field("profile", &self.profile)
            .finish()
    }
}

impl ExactCounter {
    /// Loads the vocabulary for `profile` (`o200k` or `cl100k`).
    pub fn new(profile: Profile) -> Result<Self, ExactError> {
        let bpe = match profile {
            Profile::O200k => tiktoken_rs::o200k_base(),
            Profile::Cl100k => tiktoken_rs::cl100k_base(),
            other => return Err(ExactError::Unsupported(other)),
        }
        .map_err(|e| ExactError::Load(e.to_string()))?;
        Ok(ExactCounter { profile, bpe })
    }

    /// The profile this counter counts for.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The exact number of tokens `text` encodes to, as ordinary text (special-token strings are not special).
    pub fn count(&self, text: &str) -> u64 {
        self.bpe.encode_ordinary(text).len() as u64
    }
}
