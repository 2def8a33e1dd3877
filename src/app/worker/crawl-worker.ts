import { setTimeout as sleep } from "node:timers/promises";
import type { Engine, Pipeline } from "../../core/index.js";
import { serviceCreditRules } from "../../credits/index.js";
import { planPipeline } from "../../planner/index.js";
import { joinBatch, joinCrawl, type RunnerPorts } from "../../runner/index.js";
import type { PostgresStore, SharedCrawl } from "../../store/index.js";
import { FrontierHolder, JobHeaderKey, leaveJobEnd, SharedFrontier, sharedBatchFrontier, sharingEngine, StoreChangeTracker } from "../common/index.js";

/** Without SCRAPELINE_SECRET_KEY: no job's header values open. */
const NO_KEY = new JobHeaderKey({});

/** How often a worker with nothing to do looks for running crawls and batches. */
const LOOK_FOR_CRAWLS_MS = 250;

/** What a worker tells as it works. */
export type WorkerEvent =
  | { type: "ready" }
  | { type: "joined"; kind: SharedJobKind; jobId: string; runId: number }
  | { type: "left"; kind: SharedJobKind; jobId: string; stored: number; failed: number }
  | { type: "finished-for-leader"; kind: SharedJobKind; jobId: string; pages: number; failed: number; webhookLeft: boolean }
  | { type: "skipped"; kind: SharedJobKind; jobId: string; why: string }
  | { type: "error"; jobId: string; message: string };

/** The jobs whose pages processes share: a crawl (its links followed) and a batch scrape (its URLs only). */
export type SharedJobKind = "crawl" | "batch";

export interface CrawlWorkerOptions {
  /** Pages in flight per crawl in this process (default: the crawl's own). */
  concurrency?: number;
  /** Work only on crawls and batches whose leader is gone (a serve replica adopting a dead replica's jobs). */
  orphansOnly?: boolean;
  /** Opens the header values kept sealed beside a job (SCRAPELINE_SECRET_KEY): a job whose values it cannot open is left to others. */
  headerKey?: JobHeaderKey;
  onEvent?: (event: WorkerEvent) => void;
}

/**
 * Works on the running crawls and batch scrapes of serve's jobs kept in a shared frontier
 * (PostgreSQL): it joins each one (its pages stored into the job's run and step, as the leader
 * stores its own), leaves it when nothing is left to fetch or the job is cancelled, and finishes
 * the job itself when the replica that led it is gone.
 */
export class CrawlWorker {
  private readonly working = new Map<string, Promise<void>>();
  /** Crawls this worker found with nothing left to fetch: not joined again unless their leader is gone. */
  private readonly over = new Set<string>();
  /** Jobs whose header values this worker cannot open: left to the processes that can, never sent without them. */
  private readonly leftToOthers = new Set<string>();

  constructor(
    private readonly store: PostgresStore,
    private readonly engine: Engine,
    private readonly holder: FrontierHolder,
    private readonly options: CrawlWorkerOptions = {},
  ) {}

