import type { Interpolation } from "./interpolate.js";

/** Values shorter than this are too common to mask without mangling unrelated text. */
const MIN_SECRET_LENGTH = 4;

/**
 * A deep copy of `value` in which every string that contains a value taken from the environment
 * shows the `${NAME}` reference instead, so printing a resolved pipeline never prints a secret.
 */
export function redactInterpolations<T>(value: T, interpolations: readonly Interpolation[]): T {
  const secrets = new Map<string, string>();
  for (const { variables } of interpolations) {
    for (const v of variables) if (v.value !== undefined && v.value.length >= MIN_SECRET_LENGTH) secrets.set(v.value, `\${${v.name}}`);
  }
  if (secrets.size === 0) return value;
  const ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);
  const mask = (s: string) => ordered.reduce((out, [secret, ref]) => out.split(secret).join(ref), s);
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return mask(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [mask(k), walk(v)]));
    return node;
  };
  return walk(value) as T;
}
