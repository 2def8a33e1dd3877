import { describe, expect, it } from "vitest";
import { WorkPool } from "../../src/runner/pool.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("WorkPool", () => {
  it("never runs more than the global limit at once", async () => {
    const pool = new WorkPool({ concurrency: 3, perHostConcurrency: 10 });
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pool.run(`h${i}`, async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setImmediate(r));
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it("never runs more than the per-host limit for one host, while other hosts proceed", async () => {
    const pool = new WorkPool({ concurrency: 10, perHostConcurrency: 2 });
    const gate = deferred();
    const startedA: number[] = [];
    let bDone = 0;
    const a = Array.from({ length: 5 }, (_, i) => pool.run("a", async () => { startedA.push(i); await gate.promise; }));
    const b = Array.from({ length: 4 }, () => pool.run("b", async () => void bDone++));
    await Promise.all(b);
    expect(startedA).toEqual([0, 1]);
    expect(bDone).toBe(4);
    gate.resolve();
    await Promise.all(a);
    expect(startedA).toEqual([0, 1, 2, 3, 4]);
  });

  it("holds a task until its notBefore time without occupying a slot", async () => {
    let now = 1000;
    const pool = new WorkPool({ concurrency: 1, perHostConcurrency: 1 }, () => now);
    const order: string[] = [];
    const later = pool.run("a", async () => void order.push("later"), 5000);
    await pool.run("b", async () => void order.push("now"));
    expect(order).toEqual(["now"]);
    now = 6000;
    await later;
    expect(order).toEqual(["now", "later"]);
  });

  it("a paused host waits while other hosts run", async () => {
    let now = 0;
    const pool = new WorkPool({ concurrency: 4, perHostConcurrency: 4 }, () => now);
    pool.pauseHost("slow", 10_000);
    const order: string[] = [];
    const slow = pool.run("slow", async () => void order.push("slow"));
    await pool.run("fast", async () => void order.push("fast"));
    expect(order).toEqual(["fast"]);
    now = 10_001;
    await slow;
    expect(order).toEqual(["fast", "slow"]);
  });

  it("passes results and errors through", async () => {
    const pool = new WorkPool({ concurrency: 2, perHostConcurrency: 1 });
    await expect(pool.run("a", async () => 42)).resolves.toBe(42);
    await expect(pool.run("a", async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    expect(pool.running).toBe(0);
  });
});
