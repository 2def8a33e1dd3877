import type { IncomingMessage, ServerResponse } from "node:http";
import { ScrapelineError } from "../core/index.js";

/** Request bodies larger than this are refused. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class MalformedJson extends Error {}

/** Reads a JSON body; an empty body is `{}`. Throws MalformedJson, or too-large past the cap. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ScrapelineError("invalid-input", `Bad request: the body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedJson();
  }
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
