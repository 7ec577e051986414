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

// The example flow without its Respond node (a sync webhook then answers with the last items), with
// the greeting node's output pinned.
const pinnedFlow = {
  ...exampleFlow,
  nodes: exampleFlow.nodes.filter((n) => n.id !== "respond"),
  edges: exampleFlow.edges.filter((e) => e.to.node !== "respond"),
  pinData: { greet: [{ json: { greeting: "pinned hello" } }] },
};

describe("pinned data in runs", () => {
  it("answers a pinned node from its pin in a manual run, and executes it for a webhook run", async () => {
    const { id } = await t.host.flows.create({ name: "Pinned", definition: pinnedFlow });

    const manual = await t.host.control.startRun(id, {
      payload: { body: { name: "Ada" } },
      channel: "manual",
    });
    const manualRun = await waitForRun(t.host, manual.runId);
    expect(manualRun.status).toBe("succeeded");
    expect(manualRun.steps.find((s) => s.nodeId === "greet")).toMatchObject({
      status: "succeeded",
      reason: "pinned",
    });
    expect(JSON.parse(manualRun.output ?? "null")).toEqual([{ json: { greeting: "pinned hello" } }]);

    await t.host.control.setActive(id, true);
    const res = await fetch(`${t.url}/hooks/hello`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Ada" }),
    });
    expect(await res.json()).toEqual({ greeting: "Hello, Ada" });
    const hookRun = await waitForRun(t.host, res.headers.get("x-switchyard-run-id")!);
    expect(hookRun.status).toBe("succeeded");
    expect(hookRun.steps.find((s) => s.nodeId === "greet")?.reason).toBeNull();
  });

  it("executes a pinned node for a run started through the API channel", async () => {
    const { id } = await t.host.flows.create({ name: "Pinned", definition: pinnedFlow });
    const api = await t.host.control.startRun(id, { payload: { body: { name: "Grace" } }, channel: "api" });
    const run = await waitForRun(t.host, api.runId);
    expect(run.status).toBe("succeeded");
    expect(JSON.parse(run.output ?? "null")).toEqual([{ json: { greeting: "Hello, Grace" } }]);
  });
});
