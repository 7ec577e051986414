import type { z } from "zod";
import type { RequestAuth } from "../auth/service";
import type { Host } from "../host";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * Who may call a route. `read` needs the read scope; `write` needs the write scope and an owner or
 * editor account (viewers only read). `public` is for the API's own description.
 */
export type Access = "public" | "read" | "write";

export type Responses = Partial<Record<200 | 201 | 202, z.ZodType>>;

/** What a handler returns: one of its declared statuses with a body of that status's schema. */
export type Reply<R extends Responses> = {
  [K in keyof R & number]: { status: K; body: R[K] extends z.ZodType ? z.input<R[K]> : never };
}[keyof R & number];

export interface RouteContext<P, Q, B> {
  host: Host;
  params: P;
  query: Q;
  body: B;
  /** Null only on public routes. */
  auth: RequestAuth | null;
  /** Aborted when the client goes away (long `?wait=true` requests stop waiting). */
  signal: AbortSignal;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends Responses,
> {
  method: Method;
  /** OpenAPI-style template below `/api/v1`, e.g. `/flows/{id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  params?: P;
  query?: Q;
  /** JSON request body. Omitted for routes that take none. */
  body?: B;
  /** Whether an empty body is refused (default true when `body` is set). */
  bodyRequired?: boolean;
  responses: R;
  /** Audit action of a write route (`flow.created`); every successful write is recorded (default `api.<operationId>`). */
  audit?: string;
  handler(ctx: RouteContext<Out<P>, Out<Q>, Out<B>>): Promise<Reply<R>>;
}

/** A route with its types erased, as the router and the OpenAPI builder see it. */
export interface Route {
  method: Method;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyRequired: boolean;
  responses: Responses;
  audit?: string;
  handler(ctx: RouteContext<unknown, unknown, unknown>): Promise<{ status: number; body: unknown }>;
}

/** Declares one route; type-checks the handler's params, query, body and replies against the schemas. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends Responses = Responses,
>(spec: RouteSpec<P, Q, B, R>): Route {
  return { ...spec, bodyRequired: spec.bodyRequired ?? spec.body !== undefined } as unknown as Route;
}

const names = new WeakMap<z.ZodType, string>();

/** Gives a shared schema its OpenAPI component name (reused wherever the same schema object appears). */
export function named<S extends z.ZodType>(name: string, schema: S): S {
  names.set(schema, name);
  return schema;
}

export function nameOf(schema: z.ZodType): string | undefined {
  return names.get(schema);
}
