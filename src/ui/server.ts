import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { UiData } from "../app/ui-data/index.js";
import { ScrapelineError } from "../core/index.js";
import { CHALLENGE, isLoopback, loopbackHostHeader, presentedKey, sameKey } from "./auth.js";
import { answerUi } from "./handler.js";
import { securityHeaders } from "./headers.js";

export interface UiServerOptions {
  db: string;
  /** Default 7777; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Any other address needs a key. */
  host?: string;
  /** When set, every request must present it (Basic password or Bearer). */
  key?: string;
}

export interface RunningUi {
  url: string;
  port: number;
  close: () => Promise<void>;
}

/** Starts `scrapeline ui`: the pages over one database, read-only. */
export async function startUiServer(options: UiServerOptions): Promise<RunningUi> {
  const host = options.host ?? "127.0.0.1";
  const key = options.key === "" ? undefined : options.key;
  if (!isLoopback(host) && key === undefined) {
    throw new ScrapelineError("invalid-input", `the UI binds to ${host}, beyond this machine, only with a key: set SCRAPELINE_UI_KEY (readers give it as the password when the browser asks)`);
  }
  const data = UiData.open(options.db);
  const server: Server = createServer((req, res) => {
    const deny = (status: number, text: string, extra: Record<string, string> = {}) => res.writeHead(status, { ...securityHeaders(), ...extra, "content-type": "text/plain; charset=utf-8" }).end(text);
    if (key === undefined ? !loopbackHostHeader(req.headers.host) : !sameKeyOf(req.headers.authorization, key)) {
      if (key === undefined) return deny(421, "This UI answers requests for localhost only.\n");
      return deny(401, "Unauthorized: give the key as the password.\n", { "www-authenticate": CHALLENGE });
    }
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      return deny(400, "Bad request.\n");
    }
    answerUi(data, req, res, "", url.pathname, url.searchParams);
  });
  server.keepAliveTimeout = 5000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 7777, host, () => resolve());
    });
  } catch (error) {
    data.close();
    const code = (error as { code?: string }).code;
    throw new ScrapelineError("invalid-input", code === "EADDRINUSE" ? `port ${options.port ?? 7777} on ${host} is in use; choose another with --port` : `cannot listen on ${host}: ${(error as Error).message}`, { cause: error });
  }
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    port,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).finally(() => data.close())),
  };
}

function sameKeyOf(authorization: string | undefined, key: string): boolean {
  const given = presentedKey(authorization);
  return given !== undefined && sameKey(given, key);
}
