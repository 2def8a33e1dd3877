import type { LlmClient } from "./llm-client.js";
import { parseJson } from "../../../core/index.js";
import { schemaViolations } from "./validate.js";

/** The crawl options a prompt may set (POST /v2/crawl/params-preview's data, less the url). */
export const CRAWL_OPTIONS_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    includePaths: { type: "array", items: { type: "string" }, description: "regexes on the URL path; only matching pages are crawled" },
    excludePaths: { type: "array", items: { type: "string" }, description: "regexes on the URL path; matching pages are skipped" },
    maxDiscoveryDepth: { type: "integer", minimum: 0, description: "links followed from the start page" },
    limit: { type: "integer", minimum: 1, description: "at most this many pages" },
    crawlEntireDomain: { type: "boolean", description: "follow links outside the start URL's path" },
    allowSubdomains: { type: "boolean" },
    allowExternalLinks: { type: "boolean" },
    sitemap: { enum: ["include", "skip", "only"] },
    ignoreQueryParameters: { type: "boolean" },
    delay: { type: "number", minimum: 0, description: "seconds between requests" },
  },
} as const;

const SYSTEM = "You turn a description of a web crawl into crawl options. Answer with one JSON object using only the option names of the schema, and only the options the description implies. Paths are JavaScript regular expressions matched against the URL path, such as ^/blog/.";

/** Crawl options a model derives from plain words, checked against the options' schema. */
export async function deriveCrawlOptions(client: LlmClient, url: string, prompt: string, signal?: AbortSignal): Promise<{ options: Record<string, unknown>; tokens: number }> {
  let tokens = 0;
  let problem = "";
  for (let attempt = 1; attempt <= 3; attempt++) {
    const messages = [
      { role: "system" as const, content: `${SYSTEM}\nSchema: ${JSON.stringify(CRAWL_OPTIONS_SCHEMA)}` },
      { role: "user" as const, content: `Start URL: ${url}\nDescription: ${prompt}${problem ? `\nYour previous answer was rejected: ${problem}` : ""}` },
    ];
    const completion = await client.complete(messages, CRAWL_OPTIONS_SCHEMA as unknown as Record<string, unknown>, signal);
    tokens += completion.tokens;
    const parsed = parseJson(completion.content);
    if (!parsed.ok) {
      problem = "it was not JSON";
      continue;
    }
    const violations = schemaViolations(CRAWL_OPTIONS_SCHEMA as unknown as Record<string, unknown>, parsed.value);
    const badRegex = regexProblems(parsed.value as Record<string, unknown>);
    if (violations.length === 0 && badRegex.length === 0) return { options: parsed.value as Record<string, unknown>, tokens };
    problem = [...violations, ...badRegex].join("; ");
  }
  throw new Error(`the model could not derive crawl options from the prompt: ${problem}`);
}

function regexProblems(options: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ["includePaths", "excludePaths"]) {
    for (const pattern of (options[key] as string[] | undefined) ?? []) {
      try {
        new RegExp(pattern);
      } catch {
        out.push(`${key}: ${JSON.stringify(pattern)} is not a regular expression`);
      }
    }
  }
  return out;
}
