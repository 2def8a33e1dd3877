import { createHash, randomUUID } from "node:crypto";
import type { Document, Engine, Pipeline, RunRecord, ServeJob, ServeJobKind, ServeJobStatus, Store } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { serviceCreditRules } from "../../credits/index.js";
import { planPipeline } from "../../planner/index.js";
import { runPlan, type RunnerPorts, type RunResult } from "../../runner/index.js";
import type { ServeTables, RunsStore } from "../../store/index.js";
import { FrontierHolder, inlineAssets, JobHeaderKey, type OpenedPlan, SharedFrontier, sharedBatchFrontier, sharingEngine, storedWhole, withoutHeaderValues } from "../common/index.js";
import { StoreChangeTracker } from "../common/index.js";
import { concurrencyRefused } from "./limits.js";
import { runAgent } from "../../agent/index.js";
import { endShared, JOB_STEP_ID, shareJob, tellStored, type RunningJob } from "./running-job.js";

export { JOB_STEP_ID } from "./running-job.js";

/** Where a job's pages are stored and how a stored page's URL is listed (a parse job's uploads). */
interface JobStorage {
  store?: Store;
  storedAs?: (url: string) => string;
}

/** What a replica that takes a job over does with it: carried on (here, or by the processes sharing it), or why not. */
export type CarryOn = { carriedOn: true } | { carriedOn: false; why?: string };

/** The jobs another process may carry on (shared with workers, or resumed after their replica died): their header values are kept sealed. */
const CARRIED_ON: readonly ServeJobKind[] = ["crawl", "batch", "extract", "agent"];

/** How often a job on a database replicas share looks whether one of them cancelled it. */
const CANCEL_LOOK_MS = 250;

export interface JobOutcome {
  id: string;
  runId: number;
  result: RunResult;
}

/**
 * Runs each job (crawl, batch scrape, scrape, map) as a one-step plan through the runner, so the
 * pool, retries, robots.txt, the page cache, change tracking and storage are the pipelines' own.
 * The job table maps the job id to its team, kind and run; pages are read back from the store.
 */
export class JobRunner {
  private readonly running = new Map<string, RunningJob>();
  /** Whether other replicas share the database (PostgreSQL): a job may be cancelled on one of them. */
  private readonly replicasShare: boolean;

  constructor(
    private readonly store: RunsStore,
    private readonly tables: ServeTables,
    private readonly engine: Engine,
    /** This process's name and lease in shared crawls (PostgreSQL): crawls share their frontier with other replicas and workers. */
    private readonly holder?: FrontierHolder,
    /** Seals a job's header values to keep beside it (with SCRAPELINE_SECRET_KEY), so the processes holding the key can run it as it was sent. */
    private readonly headerKey: JobHeaderKey = new JobHeaderKey({}),
  ) {
    this.replicasShare = tables.sharedByReplicas();
  }

  /**
   * The team's crawls running now, on every replica sharing the database, with the options they
   * run with (GET /v2/crawl/active): this replica's as it runs them, others' as their runs
   * recorded them; header values left out of both.
   */
  activeCrawls(teamId: number): Array<{ id: string; url: string | null; createdAt: string; options: Record<string, unknown> }> {
    return this.tables.runningJobs(teamId, ["crawl"]).map((row) => {
      const { url: _url, ...options } = withoutHeaderValues(this.running.get(row.id)?.request ?? this.recordedRequest(row)) as Record<string, unknown>;
      return { id: row.id, url: row.url, createdAt: row.createdAt, options };
    });
  }

  /** Jobs of a team running now, of the given kinds, on every replica sharing the database. */
  activeJobs(teamId: number, kinds: readonly ServeJobKind[]): number {
    return this.tables.runningJobs(teamId, kinds).length;
  }

  /** The request a job's run recorded (its one step's body). */
  private recordedRequest(job: ServeJob): unknown {
    const plan = job.runId === null ? undefined : this.store.runPlan(job.runId);
    return plan ? (JSON.parse(plan) as { steps?: Array<{ body?: unknown }> }).steps?.[0]?.body ?? {} : {};
  }

