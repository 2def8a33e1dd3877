import type { Argv, CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { DB_OPTION, integerOption } from "../options.js";
import type { Io } from "../output.js";
import { table } from "../table.js";

type Args = Record<string, unknown> & { db?: string; json?: boolean };

const LIMIT_OPTIONS = {
  "plan-tokens": integerOption("plan-tokens", "tokens per billing period (1 credit = 15 tokens)", { min: 0 }),
  "period-days": integerOption("period-days", "length of a billing period in days", { min: 1 }),
  "rate-limit": integerOption("rate-limit", "work-starting requests per minute", { min: 1 }),
  "max-concurrent-jobs": integerOption("max-concurrent-jobs", "crawl, batch and extract jobs running at once", { min: 1 }),
} as const;

function settings(args: Args) {
  const pick = (name: string) => (typeof args[name] === "number" ? (args[name] as number) : undefined);
  return { planTokens: pick("plan-tokens"), periodDays: pick("period-days"), rateLimit: pick("rate-limit"), maxConcurrentJobs: pick("max-concurrent-jobs") };
}

/** `scrapeline keys create|list|revoke`: API keys of serve's teams (stored hashed). */
export function keysCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "keys <action>",
    describe: "Manage the API keys of scrapeline serve (create, list, revoke)",
    builder: (y: Argv) =>
      y
        .command({
          command: "create",
          describe: "Create a key for a team (and the team, if new); the key is printed once",
          builder: (c: Argv) => c.option("team", { type: "string", demandOption: true, requiresArg: true, describe: "team name" }).options(LIMIT_OPTIONS).option("db", DB_OPTION).option("json", { type: "boolean", default: false }),
          handler: async (args: Args) => {
            const { createKey } = await import("../../app/serve/index.js");
            const created = createKey(databasePath(args.db), String(args.team), settings(args));
            if (args.json) io.stdout(`${JSON.stringify({ id: created.id, key: created.key, team: created.team.name }, null, 2)}\n`);
            else {
              io.stdout(`${created.key}\n`);
              io.stderr(`key ${created.id} for team ${created.team.name}; it is shown only now, keep it safe\n`);
            }
            setExit(EXIT.ok);
          },
        })
        .command({
          command: "list",
          describe: "List keys (never the keys themselves)",
          builder: (c: Argv) => c.option("db", DB_OPTION).option("json", { type: "boolean", default: false }),
          handler: async (args: Args) => {
            const { listKeys } = await import("../../app/serve/index.js");
            const keys = listKeys(databasePath(args.db));
            if (args.json) io.stdout(`${JSON.stringify(keys, null, 2)}\n`);
            else if (keys.length === 0) io.stdout("no keys yet: scrapeline keys create --team NAME\n");
            else io.stdout(table(["id", "team", "prefix", "created", "revoked"], keys.map((k) => [String(k.id), k.team, `${k.prefix}…`, k.createdAt, k.revokedAt ?? "-"]), 3));
            setExit(EXIT.ok);
          },
        })
        .command({
          command: "revoke <key>",
          describe: "Revoke a key by id or prefix",
          builder: (c: Argv) => c.positional("key", { type: "string", describe: "key id or prefix" }).option("db", DB_OPTION),
          handler: async (args: Args) => {
            const { revokeKey } = await import("../../app/serve/index.js");
            const key = revokeKey(databasePath(args.db), String(args.key));
            io.stdout(`revoked key ${key.id} (${key.prefix}…) of team ${key.team}\n`);
            setExit(EXIT.ok);
          },
        })
        .demandCommand(1, "name an action: create, list or revoke") as never,
    handler: () => {},
  };
}

const csv = (value: unknown) => (typeof value === "string" ? value.split(",").map((s) => s.trim()).filter(Boolean) : undefined);

