//! Hostile shapes (issue: "bounded on any input"): each is generated at a bounded size,
//! parsed, checked for the right result, and timed against a plain feed of the same
//! size. The time bounds are generous ratios (the tests run unoptimised on a shared
//! machine); a quadratic cost is still far beyond them at these sizes. The tight figures
//! come from `cargo bench --bench hostile`.

mod shapes;

use std::time::{Duration, Instant};

use feed_decoder::{BozoKind, Parsed, Transport, parse};
use shapes::SHAPES;

/// The size of each generated input.
const SIZE: usize = 128 << 10;

/// The least of three timings of `f`.
fn fastest(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .expect("three runs")
}

/// The timing tests of this file run one at a time (the test harness runs tests on
/// parallel threads, and two timed loops on a 2-core machine would measure each other).
static TIMING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn timed(bytes: &[u8]) -> Duration {
    fastest(|| {
        std::hint::black_box(parse(std::hint::black_box(bytes), &Transport::Local));
    })
}

/// Checks what each shape must give.
fn check(name: &str, p: &Parsed<'_>) {
    let feed = p;
    assert_eq!(feed.feed.title.as_deref(), Some("t"), "{name}: feed title");
    let lenient = name.starts_with("lenient");
    assert_eq!(
        p.bozo.iter().any(|b| b.kind == BozoKind::NotWellFormed),
        lenient,
        "{name}: bozo {:?}",
        p.bozo.iter().collect::<Vec<_>>()
    );
    match name {
        "distinct-children" | "lenient-children" => {
            let e = &feed.entries[0];
            assert!(e.extra.len() > 5000, "{name}: {} keys", e.extra.len());
            assert_eq!(e.extra["e0"], "x");
            assert_eq!(e.extra["e4999"], "x");
        }
        "channel-children" => {
            assert!(feed.feed.extra.len() > 5000);
            assert_eq!(feed.feed.extra["c1234"], "x");
        }
        "distinct-attributes" | "lenient-attributes" | "lenient-duplicate-attributes" => {
            assert_eq!(feed.entries.len(), 1, "{name}");
            assert_eq!(feed.entries[0].title.as_deref(), Some("x"), "{name}");
        }
        "namespace-declarations" => {
            assert_eq!(feed.entries[0].title.as_deref(), Some("x"));
        }
        "namespace-prefixes" => {
            assert_eq!(feed.entries.len(), 1);
            assert!(!feed.entries[0].extra.is_empty());
        }
        "nested-namespaces" => {
            assert_eq!(feed.entries.len(), 1);
            assert!(p.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
        }
        "long-line" => {
            let t = feed.entries[0].title.as_deref().unwrap_or_default();
            assert!(t.len() > SIZE / 2 && t.starts_with("lorem ipsum & dolor"));
        }
        "empty-entries" => assert!(feed.entries.len() > SIZE / 8, "{}", feed.entries.len()),
        "entity-references" => {
            let s = feed.entries[0].summary.as_deref().unwrap_or_default();
            assert!(
                s.starts_with("&é&é&é") && s.len() > SIZE / 4,
                "{}",
                &s[..s.len().min(40)]
            );
        }
        "xhtml-content" => {
            let e = &feed.entries[0];
            let content = &e.content[0].value;
            assert!(content.contains("para <b>7</b>"), "{}", &content[..200]);
            assert!(
                e.summary
                    .as_deref()
                    .unwrap_or_default()
                    .contains("<b>9</b>")
            );
        }
        "lenient-unclosed" => assert_eq!(feed.entries.len(), 1),
        "lenient-unmatched-ends" => {
            assert_eq!(feed.entries.len(), 1);
            assert_eq!(feed.entries[0].title.as_deref(), Some("after"));
        }
        other => panic!("no check for shape {other}"),
    }
}

#[test]
fn every_hostile_shape_is_right_and_about_as_fast_as_a_plain_feed() {
    let _serial = TIMING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut slow = Vec::new();
    for shape in SHAPES {
        let text = (shape.make)(SIZE);
        let plain = shapes::plain(text.len());
        let p = parse(text.as_bytes(), &Transport::Local);
        check(shape.name, &p);
        let hostile = timed(text.as_bytes());
        let base = timed(plain.as_bytes());
        let ratio = hostile.as_secs_f64() / base.as_secs_f64();
        eprintln!(
            "{:<30} {:>7} bytes {:>8.1?} plain {:>8.1?} ratio {ratio:.2}",
            shape.name,
            text.len(),
            hostile,
            base
        );
        // Generous: unoptimised code, a shared 2-core machine. Quadratic shapes took
        // 100-1000x here.
        if hostile > base * 12 + Duration::from_millis(100) {
            slow.push(format!("{} ({ratio:.1}x)", shape.name));
        }
    }
    assert!(slow.is_empty(), "slower than 12x a plain feed: {slow:?}");
}

#[test]
fn time_grows_linearly_with_the_input() {
    let _serial = TIMING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Four times the input may take at most eight times as long (quadratic: sixteen).
    let mut superlinear = Vec::new();
    for shape in SHAPES {
        let small = (shape.make)(SIZE / 4);
        let large = (shape.make)(SIZE);
        let t_small = timed(small.as_bytes());
        let t_large = timed(large.as_bytes());
        if t_large > t_small * 8 + Duration::from_millis(60) {
            superlinear.push(format!("{} ({t_small:?} -> {t_large:?})", shape.name));
        }
    }
    assert!(superlinear.is_empty(), "superlinear: {superlinear:?}");
}
