import { setTimeout as sleep } from "node:timers/promises";
import type { Engine, Pipeline } from "../../core/index.js";
import { serviceCreditRules } from "../../credits/index.js";
import { planPipeline } from "../../planner/index.js";
import { joinCrawl } from "../../runner/index.js";
import type { PostgresStore, SharedCrawl } from "../../store/index.js";
import { FrontierHolder, SharedFrontier, sharingEngine, StoreChangeTracker } from "../common/index.js";

/** How often a worker with nothing to do looks for running crawls. */
const LOOK_FOR_CRAWLS_MS = 250;

/** What a worker tells as it works. */
export type WorkerEvent =
  | { type: "ready" }
  | { type: "joined"; jobId: string; runId: number }
  | { type: "left"; jobId: string; stored: number; failed: number }
  | { type: "finished-for-leader"; jobId: string; pages: number }
  | { type: "error"; jobId: string; message: string };

export interface CrawlWorkerOptions {
  /** Pages in flight per crawl in this process (default: the crawl's own). */
  concurrency?: number;
  /** Work only on crawls whose leader is gone (a serve replica adopting a dead replica's crawls). */
  orphansOnly?: boolean;
  onEvent?: (event: WorkerEvent) => void;
}

/**
 * Works on the running crawls of serve's jobs kept in a shared frontier (PostgreSQL): it joins each
 * one (its pages stored into the job's run and step, as the leader stores its own), leaves it when
 * nothing is left to fetch or the job is cancelled, and finishes the job itself when the replica
 * that led it is gone.
 */
export class CrawlWorker {
  private readonly working = new Map<string, Promise<void>>();
  /** Crawls this worker found with nothing left to fetch: not joined again unless their leader is gone. */
  private readonly over = new Set<string>();

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
        if (this.working.has(crawl.jobId)) continue;
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
    try {
      const planJson = this.store.runPlan(crawl.runId);
      if (!planJson) return;
      const pipeline = JSON.parse(planJson) as Pipeline;
      const plan = planPipeline(this.options.concurrency ? { ...pipeline, concurrency: this.options.concurrency } : pipeline);
      const engine = sharingEngine(
        this.engine,
        (local, request) => (frontier = new SharedFrontier(this.holder, crawl.jobId, local, request, { leads: false, batch: plan.pipeline.concurrency })),
        // The leader read the sitemaps and seeded the crawl: a process joining it reads robots.txt only.
        (request) => ({ ...request, sitemap: "skip" }),
      );
      let stored = 0;
      tell({ type: "joined", jobId: crawl.jobId, runId: crawl.runId });
      const tally = await joinCrawl(
        { engine, store: this.store, credits: serviceCreditRules, changes: new StoreChangeTracker(this.store, pipeline.changeTracking), hosts: this.holder.hostGate() },
        { runId: crawl.runId, plan, stepId: crawl.stepId, stop, onEvent: (event) => void (event.type === "document-stored" && stored++) },
      );
      frontier?.close();
      tell({ type: "left", jobId: crawl.jobId, stored, failed: tally.failures });
      if (frontier?.over) {
        this.over.add(crawl.jobId);
        if (crawl.leaderGone || this.leaderGone(crawl.jobId)) this.finishForLeader(crawl);
      }
    } catch (error) {
      frontier?.close();
      tell({ type: "error", jobId: crawl.jobId, message: error instanceof Error ? error.message : String(error) });
    }
  }

  private leaderGone(jobId: string): boolean {
    return this.holder.tables.runningCrawls().some((c) => c.jobId === jobId && c.leaderGone);
  }

  /** A crawl with nothing left whose leader is gone: this worker finishes its step, its run and its job, once. */
  private finishForLeader(crawl: SharedCrawl): void {
    if (!this.holder.tables.endCrawl(crawl.jobId, { takeOver: true })) return;
    const pages = [...this.store.storedUrls(crawl.runId, crawl.stepId)];
    this.store.finishStep(crawl.runId, crawl.stepId, "succeeded");
    this.store.finishRun(crawl.runId, "succeeded");
    const tables = this.store.serveTables();
    tables.setJobPages(crawl.jobId, pages);
    tables.finishJob(crawl.jobId, pages.length > 0 ? "completed" : "failed", { total: pages.length });
    this.options.onEvent?.({ type: "finished-for-leader", jobId: crawl.jobId, pages: pages.length });
  }
}
