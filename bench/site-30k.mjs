// A generated site of realistic pages, about 30 KB each, as a news or documentation site serves
// them: a head with meta, Open Graph, canonical, JSON-LD and an inline script; a header with a
// logo, a six-link nav and a search form; a breadcrumb; an article with headings, paragraphs with
// inline links, a figure, lists, a blockquote, a code sample and two tables; an aside of related
// links; a footer. About 15 links a page (6 nav, 2 breadcrumb, 3 in the article, 2 aside, 2
// footer); page i always links page i+1, so every page is reachable from /. Deterministic: page i
// is the same on every request and every run. Served on 127.0.0.1 by the benchmark itself.
import { prng, sentence, servePages } from "./crawl.mjs";

const SECTIONS = ["news", "guides", "reference", "products", "support", "company"];
const COLUMNS = ["Plan", "Region", "Requests", "Latency p50", "Latency p99", "Price"];
const REGIONS = ["eu-west", "us-east", "ap-south", "sa-east"];

export const sitePath = (i) => (i === 0 ? "/" : `/${SECTIONS[i % SECTIONS.length]}/${i}/article-${i}.html`);
const title = (s) => s[0].toUpperCase() + s.slice(1);

function table(rand, rows) {
  const head = `<thead><tr>${COLUMNS.map((c) => `<th scope="col">${c}</th>`).join("")}</tr></thead>`;
  const body = [];
  for (let r = 0; r < rows; r++) {
    const cells = [`Plan ${r + 1}`, REGIONS[r % REGIONS.length], (Math.floor(rand() * 90_000) + 1000).toLocaleString("en-US"), `${(rand() * 40 + 5).toFixed(1)} ms`, `${(rand() * 400 + 50).toFixed(0)} ms`, `$${(rand() * 900 + 10).toFixed(2)}`];
    body.push(`<tr class="${r % 2 ? "odd" : "even"}">${cells.map((c, k) => (k === 0 ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join("")}</tr>`);
  }
  return `<div class="table-wrapper"><table class="data-table"><caption>${sentence(rand, 6)}</caption>${head}<tbody>${body.join("")}</tbody></table></div>`;
}

