import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/agent/answer.js";

describe("the agent's answer", () => {
  const read = new Map([
    ["http://127.0.0.1:33025/", "Items: [Item 3](http://127.0.0.1:33025/items/30) and [Item 4](http://127.0.0.1:33025/items/4); open since 2030, at http://127.0.0.1:33025/"],
    ["http://127.0.0.1:33025/items/3", "Item 3 costs 30 euros."],
  ]);

  it("names as sources of an unsourced field the pages holding its value as a whole word or number", () => {
    const answer = readAnswer(JSON.stringify({ data: { name: "Item 3", price: 30 }, sources: {} }), undefined, read);
    expect(answer).toMatchObject({ ok: true, sources: { price: ["http://127.0.0.1:33025/items/3"] } });
    // "Item 3" is on both pages as itself; "30" is never read inside a link's address, a port or a year.
    expect(answer.ok && answer.sources["name"]).toEqual(["http://127.0.0.1:33025/", "http://127.0.0.1:33025/items/3"]);
  });

  it("reads a number as a number: 3.5 in 3.50, never 3 inside 3.5", () => {
    const prices = new Map([["https://shop.test/a", "Widget, now 3.50"], ["https://shop.test/b", "Version 3.5.1, 13 items"]]);
    expect(readAnswer('{"data": {"price": 3.5}}', undefined, prices)).toMatchObject({ ok: true, sources: { price: ["https://shop.test/a"] } });
    const count = readAnswer('{"data": {"count": 3}}', undefined, prices);
    expect(count.ok && count.sources).toEqual({});
  });

  it("keeps the sources the model gave, when it read those pages", () => {
    const answer = readAnswer(JSON.stringify({ data: { price: 30 }, sources: { price: ["http://127.0.0.1:33025/"] } }), undefined, read);
    expect(answer).toMatchObject({ ok: true, sources: { price: ["http://127.0.0.1:33025/"] } });
  });
});
