import type { MonitorEvent } from "../../core/index.js";
import { knownTimeZone, ScrapelineError } from "../../core/index.js";
import { withoutClientKeys } from "../../pipeline/index.js";

/** What a monitor made through /v2/monitor runs, as the hosted service shapes it. */
export interface MonitorDefinition {
  name: string;
  schedule: { cron: string; timezone: string };
  targets: MonitorTarget[];
  webhook?: { url: string; secret?: string; events: MonitorEvent[] };
  retentionDays: number;
}

export type MonitorTarget =
  | { type: "scrape"; urls: string[]; scrapeOptions?: Record<string, unknown> }
  | { type: "crawl"; url: string; crawlOptions?: Record<string, unknown>; scrapeOptions?: Record<string, unknown> };

export const MAX_TARGETS = 50;
const DEFAULT_RETENTION_DAYS = 30;
const EVENTS: readonly MonitorEvent[] = ["monitor.page", "monitor.check.completed", "failed"];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A 400 naming the field. */
export function bad(field: string, message: string): ScrapelineError {
  return new ScrapelineError("invalid-input", `Bad Request: ${field}: ${message}`);
}

function closed(value: Obj, field: string, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw bad(field ? `${field}.${key}` : key, "unknown field");
}

/** A POST body (every field) or, with `patch`, the fields a PATCH changes, merged over `current`. */
export function readMonitorBody(body: unknown, current?: MonitorDefinition): MonitorDefinition {
  if (!isObj(body)) throw bad("body", "a JSON object is required");
  const raw = withoutClientKeys(body, "other");
  closed(raw, "", ["name", "schedule", "targets", "webhook", "retentionDays"]);
  const out: Partial<MonitorDefinition> = current ? structuredClone(current) : {};
  if (raw.name !== undefined || !current) {
    if (typeof raw.name !== "string" || raw.name.trim() === "" || raw.name.length > 100) throw bad("name", "a non-empty string of at most 100 characters is required");
    out.name = raw.name;
  }
  if (raw.schedule !== undefined || !current) out.schedule = readSchedule(raw.schedule);
  if (raw.targets !== undefined || !current) out.targets = readTargets(raw.targets);
  if (raw.webhook !== undefined) {
    if (raw.webhook === null) delete out.webhook;
    else out.webhook = readWebhook(raw.webhook);
  }
  if (raw.retentionDays !== undefined || !current) {
    const days = raw.retentionDays ?? DEFAULT_RETENTION_DAYS;
    if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > 3650) throw bad("retentionDays", "an integer from 1 to 3650 is required");
    out.retentionDays = days;
  }
  return out as MonitorDefinition;
}

function readSchedule(raw: unknown): MonitorDefinition["schedule"] {
  if (!isObj(raw)) throw bad("schedule", "an object {cron, timezone} is required");
  closed(raw, "schedule", ["cron", "timezone", "text"]);
  if (raw.text !== undefined) throw bad("schedule.text", "schedules in words are not supported here; give a cron pattern");
  if (typeof raw.cron !== "string" || raw.cron.trim() === "") throw bad("schedule.cron", "a cron pattern is required");
  const timezone = raw.timezone ?? "UTC";
  if (typeof timezone !== "string" || !knownTimeZone(timezone)) throw bad("schedule.timezone", `unknown time zone ${JSON.stringify(timezone)}`);
  return { cron: raw.cron.trim(), timezone };
}

function readTargets(raw: unknown): MonitorTarget[] {
  if (!Array.isArray(raw) || raw.length === 0) throw bad("targets", "a list of 1 to 50 targets is required");
  if (raw.length > MAX_TARGETS) throw bad("targets", `at most ${MAX_TARGETS} targets, got ${raw.length}`);
  return raw.map((t, i) => readTarget(t, `targets[${i}]`));
}

