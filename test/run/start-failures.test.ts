import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { workdir } from "./helpers.js";

// A step whose start URL cannot be fetched has failed, and says why: the built CLI exits 1 and
// prints the real cause (DNS, refused connection, network policy, robots.txt), never "succeeded".

const site = new FixtureSite();
let closedPort = 0;

beforeAll(async () => {
  site.route("/robots.txt", (_req, res) => void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /\n"));
  site.page("/", htmlPage("Home", "<p>hello</p>"));
  await site.start();
  // A port that was just free: nothing listens there, so connecting is refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(() => site.stop());

function run(step: string, url: string, ...flags: string[]): Promise<{ code: number | null; output: string }> {
  const dir = workdir();
  const file = join(dir, "p.yaml");
  writeFileSync(file, `version: 1\nname: start\nretry: { attempts: 2, initialDelayMs: 10, maxDelayMs: 20 }\nsteps:\n  - id: s\n    ${step}:\n      url: "${url}"\n`);
  const child = spawn(process.execPath, ["dist/cli/main.js", "run", file, "--db", join(dir, "p.db"), ...flags], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

describe.each(["crawl", "scrape"])("a %s step whose start URL cannot be fetched", (step) => {
  it("fails naming a host that does not resolve", async () => {
    const r = await run(step, "http://nowhere.invalid/");
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain("could not resolve host nowhere.invalid");
    expect(r.output).not.toContain("robots.txt disallows");
    expect(r.output).toMatch(/run \d+ failed/);
    // The step that could not start is in the summary, as failed.
    expect(r.output).toMatch(/\ns\s+failed\s+0\s/);
  });

  it("fails naming a refused connection", async () => {
    const r = await run(step, `http://127.0.0.1:${closedPort}/`, "--allow-private-network");
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain(`connection refused by 127.0.0.1:${closedPort}`);
    expect(r.output).not.toContain("robots.txt disallows");
  });

  it("fails naming the network policy for a loopback address without --allow-private-network", async () => {
    const r = await run(step, `${site.url}/`);
    expect(r.code, r.output).toBe(1);
    expect(r.output).toMatch(/refused by the network policy: .*127\.0\.0\.1 is in the loopback range \(use --allow-private-network/);
    expect(r.output).not.toContain("robots.txt disallows");
  });
});

describe("a crawl whose start URL robots.txt disallows", () => {
  it("fails saying so, having fetched nothing but robots.txt", async () => {
    site.hits.clear();
    const r = await run("crawl", `${site.url}/`, "--allow-private-network");
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain(`cannot crawl ${site.url}/: ${site.url}/robots.txt disallows it`);
    expect(site.hits.get("/")).toBeUndefined();
    expect(r.output).toMatch(/run \d+ failed: 0 credits used/);
  });
});
