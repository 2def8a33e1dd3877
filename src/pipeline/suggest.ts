import { distance } from "fastest-levenshtein";

/**
 * The closest candidate to a misspelt word, if one is close enough to be a plausible typo:
 * same letters in another case, or an edit distance of at most a third of the word (min 1, max 3).
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const score = candidate.toLowerCase() === lower ? 0 : distance(lower, candidate.toLowerCase());
    if (score <= limit && score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const match = closest(word, candidates);
  return match === undefined ? undefined : `did you mean "${match}"?`;
}

/** "a, b or c" — for listing the allowed values in a message. */
export function listOf(values: readonly unknown[], conjunction = "or"): string {
  const shown = values.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} ${conjunction} ${shown[shown.length - 1]}`;
}
