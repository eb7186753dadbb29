//! Speed against encoding_rs's own decode. Run with
//! `cargo test --release --test charset_speed -- --ignored --nocapture`; the ratio is
//! only asserted in optimised builds.

use std::hint::black_box;
use std::time::{Duration, Instant};

use feed_decoder::Charset;

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn compare(name: &str, charset: Charset, enc: &'static encoding_rs::Encoding, bytes: &[u8]) -> f64 {
    let ours = best_of(30, || {
        black_box(charset.decode_strict(black_box(bytes)).unwrap());
    });
    let theirs = best_of(30, || {
        black_box(
            enc.decode_without_bom_handling_and_without_replacement(black_box(bytes))
                .unwrap(),
        );
    });
    let ratio = ours.as_secs_f64() / theirs.as_secs_f64().max(1e-9);
    eprintln!("{name}: ours {ours:?}, encoding_rs {theirs:?}, ratio {ratio:.2}");
    ratio
}

#[test]
#[ignore = "timing; run in release"]
fn decode_speed_is_close_to_encoding_rs() {
    let item = "<item><title>Café crème — résumé #5</title><description>Ein schöner \
                Tag in Zürich; naïve façade… “quoted” ‘text’ € 12,50</description>\
                <link>http://example.com/item?id=12345&amp;lang=fr</link></item>\n";
    let feed = item.repeat(5000);
    let w1252 = Charset::WINDOWS_1252.encode(&feed).unwrap();
    let ascii = "<item><title>plain ascii title</title><link>http://example.com/</link></item>\n"
        .repeat(8000)
        .into_bytes();
    let french = "éàèùâêîôûçëïüÿœæ «»".repeat(30000);
    let dense = Charset::WINDOWS_1252.encode(&french).unwrap();
    let jp = "<item><title>日本語のフィードのタイトルです。</title><link>http://example.jp/</link></item>\n"
        .repeat(5000);
    let sjis = encoding_rs::SHIFT_JIS.encode(&jp).0.into_owned();
    let sjis_cs = Charset::for_label("shift_jis").unwrap();

    let ratios = [
        compare(
            "windows-1252 feed",
            Charset::WINDOWS_1252,
            encoding_rs::WINDOWS_1252,
            &w1252,
        ),
        compare(
            "windows-1252 ascii",
            Charset::WINDOWS_1252,
            encoding_rs::WINDOWS_1252,
            &ascii,
        ),
        compare(
            "windows-1252 dense",
            Charset::WINDOWS_1252,
            encoding_rs::WINDOWS_1252,
            &dense,
        ),
        compare("shift_jis feed", sjis_cs, encoding_rs::SHIFT_JIS, &sjis),
        compare(
            "utf-8 feed",
            Charset::UTF_8,
            encoding_rs::UTF_8,
            feed.as_bytes(),
        ),
    ];
    if !cfg!(debug_assertions) {
        for r in ratios {
            assert!(r < 1.5, "ratio {r:.2} ≥ 1.5");
        }
    }
}
