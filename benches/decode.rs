//! Decoding throughput against the natural baselines, on a ~1 MB synthetic feed:
//!
//! - `utf8/*`: valid UTF-8 through the whole chain vs `str::from_utf8` (aim ≤ 1.5×);
//! - `windows1252/*`, `shift_jis/*`: a labelled legacy feed vs encoding_rs's own decode
//!   (aim ≤ 1.5×);
//! - `mislabelled/*`: UTF-8 declared ISO-8859-1 (the evidence path) vs the happy path
//!   (aim ≤ 3×).
//!
//! `python3 tools/bench_ratios.py` prints the ratios of the medians after a run.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use feed_decoder::{Decoder, Transport};

/// A feed of about `size` bytes whose text is `sample` repeated, declared as `label`.
fn feed(label: &str, sample: &str, size: usize) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"{label}\"?>\n<rss version=\"2.0\"><channel><title>bench</title>\n"
    );
    let mut i = 0;
    while s.len() < size {
        s.push_str(&format!(
            "<item><title>{sample} {i}</title><link>http://example.com/{i}</link>\
             <description>{sample} {sample} {sample}</description></item>\n"
        ));
        i += 1;
    }
    s.push_str("</channel></rss>\n");
    s
}

const SIZE: usize = 1 << 20;

/// A feed labelled and encoded in `encoding`: the whole chain vs encoding_rs's own decode.
fn legacy(
    c: &mut Criterion,
    decoder: &Decoder,
    group: &str,
    encoding: &'static encoding_rs::Encoding,
    sample: &str,
) {
    let bytes = encoding
        .encode(&feed(encoding.name(), sample, SIZE))
        .0
        .into_owned();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("feed-decoder", |b| {
        b.iter(|| {
            decoder
                .decode(black_box(&bytes), &Transport::Local)
                .text
                .len()
        })
    });
    g.bench_function("encoding_rs", |b| {
        b.iter(|| {
            encoding
                .decode_without_bom_handling(black_box(&bytes))
                .0
                .len()
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let decoder = Decoder::new();
    let local = Transport::Local;

    let utf8 = feed("utf-8", "Grüße aus Köln — Новости дня — 日本語", SIZE).into_bytes();
    let mut g = c.benchmark_group("utf8");
    g.throughput(Throughput::Bytes(utf8.len() as u64));
    g.bench_function("feed-decoder", |b| {
        b.iter(|| decoder.decode(black_box(&utf8), &local).text.len())
    });
    g.bench_function("from_utf8", |b| {
        b.iter(|| std::str::from_utf8(black_box(&utf8)).map(str::len))
    });
    g.finish();

    legacy(
        c,
        &decoder,
        "windows1252",
        encoding_rs::WINDOWS_1252,
        "Ça coûte 5 € “vraiment” – déjà",
    );
    legacy(
        c,
        &decoder,
        "shift_jis",
        encoding_rs::SHIFT_JIS,
        "日本語のニュース、今日の天気は晴れです",
    );

    let mislabelled =
        feed("iso-8859-1", "Grüße aus Köln — Новости дня — 日本語", SIZE).into_bytes();
    let mut g = c.benchmark_group("mislabelled");
    g.throughput(Throughput::Bytes(mislabelled.len() as u64));
    g.bench_function("feed-decoder", |b| {
        b.iter(|| decoder.decode(black_box(&mislabelled), &local).text.len())
    });
    g.bench_function("happy-path", |b| {
        b.iter(|| decoder.decode(black_box(&utf8), &local).text.len())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
