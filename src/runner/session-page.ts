import type { Document, ScrapeExtras, ScrapeOptions, SessionCheck, SessionHandle, SessionSpec, Step } from "../core/index.js";
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
    const what = still === "shown" ? `still showed expiredWhen ${describeCheck(spec.expiredWhen!)} of session "${name}"` : `still led to the login page of session "${name}"`;
    throw new ScrapelineError("bad-content", `${url} ${what} right after a fresh login: the login does not give access to it`, { url });
  }
  return again;
}

/** Options of a page loaded in a session: never answered from, nor kept in, the shared page cache. */
export function sessionPageOptions(options: ScrapeOptions): ScrapeOptions {
  return { ...options, maxAge: 0, storeInCache: false };
}

/**
 * Why a page shows its session expired: it showed expiredWhen on the session's own site ("shown"),
 * or answered 401 or landed on the login page ("login"); undefined when it did not. The engine's
 * `expiredShown` flag is taken off the page here, so it is never stored.
 */
function expiry(page: Document, url: string, spec: SessionSpec, session: SessionHandle): "shown" | "login" | undefined {
  const shown = page.expiredShown === true;
  delete page.expiredShown;
  const finalUrl = page.metadata.url || url;
  const login = where(spec.url);
  // The login page itself, asked for on purpose, shows the sign-in form: that is no expiry.
  const asked = where(url) !== login;
  if (shown && asked && onSessionSite(finalUrl, spec, session)) return "shown";
  if (page.metadata.statusCode === 401) return "login";
  return login !== undefined && where(finalUrl) === login && asked ? "login" : undefined;
}

/**
 * A page of the session's own site: on the login page's host, or on a host the session's cookies
 * go to. Pages elsewhere (a link to another site) are never judged by expiredWhen.
 */
function onSessionSite(url: string, spec: SessionSpec, session: SessionHandle): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === new URL(spec.url).hostname.toLowerCase()) return true;
  return session.state().cookies.some((c) => {
    const domain = c.domain.toLowerCase();
    if (!domain.startsWith(".")) return host === domain;
    return host === domain.slice(1) || host.endsWith(domain);
  });
}

/** `{selector: "form#login"}` as written in the file. */
function describeCheck(check: SessionCheck): string {
  const [key, value] = Object.entries(check)[0] ?? ["", ""];
  return `{${key}: ${JSON.stringify(value)}}`;
}

function where(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}
