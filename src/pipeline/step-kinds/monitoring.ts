import { Cron } from "croner";
import type { MonitorEvent, NotifyChannel, NotifyConfig, NotifyEvent, NotifyRules, ScheduleConfig } from "../../core/index.js";
import { knownTimeZone, parseInterval } from "../../core/index.js";
import * as D from "../defaults.js";
import type { Reporter } from "../reporter.js";
import { isObj, type Obj } from "../sites.js";

const DEFAULT_EVENTS = D.DEFAULT_NOTIFY_CHANNEL.events as readonly MonitorEvent[];
const DEFAULT_SCHEDULE = D.DEFAULT_SCHEDULE;
const DEFAULT_ON = D.DEFAULT_NOTIFY.on as readonly NotifyEvent[];

/** How many upcoming runs are compared to find a pattern's shortest gap. */
const GAP_SAMPLES = 50;

/**
 * The checks of `schedule` that JSON Schema cannot make: exactly one of cron and every, a cron
 * pattern croner accepts, a time zone the runtime knows, no gap under minIntervalSeconds.
 */
export function checkSchedule(data: unknown, report: Reporter): void {
  if (!isObj(data) || !isObj(data.schedule)) return;
  const s = data.schedule;
  const min = typeof s.minIntervalSeconds === "number" ? s.minIntervalSeconds : DEFAULT_SCHEDULE.minIntervalSeconds;
  if (s.cron === undefined && s.every === undefined) {
    report.error(["schedule"], { code: "schedule-without-time", at: "key", message: "schedule needs cron or every", hint: 'e.g. cron: "0 6 * * 1-5" or every: 15m' });
    return;
  }
  if (s.cron !== undefined && s.every !== undefined) {
    report.error(["schedule", "every"], { code: "conflicting-keys", at: "key", message: "schedule has both cron and every", hint: "keep one of them" });
    return;
  }
  const timezone = typeof s.timezone === "string" ? s.timezone : DEFAULT_SCHEDULE.timezone;
  if (typeof s.timezone === "string" && !knownTimeZone(s.timezone)) {
    report.error(["schedule", "timezone"], { code: "unknown-timezone", message: `unknown time zone "${s.timezone}"`, hint: "use an IANA name such as Europe/Berlin, America/New_York or UTC" });
    return;
  }
  if (typeof s.every === "string") {
    const seconds = parseInterval(s.every);
    if (seconds !== undefined && seconds < min) report.error(["schedule", "every"], { code: "interval-too-short", message: `every ${s.every} is shorter than the minimum of ${min} s`, hint: "raise the interval, or lower schedule.minIntervalSeconds if you mean it" });
    else if (seconds === 0) report.error(["schedule", "every"], { code: "interval-too-short", message: "every 0 never advances" });
    return;
  }
  if (typeof s.cron !== "string") return;
  let cron: Cron;
  try {
    cron = new Cron(s.cron, { timezone, paused: true });
  } catch (error) {
    report.error(["schedule", "cron"], { code: "invalid-cron", message: `invalid cron pattern "${s.cron}": ${(error as Error).message.replace(/^CronPattern: /, "")}`, hint: "5 fields (minute hour day-of-month month day-of-week), 6 with seconds first, or @hourly, @daily, @weekly, @monthly, @yearly" });
    return;
  }
  const runs = cron.nextRuns(GAP_SAMPLES, new Date(Date.UTC(2030, 0, 1)));
  if (runs.length === 0) {
    report.error(["schedule", "cron"], { code: "invalid-cron", message: `cron pattern "${s.cron}" never runs` });
    return;
  }
  let gap = Infinity;
  for (let i = 1; i < runs.length; i++) gap = Math.min(gap, (runs[i]!.getTime() - runs[i - 1]!.getTime()) / 1000);
  if (gap < min) report.error(["schedule", "cron"], { code: "interval-too-short", message: `cron pattern "${s.cron}" runs every ${gap} s, under the minimum of ${min} s`, hint: "run less often, or lower schedule.minIntervalSeconds if you mean it" });
}

