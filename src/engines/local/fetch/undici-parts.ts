import { createRequire } from "node:module";
import type * as Undici from "undici";

/**
 * undici's Agent and its `request`, each from its own file. The package's index loads every part
 * it has (mocks, WebSocket, EventSource, caches, cookies, interceptors…): 55 ms of CPU and 10 MB
 * more at the start of every command that fetches, for the one dispatcher a plain fetch uses.
 * A proxy loads the whole package (its agents tunnel with the methods the index adds to every
 * dispatcher). The files are undici's own CommonJS modules, the same ones its index exports.
 */
const require = createRequire(import.meta.url);

export const Agent = require("undici/lib/dispatcher/agent.js") as typeof Undici.Agent;
export type Agent = Undici.Agent;

const requestOn = require("undici/lib/api/api-request.js") as (this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData>;

/** `dispatcher.request(options)`, without needing undici's index to have added the method. */
export function dispatchRequest(dispatcher: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  return requestOn.call(dispatcher, options);
}

/** undici's proxy agents (the whole package, loaded on the first proxied request). */
export function proxyAgents(): Pick<typeof Undici, "ProxyAgent" | "Socks5ProxyAgent"> {
  const { ProxyAgent, Socks5ProxyAgent } = require("undici") as typeof Undici;
  return { ProxyAgent, Socks5ProxyAgent };
}
