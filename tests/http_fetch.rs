//! The `http` feature against an in-process server on 127.0.0.1: request and response
//! headers, conditional GET, compression, caps, timeouts, redirects, error statuses and
//! broken connections. No traffic leaves the loopback interface.

mod common;

use std::time::{Duration, Instant};

use common::{Reply, closed_port, gzip, ok, redirect, rss, serve, status, zlib};
use feed_decoder::BozoKind;
use feed_decoder::http::{
    FetchError, FetchOptions, Fetched, Fetcher, Validators, fetch, fetch_blocking,
};

/// Options for tests: short timeouts, no proxy from the environment.
fn opts() -> FetchOptions {
    FetchOptions::new()
        .env_proxy(false)
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(5))
}

fn kinds(f: &Fetched) -> Vec<BozoKind> {
    f.bozo.iter().map(|b| b.kind).collect()
}

#[tokio::test]
async fn request_headers_and_response_fields() {
    let body = rss("Caf\u{e9}");
    let served = body.clone();
    let server = serve(move |_| {
        ok(
            &[
                ("Content-Type", "application/rss+xml; charset=utf-8"),
                ("ETag", "\"abc\""),
                ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"),
                ("X-Mixed-Case", "Value"),
            ],
            served.clone(),
        )
    })
    .await;
    let url = server.url("/feed.xml");
    let f = fetch(&url, &opts().user_agent("test-agent/1"))
        .await
        .unwrap();

    let req = &server.requests()[0];
    assert_eq!(req.method, "GET");
    assert_eq!(req.header("user-agent"), Some("test-agent/1"));
    for once in ["user-agent", "accept", "accept-encoding"] {
        assert_eq!(
            req.headers.iter().filter(|(n, _)| n == once).count(),
            1,
            "{once}"
        );
    }
    let accept = req.header("accept").unwrap();
    assert!(
        accept.starts_with("application/atom+xml,application/rss+xml"),
        "{accept}"
    );
    assert!(
        accept.find("application/rdf+xml") < accept.find("*/*"),
        "{accept}"
    );
    let ae = req.header("accept-encoding").unwrap();
    assert!(
        ae.contains("gzip") && ae.contains("deflate") && ae.contains("br"),
        "{ae}"
    );
    assert_eq!(req.header("if-none-match"), None);

    let http = f.http.as_ref().unwrap();
    assert_eq!(f.href, url);
    assert_eq!(http.href, url);
    assert_eq!((http.status, http.final_status), (200, 200));
    assert_eq!(http.etag.as_deref(), Some("\"abc\""));
    assert_eq!(
        http.modified.as_deref(),
        Some("Sun, 06 Nov 1994 08:49:37 GMT")
    );
    assert_eq!(
        http.modified_parsed,
        Some([1994, 11, 6, 8, 49, 37, 6, 310, 0])
    );
    assert!(
        http.headers
            .iter()
            .all(|(n, _)| n == n.to_ascii_lowercase())
    );
    assert_eq!(http.headers.get("x-mixed-case"), Some("Value"));
    assert_eq!(
        http.headers.get("content-type"),
        Some("application/rss+xml; charset=utf-8")
    );
    assert!(!http.not_modified && !http.permanent_redirect && http.redirects.is_empty());
    assert_eq!(
        http.headers_map().get("etag").map(String::as_str),
        Some("\"abc\"")
    );
    assert_eq!(f.body, body.as_bytes());
    assert!(f.bozo.is_empty());

    // The JSON contract as the CLI builds it: the parsed result plus the fetch's fields.
    let parsed = f.parse().unwrap();
    let mut json = feed_decoder::output::to_json(&parsed);
    json.as_object_mut().unwrap().extend(f.json_fields());
    assert_eq!(json["href"], url.as_str());
    assert_eq!(json["status"], 200);
    assert_eq!(json["etag"], "\"abc\"");
    assert_eq!(
        json["modified_parsed"],
        serde_json::json!([1994, 11, 6, 8, 49, 37, 6, 310, 0])
    );
    assert_eq!(json["headers"]["x-mixed-case"], "Value");

    assert_eq!(parsed.decoded.encoding, "utf-8");
    assert!(parsed.decoded.text.contains("Café"));
    assert_eq!(
        parsed.transport.headers().unwrap().get("etag"),
        Some("\"abc\"")
    );
}

