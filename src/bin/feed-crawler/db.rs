//! Per-feed state in SQLite (WAL mode), one transaction per result.
//!
//! ```sql
//! feeds(url PRIMARY KEY, etag, modified, last_status, last_error, last_fetch,
//!       last_success, failures, next_fetch, permanent_url, hints)
//! crawls(id PRIMARY KEY, started, finished)      -- finished is NULL while unfinished
//! done(crawl, url)                               -- URLs reported in a crawl
//! imports(path PRIMARY KEY, at)                  -- JSON state files imported
//! ```
//!
//! Times are Unix seconds (UTC). `hints` is the feed's refresh hints as JSON, kept so
//! that a `304` can be scheduled like the `200` that came before it.

use std::collections::HashSet;
use std::path::Path;

use feed_decoder::http::Validators;
use feed_decoder::http::schedule::RefreshHints;
use rusqlite::{Connection, OptionalExtension, params};

pub struct Db {
    conn: Connection,
}

/// What the state database knows of one feed.
#[derive(Default)]
pub struct FeedState {
    pub validators: Validators,
    pub failures: u32,
    pub next_fetch: Option<i64>,
    pub hints: Option<RefreshHints>,
    /// Where the feed moved for good (301/308): fetched instead of the listed URL.
    pub permanent_url: Option<String>,
}

/// One result, as stored.
pub struct Update<'a> {
    pub url: &'a str,
    pub crawl: i64,
    pub now: i64,
    /// `None` to keep the stored validators (a 304, a failure).
    pub validators: Option<Validators>,
    pub status: Option<u16>,
    pub error: Option<String>,
    pub success: bool,
    pub failures: u32,
    pub next_fetch: i64,
    pub permanent_url: Option<&'a str>,
    pub hints: Option<&'a RefreshHints>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS feeds (
    url TEXT PRIMARY KEY,
    etag TEXT,
    modified TEXT,
    last_status INTEGER,
    last_error TEXT,
    last_fetch INTEGER,
    last_success INTEGER,
    failures INTEGER NOT NULL DEFAULT 0,
    next_fetch INTEGER,
    permanent_url TEXT,
    hints TEXT
);
CREATE TABLE IF NOT EXISTS crawls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started INTEGER NOT NULL,
    finished INTEGER
);
CREATE TABLE IF NOT EXISTS done (
    crawl INTEGER NOT NULL,
    url TEXT NOT NULL,
    PRIMARY KEY (crawl, url)
);
CREATE TABLE IF NOT EXISTS imports (
    path TEXT PRIMARY KEY,
    at INTEGER NOT NULL
);
";

fn hints_json(h: &RefreshHints) -> String {
    serde_json::json!({
        "ttl_minutes": h.ttl_minutes,
        "update_period": h.update_period,
        "update_frequency": h.update_frequency,
        "skip_hours": h.skip_hours,
        "skip_days": h.skip_days,
    })
    .to_string()
}

fn hints_from_json(s: &str) -> Option<RefreshHints> {
    let v: serde_json::Value = serde_json::from_str(s).ok()?;
    let mut h = RefreshHints::default();
    h.ttl_minutes = v["ttl_minutes"].as_u64();
    h.update_period = v["update_period"].as_str().map(str::to_owned);
    h.update_frequency = v["update_frequency"].as_u64();
    h.skip_hours = v["skip_hours"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(serde_json::Value::as_u64)
                .filter_map(|x| u32::try_from(x).ok())
                .collect()
        })
        .unwrap_or_default();
    h.skip_days = v["skip_days"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    Some(h)
}

