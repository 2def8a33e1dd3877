import type pg from "pg";
import type { Row } from "../rows.js";

/** The connection a call runs on, inside its transaction, with the time the calling store's clock gave. */
export interface Tx {
  client: pg.ClientBase;
  now: string;
}

export async function rows(tx: Tx, text: string, params: unknown[] = []): Promise<Row[]> {
  return (await tx.client.query(text, params)).rows as Row[];
}

export async function row(tx: Tx, text: string, params: unknown[] = []): Promise<Row | undefined> {
  return (await rows(tx, text, params))[0];
}

/** The first column of the first row (undefined when there is no row). */
export async function value<T>(tx: Tx, text: string, params: unknown[] = []): Promise<T | undefined> {
  const result = await tx.client.query({ text, values: params, rowMode: "array" });
  return (result.rows[0] as unknown[] | undefined)?.[0] as T | undefined;
}

/** The first column of every row. */
export async function column<T>(tx: Tx, text: string, params: unknown[] = []): Promise<T[]> {
  const result = await tx.client.query({ text, values: params, rowMode: "array" });
  return (result.rows as unknown[][]).map((r) => r[0] as T);
}

export async function run(tx: Tx, text: string, params: unknown[] = []): Promise<void> {
  await tx.client.query(text, params);
}

/** How many rows a statement changed. */
export async function changes(tx: Tx, text: string, params: unknown[] = []): Promise<number> {
  return (await tx.client.query(text, params)).rowCount ?? 0;
}
