import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { htmlText, processHtml, tokenF1, tokenize } from "../../src/engines/local/html/index.js";

/** One page of a main-content corpus: the page as served and the article a reader view keeps. */
export interface CorpusPage {
  name: string;
  source: string;
  expected: string;
}

/** The repository's own corpus: small article pages written for these tests (test/fixtures/main-content). */
export const OWN_CORPUS = fileURLToPath(new URL("../fixtures/main-content/", import.meta.url));

/** The pages of a corpus folder (one sub-folder per page, with source.html and expected.html), by name. */
export function readCorpus(dir: string): CorpusPage[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      source: readFileSync(resolve(dir, name, "source.html"), "utf8"),
      expected: readFileSync(resolve(dir, name, "expected.html"), "utf8"),
    }));
}

/**
 * The shared corpora (real-world pages whose licences keep them out of the repository), from
 * $SCRAPELINE_CORPUS, resolved against the working directory. Undefined when the variable is unset;
 * an error when it is set and names no corpus, so a run that asked for them cannot silently skip them.
 */
export function sharedCorpus(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.SCRAPELINE_CORPUS;
  if (value === undefined || value === "") return undefined;
  const dir = resolve(value);
  if (!existsSync(resolve(dir, "main-content"))) {
    throw new Error(`SCRAPELINE_CORPUS is set to ${value}, but ${resolve(dir, "main-content")} does not exist`);
  }
  return dir;
}

/** Token F1 of the text onlyMainContent keeps of a page against the text of its expected article. */
export function mainContentF1(page: CorpusPage): number {
  const options = { url: "http://fakehost/test/page.html", onlyMainContent: true, removeBase64Images: false, blockAds: false, want: { html: true } };
  const html = processHtml(page.source, options).html!;
  return tokenF1(tokenize(htmlText(html)), tokenize(htmlText(page.expected)));
}