function readTarget(raw: unknown, field: string): MonitorTarget {
  if (!isObj(raw)) throw bad(field, "an object is required");
  const options = (key: string) => {
    const value = raw[key];
    if (value === undefined) return {};
    if (!isObj(value)) throw bad(`${field}.${key}`, "an object is required");
    return { [key]: structuredClone(value) };
  };
  if (raw.type === "scrape") {
    closed(raw, field, ["type", "urls", "scrapeOptions"]);
    if (!Array.isArray(raw.urls) || raw.urls.length === 0 || !raw.urls.every((u) => typeof u === "string" && /^https?:\/\//.test(u))) throw bad(`${field}.urls`, "a non-empty list of http(s) URLs is required");
    return { type: "scrape", urls: [...(raw.urls as string[])], ...options("scrapeOptions") };
  }
  if (raw.type === "crawl") {
    closed(raw, field, ["type", "url", "crawlOptions", "scrapeOptions"]);
    if (typeof raw.url !== "string" || !/^https?:\/\//.test(raw.url)) throw bad(`${field}.url`, "an http(s) URL is required");
    return { type: "crawl", url: raw.url, ...options("crawlOptions"), ...options("scrapeOptions") };
  }
  if (raw.type === "search") throw bad(`${field}.type`, "search targets are not supported by this server");
  throw bad(`${field}.type`, 'scrape or crawl is required');
}

function readWebhook(raw: unknown): NonNullable<MonitorDefinition["webhook"]> {
  const value = typeof raw === "string" ? { url: raw } : raw;
  if (!isObj(value)) throw bad("webhook", "a URL or an object {url, secret, events} is required");
  closed(value, "webhook", ["url", "secret", "events"]);
  if (typeof value.url !== "string" || !/^https?:\/\//.test(value.url)) throw bad("webhook.url", "an http(s) URL is required");
  if (value.secret !== undefined && (typeof value.secret !== "string" || value.secret === "")) throw bad("webhook.secret", "a non-empty string is required");
  let events: MonitorEvent[] = ["monitor.check.completed", "monitor.page"];
  if (value.events !== undefined) {
    if (!Array.isArray(value.events) || value.events.length === 0 || !value.events.every((e) => EVENTS.includes(e as MonitorEvent))) throw bad("webhook.events", `a list of ${EVENTS.join(", ")} is required`);
    events = [...new Set(value.events as MonitorEvent[])];
  }
  return { url: value.url, ...(typeof value.secret === "string" ? { secret: value.secret } : {}), events };
}

/** The variable a monitor's webhook secret is given to its runs in. */
export const SECRET_VARIABLE = "SCRAPELINE_MONITOR_WEBHOOK_SECRET";

/** The variable a target's header value is given to its runs in (target and header by position). */
const headerVariable = (target: number, header: number) => `SCRAPELINE_MONITOR_HEADER_${target + 1}_${header + 1}`;

/** A target's request headers, when it has any. */
export function targetHeaders(target: MonitorTarget): Obj | undefined {
  const headers = target.scrapeOptions?.headers;
  return isObj(headers) ? headers : undefined;
}

/** A target's headers with each value a reference to its variable. */
function headerReferences(target: MonitorTarget, i: number): { headers?: Obj } {
  const headers = targetHeaders(target);
  return headers ? { headers: Object.fromEntries(Object.entries(headers).map(([name, value], j) => [name, typeof value === "string" && value !== "" ? `\${${headerVariable(i, j)}}` : value])) } : {};
}

/** The variables a monitor's pipeline text refers to: its webhook secret and its targets' header values. */
export function monitorVariables(definition: MonitorDefinition): Record<string, string> {
  const out: Record<string, string> = definition.webhook?.secret ? { [SECRET_VARIABLE]: definition.webhook.secret } : {};
  definition.targets.forEach((target, i) => Object.values(targetHeaders(target) ?? {}).forEach((value, j) => typeof value === "string" && value !== "" && (out[headerVariable(i, j)] = value)));
  return out;
}

/** The tag that keeps a monitor's change history apart from every other. */
export const monitorTag = (id: string) => `monitor-${id}`;

/**
 * The pipeline a monitor's check runs, as JSON text (valid YAML): one step per target, each page
 * compared with its previous version under the monitor's own tag.
 */
export function monitorPipeline(id: string, definition: MonitorDefinition, options: { allowPrivateNetwork: boolean }): string {
  const tracking = { type: "changeTracking", modes: ["git-diff"], tag: monitorTag(id) };
  const withTracking = (scrapeOptions: Obj | undefined) => {
    const formats = Array.isArray(scrapeOptions?.formats) ? (scrapeOptions!.formats as unknown[]).filter((f) => !(f === "changeTracking" || (isObj(f) && f.type === "changeTracking"))) : [];
    if (!formats.some((f) => f === "markdown" || (isObj(f) && f.type === "markdown"))) formats.unshift("markdown");
    return { ...(scrapeOptions ?? {}), formats: [...formats, tracking] };
  };
  // What the team wrote is taken literally: a ${…} in it must not read the server's environment.
  // Header values (credentials for the site) reach the run as variables, as the secret does.
  const scrapeOptionsOf = (target: MonitorTarget, i: number) => ({ ...withTracking(literal(target.scrapeOptions)), ...headerReferences(target, i) });
  const steps = definition.targets.map((target, i) => {
    const id = `target-${i + 1}`;
    if (target.type === "scrape") return { id, continueOnError: true, scrape: { urls: literal(target.urls), ...scrapeOptionsOf(target, i) } };
    return { id, continueOnError: true, crawl: { ...literal(target.crawlOptions ?? {}), url: literal(target.url), scrapeOptions: scrapeOptionsOf(target, i) } };
  });
  const pipeline: Obj = { version: 1, name: `monitor-${id}`, allowPrivateNetwork: options.allowPrivateNetwork, schedule: literal(definition.schedule), steps };
  // The secret reaches the run as a variable, so the plan stored with each run shows ${…}, not it.
  if (definition.webhook) pipeline.notify = { on: ["changed", "new", "removed", "failed"], channels: [{ webhook: { ...literal(definition.webhook), format: "service", id, ...(definition.webhook.secret ? { secret: `\${${SECRET_VARIABLE}}` } : {}) } }] };
  return `${JSON.stringify(pipeline, null, 2)}\n`;
}

/** A copy of `value` whose strings keep any `${` as written when the pipeline text is interpolated (`$${`). */
function literal<T>(value: T): T {
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return node.split("${").join("$${");
    if (Array.isArray(node)) return node.map(walk);
    if (isObj(node)) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(value) as T;
}
