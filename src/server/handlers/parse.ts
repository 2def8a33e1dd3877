import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import busboy from "busboy";
import { MAX_UPLOAD_BYTES, type Upload } from "../../app/index.js";
import { isScrapelineError, ScrapelineError, type ErrorKind } from "../../core/index.js";
import { errorReply } from "../errors.js";
import { checkJsonValue } from "../json-limits.js";
import type { Reply, Route } from "../router.js";

/** Multipart overhead (boundaries, part headers, the options field) allowed above the file's own limit. */
const ENVELOPE_BYTES = 1024 * 1024;

const TOO_LARGE: Reply = { status: 413, body: { success: false, error: `Payload too large: uploads are limited to ${MAX_UPLOAD_BYTES} bytes (50 MB)` }, headers: { connection: "close" } };

class UploadTooLarge extends Error {}

/**
 * An uploaded file that cannot be converted is the client's: unreadable content (empty, damaged,
 * mislabelled, nested too deeply) is a 422, a file over a parse limit (a zip part, one string,
 * the memory of one conversion) a 413 — where a page that fails is the site's doing (a 5xx).
 */
const FILE_STATUS: Partial<Record<ErrorKind, number>> = { "bad-content": 422, "too-large": 413 };

/**
 * POST /v2/parse: multipart/form-data with a `file` part and an optional `options` JSON field.
 * A declared Content-Length over the limit is answered 413 before any byte is read; otherwise the
 * file streams to a temporary directory (never held whole in memory) and is stopped at the limit.
 * The directory is removed whatever happens.
 */
export const parseRoutes: Route[] = [
  {
    method: "POST",
    path: "/v2/parse",
    auth: true,
    limited: true,
    rawBody: true,
    bodyLimit: { bytes: MAX_UPLOAD_BYTES + ENVELOPE_BYTES, tooLarge: TOO_LARGE },
    handle: async ({ req, service, team }) => {
      const declared = Number(req.headers["content-length"]);
      if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + ENVELOPE_BYTES) {
        req.pause();
        return TOO_LARGE;
      }
      if (!/^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "")) {
        throw new ScrapelineError("invalid-input", "Bad request: POST /v2/parse takes multipart/form-data with a file field (and an optional options field holding JSON)");
      }
      const dir = await mkdtemp(join(tmpdir(), "scrapeline-upload-"));
      try {
        const { upload, options } = await receive(req, dir);
        if (options !== undefined) checkOptionsJson(options);
        return { status: 200, body: { success: true, data: await service.parse(team, upload, options) } };
      } catch (error) {
        if (error instanceof UploadTooLarge) {
          req.unpipe();
          req.pause();
          return TOO_LARGE;
        }
        const status = isScrapelineError(error) ? FILE_STATUS[error.kind] : undefined;
        if (status !== undefined) return { ...errorReply(error), status };
        throw error;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
];

/** The options field held to the limits of a JSON body (nesting, numbers); invalid JSON is named by the options reader. */
function checkOptionsJson(options: string): void {
  let value: unknown;
  try {
    value = JSON.parse(options);
  } catch {
    return;
  }
  checkJsonValue(value);
}

/** Streams the `file` part into `dir` and reads the `options` field. */
function receive(req: IncomingMessage, dir: string): Promise<{ upload: Upload; options: string | undefined }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: MAX_UPLOAD_BYTES, fields: 10, fieldSize: ENVELOPE_BYTES } });
    } catch (error) {
      reject(new ScrapelineError("invalid-input", `Bad request: ${(error as Error).message}`));
      return;
    }
    let options: string | undefined;
    let upload: Upload | undefined;
    let written: Promise<void> = Promise.resolve();
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      reject(error);
    };
    parser.on("field", (name, value) => {
      if (name === "options") options = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || upload) {
        stream.resume();
        return;
      }
      const filename = info.filename || "upload";
      const path = join(dir, safeName(filename));
      upload = { path, filename };
      const out = createWriteStream(path);
      written = new Promise<void>((done, error) => {
        out.on("finish", done);
        out.on("error", error);
      });
      stream.on("limit", () => {
        stream.unpipe(out);
        out.destroy();
        fail(new UploadTooLarge());
      });
      stream.pipe(out);
    });
    parser.on("error", (error: Error) => fail(new ScrapelineError("invalid-input", `Bad request: malformed multipart body (${error.message})`)));
    parser.on("close", () => {
      if (failed) return;
      if (!upload) return fail(new ScrapelineError("invalid-input", "Bad request: the multipart body has no file field"));
      written.then(() => resolve({ upload: upload!, options }), fail);
    });
    req.pipe(parser);
  });
}

/** The upload's name kept for its extension (checked against the content), made safe as a file name. */
function safeName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const safe = base.replace(/[^\w.-]/g, "_").replace(/^\.+/, "");
  return safe === "" ? "upload" : safe.slice(-120);
}
