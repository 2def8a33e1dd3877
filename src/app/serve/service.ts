import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Document, Engine, MapLink, Pipeline, ScrapeOptions, ServeJobKind, Step, Team, ThreatProtectionOverride } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { TOKENS_PER_CREDIT } from "../../credits/index.js";
import { checkThreatProtection, fileRiskClassifier, LocalEngine, type RiskClassifier } from "../../engines/local/index.js";
import { inlineAssets } from "../common/index.js";
import type { ServeTables, RunsStore } from "../../store/index.js";
import { previewCrawlParams, type CrawlPreview } from "../check/index.js";
import { hashKey } from "./keys.js";
import { JOB_STEP_ID, JobRunner } from "./jobs.js";
import { expiresAt, extractReply, jobCredits, jobErrors, statusPage, type JobStatusPage } from "./job-status.js";
import { checkConcurrency, RateLimiter } from "./limits.js";
import { readBatchCall, readCrawlCall, readExtractCall, readMapCall, readPreviewCall, readScrapeCall } from "./requests.js";
import { creditUsage, teamUsage, usageHistory, type CreditUsage, type TokenUsage, type UsagePeriod } from "./usage.js";
import { readSearchCall, searchReply } from "./search.js";
import { agentListItem, agentReply, readAgentCall, type AgentListItem, type AgentStatusReply } from "./agent.js";
import { effectiveThreatPolicy } from "./threat.js";
import { JobHeaderKey, openRunStore } from "../common/index.js";
import { readParseCall, type Upload } from "./parse.js";
import { uploadNamedStore } from "./upload-store.js";
import { dirname, join } from "node:path";
import { BrowserSessions } from "./browser.js";
import { ServeMonitors } from "./monitors.js";
import { jobDocuments } from "./v1.js";
import { failureOf, jobPipeline, serveEngine, teamTag, WEBHOOK_KIND } from "./job-shape.js";
import { JobWebhooks, jobEnd, storedPage, takeWebhook, type JobNotifier, type JobWebhook } from "./webhooks.js";
import type { ServeOptions } from "./options.js";
import { browserSessionHolders, ReplicaLiveness, replicaLeaseMs } from "./replicas.js";
import { sharedCrawls, type SharedCrawls } from "./shared-crawls.js";

const BACKGROUND: readonly ServeJobKind[] = ["crawl", "batch", "extract", "agent"];

/**
 * The use cases of `scrapeline serve`: authentication, limits, threat protection, and the
 * service's operations over the local engine, the runner and the store. The HTTP layer
 * (src/server) only parses requests and writes answers.
 */
export class ServeService {
  private readonly store: RunsStore;
  private readonly tables: ServeTables;
  private readonly engine: LocalEngine;
  private readonly jobs: JobRunner;
  private readonly limiter: RateLimiter;
  private readonly riskClassifier: RiskClassifier | undefined;
  /** /v2/browser sessions and scrape interactions. */
  readonly browser: BrowserSessions;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly clock: () => number;
  /** This server's claim on the database (serve_owner). */
  private readonly token = randomUUID();
  private closing = false;
  /** The team's monitors (/v2/monitor), run when due by this server. */
  readonly monitors: ServeMonitors;
  /** What crawl, batch scrape and extract jobs tell their request's webhook. */
  private readonly webhooks: JobWebhooks;
  /** The heartbeat of this replica, and the takeover of what dead replicas left. */
  private readonly liveness: ReplicaLiveness;
  private readonly shared: SharedCrawls;

