//! Decodes and parses a file `N` times (default 1) and prints the time per run: a target
//! for profilers (`perf record`, `valgrind --tool=callgrind`).
//!
//! `cargo run --release --example parse_file -- feed.xml [N]`; with `SCAN=1`, a bare
//! quick-xml event scan of the decoded text instead (the benchmark's baseline); with
//! `FEED_RS=1`, feed-rs's parser; with `RAW=1`, ours with sanitizing and URI resolution
//! off.

use feed_decoder::Transport;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: parse_file FILE [N]");
    let n: usize = args.next().map_or(1, |s| s.parse().expect("N"));
    let bytes = std::fs::read(&path).expect("read");
    let start = std::time::Instant::now();
    let mut entries = 0;
    if std::env::var_os("FEED_RS").is_some() {
        for _ in 0..n {
            entries += feed_rs::parser::parse(&bytes[..]).map_or(0, |f| f.entries.len());
        }
        println!(
            "{entries} entries (feed-rs), {:?} per run",
            start.elapsed() / u32::try_from(n).unwrap_or(1)
        );
        return;
    }
    if std::env::var_os("SCAN").is_some() {
        let text = feed_decoder::decode(&bytes, &Transport::Local).text;
        for _ in 0..n {
            let mut reader = quick_xml::Reader::from_str(&text);
            loop {
                match reader.read_event() {
                    Ok(quick_xml::events::Event::Text(t)) => {
                        entries += t.xml_content(quick_xml::XmlVersion::Implicit1_0).len();
                    }
                    Ok(quick_xml::events::Event::CData(t)) => {
                        entries += t.xml_content(quick_xml::XmlVersion::Implicit1_0).len();
                    }
                    Ok(quick_xml::events::Event::Eof) | Err(_) => break,
                    Ok(_) => entries += 1,
                }
            }
        }
        println!(
            "{entries} scanned, {:?} per run",
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
        let p = feed_decoder::parse_with(
            &feed_decoder::Decoder::default(),
            &options,
            &bytes,
            &Transport::Local,
        );
        entries += p.entries.len();
    }
    let per = start.elapsed() / u32::try_from(n).unwrap_or(1);
    println!("{entries} entries, {per:?} per run");
}
