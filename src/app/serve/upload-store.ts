import { stat } from "node:fs/promises";
import type { Store } from "../../core/index.js";
import { asUploaded, type Upload } from "./parse.js";

/**
 * The store as a /v2/parse job writes to it: its document and a failure are stored under the
 * filename the client gave (shaped as the answer is, see asUploaded), and its run names no
 * pipeline file, so nothing stored shows the temporary directory the upload was parsed in.
 */
export function uploadNamedStore(store: Store, upload: Upload): Store {
  const named: Partial<Store> = {
    createRun: (run) => store.createRun({ ...run, pipelineFile: "serve" }),
    saveDocument: async (record, snapshot, cache) => {
      const written = await stat(upload.path).then((info) => info.mtime.toISOString(), () => undefined);
      await store.saveDocument({ ...record, url: upload.filename, document: asUploaded(record.document, upload, written) }, snapshot, cache);
    },
    saveFailure: (record) => store.saveFailure({ ...record, url: upload.filename, error: record.error.split(upload.path).join(upload.filename) }),
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      if (typeof key === "string" && key in named) return named[key as keyof Store];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
