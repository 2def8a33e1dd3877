/* Generated from schemas/ by scripts/gen-types.mjs (npm run gen:types). Do not edit. */

/**
 * The events sent: monitor.page (one per page worth telling), monitor.check.completed (one per run with the counts), failed (a run that failed or has failed pages).
 * 
 * @minItems 1
 */
export type Events = [("monitor.page" | "monitor.check.completed" | "failed"), ...(("monitor.page" | "monitor.check.completed" | "failed"))[]]
/**
 * The events sent: monitor.page (one per page worth telling), monitor.check.completed (one per run with the counts), failed (a run that failed or has failed pages).
 * 
 * @minItems 1
 */
export type Events1 = [("monitor.page" | "monitor.check.completed" | "failed"), ...(("monitor.page" | "monitor.check.completed" | "failed"))[]]
/**
 * The events sent: monitor.page (one per page worth telling), monitor.check.completed (one per run with the counts), failed (a run that failed or has failed pages).
 * 
 * @minItems 1
 */
export type Events2 = [("monitor.page" | "monitor.check.completed" | "failed"), ...(("monitor.page" | "monitor.check.completed" | "failed"))[]]
/**
 * One output format of a scrape: a format name, or an object for formats with options. v1 names json, extract and screenshot@fullPage are accepted and mapped to their v2 object forms.
 */
export type FormatItem = (("markdown" | "html" | "rawHtml" | "links" | "summary" | "images" | "screenshot" | "changeTracking" | "json" | "extract" | "screenshot@fullPage") | FormatObject)
/**
 * A format in object form, selected by type.
 */
export type FormatObject = (SimpleFormat | JsonFormat | ScreenshotFormat | ChangeTrackingFormat)
/**
 * Output formats to return.
 */
export type Formats = FormatItem[]
/**
 * Tags to include (CSS selectors); everything else is discarded.
 */
export type IncludeTags = string[]
/**
 * Tags to exclude (CSS selectors).
 */
export type ExcludeTags = string[]
/**
 * Parsers applied to fetched files: pdf converts PDFs to markdown (1 credit per page); [] returns PDFs base64-encoded (flat 1 credit).
 */
export type Parsers = ("pdf" | PdfParser)[]
/**
 * One browser action, performed on the page before its content is taken. Every action has a required type.
 */
export type Action = (Wait | Screenshot | Click | Write | Press | Scroll | Scrape | ExecuteJavascript | Pdf)
/**
 * Waits a number of milliseconds, or until an element matching a selector is present. At least one of milliseconds and selector is required.
 */
export type Wait = (({
milliseconds: unknown
} | {
selector: unknown
}) & {
/**
 * Action type.
 */
type: "wait"
/**
 * Time to wait, in milliseconds.
 */
milliseconds?: number
/**
 * Query selector of the element to wait for.
 */
selector?: string
})
/**
 * Actions performed on the page before content is taken.
 * 
 * @maxItems 50
 */
export type Actions = Action[]
/**
 * A step: an id and exactly one body key naming its kind (scrape, crawl, map, extract, search, parse, interact, agent), plus runner settings.
 */
export type Step = ({
id: StepId
scrape?: ScrapeBody
crawl?: CrawlBody
map?: MapBody
extract?: ExtractBody
parse?: ParseBody
search?: SearchBody
interact?: InteractBody
agent?: AgentBody
/**
 * Steps that must finish before this one starts.
 */
needs?: StepId[]
retry?: Retry1
/**
 * Time limit of the whole step, in milliseconds.
 */
timeoutMs?: number
/**
 * Keep running the other steps when this step fails.
 */
continueOnError?: boolean
expect?: StepExpectations
/**
 * The session (from `sessions`) whose login loads this step's pages: scrape, crawl, extract and agent steps (an agent's scrape, extract and map tools).
 */
session?: string
} & Step1 & {
id: StepId
scrape?: ScrapeBody
crawl?: CrawlBody
map?: MapBody
extract?: ExtractBody
parse?: ParseBody
search?: SearchBody
interact?: InteractBody
agent?: AgentBody
/**
 * Steps that must finish before this one starts.
 */
needs?: StepId[]
retry?: Retry1
/**
 * Time limit of the whole step, in milliseconds.
 */
timeoutMs?: number
/**
 * Keep running the other steps when this step fails.
 */
continueOnError?: boolean
expect?: StepExpectations
/**
 * The session (from `sessions`) whose login loads this step's pages: scrape, crawl, extract and agent steps (an agent's scrape, extract and map tools).
 */
session?: string
} & Step1)
/**
 * Id of a step: a letter, then letters, digits, underscores and hyphens.
 */
export type StepId = string
/**
 * A scrape step: the body of POST /v2/scrape (url plus every ScrapeOptions field), or urls to scrape several pages with the same options.
 */
export type ScrapeBody = (({
url: unknown
} | {
urls: unknown
}) & {
/**
 * URL of the page to scrape. Exactly one of url and urls.
 */
url?: string
/**
 * Several pages scraped with the same options: a list of URLs, or URLs taken from an earlier step. Exactly one of url and urls.
 */
urls?: ([string, ...(string)[]] | UrlSource)
formats?: Formats
changeTrackingOptions?: ChangeTrackingOptions
/**
 * Return only the main content: the article or the product (heading, figures with captions, tables, code; short data in it such as prices, stock, ratings, sizes and article numbers; a category's or a search's listing with its prices), without headers, navs, footers, share and subscribe blocks, related-story links, bylines, datelines, photo credits, comments, hover cards over links, or the site's citation, copyright and "requires JavaScript" notices.
 */
onlyMainContent?: boolean
includeTags?: IncludeTags
excludeTags?: ExcludeTags
/**
 * Milliseconds: a cached page younger than this is returned; an older cached page is re-scraped; 0 disables caching.
 */
maxAge?: number
headers?: Headers
/**
 * Delay in milliseconds before fetching content.
 */
waitFor?: number
/**
 * Emulate a mobile device.
 */
mobile?: boolean
/**
 * Skip TLS certificate verification.
 */
skipTlsVerification?: boolean
/**
 * Request timeout in milliseconds.
 */
timeout?: number
/**
 * @deprecated
 * v1: use parsers. true: PDF converted to markdown, billed 1 credit per page; false: PDF returned base64-encoded, flat 1 credit.
 */
parsePDF?: boolean
parsers?: Parsers
jsonOptions?: JsonOptions
actions?: Actions
location?: Location
/**
 * Remove base64 images: alt text stays, the URL becomes a placeholder.
 */
removeBase64Images?: boolean
/**
 * Ad-blocking and cookie-popup blocking.
 */
blockAds?: boolean
/**
 * basic: fast, for sites with none or basic anti-bot; enhanced: slower, more reliable on advanced anti-bot; auto: retries with enhanced if basic fails. stealth is the older name of enhanced (accepted with a warning).
 */
proxy?: ("basic" | "enhanced" | "auto" | "stealth")
/**
 * Store the page in the index and cache; using actions or headers forces it to false.
 */
storeInCache?: boolean
threatProtection?: ThreatProtectionOverride
})
export type Step1 = ({
scrape: unknown
} | {
crawl: unknown
} | {
map: unknown
} | {
extract: unknown
} | {
parse: unknown
} | {
search: unknown
} | {
interact: unknown
} | {
agent: unknown
})

