import { describe, expect, it } from "vitest";
import { jsonChanges, stableStringify } from "../../src/changes/index.js";

describe("jsonChanges", () => {
  it("only the top-level fields that differ, nested values compared whole", () => {
    const previous = { title: "Plans", plans: [{ name: "Pro", price: 30 }], meta: { currency: "EUR", region: { code: "eu" } }, count: 2 };
    const current = { title: "Plans", plans: [{ name: "Pro", price: 35 }], meta: { currency: "EUR", region: { code: "eu" } }, count: 2 };
    expect(jsonChanges(previous, current)).toEqual({ plans: { previous: [{ name: "Pro", price: 30 }], current: [{ name: "Pro", price: 35 }] } });
  });

  it("key order inside objects is not a change; array order is", () => {
    expect(jsonChanges({ meta: { a: 1, b: { c: 2, d: 3 } } }, { meta: { b: { d: 3, c: 2 }, a: 1 } })).toEqual({});
    expect(jsonChanges({ tags: ["a", "b"] }, { tags: ["b", "a"] })).toEqual({ tags: { previous: ["a", "b"], current: ["b", "a"] } });
  });

  it("added and removed keys, with undefined on the missing side", () => {
    const changes = jsonChanges({ kept: 1, gone: "x" }, { kept: 1, fresh: { n: null } });
    expect(changes).toEqual({ gone: { previous: "x", current: undefined }, fresh: { previous: undefined, current: { n: null } } });
    expect(Object.keys(changes)).toEqual(["gone", "fresh"]);
    expect(JSON.parse(JSON.stringify(changes))).toEqual({ gone: { previous: "x" }, fresh: { current: { n: null } } });
  });

  it("null, numbers and strings are compared as JSON", () => {
    expect(jsonChanges({ a: null, b: 1, c: "1" }, { a: null, b: "1", c: "1" })).toEqual({ b: { previous: 1, current: "1" } });
    expect(jsonChanges({ a: null }, {})).toEqual({ a: { previous: null, current: undefined } });
  });

  it("values that are not objects are compared whole under $", () => {
    expect(jsonChanges([1, 2], [1, 3])).toEqual({ $: { previous: [1, 2], current: [1, 3] } });
    expect(jsonChanges(null, { a: 1 })).toEqual({ $: { previous: null, current: { a: 1 } } });
    expect(jsonChanges("x", "x")).toEqual({});
  });

  it("stableStringify sorts keys at every depth", () => {
    expect(stableStringify({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(stableStringify(undefined)).toBeUndefined();
  });
});
