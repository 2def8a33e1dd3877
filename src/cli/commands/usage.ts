import type { CommandModule } from "yargs";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output.js";

interface Args {
  json: boolean;
  "api-url"?: string;
  "api-key-env": string;
}

export function usageCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "usage",
    describe: "The team's remaining tokens on the service, and the credits they are worth",
    builder: (y) =>
      y
        .option("api-url", { type: "string", describe: "the service's base URL (default $FIRECRAWL_API_URL, else the hosted service)" })
        .option("api-key-env", { type: "string", default: "FIRECRAWL_API_KEY", describe: "the environment variable holding the API key" })
        .option("json", { type: "boolean", default: false, describe: "print JSON" })
        .example("FIRECRAWL_API_KEY=fc-... $0 usage", "remaining tokens of the hosted service") as never,
    handler: async (args) => {
      const { serviceUsage } = await import("../../app/run/index.js");
      const report = await serviceUsage({ apiKeyEnv: args["api-key-env"], ...(args["api-url"] ? { baseUrl: args["api-url"] } : {}) }, process.env);
      if (args.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      else {
        const period = report.billingPeriodStart && report.billingPeriodEnd ? ` (billing period ${report.billingPeriodStart} – ${report.billingPeriodEnd})` : "";
        const plan = report.planTokens !== undefined ? ` of ${report.planTokens}` : "";
        io.stdout(`${report.baseUrl}: ${report.remainingTokens}${plan} tokens left = ${report.remainingCredits} credits (15 tokens per credit)${period}\n`);
      }
      setExit(EXIT.ok);
    },
  };
}
