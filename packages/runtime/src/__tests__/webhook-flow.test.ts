import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exampleFlow } from "../seed";
import { startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => {
  await t.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${t.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("webhook → flow → response", () => {
  it("serves the example flow once activated and records the run with its steps", async () => {
    const { id } = await t.host.flows.create({ name: "Hello", definition: exampleFlow });
    expect((await post("/hooks/hello", { name: "Ada" })).status).toBe(404);

    await t.host.control.setActive(id, true);
    const res = await post("/hooks/hello", { name: "Ada" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ greeting: "Hello, Ada" });
    const runId = res.headers.get("x-switchyard-run-id")!;
    const run = await waitForRun(t.host, runId);
    expect(run.status).toBe("succeeded");
    expect(run.channel).toBe("webhook");
    expect(run.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ["webhook", "succeeded"],
      ["greet", "succeeded"],
      ["respond", "succeeded"],
    ]);
  });

  it("stops answering the moment the flow is deactivated and answers on a new path after an edit", async () => {
    const { id } = await t.host.flows.create({ name: "Hello", definition: exampleFlow });
    await t.host.control.setActive(id, true);
    expect((await post("/hooks/hello", {})).status).toBe(200);

    await t.host.control.setActive(id, false);
    expect((await post("/hooks/hello", {})).status).toBe(404);

    await t.host.control.setActive(id, true);
    const edited = structuredClone(exampleFlow) as { nodes: { config: Record<string, unknown> }[] };
    edited.nodes[0]!.config = { ...edited.nodes[0]!.config, path: "greet/v2" };
    await t.host.flows.saveVersion(id, edited);
    await t.host.control.afterSave(id);
    expect((await post("/hooks/hello", {})).status).toBe(404);
    const res = await post("/hooks/greet/v2", { name: "Grace" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ greeting: "Hello, Grace" });
  });

  it("refuses a saved version whose trigger cannot listen and keeps the previous version serving", async () => {
    const withPath = (path: string) => {
      const flow = structuredClone(exampleFlow) as { nodes: { config: Record<string, unknown> }[] };
      flow.nodes[0]!.config = { ...flow.nodes[0]!.config, path };
      return flow;
    };
    const a = await t.host.flows.create({ name: "A", definition: withPath("col/a") });
    const b = await t.host.flows.create({ name: "B", definition: withPath("col/b") });
    await t.host.control.setActive(a.id, true);
    await t.host.control.setActive(b.id, true);
    // Version 2 of A asks for B's path: it used to be pinned and served nothing, while A still showed as active.
    await t.host.flows.saveVersion(a.id, withPath("col/b"));
    await expect(t.host.control.afterSave(a.id)).rejects.toThrow(
      `version 2 is saved but not served: trigger webhook: webhook path /hooks/col/b is already used by flow ${b.id}`,
    );
    expect(await t.host.flows.get(a.id)).toMatchObject({ active: true, currentVersion: 2, activeVersion: 1 });
    expect((await post("/hooks/col/a", { name: "Ada" })).status).toBe(200);
    expect((await post("/hooks/col/b", { name: "Grace" })).status).toBe(200);
    expect(t.host.services.triggers.health(a.id)).toMatchObject({ status: "listening" });
  });

  it("refuses to activate a flow whose trigger config is invalid, leaving it inactive", async () => {
    const broken = structuredClone(exampleFlow) as { nodes: { config: Record<string, unknown> }[] };
    broken.nodes[0]!.config = { ...broken.nodes[0]!.config, path: "bad path!" };
    const { id } = await t.host.flows.create({ name: "Broken", definition: broken });
    await expect(t.host.control.setActive(id, true)).rejects.toThrow(/^cannot activate: /);
    expect((await t.host.flows.get(id))?.active).toBe(false);
  });
});

describe("first start", () => {
  it("seeds the example flow active, so its webhook answers right away", async () => {
    const fresh = await startTestHost({}, { seed: true });
    try {
      const res = await fetch(`${fresh.url}/hooks/hello`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Ada" }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ greeting: "Hello, Ada" });
    } finally {
      await fresh.close();
    }
  });
});

describe("listen for a test event", () => {
  it("hands the next /hooks-test/ request to the editor and stops listening after it", async () => {
    const t2 = await startTestHost();
    try {
      const { id } = await t2.host.flows.create({ name: "Draft", definition: exampleFlow });
      const listening = t2.host.control.listenForTestEvent(id, 10_000);
      // The listener binds after reading the flow: until then the test path answers 404, so ask again.
      const send = () =>
        fetch(`${t2.url}/hooks-test/hello`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Test" }),
        });
      let res = await send();
      for (let i = 0; res.status === 404 && i < 400; i++) {
        await new Promise((r) => setTimeout(r, 10));
        res = await send();
      }
      expect(res.status).toBe(200);
      expect(await listening).toMatchObject({ method: "POST", body: { name: "Test" } });
      expect((await fetch(`${t2.url}/hooks-test/hello`, { method: "POST", body: "{}" })).status).toBe(404);
      expect((await t2.host.runs.list({ flowId: id })).runs).toEqual([]);
    } finally {
      await t2.close();
    }
  });
});

describe("client addresses", () => {
  it("replaces a client-sent X-Forwarded-For with the socket address unless a proxy is trusted", async () => {
    const { id } = await t.host.flows.create({ name: "Hello", definition: exampleFlow });
    await t.host.control.setActive(id, true);
    const res = await fetch(`${t.url}/hooks/hello`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
      body: "{}",
    });
    const run = await waitForRun(t.host, res.headers.get("x-switchyard-run-id")!);
    const headers = JSON.parse(run.triggerPayload).headers as Record<string, string>;
    expect(headers["x-forwarded-for"]).toMatch(/127\.0\.0\.1/);
  });
});
