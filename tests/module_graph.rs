//! The core's modules import one another in one direction (issue 25): text → scan → content → profile tables →
//! estimate → preflight; response → headers → refusal → retry → explain. Read from the sources: every
//! `crate::a::b` path, every `super::x` path and every `child::x` path (a module using its own submodule) outside
//! tests is an edge from the module that writes it to the module it names. The graph must have no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the file it lives in: `src/preflight/state.rs` → `preflight::state`,
/// `src/refusal/mod.rs` → `refusal`, `src/lib.rs` → `` (the root).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The source without its `#[cfg(test)]` module (tests may reach anywhere) and without comments.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest known module that `path` (`a::b::Item`, relative to the root) names.
fn resolve(path: &str, modules: &BTreeSet<String>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// Every path after `crate::` or `super::` in the code, with `{...}` groups expanded one level. An indented
/// `super::` is inside a nested module (or a function) and names this file's own module: not an edge.
fn paths(code: &str, module: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (prefix, base) in [("crate::", String::new()), ("super::", parent(module))] {
        let mut from = 0;
        while let Some(i) = code[from..].find(prefix) {
            let start = from + i + prefix.len();
            from = start;
            if start > prefix.len() && bytes[start - prefix.len() - 1].is_ascii_alphanumeric() {
                continue;
            }
            let line_start = code[..start].rfind('\n').map_or(0, |n| n + 1);
            if prefix == "super::" && code[line_start..].starts_with(' ') {
                continue;
            }
            let end = code[start..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| start + e);
            let head = code[start..end].trim_end_matches(':');
            let join = |tail: &str| {
                let p = [base.as_str(), head, tail]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join("::");
                p.replace(":::", "::")
            };
            if code[end..].starts_with('{') {
                let close = code[end..].find('}').map_or(code.len(), |c| end + c);
                for item in code[end + 1..close].split(',') {
                    let item = item.split_whitespace().next().unwrap_or("");
                    if !item.is_empty() && item != "self" {
                        out.push(join(item));
                    } else if item == "self" {
                        out.push(join(""));
                    }
                }
            } else {
                out.push(join(""));
            }
        }
    }
    out
}

/// The module `super` names from `module`.
fn parent(module: &str) -> String {
    match module.rfind("::") {
        Some(i) => module[..i].to_string(),
        None => String::new(),
    }
}

#[test]
fn the_core_modules_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(&src, f))
        .filter(|m| !m.is_empty())
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_of(&src, f);
        if m.is_empty() {
            continue; // lib.rs declares and re-exports.
        }
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        for p in paths(&code, &m) {
            if let Some(target) = resolve(&p, &modules) {
                if target != m {
                    edges.entry(m.clone()).or_default().insert(target);
                }
            }
        }
        // Its own submodules, named without a prefix (`use stream::find_stream_error`, `kind::of_utf8(..)`).
        for child in modules
            .iter()
            .filter_map(|c| c.strip_prefix(&format!("{m}::")))
        {
            if child.contains("::") {
                continue;
            }
            let uses = code.match_indices(&format!("{child}::")).any(|(i, _)| {
                !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
            });
            if uses {
                edges
                    .entry(m.clone())
                    .or_default()
                    .insert(format!("{m}::{child}"));
            }
        }
    }
    // Some edges must be there, or the reading is broken.
    for (from, to) in [
        ("estimate", "scan"),
        ("estimate", "profile_file"),
        ("refusal", "headers"),
        ("retry", "refusal"),
        ("explain", "retry"),
        ("preflight::state", "headers"),
        ("preflight::verdict", "preflight::state"),
        ("scan", "scan::kind"),
        ("refusal", "refusal::stream"),
        ("traffic", "traffic::log"),
    ] {
        assert!(
            edges.get(from).is_some_and(|t| t.contains(to)),
            "{from} → {to} not found: {edges:#?}"
        );
    }
    // No cycle: depth-first search with colours.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) {
        match state.get(m) {
            Some(2) => return,
            Some(1) => {
                let i = stack.iter().position(|s| s == m).unwrap();
                panic!("import cycle: {} → {m}", stack[i..].join(" → "));
            }
            _ => {}
        }
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for t in edges.get(m).into_iter().flatten() {
            visit(t, edges, state, stack);
        }
        stack.pop();
        state.insert(m.to_string(), 2);
    }
    let mut state = BTreeMap::new();
    for m in &modules {
        visit(m, &edges, &mut state, &mut Vec::new());
    }
}
