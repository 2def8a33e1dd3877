// Tables whose calls the PostgreSQL thread makes: each method of a table, on the thread, takes the
// call's connection first and answers asynchronously; on the calling thread it is one bridge call.

import type { Tx } from "./sql.js";

/** A table's methods as the thread makes them. */
export type OnThread<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (tx: Tx, ...args: A) => Promise<R> : never };

/** The operations of a table under the names the bridge calls them by (`prefix.method`). */
export function named<P extends string, T extends Record<string, unknown>>(prefix: P, operations: T): { [K in keyof T & string as `${P}.${K}`]: T[K] } {
  return Object.fromEntries(Object.entries(operations).map(([name, op]) => [`${prefix}.${name}`, op])) as never;
}

/** The calling thread's side of a table: each method makes its call through `call` and returns its answer. */
export function callingSide<T>(prefix: string, operations: OnThread<T>, call: (op: string, args: unknown[]) => unknown): T {
  return Object.fromEntries(Object.keys(operations).map((name) => [name, (...args: unknown[]) => call(`${prefix}.${name}`, args)])) as T;
}
