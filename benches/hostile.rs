//! Hostile shapes against a plain feed of the same size (decode + parse, `parse` with
//! default options): each group `hostile/<shape>` measures the shape and
//! `hostile/<shape>-plain` a plain RSS feed of the same byte length. Aim: every shape
//! within 3× of its plain feed.
//!
//! `python3 tools/hostile_ratios.py` prints the ratios of the medians after a run.
//! `HOSTILE_BENCH_SIZE` sets the input size in bytes (default 1 MiB).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use feed_decoder::Transport;

#[path = "../tests/shapes/mod.rs"]
mod shapes;

fn ours(bytes: &[u8]) -> usize {
    let p = feed_decoder::parse(bytes, &Transport::Local);
    p.entries.len() + p.decoded.text.len()
}

fn bench(c: &mut Criterion) {
    let size = std::env::var("HOSTILE_BENCH_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 20);
    let mut g = c.benchmark_group("hostile");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for shape in shapes::SHAPES {
        let text = (shape.make)(size);
        let plain = shapes::plain(text.len());
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(shape.name, |b| b.iter(|| ours(black_box(text.as_bytes()))));
        g.bench_function(format!("{}-plain", shape.name), |b| {
            b.iter(|| ours(black_box(plain.as_bytes())))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
