//! The `feed-decoder` command-line tool. SKELETON.
fn main() {}
