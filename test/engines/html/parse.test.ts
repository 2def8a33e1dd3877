import { Tokenizer } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { parseHtml } from "../../../src/engines/local/html/parse.js";
import { FastTokenizer } from "../../../src/engines/local/html/tokenizer.js";
import { OWN_CORPUS, readCorpus } from "../../helpers/corpus.js";
import { tokenizerEvents as events } from "./helpers.js";

describe("FastTokenizer", () => {
  it("emits exactly the events of htmlparser2's tokenizer", () => {
    const samples = [
      "<p class='a' id=\"b\" data-x=c>text &amp; more</p><!-- c --><script>if (a < b) {}</script><style>p>a{}</style>",
      "<textarea><b>raw</b></textarea><title>a<b</title><![CDATA[x]]><?php echo ?>< not a tag <a href=\"unterminated",
      "<svg><path d='M0'/></svg><br/>text",
    ];
    for (const page of readCorpus(OWN_CORPUS)) samples.push(page.source);
    for (const html of samples) expect(events(FastTokenizer, html)).toEqual(events(Tokenizer, html));
  });
});

describe("parseHtml", () => {
  it("closes elements implicitly like htmlparser2 and records the head", () => {
    const { root, info } = parseHtml('<html lang="fr"><head><base href="/b/"><title>T</title><meta name="a" content="1"></head><body><p>one<p>two<ul><li>x<li>y</ul></body></html>');
    expect(info).toMatchObject({ title: "T", lang: "fr", baseHref: "/b/", metas: [["name", "a", "content", "1"]] });
    const body = (root.children[0] as { children: unknown[] }).children.find((node) => typeof node !== "string" && (node as { tag: string }).tag === "body") as { children: { tag: string }[] };
    expect(body.children.map((node) => node.tag)).toEqual(["p", "p", "ul"]);
  });
});
