import { Transform, Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { ScrapelineError } from "../../../core/index.js";
import { errorCode } from "./failures.js";

export interface BodyOptions {
  /** Cap on decoded bytes. */
  maxBodyBytes: number;
  /** Redacted URL, for messages. */
  url: string;
}

/**
 * Reads a response body to the end, undoing its content-encoding as it streams and counting
 * decoded bytes, so a compression bomb is stopped at the cap without ever being held whole.
 * Refuses a Content-Length over the cap before reading, and fails on a body shorter than its
 * Content-Length instead of returning it.
 */
export async function readBody(raw: Readable, headers: Record<string, string>, options: BodyOptions): Promise<Buffer> {
  const { maxBodyBytes, url } = options;
  let failedIn: "body" | "decoding" | undefined;
  // Also keeps the error a deliberate destroy() emits from going unhandled.
  raw.on("error", () => (failedIn ??= "body"));
  const declared = contentLength(headers["content-length"]);
  if (declared !== undefined && declared > maxBodyBytes) {
    raw.destroy();
    throw new ScrapelineError("too-large", `${url} declares ${declared} bytes (Content-Length), over the cap of ${maxBodyBytes}`, { url });
  }
  const encodings = (headers["content-encoding"] ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "" && e !== "identity")
    .reverse();
  const unknown = encodings.find((e) => !["gzip", "x-gzip", "deflate", "br"].includes(e));
  if (unknown !== undefined) {
    raw.destroy();
    throw new ScrapelineError("bad-content", `${url} is encoded with ${unknown}, which cannot be decoded (gzip, deflate and br can)`, { url });
  }

  if (encodings.length === 0) return readPlain(raw, declared, options);

  let first: Buffer | null | undefined;
  try {
    first = encodings.length > 0 ? await peekFirstChunk(raw) : undefined;
  } catch (error) {
    throw truncated(url, 0, declared, error);
  }
  if (first === null) {
    if (declared) throw truncated(url, 0, declared);
    return Buffer.alloc(0);
  }
  // Only the outermost decoder sees the bytes of `first`.
  const decoders = encodings.map((encoding, i) => decoderFor(encoding, i === 0 ? first : undefined));
  for (const decoder of decoders) decoder.once("error", () => (failedIn ??= "decoding"));

  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(null, chunk);
    },
  });
  const tooLarge = new ScrapelineError("too-large", `${url} decodes to more than the cap of ${maxBodyBytes} bytes`, { url });
  const chunks: Buffer[] = [];
  let decoded = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      decoded += chunk.length;
      if (decoded > maxBodyBytes) return callback(tooLarge);
      chunks.push(chunk);
      callback();
    },
  });

  try {
    await pipeline([raw, counter, ...decoders, sink]);
  } catch (error) {
    if (error === tooLarge) throw tooLarge;
    if (errorCode(error) === "UND_ERR_BODY_TIMEOUT") throw error;
    if (failedIn === "decoding") {
      throw new ScrapelineError("bad-content", `could not decode the ${encodings.join(", ")} body of ${url}: ${(error as Error).message}`, { cause: error, url });
    }
    throw truncated(url, received, declared, error);
  }
  if (declared !== undefined && received < declared) throw truncated(url, received, declared);
  return Buffer.concat(chunks);
}

/**
 * A body without content-encoding, read straight from the stream: what most pages are, and a
 * stream pipeline (its transforms, abort controller and callbacks) costs more than the reading.
 */
async function readPlain(raw: Readable, declared: number | undefined, { maxBodyBytes, url }: BodyOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  let overCap = false;
  try {
    for await (const chunk of raw as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > maxBodyBytes) {
        overCap = true;
        break; // ends the loop and destroys the stream
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (errorCode(error) === "UND_ERR_BODY_TIMEOUT") throw error;
    throw truncated(url, received, declared, error);
  }
  if (overCap) throw new ScrapelineError("too-large", `${url} decodes to more than the cap of ${maxBodyBytes} bytes`, { url });
  if (declared !== undefined && received < declared) throw truncated(url, received, declared);
  // A page that came in one read is a view of that read's buffer (sized to it): no copy needed.
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
}

function truncated(url: string, received: number, declared: number | undefined, cause?: unknown): ScrapelineError {
  const expected = declared === undefined ? "before the body ended" : `of the ${declared} declared by Content-Length`;
  return new ScrapelineError("network", `response from ${url} was truncated: the connection ended after ${received} bytes ${expected}`, {
    url,
    ...(cause === undefined ? {} : { cause }),
  });
}

function contentLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * A streaming decoder, lenient about a missing trailer as browsers are. `first` is the first
 * chunk it will read, when known: it tells zlib-wrapped deflate from raw deflate.
 */
function decoderFor(encoding: string, first: Buffer | undefined): Transform {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (encoding === "br") return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  if (encoding === "deflate") return first && !looksLikeZlib(first) ? zlib.createInflateRaw(flush) : zlib.createInflate(flush);
  return zlib.createGunzip(flush);
}

/** "deflate" should be zlib-wrapped, but some servers send raw deflate; the header tells. */
function looksLikeZlib(chunk: Buffer): boolean {
  const [cmf, flg] = [chunk[0], chunk[1]];
  if (cmf === undefined || flg === undefined) return true;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

/** The first chunk of `raw`, put back so it is read again; null when the body is empty. */
function peekFirstChunk(raw: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      raw.off("readable", onReadable);
      raw.off("end", onEnd);
      raw.off("error", onError);
    };
    const onReadable = () => {
      const chunk = raw.read() as Buffer | null;
      if (chunk === null) return;
      done();
      raw.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (error: unknown) => {
      done();
      reject(error);
    };
    raw.on("readable", onReadable);
    raw.once("end", onEnd);
    raw.once("error", onError);
  });
}
