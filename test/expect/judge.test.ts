import { describe, expect, it } from "vitest";
import type { Expectation, JudgedPage } from "../../src/core/index.js";
import { parseFieldPath } from "../../src/core/index.js";
import { judgeRun, judgeStep, valuesAt } from "../../src/expect/index.js";

const at = { line: 3, column: 7 };
const page = (url: string, json?: unknown, markdown?: string, changeStatus?: string): JudgedPage => ({ url, ...(json !== undefined ? { json } : {}), ...(markdown !== undefined ? { markdown } : {}), ...(changeStatus ? { changeStatus } : {}) });

describe("field paths", () => {
  it("reads names, [] after a name, and [] at the top", () => {
    expect(parseFieldPath("products[].price")).toEqual([{ name: "products", each: true }, { name: "price", each: false }]);
    expect(parseFieldPath("[].name")).toEqual([{ name: null, each: true }, { name: "name", each: false }]);
    expect(parseFieldPath("a..b")).toMatch(/missing between dots/);
    expect(parseFieldPath("a[0]")).toMatch(/not a name/);
    expect(parseFieldPath("")).toMatch(/empty/);
  });

  it("takes every item of a list, and a missing value where the path leads nowhere", () => {
    const parts = parseFieldPath("products[].price") as Exclude<ReturnType<typeof parseFieldPath>, string>;
    expect(valuesAt({ products: [{ price: 1 }, { name: "x" }] }, parts)).toEqual([1, undefined]);
    expect(valuesAt({}, parts)).toEqual([undefined]);
    expect(valuesAt({ products: [] }, parts)).toEqual([]);
  });
});

describe("judging a step", () => {
  it("breaks a field rule with the values seen and the pages that broke it", () => {
    const e: Expectation[] = [{ kind: "field", path: "products[].price", rule: { required: true, type: "number", min: 0 }, at }];
    const pages = [page("http://a/1", { products: [{ price: 3 }, { price: -1 }] }), page("http://a/2", { products: [{ price: "9" }] }), page("http://a/3", { products: [{}] }), page("http://a/4", { products: [{ price: 5 }] })];
    const verdict = judgeStep(e, { documents: 4, failures: [], pages });
    expect(verdict.passed).toBe(false);
    const [result] = verdict.results;
    expect(result!.at).toEqual(at);
    // In the order first seen.
    expect(result!.problems).toEqual(["1 of 5 values below min 0 (seen: -1)", '1 of 5 values not of type number (seen: "9")', "1 of 5 values missing"]);
    expect(result!.pages).toEqual(["http://a/1", "http://a/2", "http://a/3"]);
    expect(result!.pagesTotal).toBe(3);
  });

  it("holds a nonEmptyShare at the line and breaks it below", () => {
    const e: Expectation[] = [{ kind: "field", path: "products[].name", rule: { nonEmptyShare: 0.75 }, at }];
    const names = (list: unknown[]) => page("http://a", { products: list.map((name) => ({ name })) });
    expect(judgeStep(e, { documents: 1, failures: [], pages: [names(["a", "b", "c", ""])] }).passed).toBe(true);
    const broken = judgeStep(e, { documents: 1, failures: [], pages: [names(["a", "  ", null, "d"])] });
    expect(broken.results[0]!.problems).toEqual(["50 % of values are present and not empty (2 of 4), expected at least 75 %"]);
  });

  it("judges an extract step's merged data instead of each page's json", () => {
    const e: Expectation[] = [{ kind: "field", path: "products[].price", rule: { required: true }, at }];
    const verdict = judgeStep(e, { documents: 1, failures: [], pages: [page("http://a", {})], merged: { data: { products: [{ price: 1 }] } } });
    expect(verdict.passed).toBe(true);
  });

  it("counts failed, blocked and changed pages against numbers and shares", () => {
    const e: Expectation[] = [
      { kind: "count", name: "documents", bounds: { min: 3 }, at },
      { kind: "count", name: "failed", bounds: { maxShare: 0.2 }, at },
      { kind: "count", name: "blocked", bounds: { max: 0 }, at },
      { kind: "count", name: "changed", bounds: { maxShare: 0.3 }, at },
    ];
    const pages = [page("http://a/1", undefined, "x", "changed"), page("http://a/2", undefined, "x", "changed"), page("http://a/3", undefined, "x", "same")];
    const verdict = judgeStep(e, { documents: 3, failures: [{ url: "http://a/4", blocked: true }], pages });
    expect(verdict.results.map((r) => r.passed)).toEqual([true, false, false, false]);
    expect(verdict.results[1]!.problems).toEqual(["25 % failed (1 of 4), expected at most 20 %"]);
    expect(verdict.results[2]!.pages).toEqual(["http://a/4"]);
    expect(verdict.results[3]!.problems).toEqual(["50 % changed (2 of 4), expected at most 30 %"]);
    expect(verdict.results[3]!.pages).toEqual(["http://a/1", "http://a/2"]);
  });

  it("checks each page's markdown length and the text it must contain, listing at most 5 pages", () => {
    const e: Expectation[] = [{ kind: "markdown", minChars: 10, contains: ["Add to cart"], at }];
    const pages = Array.from({ length: 7 }, (_, i) => page(`http://a/${i}`, undefined, i === 0 ? "Add to cart, long enough" : "short"));
    const result = judgeStep(e, { documents: 7, failures: [], pages }).results[0]!;
    expect(result.problems).toEqual(["6 of 7 pages under 10 characters (shortest 5)", '"Add to cart" missing from 6 of 7 pages']);
    expect(result.pages).toEqual(["http://a/1", "http://a/2", "http://a/3", "http://a/4", "http://a/5"]);
    expect(result.pagesTotal).toBe(6);
  });
});

describe("judging a run", () => {
  it("judges the totals", () => {
    const e: Expectation[] = [{ kind: "count", name: "documents", bounds: { min: 20 }, at }, { kind: "count", name: "failed", bounds: { max: 0 }, at }];
    const verdict = judgeRun(e, { documents: 12, failed: 0, blocked: 0, changed: 0 });
    expect(verdict.passed).toBe(false);
    expect(verdict.results[0]!.problems).toEqual(["12 stored, expected at least 20"]);
    expect(verdict.results[1]!.passed).toBe(true);
  });
});
