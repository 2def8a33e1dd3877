// The lease lengths watchers and serve replicas read from the environment.
import { describe, expect, it } from "vitest";
import { durationVariable } from "../../src/app/common/index.js";

const means = "how long it lasts (at least 1s)";

describe("durationVariable", () => {
  it("reads 60s, 2m, 1500ms and a bare number of seconds, and falls back when unset or blank", () => {
    const read = (value?: string) => durationVariable(value === undefined ? {} : { LEASE: value }, "LEASE", { fallbackMs: 7, minMs: 1000, means });
    expect([read("60s"), read("2m"), read("1500ms"), read("45"), read(" 3s "), read(), read("  ")]).toEqual([60_000, 120_000, 1500, 45_000, 3000, 7, 7]);
  });

  it("refuses what is not a duration, or is shorter than the least, saying what the variable is for", () => {
    for (const value of ["a minute", "-5s", "1.5s", "999ms", "0"]) {
      expect(() => durationVariable({ LEASE: value }, "LEASE", { fallbackMs: 7, minMs: 1000, means })).toThrow(`LEASE is ${JSON.stringify(value)}: give how long it lasts (at least 1s)`);
    }
  });
});
