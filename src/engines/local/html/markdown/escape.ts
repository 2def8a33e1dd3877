/** Characters that may need a backslash anywhere in a line. */
const SPECIAL = /[\\*_`[\]<&~|]/;

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122) || code > 127;
}

function isBlank(code: number): boolean {
  return code === 32 || Number.isNaN(code);
}

/**
 * Escapes a run of collapsed text (single spaces, no edge spaces) so markdown shows it literally,
 * adding backslashes only where a character could start or end markup: emphasis at word edges,
 * backticks, brackets, tags and entities, table pipes, and block markers (`#`, `>`, `-`, `1.`)
 * when the run starts a line. `previous` is the character code written just before the run.
 */
export function escapeText(run: string, lineStart: boolean, previous: number, inTable: boolean): string {
  if (lineStart) {
    const space = run.indexOf(" ");
    const first = space === -1 ? run : run.slice(0, space);
    const c = first.charCodeAt(0);
    if ((c === 35 && /^#{1,6}$/.test(first)) || c === 62 || ((c === 45 || c === 43 || c === 42) && first.length === 1) || /^([-=_*+~`])\1+$/.test(first)) {
      return "\\" + run[0] + escapeInline(run.slice(1), c, inTable);
    }
    if (c >= 48 && c <= 57 && /^\d{1,9}[.)]$/.test(first)) {
      return first.slice(0, -1) + "\\" + escapeInline(run.slice(first.length - 1), 48, inTable);
    }
  }
  return escapeInline(run, previous, inTable);
}

function escapeInline(run: string, previous: number, inTable: boolean): string {
  if (!SPECIAL.test(run)) return run;
  let out = "";
  let start = 0;
  const n = run.length;
  for (let i = 0; i < n; i++) {
    const c = run.charCodeAt(i);
    let escape: boolean;
    switch (c) {
      case 92: case 96: case 91: case 93:
        escape = true;
        break;
      case 95: case 126: {
        // `_` and `~` only delimit at word edges.
        const before = i === 0 ? previous : run.charCodeAt(i - 1);
        escape = !(isAlnum(before) && isAlnum(run.charCodeAt(i + 1)));
        break;
      }
      case 42:
        // A lone `*` between spaces cannot open or close emphasis.
        escape = !(isBlank(i === 0 ? previous : run.charCodeAt(i - 1)) && isBlank(run.charCodeAt(i + 1)));
        break;
      case 60: {
        const next = run.charCodeAt(i + 1);
        const lower = next | 0x20;
        escape = (lower >= 97 && lower <= 122) || next === 47 || next === 33 || next === 63;
        break;
      }
      case 38:
        escape = /^&#?[a-z0-9]+;/i.test(run.slice(i, i + 34));
        break;
      case 124:
        escape = inTable;
        break;
      default:
        continue;
    }
    if (escape) {
      out += run.slice(start, i) + "\\";
      start = i;
    }
  }
  return out + run.slice(start);
}

/** Backslash-escapes brackets in image alt text and link titles' quotes. */
export function escapeAlt(text: string): string {
  return text.replace(/[[\]\\]/g, "\\$&");
}

export function escapeTitle(title: string): string {
  return title.replace(/["\\]/g, "\\$&");
}

/** A link destination markdown accepts: spaces encoded, parentheses and angle brackets escaped. */
export function escapeDestination(url: string): string {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 32 || c === 40 || c === 41 || c === 60 || c === 62) return url.replace(/ /g, "%20").replace(/[()<>]/g, "\\$&");
  }
  return url;
}
