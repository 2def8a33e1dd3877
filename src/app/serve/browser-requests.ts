import { ScrapelineError } from "../../core/index.js";
import { withoutClientKeys } from "../../pipeline/index.js";

const bad = (message: string) => new ScrapelineError("invalid-input", message);

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) throw bad("the body must be a JSON object");
  return withoutClientKeys(body as Record<string, unknown>, "other");
}

function seconds(body: Record<string, unknown>, key: string, min: number, max: number, fallback: number): number {
  const value = body[key] ?? fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw bad(`${key} must be a whole number of seconds from ${min} to ${max}`);
  return value * 1000;
}

/** POST /v2/browser: `{ttl 30–3600 (600), activityTtl 10–3600 (300)}`. */
export function readSessionCall(body: unknown): { ttlMs: number; activityTtlMs: number } {
  const b = objectBody(body);
  const unknown = Object.keys(b).filter((k) => k !== "ttl" && k !== "activityTtl");
  if (unknown.length > 0) throw bad(`unknown key${unknown.length === 1 ? "" : "s"} ${unknown.map((k) => JSON.stringify(k)).join(", ")}: a browser session takes ttl and activityTtl`);
  return { ttlMs: seconds(b, "ttl", 30, 3600, 600), activityTtlMs: seconds(b, "activityTtl", 10, 3600, 300) };
}

/** POST …/execute and …/interact: `{code, language: node, timeout 1–300 (30)}`; `prompt` is not served here. */
export function readExecuteCall(body: unknown): { code: string; timeoutMs: number } {
  const b = objectBody(body);
  if ("prompt" in b && !("code" in b)) {
    throw new ScrapelineError("unsupported", "prompt (a model driving the page) is not available on scrapeline serve; send code (language node) instead", { status: 501 });
  }
  if (typeof b.code !== "string" || b.code.trim() === "") throw bad("code must be a non-empty string of JavaScript");
  if (b.code.length > 100_000) throw bad("code is limited to 100,000 characters");
  const language = b.language ?? "node";
  if (language !== "node") throw bad(`language ${JSON.stringify(language)} is not supported: only node`);
  return { code: b.code, timeoutMs: seconds(b, "timeout", 1, 300, 30) };
}
