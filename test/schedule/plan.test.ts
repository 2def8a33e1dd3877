import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planFile } from "../../src/app/check/plan.js";
import { cliInProcess } from "../cli/child.js";
import { workdir } from "../run/helpers.js";

const write = (schedule: string) => {
  const file = join(workdir(), "p.yaml");
  writeFileSync(file, `version: 1\nname: berlin\nschedule: ${schedule}\nsteps:\n  - id: page\n    scrape: { url: "https://example.com/" }\n`);
  return file;
};

describe("plan shows the next 5 runs in the schedule's time zone", () => {
  it("across the spring-forward night in Berlin", async () => {
    const file = write(`{ cron: "30 2 * * *", timezone: Europe/Berlin }`);
    const report = await planFile(file, { now: new Date("2026-03-27T12:00:00Z") });
    expect(report.plan!.schedule).toEqual({
      cron: "30 2 * * *",
      timezone: "Europe/Berlin",
      jitterSeconds: 0,
      missed: "once",
      minIntervalSeconds: 60,
      nextRuns: [
        "2026-03-28 02:30:00 Europe/Berlin (+01:00)",
        "2026-03-29 03:00:00 Europe/Berlin (+02:00)",
        "2026-03-30 02:30:00 Europe/Berlin (+02:00)",
        "2026-03-31 02:30:00 Europe/Berlin (+02:00)",
        "2026-04-01 02:30:00 Europe/Berlin (+02:00)",
      ],
    });
  });

  it("in the printed plan", async () => {
    const file = write(`{ every: 6h }`);
    const { code, stdout } = await cliInProcess(["plan", file]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/schedule:\n  timezone: UTC\n[\s\S]*nextRuns:\n(    - \d{4}-\d\d-\d\d (00|06|12|18):00:00 UTC \(\+00:00\)\n){5}/);
  });
});
