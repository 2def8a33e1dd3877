import type { CookieJar } from "./cookies.js";

/** Who may be reached and how names are resolved. One policy per gate. */
export interface FetchPolicy {
  /** Let requests reach loopback, private, link-local and other non-public addresses. */
  allowPrivateNetwork: boolean;
  /** DNS resolver; defaults to node:dns lookup(all: true). Tests inject one. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Extra address ranges (CIDR) to treat as public; used by tests so 127.0.0.1 can play a public host. */
  treatAsPublic?: string[];
}

export interface FetchRequest {
  url: string;
  /** Default GET. Other methods are not redirected: the redirect is the answer. */
  method?: "GET" | "POST";
  body?: string;
  /** Sent as given (user headers win over defaults). */
  headers?: Record<string, string>;
  /** Overall deadline for the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** Cap on decoded body bytes; default 20 MiB. */
  maxBodyBytes?: number;
  /** Default 20. */
  maxRedirects?: number;
  skipTlsVerification?: boolean;
  /** Caller cancellation. */
  signal?: AbortSignal;
  /**
   * The proxy that carries the request (http, https or socks5, credentials in the URL); the target
   * is still resolved and checked here first. None: direct.
   */
  proxy?: URL;
  /** A session's cookies: added to each hop's request for its host, and updated with each hop's Set-Cookie. */
  cookies?: CookieJar;
}

export interface FetchResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Content-encoding (gzip, deflate, br) already decoded. */
  body: Buffer;
  /** The URL of each redirect target, in order; the last one equals `url` when non-empty. */
  redirects: string[];
}

export interface FetchGate {
  fetch(request: FetchRequest): Promise<FetchResponse>;
  /** Destroys pooled connections; the gate must not be used afterwards. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 20;
