export { LocalEngine, type LocalEngineOptions } from "./engine.js";
export { createFetchGate, redactUrl, type FetchGate, type FetchRequest, type FetchResponse } from "./fetch/index.js";
export type { BrowserTap, BrowserTraffic, ConversionSettings, DocumentTap, EngineTaps, ModelSend, RenderedPage, SearchSend } from "./taps.js";
export { Extractor, LLM_HOWTO, SERVE_LLM_HOWTO, type ExtractionSettings, type ExtractorMode, type LlmConfig } from "./extract/index.js";
export { checkThreatProtection, type RiskClassifier } from "./threat-protection.js";
export { fileRiskClassifier } from "./risk-list.js";
export { createNotificationSender, originOf, refusedNotifyTarget, signature } from "./notify/index.js";
