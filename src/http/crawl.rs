//! Many feeds at once: bounded concurrency, one request at a time per host with a delay
//! between them, and exactly one [`CrawlResult`] per job.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::task::Poll;
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use tokio::task::{Id, JoinError, JoinSet};

use super::schedule::RefreshHints;
use super::{FetchError, Fetched, Fetcher, Validators, normalize_url};
use crate::bozo::BozoKind;
use crate::decode::Decoder;
use crate::parse::ParseOptions;

/// One URL to crawl, with the validators from the last crawl.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrawlJob {
    /// The URL (`http`, `https`, `feed:` or `file:`).
    pub url: String,
    /// Sent as a conditional GET.
    pub validators: Validators,
}

impl CrawlJob {
    /// A job without validators.
    #[must_use]
    pub fn new(url: impl Into<String>) -> Self {
        CrawlJob {
            url: url.into(),
            validators: Validators::default(),
        }
    }

    /// The same job with validators.
    #[must_use]
    pub fn with_validators(mut self, validators: Validators) -> Self {
        self.validators = validators;
        self
    }
}

/// Options for a [`Crawler`].
#[derive(Clone, Debug)]
#[non_exhaustive]
#[must_use]
pub struct CrawlOptions {
    /// Requests in flight at once, over all hosts (at least 1). Default: 8.
    pub concurrency: usize,
    /// Pause between the end of one request to a host and the start of the next one to
    /// the same host. Default: 200 ms.
    pub per_host_delay: Duration,
    /// Decoder for the bodies. Default: [`Decoder::default`].
    pub decoder: Decoder,
    /// Parser options. Default: [`ParseOptions::default`].
    pub parse_options: ParseOptions,
    /// The least time a parse gets, even when the fetch used up its timeout. Default: 1 s.
    pub min_parse_time: Duration,
    /// The longest a `Retry-After` on `429`/`503` pauses its host within one crawl.
    /// Default: 5 s (the next fetch time an aggregator stores can honour the rest).
    pub max_host_pause: Duration,
}

impl Default for CrawlOptions {
    fn default() -> Self {
        CrawlOptions {
            concurrency: 8,
            per_host_delay: Duration::from_millis(200),
            decoder: Decoder::default(),
            parse_options: ParseOptions::default(),
            min_parse_time: Duration::from_secs(1),
            max_host_pause: Duration::from_secs(5),
        }
    }
}

impl CrawlOptions {
    /// The default options.
    pub fn new() -> Self {
        CrawlOptions::default()
    }
    /// Sets [`CrawlOptions::concurrency`].
    pub fn concurrency(mut self, value: usize) -> Self {
        self.concurrency = value.max(1);
        self
    }
    /// Sets [`CrawlOptions::per_host_delay`].
    pub fn per_host_delay(mut self, value: Duration) -> Self {
        self.per_host_delay = value;
        self
    }
    /// Sets [`CrawlOptions::decoder`].
    pub fn decoder(mut self, value: Decoder) -> Self {
        self.decoder = value;
        self
    }
    /// Sets [`CrawlOptions::parse_options`].
    pub fn parse_options(mut self, value: ParseOptions) -> Self {
        self.parse_options = value;
        self
    }
    /// Sets [`CrawlOptions::min_parse_time`].
    pub fn min_parse_time(mut self, value: Duration) -> Self {
        self.min_parse_time = value;
        self
    }
    /// Sets [`CrawlOptions::max_host_pause`].
    pub fn max_host_pause(mut self, value: Duration) -> Self {
        self.max_host_pause = value;
        self
    }
}

/// What parsing a crawled feed gave, in brief.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FeedSummary {
    /// The encoding as feedparser reports it.
    pub encoding: String,
    /// feedparser's version string.
    pub version: String,
    /// The feed's title.
    pub title: Option<String>,
    /// How many entries.
    pub entries: usize,
    /// The kind of every bozo record (transport records first).
    pub bozo: Vec<BozoKind>,
    /// The first bozo record's message.
    pub first_bozo: Option<String>,
    /// What the feed says about how often to poll it.
    pub refresh: RefreshHints,
}

/// The outcome of one [`CrawlJob`].
#[derive(Debug)]
#[non_exhaustive]
pub struct CrawlResult {
    /// The job's position in the list given to [`Crawler::crawl`].
    pub index: usize,
    /// The job's URL.
    pub url: String,
    /// The fetch, or the transport failure.
    pub outcome: Result<Fetched, FetchError>,
    /// The parse summary; `None` on failure and on `304 Not Modified`.
    pub summary: Option<FeedSummary>,
    /// Time from the start of the crawl until this job's request began (waiting for its
    /// host and a free slot).
    pub wait: Duration,
    /// Time spent fetching.
    pub fetch_time: Duration,
    /// Time spent decoding and parsing.
    pub parse_time: Duration,
}

