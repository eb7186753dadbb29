//! Parses one feed file and prints feedparser-shaped JSON (for conformance measurement).
//!
//! Usage: `parse_json [--json] [--header 'Name: value']... PATH`

use feed_decoder::parse::{ParseOptions, parse_str, parse_str_lenient};
use serde_json::{Value, json};

fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).to_string();
    let decl_end = head.find("?>")?;
    let decl = &head[..decl_end];
    let i = decl.find("encoding")?;
    let rest = decl[i + 8..].trim_start().strip_prefix('=')?.trim_start();
    let q = rest.chars().next()?;
    let rest = &rest[1..];
    Some(rest[..rest.find(q)?].to_owned())
}

fn main() {
    let path = std::env::args().next_back().expect("a path");
    let bytes = std::fs::read(&path).expect("readable file");
    let (text, encoding) = if let Some(rest) = bytes.strip_prefix(b"\xef\xbb\xbf") {
        (
            String::from_utf8_lossy(rest).into_owned(),
            "utf-8".to_owned(),
        )
    } else if std::str::from_utf8(&bytes).is_ok() {
        (
            String::from_utf8_lossy(&bytes).into_owned(),
            "utf-8".to_owned(),
        )
    } else {
        let label = declared_encoding(&bytes).unwrap_or_else(|| "windows-1252".into());
        let enc =
            encoding_rs::Encoding::for_label(label.as_bytes()).unwrap_or(encoding_rs::WINDOWS_1252);
        (enc.decode(&bytes).0.into_owned(), enc.name().to_lowercase())
    };
    let args: Vec<String> = std::env::args().collect();
    let mut language = None;
    let mut location = None;
    for pair in args.windows(2) {
        if pair[0] == "--header"
            && let Some((name, value)) = pair[1].split_once(':')
        {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-language" => language = Some(value.trim().to_owned()),
                "content-location" => location = Some(value.trim().to_owned()),
                _ => {}
            }
        }
    }
    let options = ParseOptions::default()
        .base_language(language)
        .base_uri(location);
    let parsed = if args.iter().any(|a| a == "--lenient") {
        parse_str_lenient(&text, &options)
    } else {
        parse_str(&text, &options)
    };
    let exc = |b: &feed_decoder::Bozo| {
        let p = b.position.unwrap_or_default();
        json!({"type": b.kind.feedparser_name(), "message": b.message, "line": p.line, "column": p.column})
    };
    let excs: Vec<Value> = parsed.bozo.iter().map(exc).collect();
    let out = json!({
        "bozo": !parsed.bozo.is_empty(),
        "bozo_exception": excs.first().cloned().unwrap_or(Value::Null),
        "bozo_exceptions": excs,
        "encoding": encoding,
        "version": parsed.version,
        "namespaces": parsed.namespaces,
        "feed": parsed.feed,
        "entries": parsed.entries,
    });
    println!("{out}");
}