/** Page i of a site of n pages: about 30 KB, 15 links. */
export function realisticPage(i, n) {
  const rand = prng(i * 104_729 + n * 31);
  const section = SECTIONS[i % SECTIONS.length];
  const pick = () => Math.floor(rand() * n);
  const inline = [(i + 1) % n, pick(), pick()];
  const nav = SECTIONS.map((s, k) => `<li class="nav-item${s === section ? " active" : ""}"><a class="nav-link" href="${sitePath(k + 1)}" data-track="nav-${s}">${title(s)}</a></li>`).join("");
  const blocks = [];
  let size = 0;
  for (let p = 0; size < 25_800; p++) {
    let text = `${sentence(rand, 14 + Math.floor(rand() * 22))} ${sentence(rand, 10 + Math.floor(rand() * 25))} ${sentence(rand, 8 + Math.floor(rand() * 16))}`;
    if (p < inline.length) text += ` Read <a href="${sitePath(inline[p])}" class="inline-link">${sentence(rand, 3)}</a> for the details.`;
    let block = `<p>${text} <em>${sentence(rand, 4)}</em></p>`;
    if (p % 7 === 3) block = `<h2 id="section-${p}">${sentence(rand, 5)}</h2>${block}`;
    if (p === 4) block += table(rand, 8);
    if (p === 9) block += `<figure class="article-figure"><img src="/media/${i}/chart-${p}.png" alt="${sentence(rand, 5)}" width="800" height="450" loading="lazy"><figcaption>${sentence(rand, 10)}</figcaption></figure>`;
    if (p === 12) block += `<ul class="checklist">${Array.from({ length: 5 }, () => `<li>${sentence(rand, 7)}</li>`).join("")}</ul>`;
    if (p === 15) block += `<blockquote><p>${sentence(rand, 24)}</p><cite>${sentence(rand, 2)}</cite></blockquote>`;
    if (p === 17) block += `<pre><code class="language-yaml">steps:\n  - id: page-${i}\n    scrape:\n      url: https://example.com${sitePath(i)}\n      formats: [markdown]\n</code></pre>`;
    if (p === 20) block += table(rand, 6);
    if (p === 22) block += `<ol>${Array.from({ length: 4 }, () => `<li><strong>${sentence(rand, 2)}</strong> ${sentence(rand, 9)}</li>`).join("")}</ol>`;
    blocks.push(block);
    size += block.length;
  }
  const related = [pick(), pick()].map((k) => `<li class="related-item"><a href="${sitePath(k)}"><span class="related-title">${sentence(rand, 6)}</span></a><span class="related-date">2026-0${(k % 9) + 1}-1${k % 10}</span></li>`).join("");
  const ld = JSON.stringify({ "@context": "https://schema.org", "@type": "NewsArticle", headline: `Article ${i}`, datePublished: `2026-01-${String((i % 28) + 1).padStart(2, "0")}`, author: { "@type": "Person", name: `Author ${i % 41}` }, publisher: { "@type": "Organization", name: "Example Media" } });
  const tracking = `window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-EXAMPLE', { page_path: '${sitePath(i)}', content_group: '${section}' }); (function(){ var s = document.createElement('script'); s.async = true; s.src = '/static/consent.js'; document.head.appendChild(s); })();`;
  const icons = `<svg xmlns="http://www.w3.org/2000/svg" style="display:none"><symbol id="icon-search" viewBox="0 0 24 24"><path d="M15.5 14h-.79l-.28-.27A6.471 6.471 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14z"/></symbol></svg>`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${sentence(rand, 6)} | Example Media</title><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="${sentence(rand, 18)}"><link rel="canonical" href="https://example.com${sitePath(i)}"><meta property="og:type" content="article"><meta property="og:title" content="Article ${i}"><meta property="og:image" content="https://example.com/media/${i}/cover.jpg"><meta name="twitter:card" content="summary_large_image"><link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/favicon.ico"><script type="application/ld+json">${ld}</script><script>${tracking}</script></head><body class="article-page section-${section}">${icons}<a class="skip-link" href="#main">Skip to content</a><header class="site-header" role="banner"><div class="container"><span class="logo">Example Media</span><nav class="main-nav" aria-label="Main"><ul class="nav">${nav}</ul></nav><form class="search" action="/search" role="search"><input type="search" name="q" placeholder="Search"><button type="submit"><svg><use href="#icon-search"></use></svg></button></form></div></header><nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="${sitePath(SECTIONS.indexOf(section) || SECTIONS.length)}">${title(section)}</a></li><li aria-current="page">Article ${i}</li></ol></nav><div class="container layout"><main id="main"><article class="post"><header class="post-header"><h1>${sentence(rand, 7)}</h1><p class="byline">By <span class="author">Author ${i % 41}</span> · <time datetime="2026-01-${String((i % 28) + 1).padStart(2, "0")}">January ${(i % 28) + 1}, 2026</time> · 6 min read</p></header><div class="post-body">${blocks.join("\n")}</div></article></main><aside class="sidebar"><section class="related"><h3>Related</h3><ul>${related}</ul></section><section class="newsletter"><h3>Newsletter</h3><p>${sentence(rand, 12)}</p><form><input type="email" placeholder="you@example.com"><button>Subscribe</button></form></section></aside></div><footer class="site-footer"><div class="container"><ul class="footer-links"><li><a href="${sitePath(SECTIONS.length)}">About us</a></li><li><a href="${sitePath(SECTIONS.length - 1)}">Contact</a></li></ul><p class="copyright">© 2026 Example Media. All rights reserved.</p></div></footer><script src="/static/app.js" defer></script></body></html>`;
}

/** Serves a site of n realistic pages on 127.0.0.1 (robots.txt and sitemaps answer 404), each made once, before the first request. */
export async function startRealisticSite(n) {
  return servePages(new Map(Array.from({ length: n }, (_, i) => [sitePath(i), Buffer.from(realisticPage(i, n))])));
}