impl Db {
    /// Opens (or creates) the database at `path`, or an in-memory one, and checks up
    /// front that it can be written.
    pub fn open(path: Option<&Path>) -> Result<Db, String> {
        if let Some(p) = path
            && let Ok(mut f) = std::fs::File::open(p)
        {
            let mut first = [0u8; 1];
            if std::io::Read::read(&mut f, &mut first).is_ok_and(|n| n == 1) && first[0] == b'{' {
                return Err(format!(
                    "{} is a JSON state file of an older crawler: give it as --import-json {} \
                     with a new --state database",
                    p.display(),
                    p.display()
                ));
            }
        }
        let conn = match path {
            Some(p) => Connection::open(p),
            None => Connection::open_in_memory(),
        }
        .map_err(|e| describe(path, &e))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(|e| describe(path, &e))?;
        if path.is_some() {
            // WAL: a reader never blocks the crawl, and a commit survives kill -9.
            let mode: String = conn
                .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
                .map_err(|e| describe(path, &e))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(format!(
                    "state database {}: cannot switch to WAL mode (got {mode})",
                    path.map_or_else(String::new, |p| p.display().to_string())
                ));
            }
            conn.execute_batch("PRAGMA synchronous=NORMAL")
                .map_err(|e| describe(path, &e))?;
        }
        conn.execute_batch(SCHEMA).map_err(|e| describe(path, &e))?;
        // A write now, so that a read-only file or folder is reported before the crawl.
        conn.execute_batch("BEGIN IMMEDIATE; COMMIT;")
            .map_err(|e| describe(path, &e))?;
        Ok(Db { conn })
    }

    /// Starts a new crawl, or with `resume` the latest unfinished one; returns its id and
    /// whether it is resumed.
    pub fn crawl(&self, resume: bool, now: i64) -> rusqlite::Result<(i64, bool)> {
        if resume
            && let Some(id) = self
                .conn
                .query_row(
                    "SELECT id FROM crawls WHERE finished IS NULL ORDER BY id DESC LIMIT 1",
                    [],
                    |r| r.get(0),
                )
                .optional()?
        {
            return Ok((id, true));
        }
        self.conn
            .execute("INSERT INTO crawls (started) VALUES (?1)", [now])?;
        Ok((self.conn.last_insert_rowid(), false))
    }

    pub fn finish_crawl(&self, crawl: i64, now: i64) -> rusqlite::Result<()> {
        self.conn.execute(
            "UPDATE crawls SET finished = ?2 WHERE id = ?1",
            params![crawl, now],
        )?;
        Ok(())
    }

    /// The URLs already reported in `crawl`.
    pub fn done(&self, crawl: i64) -> rusqlite::Result<HashSet<String>> {
        let mut stmt = self.conn.prepare("SELECT url FROM done WHERE crawl = ?1")?;
        let rows = stmt.query_map([crawl], |r| r.get::<_, String>(0))?;
        rows.collect()
    }

    /// Marks `urls` done in `crawl` (those found in the output but not yet here).
    pub fn mark_done<'a>(
        &mut self,
        crawl: i64,
        urls: impl Iterator<Item = &'a str>,
    ) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut stmt = tx.prepare("INSERT OR IGNORE INTO done (crawl, url) VALUES (?1, ?2)")?;
            for u in urls {
                stmt.execute(params![crawl, u])?;
            }
        }
        tx.commit()
    }

    pub fn feed(&self, url: &str) -> rusqlite::Result<FeedState> {
        self.conn
            .query_row(
                "SELECT etag, modified, failures, next_fetch, hints, permanent_url
                 FROM feeds WHERE url = ?1",
                [url],
                |r| {
                    Ok(FeedState {
                        validators: Validators {
                            etag: r.get(0)?,
                            modified: r.get(1)?,
                        },
                        failures: r.get(2)?,
                        next_fetch: r.get(3)?,
                        hints: r
                            .get::<_, Option<String>>(4)?
                            .as_deref()
                            .and_then(hints_from_json),
                        permanent_url: r.get(5)?,
                    })
                },
            )
            .optional()
            .map(Option::unwrap_or_default)
    }

    /// Stores one result and marks its URL done in its crawl, in one transaction.
    pub fn record(&mut self, u: &Update<'_>) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO feeds (url) VALUES (?1) ON CONFLICT(url) DO NOTHING",
            [u.url],
        )?;
        if let Some(v) = &u.validators {
            tx.execute(
                "UPDATE feeds SET etag = ?2, modified = ?3 WHERE url = ?1",
                params![u.url, v.etag, v.modified],
            )?;
        }
        if let Some(h) = u.hints {
            tx.execute(
                "UPDATE feeds SET hints = ?2 WHERE url = ?1",
                params![u.url, hints_json(h)],
            )?;
        }
        if let Some(p) = u.permanent_url {
            tx.execute(
                "UPDATE feeds SET permanent_url = ?2 WHERE url = ?1",
                params![u.url, p],
            )?;
        }
        tx.execute(
            "UPDATE feeds SET last_status = ?2, last_error = ?3, last_fetch = ?4,
                 last_success = CASE WHEN ?5 THEN ?4 ELSE last_success END,
                 failures = ?6, next_fetch = ?7
             WHERE url = ?1",
            params![
                u.url,
                u.status,
                u.error,
                u.now,
                u.success,
                u.failures,
                u.next_fetch
            ],
        )?;
        tx.execute(
            "INSERT OR IGNORE INTO done (crawl, url) VALUES (?1, ?2)",
            params![u.crawl, u.url],
        )?;
        tx.commit()
    }

    /// Imports the validators of an old JSON state file (`{url: {etag, modified}}`) once:
    /// feeds already in the database keep theirs. Returns how many were imported, or
    /// `None` when this file was imported before.
    pub fn import_json(&mut self, path: &Path, now: i64) -> Result<Option<usize>, String> {
        let key = std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .display()
            .to_string();
        let seen: Option<i64> = self
            .conn
            .query_row("SELECT at FROM imports WHERE path = ?1", [&key], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| e.to_string())?;
        if seen.is_some() {
            return Ok(None);
        }
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let old: std::collections::BTreeMap<String, Validators> = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{} is not a JSON state file: {e}", path.display()))?;
        let tx = self.conn.transaction().map_err(|e| e.to_string())?;
        let mut n = 0;
        for (url, v) in &old {
            n += tx
                .execute(
                    "INSERT INTO feeds (url, etag, modified) VALUES (?1, ?2, ?3)
                     ON CONFLICT(url) DO NOTHING",
                    params![url, v.etag, v.modified],
                )
                .map_err(|e| e.to_string())?;
        }
        tx.execute(
            "INSERT INTO imports (path, at) VALUES (?1, ?2)",
            params![key, now],
        )
        .map_err(|e| e.to_string())?;
        tx.commit().map_err(|e| e.to_string())?;
        Ok(Some(n))
    }
}

