import type { Document } from "./document.js";
import type { ScrapeOptions } from "./types.js";

/** Settings of an engine that apply to every request of a run. */
export interface EngineSettings {
  /** Let requests reach loopback, private, link-local and metadata addresses (off by default). */
  allowPrivateNetwork: boolean;
}

/**
 * The engine port (DESIGN.md §3). The local engine and the remote client implement it and return
 * the same shapes. Implementations throw ScrapelineError with a kind, never bare errors.
 */
export interface Engine {
  readonly name: string;
  scrape(url: string, options: ScrapeOptions, signal?: AbortSignal): Promise<Document>;
  /** Releases sockets, browsers and workers. */
  close(): Promise<void>;
}
