import type { Document, ScrapeExtras, ScrapeOptions, SessionSpec, Step } from "../core/index.js";
import { ScrapelineError } from "../core/index.js";
import type { RunContext } from "./context.js";
import { RunSessions } from "./session.js";

const bySession = new WeakMap<RunContext, { sessions: RunSessions; notes: string[] }>();

/** The run's sessions, made on first use. */
export function runSessions(ctx: RunContext): RunSessions {
  return sessionsOf(ctx).sessions;
}

function sessionsOf(ctx: RunContext): { sessions: RunSessions; notes: string[] } {
  let held = bySession.get(ctx);
  if (!held) {
    const notes: string[] = [];
    const { pipeline } = ctx.plan;
    const sessions = new RunSessions({
      engine: ctx.ports.engine,
      specs: pipeline.sessions ?? {},
      ...(ctx.ports.sessions ? { vault: ctx.ports.sessions } : {}),
      pipelineName: pipeline.name,
      clock: ctx.clock,
      note: (_name, message) => notes.push(message),
    });
    held = { sessions, notes };
    bySession.set(ctx, held);
  }
  return held;
}

/**
 * Before a step that names a session starts: the session is opened (logging in when needed), so
 * a login that fails fails the step with its reason before any page is asked for.
 */
export async function openStepSession(ctx: RunContext, step: Step, signal: AbortSignal): Promise<void> {
  // An interact step carries on in the session of its scrape unless it names its own.
  const from = step.kind === "interact" ? ctx.plan.pipeline.steps.find((s) => s.id === step.body.from) : undefined;
  const name = step.session ?? from?.session;
  if (name === undefined) return;
  const held = sessionsOf(ctx);
  try {
    await held.sessions.open(name, AbortSignal.any([signal, ctx.abort]));
  } finally {
    for (const message of held.notes.splice(0)) ctx.emit({ type: "step-warning", stepId: step.id, message });
  }
}

/**
 * A page loaded logged in. A page that lands on the session's login page (or answers 401) shows
 * the login has expired: the session logs in again, once for all pages that saw it, and the page
 * is loaded again; landing there a second time fails the page.
 */
export async function scrapeInSession(ctx: RunContext, name: string, url: string, options: ScrapeOptions, signal: AbortSignal, extras: ScrapeExtras = {}): Promise<Document> {
  const sessions = runSessions(ctx);
  const spec = sessions.spec(name);
  const session = await sessions.open(name, signal);
  const page = await ctx.ports.engine.scrape(url, options, signal, { ...extras, session });
  if (!expired(page, url, spec)) return page;
  const renewed = await sessions.renew(session, signal);
  const again = await ctx.ports.engine.scrape(url, options, signal, { ...extras, session: renewed });
  if (expired(again, url, spec)) {
    throw new ScrapelineError("bad-content", `${url} still led to the login page of session "${name}" right after a fresh login: the login does not give access to it`, { url });
  }
  return again;
}

/** Options of a page loaded in a session: never answered from, nor kept in, the shared page cache. */
export function sessionPageOptions(options: ScrapeOptions): ScrapeOptions {
  return { ...options, maxAge: 0, storeInCache: false };
}

function expired(page: Document, url: string, spec: SessionSpec): boolean {
  if (page.metadata.statusCode === 401) return true;
  const login = where(spec.url);
  return login !== undefined && where(page.metadata.url || url) === login && where(url) !== login;
}

function where(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}
