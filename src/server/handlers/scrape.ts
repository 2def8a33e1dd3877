import { isScrapelineError } from "../../core/index.js";
import type { Reply, Route } from "../router.js";

/** A map that found nothing in its `timeout` is the service's 408 MAP_TIMEOUT ("Map timed out"), our reason after it. */
async function mapReply(work: () => Promise<Record<string, unknown>>): Promise<Reply> {
  try {
    return { status: 200, body: { success: true, ...(await work()) } };
  } catch (error) {
    if (isScrapelineError(error, "timeout")) return { status: 408, body: { success: false, code: "MAP_TIMEOUT", error: `Map timed out: ${error.message}` } };
    throw error;
  }
}

/** POST /v2/scrape and POST /v2/map: answered when the work is done. */
export const scrapeRoutes: Route[] = [
  {
    method: "POST",
    path: "/v2/scrape",
    auth: true,
    limited: true,
    handle: async ({ service, team, body }) => ({ status: 200, body: { success: true, data: await service.scrape(team, body) } }),
  },
  {
    method: "GET",
    path: "/v2/scrape/:id",
    auth: true,
    limited: false,
    handle: ({ service, team, params }) => ({ status: 200, body: { success: true, data: service.scrapeResult(team, params.id!) } }),
  },
  {
    method: "POST",
    path: "/v2/map",
    auth: true,
    limited: true,
    handle: ({ service, team, body }) => mapReply(async () => ({ ...(await service.map(team, body)) })),
  },
];
