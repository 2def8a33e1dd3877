import type { IncomingMessage, ServerResponse } from "node:http";
import { UiData } from "../app/ui-data/index.js";
import type { Team } from "../core/index.js";
import { CHALLENGE, presentedKey } from "./auth.js";
import { answerUi } from "./handler.js";
import { securityHeaders } from "./headers.js";

/** Where `scrapeline serve` mounts the UI. */
export const UI_MOUNT = "/ui";

/** Whether a request path is the UI's (under /ui). */
export function isUiPath(pathname: string): boolean {
  return pathname === UI_MOUNT || pathname.startsWith(`${UI_MOUNT}/`);
}

/**
 * The UI inside `scrapeline serve`, behind its team keys: a browser gives the key as the password
 * when asked (Basic), a client as a Bearer token. A team sees the runs of its own jobs only. The
 * database is opened on the first request.
 */
export class UiMount {
  private data: UiData | undefined;
  /** Where the UI is seen from outside: /ui, below the path of --public-url when serve sits behind a proxy under a prefix. */
  private readonly linkBase: string;

  constructor(
    private readonly db: string,
    /** serve's own check of a key: a Bearer header to the team, throwing when it is not a key. */
    private readonly authenticate: (authorization: string) => Team,
    /** serve's --public-url (normalized, no trailing slash): its path prefixes every link and redirect. */
    publicUrl?: string,
  ) {
    this.linkBase = `${publicUrl === undefined ? "" : new URL(publicUrl).pathname.replace(/\/+$/, "")}${UI_MOUNT}`;
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const key = presentedKey(req.headers.authorization);
    let team: Team | undefined;
    try {
      team = key === undefined ? undefined : this.authenticate(`Bearer ${key}`);
    } catch {
      team = undefined;
    }
    if (!team) {
      res.writeHead(401, { ...securityHeaders(), "www-authenticate": CHALLENGE, "content-type": "text/plain; charset=utf-8" }).end("Unauthorized: give a team's API key as the password.\n");
      return;
    }
    if (url.pathname === UI_MOUNT) {
      res.writeHead(308, { ...securityHeaders(), location: `${this.linkBase}/` }).end();
      return;
    }
    this.data ??= UiData.open(this.db);
    answerUi(this.data, req, res, this.linkBase, url.pathname.slice(UI_MOUNT.length), url.searchParams, { teamId: team.id });
  }

  close(): void {
    this.data?.close();
    this.data = undefined;
  }
}
