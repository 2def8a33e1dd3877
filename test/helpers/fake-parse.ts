import type { ParseOptions } from "../../src/core/index.js";
import { parseFile } from "../../src/engines/local/parse/index.js";
import { parseOptions } from "../engines/parse/options.js";
import { json, readMultipart, type Multipart, type ServiceHandler } from "./fake-service.js";

/** Options the service's parse refuses by name (API-NOTES.md, newer v2 operations). */
const REFUSED = ["actions", "waitFor", "location", "mobile"];

/**
 * POST /v2/parse as the service answers it: the multipart body really read (a `file` part, an
 * `options` JSON field), the file converted by the local reader, the document named by the
 * upload's filename and billed 1 credit (a PDF 1 per page). `seen` receives each upload read.
 */
export function parseRoute(seen?: (upload: Multipart) => void): ServiceHandler {
  return async (call, res) => {
    if (!/^multipart\/form-data\b/.test(String(call.headers["content-type"]))) return json(res, 400, { success: false, error: "Bad request: multipart/form-data expected" });
    let upload: Multipart;
    try {
      upload = await readMultipart(call);
    } catch (error) {
      return json(res, 400, { success: false, error: `Bad request: malformed multipart body (${(error as Error).message})` });
    }
    seen?.(upload);
    const file = upload.files.find((f) => f.name === "file");
    if (!file) return json(res, 400, { success: false, error: "Bad request: the multipart body has no file field" });
    let options: Record<string, unknown>;
    try {
      options = JSON.parse(upload.fields["options"] ?? "{}");
    } catch {
      return json(res, 400, { success: false, error: "Bad request: the options field is not valid JSON" });
    }
    const refused = REFUSED.find((key) => key in options);
    if (refused) return json(res, 400, { success: false, error: `Bad request: ${refused} is not supported by parse` });
    const formats = ((options["formats"] as unknown[] | undefined) ?? ["markdown"]).map((f) => (typeof f === "string" ? { type: f } : f)) as ParseOptions["formats"];
    if (formats.some((f) => f.type === "changeTracking" || f.type === "screenshot")) return json(res, 400, { success: false, error: "Bad request: format not supported by parse" });
    try {
      const { document } = await parseFile({ name: file.filename, bytes: file.bytes, url: file.filename }, parseOptions({ ...(options as Partial<ParseOptions>), formats }));
      const pages = typeof document.metadata.numPages === "number" ? document.metadata.numPages : 1;
      return json(res, 200, { success: true, data: { ...document, metadata: { ...document.metadata, creditsUsed: pages } } });
    } catch (error) {
      return json(res, 400, { success: false, error: (error as Error).message });
    }
  };
}