/**
 * A scrapeline pipeline file: steps (scrape, crawl, map, extract) whose bodies are request bodies of the web data extraction service, run on an engine with bounded concurrency and retries.
 */
export interface PipelineFile {
/**
 * Version of the pipeline file format.
 */
version: 1
/**
 * Name of the pipeline: letters, digits, dot, underscore and hyphen, starting with a letter or digit.
 */
name: string
/**
 * What the pipeline is for.
 */
description?: string
/**
 * Engine that runs the steps: local (embedded: fetches and converts pages itself) or firecrawl (the hosted or self-hosted service over HTTP); a name or an object with settings.
 */
engine?: (("local" | "firecrawl") | EngineObject)
/**
 * Requests in flight for the whole run.
 */
concurrency?: number
/**
 * Requests in flight per host.
 */
perHostConcurrency?: number
retry?: Retry
/**
 * Spending limit of a run.
 */
budget?: {
/**
 * The run stops before it would spend more credits than this.
 */
maxCredits?: number
}
/**
 * Keep the raw pages each run fetches on the local engine (once per content, shared by every run that saw them), so that run --from-run can convert them again without the network. false keeps none: a smaller database, and no --from-run from its runs. Leave it out to keep them.
 */
keepPages?: boolean
/**
 * Let the local engine fetch loopback and private network addresses.
 */
allowPrivateNetwork?: boolean
/**
 * How extract steps, the json format and change tracking's json mode fill a schema: auto uses the LLM when one is configured and the deterministic extractor otherwise; llm requires a model; deterministic never calls one (JSON-LD, microdata, RDFa, OpenGraph and x-selector annotations; zero tokens, reproducible).
 */
extractor?: ("auto" | "llm" | "deterministic")
/**
 * Where the OpenAI-compatible model used for extraction is configured: the names of the environment variables holding its base URL, key and model (secrets stay in the environment), and its limits.
 */
llm?: {
/**
 * Variable holding the endpoint's base URL (…/v1; /chat/completions is appended).
 */
baseUrlEnv?: string
/**
 * Variable holding the API key, sent as a bearer token (optional for local model servers).
 */
apiKeyEnv?: string
/**
 * Variable holding the model name.
 */
modelEnv?: string
/**
 * The model's context window in tokens; longer pages are sent in overlapping chunks.
 */
contextTokens?: number
/**
 * How long one model request may take.
 */
timeoutMs?: number
}
/**
 * How pages are compared with their previous snapshot when a step asks for the changeTracking format.
 */
changeTracking?: {
/**
 * The rewrites applied, in order, before two versions are compared: iframe-links drops [iframe](...) links, volatile removes the volatile patterns, whitespace collapses spaces and blank lines. Line order always counts.
 */
normalizers?: ("whitespace" | "volatile" | "iframe-links")[]
/**
 * Regular expressions (JavaScript syntax; ^ and $ match at line ends) whose matches are ignored when comparing: timestamps, counters, session tokens.
 * 
 * @maxItems 100
 */
volatile?: string[]
}
notify?: NotifyFile
schedule?: ScheduleFile
/**
 * Defaults for every step.
 */
defaults?: {
scrapeOptions?: ScrapeOptionsFile
}
/**
 * The steps of the pipeline.
 * 
 * @minItems 1
 */
steps: [Step, ...(Step)[]]
expect?: RunExpectations
/**
 * Logins kept between runs, by name: a scrape, crawl or extract step with `session: NAME` loads its pages logged in.
 */
sessions?: {
[k: string]: Session | undefined
}
}
/**
 * Engine with settings.
 */
export interface EngineObject {
/**
 * local (embedded) or firecrawl (the service over HTTP).
 */
kind: ("local" | "firecrawl")
/**
 * Base address of the service (firecrawl engine).
 */
baseUrl?: string
/**
 * Name of the environment variable holding the API key (firecrawl engine).
 */
apiKeyEnv?: string
/**
 * When the local engine uses a browser: auto (only when a page needs one), always, never.
 */
browser?: ("auto" | "always" | "never")
}
/**
 * Retries of failed requests, with exponential backoff.
 */
export interface Retry {
/**
 * Maximum number of attempts, the first included.
 */
attempts?: number
/**
 * Delay before the first retry, in milliseconds.
 */
initialDelayMs?: number
/**
 * Longest delay between attempts, in milliseconds.
 */
maxDelayMs?: number
}
/**
 * Whom to tell about a run, and when (webhook or channels is required): channels (webhook, slack, email), the page states that count, and rules deciding whether a change is worth telling. Delivery never changes the run's result.
 */
export interface NotifyFile {
webhook?: WebhookTarget
/**
 * Where notifications go; several are allowed.
 * 
 * @minItems 1
 * @maxItems 20
 */
channels?: [Channel]|[Channel, Channel]|[Channel, Channel, Channel]|[Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]|[Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel, Channel]
/**
 * The page states that are worth telling, and failed for failed pages or runs.
 * 
 * @minItems 1
 */
on?: [("changed" | "new" | "removed" | "hidden" | "failed"), ...(("changed" | "new" | "removed" | "hidden" | "failed"))[]]
/**
 * What makes a changed page worth telling; all the rules given must hold.
 */
rules?: {
/**
 * Only pages that gained lines: removals and reordered lines are not told.
 */
addedOnly?: boolean
/**
 * Only when the added text contains one of these (case-insensitive).
 * 
 * @maxItems 100
 */
keywords?: string[]
/**
 * Regular expressions (JavaScript syntax) of lines that do not count as a change, such as timestamps.
 * 
 * @maxItems 100
 */
ignore?: string[]
/**
 * Only when a number in the page's json data dropped by at least this much since the previous run.
 */
threshold?: {
/**
 * Path of the number in the json data: dots for keys, [] for every item of a list (products[].price).
 */
field: string
/**
 * The smallest drop, in percent of the previous value, that is told.
 */
dropPercent: number
}
}
}
/**
 * One webhook that receives a JSON summary of each run (shorthand for one webhook channel).
 */