/// Tells a running [`Crawler::crawl_until`] to stop: [`StopSignal::stop`] starts no new
/// request and lets those in flight finish; [`StopSignal::abort`] returns at once,
/// dropping what is in flight. Cheap to clone; every clone is the same signal.
#[derive(Clone, Debug, Default)]
pub struct StopSignal {
    inner: Arc<StopInner>,
}

#[derive(Debug, Default)]
struct StopInner {
    /// 0 running, 1 stopping, 2 aborted.
    state: AtomicU8,
    notify: Notify,
}

impl StopSignal {
    /// A signal not raised yet.
    #[must_use]
    pub fn new() -> Self {
        StopSignal::default()
    }
    /// Start no new request; the crawl returns when those in flight are done.
    pub fn stop(&self) {
        let _ = self
            .inner
            .state
            .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst);
        self.inner.notify.notify_waiters();
    }
    /// Return at once; requests and parses in flight are dropped unreported.
    pub fn abort(&self) {
        self.inner.state.store(2, Ordering::SeqCst);
        self.inner.notify.notify_waiters();
    }
    /// True once [`StopSignal::stop`] or [`StopSignal::abort`] was called.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.inner.state.load(Ordering::SeqCst) >= 1
    }
    /// True once [`StopSignal::abort`] was called.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.inner.state.load(Ordering::SeqCst) >= 2
    }
}

/// How a crawl ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CrawlReport {
    /// Results delivered to the callback.
    pub delivered: usize,
    /// Jobs never started because the crawl was stopped.
    pub not_started: usize,
    /// Jobs started but dropped unreported by [`StopSignal::abort`].
    pub abandoned: usize,
}

/// Fetches many feeds: at most [`CrawlOptions::concurrency`] requests at once, one at a
/// time per host, [`CrawlOptions::per_host_delay`] apart.
#[derive(Clone, Debug)]
pub struct Crawler {
    fetcher: Fetcher,
    options: Arc<CrawlOptions>,
}

impl Crawler {
    /// A crawler using `fetcher`'s client and options.
    pub fn new(fetcher: Fetcher, options: CrawlOptions) -> Self {
        Crawler {
            fetcher,
            options: Arc::new(options),
        }
    }

    /// Crawls `jobs`, calling `on_result` once per job as each finishes (in completion
    /// order); returns the number of results delivered, always `jobs.len()`. A task that
    /// panics is reported as [`FetchError::Internal`], so no job is lost.
    ///
    /// Jobs wait as plain data in one queue per host; at most
    /// [`CrawlOptions::concurrency`] bodies are in flight or waiting to be parsed, so memory
    /// does not grow with the length of the list beyond the jobs themselves. A host is
    /// free again (after its delay) as soon as its body is read: decoding and parsing run
    /// on tokio's blocking pool, one per core, overlapping the next requests. Parsing has
    /// what is left of the fetch timeout (at least [`CrawlOptions::min_parse_time`]); a
    /// parse that takes longer is reported as [`FetchError::ParseTimeout`] and its slot
    /// is freed at once (the thread runs on to its end; at most twice the cores of parse
    /// threads live at once, those given up on included, so memory stays near
    /// (concurrency + 2 × cores) × (body cap + parse)). Within a host, jobs run in list
    /// order. A `429` or `503` with `Retry-After` pauses its host for that long (at most
    /// [`CrawlOptions::max_host_pause`]). Must run inside a tokio runtime.
    pub async fn crawl(&self, jobs: Vec<CrawlJob>, on_result: impl FnMut(CrawlResult)) -> usize {
        self.crawl_until(jobs, &StopSignal::new(), on_result)
            .await
            .delivered
    }

