import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeService, type Multipart } from "../helpers/fake-service.js";
import { parseRoute } from "../helpers/fake-parse.js";
import { makeDocx, makeWorkbook } from "../engines/parse/fixtures.js";
import { cliChild, finish, workdir } from "../run/helpers.js";

describe("scrapeline parse (the built CLI)", () => {
  it("prints the markdown of one file", async () => {
    const dir = workdir();
    writeFileSync(join(dir, "prices.csv"), "item,price\napple,2\n");
    const { code, out } = await finish(cliChild(["parse", join(dir, "prices.csv")]));
    expect(code).toBe(0);
    expect(out).toBe("| item | price |\n| --- | --- |\n| apple | 2 |\n");
  });

  it("--format json --out DIR writes one document per file; a bad file fails alone with exit 1", async () => {
    const dir = workdir();
    writeFileSync(join(dir, "report.docx"), await makeDocx());
    writeFileSync(join(dir, "book.xlsx"), makeWorkbook("xlsx", { S: [["a", "b"], [1, 2]] }));
    writeFileSync(join(dir, "old.doc"), "plain words");
    const out = join(dir, "parsed");
    const result = await finish(cliChild(["parse", join(dir, "report.docx"), join(dir, "old.doc"), join(dir, "book.xlsx"), "--format", "json", "--out", out]));
    expect(result.code).toBe(1);
    expect(result.err).toContain(`error: ${join(dir, "old.doc")} is Word 97-2003 (.doc), which has no reader here`);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.markdown).toContain("# Quarterly report");
    expect(report.links).toContain("https://example.com/report");
    expect(report.metadata).toMatchObject({ title: "Quarterly report", author: "Ada Lovelace", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" });
    expect(JSON.parse(readFileSync(join(out, "book.json"), "utf8")).metadata.sheets).toEqual(["S"]);
    expect(existsSync(join(out, "old.json"))).toBe(false);
  });

  it("a missing file and a bad option are clear errors", async () => {
    const dir = workdir();
    mkdirSync(join(dir, "d"));
    const missing = await finish(cliChild(["parse", join(dir, "nope.pdf")]));
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`error: ${join(dir, "nope.pdf")}: no such file\n`);
    const bad = await finish(cliChild(["parse", join(dir, "d"), "--format", "yaml"]));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("Invalid values");
  });
});

describe("scrapeline parse --engine firecrawl", () => {
  const service = new FakeService();
  const uploads: Multipart[] = [];
  beforeAll(async () => {
    await service.start();
    service.on("POST /v2/parse", parseRoute((u) => uploads.push(u)));
  });
  afterAll(async () => service.stop());
  const child = (args: string[], env: Record<string, string>) => {
    const { FIRECRAWL_API_KEY: _key, ...inherited } = process.env;
    return spawn(process.execPath, ["dist/cli/main.js", "parse", ...args, "--engine", "firecrawl"], { stdio: ["ignore", "pipe", "pipe"], env: { ...inherited, ...env } });
  };

  it("uploads each file to the service and prints what it answers", async () => {
    const dir = workdir();
    writeFileSync(join(dir, "prices.csv"), "item,price\napple,2\n");
    const { code, out, err } = await finish(child([join(dir, "prices.csv")], { FIRECRAWL_API_URL: service.url, FIRECRAWL_API_KEY: "fc-cli-parse" }));
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe("| item | price |\n| --- | --- |\n| apple | 2 |\n");
    expect(uploads.map((u) => u.files[0]?.filename)).toEqual(["prices.csv"]);
    expect(service.calls.find((c) => c.path === "/v2/parse")?.headers.authorization).toBe("Bearer fc-cli-parse");
  });

  it("without the service's key, says so and reads no file", async () => {
    const before = uploads.length;
    const { code, err } = await finish(child(["/nonexistent/report.pdf"], { FIRECRAWL_API_URL: service.url }));
    expect(code).toBe(2);
    expect(err).toBe("error: the firecrawl engine needs the service's API key in the environment: FIRECRAWL_API_KEY is not set\n");
    expect(uploads.length).toBe(before);
  });
});

