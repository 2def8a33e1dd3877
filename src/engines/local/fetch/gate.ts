import type { Dispatcher } from "undici";
import { ScrapelineError } from "../../../core/index.js";
import { createAddressPolicy, type AddressPolicy } from "./address-policy.js";
import { Deadline } from "./deadline.js";
import { redactUrl, toFetchError } from "./failures.js";
import { PinnedAddresses } from "./pinned-lookup.js";
import { readBody } from "./read-body.js";
import { parseHttpUrl, resolveTarget, systemResolve, type TargetContext } from "./resolve-target.js";
import { Agent, dispatchRequest, proxyAgents } from "./undici-parts.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REDIRECTS, type FetchGate, type FetchPolicy, type FetchRequest, type FetchResponse } from "./types.js";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials for one origin and are dropped when a redirect leaves it. */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

interface Hop {
  status: number;
  headers: Record<string, string>;
  body: Dispatcher.ResponseData["body"];
}

/**
 * Creates the gate every outbound request goes through. Each hop resolves its host once,
 * checks every address against the policy, and connects only to those addresses; redirects
 * are followed here, hop by hop, so each target is checked too. Connections are pooled per
 * gate until `close()`.
 */
export function createFetchGate(policy: FetchPolicy): FetchGate {
  const addresses = policyFor(policy.treatAsPublic);
  const pins = new PinnedAddresses();
  const agents = new Map<boolean, Agent>();
  const proxied = new Map<string, Dispatcher>();
  let closed = false;

  const agentFor = (skipTlsVerification: boolean): Agent => {
    let agent = agents.get(skipTlsVerification);
    if (!agent) {
      agent = new Agent({ connect: { lookup: pins.lookup, rejectUnauthorized: !skipTlsVerification } });
      agents.set(skipTlsVerification, agent);
    }
    return agent;
  };

  /** One pool per proxy and TLS setting; the proxy is the operator's own, reached wherever it is. */
  const proxyAgentFor = (proxy: URL, skipTlsVerification: boolean): Dispatcher => {
    const key = `${skipTlsVerification}|${proxy.href}`;
    let agent = proxied.get(key);
    if (!agent) {
      const requestTls = { rejectUnauthorized: !skipTlsVerification };
      const { ProxyAgent, Socks5ProxyAgent } = proxyAgents();
      agent =
        proxy.protocol === "socks5:" || proxy.protocol === "socks:"
          ? new Socks5ProxyAgent(proxy.href, { username: safeDecode(proxy.username), password: safeDecode(proxy.password), requestTls } as ConstructorParameters<typeof Socks5ProxyAgent>[1])
          : new ProxyAgent({ uri: proxy.href, requestTls });
      proxied.set(key, agent);
    }
    return agent;
  };

  const exchange = async (url: URL, headers: Record<string, string>, request: FetchRequest, deadline: Deadline): Promise<Hop> => {
    const context: TargetContext = {
      policy: addresses,
      allowPrivateNetwork: policy.allowPrivateNetwork,
      resolve: policy.resolve ?? systemResolve,
      signal: deadline.signal,
    };
    // Checked here even when a proxy carries the request: a proxy is never a way to a private address.
    const target = await resolveTarget(url, context);
    if (!target.literal && !request.proxy) pins.pin(target.hostname, target.addresses);
    // undici opens a connection even for a request whose signal has already fired.
    deadline.signal.throwIfAborted();
    const skipTls = request.skipTlsVerification === true;
    const dispatcher = request.proxy ? proxyAgentFor(request.proxy, skipTls) : agentFor(skipTls);
    const response = await dispatchRequest(dispatcher, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: request.method ?? "GET",
      headers: withUserinfo(withCookies(headers, url, request), url),
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: deadline.signal,
    });
    const raw = response.headers["set-cookie"];
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    request.cookies?.store(url, setCookies);
    return { status: response.statusCode, headers: flattenHeaders(response.headers), body: response.body };
  };

  /** Follows redirects; `progress.url` tracks the hop under way so a failure names it. */
  const follow = async (request: FetchRequest, deadline: Deadline, progress: { url?: URL }): Promise<FetchResponse> => {
    const maxRedirects = request.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const start = parseHttpUrl(request.url);
    const chain = [start.href];
    let headers = { ...request.headers };
    for (let url = start; ; ) {
      progress.url = url;
      const hop = await exchange(url, headers, request, deadline);
      const location = hop.headers.location;
      if (!REDIRECT_STATUSES.has(hop.status) || location === undefined || (request.method ?? "GET") !== "GET") {
        const body = await readBody(hop.body, hop.headers, { maxBodyBytes: request.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, url: url.password ? redactUrl(url.href) : url.href });
        return { url: url.href, status: hop.status, headers: hop.headers, body, redirects: chain.slice(1) };
      }
      await hop.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const next = parseHttpUrl(location, url);
      const shown = () => [...chain, next.href].map(redactUrl).join(" → ");
      // The site answered, and will answer the same way again: an error status, not a network failure, so it is not retried.
      if (chain.includes(next.href)) {
        throw new ScrapelineError("http-status", `redirect loop: ${shown()}`, { url: redactUrl(start.href), status: hop.status });
      }
      if (chain.length > maxRedirects) {
        throw new ScrapelineError("http-status", `more than ${maxRedirects} redirects: ${shown()}`, { url: redactUrl(start.href), status: hop.status });
      }
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      chain.push(next.href);
      url = next;
    }
  };

  return {
    async fetch(request) {
      if (closed) throw new ScrapelineError("internal", "the fetch gate was used after close()", { url: redactUrl(request.url) });
      const deadline = new Deadline(request.timeoutMs, request.signal);
      const progress: { url?: URL } = {};
      try {
        return await follow(request, deadline, progress);
      } catch (error) {
        const url = redactUrl(progress.url?.href ?? request.url);
        throw toFetchError(error, { url, deadline, timeoutMs: request.timeoutMs, ...(request.proxy ? { proxy: request.proxy } : {}) });
      } finally {
        deadline.dispose();
      }
    },
    async close() {
      closed = true;
      const all: Dispatcher[] = [...agents.values(), ...proxied.values()];
      agents.clear();
      proxied.clear();
      pins.clear();
      await Promise.all(all.map((agent) => agent.destroy()));
    },
  };
}

function policyFor(treatAsPublic: string[] | undefined): AddressPolicy {
  try {
    return createAddressPolicy(treatAsPublic);
  } catch (cause) {
    throw new ScrapelineError("invalid-input", `treatAsPublic holds a range that is not CIDR: ${JSON.stringify(treatAsPublic)}`, { cause });
  }
}

/** Response headers with lower-case names and repeated values joined by ", ". */
function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** The session's cookies for this hop's URL, after any Cookie header the caller set. */
function withCookies(headers: Record<string, string>, url: URL, request: FetchRequest): Record<string, string> {
  const cookies = request.cookies?.header(url);
  if (cookies === undefined) return headers;
  const own = Object.entries(headers).find(([name]) => name.toLowerCase() === "cookie");
  const rest = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "cookie"));
  return { ...rest, Cookie: own ? `${own[1]}; ${cookies}` : cookies };
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

/** Credentials written into the URL become Basic authorization unless the caller set one. */
function withUserinfo(headers: Record<string, string>, url: URL): Record<string, string> {
  if (!url.username && !url.password) return headers;
  if (Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) return headers;
  const credentials = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
  return { ...headers, Authorization: `Basic ${Buffer.from(credentials).toString("base64")}` };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
