//! Keeps the crate's layout honest: each stage is a folder (or a file) of `src/`, and
//! its code names only the stages below it (see the crate docs' map of modules; the
//! JSON contract knows nothing of the parsers), and no source file grows past 1,300
//! lines before its tests.
//!
//! The test reads the source files themselves: it strips comments and string literals,
//! then follows every `crate::` path (and every `super::` path that climbs out to the
//! crate root) to the module or item it names. Code inside the test modules
//! (`#[cfg(test)] mod …`, and `tests.rs` files) may use anything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The stages, bottom first, each with the stages its code may name: its own and those
/// below it, except that the output (the JSON contract) knows nothing of the parsers
/// (the api joins them).
const STAGES: &[(&str, &[&str])] = &[
    ("base", &["base"]),
    ("model", &["base", "model"]),
    ("decode", &["base", "model", "decode"]),
    ("html", &["base", "model", "decode", "html"]),
    ("parse", &["base", "model", "decode", "html", "parse"]),
    ("output", &["base", "model", "decode", "output"]),
    (
        "api",
        &["base", "model", "decode", "html", "parse", "output", "api"],
    ),
    (
        "services",
        &[
            "base", "model", "decode", "html", "parse", "output", "api", "services",
        ],
    ),
];

/// Where each module of the crate root sits (a folder `name/` or a file `name.rs`).
const MODULES: &[(&str, &str)] = &[
    ("bozo", "base"),
    ("bytes", "base"),
    ("charset", "base"),
    ("date", "base"),
    ("entities", "base"),
    ("pairs", "base"),
    ("transport", "base"),
    ("url", "base"),
    ("model", "model"),
    ("decode", "decode"),
    ("html", "html"),
    ("parse", "parse"),
    ("output", "output"),
    ("cookbook", "api"),
    ("stream", "services"),
    ("http", "services"),
];

/// The stage of the items `lib.rs` defines or re-exports, as `crate::Name` reaches them.
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("Bozo", "base"),
    ("BozoKind", "base"),
    ("Position", "base"),
    ("Charset", "base"),
    ("Headers", "base"),
    ("Transport", "base"),
    ("Enclosure", "model"),
    ("Entry", "model"),
    ("Feed", "model"),
    ("Itunes", "model"),
    ("Link", "model"),
    ("Media", "model"),
    ("ParsedFeed", "model"),
    ("Person", "model"),
    ("Tag", "model"),
    ("Text", "model"),
    ("Attempt", "decode"),
    ("Decoded", "decode"),
    ("Decoder", "decode"),
    ("Policy", "decode"),
    ("Rfc3023Outcome", "decode"),
    ("Source", "decode"),
    ("Trail", "decode"),
    ("ParseOptions", "parse"),
    // The result is defined with the functions that make it, but it is plain data (the
    // model, the decoding and the transport): the contract writes it.
    ("Parsed", "output"),
    ("FeedReader", "services"),
    ("StreamEnd", "services"),
    ("StreamItem", "services"),
    ("FetchError", "services"),
    ("FetchOptions", "services"),
    ("Fetched", "services"),
    ("Fetcher", "services"),
    ("HttpInfo", "services"),
    ("fetch", "services"),
    ("fetch_blocking", "services"),
];

/// Files allowed past [`MAX_LINES`] for now, each with the most lines it may have.
const LONG_FILES: &[(&str, usize)] = &[];

/// The most lines a source file may have before its tests (generated files apart).
const MAX_LINES: usize = 1300;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The path of a file under `src/`, with `/` separators.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(src()).expect("under src");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The module path of a file (`parse/xml/mod.rs` → `[parse, xml]`); `None` for the
/// binaries, which are crates of their own (`main.rs` with the files of `cli/` it
/// includes, and `bin/`).
fn module_of(rel: &str) -> Option<Vec<String>> {
    if rel == "main.rs" || rel.starts_with("bin/") || rel.starts_with("cli/") {
        return None;
    }
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    Some(parts)
}

