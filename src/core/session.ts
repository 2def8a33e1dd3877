import type { Action } from "./generated/pipeline-file.js";

/** One cookie of a session, in the browser's shape (a host-only cookie's domain has no leading dot). */
export interface SessionCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; -1 for a cookie that lives as long as the session. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Strict" | "Lax" | "None";
}

/** What a login leaves: cookies, and the local storage of each origin. */
export interface SessionState {
  cookies: SessionCookie[];
  origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }>;
}

/** What proves a login worked, checked on the page its actions leave: one of the three. */
export interface SessionCheck {
  selector?: string;
  urlMatches?: string;
  textContains?: string;
}

/** A login as the pipeline declares it (the `sessions` of the file, defaults applied). */
export interface SessionSpec {
  name: string;
  /** The login page; a page redirected here shows the session has expired. */
  url: string;
  actions: Action[];
  successWhen: SessionCheck;
  /** What shows on a page of the session's own site that the login has expired (opt-in; successWhen is never checked on pages). */
  expiredWhen?: SessionCheck;
  maxAgeMs: number;
  timeoutMs: number;
}

/**
 * A live session as pages use it: its state is read before each page and updated with the
 * cookies each page set (Set-Cookie over HTTP, the context's cookies in the browser).
 */
export interface SessionHandle {
  readonly name: string;
  state(): SessionState;
  update(cookies: readonly SessionCookie[]): void;
}

/**
 * Where sessions come from, by name: the kept state while it is fresh, else a login. This is
 * the whole port a caller needs (steps of a run, and anything else that drives the engine).
 */
export interface SessionProvider {
  /** The session, logging in when no state is kept or it is older than its maxAge; a failed login throws with the reason. */
  open(name: string, signal?: AbortSignal): Promise<SessionHandle>;
  /** A page showed `handle` has expired: logs in again, once for every caller that saw the same state. */
  renew(handle: SessionHandle, signal?: AbortSignal): Promise<SessionHandle>;
}

/**
 * Session states kept between runs, encrypted at rest. `id` names a login (its pipeline, name
 * and spec) and is stored only as a keyed hash; without a key nothing is kept (`keeps` is false).
 */
export interface SessionVault {
  readonly keeps: boolean;
  /** The state kept under `id`, or "unreadable" when it was kept with another key. */
  load(id: string): { state: SessionState; savedAt: number } | "unreadable" | undefined;
  save(id: string, state: SessionState, savedAt: number): void;
  forget(id: string): void;
}
