import { validateFlow } from "@switchyard/engine";
import { registry } from "@switchyard/nodes";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost } from "./test-host";

const flow = (headers: Record<string, string>, body: string) => ({
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path: "page", methods: ["GET"], responseMode: "sync" } },
    { id: "respond", type: "webhook.respond", config: { status: 200, headers, body } },
  ],
  edges: [{ from: { node: "hook", port: "main" }, to: { node: "respond", port: "main" } }],
});

describe("webhook answers cannot act as the app (#18)", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeEach(async () => {
    t = await startTestHost();
  });
  afterEach(async () => {
    await t.close();
  });

  it("serves a flow's HTML page under Content-Security-Policy: sandbox and nosniff, so its script never runs as the app", async () => {
    const { id } = await t.host.flows.create({
      name: "Page",
      definition: flow(
        { "content-type": "text/html; charset=utf-8" },
        "<script>fetch('/api/trpc/user.create')</script>",
      ),
    });
    await t.host.control.setActive(id, true);
    const res = await fetch(`${t.url}/hooks/page`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses a respond node that sets a cookie or a security header, naming the node and field, at save and at activation", async () => {
    const definition = flow(
      { "Set-Cookie": "sid=planted; Path=/", "Content-Security-Policy": "default-src *" },
      "ok",
    );
    const why =
      "webhook answers are served from the app's origin, so cookies, security and framing headers are the server's";
    expect(
      validateFlow(definition, registry).map((p) => ({
        nodeId: p.nodeId,
        field: p.field,
        message: p.message,
      })),
    ).toEqual([
      {
        nodeId: "respond",
        field: "headers.Set-Cookie",
        message: expect.stringContaining(`a flow cannot set the Set-Cookie header: ${why}`),
      },
      {
        nodeId: "respond",
        field: "headers.Content-Security-Policy",
        message: expect.stringContaining(`a flow cannot set the Content-Security-Policy header: ${why}`),
      },
    ]);
    const { id } = await t.host.flows.create({ name: "Page", definition });
    await expect(t.host.control.setActive(id, true)).rejects.toThrow(
      /node "respond".*headers\.Set-Cookie.*a flow cannot set the Set-Cookie header/s,
    );
    expect((await fetch(`${t.url}/hooks/page`)).status).toBe(404);
  });
});