export interface WebhookTarget {
/**
 * http(s) URL the JSON is POSTed to, through the same fetch gate as pages.
 */
url: string
/**
 * Signs the body: header X-Scrapeline-Signature: sha256=<hex HMAC-SHA256 of the body>. Use ${VAR} to keep it out of the file.
 */
secret?: string
events?: Events
/**
 * The body's shape: scrapeline (this tool's JSON) or service (the hosted service's webhook envelope {success, type, id, webhookId, data, error?, metadata?}, also signed in X-Firecrawl-Signature).
 */
format?: ("scrapeline" | "service")
/**
 * With format service: the envelope's id (default: the pipeline's name).
 */
id?: string
/**
 * With format service: an object sent back as the envelope's metadata.
 */
metadata?: {

}
}
/**
 * One channel: an object with exactly one key, webhook, slack or email.
 */
export interface Channel {
webhook?: WebhookTarget1
/**
 * A Slack incoming webhook: {text} with the summary of the changes.
 */
slack?: {
/**
 * The incoming webhook's URL; use ${VAR} to keep it out of the file.
 */
url: string
events?: Events1
}
/**
 * Mail sent through an SMTP server.
 */
email?: {
/**
 * SMTP server name.
 */
host: string
/**
 * SMTP port.
 */
port?: number
/**
 * TLS from the first byte (port 465); otherwise STARTTLS when the server offers it.
 */
secure?: boolean
/**
 * SMTP user; use ${VAR}.
 */
user?: string
/**
 * SMTP password; use ${VAR}.
 */
password?: string
/**
 * Sender address.
 */
from: string
/**
 * Recipients.
 * 
 * @minItems 1
 * @maxItems 50
 */
to: [string, ...(string)[]]
events?: Events2
}
}
/**
 * JSON POSTed to a URL, signed when a secret is set.
 */
export interface WebhookTarget1 {
/**
 * http(s) URL the JSON is POSTed to, through the same fetch gate as pages.
 */
url: string
/**
 * Signs the body: header X-Scrapeline-Signature: sha256=<hex HMAC-SHA256 of the body>. Use ${VAR} to keep it out of the file.
 */
secret?: string
events?: Events
/**
 * The body's shape: scrapeline (this tool's JSON) or service (the hosted service's webhook envelope {success, type, id, webhookId, data, error?, metadata?}, also signed in X-Firecrawl-Signature).
 */
format?: ("scrapeline" | "service")
/**
 * With format service: the envelope's id (default: the pipeline's name).
 */
id?: string
/**
 * With format service: an object sent back as the envelope's metadata.
 */
metadata?: {

}
}
/**
 * When the pipeline runs by itself under `scrapeline watch`: a cron pattern or a fixed interval, read in a time zone.
 */
export interface ScheduleFile {
/**
 * Cron pattern: 5 fields (minute hour day-of-month month day-of-week), 6 with seconds first, or a name: @yearly, @monthly, @weekly, @daily, @hourly.
 */
cron?: string
/**
 * Fixed interval instead of a cron pattern: a number and a unit, s, m, h or d (15m, 2h, 1d). Counted from midnight UTC of 1 January 1970.
 */
every?: string
/**
 * IANA time zone the cron pattern is read in (Europe/Berlin, America/New_York).
 */
timezone?: string
/**
 * Start each run up to this many seconds after its time, by a fixed offset per pipeline, so that many pipelines on one schedule do not all start at once.
 */
jitterSeconds?: number
/**
 * What happens to runs that fell due while nothing was watching: once runs the latest of them once, skip waits for the next time.
 */
missed?: ("once" | "skip")
/**
 * The shortest gap between two runs this schedule may have; a pattern or interval that runs more often is an error.
 */
minIntervalSeconds?: number
}
/**
 * Scrape options every scrape, crawl and extract step starts from; a step's own options win.
 */
export interface ScrapeOptionsFile {
formats?: Formats
changeTrackingOptions?: ChangeTrackingOptions
/**
 * Return only the main content: the article or the product (heading, figures with captions, tables, code; short data in it such as prices, stock, ratings, sizes and article numbers; a category's or a search's listing with its prices), without headers, navs, footers, share and subscribe blocks, related-story links, bylines, datelines, photo credits, comments, hover cards over links, or the site's citation, copyright and "requires JavaScript" notices.
 */
onlyMainContent?: boolean
includeTags?: IncludeTags
excludeTags?: ExcludeTags
/**
 * Milliseconds: a cached page younger than this is returned; an older cached page is re-scraped; 0 disables caching.
 */
maxAge?: number
headers?: Headers
/**
 * Delay in milliseconds before fetching content.
 */
waitFor?: number
/**
 * Emulate a mobile device.
 */
mobile?: boolean
/**
 * Skip TLS certificate verification.
 */
skipTlsVerification?: boolean
/**
 * Request timeout in milliseconds.
 */
timeout?: number
/**
 * @deprecated
 * v1: use parsers. true: PDF converted to markdown, billed 1 credit per page; false: PDF returned base64-encoded, flat 1 credit.
 */
parsePDF?: boolean
parsers?: Parsers
jsonOptions?: JsonOptions
actions?: Actions
location?: Location
/**
 * Remove base64 images: alt text stays, the URL becomes a placeholder.
 */
removeBase64Images?: boolean
/**
 * Ad-blocking and cookie-popup blocking.
 */
blockAds?: boolean
/**
 * basic: fast, for sites with none or basic anti-bot; enhanced: slower, more reliable on advanced anti-bot; auto: retries with enhanced if basic fails. stealth is the older name of enhanced (accepted with a warning).
 */
proxy?: ("basic" | "enhanced" | "auto" | "stealth")
/**
 * Store the page in the index and cache; using actions or headers forces it to false.
 */
storeInCache?: boolean
threatProtection?: ThreatProtectionOverride
}
/**
 * A format without options, in object form.
 */
export interface SimpleFormat {
/**
 * Format name.
 */
type: ("markdown" | "html" | "rawHtml" | "links" | "summary" | "images")
}
/**
 * Structured data extracted from the page, guided by a prompt and/or a JSON Schema (by an LLM when one is configured, otherwise from structured data and x-selector annotations).
 */
export interface JsonFormat {
/**
 * Format name.
 */
type: "json"
/**
 * Guides the extraction.
 */
prompt?: string
/**
 * JSON Schema defining the shape of the extracted data.
 */
schema?: {

}
}
/**
 * A screenshot of the page (a URL to the image).
 */