    /// [`Crawler::crawl`] that can be stopped from outside: once `stop` is raised no new
    /// request starts; [`StopSignal::stop`] waits for those in flight (and their parse),
    /// [`StopSignal::abort`] returns at once. `on_result` is never interrupted: a result
    /// is delivered whole or not at all.
    pub async fn crawl_until(
        &self,
        jobs: Vec<CrawlJob>,
        stop: &StopSignal,
        mut on_result: impl FnMut(CrawlResult),
    ) -> CrawlReport {
        let limit = self.options.concurrency.max(1);
        let delay = self.options.per_host_delay;
        let started = Instant::now();
        let mut hosts: HashMap<String, VecDeque<(usize, CrawlJob)>> = HashMap::new();
        for (index, job) in jobs.into_iter().enumerate() {
            hosts
                .entry(host_key(&job.url))
                .or_default()
                .push_back((index, job));
        }
        // Idle hosts with work, earliest allowed start first.
        let mut ready: BinaryHeap<Reverse<(Instant, String)>> = hosts
            .keys()
            .map(|h| Reverse((started, h.clone())))
            .collect();
        let mut fetching: JoinSet<Fetch> = JoinSet::new();
        let mut parsing: JoinSet<CrawlResult> = JoinSet::new();
        let mut fetch_tasks: HashMap<Id, (usize, String, String)> = HashMap::new();
        let mut parse_tasks: HashMap<Id, (usize, String)> = HashMap::new();
        // Parsing is CPU work: one blocking thread per core, the rest queued as data.
        let parse_slots = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Parse threads still running, those given up on included: at most twice the
        // slots, so that abandoned parses cannot pile up memory or CPU.
        let alive = Arc::new(AtomicUsize::new(0));
        let parse_room = |parsing: &JoinSet<CrawlResult>| {
            parsing.len() < parse_slots && alive.load(Ordering::SeqCst) < 2 * parse_slots
        };
        let mut to_parse: VecDeque<Fetch> = VecDeque::new();
        let mut report = CrawlReport::default();
        let fetch_timeout = self.fetcher.options().timeout;
        loop {
            let notified = stop.inner.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if stop.is_aborted() {
                report.abandoned = fetching.len() + parsing.len() + to_parse.len();
                break;
            }
            while parse_room(&parsing)
                && let Some(f) = to_parse.pop_front()
            {
                let (index, url) = (f.index, f.url.clone());
                let budget = fetch_timeout
                    .saturating_sub(f.fetch_time)
                    .max(self.options.min_parse_time);
                let options = Arc::clone(&self.options);
                let handle = parsing.spawn(parse_within(f, options, budget, Arc::clone(&alive)));
                parse_tasks.insert(handle.id(), (index, url));
            }
            let now = Instant::now();
            let backlog = |fetching: &JoinSet<Fetch>, to_parse: &VecDeque<Fetch>| {
                fetching.len() + to_parse.len() < limit
            };
            while !stop.is_stopped() && backlog(&fetching, &to_parse) {
                match ready.peek() {
                    Some(Reverse((at, _))) if *at <= now => {}
                    _ => break,
                }
                let Some(Reverse((_, host))) = ready.pop() else {
                    break;
                };
                let Some((index, job)) = hosts.get_mut(&host).and_then(VecDeque::pop_front) else {
                    continue;
                };
                let (fetcher, url) = (self.fetcher.clone(), job.url.clone());
                let wait = started.elapsed();
                let task_host = host.clone();
                let handle = fetching.spawn(async move {
                    let t = Instant::now();
                    let outcome = fetcher.fetch_with(&job.url, &job.validators).await;
                    Fetch {
                        index,
                        url: job.url,
                        outcome,
                        wait,
                        fetch_time: t.elapsed(),
                        host: task_host,
                    }
                });
                fetch_tasks.insert(handle.id(), (index, url, host));
            }
            if fetching.is_empty() && parsing.is_empty() && to_parse.is_empty() {
                match ready.peek() {
                    Some(Reverse((at, _))) if !stop.is_stopped() => {
                        let _ = tokio::time::timeout_at((*at).into(), notified).await;
                        continue;
                    }
                    _ => break,
                }
            }
            // Wake for a finished task, for a stop, or for the next host to come off its
            // delay when a slot is free.
            let next_ready = (!stop.is_stopped() && backlog(&fetching, &to_parse))
                .then(|| ready.peek().map(|Reverse((at, _))| *at))
                .flatten();
            // Bodies waiting for a parse thread given up on to end: look again soon.
            let next_ready = if to_parse.is_empty() || parse_room(&parsing) {
                next_ready
            } else {
                let soon = Instant::now() + Duration::from_millis(50);
                Some(next_ready.map_or(soon, |at| at.min(soon)))
            };
            let next = std::future::poll_fn(|cx| {
                if let Poll::Ready(Some(r)) = fetching.poll_join_next_with_id(cx) {
                    return Poll::Ready(Some(Event::Fetched(r)));
                }
                if let Poll::Ready(Some(r)) = parsing.poll_join_next_with_id(cx) {
                    return Poll::Ready(Some(Event::Parsed(r)));
                }
                if notified.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(None);
                }
                Poll::Pending
            });
            let event = match next_ready {
                Some(at) => match tokio::time::timeout_at(at.into(), next).await {
                    Ok(e) => e,
                    Err(_) => continue,
                },
                None => next.await,
            };
            let Some(event) = event else {
                continue;
            };
            let result = match event {
                Event::Fetched(joined) => {
                    let (fetch, host) = match joined {
                        Ok((id, fetch)) => {
                            fetch_tasks.remove(&id);
                            let host = fetch.host.clone();
                            (Ok(fetch), host)
                        }
                        Err(e) => {
                            let (index, url, host) =
                                fetch_tasks.remove(&e.id()).unwrap_or_default();
                            (Err(failed(index, url, e.to_string())), host)
                        }
                    };
                    if hosts.get(&host).is_some_and(|q| !q.is_empty()) {
                        let pause = fetch
                            .as_ref()
                            .ok()
                            .and_then(Fetch::throttled_for)
                            .map_or(delay, |p| p.min(self.options.max_host_pause).max(delay));
                        ready.push(Reverse((Instant::now() + pause, host)));
                    }
                    match fetch {
                        Ok(f) if f.outcome.as_ref().is_ok_and(|r| !r.not_modified()) => {
                            to_parse.push_back(f);
                            continue;
                        }
                        Ok(f) => f.unparsed(),
                        Err(r) => r,
                    }
                }
                Event::Parsed(Ok((id, r))) => {
                    parse_tasks.remove(&id);
                    r
                }
                Event::Parsed(Err(e)) => {
                    let (index, url) = parse_tasks.remove(&e.id()).unwrap_or_default();
                    failed(index, url, e.to_string())
                }
            };
            report.delivered += 1;
            on_result(result);
        }
        report.not_started = hosts.values().map(VecDeque::len).sum();
        report
    }
}

