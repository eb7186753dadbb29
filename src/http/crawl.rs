//! Many feeds at once: bounded concurrency, one request at a time per host with a delay
//! between them, and exactly one [`CrawlResult`] per job.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use tokio::task::{Id, JoinError, JoinSet};

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
}

impl Default for CrawlOptions {
    fn default() -> Self {
        CrawlOptions {
            concurrency: 8,
            per_host_delay: Duration::from_millis(200),
            decoder: Decoder::default(),
            parse_options: ParseOptions::default(),
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
    /// on tokio's blocking pool, one per core, overlapping the next requests. Within a host,
    /// jobs run in list order. Must run inside a tokio runtime.
    pub async fn crawl(
        &self,
        jobs: Vec<CrawlJob>,
        mut on_result: impl FnMut(CrawlResult),
    ) -> usize {
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
        let mut to_parse: VecDeque<Fetch> = VecDeque::new();
        let mut delivered = 0;
        loop {
            while parsing.len() < parse_slots
                && let Some(f) = to_parse.pop_front()
            {
                let (index, url) = (f.index, f.url.clone());
                let options = Arc::clone(&self.options);
                let handle = parsing.spawn_blocking(move || f.parse(&options));
                parse_tasks.insert(handle.id(), (index, url));
            }
            let now = Instant::now();
            let backlog = |fetching: &JoinSet<Fetch>, to_parse: &VecDeque<Fetch>| {
                fetching.len() + to_parse.len() < limit
            };
            while backlog(&fetching, &to_parse) {
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
                    Some(Reverse((at, _))) => {
                        tokio::time::sleep_until((*at).into()).await;
                        continue;
                    }
                    None => break,
                }
            }
            // Wake for a finished task, or for the next host to come off its delay when a
            // slot is free.
            let next_ready = backlog(&fetching, &to_parse)
                .then(|| ready.peek().map(|Reverse((at, _))| *at))
                .flatten();
            let next = std::future::poll_fn(|cx| {
                if let Poll::Ready(Some(r)) = fetching.poll_join_next_with_id(cx) {
                    return Poll::Ready(Event::Fetched(r));
                }
                if let Poll::Ready(Some(r)) = parsing.poll_join_next_with_id(cx) {
                    return Poll::Ready(Event::Parsed(r));
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
                        ready.push(Reverse((Instant::now() + delay, host)));
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
            delivered += 1;
            on_result(result);
        }
        delivered
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
                    version: p.feed.version.clone(),
                    title: p.feed.feed.title.clone(),
                    entries: p.feed.entries.len(),
                    bozo: p.bozo().map(|b| b.kind).collect(),
                    first_bozo: p.bozo().next().map(ToString::to_string),
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
