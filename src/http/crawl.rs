//! Many feeds at once: bounded concurrency, one request at a time per host with a delay
//! between them, and exactly one [`CrawlResult`] per job.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

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
        CrawlJob { url: url.into(), validators: Validators::default() }
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
        Crawler { fetcher, options: Arc::new(options) }
    }

    /// Crawls `jobs`, calling `on_result` once per job as each finishes (in completion
    /// order); returns the number of results delivered, always `jobs.len()`. A task that
    /// panics is reported as [`FetchError::Internal`], so no job is lost.
    ///
    /// Jobs wait as plain data in one queue per host; at most
    /// [`CrawlOptions::concurrency`] tasks exist at any time, so memory does not grow with
    /// the length of the list beyond the jobs themselves. Within a host, jobs run in list
    /// order. Must run inside a tokio runtime (tasks are spawned on it).
    pub async fn crawl(
        &self,
        jobs: Vec<CrawlJob>,
        mut on_result: impl FnMut(CrawlResult),
    ) -> usize {
        let limit = self.options.concurrency.max(1);
        let delay = self.options.per_host_delay;
        let queued_at = Instant::now();
        let mut hosts: HashMap<String, Host> = HashMap::new();
        for (index, job) in jobs.into_iter().enumerate() {
            hosts.entry(host_key(&job.url)).or_default().queue.push_back((index, job));
        }
        // Idle hosts with work, earliest allowed start first.
        let mut ready: BinaryHeap<Reverse<(Instant, String)>> =
            hosts.keys().map(|h| Reverse((queued_at, h.clone()))).collect();
        let mut running = JoinSet::new();
        let mut by_task: HashMap<tokio::task::Id, (usize, String, String)> = HashMap::new();
        let mut delivered = 0;
        loop {
            let now = Instant::now();
            while running.len() < limit {
                match ready.peek() {
                    Some(Reverse((at, _))) if *at <= now => {}
                    _ => break,
                }
                let Some(Reverse((_, host))) = ready.pop() else { break };
                let Some((index, job)) = hosts.get_mut(&host).and_then(|h| h.queue.pop_front())
                else {
                    continue;
                };
                let (fetcher, options) = (self.fetcher.clone(), Arc::clone(&self.options));
                let url = job.url.clone();
                let wait = queued_at.elapsed();
                let handle =
                    running.spawn(run_job(fetcher, options, index, job, wait, host.clone()));
                by_task.insert(handle.id(), (index, url, host));
            }
            if running.is_empty() {
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
            let next_ready =
                (running.len() < limit).then(|| ready.peek().map(|Reverse((at, _))| *at)).flatten();
            let joined = match next_ready {
                Some(at) => {
                    match tokio::time::timeout_at(at.into(), running.join_next_with_id()).await {
                        Ok(j) => j,
                        Err(_) => continue,
                    }
                }
                None => running.join_next_with_id().await,
            };
            let Some(joined) = joined else { continue };
            let (result, host) = match joined {
                Ok((id, (result, host))) => {
                    by_task.remove(&id);
                    (result, host)
                }
                Err(e) => {
                    let (index, url, host) = by_task.remove(&e.id()).unwrap_or_default();
                    let message = e.to_string();
                    (failed(index, url, message), host)
                }
            };
            if let Some(h) = hosts.get(&host)
                && !h.queue.is_empty()
            {
                ready.push(Reverse((Instant::now() + delay, host)));
            }
            delivered += 1;
            on_result(result);
        }
        delivered
    }
}

/// One host's waiting jobs.
#[derive(Default)]
struct Host {
    queue: VecDeque<(usize, CrawlJob)>,
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

/// Fetches and summarises one job (runs as its own task).
async fn run_job(
    fetcher: Fetcher,
    options: Arc<CrawlOptions>,
    index: usize,
    job: CrawlJob,
    wait: Duration,
    host: String,
) -> (CrawlResult, String) {
    let t = Instant::now();
    let outcome = fetcher.fetch_with(&job.url, &job.validators).await;
    let fetch_time = t.elapsed();
    let t = Instant::now();
    let summary = outcome.as_ref().ok().and_then(|f| {
        f.parse_with(&options.decoder, &options.parse_options).map(|p| FeedSummary {
            encoding: p.decoded.encoding.clone(),
            version: p.feed.version.clone(),
            title: p.feed.feed.title.clone(),
            entries: p.feed.entries.len(),
            bozo: p.bozo().map(|b| b.kind).collect(),
            first_bozo: p.bozo().next().map(ToString::to_string),
        })
    });
    let parse_time = t.elapsed();
    (CrawlResult { index, url: job.url, outcome, summary, wait, fetch_time, parse_time }, host)
}

/// The politeness key: the lower-cased host (`""` for `file:` and unparseable URLs).
fn host_key(url: &str) -> String {
    normalize_url(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .unwrap_or_default()
}
