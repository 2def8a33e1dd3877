import { ScrapelineError } from "../core/index.js";

/**
 * Keys the service's official SDKs (and older clients) put into request bodies that are about the
 * client or the hosted service, not about the work: `scrapeline serve` accepts them where the
 * SDKs send them and does what the table says. Everything else stays closed: an unknown key is
 * a 400 with "did you mean" on serve, and an error in a pipeline file, where none of these keys
 * has a meaning (the hint says so).
 */
export interface ClientKey {
  /** The key, or for `prefix` entries its beginning. */
  key: string;
  prefix?: true;
  /**
   * Where serve accepts it: the top level of every JSON body, or the bodies of the operations that
   * fetch pages (scrape, batch scrape, crawl, map, search, extract, agent) and their `scrapeOptions`.
   */
  accepted: "every body" | "work bodies";
  /** What serve does with it. */
  effect: string;
  /** Why serve refuses a value (the 400's message), or undefined when it accepts it. */
  refuse?: (value: unknown) => string | undefined;
}

const isString = (v: unknown) => typeof v === "string";
const isBoolean = (v: unknown) => typeof v === "boolean";

function typed(key: string, check: (v: unknown) => boolean, expected: string, refuse?: (value: unknown) => string | undefined) {
  return (value: unknown) => (check(value) ? refuse?.(value) : `${key} must be ${expected}`);
}

export const CLIENT_KEYS: readonly ClientKey[] = [
  { key: "origin", accepted: "every body", effect: "ignored: the SDK names itself (js-sdk@4.x, python-sdk@3.x)", refuse: typed("origin", isString, "a string") },
  { key: "integration", accepted: "every body", effect: "ignored: the tool the SDK runs in", refuse: typed("integration", isString, "a string") },
  { key: "__experimental_", prefix: true, accepted: "every body", effect: "ignored: the hosted service's internal switches" },
  { key: "fastMode", accepted: "work bodies", effect: "ignored: the local engine has one mode", refuse: typed("fastMode", isBoolean, "a boolean") },
  {
    key: "zeroDataRetention",
    accepted: "work bodies",
    effect: "false is accepted; true is refused: serve keeps every page it fetches (the job's status, change tracking, the page cache)",
    refuse: typed("zeroDataRetention", isBoolean, "a boolean", (v) =>
      v === true ? "zeroDataRetention: true is not available on scrapeline serve: it stores every page it fetches (for the job's status, change tracking and the page cache); send false or leave it out" : undefined,
    ),
  },
];

/** The client-only key a body key is, if any. */
export function clientKeyOf(key: string): ClientKey | undefined {
  return CLIENT_KEYS.find((k) => (k.prefix ? key.startsWith(k.key) : key === k.key));
}

/**
 * A copy of `body` without the client-only keys it may carry: those of every body, and for a
 * `work` body those of work bodies too, at its top level and in its `scrapeOptions`. A refused
 * value is a 400 naming the key.
 */
export function withoutClientKeys(body: Record<string, unknown>, kind: "work" | "other"): Record<string, unknown> {
  const out = strip(body, (k) => k.accepted === "every body" || kind === "work");
  const options = out.scrapeOptions;
  if (kind === "work" && options !== null && typeof options === "object" && !Array.isArray(options)) {
    out.scrapeOptions = strip(options as Record<string, unknown>, (k) => k.accepted === "work bodies" || k.prefix === true);
  }
  return out;
}

function strip(body: Record<string, unknown>, applies: (key: ClientKey) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const known = clientKeyOf(key);
    if (!known || !applies(known)) {
      out[key] = value;
      continue;
    }
    const refusal = known.refuse?.(value);
    if (refusal) throw new ScrapelineError("invalid-input", `Bad request: ${refusal}`);
  }
  return out;
}

/** The hint of an unknown key in a pipeline file that is one of these keys. */
export function clientKeyHint(key: string): string | undefined {
  const known = clientKeyOf(key);
  if (!known) return undefined;
  return `${known.prefix ? `${known.key}* keys are` : `"${key}" is`} sent by the service's SDKs and means nothing in a pipeline: remove it`;
}
