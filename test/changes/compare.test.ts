import { describe, expect, it } from "vitest";
import { compare, type CompareInput } from "../../src/changes/index.js";

const T1 = "2026-01-01T00:00:00.000Z";
const T2 = "2026-01-02T00:00:00.000Z";
const PAGE = "# Pricing\n\nStarter: 10 EUR\n\nPro: 30 EUR\n";

/** One scrape of a page: what compare is given and what the store would keep. */
interface Scrape {
  markdown: string;
  statusCode: number;
  at: string;
}

/** Runs scrapes in order, each compared with the one before, as nightly runs would. */
function history(scrapes: Scrape[], extra: Partial<CompareInput> = {}): string[] {
  let previous: Scrape | undefined;
  return scrapes.map((scrape) => {
    const result = compare({
      ...(previous ? { previous: { markdown: previous.markdown, statusCode: previous.statusCode, scrapedAt: previous.at } } : {}),
      current: { markdown: scrape.markdown, statusCode: scrape.statusCode },
      modes: [],
      ...extra,
    });
    previous = scrape;
    return result.changeStatus;
  });
}

describe("compare", () => {
  it("new without a previous snapshot", () => {
    expect(compare({ current: { markdown: PAGE, statusCode: 200 }, modes: ["git-diff"] })).toEqual({ previousScrapeAt: null, changeStatus: "new", visibility: "visible" });
  });

  it("a first scrape answering 404 is new too (the service would say removed)", () => {
    expect(compare({ current: { markdown: "Not found", statusCode: 404 }, modes: [] }).changeStatus).toBe("new");
  });

  it("same when the normalized texts match; previousScrapeAt is the snapshot's time", () => {
    const result = compare({ previous: { markdown: PAGE, statusCode: 200, scrapedAt: T1 }, current: { markdown: PAGE, statusCode: 200 }, modes: ["git-diff", "json"] });
    expect(result).toEqual({ previousScrapeAt: T1, changeStatus: "same", visibility: "visible" });
  });

  it("changed with a diff in git-diff mode", () => {
    const result = compare({ previous: { markdown: PAGE, scrapedAt: T1 }, current: { markdown: PAGE.replace("30", "35"), statusCode: 200 }, modes: ["git-diff"] });
    expect(result.changeStatus).toBe("changed");
    expect(result.diff?.text).toContain("-Pro: 30 EUR\n+Pro: 35 EUR\n");
    expect(result.json).toBeUndefined();
  });

  it("changed without a diff when git-diff is not asked for", () => {
    const result = compare({ previous: { markdown: PAGE, scrapedAt: T1 }, current: { markdown: `${PAGE}More\n`, statusCode: 200 }, modes: [] });
    expect(result).toEqual({ previousScrapeAt: T1, changeStatus: "changed", visibility: "visible" });
  });

  it("removed when the page now answers 404 or 410, with no diff", () => {
    for (const statusCode of [404, 410]) {
      const result = compare({ previous: { markdown: PAGE, statusCode: 200, scrapedAt: T1 }, current: { markdown: "Not found", statusCode }, modes: ["git-diff"] });
      expect(result).toEqual({ previousScrapeAt: T1, changeStatus: "removed", visibility: "visible" });
    }
  });

  it("a whitespace-only change is same", () => {
    const spaced = "  # Pricing  \n\n\n\nStarter:   10 EUR\r\n\t\nPro:\t30 EUR";
    expect(history([{ markdown: PAGE, statusCode: 200, at: T1 }, { markdown: spaced, statusCode: 200, at: T2 }])).toEqual(["new", "same"]);
  });

  it("volatile tokens are ignored; the rest still counts", () => {
    const at = (stamp: string, token: string, price = 10): Scrape => ({ markdown: `# Pricing\nGenerated ${stamp}\nStarter: ${price} EUR\n[Log in](/login?session=${token})`, statusCode: 200, at: T1 });
    const normalize = { volatile: ["Generated \\S+", "session=[0-9a-f]+"] };
    expect(history([at("2026-01-01T00:00Z", "ab12"), at("2026-01-02T00:00Z", "cd34"), at("2026-01-03T00:00Z", "ef56", 12)], { normalize })).toEqual(["new", "same", "changed"]);
    expect(history([at("2026-01-01T00:00Z", "ab12"), at("2026-01-02T00:00Z", "cd34")])).toEqual(["new", "changed"]);
  });

  it("iframe links are ignored", () => {
    expect(history([{ markdown: `${PAGE}[iframe](https://player.example/a)\n`, statusCode: 200, at: T1 }, { markdown: `${PAGE}[iframe](https://player.example/b)\n`, statusCode: 200, at: T2 }])).toEqual(["new", "same"]);
  });

  it("a reordering of lines is changed (the service's sorted characters would call it same)", () => {
    const swapped = "# Pricing\n\nPro: 30 EUR\n\nStarter: 10 EUR\n";
    const result = compare({ previous: { markdown: PAGE, statusCode: 200, scrapedAt: T1 }, current: { markdown: swapped, statusCode: 200 }, modes: ["git-diff"] });
    expect(result.changeStatus).toBe("changed");
    expect(result.diff?.json.files[0]?.chunks).toHaveLength(1);
  });

  it("404 then back: removed, then changed against the 404 snapshot", () => {
    const statuses = history([
      { markdown: PAGE, statusCode: 200, at: T1 },
      { markdown: "Not found", statusCode: 404, at: T2 },
      { markdown: "Not found", statusCode: 404, at: T2 },
      { markdown: PAGE, statusCode: 200, at: T2 },
      { markdown: PAGE, statusCode: 200, at: T2 },
    ]);
    expect(statuses).toEqual(["new", "removed", "removed", "changed", "same"]);
  });

  it("back from 404 is changed even when the 404 snapshot's markdown matches", () => {
    const result = compare({ previous: { markdown: "", statusCode: 404, scrapedAt: T1 }, current: { markdown: "", statusCode: 200 }, modes: ["git-diff"] });
    expect(result.changeStatus).toBe("changed");
    expect(result.diff?.json.files[0]?.chunks).toEqual([]);
  });

  it("back from 404, compared with the last live snapshot instead, is same or changed by content", () => {
    const live = { markdown: PAGE, statusCode: 200, scrapedAt: T1 };
    expect(compare({ previous: live, current: { markdown: PAGE, statusCode: 200 }, modes: [] }).changeStatus).toBe("same");
    expect(compare({ previous: live, current: { markdown: `${PAGE}New plan\n`, statusCode: 200 }, modes: [] }).changeStatus).toBe("changed");
  });

  it("flip-flop between two versions: every step is changed, each diff the reverse of the last", () => {
    const a = PAGE;
    const b = PAGE.replace("Starter: 10 EUR", "Starter: 12 EUR");
    const markdowns = [a, b, a, b, a];
    expect(history(markdowns.map((markdown) => ({ markdown, statusCode: 200, at: T1 })))).toEqual(["new", "changed", "changed", "changed", "changed"]);
    const forward = compare({ previous: { markdown: a, scrapedAt: T1 }, current: { markdown: b, statusCode: 200 }, modes: ["git-diff"] });
    const back = compare({ previous: { markdown: b, scrapedAt: T2 }, current: { markdown: a, statusCode: 200 }, modes: ["git-diff"] });
    expect(forward.diff?.text).toContain("-Starter: 10 EUR\n+Starter: 12 EUR\n");
    expect(back.diff?.text).toContain("-Starter: 12 EUR\n+Starter: 10 EUR\n");
  });

  it("visibility passes through and defaults to visible", () => {
    const previous = { markdown: PAGE, scrapedAt: T1 };
    expect(compare({ previous, current: { markdown: PAGE, statusCode: 200 }, modes: [], visibility: "hidden" }).visibility).toBe("hidden");
    expect(compare({ previous, current: { markdown: PAGE, statusCode: 200 }, modes: [] }).visibility).toBe("visible");
  });

  it("json mode reports changed fields of the extracted data, only when changed", () => {
    const extracted = { previous: { plan: "Pro", price: 30, tags: ["a"] }, current: { plan: "Pro", price: 35, tags: ["a"] } };
    const changed = compare({ previous: { markdown: PAGE, scrapedAt: T1 }, current: { markdown: PAGE.replace("30", "35"), statusCode: 200 }, modes: ["json"], extracted });
    expect(changed.json).toEqual({ price: { previous: 30, current: 35 } });
    expect(changed.diff).toBeUndefined();
    const same = compare({ previous: { markdown: PAGE, scrapedAt: T1 }, current: { markdown: PAGE, statusCode: 200 }, modes: ["json"], extracted });
    expect(same.json).toBeUndefined();
    const noData = compare({ previous: { markdown: PAGE, scrapedAt: T1 }, current: { markdown: `${PAGE}x\n`, statusCode: 200 }, modes: ["json"] });
    expect(noData.json).toBeUndefined();
  });
});
