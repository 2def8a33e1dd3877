import { isScrapelineError } from "../../core/index.js";
import type { Reply, RequestContext, Route } from "../router.js";

/** `prompt` (a model driving the page) is not served: 501 naming it; everything else as errors usually are. */
async function answer(work: () => Promise<Record<string, unknown>>): Promise<Reply> {
  try {
    return { status: 200, body: { success: true, ...(await work()) } };
  } catch (error) {
    if (isScrapelineError(error, "unsupported") && error.status === 501) return { status: 501, body: { success: false, code: "NOT_IMPLEMENTED", error: error.message } };
    throw error;
  }
}

const id = (ctx: RequestContext) => ctx.params.id ?? "";

/**
 * Browser sessions: POST /v2/browser opens one, …/execute runs code on its page (only when serve
 * was started with --allow-code-execution), DELETE closes it; /v2/scrape/{id}/interact carries on
 * from a scrape's page.
 */
export const browserRoutes: Route[] = [
  {
    method: "POST",
    path: "/v2/browser",
    auth: true,
    limited: true,
    handle: ({ service, team, body }) => answer(() => service.browser.create(team, body)),
  },
  {
    method: "GET",
    path: "/v2/browser",
    auth: true,
    limited: false,
    // Closed sessions are not kept: ?status=destroyed lists none.
    handle: ({ service, team, query }) => ({ status: 200, body: { success: true, sessions: query.get("status") === "destroyed" ? [] : service.browser.list(team) } }),
  },
  {
    method: "POST",
    path: "/v2/browser/:id/execute",
    auth: true,
    limited: true,
    handle: (ctx) => answer(async () => ({ ...(await ctx.service.browser.execute(ctx.team, id(ctx), ctx.body)) })),
  },
  {
    method: "DELETE",
    path: "/v2/browser/:id",
    auth: true,
    limited: false,
    handle: (ctx) => answer(async () => (await ctx.service.browser.close(ctx.team, id(ctx)), {})),
  },
  {
    method: "POST",
    path: "/v2/scrape/:id/interact",
    auth: true,
    limited: true,
    handle: (ctx) => answer(async () => ({ ...(await ctx.service.browser.interact(ctx.team, id(ctx), ctx.body)) })),
  },
  {
    method: "DELETE",
    path: "/v2/scrape/:id/interact",
    auth: true,
    limited: false,
    handle: (ctx) => answer(async () => (await ctx.service.browser.stopInteract(ctx.team, id(ctx)), {})),
  },
];