#[tokio::test]
async fn conditional_get_round_trip_gives_304() {
    let server = serve(|req| {
        let etag_matches = req.header("if-none-match") == Some("\"v1\"");
        let date_matches = req.header("if-modified-since") == Some("Sat, 01 Jan 2000 00:00:00 GMT");
        if etag_matches || date_matches {
            status(304, &[("ETag", "\"v1\"")], Vec::new())
        } else {
            ok(
                &[
                    ("ETag", "\"v1\""),
                    ("Last-Modified", "Sat, 01 Jan 2000 00:00:00 GMT"),
                ],
                rss("t"),
            )
        }
    })
    .await;
    let fetcher = Fetcher::new(opts()).unwrap();
    let url = server.url("/c");
    let first = fetcher.fetch(&url).await.unwrap();
    let validators = first.http.as_ref().unwrap().validators();
    assert_eq!(validators.etag.as_deref(), Some("\"v1\""));
    assert!(first.parse().is_some());

    let second = fetcher.fetch_with(&url, &validators).await.unwrap();
    let reqs = server.requests();
    assert_eq!(reqs[1].header("if-none-match"), Some("\"v1\""));
    assert_eq!(
        reqs[1].header("if-modified-since"),
        Some("Sat, 01 Jan 2000 00:00:00 GMT")
    );
    let http = second.http.as_ref().unwrap();
    assert_eq!(http.status, 304);
    assert!(http.not_modified && second.not_modified());
    assert!(second.body.is_empty());
    assert!(second.parse().is_none(), "a 304 parses nothing");
    // The contract's object for it: an empty result with the fetch's keys.
    let v = feed_decoder::output::not_modified_json(second.json_fields());
    assert_eq!(v["status"], 304);
    assert_eq!(v["href"], url.as_str());
    assert_eq!(v["etag"], "\"v1\"");
    assert_eq!(v["headers"]["etag"], "\"v1\"");
    assert_eq!(v["bozo"], false);
    assert_eq!(v["version"], "");
    assert_eq!(v["feed"], serde_json::json!({}));
    assert_eq!(v["entries"], serde_json::json!([]));

    // Last-Modified alone also works, through the one-off API.
    let only_date = Validators {
        etag: None,
        modified: Some("Sat, 01 Jan 2000 00:00:00 GMT".into()),
    };
    let third = fetch(&url, &opts().validators(only_date)).await.unwrap();
    assert!(third.not_modified());
}

#[tokio::test]
async fn gzip_and_deflate_bodies_are_decompressed() {
    let body = rss("compressed");
    let (g, z) = (gzip(body.as_bytes()), zlib(body.as_bytes()));
    let server = serve(move |req| match req.path.as_str() {
        "/gz" => ok(&[("Content-Encoding", "gzip")], g.clone()),
        _ => ok(&[("Content-Encoding", "deflate")], z.clone()),
    })
    .await;
    for path in ["/gz", "/deflate"] {
        let f = fetch(&server.url(path), &opts()).await.unwrap();
        assert_eq!(f.body, body.as_bytes(), "{path}");
        assert!(f.bozo.is_empty(), "{path}: {:?}", f.bozo);
        assert!(f.http.as_ref().unwrap().wire_bytes < body.len() + 30);
        assert!(f.parse().unwrap().decoded.text.contains("compressed"));
    }
}

#[tokio::test]
async fn gzip_bomb_stops_at_the_cap() {
    let bomb = gzip(&vec![b' '; 64 << 20]);
    assert!(bomb.len() < 1 << 20);
    let server = serve(move |_| ok(&[("Content-Encoding", "gzip")], bomb.clone())).await;
    let f = fetch(&server.url("/bomb"), &opts().max_body(1 << 20))
        .await
        .unwrap();
    assert_eq!(f.body.len(), 1 << 20);
    assert_eq!(kinds(&f), [BozoKind::LimitExceeded]);
    let parsed = f.parse().unwrap();
    assert_eq!(parsed.decoded.bozo[0].kind, BozoKind::LimitExceeded);
}

