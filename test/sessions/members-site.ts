import { expect } from "vitest";
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { FixtureSite, htmlPage } from "../helpers/site.js";

export const USER = "ada";
export const PASSWORD = "pw-Tr0ub4dor-and-3-horses";

/**
 * A site with a members' area: a login form with a CSRF token, a cookie session, and member
 * pages that log the session out after `logoutAfter` of them (redirecting to /login).
 */
export class MembersSite {
  readonly site = new FixtureSite();
  /** Successful logins, and every POST to /login. */
  logins = 0;
  attempts = 0;
  /** Visits of /logout (which ends the session it is asked with). */
  signOuts = 0;
  /** Session ids given out, so tests can look for them where they must not be. */
  readonly issued: string[] = [];
  /** The Cookie header of every members' request, in order. */
  readonly cookiesSeen: string[] = [];
  private readonly tokens = new Set<string>();
  private readonly sessions = new Map<string, number>();

  /**
   * `loggedOut: "form"`: a members' page asked without a live session answers 200 with the sign-in
   * form at its own URL (as many sites do) instead of redirecting to /login.
   */
  constructor(private readonly options: { logoutAfter?: number; pages?: number; loggedOut?: "redirect" | "form" } = {}) {}

  get url(): string {
    return this.site.url;
  }

  async start(): Promise<this> {
    const pages = this.options.pages ?? 4;
    this.site.route("/login", (req, res) => (req.method === "POST" ? this.post(req, res) : this.form(res, false)));
    this.site.route("/members", (req, res) => this.member(req, res, "Members", Array.from({ length: pages }, (_, i) => `<li><a href="/members/${i + 1}">Report ${i + 1}</a></li>`).join("")));
    for (let i = 1; i <= pages; i++) this.site.route(`/members/${i}`, (req, res) => this.member(req, res, `Report ${i}`, `<p>Confidential figure ${i * 111}</p><a href="/members">Back</a>`));
    this.site.route("/welcome", (req, res) => {
      const sid = /(?:^|;\s*)sid=([0-9a-f]+)/.exec(req.headers.cookie ?? "")?.[1];
      const known = sid !== undefined && this.sessions.has(sid);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(htmlPage("Welcome", known ? `<p>Welcome back</p><a id="logout" href="/logout">Sign out</a><script>localStorage.setItem("note", "kept in local storage")</script>` : "<p>Not signed in</p>"));
    });
    // What the login left in local storage, rendered by script (only a browser with the session's storage shows it).
    this.site.route("/members/storage", (req, res) => this.member(req, res, "Storage", `<p id="note">none</p><script>document.getElementById("note").textContent = localStorage.getItem("note") || "no note"</script>`));
    this.site.page("/public", htmlPage("Public", "<p>Anyone can read this.</p>"));
    // Signing out is a plain link, as on many sites: following it ends the session.
    this.site.route("/logout", (req, res) => {
      this.signOuts++;
      const sid = /(?:^|;\s*)sid=([0-9a-f]+)/.exec(req.headers.cookie ?? "")?.[1];
      if (sid !== undefined) this.sessions.delete(sid);
      res.writeHead(302, { location: "/login" }).end();
    });
    await this.site.start();
    return this;
  }

  stop(): Promise<void> {
    return this.site.stop();
  }

  /** A members' page at `path` (counted like the others). */
  addMemberPage(path: string, title: string, body: string): this {
    this.site.route(path, (req, res) => this.member(req, res, title, body));
    return this;
  }

  /**
   * A members-only file (robots.txt, a sitemap): served with a live session, else a redirect to
   * /login. `seen` gets the Cookie header of each request for it.
   */
  addMemberFile(path: string, contentType: string, body: () => string, seen: string[] = []): this {
    this.site.route(path, (req, res) => {
      const cookie = req.headers.cookie ?? "";
      seen.push(cookie);
      const sid = /(?:^|;\s*)sid=([0-9a-f]+)/.exec(cookie)?.[1];
      if (sid === undefined || !this.sessions.has(sid)) res.writeHead(302, { location: "/login" }).end();
      else res.writeHead(200, { "content-type": contentType }).end(body());
    });
    return this;
  }

  /** Ends every session on the server, as when they time out. */
  expireAll(): void {
    this.sessions.clear();
  }

  private form(res: ServerResponse, failed: boolean): void {
    const token = randomBytes(12).toString("hex");
    this.tokens.add(token);
    const body = `${failed ? '<p class="error">Wrong user or password</p>' : ""}<form method="post" action="/login">
      <input type="hidden" name="csrf" value="${token}">
      <input id="user" name="user"><input id="pass" name="pass" type="password">
      <button id="go" type="submit">Sign in</button></form>`;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(htmlPage("Sign in", body));
  }

