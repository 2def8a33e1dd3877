import { createHash } from "node:crypto";
import type { ChangeComparison, ChangeTracker, SnapshotWrite, Store, TrackedChange, TrackedPage } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { compare, fingerprint, isGoneStatus, type NormalizeOptions } from "../../changes/index.js";

/**
 * Compares pages with the latest snapshot of their URL and tag in the store. An unchanged page is
 * recognised by its fingerprint alone, without reading the previous version back.
 */
export class StoreChangeTracker implements ChangeTracker {
  private readonly normalize: NormalizeOptions;
  private readonly normalizerKey: string;

  constructor(
    private readonly store: Store,
    comparison: ChangeComparison,
  ) {
    this.normalize = { normalizers: comparison.normalizers, volatile: comparison.volatile };
    this.normalizerKey = createHash("sha256").update(JSON.stringify(this.normalize)).digest("hex").slice(0, 16);
  }

  track(page: TrackedPage): TrackedChange {
    const jsonMode = page.modes.includes("json");
    if (jsonMode && page.extracted === undefined) {
      throw new ScrapelineError("unsupported", "the json mode of change tracking needs the page's extracted data, and none was produced", { url: page.url });
    }
    const print = fingerprint(page.markdown, this.normalize);
    const snapshot: SnapshotWrite = { url: page.url, tag: page.tag, fingerprint: print, normalizerKey: this.normalizerKey, markdown: page.markdown, statusCode: page.statusCode };
    if (jsonMode) snapshot.extracted = JSON.stringify(page.extracted);
    const current = { markdown: page.markdown, statusCode: page.statusCode };
    const latest = this.store.latestSnapshot(page.url, page.tag);
    if (!latest) return { result: compare({ current, modes: page.modes, visibility: page.visibility }), snapshot };

    const sameContent = latest.normalizerKey === this.normalizerKey && latest.fingerprint === print && isGoneStatus(latest.statusCode ?? undefined) === isGoneStatus(page.statusCode);
    if (sameContent) snapshot.sameAs = latest.id;
    if (sameContent && !isGoneStatus(page.statusCode)) {
      return { result: { previousScrapeAt: latest.lastSeenAt, changeStatus: "same", visibility: page.visibility }, snapshot };
    }
    const previous = { markdown: this.store.snapshotMarkdown(latest), scrapedAt: latest.lastSeenAt, ...(latest.statusCode !== null ? { statusCode: latest.statusCode } : {}) };
    const extracted = jsonMode ? { previous: latest.extracted === null ? {} : JSON.parse(latest.extracted), current: page.extracted } : undefined;
    const result = compare({ previous, current, modes: page.modes, visibility: page.visibility, normalize: this.normalize, ...(extracted ? { extracted } : {}) });
    if (result.changeStatus === "same") snapshot.sameAs = latest.id;
    return { result, snapshot };
  }
}
