import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { findChromium } from "../../src/engines/local/browser/index.js";

/** Where screenshots of the pages are kept (git-ignored; CI keeps them as artifacts). */
export const ARTIFACTS = resolve("test-artifacts", "ui");

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The suite's shared Chromium (SCRAPELINE_BROWSER_ENDPOINT), else the system one, found as the browser engine finds it. */
export function launchChromium(): Promise<Browser> {
  const shared = process.env.SCRAPELINE_BROWSER_ENDPOINT?.trim();
  if (shared) return chromium.connect(shared);
  return chromium.launch({ executablePath: findChromium(), args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
}

/** `scrapeline ui` as a child process of the built CLI (npm run build first), on a free port; resolves once it prints its URL. */
export async function startUiCli(db: string, extra: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void>; output: () => string }> {
  const child = spawn(process.execPath, ["dist/cli/main.js", "ui", "--db", db, "--port", "0", ...extra], { stdio: ["ignore", "pipe", "pipe"], env });
  let output = "";
  const url = await new Promise<string>((resolveUrl, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /scrapeline ui: (http:\/\/\S+)/.exec(output);
      if (match) resolveUrl(match[1]!.replace(/\/$/, ""));
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`scrapeline ui exited with ${code}: ${output}`)));
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Screenshots of the page as it is now at desktop and phone sizes, under test-artifacts/ui/. */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const files: string[] = [];
  for (const [label, size] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    await page.setViewportSize(size);
    const file = join(ARTIFACTS, `${name}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  }
  await page.setViewportSize(DESKTOP);
  return files;
}

/**
 * The UI served by the built CLI over a fixture's database, and a Chromium to look at it;
 * `close` ends the browser, the server and the fixture's site (whichever were started).
 */
export async function openUi(fixture: { db: string; stop(): Promise<void> }): Promise<{ ui: Awaited<ReturnType<typeof startUiCli>>; browser: Browser; close(): Promise<void> }> {
  const ui = await startUiCli(fixture.db);
  const browser = await launchChromium();
  return {
    ui,
    browser,
    close: async () => {
      await browser.close();
      await ui.stop();
      await fixture.stop();
    },
  };
}

