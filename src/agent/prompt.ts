import type { AgentMessage, AgentRequest, AgentToolName, AgentToolSpec } from "../core/index.js";

const URL_ARG = { type: "string", description: "An absolute http(s) URL." };

const SPECS: Record<AgentToolName, AgentToolSpec> = {
  search: {
    name: "search",
    description: "Searches the web. Returns result titles, URLs and descriptions.",
    parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 20 } }, required: ["query"], additionalProperties: false },
  },
  map: {
    name: "map",
    description: "Lists the URLs of a site (its sitemap and links), optionally those matching a search term.",
    parameters: { type: "object", properties: { url: URL_ARG, search: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 200 } }, required: ["url"], additionalProperties: false },
  },
  scrape: {
    name: "scrape",
    description: "Reads a page: its content as markdown (trimmed when long) and its links.",
    parameters: { type: "object", properties: { url: URL_ARG }, required: ["url"], additionalProperties: false },
  },
  extract: {
    name: "extract",
    description: "Reads structured data from a page against a JSON Schema (the page's structured data first).",
    parameters: { type: "object", properties: { url: URL_ARG, schema: { type: "object" }, prompt: { type: "string" } }, required: ["url"], additionalProperties: false },
  },
};

/** The tools offered: those the caller can run; under strictConstrainToURLs no search (its results lie anywhere). */
export function toolSpecs(available: readonly AgentToolName[], request: AgentRequest): AgentToolSpec[] {
  return available.filter((name) => !(name === "search" && request.strictConstrainToURLs)).map((name) => SPECS[name]);
}

const SYSTEM = [
  "You gather data from the web with the tools you are given, then answer.",
  "Call tools to find the pages that state what is asked; use only facts the pages state.",
  'When you have the answer, reply without tool calls with one JSON object only: {"data": <the answer>, "sources": {"<field of data>": ["<URL the field was read from>", ...]}}.',
  "No prose and no code fences in the final answer.",
].join(" ");

/** The opening of the conversation: what the agent is, and the task with its URLs, schema and limits. */
export function openingMessages(request: AgentRequest): AgentMessage[] {
  const lines = [`Task: ${request.prompt}`];
  if (request.urls?.length) lines.push(`Start from: ${request.urls.join(", ")}`);
  if (request.strictConstrainToURLs && request.urls?.length) lines.push("You may only use those URLs and pages under them; calls to other URLs are refused.");
  if (request.schema) lines.push(`"data" must be valid against this JSON Schema:\n${JSON.stringify(request.schema)}`);
  lines.push(`You have at most ${request.maxSteps} turns.`);
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: lines.join("\n\n") },
  ];
}