export interface ScreenshotFormat {
/**
 * Format name.
 */
type: "screenshot"
/**
 * Capture the full page instead of the viewport.
 */
fullPage?: boolean
/**
 * Image quality, 1 to 100 (100 best).
 */
quality?: number
viewport?: Viewport
}
/**
 * Viewport size of a screenshot, in pixels.
 */
export interface Viewport {
/**
 * Viewport width in pixels.
 */
width: number
/**
 * Viewport height in pixels.
 */
height: number
}
/**
 * Compares the page with the previous scrape of the same URL and tag. markdown must also be in formats.
 */
export interface ChangeTrackingFormat {
/**
 * Format name.
 */
type: "changeTracking"
/**
 * git-diff: detailed diff of the markdown; json: compares extracted JSON.
 */
modes?: ("git-diff" | "json")[]
/**
 * JSON Schema of the data compared in json mode.
 */
schema?: {

}
/**
 * Prompt used in json mode; a default prompt when omitted.
 */
prompt?: string
/**
 * Separates change-tracking history into branches: a tagged scrape is compared only with scrapes of the same tag.
 */
tag?: (string | null)
}
/**
 * @deprecated
 * v1: use a changeTracking object in formats ({type: changeTracking, modes, schema, prompt, tag}). Applies only when changeTracking is in formats; markdown must then also be in formats.
 */
export interface ChangeTrackingOptions {
/**
 * git-diff: detailed diff; json: compares extracted JSON.
 */
modes?: ("git-diff" | "json")[]
/**
 * JSON Schema for json mode.
 */
schema?: {

}
/**
 * Prompt used in json mode; a default prompt when omitted.
 */
prompt?: string
/**
 * Separates change-tracking history into branches: a tagged scrape is compared only with scrapes of the same tag.
 */
tag?: (string | null)
}
/**
 * Headers sent with the request (cookies, user-agent, etc.).
 */
export interface Headers {
[k: string]: string | undefined
}
/**
 * PDF parser with options.
 */
export interface PdfParser {
/**
 * Parser type.
 */
type: "pdf"
/**
 * PDF parsing mode: fast, auto or ocr.
 */
mode?: ("fast" | "auto" | "ocr")
/**
 * Maximum number of pages parsed.
 */
maxPages?: number
}
/**
 * @deprecated
 * v1: use a json object in formats ({type: json, prompt, schema}). Options of the json (v1 extract) format.
 */
export interface JsonOptions {
/**
 * JSON Schema of the extracted data.
 */
schema?: {

}
/**
 * System prompt of the extraction.
 */
systemPrompt?: string
/**
 * Prompt of the extraction, used for extraction without a schema.
 */
prompt?: string
}
/**
 * Takes a screenshot; result links are returned in actions.screenshots.
 */
export interface Screenshot {
/**
 * Action type.
 */
type: "screenshot"
/**
 * Capture the full page instead of the viewport.
 */
fullPage?: boolean
/**
 * Image quality, 1 to 100 (100 best).
 */
quality?: number
viewport?: Viewport
}
/**
 * Clicks an element.
 */
export interface Click {
/**
 * Action type.
 */
type: "click"
/**
 * Query selector of the element to click.
 */
selector: string
/**
 * Click every matching element; no error when nothing matches.
 */
all?: boolean
}
/**
 * Types text into the focused input, text area or contenteditable element, character by character. Focus the element first with a click action.
 */
export interface Write {
/**
 * Action type.
 */
type: "write"
/**
 * Text to type.
 */
text: string
}
/**
 * Presses a key.
 */
export interface Press {
/**
 * Action type.
 */
type: "press"
/**
 * Key to press (e.g. Enter).
 */
key: string
}
/**
 * Scrolls the page or an element.
 */
export interface Scroll {
/**
 * Action type.
 */
type: "scroll"
/**
 * Scroll direction.
 */
direction?: ("up" | "down")
/**
 * Query selector of the element to scroll; the page when omitted.
 */
selector?: string
}
/**
 * Returns the current URL and HTML.
 */
export interface Scrape {
/**
 * Action type.
 */
type: "scrape"
}
/**
 * Runs JavaScript in the page.
 */
export interface ExecuteJavascript {
/**
 * Action type.
 */
type: "executeJavascript"
/**
 * JavaScript code to run.
 */
script: string
}
/**
 * Renders the page as a PDF; the result is returned in actions.pdfs.
 */
export interface Pdf {
/**
 * Action type.
 */
type: "pdf"
/**
 * Paper format.
 */
format?: ("A0" | "A1" | "A2" | "A3" | "A4" | "A5" | "A6" | "Letter" | "Legal" | "Tabloid" | "Ledger")
/**
 * Landscape orientation.
 */
landscape?: boolean
/**
 * Rendering scale.
 */
scale?: number
}
/**
 * Location emulated for the request: an appropriate proxy is used if available and language and timezone are emulated.
 */
export interface Location {
/**
 * ISO 3166-1 alpha-2 country code.
 */
country?: string
/**
 * Language tags in priority order; default is the language of the location.
 */
languages?: string[]
}
/**
 * Per-request override of the organisation's threat-protection policy. Provided fields replace the organisation's fields for this request only; omitted fields keep the organisation's values.
 */
export interface ThreatProtectionOverride {
/**
 * off, or normal: URLs are checked against a web-risk list (+2 credits per URL scanned). Must not be off when threat protection is enforced for the team.
 */
mode?: ("off" | "normal")
/**
 * A classifier verdict at or above this score blocks the URL; lower is stricter.
 */
riskScoreThreshold?: number
/**
 * Domains always blocked, plain (example.com) or wildcard (*.example.com); no protocol, path or port.
 * 
 * @maxItems 1000
 * 
 * Items: A domain name, plain (example.com) or wildcard (*.example.com); no protocol, path or port. Punycode labels (xn--...) are allowed.
 */
blacklist?: string[]
/**
 * Domains always allowed, same format as blacklist; wins over every other rule.
 * 
 * @maxItems 1000
 * 
 * Items: A domain name, plain (example.com) or wildcard (*.example.com); no protocol, path or port. Punycode labels (xn--...) are allowed.
 */
whitelist?: string[]
/**
 * Top-level domains blocked, lowercase, without a leading dot (e.g. zip).
 * 
 * @maxItems 1000
 * 
 * Items: A lowercase top-level domain without a leading dot.
 */
blockedTlds?: string[]
/**
 * When the classifier is unreachable: closed blocks the request, open allows it.
 */
failurePolicy?: ("open" | "closed")
}
/**
 * URLs taken from an earlier step of the same run: the links a map step found, the pages a crawl step fetched, or the links a scrape step returned.
 */
