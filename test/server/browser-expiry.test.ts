import { afterEach, describe, expect, it, vi } from "vitest";
import type { LivePage, Team } from "../../src/core/index.js";
import { BrowserSessions } from "../../src/app/serve/browser.js";

const team = (id: number) => ({ id }) as Team;

function sessions(closed: string[]) {
  let n = 0;
  return new BrowserSessions({
    openPage: async () => {
      const name = `page-${++n}`;
      const page: LivePage = { call: async () => null, interrupt: async () => undefined, close: async () => void closed.push(name) };
      return page;
    },
    allowCodeExecution: false,
    maxPerTeam: 5,
    memoryMb: 64,
    clock: Date.now,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("browser sessions expire", () => {
  it("close their page after activityTtl without a call, and are not found after", async () => {
    vi.useFakeTimers();
    const closed: string[] = [];
    const held = sessions(closed);
    const { id } = await held.create(team(1), { ttl: 600, activityTtl: 60 });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(closed).toEqual(["page-1"]);
    await expect(held.close(team(1), id)).rejects.toThrow(/no browser session/);
  });

  it("close their page at ttl whatever the activity", async () => {
    vi.useFakeTimers();
    const closed: string[] = [];
    const held = sessions(closed);
    const { expiresAt } = await held.create(team(1), { ttl: 30, activityTtl: 300 });
    expect(Date.parse(expiresAt)).toBe(Date.now() + 30_000);
    await vi.advanceTimersByTimeAsync(30_500);
    expect(closed).toEqual(["page-1"]);
  });

  it("all close when the server closes", async () => {
    const closed: string[] = [];
    const held = sessions(closed);
    await held.create(team(1), {});
    await held.create(team(2), {});
    await held.closeAll();
    expect(closed.sort()).toEqual(["page-1", "page-2"]);
  });
});