#[tokio::test]
async fn identity_body_over_the_cap_is_truncated() {
    let server = serve(|_| ok(&[], vec![b'x'; 100_000])).await;
    let f = fetch(&server.url("/big"), &opts().max_body(1000))
        .await
        .unwrap();
    assert_eq!(f.body.len(), 1000);
    assert_eq!(kinds(&f), [BozoKind::LimitExceeded]);
}

#[tokio::test]
async fn gzip_header_on_a_plain_body_is_bozo_and_still_parsed() {
    let body = rss("not compressed");
    let served = body.clone();
    let server = serve(move |_| ok(&[("Content-Encoding", "gzip")], served.clone())).await;
    let f = fetch(&server.url("/fake-gzip"), &opts()).await.unwrap();
    assert_eq!(kinds(&f), [BozoKind::Transport]);
    assert_eq!(f.body, body.as_bytes(), "the raw bytes are kept");
    let parsed = f.parse().unwrap();
    assert!(parsed.is_bozo());
    assert_eq!(parsed.bozo.first().unwrap().kind, BozoKind::Transport);
    assert!(parsed.decoded.text.contains("not compressed"));
}

#[tokio::test]
async fn a_stalled_server_times_out() {
    let server = serve(|_| Reply::Stall).await;
    let start = Instant::now();
    let err = fetch(
        &server.url("/stall"),
        &opts().timeout(Duration::from_millis(400)),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, FetchError::Timeout { .. }), "{err:?}");
    assert_eq!(err.kind(), "timeout");
    assert!(start.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn a_redirect_loop_is_a_typed_error() {
    let server = serve(|req| match req.path.as_str() {
        "/a" => redirect(302, "/b"),
        _ => redirect(302, "/a"),
    })
    .await;
    let err = fetch(&server.url("/a"), &opts()).await.unwrap_err();
    assert!(matches!(err, FetchError::RedirectLoop { .. }), "{err:?}");
}

#[tokio::test]
async fn too_many_redirects_is_a_typed_error() {
    let server = serve(|req| {
        let n: u32 = req.path.trim_start_matches("/r").parse().unwrap_or(0);
        redirect(302, &format!("/r{}", n + 1))
    })
    .await;
    let err = fetch(&server.url("/r0"), &opts().max_redirects(3))
        .await
        .unwrap_err();
    assert!(
        matches!(err, FetchError::TooManyRedirects { limit: 3, .. }),
        "{err:?}"
    );
    assert_eq!(server.requests().len(), 4);
}

#[tokio::test]
async fn permanent_redirect_reports_301_and_the_final_href() {
    let server = serve(|req| match req.path.as_str() {
        "/old" => redirect(301, "/new"),
        "/moved" => redirect(308, "/temp"),
        "/temp" => redirect(302, "/new"),
        _ => ok(&[("Content-Type", "application/xml")], rss("moved")),
    })
    .await;
    let f = fetch(&server.url("/old"), &opts()).await.unwrap();
    let http = f.http.as_ref().unwrap();
    assert_eq!(
        http.status, 301,
        "feedparser reports the first redirect's status"
    );
    assert_eq!(http.final_status, 200);
    assert_eq!(f.href, server.url("/new"));
    assert_eq!(http.href, server.url("/new"));
    assert!(http.permanent_redirect);
    assert_eq!(
        http.permanent_href.as_deref(),
        Some(server.url("/new").as_str())
    );
    assert_eq!(http.redirects, [(301, server.url("/old"))]);
    assert!(f.parse().unwrap().decoded.text.contains("moved"));

    // 308 then 302: the stored URL moves only as far as the permanent hop.
    let f = fetch(&server.url("/moved"), &opts()).await.unwrap();
    let http = f.http.as_ref().unwrap();
    assert_eq!((http.status, http.final_status), (308, 200));
    assert_eq!(
        http.permanent_href.as_deref(),
        Some(server.url("/temp").as_str())
    );
    assert_eq!(f.href, server.url("/new"));
}

#[tokio::test]
async fn error_statuses_are_parsed_and_reported() {
    let server = serve(|req| match req.path.as_str() {
        "/missing" => status(
            404,
            &[("Content-Type", "application/xml")],
            rss("not found"),
        ),
        _ => status(500, &[("Content-Type", "application/xml")], rss("broken")),
    })
    .await;
    for (path, code, word) in [("/missing", 404, "not found"), ("/error", 500, "broken")] {
        let f = fetch(&server.url(path), &opts()).await.unwrap();
        assert_eq!(f.http.as_ref().unwrap().status, code);
        let parsed = f.parse().unwrap();
        assert_eq!(parsed.decoded.encoding, "utf-8");
        assert!(parsed.decoded.text.contains(word));
    }
}

#[tokio::test]
async fn a_connection_reset_mid_body_is_never_lost() {
    let server = serve(|_| Reply::Cut {
        headers: vec![("Content-Type".into(), "application/xml".into())],
        body: b"<rss><channel><title>cut".to_vec(),
        declared: 10_000,
    })
    .await;
    match fetch(&server.url("/cut"), &opts()).await {
        Ok(f) => {
            assert_eq!(
                kinds(&f),
                [BozoKind::Transport],
                "a short body must be flagged"
            );
            assert!(f.body.starts_with(b"<rss>"));
            assert!(f.parse().unwrap().is_bozo());
        }
        Err(e) => {
            assert!(
                matches!(e, FetchError::Protocol { .. } | FetchError::Connect { .. }),
                "{e:?}"
            )
        }
    }
}

#[tokio::test]
async fn refused_connection_is_a_typed_error() {
    let url = format!("http://127.0.0.1:{}/feed", closed_port());
    let err = fetch(&url, &opts()).await.unwrap_err();
    assert!(matches!(err, FetchError::Refused { .. }), "{err:?}");
}

#[tokio::test]
async fn tls_to_a_plain_http_server_is_a_typed_error() {
    let server = serve(|_| ok(&[], "plain")).await;
    // Our server waits for a request head, which a ClientHello never completes; answer
    // garbage on connect instead.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        while let Ok((mut s, _)) = listener.accept().await {
            let _ = s
                .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                .await;
        }
    });
    let err = fetch(&format!("https://{addr}/feed"), &opts())
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::Tls { .. }), "{err:?}");
    drop(server);
}

