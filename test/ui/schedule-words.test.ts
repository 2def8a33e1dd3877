import { describe, expect, it } from "vitest";
import { cronInWords, scheduleWords } from "../../src/app/monitor/schedule-words.js";

const base = { timezone: "UTC", jitterSeconds: 0, missed: "once" as const, minIntervalSeconds: 60 };

describe("a schedule in words", () => {
  it.each([
    ["0 6 * * *", "every day at 06:00"],
    ["30 6,18 * * *", "every day at 06:30 and 18:30"],
    ["0 6 * * 1-5", "on weekdays at 06:00"],
    ["0 9 * * 0,6", "on weekends at 09:00"],
    ["15 8 * * 1,3", "every Monday and Wednesday at 08:15"],
    ["0 0 1 * *", "on day 1 of every month at 00:00"],
    ["*/15 * * * *", "every 15 minutes"],
    ["* * * * *", "every minute"],
    ["0 * * * *", "every hour"],
    ["5 * * * *", "every hour at minute 5"],
    ["0 */6 * * *", "every 6 hours at minute 0"],
    ["0 0 6 * * *", "every day at 06:00"],
    ["@hourly", "every hour"],
    ["@weekly", "every Sunday at 00:00"],
  ])("reads %s as %s", (cron, words) => {
    expect(cronInWords(cron)).toBe(words);
  });

  it.each(["0 6 * 1 *", "10 0 6 * * *", "0 6-9 * * *", "0 6 L * *", "0 6 1 * 1", "nonsense"])("leaves %s to its cron", (cron) => {
    expect(cronInWords(cron)).toBeUndefined();
  });

  it("gives an interval in words and no cron", () => {
    expect(scheduleWords({ ...base, everySeconds: 900 })).toEqual({ words: "every 15 minutes", cron: undefined });
    expect(scheduleWords({ ...base, everySeconds: 3600 })).toEqual({ words: "every hour", cron: undefined });
    expect(scheduleWords({ ...base, everySeconds: 172_800 })).toEqual({ words: "every 2 days", cron: undefined });
    expect(scheduleWords({ ...base, cron: "0 6 * * *" })).toEqual({ words: "every day at 06:00", cron: "0 6 * * *" });
  });
});
