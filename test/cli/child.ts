import { spawn, type ChildProcess } from "node:child_process";
import { runCli } from "../../src/cli/cli.js";

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The built CLI (dist/cli/main.js) as a child process, with its output collected. */
export function startCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { child: ChildProcess; done: Promise<Finished>; stderrSoFar: () => string } {
  const child = spawn(process.execPath, [`${process.cwd()}/dist/cli/main.js`, ...args], { stdio: ["ignore", "pipe", "pipe"], cwd: options.cwd ?? process.cwd(), env: { ...process.env, ...options.env } });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => void (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => void (stderr += d.toString()));
  const done = new Promise<Finished>((resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done, stderrSoFar: () => stderr };
}

export function runChild(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Finished> {
  return startCli(args, options).done;
}

/** Waits until the child's stderr matches. */
export async function waitForStderr(started: ReturnType<typeof startCli>, pattern: RegExp): Promise<void> {
  while (!pattern.test(started.stderrSoFar())) {
    if (started.child.exitCode !== null) throw new Error(`the CLI exited before printing ${pattern}: ${started.stderrSoFar()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The CLI in this process, with its output collected. */
export async function cliInProcess(args: string[], tty = false) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: tty, color: false });
  return { code, stdout, stderr };
}
