import { ScrapelineError } from "../../core/index.js";
import { FirecrawlEngine, type ServiceUsage } from "../../engines/firecrawl/index.js";

export const DEFAULT_API_URL = "https://api.firecrawl.dev";

export interface RemoteSettings {
  /** The engine's baseUrl from the pipeline, when it names one. */
  baseUrl?: string;
  /** The environment variable holding the key. */
  apiKeyEnv: string;
}

/**
 * The remote engine for the service the user chose: base URL from the pipeline, else
 * FIRECRAWL_API_URL, else the hosted service; the key only from the environment. A missing key
 * is an error before anything is sent.
 */
export function createRemoteEngine(settings: RemoteSettings, env: Readonly<Record<string, string | undefined>>): FirecrawlEngine {
  const apiKey = env[settings.apiKeyEnv]?.trim();
  if (!apiKey) throw new ScrapelineError("invalid-input", `the firecrawl engine needs the service's API key in the environment: ${settings.apiKeyEnv} is not set`);
  const baseUrl = settings.baseUrl ?? env["FIRECRAWL_API_URL"]?.trim() ?? DEFAULT_API_URL;
  return new FirecrawlEngine({ baseUrl: baseUrl || DEFAULT_API_URL, apiKey });
}

/** The team's remaining tokens on the service, and the credits they are worth (15 tokens each). */
export interface UsageReport extends ServiceUsage {
  remainingCredits: number;
  baseUrl: string;
}

export async function serviceUsage(settings: RemoteSettings, env: Readonly<Record<string, string | undefined>>): Promise<UsageReport> {
  const engine = createRemoteEngine(settings, env);
  const usage = await engine.usage();
  return { ...usage, remainingCredits: Math.floor(usage.remainingTokens / 15), baseUrl: settings.baseUrl ?? env["FIRECRAWL_API_URL"] ?? DEFAULT_API_URL };
}

/** The service's params-preview of a crawl prompt. */
export async function previewCrawlRemote(url: string, prompt: string, settings: RemoteSettings, env: Readonly<Record<string, string | undefined>>): Promise<Record<string, unknown>> {
  const engine = createRemoteEngine(settings, env);
  return engine.previewCrawl(url, prompt);
}
