import type { ScheduleConfig } from "../../core/index.js";

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const NAMED: Record<string, string> = {
  "@yearly": "every year on 1 January at 00:00",
  "@annually": "every year on 1 January at 00:00",
  "@monthly": "on day 1 of every month at 00:00",
  "@weekly": "every Sunday at 00:00",
  "@daily": "every day at 00:00",
  "@midnight": "every day at 00:00",
  "@hourly": "every hour",
};

const number = (field: string, max: number): number | undefined => (/^\d{1,2}$/.test(field) && Number(field) <= max ? Number(field) : undefined);
const pad = (n: number) => String(n).padStart(2, "0");
const step = (field: string): number | undefined => (/^\*\/\d{1,2}$/.test(field) ? Number(field.slice(2)) : undefined);

function plural(n: number, unit: string): string {
  return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
}

function interval(seconds: number): string {
  if (seconds % 86_400 === 0) return plural(seconds / 86_400, "day");
  if (seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  if (seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

function days(dom: string, month: string, dow: string): string | undefined {
  if (month !== "*") return undefined;
  if (dom === "*" && (dow === "*" || dow === "?")) return "every day";
  if (dom === "*" || dom === "?") {
    if (dow === "1-5" || dow === "MON-FRI") return "on weekdays";
    if (dow === "0,6" || dow === "6,0" || dow === "SAT,SUN") return "on weekends";
    const list = dow.split(",").map((d) => number(d, 7));
    if (list.some((d) => d === undefined)) return undefined;
    return `every ${list.map((d) => DAYS[d! % 7]).join(" and ")}`;
  }
  const day = number(dom, 31);
  return day !== undefined && (dow === "*" || dow === "?") ? `on day ${day} of every month` : undefined;
}

/** A cron pattern in words ("every day at 06:00", "every 15 minutes"); undefined when it is not one of the common shapes. */
export function cronInWords(cron: string): string | undefined {
  const trimmed = cron.trim();
  if (NAMED[trimmed.toLowerCase()]) return NAMED[trimmed.toLowerCase()];
  let fields = trimmed.split(/\s+/);
  if (fields.length === 6) {
    if (fields[0] !== "0") return undefined;
    fields = fields.slice(1);
  }
  if (fields.length !== 5) return undefined;
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  const rest = [dom, month, dow].every((f) => f === "*");
  if (minute === "*" && hour === "*" && rest) return "every minute";
  const everyMinutes = step(minute);
  if (everyMinutes !== undefined && hour === "*" && rest) return plural(everyMinutes, "minute");
  const m = number(minute, 59);
  if (m === undefined) return undefined;
  if (hour === "*" && rest) return m === 0 ? "every hour" : `every hour at minute ${m}`;
  const everyHours = step(hour);
  if (everyHours !== undefined && rest) return `${plural(everyHours, "hour")} at minute ${m}`;
  const hours = hour.split(",").map((h) => number(h, 23));
  if (hours.some((h) => h === undefined)) return undefined;
  const when = days(dom, month, dow);
  if (when === undefined) return undefined;
  return `${when} at ${hours.map((h) => `${pad(h!)}:${pad(m)}`).join(" and ")}`;
}

/** A schedule in words and as cron (an interval has no cron). */
export function scheduleWords(schedule: ScheduleConfig): { words: string | undefined; cron: string | undefined } {
  if (schedule.everySeconds !== undefined) return { words: interval(schedule.everySeconds), cron: undefined };
  return { words: schedule.cron ? cronInWords(schedule.cron) : undefined, cron: schedule.cron };
}
