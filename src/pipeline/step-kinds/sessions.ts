import type { Action, SessionCheck, SessionSpec } from "../../core/index.js";
import { DEFAULT_ACTIONS, DEFAULT_SESSION } from "../defaults.js";
import type { Interpolation } from "../interpolate.js";
import type { Reporter } from "../reporter.js";
import { isObj, stepsOf, type Obj } from "../sites.js";
import { didYouMean, listOf } from "../suggest.js";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `12h`, `90m`, `30s`, `1d`, `500ms` or a number of milliseconds, in milliseconds. */
export function durationMs(value: unknown): number {
  if (typeof value === "number") return value;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(String(value));
  if (!match) throw new Error(`not a duration: ${JSON.stringify(value)}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/** The file's `sessions` (schema-valid) with defaults applied and each login named. */
export function normalizeSessions(sessions: Obj): Record<string, SessionSpec> {
  const out: Record<string, SessionSpec> = {};
  for (const [name, raw] of Object.entries(sessions)) {
    const spec = raw as Obj;
    out[name] = {
      name,
      url: spec.url as string,
      actions: (spec.actions as Obj[]).map((a) => ({ ...structuredClone(DEFAULT_ACTIONS[a.type as string] ?? {}), ...structuredClone(a) }) as Action),
      successWhen: structuredClone(spec.successWhen) as SessionCheck,
      ...(isObj(spec.expiredWhen) ? { expiredWhen: structuredClone(spec.expiredWhen) as SessionCheck } : {}),
      maxAgeMs: durationMs(spec.maxAge ?? DEFAULT_SESSION.maxAge),
      timeoutMs: (spec.timeoutMs as number | undefined) ?? DEFAULT_SESSION.timeoutMs,
    };
  }
  return out;
}

/** Steps that name a session name one the file declares, on a step kind that loads pages; urlMatches compiles. */
export function checkSessions(data: unknown, report: Reporter): void {
  const declared = isObj(data) && isObj(data.sessions) ? data.sessions : {};
  const names = Object.keys(declared);
  for (const [name, spec] of Object.entries(declared)) {
    for (const check of ["successWhen", "expiredWhen"]) {
      const body = isObj(spec) ? spec[check] : undefined;
      if (!isObj(body) || typeof body.urlMatches !== "string") continue;
      try {
        new RegExp(body.urlMatches);
      } catch (error) {
        report.error(["sessions", name, check, "urlMatches"], { code: "bad-regex", message: `urlMatches is not a valid regular expression: ${(error as Error).message}` });
      }
    }
  }
  for (const { index, step } of stepsOf(data)) {
    if (typeof step.session !== "string") continue;
    const path = ["steps", index, "session"];
    if (!("scrape" in step || "crawl" in step || "extract" in step || "interact" in step || "agent" in step)) {
      report.error(path, { code: "session-not-used", message: "only scrape, crawl, extract, interact and agent steps load pages with a session", hint: "remove session from this step" });
      continue;
    }
    if (firecrawl(data)) {
      const id = typeof step.id === "string" ? step.id : String(index + 1);
      report.error(path, { code: "session-on-firecrawl", message: sessionOnFirecrawl(id, step.session), hint: "run the pipeline on engine: local (the default), or remove session from this step" });
      continue;
    }
    if (!names.includes(step.session)) {
      report.error(path, {
        code: "unknown-session",
        message: `session "${step.session}" is not declared in sessions`,
        hint: didYouMean(step.session, names) ?? (names.length ? `sessions: ${listOf(names.map((n) => `"${n}"`))}` : "declare it under sessions: at the top of the file"),
      });
    }
  }
}

/** A login's `write` actions type credentials: text written in the file itself (not `${VAR}`) is warned about. */
export function warnLiteralCredentials(data: unknown, interpolations: readonly Interpolation[], report: Reporter): void {
  const declared = isObj(data) && isObj(data.sessions) ? data.sessions : {};
  const from = new Set(interpolations.map((i) => i.path.join("\u0000")));
  for (const [name, spec] of Object.entries(declared)) {
    if (!isObj(spec) || !Array.isArray(spec.actions)) continue;
    spec.actions.forEach((action, i) => {
      if (!isObj(action) || action.type !== "write" || typeof action.text !== "string") return;
      const path = ["sessions", name, "actions", i, "text"];
      if (from.has(path.join("\u0000"))) return;
      report.warn(path, { code: "credential-in-file", message: "this login types text written in the file itself", hint: "credentials go in through the environment: write \"${NAME}\" and set NAME" });
    });
  }
}

function firecrawl(data: unknown): boolean {
  if (!isObj(data)) return false;
  return data.engine === "firecrawl" || (isObj(data.engine) && data.engine.kind === "firecrawl");
}

function sessionOnFirecrawl(stepId: string, session: string): string {
  return `step "${stepId}" uses session "${session}", which the firecrawl engine cannot do: the service has no pipeline sessions (logins are made and kept by the local engine)`;
}

/**
 * A pipeline run on another engine than the one it names (`--engine firecrawl`): the first step
 * that uses a session, as an error message, when that engine is firecrawl.
 */
export function sessionsOnEngine(pipeline: { steps: ReadonlyArray<{ id: string; session?: string; kind?: string; body?: unknown }> }, engine: "local" | "firecrawl"): string | undefined {
  if (engine !== "firecrawl") return undefined;
  const step = pipeline.steps.find((s) => s.session !== undefined);
  if (step) return `${sessionOnFirecrawl(step.id, step.session!)}; run it on --engine local`;
  const tabs = pipeline.steps.find((s) => s.kind === "interact" && isObj(s.body) && s.body.tabs !== undefined);
  return tabs ? `${tabsOnFirecrawl(tabs.id)}; run it on --engine local` : undefined;
}

function tabsOnFirecrawl(stepId: string): string {
  return `interact step "${stepId}" opens tabs, which the firecrawl engine cannot do: tabs are opened in a browser this process drives`;
}

/** An interact step's tabs need the local engine's browser. */
export function checkTabsEngine(data: unknown, report: Reporter): void {
  if (!firecrawl(data)) return;
  for (const { index, step } of stepsOf(data)) {
    if (!isObj(step.interact) || step.interact.tabs === undefined) continue;
    const id = typeof step.id === "string" ? step.id : String(index + 1);
    report.error(["steps", index, "interact", "tabs"], { code: "tabs-on-firecrawl", message: tabsOnFirecrawl(id), hint: "run the pipeline on engine: local (the default), or remove tabs from this step" });
  }
}