fn describe(path: Option<&Path>, e: &rusqlite::Error) -> String {
    match path {
        Some(p) => format!("cannot use state database {}: {e}", p.display()),
        None => format!("cannot open an in-memory state database: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_keeps_validators_on_304_and_marks_done() {
        let mut db = Db::open(None).unwrap();
        let (crawl, resumed) = db.crawl(true, 10).unwrap();
        assert!(!resumed);
        let v = Validators {
            etag: Some("\"a\"".into()),
            modified: None,
        };
        let hints = RefreshHints::default();
        let mut u = Update {
            url: "http://x/feed",
            crawl,
            now: 10,
            validators: Some(v.clone()),
            status: Some(200),
            error: None,
            success: true,
            failures: 0,
            next_fetch: 3610,
            permanent_url: None,
            hints: Some(&hints),
        };
        db.record(&u).unwrap();
        u.validators = None;
        u.status = Some(304);
        u.next_fetch = 99;
        db.record(&u).unwrap();
        let f = db.feed("http://x/feed").unwrap();
        assert_eq!(f.validators, v);
        assert_eq!(f.next_fetch, Some(99));
        assert!(f.hints.is_some());
        assert_eq!(db.done(crawl).unwrap().len(), 1);
        // Unfinished: resumed; finished: a new crawl.
        assert_eq!(db.crawl(true, 11).unwrap(), (crawl, true));
        db.finish_crawl(crawl, 12).unwrap();
        let (next, resumed) = db.crawl(true, 13).unwrap();
        assert!(next != crawl && !resumed);
    }

    #[test]
    fn json_state_is_imported_once() {
        let dir = std::env::temp_dir().join(format!("feed-crawler-db-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let json = dir.join("old.json");
        std::fs::write(
            &json,
            r#"{"http://a/": {"etag": "\"e\""}, "http://b/": {}}"#,
        )
        .unwrap();
        let mut db = Db::open(Some(&dir.join("state.db"))).unwrap();
        assert_eq!(db.import_json(&json, 1).unwrap(), Some(2));
        assert_eq!(db.import_json(&json, 2).unwrap(), None);
        assert_eq!(
            db.feed("http://a/").unwrap().validators.etag.as_deref(),
            Some("\"e\"")
        );
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
