/** What the web UI reads: runs, documents, diffs, changes and monitors as its pages show them. */
export { type ChangedPage, type CheckView, type DiffStretch, type MonitorRow, type ReadScope, type RunListRow, type RunView, type StepEntry, UiData, type VersionDiff } from "./ui-data.js";