/// Counts one running parse thread while it lives (a panic included).
struct Alive(Arc<AtomicUsize>);

impl Alive {
    fn new(count: Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Alive(count)
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Parses `f` on the blocking pool, giving up after `budget`: the slot is freed and the
/// job reported as [`FetchError::ParseTimeout`] (the parse thread finishes on its own and
/// its result is dropped).
async fn parse_within(
    f: Fetch,
    options: Arc<CrawlOptions>,
    budget: Duration,
    alive: Arc<AtomicUsize>,
) -> CrawlResult {
    let (index, url, wait, fetch_time) = (f.index, f.url.clone(), f.wait, f.fetch_time);
    let guard = Alive::new(alive);
    let task = tokio::task::spawn_blocking(move || {
        let _guard = guard;
        f.parse(&options)
    });
    match tokio::time::timeout(budget, task).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => failed(index, url, e.to_string()),
        Err(_) => CrawlResult {
            index,
            url: url.clone(),
            outcome: Err(FetchError::ParseTimeout { url, after: budget }),
            summary: None,
            wait,
            fetch_time,
            parse_time: budget,
        },
    }
}

/// A finished fetch, before parsing.
struct Fetch {
    index: usize,
    url: String,
    outcome: Result<Fetched, FetchError>,
    wait: Duration,
    fetch_time: Duration,
    host: String,
}

impl Fetch {
    /// The `Retry-After` delay of a `429` or `503` answer.
    fn throttled_for(&self) -> Option<Duration> {
        let http = self.outcome.as_ref().ok()?.http.as_ref()?;
        if !matches!(http.final_status, 429 | 503) {
            return None;
        }
        super::schedule::retry_after(&http.headers, super::schedule::now())
    }

    fn unparsed(self) -> CrawlResult {
        CrawlResult {
            index: self.index,
            url: self.url,
            outcome: self.outcome,
            summary: None,
            wait: self.wait,
            fetch_time: self.fetch_time,
            parse_time: Duration::ZERO,
        }
    }

    fn parse(self, options: &CrawlOptions) -> CrawlResult {
        let t = Instant::now();
        let summary = self.outcome.as_ref().ok().and_then(|f| {
            f.parse_with(&options.decoder, &options.parse_options)
                .map(|p| FeedSummary {
                    encoding: p.decoded.encoding.clone(),
                    version: p.version.clone(),
                    title: p.feed.title.as_deref().map(str::to_owned),
                    entries: p.entries.len(),
                    bozo: p.bozo.iter().map(|b| b.kind).collect(),
                    first_bozo: p.bozo.first().map(ToString::to_string),
                    refresh: RefreshHints::from_parsed(&p),
                })
        });
        let parse_time = t.elapsed();
        CrawlResult {
            summary,
            parse_time,
            ..self.unparsed()
        }
    }
}

// One event at a time, moved straight out: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Event {
    Fetched(Result<(Id, Fetch), JoinError>),
    Parsed(Result<(Id, CrawlResult), JoinError>),
}

fn failed(index: usize, url: String, message: String) -> CrawlResult {
    CrawlResult {
        index,
        url: url.clone(),
        outcome: Err(FetchError::Internal { url, message }),
        summary: None,
        wait: Duration::ZERO,
        fetch_time: Duration::ZERO,
        parse_time: Duration::ZERO,
    }
}

/// The politeness key: the lower-cased host (`""` for `file:` and unparseable URLs).
fn host_key(url: &str) -> String {
    normalize_url(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .unwrap_or_default()
}
