import type { Document, ScrapeExtras, ScrapeOptions, SessionHandle, SessionSpec, Step } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import type { RunContext } from "../context.js";
import { RunSessions } from "./session.js";
import { describeExpiry, expiryOf } from "./session-expiry.js";

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
 * A page loaded logged in. A page that lands on the session's login page (or answers 401), or a
 * page of the session's own site that shows its `expiredWhen`, shows the login has expired: the
 * session logs in again, once for all pages that saw it, and the page is loaded again; showing it
 * a second time fails the page.
 */
export async function scrapeInSession(ctx: RunContext, name: string, url: string, options: ScrapeOptions, signal: AbortSignal, extras: ScrapeExtras = {}): Promise<Document> {
  const sessions = runSessions(ctx);
  const spec = sessions.spec(name);
  const session = await sessions.open(name, signal);
  const judged: ScrapeExtras = spec.expiredWhen ? { ...extras, expiredWhen: spec.expiredWhen } : extras;
  const page = await ctx.ports.engine.scrape(url, options, signal, { ...judged, session });
  if (expiry(page, url, spec, session) === undefined) return page;
  const renewed = await sessions.renew(session, signal);
  const again = await ctx.ports.engine.scrape(url, options, signal, { ...judged, session: renewed });
  const still = expiry(again, url, spec, renewed);
  if (still !== undefined) {
    throw new ScrapelineError("bad-content", `${url} ${describeExpiry(still, spec)} right after a fresh login: the login does not give access to it`, { url });
  }
  return again;
}

/** Options of a page loaded in a session: never answered from, nor kept in, the shared page cache. */
export function sessionPageOptions(options: ScrapeOptions): ScrapeOptions {
  return { ...options, maxAge: 0, storeInCache: false };
}

/**
 * Why a page shows its session expired (see expiryOf). The engine's `expiredShown` flag is taken
 * off the page here, so it is never stored.
 */
function expiry(page: Document, url: string, spec: SessionSpec, session: SessionHandle): "shown" | "login" | undefined {
  const shown = page.expiredShown === true;
  delete page.expiredShown;
  return expiryOf({ url, finalUrl: page.metadata.url || url, status: page.metadata.statusCode, expiredShown: shown }, spec, session);
}