export interface UrlSource {
/**
 * Id of the earlier step whose URLs are used.
 */
from: string
/**
 * Glob patterns; only URLs matching at least one are kept.
 */
include?: string[]
/**
 * Glob patterns; URLs matching any of them are dropped.
 */
exclude?: string[]
/**
 * Maximum number of URLs taken, in the order the earlier step produced them.
 */
limit?: number
}
/**
 * A crawl step: the body of POST /v2/crawl. Crawls a site from url and scrapes every page found. v1 options (maxDepth, allowBackwardCrawling, allowBackwardLinks, ignoreSitemap) are accepted and mapped to v2.
 */
export interface CrawlBody {
/**
 * URL the crawl starts from.
 */
url: string
/**
 * Natural-language description of the crawl; paths and limits are derived from it. Options given explicitly win over derived ones.
 */
prompt?: string
/**
 * Regular expressions tested against the URL pathname (the full URL with regexOnFullURL); only matching URLs are crawled.
 */
includePaths?: string[]
/**
 * Regular expressions tested against the URL pathname (the full URL with regexOnFullURL); matching URLs are skipped.
 */
excludePaths?: string[]
/**
 * Test includePaths and excludePaths against the full URL instead of the pathname.
 */
regexOnFullURL?: boolean
/**
 * Maximum discovery depth; the start URL and sitemap URLs have depth 0.
 */
maxDiscoveryDepth?: number
/**
 * include: use the sitemap and links; skip: ignore the sitemap; only: crawl only URLs from the sitemap.
 */
sitemap?: ("include" | "skip" | "only")
/**
 * Follow links anywhere on the domain, not only below the start URL's path.
 */
crawlEntireDomain?: boolean
/**
 * Follow links to subdomains of the start URL's domain.
 */
allowSubdomains?: boolean
/**
 * Follow links to external sites.
 */
allowExternalLinks?: boolean
/**
 * Treat URLs that differ only in their query string as the same page.
 */
ignoreQueryParameters?: boolean
/**
 * Treat similar URLs as the same page.
 */
deduplicateSimilarURLs?: boolean
/**
 * Maximum number of pages crawled.
 */
limit?: number
/**
 * Seconds to wait between requests.
 */
delay?: number
scrapeOptions?: ScrapeOptionsFile1
/**
 * @deprecated
 * v1: use maxDiscoveryDepth. Maximum crawl depth.
 */
maxDepth?: number
/**
 * @deprecated
 * v1: use crawlEntireDomain.
 */
allowBackwardCrawling?: boolean
/**
 * @deprecated
 * v1: use crawlEntireDomain.
 */
allowBackwardLinks?: boolean
/**
 * @deprecated
 * v1: use sitemap (true is sitemap: skip, false is sitemap: include).
 */
ignoreSitemap?: boolean
}
/**
 * Options applied when scraping each crawled page.
 */
export interface ScrapeOptionsFile1 {
formats?: Formats
changeTrackingOptions?: ChangeTrackingOptions
/**
 * Return only the main content: the article or the product (heading, figures with captions, tables, code; short data in it such as prices, stock, ratings, sizes and article numbers; a category's or a search's listing with its prices), without headers, navs, footers, share and subscribe blocks, related-story links, bylines, datelines, photo credits, comments, hover cards over links, or the site's citation, copyright and "requires JavaScript" notices.
 */
onlyMainContent?: boolean
includeTags?: IncludeTags
excludeTags?: ExcludeTags
/**
 * Milliseconds: a cached page younger than this is returned; an older cached page is re-scraped; 0 disables caching.
 */
maxAge?: number
headers?: Headers
/**
 * Delay in milliseconds before fetching content.
 */
waitFor?: number
/**
 * Emulate a mobile device.
 */
mobile?: boolean
/**
 * Skip TLS certificate verification.
 */
skipTlsVerification?: boolean
/**
 * Request timeout in milliseconds.
 */
timeout?: number
/**
 * @deprecated
 * v1: use parsers. true: PDF converted to markdown, billed 1 credit per page; false: PDF returned base64-encoded, flat 1 credit.
 */
parsePDF?: boolean
parsers?: Parsers
jsonOptions?: JsonOptions
actions?: Actions
location?: Location
/**
 * Remove base64 images: alt text stays, the URL becomes a placeholder.
 */
removeBase64Images?: boolean
/**
 * Ad-blocking and cookie-popup blocking.
 */
blockAds?: boolean
/**
 * basic: fast, for sites with none or basic anti-bot; enhanced: slower, more reliable on advanced anti-bot; auto: retries with enhanced if basic fails. stealth is the older name of enhanced (accepted with a warning).
 */
proxy?: ("basic" | "enhanced" | "auto" | "stealth")
/**
 * Store the page in the index and cache; using actions or headers forces it to false.
 */
storeInCache?: boolean
threatProtection?: ThreatProtectionOverride
}
/**
 * A map step: the body of POST /v2/map. Returns the list of URLs of a site.
 */
export interface MapBody {
/**
 * URL of the site to map.
 */
url: string
/**
 * Search terms; results are ordered by relevance to them.
 */
search?: string
/**
 * include: use the sitemap and links; skip: ignore the sitemap; only: return only URLs from the sitemap.
 */
sitemap?: ("include" | "skip" | "only")
/**
 * Include URLs on subdomains of the site.
 */
includeSubdomains?: boolean
/**
 * Treat URLs that differ only in their query string as the same URL.
 */
ignoreQueryParameters?: boolean
/**
 * Maximum number of URLs returned.
 */
limit?: number
/**
 * Time the map may take, in milliseconds: then the URLs found so far are answered (with a warning), or, when none was found, the map fails as timed out.
 */
timeout?: number
}
/**
 * An extract step: the body of POST /v1/extract. Extracts structured data from pages, guided by a prompt and/or a JSON Schema: with an LLM when one is configured, otherwise deterministically from structured data and x-selector annotations.
 */
export interface ExtractBody {
/**
 * URLs to extract from, in glob format (e.g. https://example.com/*), or URLs taken from an earlier step.
 */
urls: ([string, ...(string)[]] | UrlSource)
/**
 * Guides the extraction.
 */
prompt?: string
/**
 * JSON Schema defining the shape of the extracted data.
 */
schema?: {

}
/**
 * Use web search to find additional data.
 */
enableWebSearch?: boolean
/**
 * Ignore sitemap.xml files while scanning the site.
 */
ignoreSitemap?: boolean
/**
 * Also scan subdomains of the given URLs.
 */
includeSubdomains?: boolean
/**
 * Include the sources used in the result, under the key sources.
 */
showSources?: boolean
scrapeOptions?: ScrapeOptionsFile2
/**
 * Ignore invalid entries of urls and run on the valid ones; when false, invalid URLs fail the request.
 */
ignoreInvalidURLs?: boolean
/**
 * At most this many pages are extracted; URLs that globs expand to beyond it are left out, with a warning.
 */
limit?: number
threatProtection?: ThreatProtectionOverride1
}
/**
 * Options applied when scraping each page.
 */