  /**
   * Starts a job; resolves when it has finished (status stored). The job row and its run exist
   * before this returns, so the job can be polled at once.
   */
  start(
    teamId: number,
    kind: ServeJobKind,
    pipeline: Pipeline,
    info: { url: string | null; total: number | null; within?: { kinds: readonly ServeJobKind[]; max: number } } & JobStorage,
    onPage?: (url: string) => void,
  ): { id: string; finished: Promise<JobOutcome> } {
    const id = randomUUID();
    // The team's limit of running jobs is checked as the job is recorded: replicas starting jobs at once take turns.
    if (!this.tables.createJob({ id, teamId, kind, url: info.url, total: info.total }, info.within)) throw concurrencyRefused(this.activeJobs(teamId, info.within!.kinds), info.within!.max);
    const step = pipeline.steps[0]!;
    const job: RunningJob = { id, teamId, kind, stop: new AbortController(), cancelled: false, stored: 0, pages: [], done: Promise.resolve(), ...(onPage ? { onPage } : {}), ...(step.kind === "crawl" ? { limit: step.body.limit, request: step.body } : {}) };
    // On PostgreSQL, with a key, its header values are kept sealed beside it: processes with the key may share it or resume it.
    const sealed = this.holder && CARRIED_ON.includes(kind) ? this.headerKey.seal(id, pipeline) : undefined;
    if (sealed !== undefined) {
      this.holder!.tables.keepHeaderValues(id, sealed);
      job.headersKept = true;
    }
    // The request's header values (the client's credentials for the site) are used, not stored.
    const finished = this.launch(job, pipeline, JSON.stringify({ ...withoutHeaderValues(pipeline), file: undefined }), info);
    if (job.runId === undefined) throw new ScrapelineError("internal", "the job's run did not start");
    return { id, finished };
  }

  /**
   * Carries on here an extract or agent job that a replica which died left running: its run's
   * stored plan runs again on the same run (as `scrapeline run --resume` does), so what it stored
   * stays and the rest is done; `onEnd` is told once it has ended. When its request had header
   * values, only with the key they were kept sealed with (else it says why); not for other kinds of jobs.
   */
  resume(row: ServeJob, onEnd: (job: ServeJob) => void): CarryOn {
    if (row.kind !== "extract" && row.kind !== "agent") return { carriedOn: false };
    const run = row.runId === null ? undefined : this.store.getRun(row.runId);
    const planJson = run ? this.store.runPlan(run.id) : undefined;
    if (!run || !planJson) return { carriedOn: false, why: "its run was not recorded" };
    const opened = this.openPlan(row.id, JSON.parse(planJson) as Pipeline);
    if ("why" in opened) return { carriedOn: false, why: opened.why };
    const pipeline = opened.pipeline;
    const pages = [...this.store.storedUrls(run.id, JOB_STEP_ID)];
    const job: RunningJob = { id: row.id, teamId: row.teamId, kind: row.kind, stop: new AbortController(), cancelled: false, stored: pages.length, pages, runId: run.id, done: Promise.resolve() };
    const told = () => onEnd(this.tables.job(row.id) ?? row);
    this.launch(job, pipeline, planJson, {}, run).then(told, told);
    return { carriedOn: true };
  }

  /**
   * Whether this replica can carry on a shared crawl or batch a dead replica led: its header values,
   * if it had any, open with this replica's key. Else it says why (the job then ends cancelled).
   */
  carryOnShared(row: ServeJob): CarryOn {
    const planJson = row.runId === null ? undefined : this.store.runPlan(row.runId);
    if (!planJson) return { carriedOn: true };
    const opened = this.openPlan(row.id, JSON.parse(planJson) as Pipeline);
    return "why" in opened ? { carriedOn: false, why: opened.why } : { carriedOn: true };
  }

  /** A job's stored plan with the header values kept sealed beside it, or why it cannot run here. */
  private openPlan(jobId: string, stored: Pipeline): OpenedPlan<Pipeline> {
    return this.headerKey.open(jobId, stored, () => this.holder?.tables.headerValues(jobId));
  }

