import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHost, conforms, exampleBody, startApiHost } from "./__tests__/harness";

let t: ApiHost;
beforeAll(async () => {
  t = await startApiHost();
});
afterAll(async () => {
  await t.close();
});

const post = (hookPath: string, body: unknown) =>
  fetch(`${t.url}/hooks/${hookPath}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("flows over /api/v1", () => {
  it("creates, reads, lists, renames and versions a flow", async () => {
    const created = await t.api("POST", "/flows", { body: exampleBody("order-triage.json") });
    expect(created.status).toBe(201);
    const detail = conforms("createFlow", created);
    expect(detail.flow).toMatchObject({
      name: "Order triage",
      active: false,
      currentVersion: 1,
      activeVersion: null,
    });
    expect(detail.version).toBe(1);
    const id = detail.flow.id;

    const got = await t.api("GET", `/flows/${id}`);
    expect(conforms("getFlow", got).definition).toMatchObject({
      nodes: expect.any(Array),
      edges: expect.any(Array),
    });

    const list = await t.api("GET", "/flows?search=triage");
    expect(conforms("listFlows", list).flows.map((f: { id: string }) => f.id)).toEqual([id]);
    expect((await t.api("GET", "/flows?search=nothing-like-this")).json.flows).toEqual([]);

    const definition = {
      ...exampleBody("order-triage.json").definition,
      notes: [{ id: "n1", text: "v2", position: { x: 0, y: 0 } }],
    };
    const updated = await t.api("PUT", `/flows/${id}`, { body: { name: "Order triage v2", definition } });
    expect(updated.status).toBe(200);
    expect(conforms("updateFlow", updated)).toMatchObject({
      flow: { name: "Order triage v2", currentVersion: 2 },
      version: 2,
    });

    const v1 = await t.api("GET", `/flows/${id}?version=1`);
    expect(v1.json.version).toBe(1);
    expect(v1.json.definition.notes).toEqual([]);
    const versions = await t.api("GET", `/flows/${id}/versions`);
    expect(
      conforms("listFlowVersions", versions).versions.map((v: { version: number }) => v.version),
    ).toEqual([2, 1]);
    expect(versions.json.versions[0].createdBy).toEqual(expect.any(String));

    const renamed = await t.api("PUT", `/flows/${id}`, { body: { name: "Only the name" } });
    expect(renamed.json).toMatchObject({ flow: { name: "Only the name", currentVersion: 2 } });
  });

  it("activates a webhook flow so its hook answers, and deactivation silences it", async () => {
    const { json } = await t.api("POST", "/flows", { body: exampleBody("hello-webhook.json") });
    const id = json.flow.id;
    expect((await post("examples/hello", { name: "Ada" })).status).toBe(404);

    const activated = await t.api("POST", `/flows/${id}/activate`);
    expect(activated.status).toBe(200);
    expect(conforms("activateFlow", activated)).toMatchObject({ id, active: true, activeVersion: 1 });
    const res = await post("examples/hello", { name: "Ada" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ greeting: "Hello, Ada" });

    const deactivated = await t.api("POST", `/flows/${id}/deactivate`);
    expect(conforms("deactivateFlow", deactivated)).toMatchObject({ active: false, activeVersion: null });
    expect((await post("examples/hello", { name: "Ada" })).status).toBe(404);
  });

  it("deletes a flow, its hook stops and the flow is gone", async () => {
    const { json } = await t.api("POST", "/flows", {
      body: { ...exampleBody("hello-webhook.json"), name: "to delete" },
    });
    const id = json.flow.id;
    await t.api("POST", `/flows/${id}/activate`);
    const deleted = await t.api("DELETE", `/flows/${id}`);
    expect(conforms("deleteFlow", deleted)).toEqual({ id, deleted: true });
    expect((await t.api("GET", `/flows/${id}`)).status).toBe(404);
    expect((await post("examples/hello", {})).status).toBe(404);
    expect((await t.api("DELETE", `/flows/${id}`)).json.error.code).toBe("not_found");
  });

  it("answers 404 with the error shape for unknown flows and versions", async () => {
    for (const [method, p] of [
      ["GET", "/flows/nope"],
      ["PUT", "/flows/nope"],
      ["DELETE", "/flows/nope"],
      ["POST", "/flows/nope/activate"],
      ["POST", "/flows/nope/deactivate"],
      ["GET", "/flows/nope/versions"],
      ["POST", "/flows/nope/runs"],
    ] as const) {
      const res = await t.api(method, p, method === "PUT" ? { body: { name: "x" } } : {});
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.json.error).toEqual({ code: "not_found", message: expect.stringContaining("nope") });
    }
    const { json } = await t.api("POST", "/flows", { body: exampleBody("order-triage.json") });
    const res = await t.api("GET", `/flows/${json.flow.id}?version=9`);
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/no version 9/);
    // Running a version the flow never had is the same 404 (it was a 400).
    const run = await t.api("POST", `/flows/${json.flow.id}/runs`, { body: { version: 9 } });
    expect(run.status).toBe(404);
    expect(run.json.error).toEqual({
      code: "not_found",
      message: `flow ${json.flow.id} version 9 not found`,
    });
  });
});

describe("flow validation", () => {
  it("lists every schema problem of a malformed body with its path and stores nothing", async () => {
    const before = (await t.api("GET", "/flows")).json.flows.length;
    const res = await t.api("POST", "/flows", {
      body: {
        name: "",
        definition: {
          nodes: [{ id: "", type: "trigger.manual" }, { type: "data.set" }],
          edges: [{ from: { node: "a" } }],
          settings: { concurrency: 0 },
        },
        extra: true,
      },
    });
    expect(res.status).toBe(400);
    conforms("createFlow", res);
    expect(res.json.error.code).toBe("invalid_request");
    const paths = res.json.error.details.problems.map((p: { path: string }) => p.path).sort();
    expect(paths).toEqual(
      [
        "body",
        "body.name",
        "body.definition.nodes.0.id",
        "body.definition.nodes.1.id",
        "body.definition.edges.0.to",
        "body.definition.settings.concurrency",
      ].sort(),
    );
    expect(res.json.error.details.problems.find((p: { path: string }) => p.path === "body").message).toMatch(
      /extra/,
    );
    expect((await t.api("GET", "/flows")).json.flows.length).toBe(before);
  });

  it("refuses a well-formed flow the engine finds problems in, naming each node by its path", async () => {
    const body = exampleBody("order-triage.json");
    const definition = structuredClone(body.definition) as {
      nodes: { id: string; type: string; config: Record<string, unknown> }[];
      edges: unknown[];
    };
    definition.nodes[1]!.config = { condition: "=item.total >" };
    definition.nodes[2]!.type = "no.such.type";
    definition.edges.push({ from: { node: "normal", port: "main" }, to: { node: "ghost", port: "main" } });
    const res = await t.api("POST", "/flows", { body: { name: "broken", definition } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_flow");
    const problems = res.json.error.details.problems as { path: string; code: string; nodeId?: string }[];
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: "expression_invalid",
          nodeId: "big",
          path: expect.stringMatching(/^body\.definition\.nodes\.1\.config\.condition/),
        }),
        expect.objectContaining({
          code: "unknown_node_type",
          nodeId: "high",
          path: "body.definition.nodes.2",
        }),
        expect.objectContaining({ code: "dangling_edge", path: "body.definition.edges.3" }),
      ]),
    );
  });

  it("refuses a PUT with an invalid definition and keeps the current version", async () => {
    const { json } = await t.api("POST", "/flows", { body: exampleBody("order-triage.json") });
    const res = await t.api("PUT", `/flows/${json.flow.id}`, { body: { definition: { nodes: [] } } });
    expect(res.status).toBe(400);
    expect(res.json.error.details.problems).toEqual([
      expect.objectContaining({ code: "no_trigger", path: "body.definition" }),
    ]);
    expect((await t.api("GET", `/flows/${json.flow.id}`)).json.version).toBe(1);
    const empty = await t.api("PUT", `/flows/${json.flow.id}`, { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json.error.details.problems).toEqual([
      { path: "body", message: "send a name, a definition or both" },
    ]);
  });

  it("refuses to activate a stored version with problems and lists them", async () => {
    // Drafts with problems can be saved through the editor; activation is where they are stopped.
    const { id } = await t.host.flows.create({
      name: "draft",
      definition: { nodes: [{ id: "x", type: "data.set", config: {} }], edges: [] },
    });
    const res = await t.api("POST", `/flows/${id}/activate`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_flow");
    expect(res.json.error.details.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: "no_trigger", path: "definition" })]),
    );
    expect((await t.host.flows.get(id))?.active).toBe(false);
  });
});
