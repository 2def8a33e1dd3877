import type { Document } from "../../core/index.js";
import type { StepEntry, VersionDiff } from "../../app/ui-data/index.js";
import { html, type Html } from "../html.js";
import { renderMarkdown, safeUrl } from "../markdown.js";
import { badge, href, page, time, type ViewContext } from "../layout.js";
import { diffTable, jsonChangesTable, type DiffLayout } from "./diff.js";
import { layoutSwitch } from "./layout-switch.js";

/** Most links listed on a document's page. */
const MAX_LINKS = 500;

/** A URL from a scraped page as a link when it is http(s) or mailto, else as text. */
export function outLink(url: string, pageUrl: string | undefined): Html {
  const safe = safeUrl(url, pageUrl);
  return safe ? html`<a href="${safe}" rel="nofollow noopener noreferrer">${url}</a>` : html`<span>${url}</span>`;
}

/** Screenshots and PDFs are stored blobs (`blob:sha256:…`), served by the UI itself; anything else is not shown. */
function assetLink(ctx: ViewContext, ref: string, label: string, from: { run: number; step: string; url: string }): Html {
  if (!ref.startsWith("blob:sha256:")) return html``;
  // The document it belongs to goes along: a team's view serves a file only from a run the team can see.
  const src = href(ctx, "/asset", { ref, ...from });
  return /;type=image\//.test(ref) ? html`<figure><img src="${src}" alt="${label}" loading="lazy"><figcaption>${label}</figcaption></figure>` : html`<p><a href="${src}">${label}</a></p>`;
}

/** A stored page: its change-tracking status and diff, the rendered and the raw markdown, metadata, links and screenshots. */
export function documentView(ctx: ViewContext, runId: number, stepId: string, url: string, found: { document: Document; entry: StepEntry; diff?: VersionDiff }, layout: DiffLayout): Html {
  const { document: doc, diff } = found;
  const pageUrl = typeof doc.metadata.url === "string" ? doc.metadata.url : url;
  const change = doc.changeTracking;
  const self = (l: DiffLayout) => href(ctx, `/runs/${runId}/doc`, { step: stepId, url, view: l }) + "#change";
  const tracking = change
    ? html`<h2 id="change">Change tracking</h2><p>${badge("change", change.changeStatus)} ${change.visibility === "hidden" ? badge("change", "hidden") : ""} previous scrape ${time(change.previousScrapeAt)} · <a href="${href(ctx, "/history", { url })}">history of this page</a></p>
${diff ? html`<p class="muted">Version ${diff.from.version} → ${diff.to.version}: ${diff.added} line(s) added, ${diff.removed} removed.</p>${layoutSwitch(layout, self)}${diffTable(diff, layout)}` : change.diff ? html`<pre class="raw">${change.diff.text}</pre>` : ""}
${change.json !== undefined ? html`<h3>Changed fields</h3>${jsonChangesTable(change.json)}` : ""}`
    : "";
  const metadata = Object.entries(doc.metadata).filter(([, v]) => v !== undefined && v !== null && v !== "");
  const meta = html`<h2 id="metadata">Metadata</h2><dl class="meta">
<dt>Step</dt><dd>${stepId}</dd><dt>Run</dt><dd><a href="${href(ctx, `/runs/${runId}`)}">#${runId}</a></dd><dt>Credits</dt><dd>${found.entry.credits}</dd>
${metadata.map(([key, value]) => html`<dt>${key}</dt><dd>${typeof value === "string" ? value : JSON.stringify(value)}</dd>`)}</dl>`;
  const markdown = doc.markdown ?? "";
  const content = doc.markdown !== undefined
    ? html`<h2 id="rendered">Rendered markdown</h2><article class="markdown">${renderMarkdown(markdown, pageUrl)}</article>
<h2 id="raw">Raw markdown</h2><p><button type="button" data-copy="raw-markdown" hidden>Copy</button></p><pre class="raw" id="raw-markdown">${markdown}</pre>`
    : html`<p class="muted">No markdown was stored for this page.</p>`;
  const links = doc.links?.length
    ? html`<h2 id="links">Links (${doc.links.length})</h2><ul class="links">${doc.links.slice(0, MAX_LINKS).map((l) => html`<li>${outLink(l, pageUrl)}</li>`)}</ul>${doc.links.length > MAX_LINKS ? html`<p class="muted">${doc.links.length - MAX_LINKS} more not shown.</p>` : ""}`
    : "";
  const shots = [doc.screenshot, ...(doc.actions?.screenshots ?? [])].filter((s): s is string => typeof s === "string");
  const pdfs = doc.actions?.pdfs ?? [];
  const assets = shots.length || pdfs.length ? html`<h2 id="screenshots">Screenshots</h2><div class="shots">${shots.map((s, i) => assetLink(ctx, s, `Screenshot ${i + 1}`, { run: runId, step: stepId, url }))}${pdfs.map((p, i) => assetLink(ctx, p, `PDF ${i + 1}`, { run: runId, step: stepId, url }))}</div>` : "";
  const preview = doc.html !== undefined || doc.rawHtml !== undefined
    ? html`<h2 id="preview">HTML preview</h2><p class="muted">The stored ${doc.html !== undefined ? "HTML" : "raw HTML"}, in a sandbox: no script runs and nothing is loaded from elsewhere.</p>
<iframe class="preview" sandbox="" referrerpolicy="no-referrer" title="HTML preview of the stored page" src="${href(ctx, `/runs/${runId}/preview`, { step: stepId, url })}"></iframe>`
    : "";
  const extra = [doc.summary ? html`<h2>Summary</h2><p>${doc.summary}</p>` : "", doc.json !== undefined ? html`<h2>Extracted data</h2><pre class="raw">${JSON.stringify(doc.json, null, 2)}</pre>` : "", doc.warning ? html`<p>Warning: ${doc.warning}</p>` : ""];
  return page(ctx, url, html`<p><a href="${href(ctx, `/runs/${runId}`)}">← Run #${runId}</a></p><h1 class="url">${outLink(url, undefined)}</h1>${tracking}${content}${preview}${extra}${meta}${links}${assets}`, "runs");
}
