//! Tokenizer profiles: which vocabulary family a text will be counted by, and how model names map to them.

use crate::names::{self, Names, UnknownName};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A tokenizer family. Each has its own calibrated rates and bands (generated into `src/tables.rs` by the calibration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Profile {
    /// OpenAI `o200k_base`: GPT-4o, GPT-4.1, GPT-4.5, the o-series, GPT-5, gpt-oss. The default.
    #[serde(rename = "o200k")]
    #[default]
    O200k,
    /// OpenAI `cl100k_base`: GPT-4, GPT-3.5-turbo, text-embedding-3.
    #[serde(rename = "cl100k")]
    Cl100k,
    /// Meta Llama 3 (128k tiktoken-style BPE): Llama 3, 3.1, 3.2, 3.3.
    #[serde(rename = "llama3")]
    Llama3,
    /// Alibaba Qwen 3 (151k byte-level BPE; Qwen 2 and 2.5 share it).
    #[serde(rename = "qwen3")]
    Qwen3,
    /// DeepSeek V3 (128k byte-level BPE; DeepSeek-R1 shares it).
    #[serde(rename = "deepseek-v3")]
    DeepseekV3,
    /// Google Gemini (256k SentencePiece vocabulary as published for Gemini).
    #[serde(rename = "gemini")]
    Gemini,
    /// Google Gemma 3 (262k SentencePiece).
    #[serde(rename = "gemma3")]
    Gemma3,
    /// Mistral 7B v0.1 / Mixtral 8x7B (32k SentencePiece with byte fallback).
    #[serde(rename = "mistral-v1")]
    MistralV1,
    /// The legacy Claude tokenizer (pre-Claude-3). It is the only Claude tokenizer Anthropic has published;
    /// Claude 3 and later count differently, so for them this profile is a proxy, not the truth.
    #[serde(rename = "claude-legacy")]
    ClaudeLegacy,
}

impl Profile {
    /// How many profiles there are.
    pub const COUNT: usize = 9;

    /// Every profile's name, in the order they are listed everywhere.
    pub const NAMES: [&'static str; Profile::COUNT] = [
        "o200k",
        "cl100k",
        "llama3",
        "qwen3",
        "deepseek-v3",
        "gemini",
        "gemma3",
        "mistral-v1",
        "claude-legacy",
    ];

    /// Every profile, in the order they are listed everywhere.
    pub const ALL: [Profile; Profile::COUNT] = [
        Profile::O200k,
        Profile::Cl100k,
        Profile::Llama3,
        Profile::Qwen3,
        Profile::DeepseekV3,
        Profile::Gemini,
        Profile::Gemma3,
        Profile::MistralV1,
        Profile::ClaudeLegacy,
    ];

    /// The profile's name as the CLI and the JSON output spell it (`o200k`, `cl100k`, `llama3`, ...).
    pub const fn name(self) -> &'static str {
        Profile::NAMES[self as usize]
    }

    /// The most tokens a text of `bytes` UTF-8 bytes holding `chars` characters can become, the cap of every
    /// estimate's high end: its bytes (+1, for a SentencePiece word-start marker) for every profile but
    /// claude-legacy, whose tokenizer normalizes the text to NFKC first, which can lengthen what is not ASCII (Lao
    /// `ຳ` becomes two characters; `ﷺ`, 3 bytes, becomes 33). There each byte past a character's first may add 15
    /// bytes, NFKC's longest lengthening (`ﷺ`: 3 + 2 × 15 = 33); ASCII stays as it is.
    pub const fn max_tokens(self, bytes: u64, chars: u64) -> u64 {
        let lengthening = match self {
            Profile::ClaudeLegacy => 15,
            _ => 0,
        };
        // Bounded first so that no count overflows (no text comes near 2^59 bytes).
        let bytes = if bytes < 1 << 59 { bytes } else { 1 << 59 };
        bytes + bytes.saturating_sub(chars) * lengthening + 1
    }

    /// A one-line description: which models count with it.
    pub const fn description(self) -> &'static str {
        match self {
            Profile::O200k => "OpenAI o200k_base: GPT-4o, GPT-4.1, GPT-4.5, o1/o3/o4, GPT-5, gpt-oss",
            Profile::Cl100k => "OpenAI cl100k_base: GPT-4, GPT-3.5-turbo, text-embedding-3",
            Profile::Llama3 => "Meta Llama 3.x (128k BPE)",
            Profile::Qwen3 => "Alibaba Qwen 2/2.5/3 (151k BPE)",
            Profile::DeepseekV3 => "DeepSeek V3 and R1 (128k BPE)",
            Profile::Gemini => "Google Gemini (256k SentencePiece)",
            Profile::Gemma3 => "Google Gemma 3 (262k SentencePiece)",
            Profile::MistralV1 => "Mistral 7B v0.1, Mixtral 8x7B (32k SentencePiece)",
            Profile::ClaudeLegacy => {
                "legacy Claude tokenizer (pre-Claude-3; the only public Claude tokenizer, a proxy for later Claude models)"
            }
        }
    }

    /// Looks a profile up by its exact name (case-insensitive; `_` and `-` are interchangeable).
    pub fn from_name(name: &str) -> Result<Profile, UnknownName> {
        names::find(PROFILE_NAMES, name).ok_or_else(|| PROFILES.unknown(name))
    }

    /// Maps a model name as gateways spell it (`gpt-4o-mini`, `openai/gpt-4.1`, `meta-llama/Llama-3.1-8B-Instruct`,
    /// `claude-sonnet-4`, `gemini-2.5-pro`, Bedrock's `us.anthropic.claude-...`) to the profile that counts its
    /// tokens.
    ///
    /// Claude models map to [`Profile::ClaudeLegacy`], the only public Claude tokenizer: for Claude 3 and later
    /// it is a proxy. An unknown model is an error that lists the profiles.
    pub fn for_model(model: &str) -> Result<Profile, UnknownName> {
        let lower = model.trim().to_ascii_lowercase();
        // Drop a routing prefix such as `openai/`, `models/`, `accounts/x/models/`, and a `:tag` suffix.
        let base = lower.rsplit('/').next().unwrap_or(&lower);
        let mut base = base.split(':').next().unwrap_or(base);
        // And Bedrock's region and vendor prefixes (`us.anthropic.claude-...`, `meta.llama3-...`): words without
        // digits before a dot, where a model's own dots follow digits (`gpt-4.1`).
        while let Some((head, rest)) = base.split_once('.') {
            if head.bytes().any(|b| b.is_ascii_digit()) {
                break;
            }
            base = rest;
        }
        // The first prefix that matches decides, in this order (`gpt-4o` before `gpt-4`).
        MODEL_PREFIXES
            .iter()
            .find(|(prefix, _)| base.starts_with(prefix))
            .map(|&(_, p)| p)
            .ok_or_else(|| MODELS.unknown(model))
    }
}

