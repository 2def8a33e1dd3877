import { html, type Html, type Interpolation } from "./html.js";

/** What every view needs to make links: where the UI is mounted ("" standalone, "/ui" in serve). */
export interface ViewContext {
  base: string;
}

/** A link into the UI: its path under the base and its query (empty values left out), percent-encoded. */
export function href(ctx: ViewContext, path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const search = params.toString();
  return `${ctx.base}${path}${search ? `?${search}` : ""}`;
}

/** The page shell: header with the main links, the content, the stylesheet and the script. */
export function page(ctx: ViewContext, title: string, content: Interpolation, current: "runs" | "charts" | "history" | "monitors" | "" = ""): Html {
  const nav = (name: "runs" | "charts" | "history" | "monitors", path: string, label: string) => html`<a href="${href(ctx, path)}"${current === name ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · scrapeline</title>
<link rel="icon" href="${href(ctx, "/assets/icon.svg")}" type="image/svg+xml">
<link rel="stylesheet" href="${href(ctx, "/assets/ui.css")}">
<script src="${href(ctx, "/assets/ui.js")}" defer></script>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="top"><a class="brand" href="${href(ctx, "/")}">scrapeline</a><nav aria-label="Main">${nav("runs", "/", "Runs")}${nav("charts", "/charts", "Charts")}${nav("history", "/history", "Page history")}${nav("monitors", "/monitors", "Monitors")}</nav></header>
<main id="content" tabindex="-1">
${content}
</main>
</body>
</html>
`;
}

/** A timestamp as a <time> element (the script shows it in the reader's time zone). */
export function time(iso: string | null | undefined): Html {
  return iso ? html`<time datetime="${iso}">${iso.replace("T", " ").replace(/\.\d+Z$/, "Z")}</time>` : html`<span class="muted">-</span>`;
}

export function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "-";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return minutes < 60 ? `${minutes} min ${Math.round((ms % 60_000) / 1000)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function badge(kind: "status" | "change", value: string): Html {
  return html`<span class="badge ${kind}-${value.replace(/[^a-z-]/g, "")}">${value}</span>`;
}

/** Previous/next links of a paged list (rel=prev/next: the script's `p` and `n`). */
export function pager(previous: string | undefined, next: string | undefined, previousLabel = "← Previous"): Html {
  if (!previous && !next) return html``;
  return html`<nav class="pager" aria-label="Pages">${previous ? html`<a rel="prev" href="${previous}">${previousLabel}</a>` : ""}${next ? html`<a rel="next" href="${next}">Next →</a>` : ""}</nav>`;
}

/** The error page of a missing run, page or version. */
export function notFound(ctx: ViewContext, what: string): Html {
  return page(ctx, "Not found", html`<h1>Not found</h1><p>${what}</p><p><a href="${href(ctx, "/")}">Back to the runs</a></p>`);
}