/// Whether code of stage `from` may name stage `to`.
fn may_name(from: &str, to: &str) -> bool {
    STAGES
        .iter()
        .find(|(s, _)| *s == from)
        .unwrap_or_else(|| panic!("unknown stage {from}"))
        .1
        .contains(&to)
}

/// The stage of a file: that of its top module; `lib.rs` is the api.
fn stage_of_file(module: &[String]) -> &'static str {
    match module.first() {
        None => "api",
        Some(top) => MODULES
            .iter()
            .find(|(m, _)| m == top)
            .map(|(_, s)| *s)
            .unwrap_or_else(|| panic!("src/{top}: add the module to MODULES with its stage")),
    }
}

/// The part of a file before its test module (`#[cfg(test)]` then `mod …`), as lines.
fn code_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start() != "#[cfg(test)]" || line.starts_with(' ') {
            continue;
        }
        let next = lines[i + 1..]
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.starts_with("#["))
            .unwrap_or("");
        let is_mod = ["mod ", "pub mod ", "pub(crate) mod "]
            .iter()
            .any(|p| next.starts_with(p));
        if is_mod && (next.ends_with('{') || next.ends_with(';')) {
            return lines[..i].to_vec();
        }
    }
    lines
}

/// `code` with comments, string literals and character literals blanked out (each byte
/// of them a space, line breaks kept), so that only code is searched.
fn strip(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |k| i + k);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if b[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                // A raw string: r"…", r#"…"#, …
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let from = i + 2 + hashes;
                let end = b[from..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map_or(b.len(), |k| from + k + close.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i, j + 1);
                i = j + 1;
            }
            b'\'' => {
                // A character literal ('x', '\n', '\u{..}'); a lifetime has no closing
                // quote right after its first character.
                let end = if b.get(i + 1) == Some(&b'\\') {
                    b[i + 2..]
                        .iter()
                        .position(|&c| c == b'\'')
                        .map(|k| i + 2 + k)
                } else {
                    let len = code[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
                };
                match end {
                    Some(e) => {
                        blank(&mut out, i, e + 1);
                        i = e + 1;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("blanking keeps UTF-8")
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The first segments of the paths `code` names from the crate root: after `crate::`
/// (or `$crate::`), after as many `super::` as climb out of `module`, and each path of a
/// `crate::{…}` group. Each with whether it is called (`crate::parse(…)`) rather than
/// followed by `::` or used as a name.
fn root_names(code: &str, module: &[String]) -> Vec<(String, bool)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        // The start of a word (`$crate` is the word `crate`).
        if !is_ident(b[i]) || (i > 0 && is_ident(b[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        let word = &code[start..i];
        let at_root = match word {
            "crate" => Some(i),
            "super" => {
                // Count the `super::` chain and see whether it reaches the root.
                let mut depth = 1;
                let mut j = i;
                loop {
                    let rest = code[j..].trim_start();
                    let Some(after) = rest.strip_prefix("::") else {
                        break;
                    };
                    let after_trim = after.trim_start();
                    if let Some(more) = after_trim.strip_prefix("super")
                        && !more.as_bytes().first().is_some_and(|&c| is_ident(c))
                    {
                        depth += 1;
                        j = code.len() - more.len();
                        continue;
                    }
                    break;
                }
                i = j;
                (depth >= module.len()).then_some(j)
            }
            _ => None,
        };
        let Some(from) = at_root else { continue };
        let rest = code[from..].trim_start();
        let Some(after) = rest.strip_prefix("::") else {
            continue;
        };
        let after = after.trim_start();
        if let Some(group) = after.strip_prefix('{') {
            // `crate::{a, b::c, d::{e, f}}`: the first segment of each top-level path.
            let mut depth = 0;
            let mut segment_start = true;
            let g = group.as_bytes();
            let mut k = 0;
            while k < g.len() {
                match g[k] {
                    b'{' => depth += 1,
                    b'}' if depth == 0 => break,
                    b'}' => depth -= 1,
                    b',' if depth == 0 => segment_start = true,
                    c if is_ident(c) && segment_start && depth == 0 => {
                        let s = k;
                        while k < g.len() && is_ident(g[k]) {
                            k += 1;
                        }
                        out.push((group[s..k].to_owned(), false));
                        segment_start = false;
                        continue;
                    }
                    _ => {}
                }
                k += 1;
            }
        } else {
            let name_len = after.bytes().take_while(|&c| is_ident(c)).count();
            if name_len > 0 {
                let called = after[name_len..].trim_start().starts_with('(');
                out.push((after[..name_len].to_owned(), called));
            }
        }
    }
    out
}

/// The stage of a root name: a module, an item `lib.rs` re-exports, or else one of
/// `lib.rs`'s own functions (the api).
fn stage_of_name(name: &str, called: bool) -> &'static str {
    if !called && let Some((_, s)) = MODULES.iter().find(|(m, _)| *m == name) {
        return s;
    }
    ROOT_ITEMS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("api", |(_, s)| *s)
}

#[test]
fn each_stage_names_only_the_stages_it_may() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut problems: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut checked = 0;
    for path in &files {
        let rel = relative(path);
        let Some(module) = module_of(&rel) else {
            continue;
        };
        if rel.ends_with("/tests.rs") {
            continue;
        }
        let stage = stage_of_file(&module);
        let text = std::fs::read_to_string(path).expect("read");
        let code = strip(&code_lines(&text).join("\n"));
        for (name, called) in root_names(&code, &module) {
            if matches!(name.as_str(), "self" | "super" | "crate") {
                continue;
            }
            let named = stage_of_name(&name, called);
            if !may_name(stage, named) {
                problems
                    .entry(rel.clone())
                    .or_default()
                    .push(format!("crate::{name} ({named}) from {stage}"));
            }
            checked += 1;
        }
    }
    assert!(
        checked > 200,
        "only {checked} paths found: is the search broken?"
    );
    assert!(
        problems.is_empty(),
        "paths that name a stage their own may not name:\n{problems:#?}"
    );
}

#[test]
fn no_source_file_is_over_1300_lines_before_its_tests() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut long = Vec::new();
    for path in &files {
        let rel = relative(path);
        let text = std::fs::read_to_string(path).expect("read");
        if text
            .lines()
            .next()
            .is_some_and(|l| l.contains("@generated"))
        {
            continue;
        }
        let n = code_lines(&text).len();
        let max = LONG_FILES
            .iter()
            .find(|(f, _)| *f == rel)
            .map_or(MAX_LINES, |(_, n)| *n);
        if n > max {
            long.push(format!(
                "src/{rel}: {n} lines before its tests (at most {max})"
            ));
        }
    }
    assert!(long.is_empty(), "{long:#?}");
}

#[test]
fn the_path_reader_finds_what_it_should() {
    let module = vec!["model".to_owned(), "podcast".to_owned()];
    let code = strip(
        "use crate::{bozo::Bozo, parse::{a, b}};\n\
         // crate::output in a comment\n\
         let s = \"crate::http in a string\";\n\
         let c = '\"'; let t: &'static str = r#\"crate::stream\"#;\n\
         fn f<'a>(x: &'a str) { super::super::decode::sniff(x); crate::parse(x); }\n\
         super::Feed;",
    );
    let names = root_names(&code, &module);
    assert_eq!(
        names,
        [
            ("bozo".to_owned(), false),
            ("parse".to_owned(), false),
            ("decode".to_owned(), false),
            ("parse".to_owned(), true),
        ]
    );
    assert_eq!(stage_of_name("parse", true), "api");
    assert_eq!(stage_of_name("parse", false), "parse");
    assert_eq!(stage_of_name("Parsed", false), "output");
    let text = "a\n#[cfg(test)]\nfn helper() {}\n#[cfg(test)]\n#[allow(x)]\nmod tests {\n}\n";
    assert_eq!(code_lines(text).len(), 3);
    assert!(may_name("api", "output") && !may_name("output", "parse"));
    assert!(may_name("parse", "html") && !may_name("html", "parse"));
}