/** The checks of `notify` that JSON Schema cannot make: a channel is named, `ignore` patterns compile. */
export function checkNotify(data: unknown, report: Reporter): void {
  if (!isObj(data) || !isObj(data.notify)) return;
  if (data.notify.webhook === undefined && data.notify.channels === undefined) {
    report.error(["notify"], { code: "notify-without-channel", at: "key", message: "notify needs webhook or channels", hint: 'e.g. channels: [{ webhook: { url: "https://…" } }]' });
  }
  if (!isObj(data.notify.rules) || !Array.isArray(data.notify.rules.ignore)) return;
  data.notify.rules.ignore.forEach((pattern, index) => {
    if (typeof pattern !== "string") return;
    try {
      new RegExp(pattern, "m");
    } catch (error) {
      report.error(["notify", "rules", "ignore", index], { code: "invalid-regex", message: `invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}` });
    }
  });
}

/** A schema-valid `schedule` with its defaults. */
export function normalizeSchedule(s: Obj): ScheduleConfig {
  const out: ScheduleConfig = {
    timezone: (s.timezone as string | undefined) ?? DEFAULT_SCHEDULE.timezone,
    jitterSeconds: (s.jitterSeconds as number | undefined) ?? DEFAULT_SCHEDULE.jitterSeconds,
    missed: (s.missed as ScheduleConfig["missed"] | undefined) ?? DEFAULT_SCHEDULE.missed,
    minIntervalSeconds: (s.minIntervalSeconds as number | undefined) ?? DEFAULT_SCHEDULE.minIntervalSeconds,
  };
  if (typeof s.cron === "string") out.cron = s.cron.trim();
  if (typeof s.every === "string") out.everySeconds = parseInterval(s.every)!;
  return out;
}

/** A schema-valid `notify` with its defaults; the one-webhook form becomes the first channel. */
export function normalizeNotify(n: Obj): NotifyConfig {
  const channels: NotifyChannel[] = [];
  const events = (o: Obj) => (Array.isArray(o.events) ? [...(o.events as MonitorEvent[])] : [...DEFAULT_EVENTS]);
  const webhook = (o: Obj): NotifyChannel => ({ type: "webhook", url: o.url as string, ...(typeof o.secret === "string" ? { secret: o.secret } : {}), events: events(o), ...(o.format === "service" ? { format: "service" as const } : {}), ...(typeof o.id === "string" ? { id: o.id } : {}), ...(isObj(o.metadata) ? { metadata: o.metadata } : {}) });
  if (isObj(n.webhook)) channels.push(webhook(n.webhook));
  for (const item of Array.isArray(n.channels) ? n.channels : []) {
    if (!isObj(item)) continue;
    if (isObj(item.webhook)) channels.push(webhook(item.webhook));
    else if (isObj(item.slack)) channels.push({ type: "slack", url: item.slack.url as string, events: events(item.slack) });
    else if (isObj(item.email)) {
      const e = item.email;
      channels.push({
        type: "email",
        host: e.host as string,
        port: (e.port as number | undefined) ?? D.DEFAULT_EMAIL_CHANNEL.port,
        secure: (e.secure as boolean | undefined) ?? D.DEFAULT_EMAIL_CHANNEL.secure,
        ...(typeof e.user === "string" ? { user: e.user } : {}),
        ...(typeof e.password === "string" ? { password: e.password } : {}),
        from: e.from as string,
        to: [...(e.to as string[])],
        events: events(e),
      });
    }
  }
  const r = isObj(n.rules) ? n.rules : {};
  const rules: NotifyRules = {
    addedOnly: (r.addedOnly as boolean | undefined) ?? D.DEFAULT_NOTIFY_RULES.addedOnly,
    keywords: Array.isArray(r.keywords) ? [...(r.keywords as string[])] : [],
    ignore: Array.isArray(r.ignore) ? [...(r.ignore as string[])] : [],
    ...(isObj(r.threshold) ? { threshold: { field: r.threshold.field as string, dropPercent: r.threshold.dropPercent as number } } : {}),
  };
  return {
    ...(isObj(n.webhook) ? { webhook: { url: n.webhook.url as string, ...(typeof n.webhook.secret === "string" ? { secret: n.webhook.secret } : {}) } } : {}),
    channels,
    on: Array.isArray(n.on) ? [...(n.on as NotifyEvent[])] : [...DEFAULT_ON],
    rules,
  };
}
