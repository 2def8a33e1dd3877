import { describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";

const file = (schedule: string, extra = "") => `version: 1\nname: watched\n${schedule}${extra}steps:\n  - id: page\n    scrape: { url: "https://example.com/" }\n`;
const load = (text: string) => loadPipelineText("p.yaml", text, { env: { SMTP_PASS: "pw" } });
const errors = (text: string) => load(text).diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`);

describe("schedule in a pipeline file", () => {
  it("accepts cron with a zone and jitter, names, 6 fields, and every", () => {
    const p = load(file(`schedule: { cron: "0 6 * * 1-5", timezone: Europe/Berlin, jitterSeconds: 300 }\n`));
    expect(p.diagnostics).toEqual([]);
    expect(p.pipeline!.schedule).toEqual({ cron: "0 6 * * 1-5", timezone: "Europe/Berlin", jitterSeconds: 300, missed: "once", minIntervalSeconds: 60 });
    expect(load(file(`schedule: { cron: "@hourly" }\n`)).pipeline!.schedule).toMatchObject({ cron: "@hourly", timezone: "UTC" });
    expect(load(file(`schedule: { cron: "0 */5 * * * *" }\n`)).diagnostics).toEqual([]);
    expect(load(file(`schedule: { every: 15m, missed: skip }\n`)).pipeline!.schedule).toMatchObject({ everySeconds: 900, missed: "skip" });
    expect(load(file(`schedule:\n  every: 2s\n  minIntervalSeconds: 1\n`)).pipeline!.schedule).toMatchObject({ everySeconds: 2, minIntervalSeconds: 1 });
  });

  it("an invalid cron pattern is an error at its line and column", () => {
    expect(errors(file(`schedule:\n  cron: "61 * * * *"\n`))).toEqual([expect.stringMatching(/^4:9 invalid-cron: invalid cron pattern "61 \* \* \* \*"/)]);
    expect(errors(file(`schedule:\n  cron: "every day"\n`))).toEqual([expect.stringMatching(/^4:9 invalid-cron/)]);
  });

  it("an unknown time zone is an error at its value", () => {
    expect(errors(file(`schedule:\n  cron: "0 6 * * *"\n  timezone: Europe/Berlinn\n`))).toEqual([`5:13 unknown-timezone: unknown time zone "Europe/Berlinn"`]);
  });

  it("an interval under the minimum is an error, for every and for cron", () => {
    expect(errors(file(`schedule:\n  every: 30s\n`))).toEqual(["4:10 interval-too-short: every 30s is shorter than the minimum of 60 s"]);
    expect(errors(file(`schedule:\n  cron: "*/10 * * * * *"\n`))).toEqual([expect.stringMatching(/^4:9 interval-too-short: cron pattern "\*\/10 \* \* \* \* \*" runs every 10 s/)]);
  });

  it("needs exactly one of cron and every; unknown keys and bad units are schema errors", () => {
    expect(errors(file(`schedule:\n  timezone: UTC\n`))).toEqual([expect.stringMatching(/^3:1 schedule-without-time/)]);
    expect(errors(file(`schedule:\n  cron: "@daily"\n  every: 1h\n`))).toEqual([expect.stringMatching(/^5:3 conflicting-keys/)]);
    expect(errors(file(`schedule:\n  crom: "@daily"\n`)).join("\n")).toMatch(/4:3 .*crom/);
    expect(errors(file(`schedule:\n  every: 15 minutes\n`)).join("\n")).toMatch(/^4:10 /);
  });
});

describe("notify in a pipeline file", () => {
  it("keeps the one-webhook form, as the first channel", () => {
    const p = load(file("", `notify: { webhook: { url: "https://hooks.example/x", secret: s }, on: [changed] }\n`));
    expect(p.pipeline!.notify).toEqual({ webhook: { url: "https://hooks.example/x", secret: "s" }, channels: [{ type: "webhook", url: "https://hooks.example/x", secret: "s", events: ["monitor.check.completed"] }], on: ["changed"], rules: { addedOnly: false, keywords: [], ignore: [] } });
  });

  it("takes several channels and rules", () => {
    const text = file("", `notify:\n  channels:\n    - webhook: { url: "https://h.example/", events: [monitor.page, failed] }\n    - slack: { url: "https://hooks.slack.example/T" }\n    - email: { host: smtp.example, port: 2525, user: me, password: "\${SMTP_PASS}", from: a@example.com, to: [b@example.com] }\n  rules: { addedOnly: true, keywords: [price], ignore: ["^Updated"], threshold: { field: "products[].price", dropPercent: 5 } }\n`);
    const p = load(text);
    expect(p.diagnostics).toEqual([]);
    expect(p.pipeline!.notify!.channels.map((c) => c.type)).toEqual(["webhook", "slack", "email"]);
    expect(p.pipeline!.notify!.channels[2]).toMatchObject({ port: 2525, secure: false, password: "pw", events: ["monitor.check.completed"] });
    expect(p.pipeline!.notify!.rules).toEqual({ addedOnly: true, keywords: ["price"], ignore: ["^Updated"], threshold: { field: "products[].price", dropPercent: 5 } });
  });

  it("a bad ignore pattern, an unknown channel or event is an error with its place", () => {
    expect(errors(file("", `notify:\n  webhook: { url: "https://h.example/" }\n  rules:\n    ignore: ["(unclosed"]\n`))).toEqual([expect.stringMatching(/^6:14 invalid-regex: invalid regular expression: .*Unterminated group/)]);
    expect(errors(file("", `notify:\n  channels:\n    - pager: { url: "https://h.example/" }\n`)).join("\n")).toMatch(/^5:7 /);
    expect(errors(file("", `notify:\n  channels:\n    - slack: { url: "https://h.example/", events: [monitor.pages] }\n`)).join("\n")).toMatch(/^5:.*monitor\.pages/);
  });
});
