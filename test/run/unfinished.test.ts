import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { runYaml, workdir } from "./helpers.js";
import { join } from "node:path";

const site = new FixtureSite();
beforeAll(async () => {
  site.page("/a", htmlPage("A", "<p>a</p>")).page("/b", htmlPage("B", "<p>b</p>"));
  await site.start();
});
afterAll(() => site.stop());

describe("a run that ends in an exception", () => {
  it("is not left running: it is failed, with the error", async () => {
    const db = join(workdir(), "x.db");
    const yaml = `version: 1\nname: boom\nsteps:\n  - id: a\n    scrape: { urls: ["${site.url}/a", "${site.url}/b"] }\n`;
    await expect(
      runYaml(yaml, {
        db,
        onEvent: (event) => {
          if (event.type === "run-started") throw new Error("the output failed");
        },
      }),
    ).rejects.toThrow("the output failed");
    const store = new SqliteStore(db);
    try {
      expect(store.listRuns()[0]).toMatchObject({ status: "failed", error: "internal error: the output failed" });
    } finally {
      store.close();
    }
  });
});
