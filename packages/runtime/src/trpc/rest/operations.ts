import type { OpenApiMethod } from "trpc-to-openapi";
import type { Meta, RestMeta } from "../trpc";
import { appRouter } from "../routers/app";
import type { InputPlaces } from "./errors";

/** One REST operation: a procedure of the app router with its `openapi` meta. */
export interface Operation {
  method: OpenApiMethod;
  /** Template below `/api/v1`, e.g. `/flows/{id}`. */
  path: string;
  operationId: string;
  /** The procedure's dotted path in the app router (`api.flows.create`). */
  procedure: string;
  /** The procedure's definition (its input and output schemas). */
  procedureDef: unknown;
  type: "query" | "mutation";
  /** Public operations need no credentials; everything else does. */
  protect: boolean;
  rest: RestMeta;
  places: InputPlaces;
  pattern: RegExp;
}

interface ProcedureDef {
  type: "query" | "mutation" | "subscription";
  meta?: Meta;
}

/**
 * Every REST operation, read once from the procedures' `openapi` meta (as trpc-to-openapi's generator
 * reads it): the handler, the CLI and the document share it. trpc-to-openapi itself is only loaded to
 * write the document: every CLI command would otherwise pay for its adapters.
 */
export const operations: readonly Operation[] = Object.entries(
  // Flat at run time, one entry per dotted procedure path (what trpc-to-openapi iterates too).
  appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>,
).flatMap(([procedure, { _def }]): Operation[] => {
  const openapi = _def.meta?.openapi;
  if (!openapi || openapi.enabled === false || _def.type === "subscription") return [];
  const { method, path, operationId, protect = true } = openapi;
  if (!operationId) throw new Error(`REST procedure ${procedure} has no operationId`);
  return [
    {
      method,
      path,
      operationId,
      procedure,
      procedureDef: _def,
      type: _def.type,
      protect,
      rest: _def.meta?.rest ?? {},
      places: {
        params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        rest: method === "GET" || method === "DELETE" ? "query" : "body",
      },
      pattern: new RegExp(
        `^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}$`,
      ),
    },
  ];
});

export function operationById(operationId: string): Operation {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no REST operation ${operationId}`);
  return op;
}

/** Calls an operation's procedure on a caller of the app router. */
export function invoke(caller: ReturnType<typeof appRouter.createCaller>, op: Operation, input: unknown) {
  const fn = op.procedure
    .split(".")
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
    i: unknown,
  ) => Promise<unknown>;
  return fn(input);
}
