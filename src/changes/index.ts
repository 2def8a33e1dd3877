/** Change tracking: normalize → hash → compare with the previous snapshot → diff. Pure. */
export { compare, isGoneStatus, type Comparison } from "./compare.js";
export { gitDiff, type GitDiffOptions } from "./git-diff.js";
export { contentHash, fingerprint } from "./hash.js";
export { jsonChanges, stableStringify, WHOLE_VALUE_KEY } from "./json-diff.js";
export { collapseWhitespace, compileVolatile, DEFAULT_NORMALIZERS, dropIframeLinks, dropVolatile, normalize } from "./normalize.js";
export type * from "./types.js";
export { diffLineArrays, splitLines, type LineRun } from "./line-diff.js";
