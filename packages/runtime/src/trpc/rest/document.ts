import type { OpenApiRouter } from "trpc-to-openapi";
import { z } from "zod";
import { version } from "../../version";
import { appRouter } from "../routers/app";
import { operations } from "./operations";
import { errorBody } from "./schemas";

// biome-ignore lint/suspicious/noExplicitAny: the generated document is adjusted as plain JSON
type Json = any;

const errorRef = { $ref: "#/components/schemas/Error" };

/** The document itself, described beside the procedures (it is served before them, to anyone). */
const documentPath = {
  "/openapi.json": {
    get: {
      operationId: "getOpenApi",
      tags: ["Schema"],
      summary: "This API's OpenAPI 3.1 document",
      description: "Public: it describes the API, not the data behind it.",
      responses: {
        200: {
          description: "An OpenAPI 3.1 document",
          content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
        },
      },
    },
  },
};

/**
 * trpc-to-openapi writes every success as 200 and its own error body; this API answers 201/202 where
 * the procedure's `rest.status` says so, and errors in the one shape (`Error`). Each operation also
 * says who may call it (`x-switchyard-access`: public, read or write).
 */
function adjust(doc: Json): Json {
  for (const op of operations) {
    const operation = doc.paths[op.path][op.method.toLowerCase()];
    const ok = operation.responses["200"];
    if (typeof op.rest.status === "number") {
      delete operation.responses["200"];
      operation.responses[String(op.rest.status)] = ok;
    } else if (typeof op.rest.status === "function") {
      operation.responses["202"] = { ...ok, description: "Accepted: the run is still going" };
    }
    for (const [status, response] of Object.entries<Json>(operation.responses)) {
      if (Number(status) < 400) continue;
      operation.responses[status] = {
        description: response.description,
        content: { "application/json": { schema: errorRef } },
      };
    }
  }
  // What the app's /api-docs page shows beside each operation, and the list it walks (never absent).
  for (const item of Object.values<Json>(doc.paths))
    for (const operation of Object.values<Json>(item)) {
      operation.parameters ??= [];
      const op = operations.find((o) => o.operationId === operation.operationId);
      operation["x-switchyard-access"] = !op ? "public" : op.type === "query" ? "read" : "write";
    }
  for (const name of Object.keys(doc.components.schemas ?? {}))
    if (name.startsWith("error.")) delete doc.components.schemas[name];
  return doc;
}

let cached: Promise<Json> | undefined;

async function build(): Promise<Json> {
  const { generateOpenApiDocument } = await import("trpc-to-openapi");
  return adjust(
    generateOpenApiDocument(appRouter as unknown as OpenApiRouter, {
      title: "Switchyard REST API",
      description: "Flows, runs and memory over HTTP. See docs/api.md.",
      version,
      baseUrl: "/api/v1",
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API key: `Authorization: Bearer <key>`" },
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "An API key" },
      },
      tags: ["Flows", "Runs", "Memory", "Schema"],
      paths: documentPath,
      defs: { Error: errorBody },
    }),
  );
}

/** `GET /api/v1/openapi.json`, generated from the app router's REST procedures (built once per process). */
export async function openApiDocument(): Promise<Json> {
  cached ??= build();
  return structuredClone(await cached);
}
