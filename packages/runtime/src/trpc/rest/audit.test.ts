import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHost, exampleBody, startApiHost } from "./__tests__/harness";
import { operations } from "./operations";

let t: ApiHost;
beforeAll(async () => {
  t = await startApiHost();
});
afterAll(async () => {
  await t.close();
});

const ownerId = async () =>
  (await t.host.db.prisma.user.findUniqueOrThrow({ where: { email: "owner@example.com" } })).id;
const keyId = async () => (await t.host.db.prisma.apiKey.findFirstOrThrow({ where: { name: "rw" } })).id;
const entries = async () => (await t.host.auth.listAudit({ limit: 200 })).entries.reverse();

describe("audit of REST API writes", () => {
  it("records every write with the API key's user, the key and the target", async () => {
    const before = (await entries()).length;
    const created = await t.api("POST", "/flows", { body: exampleBody("order-triage.json") });
    const flowId = created.json.flow.id as string;
    const { definition } = exampleBody("order-triage.json");
    await t.api("PUT", `/flows/${flowId}`, { body: { name: "Renamed", definition } });
    const run = await t.api("POST", `/flows/${flowId}/runs`, {
      body: { payload: { id: 1, total: 5 }, wait: true },
    });
    const rerun = await t.api("POST", `/runs/${run.json.id}/rerun`);
    await t.api("POST", `/flows/${flowId}/activate`);
    await t.api("POST", `/flows/${flowId}/deactivate`);
    await t.api("POST", "/memory/items", { body: { key: "k", content: "c" } });
    await t.api("DELETE", `/flows/${flowId}`);

    const written = (await entries()).slice(before);
    const actor = await ownerId();
    const apiKeyId = await keyId();
    expect(written.map((e) => [e.action, e.target])).toEqual([
      ["flow.created", flowId],
      ["flow.updated", flowId],
      ["run.started", run.json.id],
      ["run.rerun", rerun.json.runId],
      ["flow.activated", flowId],
      ["flow.deactivated", flowId],
      ["memory.item.added", expect.any(String)],
      ["flow.deleted", flowId],
    ]);
    for (const e of written) {
      expect(e.actorId).toBe(actor);
      expect(e.details).toMatchObject({ via: "api", apiKeyId, operation: expect.any(String) });
    }
  });

  it("records neither reads nor refused writes", async () => {
    const before = (await entries()).length;
    await t.api("GET", "/flows");
    expect((await t.api("POST", "/flows", { body: { name: "x" } })).status).toBe(400);
    expect(
      (await t.api("POST", "/flows", { key: t.keys.readOnly, body: exampleBody("order-triage.json") }))
        .status,
    ).toBe(403);
    expect((await entries()).length).toBe(before);
  });
});

describe("write routes", () => {
  it("each name the audit action they record", () => {
    const unnamed = operations
      .filter((o) => o.type === "mutation" && !o.rest.audit)
      .map((o) => o.operationId);
    expect(unnamed).toEqual([]);
  });
});