  /** Works until `stop`: then takes no more pages, lets those in flight finish and gives its other claims back. */
  async run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      for (const crawl of this.holder.tables.runningCrawls()) {
        if (this.working.has(crawl.jobId) || this.leftToOthers.has(crawl.jobId)) continue;
        if (this.over.has(crawl.jobId) && !crawl.leaderGone) continue;
        if (this.options.orphansOnly && !crawl.leaderGone) continue;
        const work = this.work(crawl, stop).finally(() => this.working.delete(crawl.jobId));
        this.working.set(crawl.jobId, work);
      }
      await sleep(LOOK_FOR_CRAWLS_MS, undefined, { signal: stop }).catch(() => undefined);
    }
    await Promise.all(this.working.values());
  }

  private async work(crawl: SharedCrawl, stop: AbortSignal): Promise<void> {
    const tell = this.options.onEvent ?? (() => undefined);
    let frontier: SharedFrontier | undefined;
    let kind: SharedJobKind = "crawl";
    try {
      const planJson = this.store.runPlan(crawl.runId);
      if (!planJson) return;
      const recorded = JSON.parse(planJson) as Pipeline;
      kind = recorded.steps.find((s) => s.id === crawl.stepId)?.kind === "scrape" ? "batch" : "crawl";
      // Its plan is stored without the request's header values: they are opened from beside the job, or it is left to others.
      const opened = (this.options.headerKey ?? NO_KEY).open(crawl.jobId, recorded, () => this.holder.tables.headerValues(crawl.jobId));
      if ("why" in opened) {
        this.leftToOthers.add(crawl.jobId);
        tell({ type: "skipped", kind, jobId: crawl.jobId, why: opened.why });
        return;
      }
      const pipeline = opened.pipeline;
      const plan = planPipeline(this.options.concurrency ? { ...pipeline, concurrency: this.options.concurrency } : pipeline);
      const batch = plan.pipeline.concurrency;
      const ports: RunnerPorts = { engine: this.engine, store: this.store, credits: serviceCreditRules, changes: new StoreChangeTracker(this.store, pipeline.changeTracking), hosts: this.holder.hostGate() };
      let stored = 0;
      tell({ type: "joined", kind, jobId: crawl.jobId, runId: crawl.runId });
      const join = { runId: crawl.runId, plan, stepId: crawl.stepId, stop, onEvent: (event: { type: string }) => void (event.type === "document-stored" && stored++) };
      const tally =
        kind === "batch"
          ? await joinBatch({ ...ports, sharedUrls: () => (frontier = sharedBatchFrontier(this.holder, crawl.jobId, [], { leads: false, batch })) }, join)
          : await joinCrawl(
              {
                ...ports,
                engine: sharingEngine(
                  this.engine,
                  (local, request) => (frontier = new SharedFrontier(this.holder, crawl.jobId, local, request, { leads: false, batch })),
                  // The leader read the sitemaps and seeded the crawl: a process joining it reads robots.txt only.
                  (request) => ({ ...request, sitemap: "skip" }),
                ),
              },
              join,
            );
      frontier?.close();
      tell({ type: "left", kind, jobId: crawl.jobId, stored, failed: tally.failures });
      if (frontier?.over) {
        this.over.add(crawl.jobId);
        if (crawl.leaderGone || this.leaderGone(crawl.jobId)) this.finishForLeader(crawl, kind);
      }
    } catch (error) {
      frontier?.close();
      tell({ type: "error", jobId: crawl.jobId, message: error instanceof Error ? error.message : String(error) });
    }
  }

  private leaderGone(jobId: string): boolean {
    return this.holder.tables.runningCrawls().some((c) => c.jobId === jobId && c.leaderGone);
  }

  /**
   * A crawl or batch with nothing left whose leader is gone: this worker finishes its step, its
   * run and its job, once, as the leader would have (pages that failed, by any process, fail the
   * step; the job completed when it stored any page). How it ended is left for its webhook in the
   * outbox, which the next live replica sends.
   */
  private finishForLeader(crawl: SharedCrawl, kind: SharedJobKind): void {
    if (!this.holder.tables.endCrawl(crawl.jobId, { takeOver: true })) return;
    const pages = [...this.store.storedUrls(crawl.runId, crawl.stepId)];
    const failed = this.store.failures(crawl.runId).filter((f) => f.stepId === crawl.stepId).length;
    const stepError = failed > 0 ? `${failed} page(s) failed` : undefined;
    this.store.finishStep(crawl.runId, crawl.stepId, failed > 0 ? "failed" : "succeeded", stepError);
    this.store.finishRun(crawl.runId, failed > 0 ? "failed" : "succeeded", failed > 0 ? `failed steps: ${crawl.stepId}` : undefined);
    const tables = this.store.serveTables();
    tables.setJobPages(crawl.jobId, pages);
    const noun = kind === "batch" ? "batch scrape" : "crawl";
    const error = `the ${noun} stored no page${stepError ? `: ${stepError}` : ""}`;
    tables.finishJob(crawl.jobId, pages.length > 0 ? "completed" : "failed", { total: pages.length, ...(pages.length > 0 ? {} : { error }) });
    const webhookLeft = leaveJobEnd(this.store.jobWebhookTables(), crawl.jobId, kind, pages.length > 0 ? { status: "completed" } : { status: "failed", error });
    this.options.onEvent?.({ type: "finished-for-leader", kind, jobId: crawl.jobId, pages: pages.length, failed, webhookLeft });
  }
}
