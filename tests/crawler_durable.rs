//! The `feed-crawler` binary against a loopback server: a crawl stopped by SIGINT or
//! killed with SIGKILL loses nothing and cuts no line, a resumed crawl reports every URL
//! exactly once over the two runs, `Retry-After` and the feed's hints set the next fetch
//! time in the state database, and setup mistakes are reported up front.

#![cfg(unix)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{Reply, ok, rss, serve, status};

const BIN: &str = env!("CARGO_BIN_EXE_feed-crawler");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("feed-crawler-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn crawler(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args)
        .arg("--no-progress")
        .env("NO_PROXY", "*")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Waits for `child` at most `limit`, killing it after that (the test then fails).
fn wait_bounded(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "crawler still running after {limit:?}; stderr:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls until `path` holds at least `n` lines.
fn wait_for_lines(path: &Path, n: usize, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        let lines = std::fs::read_to_string(path)
            .map(|s| s.lines().count())
            .unwrap_or(0);
        if lines >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("fewer than {n} lines in {} after {limit:?}", path.display());
}

/// Every line of the output, parsed; panics on a cut or garbled line.
fn lines(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the output ends mid-line"
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("cut line {l:?}: {e}")))
        .collect()
}

fn db(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

/// The URLs marked done in crawl `crawl`.
fn done(path: &Path, crawl: i64) -> BTreeSet<String> {
    let c = db(path);
    let mut s = c.prepare("SELECT url FROM done WHERE crawl = ?1").unwrap();
    s.query_map([crawl], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// `n` feeds on one host (so they go one at a time, `--delay-ms` apart) and a stall.
fn feed_list(server: &common::Server, n: usize, dir: &Path) -> (PathBuf, Vec<String>) {
    let mut urls: Vec<String> = (0..n).map(|i| server.url(&format!("/f/{i}"))).collect();
    urls.push(server.url("/stall"));
    let list = dir.join("urls.txt");
    std::fs::write(&list, urls.join("\n")).unwrap();
    (list, urls)
}

fn handler(req: &common::Request) -> Reply {
    match req.path.as_str() {
        "/stall" => Reply::Stall,
        p => ok(
            &[("Content-Type", "application/rss+xml"), ("ETag", "\"v1\"")],
            rss(p),
        ),
    }
}

/// Checks a stopped run and its resumed run: nothing cut, every URL of the first run in
/// the database, and every URL reported exactly once over both runs.
fn check_two_runs(out: &Path, state: &Path, urls: &[String], first_run_lines: usize) {
    let all = lines(out);
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &all {
        *count.entry(v["url"].as_str().unwrap()).or_default() += 1;
        assert_eq!(v["crawl"], 1, "both runs are crawl #1");
    }
    for u in urls {
        assert_eq!(
            count.get(u.as_str()),
            Some(&1),
            "{u} reported once: {count:?}"
        );
    }
    assert_eq!(all.len(), urls.len());
    let in_db = done(state, 1);
    assert_eq!(in_db.len(), urls.len(), "every URL done in the database");
    let finished: Option<i64> = db(state)
        .query_row("SELECT finished FROM crawls WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert!(finished.is_some(), "the resumed crawl is finished");
    assert!(first_run_lines > 0 && first_run_lines < urls.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_stops_cleanly_and_resume_reports_the_rest_once() {
    let server = serve(handler).await;
    let dir = temp_dir("sigint");
    let (list, urls) = feed_list(&server, 40, &dir);
    let (out, state) = (dir.join("out.jsonl"), dir.join("state.db"));
    let o = out.to_str().unwrap();
    let s = state.to_str().unwrap();
    let l = list.to_str().unwrap();
    let child = crawler(&[
        l,
        "--state",
        s,
        "-o",
        o,
        "--delay-ms",
        "60",
        "--timeout",
        "30",
        "--grace",
        "1",
    ])
    .spawn()
    .unwrap();
    let pid = child.id().to_string();
    tokio::task::spawn_blocking({
        let out = out.clone();
        move || wait_for_lines(&out, 5, Duration::from_secs(20))
    })
    .await
    .unwrap();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let t = Instant::now();
    let result = tokio::task::spawn_blocking(move || wait_bounded(child, Duration::from_secs(20)))
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(130), "{stderr}");
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "the grace period holds"
    );
    assert!(stderr.contains("--resume"), "{stderr}");
    let first = lines(&out);
    // Every finished URL is in the output and in the database, with its validators.
    let reported: BTreeSet<String> = first
        .iter()
        .map(|v| v["url"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(reported, done(&state, 1));
    let conn = db(&state);
    for u in &reported {
        let etag: Option<String> = conn
            .query_row("SELECT etag FROM feeds WHERE url = ?1", [u], |r| r.get(0))
            .unwrap();
        assert_eq!(etag.as_deref(), Some("\"v1\""), "{u}");
    }
    drop(conn);
    // The stall was in flight or not started: it comes in the resumed run.
    assert!(!reported.contains(urls.last().unwrap()));

    let child = crawler(&[
        l,
        "--state",
        s,
        "-o",
        o,
        "--delay-ms",
        "0",
        "--timeout",
        "1",
        "--resume",
    ])
    .spawn()
    .unwrap();
    let result = tokio::task::spawn_blocking(move || wait_bounded(child, Duration::from_secs(30)))
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(stderr.contains("resuming crawl #1"), "{stderr}");
    check_two_runs(&out, &state, &urls, first.len());
    let stall = lines(&out)
        .into_iter()
        .find(|v| v["url"] == urls.last().unwrap().as_str())
        .unwrap();
    assert_eq!(stall["error"], "timeout");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_cuts_no_line_and_resume_reports_every_url_once() {
    let server = serve(handler).await;
    let dir = temp_dir("kill9");
    let (list, urls) = feed_list(&server, 40, &dir);
    let (out, state) = (dir.join("out.jsonl"), dir.join("state.db"));
    let o = out.to_str().unwrap();
    let s = state.to_str().unwrap();
    let l = list.to_str().unwrap();
    let mut child = crawler(&[
        l,
        "--state",
        s,
        "-o",
        o,
        "--delay-ms",
        "30",
        "--timeout",
        "30",
    ])
    .spawn()
    .unwrap();
    tokio::task::spawn_blocking({
        let out = out.clone();
        move || wait_for_lines(&out, 8, Duration::from_secs(20))
    })
    .await
    .unwrap();
    child.kill().unwrap();
    let result = child.wait_with_output().unwrap();
    assert!(!result.status.success());
    let first = lines(&out);
    // The database commit comes right after the line: it may lag by the one result being
    // recorded when the kill came, never more, and never lead.
    let in_db = done(&state, 1);
    let reported: BTreeSet<String> = first
        .iter()
        .map(|v| v["url"].as_str().unwrap().to_owned())
        .collect();
    assert!(in_db.is_subset(&reported), "{in_db:?} ⊄ {reported:?}");
    assert!(reported.len() - in_db.len() <= 1);

    let child = crawler(&[
        l,
        "--state",
        s,
        "-o",
        o,
        "--delay-ms",
        "0",
        "--timeout",
        "1",
        "--resume",
    ])
    .spawn()
    .unwrap();
    let result = tokio::task::spawn_blocking(move || wait_bounded(child, Duration::from_secs(30)))
        .await
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    check_two_runs(&out, &state, &urls, first.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_sigterm_exits_at_once_without_cutting_a_line() {
    let server = serve(handler).await;
    let dir = temp_dir("sigterm");
    // A stall first on the one host, the rest behind it: with a 60 s grace, only the
    // second signal can end the run early.
    let mut urls: Vec<String> = (0..6).map(|i| server.url(&format!("/f/{i}"))).collect();
    urls.insert(0, server.url("/stall"));
    let list = dir.join("urls.txt");
    std::fs::write(&list, urls.join("\n")).unwrap();
    let (out, state) = (dir.join("out.jsonl"), dir.join("state.db"));
    let child = crawler(&[
        list.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--timeout",
        "60",
        "--grace",
        "60",
    ])
    .spawn()
    .unwrap();
    let pid = child.id().to_string();
    // The stall is first on its host: wait until it is in flight.
    let start = Instant::now();
    while server.requests().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "no request");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let term = || {
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        )
    };
    term();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = Instant::now();
    term();
    let result = tokio::task::spawn_blocking(move || wait_bounded(child, Duration::from_secs(20)))
        .await
        .unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "the second signal ends the grace"
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(128 + 15), "{stderr}");
    assert!(stderr.contains("1 dropped in flight"), "{stderr}");
    let reported = lines(&out);
    assert!(reported.iter().all(|v| v["url"] != urls[0].as_str()));
    let in_db = done(&state, 1);
    assert_eq!(in_db.len(), reported.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn sched_handler(req: &common::Request) -> Reply {
    let xml = ("Content-Type", "application/rss+xml");
    match req.path.as_str() {
        "/throttled" => status(429, &[("Retry-After", "7200")], "slow down"),
        "/unavailable" => status(503, &[], "down"),
        "/cached" => ok(&[xml, ("Cache-Control", "max-age=10800")], rss("cached")),
        "/ttl" => ok(
            &[xml],
            "<rss version=\"2.0\"><channel><title>t</title><ttl>1440</ttl></channel></rss>",
        ),
        p => ok(&[xml], rss(p)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_and_hints_set_the_next_fetch_and_due_skips_the_rest() {
    let server = serve(sched_handler).await;
    let dir = temp_dir("schedule");
    // One host, jobs in list order: the 429 comes last, as its Retry-After pauses the host.
    let paths = ["/unavailable", "/cached", "/ttl", "/plain", "/throttled"];
    let urls: Vec<String> = paths.iter().map(|p| server.url(p)).collect();
    let list = dir.join("urls.txt");
    std::fs::write(&list, urls.join("\n")).unwrap();
    let state = dir.join("state.db");
    let args = [
        list.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
        "--delay-ms",
        "0",
    ];
    let before = now();
    let run = |extra: &[&str]| {
        let mut a = args.to_vec();
        a.extend_from_slice(extra);
        crawler(&a).spawn().unwrap()
    };
    let result = tokio::task::spawn_blocking({
        let child = run(&[]);
        move || wait_bounded(child, Duration::from_secs(30))
    })
    .await
    .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let stdout = String::from_utf8(result.stdout).unwrap();
    assert_eq!(stdout.lines().count(), paths.len(), "JSON lines on stdout");
    let after = now();
    let conn = db(&state);
    let row = |p: &str| -> (i64, u32, Option<u16>) {
        conn.query_row(
            "SELECT next_fetch, failures, last_status FROM feeds WHERE url = ?1",
            [server.url(p)],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    let within = |p: &str, secs: i64| {
        let (next, _, _) = row(p);
        assert!(
            next >= before + secs && next <= after + secs,
            "{p}: next fetch {next} not {secs} s after [{before}, {after}]"
        );
    };
    within("/throttled", 7200); // Retry-After
    within("/unavailable", 300); // first backoff step
    within("/cached", 10800); // Cache-Control max-age
    within("/ttl", 86_400); // RSS ttl in minutes
    within("/plain", 3600); // the default interval
    assert_eq!(row("/throttled").1, 1);
    assert_eq!(row("/throttled").2, Some(429));
    assert_eq!(row("/plain").1, 0);
    drop(conn);

    // Nothing is due now: a --due run fetches nothing.
    let requests = server.requests().len();
    let result = tokio::task::spawn_blocking({
        let child = run(&["--due"]);
        move || wait_bounded(child, Duration::from_secs(30))
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(stderr.contains("0 feeds due, 5 not due yet"), "{stderr}");
    assert_eq!(server.requests().len(), requests);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_that_moved_for_good_is_fetched_where_it_went() {
    let server = serve(|req: &common::Request| match req.path.as_str() {
        "/old" => common::redirect(301, "/new"),
        p => ok(&[("Content-Type", "application/rss+xml")], rss(p)),
    })
    .await;
    let dir = temp_dir("moved");
    let list = dir.join("urls.txt");
    std::fs::write(&list, server.url("/old")).unwrap();
    let state = dir.join("state.db");
    let args = [
        list.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
        "--delay-ms",
        "0",
    ];
    let mut outputs = Vec::new();
    for _ in 0..2 {
        let child = crawler(&args).spawn().unwrap();
        let out = tokio::task::spawn_blocking(move || wait_bounded(child, Duration::from_secs(30)))
            .await
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        outputs.push(String::from_utf8(out.stdout).unwrap());
    }
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        ["/old", "/new", "/new"],
        "the second run goes straight to /new"
    );
    let second: serde_json::Value = serde_json::from_str(outputs[1].trim()).unwrap();
    assert_eq!(
        second["url"],
        server.url("/old"),
        "reported under the listed URL"
    );
    assert_eq!(second["fetched_url"], server.url("/new"));
    let moved: Option<String> = db(&state)
        .query_row("SELECT permanent_url FROM feeds", [], |r| r.get(0))
        .unwrap();
    assert_eq!(moved, Some(server.url("/new")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn setup_mistakes_are_reported_up_front() {
    let dir = temp_dir("setup");
    let list = dir.join("urls.txt");
    std::fs::write(&list, "http://127.0.0.1:9/feed\n").unwrap();
    let l = list.to_str().unwrap();
    let run = |args: &[&str]| crawler(args).output().unwrap();
    let check = |out: Output, code: i32, needle: &str| {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    };
    let missing = dir.join("no/such/dir/out.jsonl");
    check(
        run(&[l, "-o", missing.to_str().unwrap()]),
        2,
        "cannot open output",
    );
    let bad_state = dir.join("no/such/dir/state.db");
    check(
        run(&[l, "--state", bad_state.to_str().unwrap()]),
        2,
        "cannot use state database",
    );
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing here\n\n").unwrap();
    check(run(&[empty.to_str().unwrap()]), 1, "no URLs to crawl");
    check(run(&[l, "--concurrency", "0"]), 2, "--concurrency");
    check(
        run(&[l, "--header", "Content Type: text/xml"]),
        2,
        "invalid request header \"Content Type\"",
    );
    check(run(&[l, "--header", "X-A: one\ntwo"]), 2, "line break");
    check(run(&[l, "--resume"]), 2, "--state");
    let old = dir.join("old.json");
    std::fs::write(&old, r#"{"http://a/": {"etag": "\"e\""}}"#).unwrap();
    check(
        run(&[l, "--state", old.to_str().unwrap()]),
        2,
        "--import-json",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn unwritable_state_is_reported_before_the_crawl() {
    // A read-only database file (root ignores file modes, so skip when it can write).
    let dir = temp_dir("readonly");
    let state = dir.join("state.db");
    std::fs::write(&state, b"").unwrap();
    let mut perms = std::fs::metadata(&state).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&state, perms).unwrap();
    if std::fs::OpenOptions::new().write(true).open(&state).is_ok() {
        eprintln!("running as root: read-only files are writable; skipping");
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    }
    let list = dir.join("urls.txt");
    std::fs::write(&list, "http://127.0.0.1:9/feed\n").unwrap();
    let out = crawler(&[list.to_str().unwrap(), "--state", state.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("state database"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing crawled");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn demo_prints_a_summary_and_jsonl_on_request() {
    let dir = temp_dir("demo");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("plain.xml"), rss("plain")).unwrap();
    std::fs::write(
        dir.join("sub/gz.xml"),
        "<?xml version=\"1.0\"?>\n<!--\nHeader: Content-Encoding: gzip\nHeader: ETag: \"e1\"\n-->\n<rss/>",
    )
    .unwrap();
    std::fs::write(dir.join("sub/gone.xml"), "<!--\nStatus: 404\n-->\n<rss/>").unwrap();
    let demo = |extra: &[&str]| {
        let mut args = vec!["--demo", "--delay-ms", "0", "--timeout", "1", "--feeds"];
        args.push(dir.to_str().unwrap());
        args.extend_from_slice(extra);
        let mut c = crawler(&args);
        c.output().unwrap()
    };
    // Without --jsonl: the summary only.
    let out = demo(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("demo pass 2"), "{stderr}");
    assert!(
        stderr.contains("one at a time"),
        "says why it is slow: {stderr}"
    );

    let state = dir.join("state.db");
    let out = demo(&["--jsonl", "--state", state.to_str().unwrap()]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // 3 fixtures + stall, cut, loop, missing, refused; two passes.
    assert_eq!(lines.len(), 16, "{stdout}");
    let pass2 = &lines[8..];
    let by_url = |suffix: &str| {
        pass2
            .iter()
            .find(|v| v["url"].as_str().unwrap().ends_with(suffix))
            .unwrap()
    };
    assert_eq!(
        by_url("/sub/gz.xml")["status"],
        304,
        "second pass is conditional"
    );
    assert_eq!(by_url("/plain.xml")["status"], 304);
    assert_eq!(by_url("/sub/gone.xml")["status"], 404);
    assert_eq!(by_url("/broken/stall")["error"], "timeout");
    assert_eq!(by_url("/broken/loop-a")["error"], "redirect-loop");
    assert_eq!(by_url("/refused.xml")["error"], "refused");
    let first_gz = lines[..8]
        .iter()
        .find(|v| v["url"].as_str().unwrap().ends_with("/sub/gz.xml"))
        .unwrap();
    assert_eq!(first_gz["status"], 200);
    assert_eq!(first_gz["etag"], "\"e1\"");
    assert!(
        first_gz["wire_bytes"].as_u64() != first_gz["bytes"].as_u64(),
        "served compressed"
    );
    let etag: Option<String> = db(&state)
        .query_row(
            "SELECT etag FROM feeds WHERE url LIKE '%/sub/gz.xml'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(etag.as_deref(), Some("\"e1\""));
    std::fs::remove_dir_all(&dir).unwrap();
}
