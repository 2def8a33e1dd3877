import type { Route } from "../router.js";

/** The agent: POST starts a job (`{success, id}`), GET polls it, DELETE cancels it; per team. */
export const agentRoutes: Route[] = [
  { method: "POST", path: "/v2/agent", auth: true, limited: true, handle: ({ service, team, body }) => ({ status: 200, body: { success: true, ...service.startAgent(team, body) } }) },
  {
    method: "GET",
    path: "/v2/agent",
    auth: true,
    limited: false,
    handle: ({ service, team, query, baseUrl }) => {
      const raw = query.get("before");
      const before = raw === null ? undefined : Number(raw);
      if (before !== undefined && !Number.isFinite(before)) return { status: 400, body: { success: false, error: "Bad request: before must be a unix time in milliseconds" } };
      const { agents, nextBefore } = service.listAgents(team, before);
      return { status: 200, body: { success: true, agents, ...(nextBefore !== undefined ? { next: `${baseUrl}/v2/agent?before=${nextBefore}` } : {}) } };
    },
  },
  { method: "GET", path: "/v2/agent/:id", auth: true, limited: false, handle: ({ service, team, params }) => ({ status: 200, body: service.agentStatus(team, params.id!) }) },
  {
    method: "DELETE",
    path: "/v2/agent/:id",
    auth: true,
    limited: false,
    handle: ({ service, team, params }) => {
      service.cancelAgent(team, params.id!);
      return { status: 200, body: { success: true, status: "cancelled" } };
    },
  },
];