  /** Runs a job's plan (a new run, or `resume` carried on), recording its pages and how it ended. */
  private launch(job: RunningJob, pipeline: Pipeline, planJson: string, storage: JobStorage, resume?: RunRecord): Promise<JobOutcome> {
    const { id, kind, stop } = job;
    const cancelWatch = this.watchCancelElsewhere(job);
    const finished = runPlan(
      {
        engine: this.observeCrawl(job, pipeline),
        store: storage.store ?? this.store,
        credits: serviceCreditRules,
        changes: new StoreChangeTracker(this.store, pipeline.changeTracking),
        agent: runAgent,
        // A crawl's or batch's requests per host are counted with the other processes fetching from the same sites.
        ...(this.holder && (kind === "crawl" || kind === "batch") ? { hosts: this.holder.hostGate() } : {}),
        ...this.shareBatch(job, pipeline),
      },
      {
        plan: planPipeline(pipeline),
        planJson,
        pipelineHash: createHash("sha256").update(planJson).digest("hex"),
        stop: stop.signal,
        ...(resume ? { resume } : {}),
        onEvent: (event) => {
          if (event.type === "run-started") {
            job.runId = event.runId;
            if (!resume) this.tables.setJobRun(id, event.runId);
          } else if (event.type === "document-stored" && event.stepId === JOB_STEP_ID) {
            job.stored++;
            job.pages.push(storage.storedAs ? storage.storedAs(event.url) : event.url);
            if (job.told) tellStored(job, this.store, [event.url]);
            else job.onPage?.(event.url);
          }
        },
      },
    ).then(
      (result) => {
        clearInterval(cancelWatch);
        endShared(job, this.holder, this.store);
        this.tables.setJobPages(id, job.pages);
        this.tables.finishJob(id, this.statusOf(job, result), job.cancelled ? {} : { total: job.stored, ...(result.status === "failed" && job.stored === 0 ? { error: this.stepError(result.runId) } : {}) });
        return { id, runId: result.runId, result };
      },
      (error: unknown) => {
        clearInterval(cancelWatch);
        endShared(job, this.holder, this.store);
        this.tables.setJobPages(id, job.pages);
        this.tables.finishJob(id, job.cancelled ? "cancelled" : "failed", { error: error instanceof Error ? error.message : String(error) });
        throw error;
      },
    );
    job.done = finished.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(id, job);
    void job.done.finally(() => this.running.delete(id));
    return finished;
  }

  /**
   * On a database replicas share, looks every CANCEL_LOOK_MS whether another replica cancelled the
   * job: then it starts no more pages. (Asked per stored page before: a round trip to PostgreSQL
   * each, and a job storing nothing for a while never heard of the cancel.) None on SQLite: one server.
   */
  private watchCancelElsewhere(job: RunningJob): NodeJS.Timeout | undefined {
    if (!this.replicasShare) return undefined;
    const timer = setInterval(() => {
      try {
        if (job.cancelled || !this.tables.cancelledElsewhere(job.id)) return;
        job.cancelled = true;
        job.stop.abort();
      } catch {
        // The database is unreachable for now: the next look asks again.
      }
    }, CANCEL_LOOK_MS);
    timer.unref();
    return timer;
  }

  private statusOf(job: RunningJob, result: RunResult): ServeJobStatus {
    if (job.cancelled) return "cancelled";
    if (result.status === "succeeded") return "completed";
    if (result.status === "interrupted") return "cancelled";
    // An extract is one result: when its step failed, the job failed, whatever pages it stored.
    if (job.kind === "extract") return "failed";
    // A crawl or batch with some failed pages still completed; failed means nothing came of it.
    return job.stored > 0 ? "completed" : "failed";
  }

  private stepError(runId: number): string | undefined {
    const step = this.store.getSteps(runId)[0];
    const failure = this.store.failures(runId)[0];
    return failure?.error ?? step?.error ?? undefined;
  }

  /**
   * A crawl's engine whose frontier the job keeps, to report how many pages it expects: the
   * server's engine in every other respect (threat checks, kept pages, search…), never closed by the job.
   */
  private observeCrawl(job: RunningJob, pipeline: Pipeline): Engine {
    const engine = this.engine;
    if (job.kind !== "crawl" || !engine.startCrawl) return engine;
    const holder = this.holder;
    const step = pipeline.steps[0]!;
    const body = step.kind === "crawl" ? step.body : undefined;
    // A crawl sent with header values (the client's credentials for the site) is shared only when they were kept sealed for processes with the key.
    if (holder && body && (storedWhole(body) || job.headersKept)) {
      return sharingEngine(engine, (local, request) => {
        const shared = shareJob(job, holder, this.store, request.limit, () => new SharedFrontier(holder, job.id, local, request, { leads: true, batch: pipeline.concurrency }));
        job.frontier = shared;
        return shared;
      });
    }
    const startCrawl = engine.startCrawl.bind(engine);
    const observed: Engine = Object.create(engine, {
      startCrawl: {
        value: async (...args: Parameters<typeof startCrawl>) => {
          const frontier = await startCrawl(...args);
          job.frontier = frontier;
          return frontier;
        },
      },
      close: { value: async () => {} },
    });
    return observed;
  }

