import { readFile } from "node:fs/promises";
import { pipelineSchemaPath } from "../../pipeline/index.js";

/** The bundled pipeline schema: where it is (for editor settings) and its text. */
export async function schemaInfo(): Promise<{ path: string; text: string }> {
  const path = pipelineSchemaPath();
  return { path, text: await readFile(path, "utf8") };
}
