/** Monitoring: watch, the loop that runs due checks, the notification outbox and the schedule's words. */
export { bad, type MonitorDefinition, monitorPipeline, monitorTag, monitorVariables, readMonitorBody } from "./body.js";
export { apiMonitorKey, fileMonitorKey } from "./key.js";
export { type LoopEntry, MonitorLoop } from "./loop.js";
export { type CheckView, listMonitors, monitorChecks, monitorView, type MonitorView } from "./monitors.js";
export { scheduleWords } from "./schedule-words.js";
export { isSigned, MonitorSecrets, type StoredDefinition } from "./secret.js";
export { logLine, watch } from "./watch.js";
