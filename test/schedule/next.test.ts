import { describe, expect, it } from "vitest";
import type { ScheduleConfig } from "../../src/core/index.js";
import { decide, dueAt, formatInZone, jitterMs, nextSlots } from "../../src/schedule/index.js";

const berlin = (cron: string): ScheduleConfig => ({ cron, timezone: "Europe/Berlin", jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 });
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe("next runs across daylight-saving changes (Europe/Berlin, 2026)", () => {
  it("spring forward (29 March, 02:00 → 03:00): a daily 02:30 that does not exist that day runs once, at 03:00 when the gap ends, and the days around keep their local time", () => {
    const runs = nextSlots(berlin("30 2 * * *"), new Date("2026-03-27T12:00:00Z"), 4);
    expect(iso(runs)).toEqual(["2026-03-28T01:30:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z", "2026-03-31T00:30:00.000Z"]);
    expect(formatInZone(runs[0]!, "Europe/Berlin")).toBe("2026-03-28 02:30:00 Europe/Berlin (+01:00)");
    expect(formatInZone(runs[1]!, "Europe/Berlin")).toBe("2026-03-29 03:00:00 Europe/Berlin (+02:00)");
    expect(formatInZone(runs[2]!, "Europe/Berlin")).toBe("2026-03-30 02:30:00 Europe/Berlin (+02:00)");
  });

  it("spring forward: an hourly schedule has 23 runs that day, none at the missing 02:00", () => {
    const runs = nextSlots(berlin("0 * * * *"), new Date("2026-03-28T22:30:00Z"), 24);
    const thatDay = runs.filter((d) => formatInZone(d, "Europe/Berlin").startsWith("2026-03-29"));
    expect(thatDay).toHaveLength(23);
    expect(thatDay.map((d) => formatInZone(d, "Europe/Berlin").slice(11, 16))).not.toContain("02:00");
  });

  it("fall back (25 October, 03:00 → 02:00): a daily 02:30 runs once, not twice", () => {
    const runs = nextSlots(berlin("30 2 * * *"), new Date("2026-10-23T12:00:00Z"), 4);
    expect(new Set(runs.map((d) => formatInZone(d, "Europe/Berlin").slice(0, 10))).size).toBe(4);
    expect(iso(runs)[0]).toBe("2026-10-24T00:30:00.000Z");
    expect(iso(runs)[2]).toBe("2026-10-26T01:30:00.000Z");
  });

  it("fall back: an hourly schedule runs every real hour, 25 runs that day", () => {
    const runs = nextSlots(berlin("0 * * * *"), new Date("2026-10-24T21:30:00Z"), 30);
    const thatDay = runs.filter((d) => formatInZone(d, "Europe/Berlin").startsWith("2026-10-25"));
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.getTime() - runs[i - 1]!.getTime()).toBe(3_600_000);
    expect(thatDay).toHaveLength(25);
    expect(thatDay.map((d) => formatInZone(d, "Europe/Berlin").slice(11, 16)).filter((t) => t === "02:00")).toHaveLength(2);
  });

  it("weekday mornings in New York, and names such as @hourly", () => {
    const ny: ScheduleConfig = { ...berlin("0 6 * * 1-5"), timezone: "America/New_York" };
    const runs = nextSlots(ny, new Date("2026-03-06T12:00:00Z"), 3); // a Friday; DST starts 8 March
    expect(iso(runs)).toEqual(["2026-03-09T10:00:00.000Z", "2026-03-10T10:00:00.000Z", "2026-03-11T10:00:00.000Z"]);
    expect(iso(nextSlots({ ...berlin("@hourly"), timezone: "UTC" }, new Date("2026-01-01T00:10:00Z"), 2))).toEqual(["2026-01-01T01:00:00.000Z", "2026-01-01T02:00:00.000Z"]);
  });

  it("every: counts from the epoch in UTC, whatever the zone", () => {
    const every: ScheduleConfig = { everySeconds: 900, timezone: "Europe/Berlin", jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 };
    expect(iso(nextSlots(every, new Date("2026-03-29T00:50:00Z"), 3))).toEqual(["2026-03-29T01:00:00.000Z", "2026-03-29T01:15:00.000Z", "2026-03-29T01:30:00.000Z"]);
  });
});