  constructor(private readonly options: ServeOptions) {
    this.clock = options.clock ?? Date.now;
    this.store = openRunStore(options.db);
    this.tables = this.store.serveTables();
    const owner = this.tables.claimServer(this.token);
    if (owner) {
      this.store.close();
      throw new ScrapelineError(
        "invalid-input",
        `the database ${options.db} is in use by another scrapeline serve (pid ${owner.pid}${owner.host === hostname() ? "" : ` on ${owner.host}`}, started ${owner.startedAt}); stop it first, or serve another --db`,
      );
    }
    this.riskClassifier = options.riskList ? fileRiskClassifier(options.riskList) : undefined;
    this.engine = serveEngine(options, this.riskClassifier);
    const leaseMs = options.replicaLeaseMs ?? replicaLeaseMs(options.env ?? process.env);
    // On PostgreSQL crawls and batch scrapes share their frontier with workers and replicas, and this one carries on those of dead replicas
    // (those sent with header values when SCRAPELINE_SECRET_KEY keeps them sealed). One finished here left its webhook's last message in the outbox: sent at once.
    const headerKey = new JobHeaderKey(options.env ?? process.env);
    this.shared = sharedCrawls(this.store, this.engine, { leaseMs, headerKey }, () => this.webhooks.resendLeftOver());
    this.jobs = new JobRunner(this.store, this.tables, this.engine, this.shared.holder, headerKey);
    this.limiter = new RateLimiter(this.tables, this.clock);
    const webhookSecret = (options.env ?? process.env).SCRAPELINE_WEBHOOK_SECRET;
    this.webhooks = new JobWebhooks({ allowPrivateNetwork: Boolean(options.allowPrivateNetwork), tables: this.store.jobWebhookTables(), sender: this.token, ...(webhookSecret ? { secret: webhookSecret } : {}) });
    this.liveness = new ReplicaLiveness({
      tables: this.tables, store: this.store, token: this.token, leaseMs, resendWebhooks: () => this.webhooks.resendLeftOver(),
      // Shared crawls and batches go on with the processes sharing them; extract and agent jobs resume here, then tell their webhook how they ended.
      resume: (job) => (this.shared.carriesOn(job.id) ? this.jobs.carryOnShared(job) : this.jobs.resume(job, (ended) => this.webhooks.tellEnded(this.store, ended))),
      // A job taken over from a dead replica tells its webhook how it ended.
      onSettled: (job) => this.webhooks.tellEnded(this.store, this.tables.job(job.id) ?? job),
    });
    this.liveness.start();
    this.browser = new BrowserSessions({
      openPage: (start) => this.engine.openLivePage(start),
      allowCodeExecution: Boolean(options.allowCodeExecution),
      maxPerTeam: options.maxBrowserSessions ?? 5,
      memoryMb: options.codeMemoryMb ?? 128,
      clock: this.clock,
      holders: browserSessionHolders(this.tables, this.token),
    });
    this.monitors = new ServeMonitors({
      db: options.db,
      ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
      ...(options.env ? { env: options.env } : {}),
      clock: this.clock,
      hasCredit: (teamId) => {
        const team = this.tables.teams().find((t) => t.id === teamId);
        return team !== undefined && this.tokenUsage(team).remainingTokens >= TOKENS_PER_CREDIT;
      },
    });
  }

