//! Decodes and parses files `N` times (default 1) and prints the time per run: a target
//! for profilers (`perf record`, `valgrind --tool=callgrind`), and the library's `parse`
//! in `tools/parse_ratios.py --processes`, which reports its peak RSS: every file is read
//! first, then each `Parsed` is held whole (the decoded text, the feed and every entry)
//! until the next file's parse starts.
//!
//! `cargo run --release --example parse_file -- FILE... [N]`; with `FEED_RS=1`,
//! feed-rs's parser instead; with `RAW=1`, ours with sanitizing and URI resolution off.
//! Several files are read and handled in one process, one after the other. The floor
//! these are measured against is `examples/floor`.

use feed_decoder::Transport;

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    // A last argument that is a number and not a file is the run count.
    let n: usize = match paths
        .last()
        .map(|a| (a.parse::<usize>(), std::path::Path::new(a).exists()))
    {
        Some((Ok(n), false)) if paths.len() > 1 => {
            paths.pop();
            n
        }
        _ => 1,
    };
    assert!(!paths.is_empty(), "usage: parse_file FILE... [N]");
    let files: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let start = std::time::Instant::now();
    let mut entries = 0;
    if std::env::var_os("FEED_RS").is_some() {
        for _ in 0..n {
            for bytes in &files {
                entries += feed_rs::parser::parse(&bytes[..]).map_or(0, |f| f.entries.len());
            }
        }
        println!(
            "{entries} entries (feed-rs), {:?} per run",
            start.elapsed() / u32::try_from(n).unwrap_or(1)
        );
        return;
    }
    // `RAW=1`: sanitizing and URI resolution off.
    let raw = std::env::var_os("RAW").is_some();
    let options = feed_decoder::parse::ParseOptions::default()
        .sanitize_html(!raw)
        .resolve_relative_uris(!raw);
    for _ in 0..n {
        for bytes in &files {
            let p = feed_decoder::parse_with(
                &feed_decoder::Decoder::default(),
                &options,
                bytes,
                &Transport::Local,
            );
            entries += p.entries.len();
        }
    }
    let per = start.elapsed() / u32::try_from(n).unwrap_or(1);
    println!("{entries} entries, {per:?} per run");
}
