import type { Engine, SessionHandle, SessionProvider, SessionSpec, SessionState, SessionVault } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { LiveSession } from "./session-state.js";

export interface RunSessionsOptions {
  engine: Engine;
  specs: Readonly<Record<string, SessionSpec>>;
  /** Where logins are kept between runs (absent: not kept). */
  vault?: SessionVault;
  /** Names the pipeline's logins in the vault, so two pipelines never share one. */
  pipelineName: string;
  clock: () => number;
  /** Told what a reader should know about a session (its state not kept, unreadable). */
  note: (name: string, message: string) => void;
}

/**
 * The sessions of one run: each is opened once, from the vault while its kept login is younger
 * than maxAge, else by logging in through the engine; a renewal logs in again once, whoever asks.
 * A failed login stays failed for the run, so every step needing it fails with its reason.
 */
export class RunSessions implements SessionProvider {
  private readonly live = new Map<string, Promise<LiveSession>>();
  private readonly noted = new Set<string>();

  constructor(private readonly options: RunSessionsOptions) {}

  spec(name: string): SessionSpec {
    const spec = this.options.specs[name];
    if (!spec) throw new ScrapelineError("invalid-input", `session "${name}" is not declared in sessions`);
    return spec;
  }

  async open(name: string, signal?: AbortSignal): Promise<SessionHandle> {
    const spec = this.spec(name);
    let opening = this.live.get(name);
    if (!opening) {
      opening = this.start(spec, signal);
      this.live.set(name, opening);
    }
    const session = await opening;
    // A run longer than maxAge logs in again between pages.
    if (this.options.clock() - session.loggedInAt >= spec.maxAgeMs) return this.renew(session, signal);
    return session;
  }

  async renew(handle: SessionHandle, signal?: AbortSignal): Promise<SessionHandle> {
    const spec = this.spec(handle.name);
    const pending = this.live.get(handle.name);
    const current = await pending;
    // Another page renewed it while this one waited: its login is the one to use.
    if (this.live.get(handle.name) !== pending) return this.renew(handle, signal);
    const seen = handle instanceof LiveSession ? handle.generation : 0;
    if (current && current.generation > seen) return current;
    const renewing = this.login(spec, seen + 1, signal);
    this.live.set(handle.name, renewing);
    return renewing;
  }

  private async start(spec: SessionSpec, signal?: AbortSignal): Promise<LiveSession> {
    const vault = this.options.vault;
    if (!vault?.keeps) this.noteOnce(spec.name, `session "${spec.name}": SCRAPELINE_SECRET_KEY is not set, so its login is not kept between runs (it logs in on every run)`);
    const kept = vault?.keeps ? vault.load(this.id(spec)) : undefined;
    if (kept === "unreadable") this.noteOnce(spec.name, `session "${spec.name}": the kept login could not be decrypted with this SCRAPELINE_SECRET_KEY; logging in again`);
    else if (kept && this.options.clock() - kept.savedAt < spec.maxAgeMs) return this.held(spec, kept.state, kept.savedAt, 1);
    return this.login(spec, 1, signal);
  }

  private async login(spec: SessionSpec, generation: number, signal?: AbortSignal): Promise<LiveSession> {
    const { engine } = this.options;
    if (!engine.login) throw new ScrapelineError("unsupported", `session "${spec.name}" needs to log in in a browser, which the ${engine.name} engine does not do: use the local engine`);
    const state = await engine.login(spec, signal);
    const now = this.options.clock();
    const session = this.held(spec, state, now, generation);
    this.keep(session);
    return session;
  }

  private held(spec: SessionSpec, state: SessionState, loggedInAt: number, generation: number): LiveSession {
    return new LiveSession(spec.name, state, loggedInAt, generation, this.options.clock, (s) => this.keep(s));
  }

  /** Saves the session's state; a store that cannot take it does not fail pages (the run goes on logged in). */
  private keep(session: LiveSession): void {
    const vault = this.options.vault;
    if (!vault?.keeps) return;
    try {
      vault.save(this.id(this.spec(session.name)), session.state(), session.loggedInAt);
    } catch (error) {
      this.noteOnce(session.name, `session "${session.name}": its login could not be kept: ${(error as Error).message}`);
    }
  }

  /** What names a login in the vault: the pipeline, the session and everything that logs in (hashed there with a key). */
  private id(spec: SessionSpec): string {
    return JSON.stringify([this.options.pipelineName, spec.name, spec.url, spec.actions, spec.successWhen]);
  }

  private noteOnce(name: string, message: string): void {
    if (this.noted.has(message)) return;
    this.noted.add(message);
    this.options.note(name, message);
  }
}
