import type { Route } from "../router.js";

/** POST /v2/search: answered when the search (and the scraping it asks for) is done. */
export const searchRoutes: Route[] = [
  {
    method: "POST",
    path: "/v2/search",
    auth: true,
    limited: true,
    handle: async ({ service, team, body }) => ({ status: 200, body: await service.search(team, body) }),
  },
];
