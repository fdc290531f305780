//! Names as people and configuration files write them: every name the CLI, the npm package and the page accept
//! (profiles, models, providers, APIs, policies, dimensions) parses through `FromStr` into one error,
//! [`UnknownName`], that lists the valid names. The bindings keep no lists of their own.

use std::fmt;

/// A name that is not one of the valid ones. Its message lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// What kind of name was asked for: `"profile"`, `"model"`, `"provider"`, `"api"`, `"policy"`, `"dimension"`.
    pub what: &'static str,
    /// The name as given.
    pub name: String,
    /// The valid names, in the order they are listed everywhere.
    pub valid: &'static [&'static str],
    /// What the list is of (`"profiles"` for a model too).
    list: &'static str,
    /// Anything a reader needs to pick from the list.
    note: &'static str,
}

impl UnknownName {
    /// `what` was asked for by `name`; the valid names are a list of `list` (`"policies"` for a policy,
    /// `"profiles"` for a model).
    pub(crate) fn new(
        what: &'static str,
        list: &'static str,
        name: &str,
        valid: &'static [&'static str],
    ) -> UnknownName {
        UnknownName {
            what,
            name: name.to_string(),
            valid,
            list,
            note: "",
        }
    }

    /// A note after the list.
    pub(crate) fn note(mut self, note: &'static str) -> UnknownName {
        self.note = note;
        self
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}; the {} are: ",
            self.what, self.name, self.list
        )?;
        for (i, n) in self.valid.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n)?;
        }
        f.write_str(self.note)
    }
}

impl std::error::Error for UnknownName {}

/// Whether `given` is `known`, case-insensitively, with `_` and `-` interchangeable and spaces around ignored;
/// without allocating.
pub(crate) fn same_name(known: &str, given: &str) -> bool {
    let given = given.trim();
    let norm = |b: u8| match b.to_ascii_lowercase() {
        b'_' => b'-',
        b => b,
    };
    known.len() == given.len()
        && known
            .bytes()
            .zip(given.bytes())
            .all(|(k, g)| norm(k) == norm(g))
}

/// The value whose name (or alias) `given` is, among `(name, value)` pairs.
pub(crate) fn find<T: Copy>(pairs: &[(&str, T)], given: &str) -> Option<T> {
    pairs
        .iter()
        .find(|(known, _)| same_name(known, given))
        .map(|&(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_list_the_valid_names() {
        let e = UnknownName::new("policy", "policies", "p99", &["median", "conservative"]);
        assert_eq!(
            e.to_string(),
            "unknown policy \"p99\"; the policies are: median, conservative"
        );
        let e = UnknownName::new("api", "apis", "soap", &["openai_chat", "anthropic"]);
        assert_eq!(
            e.to_string(),
            "unknown api \"soap\"; the apis are: openai_chat, anthropic"
        );
        let e = UnknownName::new("model", "profiles", "x", &["o200k"]).note(" (a note)");
        assert_eq!(
            e.to_string(),
            "unknown model \"x\"; the profiles are: o200k (a note)"
        );
    }

    #[test]
    fn names_match_loosely_but_whole() {
        assert!(same_name("open_ai", " OPEN-AI "));
        assert!(!same_name("open_ai", "open_aii"));
        assert_eq!(find(&[("a-b", 1), ("c", 2)], "A_B"), Some(1));
        assert_eq!(find(&[("a-b", 1)], "a"), None);
    }
}