#[tokio::test]
async fn feed_and_file_urls() {
    let server = serve(|_| ok(&[], rss("feed scheme"))).await;
    let plain = server.url("/f");
    let via_feed = format!("feed://{}", plain.trim_start_matches("http://"));
    let f = fetch(&via_feed, &opts()).await.unwrap();
    assert_eq!(f.href, plain);
    let f = fetch(&format!("feed:{plain}"), &opts()).await.unwrap();
    assert_eq!(f.http.as_ref().unwrap().status, 200);

    let dir = std::env::temp_dir().join(format!("feed-decoder-http-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("local.xml");
    std::fs::write(&path, rss("local")).unwrap();
    let url = format!("file://{}", path.display());
    let f = fetch(&url, &opts()).await.unwrap();
    assert!(f.http.is_none());
    assert_eq!(f.transport(), feed_decoder::Transport::Local);
    assert_eq!(f.json_fields().keys().collect::<Vec<_>>(), ["href"]);
    assert!(f.parse().unwrap().decoded.text.contains("local"));
    let err = fetch(
        &format!("file://{}", dir.join("missing.xml").display()),
        &opts(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, FetchError::File { .. }), "{err:?}");
    std::fs::remove_dir_all(&dir).unwrap();

    let err = fetch("gopher://127.0.0.1/", &opts()).await.unwrap_err();
    assert!(
        matches!(err, FetchError::UnsupportedScheme { .. }),
        "{err:?}"
    );
}

#[test]
fn fetch_blocking_outside_and_inside_a_runtime() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(serve(|_| ok(&[("ETag", "\"b\"")], rss("blocking"))));
    let f = fetch_blocking(&server.url("/b"), &opts()).unwrap();
    assert_eq!(f.http.as_ref().unwrap().etag.as_deref(), Some("\"b\""));
    // Inside a runtime it moves to a helper thread instead of panicking.
    let url = server.url("/b");
    let inner = rt
        .block_on(async move { fetch_blocking(&url, &opts()) })
        .unwrap();
    assert_eq!(inner.body, f.body);
}
