//! Writes every hostile shape of `tests/shapes` and a plain feed of the same size to a
//! directory, for whole-process measurements through the CLI (`tools/hostile_rss.py`).
//!
//! `cargo run --release --example write_shapes -- DIR [SIZE_BYTES]` (default 8 MiB).

#[path = "../tests/shapes/mod.rs"]
mod shapes;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().unwrap_or_else(|| "shapes".into()));
    let size: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(8 << 20);
    std::fs::create_dir_all(&dir)?;
    for shape in shapes::SHAPES {
        let text = (shape.make)(size);
        std::fs::write(dir.join(format!("{}.xml", shape.name)), &text)?;
        let plain = shapes::plain(text.len());
        std::fs::write(dir.join(format!("{}-plain.xml", shape.name)), plain)?;
    }
    Ok(())
}
