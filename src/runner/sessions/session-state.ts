import type { SessionCookie, SessionHandle, SessionState } from "../../core/index.js";

/**
 * A session as one run holds it: the state of its latest login, updated with the cookies pages
 * set, and the generation of that login (a renewal asked for an older one is already done).
 */
export class LiveSession implements SessionHandle {
  private current: SessionState;

  constructor(
    readonly name: string,
    state: SessionState,
    /** When this login happened (ms since the epoch). */
    readonly loggedInAt: number,
    readonly generation: number,
    private readonly clock: () => number,
    /** Told when a page changed a cookie, to keep the new state. */
    private readonly changed: (session: LiveSession) => void,
  ) {
    this.current = state;
  }

  state(): SessionState {
    return this.current;
  }

  update(cookies: readonly SessionCookie[]): void {
    const now = this.clock();
    const key = (c: SessionCookie) => `${c.name}\n${c.domain.toLowerCase()}\n${c.path}`;
    const merged = new Map(this.current.cookies.map((c) => [key(c), c]));
    let differs = false;
    for (const cookie of cookies) {
      const before = merged.get(key(cookie));
      if (before?.value === cookie.value && before.expires === cookie.expires) continue;
      merged.set(key(cookie), cookie);
      differs = true;
    }
    if (!differs) return;
    this.current = { ...this.current, cookies: [...merged.values()].filter((c) => c.expires < 0 || c.expires * 1000 > now) };
    this.changed(this);
  }
}
