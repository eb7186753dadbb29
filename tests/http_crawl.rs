//! The crawler engine over an in-process loopback server with
//! failures mixed in: every job reported exactly once, each failure typed, hosts polled
//! one request at a time with the delay between requests.

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::{Reply, closed_port, gzip, ok, redirect, rss, serve, status};
use feed_decoder::BozoKind;
use feed_decoder::http::{
    CrawlJob, CrawlOptions, CrawlResult, Crawler, FetchOptions, Fetcher, StopSignal,
};

fn fetcher(timeout_ms: u64) -> Fetcher {
    Fetcher::new(
        FetchOptions::new()
            .env_proxy(false)
            .connect_timeout(Duration::from_secs(2))
            .timeout(Duration::from_millis(timeout_ms)),
    )
    .unwrap()
}

const XML: (&str, &str) = ("Content-Type", "application/rss+xml");

fn mixed_handler(req: &common::Request) -> Reply {
    let p = req.path.as_str();
    match p {
        "/missing" => status(404, &[("Content-Type", "text/xml")], rss("missing")),
        "/error" => status(500, &[], rss("error")),
        "/stall" => Reply::Stall,
        "/loop" => redirect(302, "/loop2"),
        "/loop2" => redirect(302, "/loop"),
        "/moved" => redirect(301, "/ok/0"),
        "/cut" => Reply::Cut {
            headers: vec![],
            body: b"<rss>".to_vec(),
            declared: 1000,
        },
        "/fake-gzip" => ok(&[("Content-Encoding", "gzip"), XML], rss("fake")),
        "/gzip" => ok(
            &[("Content-Encoding", "gzip"), XML],
            gzip(rss("real").as_bytes()),
        ),
        "/conditional" if req.header("if-none-match") == Some("\"same\"") => {
            status(304, &[("ETag", "\"same\"")], Vec::new())
        }
        _ => ok(
            &[
                ("Content-Type", "application/rss+xml"),
                ("ETag", "\"same\""),
            ],
            rss(p),
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_job_is_reported_once_with_failures_mixed_in() {
    let server = serve(mixed_handler).await;
    let mut jobs: Vec<CrawlJob> = (0..12)
        .map(|i| CrawlJob::new(server.url(&format!("/ok/{i}"))))
        .collect();
    let special = [
        "/missing",
        "/error",
        "/stall",
        "/loop",
        "/moved",
        "/cut",
        "/fake-gzip",
        "/gzip",
        "/conditional",
    ];
    for p in special {
        jobs.push(CrawlJob::new(server.url(p)));
    }
    jobs.push(CrawlJob::new(server.url("/conditional")).with_validators(
        feed_decoder::http::Validators {
            etag: Some("\"same\"".into()),
            modified: None,
        },
    ));
    let refused = format!("http://127.0.0.1:{}/feed", closed_port());
    jobs.push(CrawlJob::new(refused.clone()));
    jobs.push(CrawlJob::new("not a url"));
    jobs.push(CrawlJob::new("gopher://127.0.0.1/"));
    let n = jobs.len();
    let delay = Duration::from_millis(10);
    let crawler = Crawler::new(
        fetcher(600),
        CrawlOptions::new().concurrency(4).per_host_delay(delay),
    );

    let start = Instant::now();
    let mut results: Vec<CrawlResult> = Vec::new();
    let delivered = tokio::time::timeout(
        Duration::from_secs(30),
        crawler.crawl(jobs, |r| results.push(r)),
    )
    .await
    .expect("the crawl finishes");
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(delivered, n);
    assert_eq!(results.len(), n);
    let indices: BTreeSet<usize> = results.iter().map(|r| r.index).collect();
    assert_eq!(indices, (0..n).collect(), "each job exactly once");

    let find = |suffix: &str| -> Vec<&CrawlResult> {
        results.iter().filter(|r| r.url.ends_with(suffix)).collect()
    };
    let one = |suffix: &str| {
        let v = find(suffix);
        assert_eq!(v.len(), 1, "{suffix}");
        v[0]
    };
    let http_status = |r: &CrawlResult| r.outcome.as_ref().unwrap().http.as_ref().unwrap().status;
    for i in 0..12 {
        let r = one(&format!("/ok/{i}"));
        assert_eq!(http_status(r), 200);
        let s = r.summary.as_ref().unwrap();
        assert_eq!(s.encoding, "utf-8");
        assert!(s.bozo.is_empty());
    }
    assert_eq!(http_status(one("/missing")), 404);
    assert!(one("/missing").summary.is_some(), "a 404 body is parsed");
    assert_eq!(http_status(one("/error")), 500);
    assert_eq!(
        one("/stall").outcome.as_ref().unwrap_err().kind(),
        "timeout"
    );
    assert_eq!(
        one("/loop").outcome.as_ref().unwrap_err().kind(),
        "redirect-loop"
    );
    let moved = one("/moved").outcome.as_ref().unwrap();
    assert_eq!(moved.http.as_ref().unwrap().status, 301);
    assert_eq!(moved.href, server.url("/ok/0"));
    match &one("/cut").outcome {
        Ok(f) => assert_eq!(f.bozo[0].kind, BozoKind::Transport),
        Err(e) => assert!(matches!(e.kind(), "protocol" | "connect"), "{e}"),
    }
    assert_eq!(
        one("/fake-gzip").summary.as_ref().unwrap().bozo,
        [BozoKind::Transport]
    );
    assert!(one("/gzip").summary.as_ref().unwrap().bozo.is_empty());
    let conditional = find("/conditional");
    assert_eq!(conditional.len(), 2);
    let not_modified: Vec<bool> = conditional
        .iter()
        .map(|r| r.outcome.as_ref().unwrap().not_modified())
        .collect();
    assert!(not_modified.contains(&true) && not_modified.contains(&false));
    assert!(
        conditional
            .iter()
            .all(|r| r.outcome.as_ref().unwrap().not_modified() == r.summary.is_none())
    );
    assert_eq!(
        one(&refused).outcome.as_ref().unwrap_err().kind(),
        "refused"
    );
    assert_eq!(
        one("not a url").outcome.as_ref().unwrap_err().kind(),
        "invalid-url"
    );
    assert_eq!(
        one("gopher://127.0.0.1/")
            .outcome
            .as_ref()
            .unwrap_err()
            .kind(),
        "unsupported-scheme"
    );

    // Politeness: all of these share host 127.0.0.1, so requests never overlap and start
    // at least `delay` after the previous one ended.
    // A redirect's next hop belongs to the same job and follows at once.
    let mut reqs = server.requests();
    reqs.sort_by_key(|r| r.at);
    assert!(reqs.len() >= 22, "{}", reqs.len());
    for pair in reqs.windows(2) {
        if matches!(pair[0].path.as_str(), "/loop" | "/loop2" | "/moved") {
            continue;
        }
        let gap = pair[1].at - pair[0].at;
        assert!(
            gap >= delay - Duration::from_millis(1),
            "{} then {}: {gap:?} apart",
            pair[0].path,
            pair[1].path
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn different_hosts_are_crawled_concurrently() {
    // Two "hosts": servers on 127.0.0.1 and 127.0.0.2 (all of 127/8 is loopback on
    // Linux); skipped where 127.0.0.2 cannot be bound.
    let a = serve(|_| ok(&[], rss("a"))).await;
    if tokio::net::TcpListener::bind("127.0.0.2:0").await.is_err() {
        eprintln!("127.0.0.2 not available; skipping");
        return;
    }
    let b = common::serve_on("127.0.0.2:0", |_| ok(&[], rss("b"))).await;
    let mut jobs = Vec::new();
    for i in 0..5 {
        jobs.push(CrawlJob::new(a.url(&format!("/{i}"))));
        jobs.push(CrawlJob::new(b.url(&format!("/{i}"))));
    }
    let delay = Duration::from_millis(100);
    let crawler = Crawler::new(
        fetcher(2000),
        CrawlOptions::new().concurrency(4).per_host_delay(delay),
    );
    let start = Instant::now();
    let delivered = crawler
        .crawl(jobs, |r| assert!(r.outcome.is_ok(), "{:?}", r.outcome))
        .await;
    let took = start.elapsed();
    assert_eq!(delivered, 10);
    // Per host: 5 requests, 4 delays = 400 ms; the hosts overlap, so well under 800 ms.
    assert!(took >= Duration::from_millis(390), "{took:?}");
    assert!(
        took < Duration::from_millis(780),
        "hosts were not crawled in parallel: {took:?}"
    );
    // One host, requests spaced by the delay.
    let mut ta: Vec<Instant> = a.requests().iter().map(|r| r.at).collect();
    ta.sort();
    assert!(
        ta.windows(2)
            .all(|w| w[1] - w[0] >= delay - Duration::from_millis(1))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_crawl_finishes_in_flight_jobs_and_starts_no_more() {
    let server = serve(|req: &common::Request| ok(&[XML], rss(&req.path))).await;
    let jobs: Vec<CrawlJob> = (0..30)
        .map(|i| CrawlJob::new(server.url(&format!("/f/{i}"))))
        .collect();
    let crawler = Crawler::new(
        fetcher(5_000),
        CrawlOptions::new()
            .concurrency(4)
            .per_host_delay(Duration::from_millis(20)),
    );
    let stop = StopSignal::new();
    let mut seen = Vec::new();
    let report = crawler
        .crawl_until(jobs, &stop, |r| {
            assert!(r.outcome.is_ok(), "{:?}", r.outcome.as_ref().err());
            seen.push(r.index);
            if seen.len() == 5 {
                stop.stop();
            }
        })
        .await;
    assert_eq!(report.delivered, seen.len());
    assert_eq!(report.abandoned, 0);
    assert!(report.not_started > 0);
    assert_eq!(report.delivered + report.not_started, 30);
    assert!(
        report.delivered <= 6,
        "at most the one in flight after the stop"
    );
    assert_eq!(server.requests().len(), report.delivered);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_crawl_returns_at_once_without_the_stalled_job() {
    let server = serve(|req: &common::Request| match req.path.as_str() {
        "/stall" => Reply::Stall,
        p => ok(&[XML], rss(p)),
    })
    .await;
    let jobs = vec![CrawlJob::new(server.url("/stall"))];
    let crawler = Crawler::new(fetcher(60_000), CrawlOptions::new());
    let stop = StopSignal::new();
    let s = stop.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        s.abort();
    });
    let t = Instant::now();
    let report = crawler
        .crawl_until(jobs, &stop, |_| panic!("no result"))
        .await;
    assert!(t.elapsed() < Duration::from_secs(10));
    assert_eq!(report.abandoned, 1);
    assert_eq!(report.delivered, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_pauses_the_host_within_a_crawl() {
    let server = serve(|req: &common::Request| match req.path.as_str() {
        "/busy" => status(429, &[("Retry-After", "1")], "busy"),
        p => ok(&[XML], rss(p)),
    })
    .await;
    let jobs = vec![
        CrawlJob::new(server.url("/busy")),
        CrawlJob::new(server.url("/after")),
    ];
    let crawler = Crawler::new(
        fetcher(5_000),
        CrawlOptions::new().per_host_delay(Duration::ZERO),
    );
    assert_eq!(crawler.crawl(jobs, |_| {}).await, 2);
    let r = server.requests();
    assert_eq!(r.len(), 2);
    assert!(
        r[1].at - r[0].at >= Duration::from_millis(990),
        "{:?}",
        r[1].at - r[0].at
    );
}

/// A parse that outlives its budget is reported as `parse-timeout` and frees its slot at
/// once: the next body gets the slot and the crawl returns without waiting for the parse
/// threads it gave up on. The runtime has one blocking thread, which the test holds while
/// the crawl runs, so that no parse can end within its budget on any machine under any
/// load (an order of events, not a race against the clock); once it is let go, the
/// abandoned parses run to their end and the same crawler parses again.
#[test]
fn a_parse_past_the_deadline_frees_its_slot() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(1)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = serve(|req: &common::Request| ok(&[XML], rss(&req.path))).await;
        let (held, holding) = tokio::sync::oneshot::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let blocker = tokio::task::spawn_blocking(move || {
            held.send(()).unwrap();
            released.recv().unwrap();
        });
        holding.await.unwrap();
        // One body more than the crawler has parse slots (one per core): the last one is
        // handed to a parse only when a slot given up on is freed.
        let slots = std::thread::available_parallelism().map_or(1, |n| n.get());
        let jobs = (0..=slots)
            .map(|i| CrawlJob::new(server.url(&format!("/held/{i}"))))
            .collect();
        let crawler = Crawler::new(
            fetcher(1000),
            CrawlOptions::new()
                .per_host_delay(Duration::ZERO)
                .min_parse_time(Duration::from_millis(50)),
        );
        let mut results = Vec::new();
        // A crawl that kept a slot, or waited for a parse it gave up on, would wait for
        // the blocking thread the test holds, and never end.
        tokio::time::timeout(
            Duration::from_secs(60),
            crawler.crawl(jobs, |r| results.push(r)),
        )
        .await
        .expect("the crawl waited for a parse it had given up on");
        assert_eq!(results.len(), slots + 1);
        for r in &results {
            match &r.outcome {
                Err(e) => assert_eq!(e.kind(), "parse-timeout", "{}: {e}", r.url),
                Ok(_) => panic!("{}: parsed while no parse could run", r.url),
            }
            assert!(r.summary.is_none(), "{}", r.url);
        }
        release.send(()).unwrap();
        blocker.await.unwrap();
        let mut again = Vec::new();
        crawler
            .crawl(vec![CrawlJob::new(server.url("/small"))], |r| again.push(r))
            .await;
        let small = &again[0];
        assert!(small.outcome.is_ok(), "{:?}", small.outcome.as_ref().err());
        assert_eq!(small.summary.as_ref().map(|s| s.entries), Some(1));
    });
}
