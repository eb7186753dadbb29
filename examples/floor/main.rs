//! The floor process: decodes files by their declared label with encoding_rs and walks
//! every quick-xml event of the text (see `walk.rs`), one file after the other in one
//! thread, reading each when its turn comes. It uses nothing of this crate.
//! `tools/parse_ratios.py --processes` pairs it with `feed-decoder --json --jobs 1` on
//! the same files.
//!
//! ```text
//! cargo build --release --example floor
//! target/release/examples/floor [--content-type 'TYPE; charset=LABEL'] FILE...
//! ```
//!
//! `--content-type` (as the CLI takes it) gives the files an HTTP charset, which wins
//! over their XML declaration.

mod walk;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut charset = None;
    let mut paths = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--content-type" {
            let value = args.next().expect("--content-type needs a value");
            charset = charset_parameter(&value);
        } else {
            paths.push(arg);
        }
    }
    assert!(!paths.is_empty(), "usage: floor [--content-type V] FILE...");
    let mut seen = walk::Walk::default();
    for path in &paths {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        seen += walk::floor(&bytes, charset.as_deref());
    }
    println!(
        "{} files, {} events, {} bytes of content, {} errors",
        paths.len(),
        seen.events,
        seen.bytes,
        seen.errors
    );
}

/// The `charset` parameter of a media type (quoted or not), if any.
fn charset_parameter(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"').to_owned())
    })
}
