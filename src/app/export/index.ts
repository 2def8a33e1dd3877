/** Reading what runs stored: runs and their details, exports, page histories, diffs and a run's changes. */
export { type HistoryEntry, type PageChange, pageDiff, type PageDiff, pageHistory, runChanges, type RunChanges } from "./changes.js";
export { type ExportFormat, type ExportOptions, exportRun } from "./export.js";
export { listRuns, type RunDetail, type RunSummary, showRun } from "./history.js";
