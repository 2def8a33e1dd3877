import type { ScheduleConfig } from "../../core/index.js";
import { dueAt, formatInZone, nextSlots } from "../../schedule/index.js";
import { fileMonitorKey } from "../monitor/index.js";

export interface ScheduleView extends ScheduleConfig {
  /** The next runs (jitter included), as read in the schedule's time zone. */
  nextRuns: string[];
}

/** A schedule as `plan` shows it: its settings and its next `count` runs after `now`. */
export function scheduleView(schedule: ScheduleConfig, pipelineName: string, now: Date, count = 5): ScheduleView {
  const key = fileMonitorKey(pipelineName);
  return { ...schedule, nextRuns: nextSlots(schedule, now, count).map((slot) => formatInZone(dueAt(schedule, slot, key), schedule.timezone)) };
}
