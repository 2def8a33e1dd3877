import { isScalar, Scalar, visit } from "yaml";
import type { Diagnostic } from "../core/index.js";
import type { Path, SourceDoc } from "./yaml/index.js";

/** A value taken from the environment: where it went, and how it was written. */
export interface Interpolation {
  path: Path;
  /** The scalar as written in the file, e.g. "Bearer ${TOKEN}". */
  written: string;
  /** The variables the value used, with what the environment gave (absent when a default applied). */
  variables: Array<{ name: string; value?: string }>;
}

const REFERENCE = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string value with the environment's value;
 * `$${` writes a literal `${`. A whole plain scalar that becomes a number or boolean is typed as
 * one, so `concurrency: ${CONCURRENCY:-4}` is an integer. Unset variables without a default are
 * errors at their position, and the scalar keeps its written text.
 */
export function interpolate(
  source: SourceDoc,
  env: Readonly<Record<string, string | undefined>>,
): { interpolations: Interpolation[]; diagnostics: Diagnostic[]; unresolved: Path[] } {
  const interpolations: Interpolation[] = [];
  const diagnostics: Diagnostic[] = [];
  /** Values left as written because a reference failed: other findings about them would only echo it. */
  const unresolved: Path[] = [];

  visit(source.doc, {
    Scalar(key, node, ancestry) {
      if (key === "key" || typeof node.value !== "string" || !node.value.includes("${")) return;
      const written = node.value;
      const variables: Interpolation["variables"] = [];
      let failed = false;
      const replaced = written.replace(REFERENCE, (match, body: string | undefined) => {
        if (match === "$${") return "${";
        if (body === undefined) {
          failed = true;
          diagnostics.push(problem(source, node, match, "unterminated-variable", "`${` is not closed by `}`", "write `$${` for a literal `${`"));
          return match;
        }
        const split = body.indexOf(":-");
        const name = split === -1 ? body : body.slice(0, split);
        const fallback = split === -1 ? undefined : body.slice(split + 2);
        if (!NAME.test(name)) {
          failed = true;
          diagnostics.push(problem(source, node, match, "bad-variable", `\`${match}\` is not a variable reference`, "use ${NAME} or ${NAME:-default}; NAME is letters, digits and _"));
          return match;
        }
        const value = env[name];
        if (value !== undefined && value !== "") {
          variables.push({ name, value });
          return value;
        }
        if (fallback !== undefined) {
          variables.push({ name });
          return fallback;
        }
        failed = true;
        diagnostics.push(
          problem(source, node, match, "unset-variable", `environment variable ${name} is not set`, `set ${name}, or give a default: \${${name}:-value}`),
        );
        return match;
      });
      if (failed) unresolved.push(pathOf(ancestry, node));
      if (failed || replaced === written) return;
      const wholeReference = node.type === Scalar.PLAIN && /^\$\{[^}]*\}$/.test(written);
      node.value = wholeReference ? typed(replaced) : replaced;
      interpolations.push({ path: pathOf(ancestry, node), written, variables });
    },
  });
  return { interpolations, diagnostics, unresolved };
}

function typed(value: string): string | number | boolean {
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(value)) return Number(value);
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}

function problem(source: SourceDoc, node: Scalar, match: string, code: string, message: string, hint: string): Diagnostic {
  const [start, end] = node.range ?? [0, 0];
  const raw = source.text.slice(start, end);
  const offset = start + Math.max(0, raw.indexOf(match));
  const { line, col } = source.lines.linePos(offset);
  return { file: source.file, line, column: col, length: match.length, severity: "error", code, message, hint };
}

function pathOf(ancestry: readonly unknown[], node: unknown): (string | number)[] {
  const path: (string | number)[] = [];
  const chain = [...ancestry, node];
  for (let i = 1; i < chain.length; i++) {
    const parent = chain[i - 1] as { items?: unknown[]; key?: unknown; value?: unknown };
    const child = chain[i];
    if (parent && "key" in parent && "value" in parent) {
      // A pair: the key names the segment (the value follows as the next link).
      if (isScalar(parent.key)) path.push(String(parent.key.value));
    } else if (parent?.items) {
      const index = parent.items.indexOf(child);
      const item = parent.items[index] as { key?: unknown } | undefined;
      if (index >= 0 && !(item && "key" in item)) path.push(index);
    }
  }
  return path;
}
