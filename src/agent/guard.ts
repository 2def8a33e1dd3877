/** Whether `url` is one of `allowed` or a page under one (same origin, path starting with its path). */
export function withinUrls(url: string, allowed: readonly string[]): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return allowed.some((given) => {
    let base: URL;
    try {
      base = new URL(given);
    } catch {
      return false;
    }
    if (base.origin !== target.origin) return false;
    const path = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`;
    return target.pathname === base.pathname || target.pathname.startsWith(path) || base.pathname === "/";
  });
}

/** The same call written two ways (keys in another order, spaces) has one key. */
export function callKey(name: string, args: Record<string, unknown>): string {
  return `${name} ${stable(args)}`;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The arguments of a call as an object, or why they are not one. */
export function readArguments(text: string): { ok: true; args: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text || "{}");
  } catch {
    return { ok: false, problem: "the arguments are not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, problem: "the arguments must be a JSON object" };
  return { ok: true, args: value as Record<string, unknown> };
}
