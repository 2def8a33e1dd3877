import type { ScheduleConfig } from "../core/index.js";
import { dueAt, latestSlot, nextSlot } from "./next.js";

/** What a monitor's schedule says at a moment, given the slot it last handled. */
export type Decision =
  | { action: "wait"; nextDue: Date; nextSlot: Date }
  /**
   * Run the check of `slot`; `missedSlots` more fell due before it while nothing ran them. A
   * `baseline` is a monitor's first check, run when it is first seen: what the next one is compared with.
   */
  | { action: "run"; slot: Date; late: boolean; missedSlots: number; baseline?: true }
  /** A slot fell due while nothing was watching, and `missed: skip` says to let it go. */
  | { action: "skip-missed"; slot: Date; missedSlots: number };

/**
 * How late a run may start and still count as on time for `missed: skip`: a minute, or half the
 * interval for schedules that run more often than every two minutes.
 */
export function graceMs(schedule: ScheduleConfig, slot: Date): number {
  const interval = nextSlot(schedule, slot).getTime() - slot.getTime();
  return Math.min(60_000, Math.max(1000, interval / 2));
}

/**
 * Decides what to do now. `lastSlot` is the slot of the latest check (run or skipped); a monitor
 * seen for the first time has `registeredAt` instead, and its first slot is the next one after it
 * — unless `baselineFirst`: then a monitor that has never been checked is due at once, its first
 * check (slot: now) the baseline the next one is compared with. A monitor never runs a slot
 * twice, and runs at most one check for any number of missed slots.
 */
export function decide(schedule: ScheduleConfig, key: string, now: Date, since: { lastSlot?: Date; registeredAt: Date; baselineFirst?: boolean }): Decision {
  if (since.lastSlot === undefined && since.baselineFirst) return { action: "run", slot: now, late: false, missedSlots: 0, baseline: true };
  const from = since.lastSlot ?? since.registeredAt;
  const upcoming = nextSlot(schedule, from);
  if (dueAt(schedule, upcoming, key) > now) return { action: "wait", nextSlot: upcoming, nextDue: dueAt(schedule, upcoming, key) };
  // Something is due: the latest slot whose due time has passed is the one to run.
  let slot = latestSlot(schedule, now, from) ?? upcoming;
  if (dueAt(schedule, slot, key) > now) slot = latestSlot(schedule, new Date(slot.getTime() - 1), from) ?? upcoming;
  const missedSlots = countBetween(schedule, from, slot);
  const late = now.getTime() - dueAt(schedule, slot, key).getTime() > graceMs(schedule, slot);
  if (late && schedule.missed === "skip") return { action: "skip-missed", slot, missedSlots };
  return { action: "run", slot, late, missedSlots };
}

/** Slots strictly between `from` and `to`. */
function countBetween(schedule: ScheduleConfig, from: Date, to: Date): number {
  let n = 0;
  let at = nextSlot(schedule, from);
  while (at < to && n < 10_000) {
    n++;
    at = nextSlot(schedule, at);
  }
  return n;
}

/** Whether a check may start: never while the same monitor's previous check is still going. */
export function overlapStatus(running: boolean): "start" | "skipped_overlap" {
  return running ? "skipped_overlap" : "start";
}
