/**
 * The OpenAPI 3.1 document, generated from the route table: the same zod schemas that parse requests
 * describe them here, so the document cannot drift from the router.
 */
import { z } from "zod";
import type { Route } from "./route";
import { nameOf } from "./route";
import { errorBody } from "./schemas";

type Json = Record<string, unknown>;

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

const errorResponses: Record<string, string> = {
  "400": "Invalid request: every problem is listed in error.details.problems with its path",
  "401": "No valid API key",
  "403": "The key lacks the scope, or the account may not change things (viewer)",
  "404": "Not found",
  "409": "Conflict with the current state",
  "413": "Body too large",
  "415": "Body is not application/json",
};

/** Strips what each standalone conversion adds but a component inside the document must not carry. */
function clean(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** Path/query parameters from an object schema: one parameter per property. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query"): Json[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input" }) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: where,
      required: where === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

export interface OpenApiInfo {
  version: string;
  title?: string;
}

export function buildOpenApiDocument(routes: readonly Route[], info: OpenApiInfo): Json {
  // Requests are described as clients write them (defaults optional), responses as the server sends them.
  const requests = z.registry<{ id: string }>();
  const responses = z.registry<{ id: string }>();
  const claimed = new Map<string, z.ZodType>();
  const register = (reg: typeof requests, schema: z.ZodType, fallback: string) => {
    const id = reg.get(schema)?.id ?? nameOf(schema) ?? fallback;
    const owner = claimed.get(id);
    if (owner && owner !== schema)
      throw new Error(`OpenAPI component ${id} is used for two different schemas`);
    claimed.set(id, schema);
    if (!reg.has(schema)) reg.add(schema, { id });
    return id;
  };
  register(responses, errorBody, "Error");

  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) {
    const statuses = Object.keys(r.responses);
    const ok: Record<string, Json> = {};
    for (const status of statuses) {
      const schema = r.responses[Number(status) as 200]!;
      const suffix = statuses.length > 1 ? status : "";
      const id = register(responses, schema, `${pascal(r.operationId)}Response${suffix}`);
      ok[status] = {
        description: schema.description ?? `${r.summary}: ${status === "202" ? "accepted" : "done"}`,
        content: { "application/json": { schema: ref(id) } },
      };
    }
    const errors = new Set<string>();
    if (r.params || r.query || r.body) errors.add("400");
    if (r.access !== "public") errors.add("401").add("403");
    if (r.params) errors.add("404");
    if (r.operationId === "cancelRun") errors.add("409");
    if (r.body) errors.add("413").add("415");
    for (const status of errors)
      ok[status] = {
        description: errorResponses[status],
        content: { "application/json": { schema: ref("Error") } },
      };
    ok.default = {
      description: "Unexpected error",
      content: { "application/json": { schema: ref("Error") } },
    };

    const op: Json = {
      operationId: r.operationId,
      tags: [r.tag],
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      "x-switchyard-access": r.access,
      security: r.access === "public" ? [] : [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      parameters: [...parameters(r.params, "path"), ...parameters(r.query, "query")],
      responses: ok,
    };
    if (r.body) {
      const id = register(requests, r.body, `${pascal(r.operationId)}Request`);
      op.requestBody = { required: r.bodyRequired, content: { "application/json": { schema: ref(id) } } };
    }
    paths[r.path] ??= {};
    paths[r.path]![r.method.toLowerCase()] = op;
  }

  const uri = (id: string) => `#/components/schemas/${id}`;
  const req = z.toJSONSchema(requests, { io: "input", uri }).schemas as Record<string, Json>;
  const res = z.toJSONSchema(responses, { io: "output", uri }).schemas as Record<string, Json>;
  const schemas: Record<string, Json> = {};
  // One schema object used as both request and response is one component; its response form wins.
  for (const [id, s] of [...Object.entries(req), ...Object.entries(res)]) schemas[id] = clean(s);

  return {
    openapi: "3.1.0",
    info: {
      title: info.title ?? "Switchyard REST API",
      version: info.version,
      description:
        "Manage flows and runs of a Switchyard server. Authenticate with an API key (`Authorization: Bearer <key>` or `X-API-Key: <key>`); " +
        "GET needs the `read` scope, everything else `write` and an owner or editor account. Errors are `{ error: { code, message, details? } }`.",
    },
    servers: [{ url: "/api/v1" }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "API key as a bearer token" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
    },
  };
}
