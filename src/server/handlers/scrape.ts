import type { Route } from "../router.js";

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
    handle: async ({ service, team, body }) => ({ status: 200, body: { success: true, ...(await service.map(team, body)) } }),
  },
];
