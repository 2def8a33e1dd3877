import { html, type Html } from "../html.js";
import { href, page, type ViewContext } from "../layout.js";

export interface SeriesPoint {
  runId: number;
  startedAt: string;
  credits: number;
  changed: number;
  status: string;
}

export const CHART_RUNS = 60;

const WIDTH = 900;
const HEIGHT = 220;
const LEFT = 48;
const BOTTOM = 28;
const TOP = 12;

/** Round axis maximum: 1, 2 or 5 times a power of ten, at least the largest value. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** A bar chart drawn from the figures: one bar per run (a link to it), the y axis from 0 to a round maximum. */
export function barChart(ctx: ViewContext, title: string, points: SeriesPoint[], value: (p: SeriesPoint) => number, barClass: string): Html {
  const max = niceMax(Math.max(0, ...points.map(value)));
  const plotW = WIDTH - LEFT - 8;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / Math.max(1, points.length);
  const barW = Math.min(40, Math.max(1, slot * 0.7));
  const y = (v: number) => TOP + plotH - (v / max) * plotH;
  const ticks = [0, max / 2, max];
  const labelEvery = Math.max(1, Math.ceil(points.length / 12));
  return html`<figure><svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${title}"><title>${title}</title>
<line class="axis" x1="${LEFT}" y1="${TOP + plotH}" x2="${WIDTH - 8}" y2="${TOP + plotH}"></line><line class="axis" x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plotH}"></line>
${ticks.map((t) => html`<text x="${LEFT - 6}" y="${y(t) + 4}" text-anchor="end">${Number.isInteger(t) ? t : t.toFixed(1)}</text>`)}
${points.map((p, i) => {
    const v = value(p);
    const x = LEFT + i * slot + (slot - barW) / 2;
    const h = Math.max(v > 0 ? 1 : 0, (v / max) * plotH);
    return html`<a href="${href(ctx, `/runs/${p.runId}`)}" aria-label="Run #${p.runId}: ${v}"><rect class="bar ${barClass}" data-run="${p.runId}" data-value="${v}" x="${x.toFixed(1)}" y="${(TOP + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"><title>Run #${p.runId} (${p.startedAt}): ${v}</title></rect></a>
${i % labelEvery === 0 ? html`<text x="${(LEFT + i * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 10}" text-anchor="middle">#${p.runId}</text>` : ""}`;
  })}</svg><figcaption>${title}</figcaption></figure>`;
}

/** Credits per run and pages changed per run of one pipeline, over its newest runs. */
export function chartsView(ctx: ViewContext, pipelines: string[], pipeline: string | undefined, points: SeriesPoint[]): Html {
  const form = html`<form class="filters" method="get" action="${href(ctx, "/charts")}"><label>Pipeline <select name="pipeline">${pipelines.map((p) => html`<option value="${p}"${p === pipeline ? html` selected` : ""}>${p}</option>`)}</select></label><button type="submit">Show</button></form>`;
  if (!pipeline) return page(ctx, "Charts", html`<h1>Charts</h1>${pipelines.length ? form : html`<p class="muted">No runs yet.</p>`}`, "charts");
  const body = points.length
    ? html`${barChart(ctx, `Credits per run of ${pipeline}`, points, (p) => p.credits, "bar-credits")}${barChart(ctx, `Pages changed, new or removed per run of ${pipeline}`, points, (p) => p.changed, "bar-changed")}
<p class="muted">The newest ${points.length} run(s), oldest on the left. <a href="${href(ctx, "/", { pipeline })}">The runs of ${pipeline}</a></p>`
    : html`<p class="muted">No runs of ${pipeline}.</p>`;
  return page(ctx, `Charts of ${pipeline}`, html`<h1>Charts of ${pipeline}</h1>${form}${body}`, "charts");
}
