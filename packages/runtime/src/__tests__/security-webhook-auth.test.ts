import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startApiHost } from "../trpc/rest/__tests__/harness";
import type { WebhookConfig } from "../triggers/webhook/registry";
import { sqliteOf, startTestHost } from "./test-host";

const hookFlow = (auth: unknown) => ({
  nodes: [{ id: "hook", type: "trigger.webhook", config: { path: "guarded", auth } }],
  edges: [],
});

describe("webhook auth fails closed (#18)", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  let secretId: string;
  let basicId: string;
  beforeEach(async () => {
    t = await startTestHost();
    secretId = (
      await t.host.services.vault.create({
        name: "Webhook secret",
        type: "webhookSecret",
        data: { secret: "s3cret" },
      })
    ).id;
    basicId = (
      await t.host.services.vault.create({
        name: "Basic",
        type: "httpBasic",
        data: { user: "ada", password: "pw", allowedHosts: "example.com" },
      })
    ).id;
  });
  afterEach(async () => {
    await t.close();
  });
  const runCount = () =>
    (sqliteOf(t.host).prepare(`SELECT count(*) AS n FROM "Run"`).get() as { n: number }).n;

  it("refuses to activate basic auth given a Webhook secret credential, naming the node and field", async () => {
    const { id } = await t.host.flows.create({
      name: "Guarded",
      definition: hookFlow({ type: "basic", credentialId: secretId }),
    });
    await expect(t.host.control.setActive(id, true)).rejects.toThrow(
      `cannot activate: node "hook" field "auth.credentialId": credential ${secretId} is of type webhookSecret; basic auth needs one of type httpBasic`,
    );
    expect((await t.host.flows.get(id))?.active).toBe(false);
    expect((await fetch(`${t.url}/hooks/guarded`, { method: "POST" })).status).toBe(404);
  });

  it("refuses to activate header auth given an HTTP basic credential, naming the node and field", async () => {
    const { id } = await t.host.flows.create({
      name: "Guarded",
      definition: hookFlow({ type: "header", name: "X-Token", credentialId: basicId }),
    });
    await expect(t.host.control.setActive(id, true)).rejects.toThrow(
      `cannot activate: node "hook" field "auth.credentialId": credential ${basicId} is of type httpBasic; header auth needs one of type webhookSecret, httpHeader, httpBearer`,
    );
  });

  it("refuses to save a misfitting credential into an active flow, which keeps serving its previous version", async () => {
    const { id } = await t.host.flows.create({
      name: "Guarded",
      definition: hookFlow({ type: "header", name: "X-Token", credentialId: secretId }),
    });
    await t.host.control.setActive(id, true);
    await t.host.flows.saveVersion(id, hookFlow({ type: "basic", credentialId: secretId }));
    await expect(t.host.control.afterSave(id)).rejects.toThrow(
      `version 2 is saved but not served: node "hook" field "auth.credentialId": credential ${secretId} is of type webhookSecret; basic auth needs one of type httpBasic`,
    );
    expect((await t.host.flows.get(id))?.activeVersion).toBe(1);
    expect((await fetch(`${t.url}/hooks/guarded`, { method: "POST" })).status).toBe(401);
  });

  it("answers a bare 500 and admits nothing when a bound webhook's credential does not fit its auth mode", async () => {
    // Said once, on the trigger's status: not a stack trace in the log for every anonymous request.
    const logged = vi.spyOn(t.host.log, "error");
    // A binding made before the activation check existed (or whose credential was replaced since).
    for (const auth of [
      { type: "basic", credentialId: secretId },
      { type: "header", name: "X-Token", credentialId: basicId },
    ] as const) {
      const { id } = await t.host.flows.create({ name: "Legacy", definition: hookFlow(auth) });
      const config = {
        path: "guarded",
        methods: ["POST"],
        auth,
        responseMode: "async",
        syncTimeoutMs: 1000,
        bodyType: "json",
        maxBodyBytes: 1024,
      } as WebhookConfig;
      t.host.services.hooks.production.bind({ flowId: id, flowVersion: 1, nodeId: "hook", config });
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${t.url}/hooks/guarded`, { method: "POST" });
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ error: { code: "internal", message: "internal error" } });
      }
      t.host.services.hooks.production.unbind(id);
    }
    expect(runCount()).toBe(0);
    expect(logged).not.toHaveBeenCalled();
  });

  it("masks signature and auth headers in the stored payload", async () => {
    const flow = hookFlow({
      type: "hmac",
      credentialId: secretId,
      preset: "custom",
      header: "X-Sig",
      timestampHeader: "X-Ts",
      toleranceSec: 60,
    });
    const { id } = await t.host.flows.create({ name: "Guarded", definition: flow });
    await t.host.control.setActive(id, true);
    const body = "{}";
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = createHmac("sha256", "s3cret").update(`${ts}.${body}`).digest("hex");
    const res = await fetch(`${t.url}/hooks/guarded`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-sig": sig,
        "x-ts": ts,
        "x-hub-signature-256": "sha256=abc",
        "stripe-signature": "t=1,v1=abc",
        cookie: "sid=1",
      },
      body,
    });
    expect(res.status).toBe(202);
    const { runId } = (await res.json()) as { runId: string };
    const stored = sqliteOf(t.host).prepare(`SELECT triggerPayload FROM "Run" WHERE id = ?`).get(runId) as {
      triggerPayload: string;
    };
    const headers = JSON.parse(stored.triggerPayload).headers as Record<string, string>;
    expect(headers).toMatchObject({
      "x-sig": "[masked]",
      "x-hub-signature-256": "[masked]",
      "stripe-signature": "[masked]",
      cookie: "[masked]",
      "x-ts": ts,
    });
    expect(stored.triggerPayload).not.toContain(sig);
  });

  it("refuses to save through the REST API a webhook whose credential does not fit its auth mode, naming the node and field", async () => {
    const api = await startApiHost();
    try {
      const cred = await api.host.services.vault.create({
        name: "Webhook secret",
        type: "webhookSecret",
        data: { secret: "s3cret" },
      });
      const definition = {
        nodes: [
          {
            id: "hook",
            type: "trigger.webhook",
            config: { path: "guarded", auth: { type: "basic", credentialId: cred.id } },
          },
        ],
        edges: [],
      };
      const res = await api.api("POST", "/flows", { body: { name: "Guarded", definition } });
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({
        code: "invalid_flow",
        message: "the flow has 1 problem (see details.problems)",
        details: {
          problems: [
            {
              path: "body.definition.nodes.0.config.auth.credentialId",
              code: "config_invalid",
              nodeId: "hook",
              message: `node "hook" field "auth.credentialId": credential ${cred.id} is of type webhookSecret; basic auth needs one of type httpBasic`,
            },
          ],
        },
      });
      expect(await api.host.flows.list()).toHaveLength(0);
    } finally {
      await api.close();
    }
  });
});
