/** How `scrapeline serve` is started. */
export interface ServeOptions {
  db: string;
  /** Let fetches reach loopback and private addresses (off by default: the SSRF guard). */
  allowPrivateNetwork?: boolean;
  /** A `domain score` file: the web-risk list of threat protection's mode normal. */
  riskList?: string;
  /** Pages in flight per job. */
  concurrency?: number;
  /** Pages of one host in flight per job; on PostgreSQL counted across replicas and workers (default: the job's concurrency, at most 4). */
  perHostConcurrency?: number;
  /** Where the extraction model is configured (SCRAPELINE_LLM_*; default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  clock?: () => number;
  /** Run code sent to /v2/browser/{id}/execute and /v2/scrape/{id}/interact (off by default: it is remote code execution). */
  allowCodeExecution?: boolean;
  /** Live browser sessions per team (default 5). */
  maxBrowserSessions?: number;
  /** Heap limit of each code run, in MB (default 128). */
  codeMemoryMb?: number;
  /** How long a replica's heartbeat may be silent before other replicas take it for dead (default SCRAPELINE_REPLICA_LEASE, else 60 s). */
  replicaLeaseMs?: number;
}
