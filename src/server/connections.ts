import type { Server } from "node:http";
import type { Socket } from "node:net";

export interface ConnectionLimits {
  /** A request's headers must arrive within this (ms). */
  headersTimeoutMs?: number;
  /** A whole request, body included, must arrive within this (ms); a slower one gets 408 and its connection closed. */
  requestTimeoutMs?: number;
  /** Open connections one client address may hold; more are closed as they are accepted. */
  maxConnectionsPerClient?: number;
}

export const DEFAULT_CONNECTION_LIMITS: Required<ConnectionLimits> = { headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, maxConnectionsPerClient: 64 };

/** How often Node checks the two timeouts: often enough that they hold to about a second. */
export function checkingIntervalMs(limits: Required<ConnectionLimits>): number {
  return Math.max(100, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
}

/**
 * Holds a server to the limits: slow requests (a body trickling in, headers never finished) are
 * cut off, and no client address can hold more than its share of connections.
 */
export function applyConnectionLimits(server: Server, limits: Required<ConnectionLimits>): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const client = socket.remoteAddress ?? "";
    const count = (open.get(client) ?? 0) + 1;
    if (count > limits.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once("close", () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
