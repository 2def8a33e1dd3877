/** Reading the YAML of a pipeline file: its source, the document with positions, and its limits. */
export { decodeSource, readSource } from "./source.js";
export { describePath, fieldIn, STEP_KINDS } from "./where.js";
export { locate, parseYaml, type Path, type SourceDoc, spanAt, spanOf, toData } from "./yaml-doc.js";
