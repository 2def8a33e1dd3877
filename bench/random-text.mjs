// Seeded random numbers and words for the benchmarks' generated documents: the same seed gives the
// same document on every machine.

/** A linear congruential generator: numbers in [0, 1), repeatable from `seed`. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export const WORDS = "the of and to in price plan team support product update release feature customer data page service account billing monthly annual free trial contact docs api guide".split(" ");

/** `n` words picked by `rnd`, separated by spaces. */
export function sentence(rnd, n) {
  return Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(" ");
}