/** `scrapeline teams list|set|policy`: plans, limits and threat-protection policies of serve's teams. */
export function teamsCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "teams <action>",
    describe: "Manage the teams of scrapeline serve (list, set, policy)",
    builder: (y: Argv) =>
      y
        .command({
          command: "list",
          describe: "List teams with their plan, limits and threat-protection policy",
          builder: (c: Argv) => c.option("db", DB_OPTION).option("json", { type: "boolean", default: false }),
          handler: async (args: Args) => {
            const { listTeams } = await import("../../app/serve/index.js");
            const teams = listTeams(databasePath(args.db));
            if (args.json) io.stdout(`${JSON.stringify(teams, null, 2)}\n`);
            else io.stdout(table(["team", "plan tokens", "period", "req/min", "jobs", "threat protection"], teams.map((t) => [t.name, String(t.planTokens), `${t.periodDays} d`, String(t.rateLimit), String(t.maxConcurrentJobs), t.threatPolicy.enabled ? `on${t.threatPolicy.enforced ? ", enforced" : ""}` : "off"]), 3));
            setExit(EXIT.ok);
          },
        })
        .command({
          command: "set",
          describe: "Change a team's plan and limits",
          builder: (c: Argv) => c.option("team", { type: "string", demandOption: true, requiresArg: true }).options(LIMIT_OPTIONS).option("db", DB_OPTION),
          handler: async (args: Args) => {
            const { updateTeam } = await import("../../app/serve/index.js");
            const team = updateTeam(databasePath(args.db), String(args.team), settings(args));
            io.stdout(`${JSON.stringify(team, null, 2)}\n`);
            setExit(EXIT.ok);
          },
        })
        .command({
          command: "policy",
          describe: "Set a team's threat-protection policy (given fields change, the others stay)",
          builder: (c: Argv) =>
            c
              .option("team", { type: "string", demandOption: true, requiresArg: true })
              .option("enabled", { type: "boolean", describe: "threat protection is available to the team" })
              .option("enforced", { type: "boolean", describe: "mode may not be off" })
              .option("overrides-allowed", { type: "boolean", describe: "requests may override the policy" })
              .option("mode", { choices: ["off", "normal"] as const })
              .option("risk-score-threshold", { type: "number" })
              .option("blacklist", { type: "string", describe: "comma-separated domains (example.com, *.example.com)" })
              .option("whitelist", { type: "string", describe: "comma-separated domains" })
              .option("blocked-tlds", { type: "string", describe: "comma-separated TLDs (zip,mov)" })
              .option("failure-policy", { choices: ["open", "closed"] as const })
              .option("db", DB_OPTION),
          handler: async (args: Args) => {
            const { setThreatPolicy } = await import("../../app/serve/index.js");
            const team = setThreatPolicy(databasePath(args.db), String(args.team), {
              ...(typeof args.enabled === "boolean" ? { enabled: args.enabled } : {}),
              ...(typeof args.enforced === "boolean" ? { enforced: args.enforced } : {}),
              ...(typeof args["overrides-allowed"] === "boolean" ? { overridesAllowed: args["overrides-allowed"] } : {}),
              ...(args.mode ? { mode: args.mode as "off" | "normal" } : {}),
              ...(typeof args["risk-score-threshold"] === "number" ? { riskScoreThreshold: args["risk-score-threshold"] } : {}),
              ...(csv(args.blacklist) ? { blacklist: csv(args.blacklist)! } : {}),
              ...(csv(args.whitelist) ? { whitelist: csv(args.whitelist)! } : {}),
              ...(csv(args["blocked-tlds"]) ? { blockedTlds: csv(args["blocked-tlds"])! } : {}),
              ...(args["failure-policy"] ? { failurePolicy: args["failure-policy"] as "open" | "closed" } : {}),
            });
            io.stdout(`${JSON.stringify(team.threatPolicy, null, 2)}\n`);
            setExit(EXIT.ok);
          },
        })
        .demandCommand(1, "name an action: list, set or policy") as never,
    handler: () => {},
  };
}
