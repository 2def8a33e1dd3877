import { describe, expect, it } from "vitest";
import type { KeptPage, Plan } from "../../src/core/index.js";
import type { RunContext } from "../../src/runner/context.js";
import { closeKeptPages, giveBack, MAX_KEPT_PAGES, pageKeeper, takeKeptPage, whyNotOpen } from "../../src/runner/sessions/kept-pages.js";

/** A run of a scrape step and two interact steps from it, as far as kept pages look at it. */
function run(): RunContext {
  const steps = [
    { id: "list", kind: "scrape", body: {} },
    { id: "first", kind: "interact", body: { from: "list", actions: [] } },
    { id: "second", kind: "interact", body: { from: "list", actions: [] } },
    { id: "alone", kind: "scrape", body: {} },
  ];
  const never = new AbortController().signal;
  return { plan: { pipeline: { steps } } as unknown as Plan, abort: never, stop: never } as unknown as RunContext;
}

function page(): KeptPage & { closed: boolean } {
  const kept = {
    closed: false,
    carryOn: () => Promise.reject(new Error("not used")),
    openTab: () => Promise.reject(new Error("not used")),
    close: async () => {
      kept.closed = true;
    },
  };
  return kept;
}

describe("pages kept open for interact steps", () => {
  it("keeps pages only of scrape steps an interact step carries on from", () => {
    const ctx = run();
    expect(pageKeeper(ctx, "alone", "https://a.test/")).toBeUndefined();
    expect(pageKeeper(ctx, "list", "https://a.test/")).toBeTypeOf("function");
  });

  it(`keeps at most ${MAX_KEPT_PAGES} open, closes the rest at once and says why they are not open`, async () => {
    const ctx = run();
    const pages = Array.from({ length: MAX_KEPT_PAGES + 2 }, () => page());
    pages.forEach((p, i) => pageKeeper(ctx, "list", `https://a.test/${i}`)!(p));
    expect(pages.filter((p) => p.closed)).toHaveLength(2);
    expect(whyNotOpen(ctx, "list", `https://a.test/${MAX_KEPT_PAGES}`)).toBe("no-room");
    expect(takeKeptPage(ctx, "list", "https://a.test/0")).toBe(pages[0]);
    expect(takeKeptPage(ctx, "list", "https://a.test/0")).toBeUndefined();
    expect(whyNotOpen(ctx, "other", "https://a.test/0")).toBe("earlier-process");
    await closeKeptPages(ctx);
    expect(pages.filter((p) => !p.closed)).toEqual([pages[0]]);
  });

  it("a page given back after the first interact step waits for the second, which closes it", async () => {
    const ctx = run();
    const kept = page();
    pageKeeper(ctx, "list", "https://a.test/")!(kept);
    const taken = takeKeptPage(ctx, "list", "https://a.test/")!;
    await giveBack(ctx, "first", "list", "https://a.test/", taken);
    expect(kept.closed).toBe(false);
    const again = takeKeptPage(ctx, "list", "https://a.test/")!;
    expect(again).toBe(kept);
    await giveBack(ctx, "second", "list", "https://a.test/", again);
    expect(kept.closed).toBe(true);
  });

  it("a page loaded again for the same URL replaces the one kept, which is closed", () => {
    const ctx = run();
    const [a, b] = [page(), page()];
    pageKeeper(ctx, "list", "https://a.test/")!(a);
    pageKeeper(ctx, "list", "https://a.test/")!(b);
    expect(a.closed).toBe(true);
    expect(takeKeptPage(ctx, "list", "https://a.test/")).toBe(b);
  });
});