/// An unknown profile or model name: the message lists the profiles.
const NOTE: &str = " (claude-legacy is the pre-Claude-3 tokenizer, the only public Claude one)";
static PROFILES: Names = Names {
    what: "profile",
    list: "profiles",
    valid: &Profile::NAMES,
    note: NOTE,
};
static MODELS: Names = Names {
    what: "model",
    list: "profiles",
    valid: &Profile::NAMES,
    note: NOTE,
};

/// Every profile's name, then the encodings' full names as aliases.
const PROFILE_NAMES: &[(&str, Profile)] = &[
    ("o200k", Profile::O200k),
    ("cl100k", Profile::Cl100k),
    ("llama3", Profile::Llama3),
    ("qwen3", Profile::Qwen3),
    ("deepseek-v3", Profile::DeepseekV3),
    ("gemini", Profile::Gemini),
    ("gemma3", Profile::Gemma3),
    ("mistral-v1", Profile::MistralV1),
    ("claude-legacy", Profile::ClaudeLegacy),
    ("o200k-base", Profile::O200k),
    ("cl100k-base", Profile::Cl100k),
];

/// Model-name prefixes and their profiles, most specific first. One table walked by one loop rather than a chain
/// of tests: compiled for speed, the chain unrolls into kilobytes of comparisons that the wasm size budget has no
/// room for.
const MODEL_PREFIXES: &[(&str, Profile)] = &[
    ("gpt-4o", Profile::O200k),
    ("chatgpt-4o", Profile::O200k),
    ("gpt-4.1", Profile::O200k),
    ("gpt-4.5", Profile::O200k),
    ("gpt-5", Profile::O200k),
    ("gpt-oss", Profile::O200k),
    ("o1", Profile::O200k),
    ("o3", Profile::O200k),
    ("o4", Profile::O200k),
    ("codex", Profile::O200k),
    ("computer-use", Profile::O200k),
    ("gpt-4", Profile::Cl100k),
    ("gpt-3.5", Profile::Cl100k),
    ("gpt-35", Profile::Cl100k),
    ("text-embedding-3", Profile::Cl100k),
    ("text-embedding-ada-002", Profile::Cl100k),
    ("llama-3", Profile::Llama3),
    ("llama3", Profile::Llama3),
    ("meta-llama-3", Profile::Llama3),
    ("qwen3", Profile::Qwen3),
    ("qwen-3", Profile::Qwen3),
    ("qwen2", Profile::Qwen3),
    ("qwen-2", Profile::Qwen3),
    ("qwq", Profile::Qwen3),
    ("qwen-max", Profile::Qwen3),
    ("qwen-plus", Profile::Qwen3),
    ("qwen-turbo", Profile::Qwen3),
    ("deepseek-v3", Profile::DeepseekV3),
    ("deepseek-chat", Profile::DeepseekV3),
    ("deepseek-reasoner", Profile::DeepseekV3),
    ("deepseek-r1", Profile::DeepseekV3),
    ("gemini", Profile::Gemini),
    ("gemma-3", Profile::Gemma3),
    ("gemma3", Profile::Gemma3),
    ("mistral-7b", Profile::MistralV1),
    ("open-mistral-7b", Profile::MistralV1),
    ("mixtral-8x7b", Profile::MistralV1),
    ("open-mixtral-8x7b", Profile::MistralV1),
    ("claude", Profile::ClaudeLegacy),
];

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Profile {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::from_name(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (i, p) in Profile::ALL.into_iter().enumerate() {
            assert_eq!(Profile::NAMES[i], p.name());
            assert_eq!(Profile::from_name(p.name()), Ok(p));
        }
        assert_eq!(Profile::from_name("O200K_BASE"), Ok(Profile::O200k));
    }

    #[test]
    fn models_map() {
        let cases = [
            ("gpt-4o-mini", Profile::O200k),
            ("openai/gpt-4.1", Profile::O200k),
            ("o3-mini", Profile::O200k),
            ("gpt-5", Profile::O200k),
            ("gpt-4-turbo", Profile::Cl100k),
            ("gpt-3.5-turbo", Profile::Cl100k),
            ("meta-llama/Llama-3.1-8B-Instruct", Profile::Llama3),
            ("Qwen/Qwen3-32B", Profile::Qwen3),
            ("deepseek-chat", Profile::DeepseekV3),
            ("models/gemini-2.5-pro", Profile::Gemini),
            ("google/gemma-3-27b-it", Profile::Gemma3),
            ("mistralai/Mistral-7B-Instruct-v0.1", Profile::MistralV1),
            ("claude-sonnet-4-5", Profile::ClaudeLegacy),
        ];
        for (m, p) in cases {
            assert_eq!(Profile::for_model(m), Ok(p), "{m}");
        }
    }

    #[test]
    fn unknown_model_lists_profiles() {
        let e = Profile::for_model("bert-base").unwrap_err().to_string();
        for p in Profile::ALL {
            assert!(e.contains(p.name()), "{e}");
        }
        assert!(e.contains("pre-Claude-3"));
    }
}
