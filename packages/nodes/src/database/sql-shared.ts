import type { Item } from "@switchyard/engine";
import { z } from "zod";
import { NodeError } from "../errors";

/**
 * The config of the SQL nodes. The statement is fixed text (a raw field: expressions in it are never
 * evaluated), so values can only reach the server as parameters; `params` may hold expressions,
 * resolved once per input item.
 */
export function sqlConfig(placeholders: string) {
  return z.object({
    credentialId: z.string().min(1).describe("Database credential"),
    query: z
      .string()
      .min(1)
      .describe(`The SQL statement; values go in as parameters (${placeholders}), never into this text`),
    params: z
      .array(z.unknown())
      .default([])
      .describe("Parameter values in placeholder order; expressions are evaluated per item"),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(30_000)
      .describe("Connection and statement timeout, in ms"),
  });
}

/** Values a driver can bind: JSON scalars, with objects and arrays sent as JSON text. */
function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (v !== null && typeof v === "object" && !(v instanceof Date)) return JSON.stringify(v);
  return v;
}

/** The parameter values for each input item (one set when there are no items). */
export async function statementParams(
  params: unknown[],
  input: Item[],
  resolveForItem: ((value: unknown, item: Item | undefined) => Promise<unknown>) | undefined,
  nodeId: string,
): Promise<unknown[][]> {
  const items: (Item | undefined)[] = input.length > 0 ? input : [undefined];
  const out: unknown[][] = [];
  for (const item of items) {
    const resolved = resolveForItem ? await resolveForItem(params, item) : params;
    if (!Array.isArray(resolved))
      throw new NodeError("config_invalid", `node "${nodeId}" field "params": expected a list of values`, {
        nodeId,
        retryable: false,
        field: "params",
      });
    out.push(resolved.map(bindable));
  }
  return out;
}

/** Rows as items, or one `{ affectedRows }` item for a statement that returns no rows. */
export function rowItems(rows: Record<string, unknown>[] | undefined, affectedRows: number): Item[] {
  if (!rows) return [{ json: { affectedRows } }];
  return rows.map((row) => ({ json: plainRow(row) }));
}

/** Driver values as JSON: dates as ISO text, binary as base64, 64-bit integers as text. */
function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v instanceof Date) out[k] = Number.isNaN(v.getTime()) ? null : v.toISOString();
    else if (Buffer.isBuffer(v)) out[k] = v.toString("base64");
    else if (typeof v === "bigint") out[k] = v.toString();
    else out[k] = v;
  }
  return out;
}
