import { describe, expect, it } from "vitest";
import { diffLines, droppedBy, valuesAt, worthTelling } from "../../src/app/notify/rules.js";
import type { NotifyRules } from "../../src/core/index.js";

const rules = (r: Partial<NotifyRules> = {}): NotifyRules => ({ addedOnly: false, keywords: [], ignore: [], ...r });
const on = ["changed", "new", "removed"] as const;
const diff = (lines: string[]) => ["--- a", "+++ b", "@@ -1,2 +1,2 @@", ...lines].join("\n");

describe("rules deciding what is worth telling", () => {
  it("the page's state must be one `on` lists", () => {
    expect(worthTelling({ changeStatus: "same", visibility: "visible" }, [...on], rules())).toBe(false);
    expect(worthTelling({ changeStatus: "removed", visibility: "visible" }, ["changed"], rules())).toBe(false);
    expect(worthTelling({ changeStatus: "removed", visibility: "visible" }, [...on], rules())).toBe(true);
  });

  it("addedOnly ignores removals and lines that only moved", () => {
    const moved = diff(["-b", " a", "+b"]);
    const removedOnly = diff(["-gone", " kept"]);
    const added = diff([" kept", "+fresh"]);
    expect(worthTelling({ changeStatus: "changed", visibility: "visible", diff: moved }, [...on], rules({ addedOnly: true }))).toBe(false);
    expect(worthTelling({ changeStatus: "changed", visibility: "visible", diff: moved }, [...on], rules())).toBe(true);
    expect(worthTelling({ changeStatus: "changed", visibility: "visible", diff: removedOnly }, [...on], rules({ addedOnly: true }))).toBe(false);
    expect(worthTelling({ changeStatus: "removed", visibility: "visible" }, [...on], rules({ addedOnly: true }))).toBe(false);
    expect(worthTelling({ changeStatus: "changed", visibility: "visible", diff: added }, [...on], rules({ addedOnly: true }))).toBe(true);
  });

  it("ignore drops matching lines; keywords look only at added text (a new page's whole text)", () => {
    const stamp = diff(["-Updated 10:00", "+Updated 11:00"]);
    expect(worthTelling({ changeStatus: "changed", visibility: "visible", diff: stamp }, [...on], rules({ ignore: ["^Updated \\d+:\\d+$"] }))).toBe(false);
    const sale = diff(["-Price 10", "+Price 8 SALE"]);
    expect(worthTelling({ changeStatus: "changed", visibility: "visible", diff: sale }, [...on], rules({ keywords: ["sale"] }))).toBe(true);
    expect(worthTelling({ changeStatus: "changed", visibility: "visible", diff: diff(["-SALE", "+Price 8"]) }, [...on], rules({ keywords: ["sale"] }))).toBe(false);
    expect(worthTelling({ changeStatus: "new", visibility: "visible", markdown: () => "# Shop\nBig Sale today" }, [...on], rules({ keywords: ["sale"] }))).toBe(true);
    expect(worthTelling({ changeStatus: "new", visibility: "visible", markdown: () => "# Shop" }, [...on], rules({ keywords: ["sale"] }))).toBe(false);
  });

  it("threshold: a number at the field fell by at least dropPercent", () => {
    const page = (previous: unknown, current: unknown) => ({ changeStatus: "changed" as const, visibility: "visible" as const, diff: diff(["-x", "+y"]), json: () => ({ previous, current }) });
    const threshold = { field: "products[].price", dropPercent: 5 };
    const before = { products: [{ price: 100 }, { price: 20 }] };
    expect(worthTelling(page(before, { products: [{ price: 96 }, { price: 20 }] }), [...on], rules({ threshold }))).toBe(false);
    expect(worthTelling(page(before, { products: [{ price: 100 }, { price: 18 }] }), [...on], rules({ threshold }))).toBe(true);
    expect(worthTelling(page(before, { products: [{ price: 120 }, { price: 25 }] }), [...on], rules({ threshold }))).toBe(false);
    expect(worthTelling(page(undefined, before), [...on], rules({ threshold }))).toBe(false);
  });

  it("reads paths, diffs and drops", () => {
    expect(valuesAt({ a: { b: [{ c: 1 }, { c: "2 EUR" }, {}] } }, "a.b[].c")).toEqual([1, "2 EUR"]);
    expect(droppedBy(["10 EUR"], ["9 EUR"], 10)).toBe(true);
    expect(diffLines(diff([" same", "-old", "+new"]))).toEqual({ added: ["new"], removed: ["old"] });
  });
});
