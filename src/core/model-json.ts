/** JSON from a model's answer, tolerating a code fence or text around one JSON value. */
export function parseJson(content: string): { ok: true; value: unknown } | { ok: false } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  const candidates = [content.trim(), fenced?.[1]?.trim()];
  const first = content.search(/[{[]/);
  if (first >= 0) candidates.push(content.slice(first, Math.max(content.lastIndexOf("}"), content.lastIndexOf("]")) + 1));
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next reading
    }
  }
  return { ok: false };
}
