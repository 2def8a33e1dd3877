import { spawn, type ChildProcess } from "node:child_process";

/** A real `scrapeline watch` child (the built CLI), its output collected. */
export class WatchChild {
  out = "";
  err = "";
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  constructor(args: string[], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [`${process.cwd()}/dist/cli/main.js`, "watch", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    this.child.stdout!.on("data", (d: Buffer) => void (this.out += d.toString()));
    this.child.stderr!.on("data", (d: Buffer) => void (this.err += d.toString()));
    this.exited = new Promise((resolve) => this.child.once("close", (code, signal) => resolve({ code, signal })));
  }
  /** Waits until stdout has `count` lines matching `pattern` (the test's own timeout bounds it). */
  async lines(pattern: RegExp, count = 1): Promise<string[]> {
    for (;;) {
      const found = this.out.split("\n").filter((l) => pattern.test(l));
      if (found.length >= count) return found;
      if (this.child.exitCode !== null) throw new Error(`watch exited (${this.child.exitCode}) before ${count}× ${pattern}:\n${this.out}\n${this.err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async until(test: () => boolean, what: string): Promise<void> {
    while (!test()) {
      if (this.child.exitCode !== null) throw new Error(`watch exited (${this.child.exitCode}) before ${what}:\n${this.out}\n${this.err}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