export interface ScrapeOptionsFile2 {
formats?: Formats
changeTrackingOptions?: ChangeTrackingOptions
/**
 * Return only the main content: the article or the product (heading, figures with captions, tables, code; short data in it such as prices, stock, ratings, sizes and article numbers; a category's or a search's listing with its prices), without headers, navs, footers, share and subscribe blocks, related-story links, bylines, datelines, photo credits, comments, hover cards over links, or the site's citation, copyright and "requires JavaScript" notices.
 */
onlyMainContent?: boolean
includeTags?: IncludeTags
excludeTags?: ExcludeTags
/**
 * Milliseconds: a cached page younger than this is returned; an older cached page is re-scraped; 0 disables caching.
 */
maxAge?: number
headers?: Headers
/**
 * Delay in milliseconds before fetching content.
 */
waitFor?: number
/**
 * Emulate a mobile device.
 */
mobile?: boolean
/**
 * Skip TLS certificate verification.
 */
skipTlsVerification?: boolean
/**
 * Request timeout in milliseconds.
 */
timeout?: number
/**
 * @deprecated
 * v1: use parsers. true: PDF converted to markdown, billed 1 credit per page; false: PDF returned base64-encoded, flat 1 credit.
 */
parsePDF?: boolean
parsers?: Parsers
jsonOptions?: JsonOptions
actions?: Actions
location?: Location
/**
 * Remove base64 images: alt text stays, the URL becomes a placeholder.
 */
removeBase64Images?: boolean
/**
 * Ad-blocking and cookie-popup blocking.
 */
blockAds?: boolean
/**
 * basic: fast, for sites with none or basic anti-bot; enhanced: slower, more reliable on advanced anti-bot; auto: retries with enhanced if basic fails. stealth is the older name of enhanced (accepted with a warning).
 */
proxy?: ("basic" | "enhanced" | "auto" | "stealth")
/**
 * Store the page in the index and cache; using actions or headers forces it to false.
 */
storeInCache?: boolean
threatProtection?: ThreatProtectionOverride
}
/**
 * Per-request override of the organisation's threat-protection policy. Provided fields replace the organisation's fields for this request only; omitted fields keep the organisation's values.
 */
export interface ThreatProtectionOverride1 {
/**
 * off, or normal: URLs are checked against a web-risk list (+2 credits per URL scanned). Must not be off when threat protection is enforced for the team.
 */
mode?: ("off" | "normal")
/**
 * A classifier verdict at or above this score blocks the URL; lower is stricter.
 */
riskScoreThreshold?: number
/**
 * Domains always blocked, plain (example.com) or wildcard (*.example.com); no protocol, path or port.
 * 
 * @maxItems 1000
 * 
 * Items: A domain name, plain (example.com) or wildcard (*.example.com); no protocol, path or port. Punycode labels (xn--...) are allowed.
 */
blacklist?: string[]
/**
 * Domains always allowed, same format as blacklist; wins over every other rule.
 * 
 * @maxItems 1000
 * 
 * Items: A domain name, plain (example.com) or wildcard (*.example.com); no protocol, path or port. Punycode labels (xn--...) are allowed.
 */
whitelist?: string[]
/**
 * Top-level domains blocked, lowercase, without a leading dot (e.g. zip).
 * 
 * @maxItems 1000
 * 
 * Items: A lowercase top-level domain without a leading dot.
 */
blockedTlds?: string[]
/**
 * When the classifier is unreachable: closed blocks the request, open allows it.
 */
failurePolicy?: ("open" | "closed")
}
/**
 * A parse step: document files (HTML, PDF, DOCX, ODT, RTF, EPUB, PPTX, ODP, XLSX, XLS, ODS, CSV; detected by content) converted to markdown and the other formats, each stored as a document like a page. The options are scrape options without those that need a browser or a site.
 */
export interface ParseBody {
/**
 * Paths or globs (*, **, ?, [abc], {a,b}) relative to the pipeline file; a glob's matches are taken in sorted order. Never outside the pipeline file's directory tree unless allowOutside is true.
 * 
 * @minItems 1
 * @maxItems 1000
 */
files: [string, ...(string)[]]
/**
 * Let files and globs reach outside the pipeline file's directory tree (absolute paths, ..).
 */
allowOutside?: boolean
/**
 * Rows kept per spreadsheet sheet (one table per sheet); the rest are counted in the document's warning.
 */
maxRows?: number
/**
 * Largest file parsed, in bytes (the service's limit, 50 MB, is the most); a larger file fails without being read.
 */
maxFileSize?: number
formats?: Formats
/**
 * HTML files only: return the main content, as for pages. Converted documents (DOCX, PDF, spreadsheets…) are always whole.
 */
onlyMainContent?: boolean
includeTags?: IncludeTags
excludeTags?: ExcludeTags
/**
 * Each file's deadline in milliseconds, retries included. Local engine: the conversion (its thread is ended when the time is up) and a json format's model call. firecrawl engine: sent to the service with the upload.
 */
timeout?: number
parsers?: Parsers
/**
 * Remove base64 images: alt text stays, the URL becomes a placeholder.
 */
removeBase64Images?: boolean
/**
 * Ad-blocking and cookie-popup blocking.
 */
blockAds?: boolean
}
/**
 * A search step: the body of POST /v2/search. Searches the web (and news, images) for a query; results are scraped only when scrapeOptions.formats asks.
 */
