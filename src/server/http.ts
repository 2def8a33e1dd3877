import type { IncomingMessage, ServerResponse } from "node:http";
import { checkJsonValue } from "./json-limits.js";

/** Request bodies larger than this are refused with 413, without reading them further. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class MalformedJson extends Error {}

/** A body over MAX_BODY_BYTES: answered 413 and the connection closed, the rest never read. */
export class BodyTooLarge extends Error {}

/**
 * Reads a JSON body; an empty body is `{}`. Throws MalformedJson, BodyTooLarge (a declared
 * content-length over the cap is refused before a byte is read; a chunked body as soon as it
 * passes the cap), or invalid-input for a value JSON allows but a request cannot mean (see
 * json-limits.ts).
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    req.pause();
    throw new BodyTooLarge();
  }
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedJson();
  }
  checkJsonValue(value);
  return value;
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
