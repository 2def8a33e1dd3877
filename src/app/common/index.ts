/** Pieces several of app's rooms use: where the store is opened, the pipeline files a path names, extraction settings, stored assets and the change tracker. */
export { assetBytes, inlineAssets } from "./assets.js";
export { StoreChangeTracker } from "./change-tracker.js";
export { durationVariable } from "./durations.js";
export { extractionSettings } from "./extraction.js";
export { expandPipelinePaths } from "./files.js";
export { openExistingRunStore, openExistingStore, openRunStore, openStore, RUN_WRITER_AFTER } from "./store.js";
export { DEFAULT_LEASE_MS, FrontierHolder, SharedFrontier, sharingEngine } from "./shared-frontier.js";
export { sharedBatchFrontier } from "./shared-batch.js";
export { channelHearing, jobMessage, leaveJobEnd, WEBHOOK_KIND, type WebhookJobKind } from "./job-messages.js";
export { headerObjects, leftOutHeaderValues, NOT_STORED, storedWhole, withHeaderValues, withoutHeaderValues } from "./request-credentials.js";
export { JobHeaderKey, type OpenedPlan } from "./job-header-key.js";
