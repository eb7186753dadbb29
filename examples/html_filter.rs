//! Runs the HTML filter over JSON Lines on standard input, one value per line:
//! `{"html": "...", "base": "http://…" | null, "type": "text/html", "sanitize": true,
//! "resolve": true}`; prints one JSON string per line. `tools/html_diff.py` uses it to
//! compare the filter with feedparser on generated markup.

use std::io::{BufRead, Write};

use feed_decoder::html::{HtmlFilter, Markup};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
            let _ = writeln!(out, "null");
            continue;
        };
        let html = v["html"].as_str().unwrap_or_default();
        let markup = if v["type"].as_str() == Some("application/xhtml+xml") {
            Markup::Xhtml
        } else {
            Markup::Html
        };
        let f = HtmlFilter::new()
            .sanitize(v["sanitize"].as_bool().unwrap_or(true))
            .resolve(v["resolve"].as_bool().unwrap_or(true))
            .base(v["base"].as_str())
            .markup(markup);
        let result = f.apply(html);
        let _ = writeln!(out, "{}", serde_json::Value::String(result.into_owned()));
    }
}
