// A serve job's header values sealed with SCRAPELINE_SECRET_KEY beside its plan (stored without
// them), and given back into the plan only with the same key and for the same job.
import { describe, expect, it } from "vitest";
import { JobHeaderKey, NOT_STORED, withoutHeaderValues } from "../../src/app/common/index.js";

const pipeline = {
  name: "serve/team-1/extract",
  steps: [
    { id: "request", kind: "extract", body: { urls: ["http://127.0.0.1/a"], scrapeOptions: { headers: { Authorization: "Bearer one", "X-Team": "red" } } } },
    { id: "more", kind: "scrape", body: { url: "http://127.0.0.1/b", headers: { Cookie: "session=two" } } },
  ],
};
const stored = JSON.parse(JSON.stringify(withoutHeaderValues(pipeline))) as typeof pipeline;
const key = new JobHeaderKey({ SCRAPELINE_SECRET_KEY: "cluster key" });

describe("JobHeaderKey", () => {
  it("gives a job's header values back into its stored plan, each headers object its own, with the key they were sealed with", () => {
    const sealed = key.seal("job-1", pipeline)!;
    expect(sealed).toMatch(/^aes-256-gcm:/);
    for (const value of ["Bearer one", "red", "session=two"]) expect(sealed).not.toContain(value);
    expect(JSON.stringify(stored)).toContain(`"Cookie":"${NOT_STORED}"`);
    expect(key.open("job-1", stored, () => sealed)).toEqual({ pipeline });
  });

  it("opens them for the job they were sealed for only, and only with the same SCRAPELINE_SECRET_KEY", () => {
    const sealed = key.seal("job-1", pipeline)!;
    expect(key.open("job-2", stored, () => sealed)).toEqual({ why: expect.stringContaining("cannot be decrypted with this process's SCRAPELINE_SECRET_KEY") });
    expect(new JobHeaderKey({ SCRAPELINE_SECRET_KEY: "another key" }).open("job-1", stored, () => sealed)).toEqual({ why: expect.stringContaining("cannot be decrypted") });
    expect(new JobHeaderKey({}).open("job-1", stored, () => sealed)).toEqual({ why: expect.stringContaining("this process has no SCRAPELINE_SECRET_KEY to decrypt them") });
  });

  it("keeps nothing without a key or without header values, and says why a plan without kept values cannot run as it was sent", () => {
    expect(new JobHeaderKey({}).seal("job-1", pipeline)).toBeUndefined();
    expect(new JobHeaderKey({ SCRAPELINE_SECRET_KEY: "" }).seal("job-1", pipeline)).toBeUndefined();
    const whole = { name: "x", steps: [{ id: "request", kind: "scrape", body: { url: "http://127.0.0.1/" } }] };
    expect(key.seal("job-1", whole)).toBeUndefined();
    let asked = false;
    expect(key.open("job-1", whole, () => ((asked = true), undefined))).toEqual({ pipeline: whole });
    expect(asked).toBe(false);
    expect(key.open("job-1", stored, () => undefined)).toEqual({ why: expect.stringMatching(/^its request had header values, which are not stored, .*SCRAPELINE_SECRET_KEY/) });
  });
});
