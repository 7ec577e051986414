import { z } from "zod";
import { version } from "../../version";
import { flowFileJsonSchema } from "../flow-file";
import { buildOpenApiDocument } from "../openapi";
import { defineRoute, type Route } from "../route";
import { flowRoutes } from "./flows";
import { memoryRoutes } from "./memory";
import { runRoutes } from "./runs";

const jsonObject = z.record(z.string(), z.unknown());

const schemaRoute = defineRoute({
  method: "GET",
  path: "/schema/flow.json",
  operationId: "getFlowSchema",
  tag: "Schema",
  summary: "JSON Schema of the flow file format",
  description:
    "Point an editor's `$schema` at this for completion while writing flow files (docs/flow-format.md).",
  access: "read",
  responses: { 200: jsonObject.describe("A JSON Schema (draft 2020-12)") },
  async handler() {
    return { status: 200 as const, body: flowFileJsonSchema() };
  },
});

let document: Record<string, unknown> | undefined;

const openApiRoute = defineRoute({
  method: "GET",
  path: "/openapi.json",
  operationId: "getOpenApi",
  tag: "Schema",
  summary: "This API's OpenAPI 3.1 document",
  description: "Public: it describes the API, not the data behind it.",
  access: "public",
  responses: { 200: jsonObject.describe("An OpenAPI 3.1 document") },
  async handler() {
    document ??= buildOpenApiDocument(apiRoutes, { version });
    return { status: 200 as const, body: document };
  },
});

/** The route table, declared once: the router serves it and the OpenAPI document describes it. */
export const apiRoutes: readonly Route[] = [
  ...flowRoutes,
  ...runRoutes,
  ...memoryRoutes,
  schemaRoute,
  openApiRoute,
];