  /**
   * A batch scrape's URLs in the frontier shared with other replicas and workers (PostgreSQL),
   * which claim them and store their pages into its run. A batch sent with header values (the
   * client's credentials for the sites) is shared, as a crawl is, only when they were kept sealed
   * (SCRAPELINE_SECRET_KEY): the processes holding the key send them too.
   */
  private shareBatch(job: RunningJob, pipeline: Pipeline): Pick<RunnerPorts, "sharedUrls"> {
    const holder = this.holder;
    const step = pipeline.steps[0]!;
    if (!holder || job.kind !== "batch" || step.kind !== "scrape" || !(storedWhole(step.body) || job.headersKept)) return {};
    return { sharedUrls: (_stepId, urls) => shareJob(job, holder, this.store, urls.length, () => sharedBatchFrontier(holder, job.id, urls, { leads: true, batch: pipeline.concurrency })) };
  }

  /** The job of a team, of one of the kinds; another team's job is not found. */
  job(teamId: number, id: string, kinds: readonly ServeJobKind[], noun: string): ServeJob {
    const job = this.tables.job(id);
    if (!job || job.teamId !== teamId || !kinds.includes(job.kind)) throw new ScrapelineError("not-found", `${noun} not found`);
    return job;
  }

  /** Pages stored so far, and how many the job expects in all (equal once it has finished). */
  progress(job: ServeJob): { completed: number; total: number } {
    const live = this.running.get(job.id);
    if (!live) {
      const step = job.runId === null ? undefined : this.store.getSteps(job.runId)[0];
      const completed = step?.documents ?? 0;
      return { completed, total: job.status === "cancelled" ? Math.max(completed, job.total ?? 0) : completed };
    }
    const completed = live.shared ? (this.store.getSteps(live.runId!)[0]?.documents ?? 0) : live.stored;
    if (live.frontier) return { completed, total: Math.max(completed + 1, Math.min(live.frontier.stats.found, live.limit ?? Infinity)) };
    return { completed, total: Math.max(completed, job.total ?? completed + 1) };
  }

  /**
   * The job's documents from `skip`, at most `limit` and about `maxBytes` of JSON (never fewer
   * than one), in the order they were stored, which does not change while the job runs or after.
   */
  documents(job: ServeJob, skip: number, limit: number, maxBytes: number): Document[] {
    if (job.runId === null) return [];
    const live = this.running.get(job.id);
    const order = (live?.shared ? [...this.store.storedUrls(job.runId, JOB_STEP_ID)] : live?.pages) ?? this.tables.jobPages(job.id) ?? [...this.store.storedUrls(job.runId, JOB_STEP_ID)];
    const wanted = order.slice(skip, skip + limit);
    const found = new Map<string, Document>();
    for (const stored of this.store.documents(job.runId, JOB_STEP_ID, new Set(wanted))) found.set(stored.url, stored.document);
    const out: Document[] = [];
    let bytes = 0;
    for (const url of wanted) {
      const stored = found.get(url);
      if (!stored) continue;
      const document = inlineAssets(stored, this.store);
      const size = JSON.stringify(document).length;
      if (out.length > 0 && bytes + size > maxBytes) break;
      out.push(document);
      bytes += size;
    }
    return out;
  }

  /** Cancels a job: it starts no more pages, those in flight are stored, and its status is cancelled at once. */
  cancel(job: ServeJob): void {
    const live = this.running.get(job.id);
    if (live) {
      live.cancelled = true;
      live.stop.abort();
    }
    this.tables.finishJob(job.id, "cancelled");
  }

  /** Stops every job (pages in flight finish and are stored; the jobs end cancelled) and waits for them. */
  async stopAll(): Promise<void> {
    const jobs = [...this.running.values()];
    for (const job of jobs) {
      job.cancelled = true;
      job.stop.abort();
    }
    await Promise.all(jobs.map((j) => j.done));
    for (const job of jobs) this.tables.finishJob(job.id, "cancelled", { error: "the server stopped before the job finished" });
  }
}
