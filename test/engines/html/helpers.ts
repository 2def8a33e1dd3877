import type { Tokenizer, TokenizerCallbacks } from "htmlparser2";
import { processHtml, type HtmlOptions, type HtmlResult } from "../../../src/engines/local/html/index.js";

export const PAGE_URL = "https://example.com/blog/post.html";

/** processHtml with everything requested and no extraction unless the test asks for it. */
export function run(html: string, options: Partial<HtmlOptions> = {}): HtmlResult {
  return processHtml(html, {
    url: PAGE_URL,
    onlyMainContent: false,
    removeBase64Images: false,
    blockAds: false,
    want: { markdown: true, html: true, links: true, images: true },
    ...options,
  });
}

export function markdown(html: string, options: Partial<HtmlOptions> = {}): string {
  return run(html, options).markdown ?? "";
}

/** Every tokenizer event, as a list. */
export function tokenizerEvents(TokenizerClass: typeof Tokenizer, html: string): string[] {
  const out: string[] = [];
  const record = (name: string) => (...args: unknown[]) => void out.push(`${name}:${args.join(",")}`);
  const names = ["onattribdata", "onattribentity", "onattribend", "onattribname", "oncdata", "onclosetag", "oncomment", "ondeclaration", "onend", "onopentagend", "onopentagname", "onprocessinginstruction", "onselfclosingtag", "ontext", "ontextentity"];
  const callbacks = Object.fromEntries(names.map((name) => [name, record(name)])) as unknown as TokenizerCallbacks;
  const tokenizer = new TokenizerClass({ decodeEntities: false }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  return out;
}
