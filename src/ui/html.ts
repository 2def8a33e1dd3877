/**
 * The one escaping helper of the web UI. Every view builds its HTML with the `html` tag: each
 * interpolated value is escaped unless it is already `Html` (made by this tag, or by `trusted`
 * for the sanitized output of markdown.ts). Scraped content is hostile: never build HTML any
 * other way.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Interpolation = Html | string | number | boolean | null | undefined | readonly Interpolation[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function render(value: Interpolation): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false || value === true) return "";
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: the literal parts as written, every value escaped (arrays joined, null/undefined/booleans dropped). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}

/** HTML that is already safe: only for the sanitized markdown renderer's output. */
export function trusted(safe: string): Html {
  return new Html(safe);
}