describe("jitter", () => {
  it("is a fixed offset per pipeline within jitterSeconds", () => {
    const s = { ...berlin("0 6 * * *"), jitterSeconds: 300 };
    const offsets = ["a", "b", "c", "prices", "docs"].map((k) => jitterMs(s, k));
    for (const o of offsets) expect(o).toBeGreaterThanOrEqual(0), expect(o).toBeLessThan(300_000);
    expect(new Set(offsets).size).toBeGreaterThan(1);
    expect(jitterMs(s, "prices")).toBe(jitterMs(s, "prices"));
    const slot = new Date("2026-01-05T05:00:00Z");
    expect(dueAt(s, slot, "prices").getTime() - slot.getTime()).toBe(jitterMs(s, "prices"));
  });
});

describe("decide", () => {
  const hourly: ScheduleConfig = { cron: "0 * * * *", timezone: "UTC", jitterSeconds: 0, missed: "once", minIntervalSeconds: 60 };
  const at = (s: string) => new Date(s);

  it("a new monitor waits for its first slot after registration", () => {
    expect(decide(hourly, "k", at("2026-01-01T10:20:00Z"), { registeredAt: at("2026-01-01T10:15:00Z") })).toEqual({ action: "wait", nextSlot: at("2026-01-01T11:00:00Z"), nextDue: at("2026-01-01T11:00:00Z") });
  });

  it("with baselineFirst, a monitor never checked is due at once (its baseline); once checked, it keeps its schedule", () => {
    const now = at("2026-01-01T10:20:00Z");
    expect(decide(hourly, "k", now, { registeredAt: at("2026-01-01T10:15:00Z"), baselineFirst: true })).toEqual({ action: "run", slot: now, late: false, missedSlots: 0, baseline: true });
    expect(decide(hourly, "k", at("2026-01-01T10:30:00Z"), { lastSlot: now, registeredAt: at("2026-01-01T10:15:00Z"), baselineFirst: true })).toEqual({ action: "wait", nextSlot: at("2026-01-01T11:00:00Z"), nextDue: at("2026-01-01T11:00:00Z") });
  });

  it("a due slot runs once, and the same slot is not due again", () => {
    const d = decide(hourly, "k", at("2026-01-01T11:00:02Z"), { lastSlot: at("2026-01-01T10:00:00Z"), registeredAt: at("2026-01-01T09:00:00Z") });
    expect(d).toEqual({ action: "run", slot: at("2026-01-01T11:00:00Z"), late: false, missedSlots: 0 });
    expect(decide(hourly, "k", at("2026-01-01T11:00:30Z"), { lastSlot: at("2026-01-01T11:00:00Z"), registeredAt: at("2026-01-01T09:00:00Z") }).action).toBe("wait");
  });

  it("slots missed while down: once runs the latest of them once; skip lets them go", () => {
    const since = { lastSlot: at("2026-01-01T06:00:00Z"), registeredAt: at("2026-01-01T00:00:00Z") };
    expect(decide(hourly, "k", at("2026-01-01T10:30:00Z"), since)).toEqual({ action: "run", slot: at("2026-01-01T10:00:00Z"), late: true, missedSlots: 3 });
    expect(decide({ ...hourly, missed: "skip" }, "k", at("2026-01-01T10:30:00Z"), since)).toEqual({ action: "skip-missed", slot: at("2026-01-01T10:00:00Z"), missedSlots: 3 });
    // On time (within the grace), skip still runs.
    expect(decide({ ...hourly, missed: "skip" }, "k", at("2026-01-01T10:00:20Z"), since).action).toBe("run");
  });

  it("with jitter, a slot is not due before its offset has passed", () => {
    const s = { ...hourly, jitterSeconds: 600 };
    const offset = jitterMs(s, "k");
    const slot = at("2026-01-01T11:00:00Z");
    const since = { lastSlot: at("2026-01-01T10:00:00Z"), registeredAt: at("2026-01-01T09:00:00Z") };
    expect(decide(s, "k", new Date(slot.getTime() + offset - 1), since).action).toBe("wait");
    expect(decide(s, "k", new Date(slot.getTime() + offset), since)).toMatchObject({ action: "run", slot });
  });
});