export interface SearchBody {
/**
 * What to search for.
 */
query: string
/**
 * Maximum number of results of each source.
 */
limit?: number
/**
 * Kinds of results: web, news, images; a name or an object with per-source options.
 * 
 * @minItems 1
 */
sources?: [(("web" | "news" | "images") | {
/**
 * The kind of results.
 */
type: ("web" | "news" | "images")
/**
 * Time range of the results: past hour (qdr:h), day (qdr:d), week (qdr:w), month (qdr:m) or year (qdr:y).
 */
tbs?: ("qdr:h" | "qdr:d" | "qdr:w" | "qdr:m" | "qdr:y")
/**
 * Where the search is made from, for this source.
 */
location?: string
}), ...((("web" | "news" | "images") | {
/**
 * The kind of results.
 */
type: ("web" | "news" | "images")
/**
 * Time range of the results: past hour (qdr:h), day (qdr:d), week (qdr:w), month (qdr:m) or year (qdr:y).
 */
tbs?: ("qdr:h" | "qdr:d" | "qdr:w" | "qdr:m" | "qdr:y")
/**
 * Where the search is made from, for this source.
 */
location?: string
}))[]]
/**
 * Narrow web results to kinds of sites: github (repositories and code), research (papers), pdf (PDF files).
 */
categories?: (("github" | "research" | "pdf") | {
/**
 * The category.
 */
type: ("github" | "research" | "pdf")
})[]
/**
 * Time range of the results: past hour (qdr:h), day (qdr:d), week (qdr:w), month (qdr:m) or year (qdr:y).
 */
tbs?: ("qdr:h" | "qdr:d" | "qdr:w" | "qdr:m" | "qdr:y")
/**
 * Where the search is made from, e.g. "Germany" or "San Francisco,California,United States".
 */
location?: string
/**
 * Country code of the search, e.g. us, de.
 */
country?: string
/**
 * Language code of the results, e.g. en, de.
 */
lang?: string
/**
 * Only results from these domains (not with excludeDomains).
 * 
 * @minItems 1
 */
includeDomains?: [string, ...(string)[]]
/**
 * No results from these domains (not with includeDomains).
 * 
 * @minItems 1
 */
excludeDomains?: [string, ...(string)[]]
/**
 * Time limit of the search, in milliseconds.
 */
timeout?: number
/**
 * Drop results whose URL cannot be scraped instead of failing on them.
 */
ignoreInvalidURLs?: boolean
scrapeOptions?: ScrapeOptionsFile3
}
/**
 * How results are scraped; only when formats lists at least one format.
 */
export interface ScrapeOptionsFile3 {
formats?: Formats
changeTrackingOptions?: ChangeTrackingOptions
/**
 * Return only the main content: the article or the product (heading, figures with captions, tables, code; short data in it such as prices, stock, ratings, sizes and article numbers; a category's or a search's listing with its prices), without headers, navs, footers, share and subscribe blocks, related-story links, bylines, datelines, photo credits, comments, hover cards over links, or the site's citation, copyright and "requires JavaScript" notices.
 */
onlyMainContent?: boolean
includeTags?: IncludeTags
excludeTags?: ExcludeTags
/**
 * Milliseconds: a cached page younger than this is returned; an older cached page is re-scraped; 0 disables caching.
 */
maxAge?: number
headers?: Headers
/**
 * Delay in milliseconds before fetching content.
 */
waitFor?: number
/**
 * Emulate a mobile device.
 */
mobile?: boolean
/**
 * Skip TLS certificate verification.
 */
skipTlsVerification?: boolean
/**
 * Request timeout in milliseconds.
 */
timeout?: number
/**
 * @deprecated
 * v1: use parsers. true: PDF converted to markdown, billed 1 credit per page; false: PDF returned base64-encoded, flat 1 credit.
 */
parsePDF?: boolean
parsers?: Parsers
jsonOptions?: JsonOptions
actions?: Actions
location?: Location
/**
 * Remove base64 images: alt text stays, the URL becomes a placeholder.
 */
removeBase64Images?: boolean
/**
 * Ad-blocking and cookie-popup blocking.
 */
blockAds?: boolean
/**
 * basic: fast, for sites with none or basic anti-bot; enhanced: slower, more reliable on advanced anti-bot; auto: retries with enhanced if basic fails. stealth is the older name of enhanced (accepted with a warning).
 */
proxy?: ("basic" | "enhanced" | "auto" | "stealth")
/**
 * Store the page in the index and cache; using actions or headers forces it to false.
 */
storeInCache?: boolean
threatProtection?: ThreatProtectionOverride
}
/**
 * Carries on from the pages of an earlier scrape step of the run: on each page as that scrape left it (the same open browser page, or, when it is not open any more, the page loaded again with the scrape's session, waitFor and actions), these actions run and the page they leave is stored (with what each scrape action captured on the way); with tabs, links of that page are opened in tabs of the same browser context and stored too.
 */
export interface InteractBody {
/**
 * The id of an earlier scrape step whose pages to carry on from.
 */
from: string
/**
 * What to do next on each page: click through pages, load more, fill forms. A scrape action stores the page as it is at that point as a document of the step too (under the URL it has then, or URL#scrape-N when that is the carried-on page's).
 * 
 * @minItems 1
 * @maxItems 50
 */
actions: [Action, ...(Action)[]]
/**
 * Only these pages of the `from` scrape: their metadata.scrapeId, as `scrapeline show` lists them (the same page of the same step keeps its id from run to run). Without it, every page the scrape stored.
 * 
 * @minItems 1
 * @maxItems 1000
 */
scrapeIds?: [string, ...(string)[]]
/**
 * Open links of the page the actions leave in tabs of the same browser context (its cookies and storage, logged in when the scrape was) and store each tab's page as a document of this step, under the link's URL.
 */
tabs?: {
/**
 * CSS selector of the links to open (an element that is a link, sits in one, or holds one), in page order; duplicates and fragments are dropped.
 */
selector: string
/**
 * At most this many tabs per page.
 */
limit?: number
/**
 * What to do in each tab once it has loaded (and waited the scrape's waitFor) before it is stored.
 * 
 * @maxItems 50
 */
actions?: Action[]
}
}
/**
 * An agent step: the body of POST /v2/agent. A model searches, maps and scrapes (through this engine) until it can answer the prompt, with data valid against `schema` and the sources of each field.
 */
export interface AgentBody {
/**
 * What to find.
 */
prompt: string
/**
 * Where to start; with strictConstrainToURLs, the only URLs (and pages under them) it may use.
 */
urls?: string[]
/**
 * JSON Schema the answer's data must be valid against (repaired once, else the step fails naming the path).
 */
schema?: {

}
/**
 * Only the given URLs and pages under them may be touched; a call elsewhere is refused (and the model told). Needs urls.
 */
strictConstrainToURLs?: boolean
/**
 * Credits the agent may spend: its tool calls as billed plus model tokens at 15 tokens a credit. Reaching them stops it with what it has (status partial).
 */
maxCredits?: number
/**
 * Model turns it may take before it stops (status partial).
 */
maxSteps?: number
threatProtection?: ThreatProtectionOverride2
}
/**
 * Per-request override of the organisation's threat-protection policy. Provided fields replace the organisation's fields for this request only; omitted fields keep the organisation's values.
 */
