import { randomUUID } from "node:crypto";
import type { LivePage, LivePageStart, ScrapeOptions, Team } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { runCode, type ExecuteResult } from "../sandbox/index.js";
import { readExecuteCall, readSessionCall } from "./browser-requests.js";

export interface BrowserSessionsOptions {
  openPage: (start: LivePageStart) => Promise<LivePage>;
  /** Code may run (serve --allow-code-execution); without it every execute is refused. */
  allowCodeExecution: boolean;
  /** Live sessions a team may hold at once (429 beyond). */
  maxPerTeam: number;
  /** The heap limit of each code run, in MB. */
  memoryMb: number;
  clock: () => number;
  /** Where sessions are recorded for replicas sharing the database: another replica's session is named, not just not found. */
  holders?: BrowserSessionHolders;
}

/** The record of which replica holds each live session. */
export interface BrowserSessionHolders {
  hold(id: string, teamId: number): void;
  drop(id: string): void;
  /** The replica holding the team's session `id`, in words (`scrapeline serve pid N on host`), when another one does. */
  elsewhere(id: string, teamId: number): string | undefined;
}

interface Live {
  id: string;
  teamId: number;
  page: LivePage;
  createdAt: number;
  expiresAt: number;
  activityTtlMs: number;
  lastActivity: number;
  timer: NodeJS.Timeout | undefined;
  /** Runs of code on this page, one after another. */
  queue: Promise<unknown>;
}

/** Scrapes a team may carry on from (/v2/scrape/{id}/interact), kept at most this long and this many. */
const SCRAPE_MEMORY_MS = 24 * 3600_000;
const SCRAPES_KEPT = 1000;

/**
 * Browser sessions of `scrapeline serve` (/v2/browser and /v2/scrape/{id}/interact): each a live
 * page of the team that opened it (another team's id is not found), closed at its ttl, after
 * `activityTtl` without a call, on DELETE, or when the server closes.
 */
export class BrowserSessions {
  private readonly live = new Map<string, Live>();
  private readonly scrapes = new Map<string, { teamId: number; url: string; options: ScrapeOptions; at: number; session?: string }>();

  constructor(private readonly options: BrowserSessionsOptions) {}

  /** POST /v2/browser. */
  async create(team: Team, body: unknown, start: LivePageStart = {}, id: string = randomUUID()): Promise<{ id: string; expiresAt: string }> {
    const call = readSessionCall(body);
    const held = [...this.live.values()].filter((s) => s.teamId === team.id).length;
    if (held >= this.options.maxPerTeam) throw new ScrapelineError("rate-limited", `the team already has ${held} live browser sessions, the most it may hold; DELETE /v2/browser/{id} one first`);
    const page = await this.options.openPage(start);
    const now = this.options.clock();
    const live: Live = { id, teamId: team.id, page, createdAt: now, expiresAt: now + call.ttlMs, activityTtlMs: call.activityTtlMs, lastActivity: now, timer: undefined, queue: Promise.resolve() };
    this.live.set(id, live);
    this.options.holders?.hold(id, team.id);
    this.schedule(live);
    return { id, expiresAt: new Date(live.expiresAt).toISOString() };
  }

  /** POST /v2/browser/{id}/execute. */
  async execute(team: Team, id: string, body: unknown): Promise<ExecuteResult> {
    const call = readExecuteCall(body);
    if (!this.options.allowCodeExecution) throw codeRefused();
    const live = this.find(team, id);
    live.lastActivity = this.options.clock();
    this.schedule(live);
    const run = live.queue.then(() => runCode(live.page, call.code, { timeoutMs: call.timeoutMs, memoryMb: this.options.memoryMb }));
    live.queue = run.catch(() => undefined);
    const result = await run;
    live.lastActivity = this.options.clock();
    this.schedule(live);
    return result;
  }

  /** DELETE /v2/browser/{id}. */
  async close(team: Team, id: string): Promise<void> {
    await this.end(this.find(team, id));
  }

  /** A scrape served to `team`, so that /v2/scrape/{scrapeId}/interact can carry on from it. */
  rememberScrape(teamId: number, scrapeId: string, url: string, options: ScrapeOptions): void {
    const now = this.options.clock();
    for (const [key, kept] of this.scrapes) if (this.scrapes.size >= SCRAPES_KEPT || now - kept.at > SCRAPE_MEMORY_MS) this.scrapes.delete(key);
    this.scrapes.set(scrapeId, { teamId, url, options, at: now });
  }

  /** POST /v2/scrape/{scrapeId}/interact: the scrape's page replayed into a live session (once), then the code run on it. */
  async interact(team: Team, scrapeId: string, body: unknown): Promise<ExecuteResult & { id: string }> {
    const call = readExecuteCall(body);
    if (!this.options.allowCodeExecution) throw codeRefused();
    const scrape = this.scrapes.get(scrapeId);
    if (!scrape || scrape.teamId !== team.id) throw new ScrapelineError("not-found", `no scrape ${scrapeId} of this team to interact with (scrapes are kept for 24 hours)`);
    const id = `scrape-${scrapeId}`;
    if (!this.live.has(id)) await this.create(team, {}, { replay: { url: scrape.url, options: scrape.options } }, id);
    return { id, ...(await this.execute(team, id, body)) };
  }

  /** GET /v2/browser: the team's live sessions (those carrying on from a scrape too), oldest first. */
  list(team: Team): Array<{ id: string; status: "active"; createdAt: string; lastActivity: string; expiresAt: string }> {
    const iso = (ms: number) => new Date(ms).toISOString();
    return [...this.live.values()].filter((s) => s.teamId === team.id).map((s) => ({ id: s.id, status: "active" as const, createdAt: iso(s.createdAt), lastActivity: iso(s.lastActivity), expiresAt: iso(s.expiresAt) }));
  }

  /** DELETE /v2/scrape/{scrapeId}/interact. */
  async stopInteract(team: Team, scrapeId: string): Promise<void> {
    await this.close(team, `scrape-${scrapeId}`);
  }

  /** Closes every session (the server is closing). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((s) => this.end(s)));
  }

  private find(team: Team, id: string): Live {
    const live = this.live.get(id);
    if (live && live.teamId === team.id) return live;
    const elsewhere = live ? undefined : this.options.holders?.elsewhere(id, team.id);
    if (elsewhere) throw new ScrapelineError("not-found", `browser session ${id} is held by another replica (${elsewhere}): a session stays on the replica that opened it; send its calls there`);
    throw new ScrapelineError("not-found", `no browser session ${id}`);
  }

  /** Closes the session at the first of its ttl and its inactivity limit. */
  private schedule(live: Live): void {
    if (live.timer) clearTimeout(live.timer);
    const at = Math.min(live.expiresAt, live.lastActivity + live.activityTtlMs);
    live.timer = setTimeout(() => void this.end(live), Math.max(0, at - this.options.clock()));
    live.timer.unref();
  }

  private async end(live: Live): Promise<void> {
    if (this.live.get(live.id) !== live) return;
    this.live.delete(live.id);
    this.options.holders?.drop(live.id);
    if (live.timer) clearTimeout(live.timer);
    await live.page.close();
  }
}

function codeRefused(): ScrapelineError {
  return new ScrapelineError("blocked", "code execution is off: this server runs code sent to it only when started with --allow-code-execution (it is remote code execution by design)");
}