  private async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.attempts++;
    let text = "";
    for await (const chunk of req) text += chunk;
    const form = new URLSearchParams(text);
    const token = form.get("csrf") ?? "";
    if (!this.tokens.delete(token)) {
      res.writeHead(403, { "content-type": "text/plain" }).end("bad CSRF token");
      return;
    }
    if (form.get("user") !== USER || form.get("pass") !== PASSWORD) {
      this.form(res, true);
      return;
    }
    this.logins++;
    const sid = randomBytes(16).toString("hex");
    this.issued.push(sid);
    this.sessions.set(sid, 0);
    res.writeHead(302, { location: "/welcome", "set-cookie": [`sid=${sid}; Path=/; HttpOnly; SameSite=Lax`, "theme=dark; Path=/"] }).end();
  }

  private member(req: IncomingMessage, res: ServerResponse, title: string, body: string): void {
    const cookie = req.headers.cookie ?? "";
    this.cookiesSeen.push(cookie);
    const sid = /(?:^|;\s*)sid=([0-9a-f]+)/.exec(cookie)?.[1];
    const used = sid === undefined ? undefined : this.sessions.get(sid);
    const limit = this.options.logoutAfter ?? Infinity;
    if (sid === undefined || used === undefined || used >= limit) {
      if (sid !== undefined) this.sessions.delete(sid);
      if (this.options.loggedOut === "form") this.form(res, false);
      else res.writeHead(302, { location: "/login" }).end();
      return;
    }
    this.sessions.set(sid, used + 1);
    // A visit counter the server rotates on each page, as sites that refresh their cookies do.
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "set-cookie": `visits=${used + 1}; Path=/members` });
    res.end(htmlPage(title, `<p id="who">Signed in as ${USER}</p><ul>${body}</ul><a id="logout" href="/logout">Sign out</a>`));
  }
}

/** A pipeline with a `members` session on `site`, and `steps`. */
export function sessionPipeline(site: MembersSite, steps: string, extra = "", sessionExtra = ""): string {
  return `version: 1
name: members
retry: { attempts: 2, initialDelayMs: 10, maxDelayMs: 50 }
sessions:
  members:
    url: ${site.url}/login
    actions:
      - { type: click, selector: "#user" }
      - { type: write, text: "\${SITE_USER}" }
      - { type: click, selector: "#pass" }
      - { type: write, text: "\${SITE_PASSWORD}" }
      - { type: press, key: Enter }
    successWhen: { selector: "#logout" }
${sessionExtra}${extra}steps:
${steps}`;
}

export const SECRET_KEY = "test-key-0123456789abcdef0123456789abcdef";
export const credentials = { SITE_USER: USER, SITE_PASSWORD: PASSWORD };

/** A paged list on `site`: /list?page=N with a "Next" button that goes to the next page, and a "More" button that loads more items. */
export function addPagedList(site: MembersSite, pages = 3): void {
  for (let n = 1; n <= pages; n++) {
    const next = n < pages ? `<button id="next" onclick="location.href='/list/${n + 1}'">Next</button>` : "";
    site.site.page(`/list/${n}`, htmlPage(`List page ${n}`, `<ul id="items"><li>Item ${n}-a</li><li>Item ${n}-b</li></ul><button id="more" onclick="document.getElementById('items').insertAdjacentHTML('beforeend', '<li>Extra on page ${n}</li>')">More</button>${next}`));
  }
}

/**
 * Puts the robots.txt and sitemap of `site`'s members' area behind its login: the sitemap lists a
 * report no page links to, robots.txt keeps crawlers out of /members/drafts (linked from that
 * report). The Cookie header each of them was read with is recorded.
 */
export function addMembersSitemap(site: MembersSite): { robotsSeen: string[]; sitemapSeen: string[] } {
  const robotsSeen: string[] = [];
  const sitemapSeen: string[] = [];
  site
    .addMemberFile("/robots.txt", "text/plain", () => `User-agent: *\nDisallow: /members/drafts\nSitemap: ${site.url}/members/sitemap.xml\n`, robotsSeen)
    .addMemberFile("/members/sitemap.xml", "application/xml", () => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/members/annual</loc></url></urlset>`, sitemapSeen)
    .addMemberPage("/members/annual", "Annual report", `<p>Annual figure 9999</p><a href="/members/drafts">Drafts</a>`)
    .addMemberPage("/members/drafts", "Drafts", "<p>Not for crawlers</p>");
  return { robotsSeen, sitemapSeen };
}

/** A logged-in crawl of the members' area that reads its sitemap. */
export const sitemapCrawlStep = (site: MembersSite) => `  - id: reports
    session: members
    crawl: { url: ${site.url}/members, includePaths: ["^/members"], limit: 20, sitemap: include }
`;

/** Checks what such a crawl stored: the sitemap's report, and not the drafts robots.txt keeps it out of. */
export function expectSitemapCrawl(site: MembersSite, docs: ReadonlyArray<{ url: string }>): void {
  const paths = docs.map((d) => new URL(d.url).pathname);
  expect(paths).toContain("/members/annual");
  expect(paths).not.toContain("/members/drafts");
  expect(site.site.hits.get("/members/drafts")).toBeUndefined();
}
