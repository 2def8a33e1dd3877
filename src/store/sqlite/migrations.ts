/**
 * Schema migrations, applied in order by `PRAGMA user_version`. Append only: a released migration
 * is never edited, a change is a new entry.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id             INTEGER PRIMARY KEY,
    pipeline_name  TEXT NOT NULL,
    pipeline_file  TEXT NOT NULL,
    pipeline_hash  TEXT NOT NULL,
    plan_json      TEXT NOT NULL,
    engine         TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted', 'budget-exhausted')),
    started_at     TEXT NOT NULL,
    finished_at    TEXT,
    credits_used   INTEGER NOT NULL DEFAULT 0,
    error          TEXT
  );
  CREATE INDEX runs_by_pipeline ON runs (pipeline_name, id);

  -- A finished step keeps its pages in one manifest blob (url, document hash, status, credits,
  -- sorted by url). An unchanged re-run produces the same manifest, so it costs no new storage.
  CREATE TABLE step_runs (
    run_id        INTEGER NOT NULL REFERENCES runs (id),
    step_id       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    manifest      TEXT REFERENCES blobs (hash),
    status        TEXT NOT NULL CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'skipped', 'cancelled')),
    started_at    TEXT,
    finished_at   TEXT,
    credits_used  INTEGER NOT NULL DEFAULT 0,
    documents     INTEGER NOT NULL DEFAULT 0,
    failures      INTEGER NOT NULL DEFAULT 0,
    error         TEXT,
    PRIMARY KEY (run_id, step_id)
  );

  -- Content-addressed, compressed: identical content is stored once however many runs see it.
  CREATE TABLE blobs (
    hash         TEXT PRIMARY KEY,
    size         INTEGER NOT NULL,
    compression  TEXT NOT NULL,
    data         BLOB NOT NULL
  );

  -- Pages of steps still in progress, one row each, written in the page's own transaction; folded
  -- into the step's manifest when the step finishes.
  CREATE TABLE documents (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs (id),
    step_id       TEXT NOT NULL,
    url           TEXT NOT NULL,
    final_url     TEXT,
    status_code   INTEGER,
    fetched_at    TEXT NOT NULL,
    credits_used  INTEGER NOT NULL,
    blob_hash     TEXT NOT NULL REFERENCES blobs (hash),
    UNIQUE (run_id, step_id, url)
  );

  -- Pages kept for maxAge: one row per URL and option set, replaced in place.
  CREATE TABLE page_cache (
    url          TEXT NOT NULL,
    options_key  TEXT NOT NULL,
    blob_hash    TEXT NOT NULL REFERENCES blobs (hash),
    fetched_at   TEXT NOT NULL,
    PRIMARY KEY (url, options_key)
  );

  CREATE TABLE failures (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs (id),
    step_id     TEXT NOT NULL,
    url         TEXT NOT NULL,
    kind        TEXT NOT NULL,
    error       TEXT NOT NULL,
    failed_at   TEXT NOT NULL
  );

  -- Per page while a step runs; summed to one row per step and reason when it finishes.
  CREATE TABLE credit_ledger (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES runs (id),
    step_id   TEXT NOT NULL,
    url       TEXT,
    credits   INTEGER NOT NULL,
    reason    TEXT NOT NULL,
    at        TEXT NOT NULL
  );
  CREATE INDEX credit_ledger_by_run ON credit_ledger (run_id);
  `,
  `
  -- What a step needs to continue after an interruption (a crawl's frontier), as JSON.
  ALTER TABLE step_runs ADD COLUMN state TEXT;

  -- The change history: one row per version of a page (URL and tag; '' is the default branch,
  -- tag NULL), added when the content differs from the latest version and otherwise marked seen
  -- again in place. The markdown is a content-addressed blob.
  CREATE TABLE snapshots (
    id              INTEGER PRIMARY KEY,
    url             TEXT NOT NULL,
    branch          TEXT NOT NULL,
    tag             TEXT,
    version         INTEGER NOT NULL,
    fingerprint     TEXT NOT NULL,
    normalizer_key  TEXT NOT NULL,
    blob_hash       TEXT NOT NULL REFERENCES blobs (hash),
    extracted       TEXT,
    status_code     INTEGER,
    first_run_id    INTEGER REFERENCES runs (id),
    first_seen_at   TEXT NOT NULL,
    last_run_id     INTEGER REFERENCES runs (id),
    last_seen_at    TEXT NOT NULL,
    UNIQUE (url, branch, version)
  );

  -- The change-tracking result of each page of a step. While the step runs every page has a row;
  -- when it finishes, the most common result becomes the step's change_base and only the pages
  -- that differ from it keep a row, so an unchanged re-run stores nothing per page.
  CREATE TABLE page_changes (
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    step_id  TEXT NOT NULL,
    url      TEXT NOT NULL,
    change   TEXT NOT NULL,
    PRIMARY KEY (run_id, step_id, url)
  );
  ALTER TABLE step_runs ADD COLUMN change_base TEXT;

  -- The normalized pipeline of a run, content-addressed: nightly runs of one pipeline share it.
  -- (plan_json stays empty for runs that have a plan_blob.)
  ALTER TABLE runs ADD COLUMN plan_blob TEXT REFERENCES blobs (hash);
  `,
  `
  -- The result of a step beyond its pages (an extract step's merged data), content-addressed.
  ALTER TABLE step_runs ADD COLUMN result TEXT REFERENCES blobs (hash);
  `,
  `
  -- scrapeline serve: teams with their plan and limits, their API keys (sha256 of the key, never
  -- the key), and the jobs (crawl, batch scrape, scrape, map) each team started, mapped to runs.
  CREATE TABLE serve_teams (
    id                   INTEGER PRIMARY KEY,
    name                 TEXT NOT NULL UNIQUE,
    plan_tokens          INTEGER NOT NULL,
    period_days          INTEGER NOT NULL,
    period_start         TEXT NOT NULL,
    rate_limit           INTEGER NOT NULL,
    max_concurrent_jobs  INTEGER NOT NULL,
    threat_policy        TEXT,
    created_at           TEXT NOT NULL
  );

  CREATE TABLE serve_keys (
    id          INTEGER PRIMARY KEY,
    team_id     INTEGER NOT NULL REFERENCES serve_teams (id),
    prefix      TEXT NOT NULL,
    key_hash    TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
  );

  CREATE TABLE serve_jobs (
    id           TEXT PRIMARY KEY,
    team_id      INTEGER NOT NULL REFERENCES serve_teams (id),
    kind         TEXT NOT NULL,
    run_id       INTEGER REFERENCES runs (id),
    status       TEXT NOT NULL CHECK (status IN ('scraping', 'completed', 'failed', 'cancelled')),
    url          TEXT,
    total        INTEGER,
    created_at   TEXT NOT NULL,
    finished_at  TEXT,
    error        TEXT,
    -- The URLs of the job's pages in the order they were stored: status pages are read in it.
    pages        TEXT
  );
  CREATE INDEX serve_jobs_by_team ON serve_jobs (team_id, created_at);
  `,
  `
  -- A cached page's links, apart from the rest of it: a crawl stores its pages without links and
  -- caches them with, and the two then share the blob of everything but the links.
  ALTER TABLE page_cache ADD COLUMN links_blob TEXT REFERENCES blobs (hash);
  `,
  `
  -- A stored page no longer adds to its run's and step's counters: its credits and its count stay
  -- on its journal row (documents) until the step is compacted, and reads add the rows up. Pages
  -- an earlier version counted already are taken out of the counters.
  UPDATE step_runs SET
    credits_used = credits_used - (SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = step_runs.run_id AND d.step_id = step_runs.step_id),
    documents = documents - (SELECT COUNT(*) FROM documents d WHERE d.run_id = step_runs.run_id AND d.step_id = step_runs.step_id);
  UPDATE runs SET credits_used = credits_used - (SELECT COALESCE(SUM(d.credits_used), 0) FROM documents d WHERE d.run_id = runs.id);
  `,
  `
  -- Whether the page cache holds anything made with a set of options, asked once per run and
  -- options: a lookup, not a scan of the whole cache.
  CREATE INDEX page_cache_by_options ON page_cache (options_key);
  `,
  `
  -- The \`scrapeline serve\` process that owns the database's jobs (one row at most): a second
  -- server on the same database refuses to start while the owner lives.
  CREATE TABLE serve_owner (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    pid         INTEGER NOT NULL,
    host        TEXT NOT NULL,
    token       TEXT NOT NULL,
    started_at  TEXT NOT NULL
  );
  `,
  `
  -- The process running a run (host, pid, and a token of when it started, so that a reused pid is
  -- not taken for it): a run still 'running' whose process is gone reads as interrupted.
  ALTER TABLE runs ADD COLUMN owner_host TEXT;
  ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
  ALTER TABLE runs ADD COLUMN owner_started TEXT;
  `,
  `
  -- What a run warned about, per step or per page (url), for show to print after the run.
  CREATE TABLE run_warnings (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    step_id  TEXT NOT NULL,
    url      TEXT,
    message  TEXT NOT NULL,
    at       TEXT NOT NULL
  );
  CREATE INDEX run_warnings_by_run ON run_warnings (run_id);
  `,
  `
  -- The web UI's reads: runs filtered by status, newest first, and a run's failed pages.
  CREATE INDEX runs_by_status ON runs (status, id);
  CREATE INDEX failures_by_run ON failures (run_id, step_id);
  `,
  `
  -- Logins of sessions kept between runs (src/store/sqlite/sessions.ts): the state is AES-256-GCM
  -- ciphertext under a key from SCRAPELINE_SECRET_KEY, and a login is named by a keyed hash only.
  CREATE TABLE session_states (
    key_hash    TEXT PRIMARY KEY,
    iv          BLOB NOT NULL,
    tag         BLOB NOT NULL,
    ciphertext  BLOB NOT NULL,
    saved_at    TEXT NOT NULL
  );
  `,
  `
  -- Monitoring: what runs by itself (a scheduled pipeline file under watch, or a monitor made
  -- through serve's /v2/monitor), each check of it (one per schedule slot: the unique key is
  -- what keeps a restart from running a slot twice), and every notification it sent or failed.
  CREATE TABLE monitors (
    id             INTEGER PRIMARY KEY,
    key            TEXT NOT NULL UNIQUE,
    source         TEXT NOT NULL,
    team_id        INTEGER,
    name           TEXT NOT NULL,
    file           TEXT,
    schedule       TEXT NOT NULL,
    definition     TEXT,
    registered_at  TEXT NOT NULL,
    last_slot      TEXT,
    next_due       TEXT,
    deleted_at     TEXT
  );
  CREATE INDEX monitors_by_team ON monitors (team_id);
  CREATE TABLE monitor_checks (
    id           INTEGER PRIMARY KEY,
    monitor_id   INTEGER NOT NULL REFERENCES monitors (id),
    slot         TEXT NOT NULL,
    trigger      TEXT NOT NULL,
    status       TEXT NOT NULL,
    run_id       INTEGER REFERENCES runs (id),
    started_at   TEXT NOT NULL,
    finished_at  TEXT,
    summary      TEXT,
    error        TEXT,
    owner_host   TEXT,
    owner_pid    INTEGER,
    UNIQUE (monitor_id, slot)
  );
  CREATE INDEX monitor_checks_by_status ON monitor_checks (status);
  CREATE TABLE monitor_notifications (
    id         INTEGER PRIMARY KEY,
    check_id   INTEGER NOT NULL REFERENCES monitor_checks (id),
    channel    TEXT NOT NULL,
    target     TEXT NOT NULL,
    event      TEXT NOT NULL,
    sent       INTEGER NOT NULL,
    status     INTEGER,
    attempts   INTEGER NOT NULL,
    error      TEXT,
    at         TEXT NOT NULL
  );
  CREATE INDEX monitor_notifications_by_check ON monitor_notifications (check_id);
  `,
  // A pipeline file's monitor whose file left the watched paths (or whose pipeline was renamed or
  // lost its schedule): kept with its checks, no longer scheduled. Notifications a check is about
  // to send (its outbox): recorded before sending, moved to monitor_notifications once delivered or
  // failed, so a process that dies in between leaves them to the next start.
  `
  ALTER TABLE monitors ADD COLUMN gone_at TEXT;
  CREATE TABLE monitor_outbox (
    id         INTEGER PRIMARY KEY,
    check_id   INTEGER NOT NULL REFERENCES monitor_checks (id),
    channel_index INTEGER NOT NULL,
    channel    TEXT NOT NULL,
    target     TEXT NOT NULL,
    event      TEXT NOT NULL,
    message    TEXT NOT NULL,
    at         TEXT NOT NULL
  );
  CREATE INDEX monitor_outbox_by_check ON monitor_outbox (check_id);
  `,
  // Retries per step: each page fetch the runner tried again (document-retried), counted as it happens.
  `
  ALTER TABLE step_runs ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
  `,
  // What serve's jobs send their request's webhook (src/store/sqlite/job-webhooks.ts): recorded before it
  // is sent, settled with its delivery; unsettled rows are sent again when serve starts.
  `
  CREATE TABLE serve_job_webhooks (
    id          INTEGER PRIMARY KEY,
    job_id      TEXT NOT NULL,
    channel     TEXT NOT NULL,
    event       TEXT NOT NULL,
    message     TEXT NOT NULL,
    queued_at   TEXT NOT NULL,
    sent        INTEGER,
    status      INTEGER,
    attempts    INTEGER,
    error       TEXT,
    settled_at  TEXT
  );
  CREATE INDEX serve_job_webhooks_by_job ON serve_job_webhooks (job_id, id);
  CREATE INDEX serve_job_webhooks_unsettled ON serve_job_webhooks (settled_at) WHERE settled_at IS NULL;
  `,
  // How to finish a run: the file and the flags it was started (or last resumed) with, as a JSON
  // array of words, so every place that tells the command tells the same one.
  `
  ALTER TABLE runs ADD COLUMN resume_words TEXT;
  `,
  // The verdict of a step's expectations (`expect:`) and of the pipeline's, as JSON: which held,
  // which broke, with what was seen and where each is written.
  `
  ALTER TABLE step_runs ADD COLUMN expectations TEXT;
  ALTER TABLE runs ADD COLUMN expectations TEXT;
  `,
  // The raw answers of the local engine's fetch gate in a run (src/store/sqlite/fetched-pages.ts):
  // body, status, final URL, redirects and headers (no cookies or credentials), so that a later run
  // can convert the same pages again without the network (run --from-run). One row per request
  // (the answer as JSON, its body named by its blob) while the run goes, folded into one manifest
  // blob on the run when it ends; bodies are blobs, so a page that did not change costs nothing
  // more. from_run: the run whose stored pages a run converted.
  `
  CREATE TABLE fetched_pages (
    run_id    INTEGER NOT NULL REFERENCES runs (id),
    key       TEXT NOT NULL,
    response  TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
  );
  ALTER TABLE runs ADD COLUMN fetched TEXT REFERENCES blobs (hash);
  ALTER TABLE runs ADD COLUMN from_run INTEGER REFERENCES runs (id);
  `,
  // Leases of watchers sharing a database: until when a running check's owner holds it (renewed
  // while it runs; once it has passed, another watcher takes the check over), and who holds a
  // queued notification and until when.
  `
  ALTER TABLE monitor_checks ADD COLUMN lease_until TEXT;
  ALTER TABLE monitor_outbox ADD COLUMN holder_host TEXT;
  ALTER TABLE monitor_outbox ADD COLUMN holder_pid INTEGER;
  ALTER TABLE monitor_outbox ADD COLUMN lease_until TEXT;
  `,
];
