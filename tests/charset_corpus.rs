//! feedparser's `tests/encoding/x80_*.xml` corpus, read in place: every label after
//! `x80_` must resolve, and the file must decode strictly to the title character its
//! `Expect:` line names. Skipped (with a message) when `../shared` is absent.

use std::path::{Path, PathBuf};

use feed_decoder::Charset;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/feedparser/v6.0.14/tests/encoding")
}

/// Reads the quoted Python string literal after the last `==` of an `Expect:` line
/// (`'\xc7'`, `'\u0452'`, or literal characters).
fn expected_title(expect_line: &str) -> Option<String> {
    let rhs = expect_line.rsplit("==").next()?.trim();
    let quote = rhs.chars().next().filter(|&q| q == '\'' || q == '"')?;
    let inner = rhs.strip_prefix(quote)?.strip_suffix(quote)?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let digits = match chars.next()? {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            '\\' => {
                out.push('\\');
                continue;
            }
            '\'' => {
                out.push('\'');
                continue;
            }
            other => {
                out.push('\\');
                out.push(other);
                continue;
            }
        };
        let hex: String = chars.by_ref().take(digits).collect();
        out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
    }
    Some(out)
}

fn title(text: &str) -> Option<&str> {
    let start = text.find("<title>")? + "<title>".len();
    let end = start + text[start..].find("</title>")?;
    Some(&text[start..end])
}

#[test]
fn expected_title_parser() {
    assert_eq!(
        expected_title("Expect:      not bozo and feed['title'] == '\\xc7'").as_deref(),
        Some("Ç")
    );
    assert_eq!(
        expected_title("Expect: not bozo and feed.title == '\\u0452'").as_deref(),
        Some("ђ")
    );
    assert_eq!(
        expected_title("Expect: feed.title == \"ab\"").as_deref(),
        Some("ab")
    );
    assert_eq!(expected_title("Expect: bozo"), None);
}

#[test]
fn feedparser_x80_corpus() {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED: feedparser corpus not found at {}", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("x80_") && n.ends_with(".xml"))
        })
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let label = &name["x80_".len()..name.len() - ".xml".len()];
        let result = (|| -> Result<(), String> {
            let charset = Charset::for_label(label).ok_or("label does not resolve")?;
            let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
            let text = charset
                .decode_strict(&bytes)
                .map_err(|e| format!("{charset}: {e}"))?;
            let expect = text
                .lines()
                .find(|l| l.trim_start().starts_with("Expect:"))
                .ok_or("no Expect line")?;
            let want = expected_title(expect).ok_or_else(|| format!("unparsed: {expect}"))?;
            let got = title(&text).ok_or("no <title>")?;
            if got == want {
                Ok(())
            } else {
                Err(format!("{charset}: title {got:?}, expected {want:?}"))
            }
        })();
        if let Err(why) = result {
            failures.push(format!("{label}: {why}"));
        }
    }
    eprintln!(
        "feedparser x80 corpus: {}/{} labels pass",
        files.len() - failures.len(),
        files.len()
    );
    assert!(files.len() >= 100, "only {} x80 files found", files.len());
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}
