import { ScrapelineError } from "../../core/index.js";
import type { Reply, Route } from "../router.js";

/** Every answer is 200 (the SDKs take nothing else for a success, the created monitor and the started check too). */
const ok = (data: unknown): Reply => ({ status: 200, body: { success: true, data } });

/** A running check asked to run again is a conflict, not a bad request. */
function conflictAware(work: () => Reply): Reply {
  try {
    return work();
  } catch (error) {
    if (error instanceof ScrapelineError && error.message.startsWith("Conflict:")) return { status: 409, body: { success: false, error: error.message } };
    throw error;
  }
}

/** /v2/monitor: recurring checks of pages, per team, run by this server when due. */
export const monitorRoutes: Route[] = [
  { method: "POST", path: "/v2/monitor", auth: true, limited: true, handle: async (ctx) => ok(await ctx.service.monitors.create(ctx.team, ctx.body)) },
  { method: "GET", path: "/v2/monitor", auth: true, limited: false, handle: (ctx) => ok(ctx.service.monitors.list(ctx.team)) },
  { method: "GET", path: "/v2/monitor/:id", auth: true, limited: false, handle: (ctx) => ok(ctx.service.monitors.get(ctx.team, ctx.params.id!)) },
  { method: "PATCH", path: "/v2/monitor/:id", auth: true, limited: false, handle: async (ctx) => ok(await ctx.service.monitors.update(ctx.team, ctx.params.id!, ctx.body)) },
  {
    method: "DELETE",
    path: "/v2/monitor/:id",
    auth: true,
    limited: false,
    handle: (ctx) => {
      ctx.service.monitors.remove(ctx.team, ctx.params.id!);
      return { status: 200, body: { success: true } };
    },
  },
  { method: "POST", path: "/v2/monitor/:id/run", auth: true, limited: true, handle: (ctx) => conflictAware(() => ok(ctx.service.monitors.runNow(ctx.team, ctx.params.id!))) },
  { method: "GET", path: "/v2/monitor/:id/checks", auth: true, limited: false, handle: (ctx) => ok(ctx.service.monitors.checks(ctx.team, ctx.params.id!)) },
  { method: "GET", path: "/v2/monitor/:id/checks/:checkId", auth: true, limited: false, handle: (ctx) => ok(ctx.service.monitors.check(ctx.team, ctx.params.id!, ctx.params.checkId!)) },
];
