import { createHash, randomBytes } from "node:crypto";
import type { ApiKeyRecord, Team, ThreatPolicy } from "../../core/index.js";
import { ScrapelineError } from "../../core/index.js";
import { readRequestBody } from "../../pipeline/index.js";
import type { ServeTables } from "../../store/index.js";
import { openExistingRunStore, openRunStore } from "../common/index.js";

/** Defaults of a new team: the service's Standard plan, roughly. */
export const TEAM_DEFAULTS = { planTokens: 1_500_000, periodDays: 30, rateLimit: 500, maxConcurrentJobs: 10 } as const;

export interface TeamSettings {
  planTokens?: number;
  periodDays?: number;
  rateLimit?: number;
  maxConcurrentJobs?: number;
}

/** The key's stored form: sha256, hex. The key itself is never stored or logged. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Runs `work` on the serve tables of the database at `db`; only creating a key may create the database. */
export function withServeTables<T>(db: string, work: (tables: ServeTables) => T, options: { create?: boolean } = {}): T {
  const store = options.create ? openRunStore(db) : openExistingRunStore(db);
  try {
    return work(store.serveTables());
  } finally {
    store.close();
  }
}

function checkSettings(settings: TeamSettings): void {
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && (!Number.isInteger(value) || value < (name === "planTokens" ? 0 : 1))) throw new ScrapelineError("invalid-input", `${name} must be a ${name === "planTokens" ? "non-negative" : "positive"} integer, got ${value}`);
  }
}

/**
 * Creates an API key for a team (the team too, with `settings` or the defaults, when it does not
 * exist yet; an existing team's settings are changed by those given). Returns the key: it is
 * shown once and only its hash is kept.
 */
export function createKey(db: string, teamName: string, settings: TeamSettings = {}): { key: string; id: number; team: Team } {
  if (!teamName.trim()) throw new ScrapelineError("invalid-input", "a team name is required (--team)");
  checkSettings(settings);
  return withServeTables(db, (tables) => {
    let team = tables.teamByName(teamName);
    if (!team) team = tables.createTeam({ name: teamName, ...TEAM_DEFAULTS, ...definedOnly(settings) });
    else {
      tables.updateTeam(team.id, definedOnly(settings));
      team = tables.teamByName(teamName)!;
    }
    const key = `fc-${randomBytes(16).toString("hex")}`;
    const id = tables.addKey(team.id, key.slice(0, 11), hashKey(key));
    return { key, id, team };
  }, { create: true });
}

export function listKeys(db: string): ApiKeyRecord[] {
  return withServeTables(db, (tables) => tables.keys());
}

/** Revokes a key by id or by a prefix of the key; a prefix matching several keys is refused. */
export function revokeKey(db: string, idOrPrefix: string): ApiKeyRecord {
  return withServeTables(db, (tables) => {
    const keys = tables.keys();
    const matches = /^\d+$/.test(idOrPrefix) ? keys.filter((k) => k.id === Number(idOrPrefix)) : keys.filter((k) => idOrPrefix.startsWith(k.prefix) || k.prefix.startsWith(idOrPrefix));
    if (matches.length === 0) throw new ScrapelineError("invalid-input", `no API key with id or prefix ${idOrPrefix}`);
    if (matches.length > 1) throw new ScrapelineError("invalid-input", `${matches.length} keys match ${idOrPrefix}; give the id (scrapeline keys list)`);
    tables.revokeKeys([matches[0]!.id]);
    return tables.keys().find((k) => k.id === matches[0]!.id)!;
  });
}

export function listTeams(db: string): Team[] {
  return withServeTables(db, (tables) => tables.teams());
}

/** Changes a team's plan and limits. */
export function updateTeam(db: string, teamName: string, settings: TeamSettings): Team {
  checkSettings(settings);
  return withServeTables(db, (tables) => {
    const team = tables.teamByName(teamName);
    if (!team) throw new ScrapelineError("invalid-input", `no team named ${teamName}; create it with scrapeline keys create --team ${teamName}`);
    tables.updateTeam(team.id, definedOnly(settings));
    return tables.teamByName(teamName)!;
  });
}

/** Replaces the given fields of a team's threat-protection policy; the others stay. */
export function setThreatPolicy(db: string, teamName: string, changes: Partial<ThreatPolicy>): Team {
  const { enabled: _e, enforced: _f, overridesAllowed: _o, ...rules } = definedOnly(changes);
  const errors = readRequestBody("scrape", { url: "https://example.com", threatProtection: rules }).diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new ScrapelineError("invalid-input", `invalid threat-protection policy: ${errors.map((d) => d.message).join("; ")}`);
  return withServeTables(db, (tables) => {
    const team = tables.teamByName(teamName);
    if (!team) throw new ScrapelineError("invalid-input", `no team named ${teamName}; create it with scrapeline keys create --team ${teamName}`);
    tables.updateTeam(team.id, { threatPolicy: { ...team.threatPolicy, ...definedOnly(changes) } });
    return tables.teamByName(teamName)!;
  });
}

function definedOnly<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}
