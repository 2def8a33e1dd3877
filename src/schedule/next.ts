import { Cron } from "croner";
import type { ScheduleConfig } from "../core/index.js";

/**
 * Schedule arithmetic, with no timers: croner computes a cron pattern's times in its time zone
 * (daylight-saving transitions included); a fixed interval counts from the Unix epoch. A slot is
 * a time the schedule names; the run is due at the slot plus the pipeline's jitter offset.
 */

/** Croner patterns are parsed once per pattern and zone. */
const patterns = new Map<string, Cron>();

function cronOf(schedule: ScheduleConfig): Cron {
  const key = `${schedule.timezone}\n${schedule.cron}`;
  let cron = patterns.get(key);
  if (!cron) {
    cron = new Cron(schedule.cron!, { timezone: schedule.timezone, paused: true });
    patterns.set(key, cron);
  }
  return cron;
}

/** The first slot strictly after `after`. */
export function nextSlot(schedule: ScheduleConfig, after: Date): Date {
  if (schedule.everySeconds !== undefined) {
    const step = schedule.everySeconds * 1000;
    return new Date((Math.floor(after.getTime() / step) + 1) * step);
  }
  const next = cronOf(schedule).nextRun(after);
  if (!next) throw new Error(`cron pattern "${schedule.cron}" has no further run`);
  return next;
}

/** The next `count` slots strictly after `after`. */
export function nextSlots(schedule: ScheduleConfig, after: Date, count: number): Date[] {
  const out: Date[] = [];
  let at = after;
  for (let i = 0; i < count; i++) {
    at = nextSlot(schedule, at);
    out.push(at);
  }
  return out;
}

/** The latest slot at or before `at`, or undefined when none is later than `notBefore`. */
export function latestSlot(schedule: ScheduleConfig, at: Date, notBefore: Date): Date | undefined {
  if (schedule.everySeconds !== undefined) {
    const step = schedule.everySeconds * 1000;
    const slot = new Date(Math.floor(at.getTime() / step) * step);
    return slot > notBefore ? slot : undefined;
  }
  // Walk forward from notBefore: a pattern's earlier runs are not offered by croner in bulk.
  let found: Date | undefined;
  let cursor = notBefore;
  for (let i = 0; i < 100_000; i++) {
    const next = nextSlot(schedule, cursor);
    if (next > at) break;
    found = next;
    cursor = next;
  }
  return found;
}

/**
 * The pipeline's fixed jitter, in milliseconds: the same for every run of one pipeline (so a
 * restart agrees on when a run is due), spread over [0, jitterSeconds) across pipelines.
 */
export function jitterMs(schedule: ScheduleConfig, key: string): number {
  if (schedule.jitterSeconds <= 0) return 0;
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
  return (hash % (schedule.jitterSeconds * 1000));
}

/** When the run of a slot is due: the slot plus the pipeline's jitter. */
export function dueAt(schedule: ScheduleConfig, slot: Date, key: string): Date {
  return new Date(slot.getTime() + jitterMs(schedule, key));
}