export interface ThreatProtectionOverride2 {
/**
 * off, or normal: URLs are checked against a web-risk list (+2 credits per URL scanned). Must not be off when threat protection is enforced for the team.
 */
mode?: ("off" | "normal")
/**
 * A classifier verdict at or above this score blocks the URL; lower is stricter.
 */
riskScoreThreshold?: number
/**
 * Domains always blocked, plain (example.com) or wildcard (*.example.com); no protocol, path or port.
 * 
 * @maxItems 1000
 * 
 * Items: A domain name, plain (example.com) or wildcard (*.example.com); no protocol, path or port. Punycode labels (xn--...) are allowed.
 */
blacklist?: string[]
/**
 * Domains always allowed, same format as blacklist; wins over every other rule.
 * 
 * @maxItems 1000
 * 
 * Items: A domain name, plain (example.com) or wildcard (*.example.com); no protocol, path or port. Punycode labels (xn--...) are allowed.
 */
whitelist?: string[]
/**
 * Top-level domains blocked, lowercase, without a leading dot (e.g. zip).
 * 
 * @maxItems 1000
 * 
 * Items: A lowercase top-level domain without a leading dot.
 */
blockedTlds?: string[]
/**
 * When the classifier is unreachable: closed blocks the request, open allows it.
 */
failurePolicy?: ("open" | "closed")
}
/**
 * Retries of failed requests, with exponential backoff.
 */
export interface Retry1 {
/**
 * Maximum number of attempts, the first included.
 */
attempts?: number
/**
 * Delay before the first retry, in milliseconds.
 */
initialDelayMs?: number
/**
 * Longest delay between attempts, in milliseconds.
 */
maxDelayMs?: number
}
/**
 * What a step's results must look like for the step to succeed: counts of stored, failed, blocked and changed pages, fields of each page's json (an extract step's merged result), and each page's markdown. A broken expectation fails the step (cause: expectation); its pages are still stored.
 */
export interface StepExpectations {
documents?: Count
failed?: Share
blocked?: Share1
changed?: Share2
/**
 * Fields of each page's json (an extract step's merged result), by path: names joined by dots, `[]` after a name for every item of a list (products[].price).
 */
fields?: {
[k: string]: Field | undefined
}
/**
 * Each stored page's markdown.
 */
markdown?: {
/**
 * Fewest characters each page's markdown has.
 */
minChars?: number
/**
 * Text each page's markdown contains.
 * 
 * @minItems 1
 */
contains?: [string, ...(string)[]]
}
}
/**
 * Pages the step stored.
 */
export interface Count {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
}
/**
 * Pages that failed. When set, failed pages within it do not fail the step by themselves.
 */
export interface Share {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
/**
 * Largest share allowed (0 to 1) of the pages tried (stored and failed).
 */
maxShare?: number
}
/**
 * Pages that failed as blocked by the site (bot walls, access denied).
 */
export interface Share1 {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
/**
 * Largest share allowed (0 to 1) of the pages tried (stored and failed).
 */
maxShare?: number
}
/**
 * Pages whose change tracking says changed: a guard against a redesign (most pages changed at once).
 */
export interface Share2 {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
/**
 * Largest share allowed (0 to 1) of the pages tried (stored and failed).
 */
maxShare?: number
}
/**
 * What every value at a field path must be.
 */
export interface Field {
/**
 * Every value is present (not missing, not null).
 */
required?: boolean
/**
 * The JSON type of every present value.
 */
type?: ("string" | "number" | "integer" | "boolean" | "object" | "array")
/**
 * Smallest number allowed (numbers only).
 */
min?: number
/**
 * Largest number allowed (numbers only).
 */
max?: number
/**
 * Smallest share (0 to 1) of values that are present and not empty (not "", [] or {}).
 */
nonEmptyShare?: number
}
/**
 * What the whole run must look like: totals over every step. A broken expectation fails the run (cause: expectation); its pages are still stored.
 */
export interface RunExpectations {
documents?: Count1
failed?: Share3
blocked?: Share4
changed?: Share5
}
/**
 * Pages the run stored.
 */
export interface Count1 {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
}
/**
 * Pages of the run that failed.
 */
export interface Share3 {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
/**
 * Largest share allowed (0 to 1) of the pages tried (stored and failed).
 */
maxShare?: number
}
/**
 * Pages of the run that failed as blocked by the site.
 */
export interface Share4 {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
/**
 * Largest share allowed (0 to 1) of the pages tried (stored and failed).
 */
maxShare?: number
}
/**
 * Pages of the run whose change tracking says changed.
 */
export interface Share5 {
/**
 * Fewest allowed.
 */
min?: number
/**
 * Most allowed.
 */
max?: number
/**
 * Largest share allowed (0 to 1) of the pages tried (stored and failed).
 */
maxShare?: number
}
/**
 * A login performed once in the browser and kept: its cookies and storage load the pages of the steps that name it (`session: NAME`), in the browser and over plain HTTP. Credentials go in through ${VAR} only.
 */
export interface Session {
/**
 * The login page. A page of a step that is redirected here shows that the session has expired.
 */
url: string
/**
 * What logs in on that page (click the fields, write ${USER} and ${PASSWORD}, press Enter).
 * 
 * @minItems 1
 * @maxItems 50
 */
actions: [Action, ...(Action)[]]
/**
 * What proves the login worked, checked on the page the actions leave: exactly one of selector, urlMatches, textContains.
 */
successWhen: {
/**
 * An element matching this CSS selector appears.
 */
selector?: string
/**
 * The page's URL matches this regular expression.
 */
urlMatches?: string
/**
 * The page's text contains this.
 */
textContains?: string
}
/**
 * What shows, on a page loaded with the session, that the login has expired (the site answered its sign-in form instead of the page): exactly one of selector, urlMatches, textContains. Checked only on pages of the session's own site (the login page's host, or a host its cookies go to); a page that shows it logs in again and is loaded once more. Without it only a redirect to the login URL or a 401 shows expiry: successWhen is checked after a login only, never on pages.
 */
expiredWhen?: {
/**
 * An element matching this CSS selector is on the page (its HTML as loaded).
 */
selector?: string
/**
 * The page's final URL matches this regular expression.
 */
urlMatches?: string
/**
 * The page's text contains this.
 */
textContains?: string
}
/**
 * How long a login is reused before it runs again: milliseconds, or a number with ms, s, m, h or d (12h).
 */
maxAge?: (number | string)
/**
 * Time limit of one login (the page, the actions and the check), in milliseconds.
 */
timeoutMs?: number
}
