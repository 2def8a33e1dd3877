import { readdirSync, readFileSync } from "node:fs";
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { parseHtml } from "../../../src/engines/local/html/parse.js";
import { FastTokenizer } from "../../../src/engines/local/html/tokenizer.js";

/** Every tokenizer event, as a list. */
function events(TokenizerClass: typeof Tokenizer, html: string): string[] {
  const out: string[] = [];
  const record = (name: string) => (...args: unknown[]) => void out.push(`${name}:${args.join(",")}`);
  const names = ["onattribdata", "onattribentity", "onattribend", "onattribname", "oncdata", "onclosetag", "oncomment", "ondeclaration", "onend", "onopentagend", "onopentagname", "onprocessinginstruction", "onselfclosingtag", "ontext", "ontextentity"];
  const callbacks = Object.fromEntries(names.map((name) => [name, record(name)])) as unknown as TokenizerCallbacks;
  const tokenizer = new TokenizerClass({ decodeEntities: false }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  return out;
}

describe("FastTokenizer", () => {
  it("emits exactly the events of htmlparser2's tokenizer", () => {
    const samples = [
      "<p class='a' id=\"b\" data-x=c>text &amp; more</p><!-- c --><script>if (a < b) {}</script><style>p>a{}</style>",
      "<textarea><b>raw</b></textarea><title>a<b</title><![CDATA[x]]><?php echo ?>< not a tag <a href=\"unterminated",
      "<svg><path d='M0'/></svg><br/>text",
    ];
    const dir = new URL("../../../../shared/corpus/main-content/", import.meta.url);
    for (const name of readdirSync(dir).slice(0, 10)) samples.push(readFileSync(new URL(`${name}/source.html`, dir), "utf8"));
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
