import { describe, expect, it } from "vitest";
import type { Engine, SessionSpec, SessionState } from "../../src/core/index.js";
import { RunSessions } from "../../src/runner/sessions/session.js";

const spec: SessionSpec = { name: "members", url: "http://shop.test/login", actions: [], successWhen: { selector: "#out" }, maxAgeMs: 60_000, timeoutMs: 5_000 };

function provider(now: { t: number }) {
  let logins = 0;
  const engine = {
    name: "fake",
    scrape: async () => {
      throw new Error("unused");
    },
    close: async () => undefined,
    login: async (): Promise<SessionState> => {
      logins++;
      await new Promise((r) => setTimeout(r, 10));
      return { cookies: [{ name: "sid", value: `login-${logins}`, domain: "shop.test", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" }], origins: [] };
    },
  } as Engine;
  const sessions = new RunSessions({ engine, specs: { members: spec }, pipelineName: "p", clock: () => now.t, note: () => undefined });
  return { sessions, logins: () => logins };
}

describe("the sessions of a run", () => {
  it("opens each session once, however many pages ask at once", async () => {
    const { sessions, logins } = provider({ t: 0 });
    const opened = await Promise.all([sessions.open("members"), sessions.open("members"), sessions.open("members")]);
    expect(logins()).toBe(1);
    expect(new Set(opened).size).toBe(1);
  });

  it("renews once for every page that saw the same login expire, even when they ask together", async () => {
    const { sessions, logins } = provider({ t: 0 });
    const first = await sessions.open("members");
    const renewed = await Promise.all(Array.from({ length: 5 }, () => sessions.renew(first)));
    expect(logins()).toBe(2);
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]!.state().cookies[0]!.value).toBe("login-2");
    // A page that saw the new login expire renews again.
    await sessions.renew(renewed[0]!);
    expect(logins()).toBe(3);
  });

  it("logs in again when the login is older than maxAge, between pages", async () => {
    const now = { t: 0 };
    const { sessions, logins } = provider(now);
    await sessions.open("members");
    now.t = 59_000;
    await sessions.open("members");
    expect(logins()).toBe(1);
    now.t = 60_000;
    const fresh = await sessions.open("members");
    expect(logins()).toBe(2);
    expect(fresh.state().cookies[0]!.value).toBe("login-2");
  });
});
