import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../../helpers/site.js";

/** Every live process: pid → [parent pid, command name]. Zombies count as gone. */
function processTable(): Map<number, [number, string]> {
  const table = new Map<number, [number, string]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const [state, ppid] = stat.slice(close + 2).split(" ");
      if (state !== "Z") table.set(Number(entry), [Number(ppid), stat.slice(stat.indexOf("(") + 1, close)]);
    } catch {
      // the process ended while we read
    }
  }
  return table;
}

function descendants(root: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, [ppid]] of table) if (ppid === parent) (found.push(pid), queue.push(pid));
  }
  return found;
}

const site = new FixtureSite();
let arrived: () => void = () => undefined;
const slowRequested = new Promise<void>((resolve) => (arrived = resolve));
const held: Array<() => void> = [];

beforeAll(async () => {
  site.route("/slow", (_req, res) => {
    arrived();
    // Answered only when the test ends: the page stays in flight until the run is interrupted.
    held.push(() => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Slow", "<p>late</p>")));
  });
  await site.start();
});

afterAll(async () => {
  for (const release of held) release();
  await site.stop();
});

describe("an interrupted run", () => {
  it.skipIf(!existsSync("dist/cli/main.js"))("leaves no Chromium process behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scrapeline-interrupt-"));
    const file = join(dir, "slow.yaml");
    writeFileSync(file, `version: 1\nname: slow\nallowPrivateNetwork: true\nsteps:\n  - id: page\n    scrape: { url: "${site.url}/slow", waitFor: 1, timeout: 60000 }\n`);
    // Its own Chromium, not the suite's shared one: the processes it leaves are what is checked.
    const child = spawn(process.execPath, ["dist/cli/main.js", "run", file, "--db", join(dir, "db.sqlite")], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, SCRAPELINE_BROWSER_ENDPOINT: "" } });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, "exit");

    await slowRequested;
    const browser = descendants(child.pid!);
    const table = processTable();
    expect(browser.some((pid) => /chrom/i.test(table.get(pid)?.[1] ?? ""))).toBe(true);

    child.kill("SIGINT");
    while (!stderr.includes("stopping")) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGINT");
    const [code] = await exited;
    expect(code).not.toBe(0);

    const alive = processTable();
    expect(browser.filter((pid) => alive.has(pid))).toEqual([]);
    expect(descendants(child.pid!)).toEqual([]);
  }, 60_000);
});
