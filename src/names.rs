//! Names as people and configuration files write them: every name the CLI, the npm package and the page accept
//! (profiles, models, providers, APIs, policies, dimensions) parses through `FromStr` into one error,
//! [`UnknownName`], that lists the valid names. The bindings keep no lists of their own.

use std::fmt;

/// A name that is not one of the valid ones. Its message lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    name: String,
    of: &'static Names,
}

/// One kind of name: what it is called, and the valid ones. A static per kind, so an error is a name and a pointer
/// (the npm estimate module's size).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Names {
    /// What kind of name was asked for: `"profile"`, `"model"`, `"provider"`, ...
    pub(crate) what: &'static str,
    /// What the list is of (`"policies"` for a policy, `"profiles"` for a model).
    pub(crate) list: &'static str,
    /// The valid names, in the order they are listed everywhere.
    pub(crate) valid: &'static [&'static str],
    /// Anything a reader needs to pick from the list (said after it).
    pub(crate) note: &'static str,
}

impl Names {
    /// The value among `all` (listed in the order of `self.valid`, one name each) whose name `given` is, as
    /// [`same_name`] compares them; else the error that lists the names.
    pub(crate) fn parse<T: Copy>(&'static self, all: &[T], given: &str) -> Result<T, UnknownName> {
        self.valid
            .iter()
            .zip(all)
            .find(|(name, _)| same_name(name, given))
            .map(|(_, &v)| v)
            .ok_or_else(|| self.unknown(given))
    }

    /// The error for `name`.
    #[cold]
    #[inline(never)]
    pub(crate) fn unknown(&'static self, name: &str) -> UnknownName {
        UnknownName {
            name: name.to_string(),
            of: self,
        }
    }
}

impl UnknownName {
    /// What kind of name was asked for: `"profile"`, `"model"`, `"provider"`, `"api"`, `"policy"`, `"dimension"`.
    pub fn what(&self) -> &'static str {
        self.of.what
    }

    /// The name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The valid names, in the order they are listed everywhere.
    pub fn valid(&self) -> &'static [&'static str] {
        self.of.valid
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Pieces written one by one, quoted by hand: `{:?}` would link Unicode escaping tables into the npm
        // estimate module, and format arguments cost more code than these calls.
        for piece in [
            "unknown ",
            self.of.what,
            " \"",
            &self.name,
            "\"; the ",
            self.of.list,
            " are: ",
        ] {
            f.write_str(piece)?;
        }
        for (i, n) in self.of.valid.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n)?;
        }
        f.write_str(self.of.note)
    }
}

impl std::error::Error for UnknownName {}

/// Whether `given` is `known` (written in lowercase), case-insensitively, with `_` and `-` interchangeable and
/// spaces around ignored; without allocating.
pub(crate) fn same_name(known: &str, given: &str) -> bool {
    let given = given.trim();
    let sep = |b: u8| b == b'-' || b == b'_';
    known.len() == given.len()
        && known
            .bytes()
            .zip(given.bytes())
            .all(|(k, g)| k == g.to_ascii_lowercase() || (sep(k) && sep(g)))
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
        static POLICIES: Names = Names {
            what: "policy",
            list: "policies",
            valid: &["median", "conservative"],
            note: "",
        };
        let e = POLICIES.unknown("p99");
        assert_eq!(
            e.to_string(),
            "unknown policy \"p99\"; the policies are: median, conservative"
        );
        assert_eq!((e.what(), e.name(), e.valid().len()), ("policy", "p99", 2));
        static MODELS: Names = Names {
            what: "model",
            list: "profiles",
            valid: &["o200k"],
            note: " (a note)",
        };
        assert_eq!(
            MODELS.unknown("x").to_string(),
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
