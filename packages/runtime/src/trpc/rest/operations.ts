import {
  forEachOpenApiProcedure,
  getPathParameters,
  getPathRegExp,
  type OpenApiMethod,
  type OpenApiProcedureRecord,
} from "trpc-to-openapi";
import type { RestMeta } from "../trpc";
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

/** Every REST operation, read once from the router's meta: the handler, the CLI and the document share it. */
export const operations: readonly Operation[] = (() => {
  const found: Operation[] = [];
  forEachOpenApiProcedure<{ rest?: RestMeta }>(
    appRouter._def.procedures as OpenApiProcedureRecord,
    ({ path, type, meta, procedure }) => {
      const { method, path: template, operationId, protect = true } = meta.openapi;
      if (!operationId) throw new Error(`REST procedure ${path} has no operationId`);
      found.push({
        method,
        path: template,
        operationId,
        procedure: path,
        procedureDef: procedure._def,
        type: type as Operation["type"],
        protect,
        rest: meta.rest ?? {},
        places: {
          params: getPathParameters(template),
          rest: method === "GET" || method === "DELETE" ? "query" : "body",
        },
        // Case-sensitive, unlike trpc-to-openapi's own matcher: `/Flows` is not a route.
        pattern: new RegExp(getPathRegExp(template).source),
      });
    },
  );
  return found;
})();

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