  /** The team of a bearer key; unauthorized when the header is missing or the key unknown or revoked. */
  authenticate(authorization: string | undefined): Team {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) throw new ScrapelineError("unauthorized", "Unauthorized: Token missing");
    const team = this.tables.teamByKeyHash(hashKey(match[1]!));
    if (!team) throw new ScrapelineError("unauthorized", "Unauthorized: Invalid token");
    return team;
  }

  /** Counts a work-starting request against the team's rate limit (429 when over); a team with less than a credit left gets 402. */
  takeRequest(team: Team): void {
    this.limiter.take(team);
    if (this.tokenUsage(team).remainingTokens < TOKENS_PER_CREDIT) {
      throw new ScrapelineError("budget", "Insufficient credits to perform this request: the team has used its plan's tokens for this billing period (scrapeline teams set --plan-tokens raises it)");
    }
  }

  /** POST /v2/scrape: the Document, with metadata.creditsUsed. */
  async scrape(team: Team, body: unknown, version: "v1" | "v2" = "v2"): Promise<Document> {
    const call = readScrapeCall(body, version);
    const options = this.guard(team, call.options, call.options.threatProtection, [call.url]);
    const pipeline = jobPipeline(this.options, team, "scrape", call.pipeline, { ...call.pipeline.steps[0]!, kind: "scrape", body: { urls: [call.url], ...options } } as Step);
    const job = this.jobs.start(team.id, "scrape", pipeline, { url: call.url, total: 1 });
    const { runId } = await this.track(job.finished);
    const stored = this.store.documents(runId, JOB_STEP_ID)[Symbol.iterator]().next();
    if (stored.done) throw failureOf(this.store, runId);
    // The scrape's id is its job's: GET /v2/scrape/{id} reads it again, /interact carries on from it.
    this.browser.rememberScrape(team.id, job.id, call.url, options);
    const document = inlineAssets(stored.value.document, this.store);
    return { ...document, metadata: { ...document.metadata, scrapeId: job.id } };
  }

  /** GET /v2/scrape/{id}: the Document an earlier scrape of the team answered. */
  scrapeResult(team: Team, id: string): Document {
    const job = this.jobs.job(team.id, id, ["scrape"], "Scrape");
    const stored = job.runId === null ? undefined : this.store.documents(job.runId, JOB_STEP_ID)[Symbol.iterator]().next().value;
    if (!stored) throw new ScrapelineError("not-found", "Scrape not found: it produced no document");
    const document = inlineAssets(stored.document, this.store);
    return { ...document, metadata: { ...document.metadata, scrapeId: job.id } };
  }

  /** POST /v2/parse: an uploaded file (already streamed to `upload.path`) parsed as a one-file parse step; the document names the upload. */
  async parse(team: Team, upload: Upload, rawOptions: string | undefined): Promise<Document> {
    const call = readParseCall(rawOptions, upload);
    this.guard(team, undefined, undefined, []);
    const base = jobPipeline(this.options, team, "parse", call.pipeline, { ...call.step, kind: "parse" });
    const pipeline = { ...base, file: join(dirname(upload.path), "upload.yaml") };
    const { runId } = await this.track(this.jobs.start(team.id, "parse", pipeline, { url: upload.filename, total: 1, store: uploadNamedStore(this.store, upload), storedAs: () => upload.filename }).finished);
    const stored = this.store.documents(runId, JOB_STEP_ID)[Symbol.iterator]().next();
    if (stored.done) throw failureOf(this.store, runId);
    // Stored as the answer is: named by the upload, nothing of its temporary directory.
    return stored.value.document;
  }

  /** POST /v2/map: the links of a site. */
  async map(team: Team, body: unknown, version: "v1" | "v2" = "v2"): Promise<{ links: MapLink[]; warning?: string }> {
    const call = readMapCall(body, version);
    this.guard(team, undefined, call.threatProtection, [call.request.url]);
    const pipeline = jobPipeline(this.options, team, "map", call.pipeline, { ...call.pipeline.steps[0]!, kind: "map", body: call.request } as Step);
    const { runId } = await this.track(this.jobs.start(team.id, "map", pipeline, { url: call.request.url, total: 1 }).finished);
    const stored = this.store.documents(runId, JOB_STEP_ID)[Symbol.iterator]().next();
    if (stored.done) {
      // The step keeps its error's words only: the map's own "timed out … before finding any URL" is a timeout.
      const failure = failureOf(this.store, runId);
      throw / timed out after \d+ ms before finding any URL$/.test(failure.message) ? new ScrapelineError("timeout", failure.message, { url: call.request.url }) : failure;
    }
    const document = stored.value.document;
    const links = (document.metadata.mapLinks as MapLink[] | undefined) ?? (document.links ?? []).map((url) => ({ url }));
    return { links, ...(document.warning ? { warning: document.warning } : {}) };
  }

  /**
   * POST /v2/search: the search on the configured SearXNG, its results scraped when formats ask
   * (through threat protection like any scrape), answered in the service's shape.
   */
  async search(team: Team, body: unknown, version: "v1" | "v2" = "v2"): Promise<ReturnType<typeof searchReply>> {
    const call = readSearchCall(body, version);
    if (!this.engine.canSearch) throw new ScrapelineError("unsupported", "Bad request: this server has no search provider: start it with SCRAPELINE_SEARXNG_URL naming a SearXNG instance (see the README, Web search)");
    const scrapeOptions = call.request.scrapeOptions ? this.guard(team, call.request.scrapeOptions, call.request.scrapeOptions.threatProtection, []) : undefined;
    const request = { ...call.request, ...(scrapeOptions ? { scrapeOptions } : {}) };
    const pipeline = jobPipeline(this.options, team, "search", call.pipeline, { ...call.pipeline.steps[0]!, kind: "search", body: request } as Step);
    const job = this.jobs.start(team.id, "search", pipeline, { url: null, total: null });
    const { runId } = await this.track(job.finished);
    if (this.store.getSteps(runId)[0]?.status !== "succeeded" && this.store.stepResult(runId, JOB_STEP_ID) === undefined) throw failureOf(this.store, runId);
    return searchReply(this.store, runId, JOB_STEP_ID, job.id, this.store.getRun(runId)?.creditsUsed ?? 0, call.warning);
  }

  /** POST /v2/crawl: starts a crawl job. */
  startCrawl(team: Team, raw: unknown, version: "v1" | "v2" = "v2"): { id: string; warning?: string } {
    const { body, webhook } = takeWebhook(raw);
    const call = readCrawlCall(body, version);
    const request = { ...call.request, scrapeOptions: this.guard(team, call.request.scrapeOptions, call.request.scrapeOptions.threatProtection, [call.request.url]) };
    checkConcurrency(team, this.jobs.activeJobs(team.id, BACKGROUND));
    const pipeline = jobPipeline(this.options, team, "crawl", call.pipeline, { ...call.pipeline.steps[0]!, kind: "crawl", body: request } as Step, call.maxConcurrency);
    const job = this.startWithWebhook(team, "crawl", pipeline, { url: request.url, total: null, within: this.jobSlots(team) }, webhook);
    return { id: job.id, ...(call.warning ? { warning: call.warning } : {}) };
  }

  /** POST /v2/batch/scrape: starts a batch scrape job. */
  startBatch(team: Team, raw: unknown, version: "v1" | "v2" = "v2"): { id: string; invalidURLs?: string[]; warning?: string } {
    const { body, webhook } = takeWebhook(raw);
    const call = readBatchCall(body, version);
    const options = this.guard(team, call.options, call.options.threatProtection, call.urls);
    checkConcurrency(team, this.jobs.activeJobs(team.id, BACKGROUND));
    const pipeline = jobPipeline(this.options, team, "batch", call.pipeline, { ...call.pipeline.steps[0]!, kind: "scrape", body: { urls: call.urls, ...options } } as Step, call.maxConcurrency);
    const job = this.startWithWebhook(team, "batch", pipeline, { url: null, total: call.urls.length, within: this.jobSlots(team) }, webhook);
    return { id: job.id, ...(call.invalidURLs ? { invalidURLs: call.invalidURLs } : {}), ...(call.warning ? { warning: call.warning } : {}) };
  }

  /** POST /v1/extract, /v2/extract: starts an extract job; invalidURLs only when ignoreInvalidURLs is true. */
  startExtract(team: Team, raw: unknown, version: "v1" | "v2"): { id: string; invalidURLs?: string[]; warning?: string } {
    const { body, webhook } = takeWebhook(raw);
    const call = readExtractCall(body, version);
    if (call.request.enableWebSearch && !(this.engine as Engine).searchesWeb) {
      throw new ScrapelineError("invalid-input", "Bad request: enableWebSearch needs web search, which this server does not have (it has no search provider); set enableWebSearch: false and list the pages in urls");
    }
    const targets = call.urls.filter((u) => !u.includes("*"));
    const scrapeOptions = this.guard(team, call.request.scrapeOptions, call.request.threatProtection ?? call.request.scrapeOptions.threatProtection, targets);
    checkConcurrency(team, this.jobs.activeJobs(team.id, BACKGROUND));
    const { threatProtection: _override, ...request } = call.request;
    const pipeline = jobPipeline(this.options, team, "extract", call.pipeline, { ...call.pipeline.steps[0]!, kind: "extract", body: { ...request, scrapeOptions } } as Step);
    const job = this.startWithWebhook(team, "extract", pipeline, { url: call.urls[0] ?? null, total: null, within: this.jobSlots(team) }, webhook);
    return { id: job.id, ...(call.invalidURLs ? { invalidURLs: call.invalidURLs } : {}), ...(call.warning ? { warning: call.warning } : {}) };
  }

  /** GET /v1/extract/{id}, /v2/extract/{id}: processing while it runs, then the finished extract. */
  extractStatus(team: Team, id: string): ReturnType<typeof extractReply> {
    return extractReply(this.store, this.jobs.job(team.id, id, ["extract"], "Extract job"));
  }

  /**
   * POST /v2/agent: starts an agent job on this server's model (SCRAPELINE_LLM_*) and engine; its
   * tool calls meet the team's threat protection like any scrape.
   */
  startAgent(team: Team, body: unknown): { id: string; warning?: string } {
    const call = readAgentCall(body);
    this.engine.agentModel();
    const guarded = this.guard(team, call.request.scrapeOptions, call.request.threatProtection, call.request.urls ?? []);
    // The model picks its URLs as it goes: under a threat policy each is fetched (and checked), never answered from the page cache.
    const scrapeOptions = guarded?.threatProtection ? { ...guarded, maxAge: 0 } : guarded;
    checkConcurrency(team, this.jobs.activeJobs(team.id, BACKGROUND));
    const pipeline = jobPipeline(this.options, team, "agent", call.pipeline, { ...call.pipeline.steps[0]!, kind: "agent", body: { ...call.request, ...(scrapeOptions ? { scrapeOptions } : {}) } } as Step);
    const job = this.jobs.start(team.id, "agent", pipeline, { url: call.request.urls?.[0] ?? null, total: null, within: this.jobSlots(team) });
    this.track(job.finished).catch(() => {});
    return { id: job.id, ...(call.warning ? { warning: call.warning } : {}) };
  }

  /** GET /v2/agent/{id}: processing while it runs, then its data, sources and transcript; creditsUsed as the team was charged. */
  agentStatus(team: Team, id: string): AgentStatusReply {
    const job = this.jobs.job(team.id, id, ["agent"], "Agent job");
    return agentReply(this.store, job, JOB_STEP_ID, jobCredits(this.store, job), expiresAt(job));
  }

  /** GET /v2/agent: the team's agent jobs, newest first, 50 a page; `before` (unix ms) pages back. */
  listAgents(team: Team, before?: number): { agents: AgentListItem[]; nextBefore?: number } {
    const jobs = this.tables.jobsOf(team.id, "agent", 51, before === undefined ? undefined : new Date(before).toISOString());
    const agents = jobs.slice(0, 50).map(agentListItem);
    return { agents, ...(jobs.length > 50 ? { nextBefore: Date.parse(jobs[49]!.createdAt) } : {}) };
  }

  /** DELETE /v2/agent/{id}: stops the agent (what it stored stays readable). */
  cancelAgent(team: Team, id: string): void {
    this.jobs.cancel(this.jobs.job(team.id, id, ["agent"], "Agent job"));
  }

  /** GET /v2/crawl/{id} and /v2/batch/scrape/{id}: one page of the job's status. */
  jobStatus(team: Team, kind: "crawl" | "batch", id: string, page: { skip?: number; limit?: number } = {}): JobStatusPage {
    return statusPage(this.jobs, this.store, this.jobs.job(team.id, id, [kind], "Job"), page);
  }

  /** GET /v2/crawl/active: the team's crawls that are running. */
  activeCrawls(team: Team): Array<{ id: string; teamId: string; url: string | null; created_at: string; options: Record<string, unknown> }> {
    return this.jobs.activeCrawls(team.id).map((c) => ({ id: c.id, teamId: team.name, url: c.url, created_at: c.createdAt, options: c.options }));
  }

  /** GET /v2/crawl/{id}/errors, /v2/batch/scrape/{id}/errors: the pages that failed. */
  jobErrors(team: Team, kind: "crawl" | "batch", id: string): ReturnType<typeof jobErrors> {
    return jobErrors(this.store, this.jobs.job(team.id, id, [kind], "Job"));
  }

  /** DELETE /v1|v2/crawl/{id}, /v2/batch/scrape/{id}. */
  cancelJob(team: Team, kind: "crawl" | "batch", id: string): void {
    const job = this.jobs.job(team.id, id, [kind], kind === "crawl" ? "crawl job" : "batch scrape job");
    this.jobs.cancel(job);
  }

  /** POST /v2/crawl/params-preview. */
  previewCrawl(body: unknown): CrawlPreview["data"] {
    const call = readPreviewCall(body);
    return previewCrawlParams(call.url, call.prompt).data;
  }

  /**
   * GET /v1|v2/team/token-usage: the team's plan and what is left of it in this billing period.
   * `scope` extract counts extract jobs only (v1: "Extract only"); all counts every endpoint (v2,
   * and the credit check of work-starting requests).
   */
  tokenUsage(team: Team, scope: "all" | "extract" = "all"): TokenUsage {
    return teamUsage(this.tables, team, this.clock(), scope);
  }

  /** GET /v2/team/credit-usage. */
  creditUsage(team: Team): CreditUsage {
    return creditUsage(this.tokenUsage(team));
  }

  /** GET /v2/team/credit-usage/historical (and token-usage/historical): the team's billing periods, newest first. */
  usageHistory(team: Team): UsagePeriod[] {
    return usageHistory(this.tables, team, this.clock());
  }

  /** GET /v2/concurrency-check, /v2/team/queue-status: the team's background jobs running now, its limit, and its latest success of the past 24 hours. */
  load(team: Team): { active: number; max: number; lastSuccess: string | null } {
    const since = new Date(this.clock() - 24 * 3600_000).toISOString();
    return { active: this.jobs.activeJobs(team.id, BACKGROUND), max: team.maxConcurrentJobs, lastSuccess: this.tables.lastSuccess(team.id, since) ?? null };
  }

  /** Stops taking work, lets requests in flight finish, stops jobs (pages in flight are stored), closes the store. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.allSettled([...this.inFlight]);
    await this.monitors.close();
    this.liveness.stop();
    await this.jobs.stopAll();
    await this.shared.close();
    await this.webhooks.close();
    await this.browser.closeAll();
    await this.engine.close();
    this.tables.releaseServer(this.token);
    this.store.close();
  }

  /**
   * Starts a crawl, batch scrape or extract job; with a webhook, the job tells it when it starts,
   * each page it stores (crawl, batch scrape) and how it ended, in that order.
   */
  private startWithWebhook(team: Team, kind: "crawl" | "batch" | "extract", pipeline: Pipeline, info: Parameters<JobRunner["start"]>[3], webhook: JobWebhook | undefined): { id: string } {
    let notifier: JobNotifier | undefined;
    let runId = 0;
    const onPage = webhook && kind !== "extract" ? (url: string) => notifier?.tell("page", jobDocuments(job.id, storedPage(this.store, runId, url))) : undefined;
    const job = this.jobs.start(team.id, kind, pipeline, info, onPage);
    if (!webhook) {
      job.finished.catch(() => {});
      return job;
    }
    runId = this.tables.job(job.id)?.runId ?? 0;
    notifier = this.webhooks.open(job.id, WEBHOOK_KIND[kind], webhook);
    notifier.tell("started", []);
    const told = notifier;
    job.finished.then(
      () => {
        const row = this.tables.job(job.id);
        if (row) told.tell(...jobEnd(this.store, row));
      },
      (error: unknown) => told.tell("failed", [], error instanceof Error ? error.message : String(error)),
    );
    return job;
  }

  /** The team's limit of background jobs running at once, on every replica. */
  private jobSlots(team: Team): { kinds: readonly ServeJobKind[]; max: number } {
    return { kinds: BACKGROUND, max: team.maxConcurrentJobs };
  }

  private async track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    try {
      return await promise;
    } finally {
      this.inFlight.delete(promise);
    }
  }

  /**
   * The scrape options a request runs with under the team's threat protection; the URLs it names
   * are checked before anything is fetched (blocked: 403).
   */
  private guard<T extends ScrapeOptions | undefined>(team: Team, options: T, override: ThreatProtectionOverride | undefined, urls: readonly string[]): T {
    if (this.closing) throw new ScrapelineError("unsupported", "the server is shutting down");
    const policy = effectiveThreatPolicy(team, override);
    for (const url of urls) checkThreatProtection(url, policy, this.riskClassifier);
    if (!options) return options;
    const scoped = { ...options, formats: options.formats.map((f) => (f.type === "changeTracking" ? teamTag(f, team) : f)) } as ScrapeOptions;
    if (policy) scoped.threatProtection = policy;
    else delete scoped.threatProtection;
    return scoped as T;
  }
}
