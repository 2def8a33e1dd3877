import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { runPipelineFile, type RunEvent, type RunFileOptions } from "../../src/app/index.js";
import { SqliteStore } from "../../src/store/index.js";

export const workdir = () => mkdtempSync(join(tmpdir(), "scrapeline-run-"));

/** Writes a pipeline into a fresh directory and runs it with a fresh database; returns everything a test inspects. */
export async function runYaml(yaml: string, options: Partial<RunFileOptions> = {}) {
  const dir = options.db ? undefined : workdir();
  const file = join(dir ?? mkdtempSync(join(tmpdir(), "scrapeline-run-")), "p.yaml");
  writeFileSync(file, yaml);
  const db = options.db ?? join(dir!, "test.db");
  const events: RunEvent[] = [];
  const result = await runPipelineFile(file, { db, allowPrivateNetwork: true, onEvent: (e) => events.push(e), ...options });
  return { result, events, db, file };
}

export function readDocuments(db: string, runId: number, stepId?: string) {
  const store = new SqliteStore(db);
  try {
    return [...store.documents(runId, stepId)];
  } finally {
    store.close();
  }
}

/** A step's stored result (an extract's or agent's answer, a search's results), parsed; null when it has none. */
export function readStepResult(db: string, runId: number, stepId: string) {
  const store = new SqliteStore(db);
  try {
    return JSON.parse(store.stepResult(runId, stepId) ?? "null");
  } finally {
    store.close();
  }
}

export function pipeline(steps: string, extra = ""): string {
  return `version: 1\nname: test\nretry: { attempts: 3, initialDelayMs: 10, maxDelayMs: 50 }\n${extra}steps:\n${steps}`;
}

/** The built CLI as a child process (run `npm run build` first), its output piped. */
export function cliChild(args: string[]) {
  return spawn(process.execPath, ["dist/cli/main.js", ...args], { stdio: ["ignore", "pipe", "pipe"] });
}

/** Waits for a child to exit, collecting its output; `onErr` sees stderr so far at every chunk (to signal it mid-run). */
export async function finish(child: ChildProcessByStdio<null, Readable, Readable>, onErr?: (text: string) => void): Promise<{ code: number | null; out: string; err: string }> {
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
    onErr?.(err);
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, out, err };
}
