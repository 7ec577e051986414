import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { version } from "../../version";
import { openApiDocument } from "./document";
import { operations } from "./operations";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;
const doc: Json = await openApiDocument();
const methods = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

/** Every `$ref` anywhere in a value. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

function resolve(pointer: string): unknown {
  expect(pointer.startsWith("#/")).toBe(true);
  return pointer
    .slice(2)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<Json>((node, key) => (node == null ? undefined : node[key]), doc);
}

describe("the OpenAPI document", () => {
  it("passes a real OpenAPI 3.1 schema validator", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes exactly the routes the router serves", () => {
    const documented = Object.entries(doc.paths as Record<string, Json>)
      .flatMap(([p, item]) =>
        Object.keys(item)
          .filter((k) => methods.includes(k))
          .map((m) => `${m.toUpperCase()} ${p}`),
      )
      .sort();
    const served = [...operations.map((o) => `${o.method} ${o.path}`), "GET /openapi.json"].sort();
    expect(documented).toEqual(served);
    expect(served).toEqual(
      expect.arrayContaining([
        "GET /flows",
        "POST /flows",
        "GET /flows/{id}",
        "PUT /flows/{id}",
        "DELETE /flows/{id}",
        "POST /flows/{id}/activate",
        "POST /flows/{id}/deactivate",
        "GET /flows/{id}/versions",
        "POST /flows/{id}/runs",
        "GET /runs",
        "GET /runs/{id}",
        "POST /runs/{id}/cancel",
        "POST /runs/{id}/rerun",
        "GET /memory/search",
        "POST /memory/items",
        "GET /schema/flow.json",
        "GET /openapi.json",
      ]),
    );
  });

  it("has the structure OpenAPI 3.1 requires", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: expect.any(String), version });
    expect(doc.servers).toEqual([{ url: "/api/v1" }]);
    const tagNames = new Set(doc.tags.map((t: Json) => t.name));
    const operationIds = new Set<string>();
    for (const [p, item] of Object.entries(doc.paths as Record<string, Json>)) {
      expect(p.startsWith("/")).toBe(true);
      const templated = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item as Record<string, Json>)) {
        expect(methods).toContain(method);
        expect(typeof op.operationId).toBe("string");
        expect(operationIds.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        operationIds.add(op.operationId);
        for (const tag of op.tags) expect(tagNames.has(tag)).toBe(true);
        // Every templated segment is a required path parameter, and only those are path parameters.
        const parameters = op.parameters ?? [];
        const pathParams = parameters.filter((x: Json) => x.in === "path");
        expect(pathParams.map((x: Json) => x.name).sort()).toEqual([...templated].sort());
        for (const param of parameters) {
          expect(["path", "query", "header", "cookie"]).toContain(param.in);
          expect(typeof param.name).toBe("string");
          expect(typeof param.schema).toBe("object");
          if (param.in === "path") expect(param.required).toBe(true);
        }
        const statuses = Object.keys(op.responses);
        expect(
          statuses.some((s) => /^2\d\d$/.test(s)),
          `${method} ${p} has a success response`,
        ).toBe(true);
        for (const s of statuses) {
          expect(s === "default" || /^[1-5]\d\d$/.test(s)).toBe(true);
          expect(typeof op.responses[s].description).toBe("string");
        }
        for (const sec of op.security ?? [])
          for (const name of Object.keys(sec)) expect(doc.components.securitySchemes[name]).toBeDefined();
        if (op.requestBody) expect(op.requestBody.content["application/json"].schema).toBeDefined();
      }
    }
  });

  it("resolves every $ref inside the document", () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(20);
    for (const r of all) expect(resolve(r), r).toBeTypeOf("object");
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) {
      expect(schema.$schema, name).toBeUndefined();
      expect(schema.$id, name).toBeUndefined();
    }
  });

  it("is generated from the zod schemas the procedures parse with", () => {
    const createFlow = doc.paths["/flows"].post;
    const schema = createFlow.requestBody.content["application/json"].schema;
    const body = (schema.$ref ? resolve(schema.$ref) : schema) as Json;
    expect(body.required).toEqual(["name", "definition"]);
    expect(body.additionalProperties).toBe(false);
    const listRuns = doc.paths["/runs"].get;
    const status = listRuns.parameters.find((x: Json) => x.name === "status");
    expect(status.required ?? false).toBe(false);
    expect(status).toMatchObject({
      in: "query",
      schema: { enum: ["queued", "running", "waiting", "succeeded", "failed", "cancelled", "timed_out"] },
    });
    expect(Object.keys(createFlow.responses)).toContain("201");
    expect(Object.keys(createFlow.responses)).not.toContain("200");
    const runFlow = doc.paths["/flows/{id}/runs"].post;
    expect(Object.keys(runFlow.responses)).toEqual(expect.arrayContaining(["200", "202", "401", "403"]));
    expect(runFlow.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(doc.paths["/openapi.json"].get.security ?? []).toEqual([]);
    expect(doc.paths["/openapi.json"].get["x-switchyard-access"]).toBe("public");
    expect(runFlow["x-switchyard-access"]).toBe("write");
    expect(doc.paths["/runs"].get["x-switchyard-access"]).toBe("read");
  });

  it("describes every error answer with the one error shape", () => {
    for (const item of Object.values(doc.paths as Record<string, Json>))
      for (const op of Object.values(item as Record<string, Json>))
        for (const [s, response] of Object.entries(op.responses as Record<string, Json>))
          if (Number(s) >= 400)
            expect(response.content["application/json"].schema).toEqual({
              $ref: "#/components/schemas/Error",
            });
    expect(Object.keys(doc.components.schemas).filter((n) => n.startsWith("error."))).toEqual([]);
  });
});
