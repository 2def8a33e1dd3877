import { textContent, type El } from "../dom.js";
import { buildArticle, wholeBody } from "./article.js";
import { prepArticle } from "./prep.js";
import { pruneBoilerplate } from "./prune.js";
import { scoreTree } from "./score.js";
import { gatherSiblings, pickTopCandidate } from "./select-top.js";
import { findMainListing } from "./listing.js";

/** Text an article needs before an attempt is accepted (shorter results trigger a laxer attempt). */
const ENOUGH_TEXT = 500;

/** A laxer attempt is taken over a stricter one only when it finds this much more text: what it adds is mostly what the stricter one dropped on purpose. */
const LAXER_GAIN = 1.25;

/** From strict to lax: each later attempt keeps more of the page. */
const ATTEMPTS = [
  { stripUnlikely: true, weighClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weighClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weighClasses: false, cleanConditionally: true },
  { stripUnlikely: false, weighClasses: false, cleanConditionally: false },
];

/**
 * The page's main content as a new tree, found by scoring paragraphs and their ancestors (a
 * reader-view algorithm), or null when no text survives. The input tree is not modified apart from
 * scratch fields. The byline it dropped, if any, is told in `found`.
 */
export function extractMainContent(root: El, found: { byline?: string } = {}): El | null {
  let best: { article: El; length: number } | undefined;
  for (const flags of ATTEMPTS) {
    const { candidates, byline } = scoreTree(root, flags);
    if (byline !== undefined && found.byline === undefined) found.byline = textContent(byline);
    const top = pickTopCandidate(candidates, flags.weighClasses);
    const article = top === null ? wholeBody(root) : buildArticle(gatherSiblings(top));
    const length = prepArticle(article, flags);
    if (length >= ENOUGH_TEXT) return finish(article);
    if (best === undefined || length > best.length * LAXER_GAIN) best = { article, length };
  }
  // Too little text: a category or search page whose products are links with a price under them.
  const listing = findMainListing(root);
  if (listing !== null) {
    const article = buildArticle([listing]);
    const length = prepArticle(article, ATTEMPTS[0]!);
    if (best === undefined || length > best.length) best = { article, length };
  }
  return best !== undefined && best.length > 0 ? finish(best.article) : null;
}

function finish(article: El): El {
  pruneBoilerplate(article);
  return article;
}
