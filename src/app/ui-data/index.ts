export { type ChangedPage, type CheckView, type DiffStretch, type MonitorRow, type ReadScope, type RunListRow, type RunView, type StepEntry, UiData, type VersionDiff } from "./ui-data.js";
