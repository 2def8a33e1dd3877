import type { AgentRequest, ScrapeOptions, Step } from "../../core/index.js";
import type { Reporter } from "../reporter.js";
import { isObj, stepsOf, type Obj } from "../sites.js";
import { DEFAULT_AGENT } from "../defaults.js";
import { fieldIn } from "../yaml/index.js";
import type { Path } from "../yaml/index.js";

type StepCommon = Omit<Extract<Step, { kind: "agent" }>, "kind" | "body">;

/**
 * A schema-valid `agent:` body to the normalized request, defaults applied; its pages are read with
 * the pipeline's default scrape options, as markdown with links.
 */
export function normalizeAgentStep(common: StepCommon, body: Obj, scrapeOptionsOf: (own: Obj, path: Path) => ScrapeOptions, path: Path): Step {
  const scrapeOptions = scrapeOptionsOf({ formats: ["markdown", "links"], ...(isObj(body.threatProtection) ? { threatProtection: structuredClone(body.threatProtection) } : {}) }, path);
  const request = { ...DEFAULT_AGENT, ...structuredClone(body), scrapeOptions } as unknown as AgentRequest;
  return { ...common, kind: "agent", body: request };
}

/** The rules of agent bodies that JSON Schema cannot say clearly. */
export function checkAgentSteps(data: unknown, report: Reporter): void {
  for (const { index, step } of stepsOf(data)) {
    const body = step.agent;
    if (!isObj(body)) continue;
    const path = ["steps", index, "agent"];
    if (body.strictConstrainToURLs === true && !(Array.isArray(body.urls) && body.urls.length > 0)) {
      report.error([...path, "strictConstrainToURLs"], {
        code: "missing-urls",
        at: "key",
        message: `strictConstrainToURLs in ${fieldIn(path, data)} needs urls: it allows only the given URLs and pages under them`,
        hint: "add urls: [https://…], or remove strictConstrainToURLs",
      });
    }
  }
}
