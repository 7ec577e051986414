import { createServer, type Server } from "node:http";
import nodemailer from "nodemailer";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startApiHost } from "../trpc/rest/__tests__/harness";
import { createWebhookHandler } from "../triggers/webhook/handler";
import { createHookRegistry, type WebhookConfig } from "../triggers/webhook/registry";
import { startTestHost, waitForRun } from "./test-host";

// Names that are members of Object.prototype (or its setter): ingress must keep each as an ordinary
// own key holding the caller's string, exactly as JSON.parse would.
const names = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];
const record = (value: (k: string) => unknown) => Object.fromEntries(names.map((k) => [k, value(k)]));
const query = names.map((k) => `${k}=${k}-value`).join("&");

/** True when `v` is what JSON.parse could have produced: plain objects and arrays, no functions, no odd prototypes. */
function jsonShaped(v: unknown): boolean {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return true;
  if (typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  return Object.keys(v).every((k) => jsonShaped((v as Record<string, unknown>)[k]));
}

/** Node's HTTP parser itself drops a header named `__proto__`; the other names reach the handler. */
const send = async (url: string, o: { headers: [string, string][]; body: string }) =>
  (
    await fetch(url, {
      method: "POST",
      headers: new Headers(o.headers.filter(([k]) => k !== "__proto__")),
      body: o.body,
    })
  ).status;

describe("the payload a sync webhook hands to an inline run", () => {
  let server: Server;
  let url: string;
  const seen: { payload: unknown; payloadJson: string }[] = [];
  const production = createHookRegistry();
  const config = (bodyType: WebhookConfig["bodyType"]): WebhookConfig => ({
    path: `in-${bodyType}/:constructor`,
    methods: ["POST"],
    auth: { type: "none" },
    responseMode: "sync",
    syncTimeoutMs: 1000,
    bodyType,
    maxBodyBytes: 4096,
  });
  beforeAll(async () => {
    const handler = createWebhookHandler({
      production,
      test: createHookRegistry(),
      resolveAuth: async () => ({ type: "none" }),
      admit: async () => ({ runId: "queued", duplicate: false }),
      waitForResponse: async () => ({ status: 200, headers: {}, body: null }),
      runInline: async (_b, payload, payloadJson) => {
        seen.push({ payload, payloadJson });
        return { runId: "inline", response: { status: 200, headers: {}, body: null } };
      },
      deliverTestEvent: () => {},
      now: () => Date.now(),
    });
    for (const [i, t] of (["json", "form"] as const).entries())
      production.bind({ flowId: `f${i}`, flowVersion: 1, nodeId: "hook", config: config(t) });
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it("is exactly the JSON the run stores, with prototype-named query keys, form fields, headers and path params as own string keys", async () => {
    const headers = names.map((k): [string, string] => [k, `${k}-value`]);
    const form = names.map((k) => `${k}=${k}-value`).join("&");
    const json = JSON.stringify(record((k) => `${k}-value`));
    expect(
      await send(`${url}/hooks/in-form/p1?${query}`, {
        headers: [...headers, ["content-type", "application/x-www-form-urlencoded"]],
        body: form,
      }),
    ).toBe(200);
    expect(
      await send(`${url}/hooks/in-json/p1?${query}`, {
        headers: [...headers, ["content-type", "application/json"]],
        body: json,
      }),
    ).toBe(200);
    expect(seen).toHaveLength(2);
    for (const { payload, payloadJson } of seen) {
      expect(jsonShaped(payload)).toBe(true);
      expect(payload).toStrictEqual(JSON.parse(payloadJson));
      const p = payload as { query: object; body: object; headers: Record<string, string>; params: object };
      expect(Object.entries(p.query)).toEqual(names.map((k) => [k, `${k}-value`]));
      expect(Object.entries(p.body)).toEqual(names.map((k) => [k, `${k}-value`]));
      expect(Object.entries(p.params)).toEqual([["constructor", "p1"]]);
      // Header names arrive lower-cased; every one is an own key with the string sent.
      for (const k of names.slice(1))
        expect(Object.getOwnPropertyDescriptor(p.headers, k.toLowerCase())?.value).toBe(`${k}-value`);
    }
  });
});

describe("prototype-named keys through every ingress, as the flow's expressions see them", () => {
  // For each name: "<name>=<value>:<type>", read with $lookup (own keys only, like every JSONata lookup).
  const typesOf = (of: string) =>
    `=$map(${JSON.stringify(names)}, function($k){ $k & "=" & $string($lookup(${of}, $k)) & ":" & $type($lookup(${of}, $k)) })`;
  const expected = (value: (k: string) => string) => names.map((k) => `${k}=${value(k)}:string`);

  describe("webhooks", () => {
    let t: Awaited<ReturnType<typeof startTestHost>>;
    beforeEach(async () => {
      t = await startTestHost();
    });
    afterEach(async () => {
      await t.close();
    });

    it("gives query, form and JSON keys named __proto__, constructor, prototype, toString and hasOwnProperty their string values", async () => {
      const hook = (p: string, bodyType: string, body: string) => ({
        nodes: [
          {
            id: "hook",
            type: "trigger.webhook",
            config: { path: p, responseMode: "sync", methods: ["POST"], bodyType },
          },
          { id: "respond", type: "webhook.respond", config: { body } },
        ],
        edges: [{ from: { node: "hook", port: "main" }, to: { node: "respond", port: "main" } }],
      });
      const form = await t.host.flows.create({
        name: "form",
        definition: hook(
          "form",
          "form",
          `={ "q": ${typesOf("trigger.query").slice(1)}, "b": ${typesOf("trigger.body").slice(1)} }`,
        ),
      });
      const json = await t.host.flows.create({
        name: "json",
        definition: hook("json", "json", typesOf("trigger.body")),
      });
      await t.host.control.setActive(form.id, true);
      await t.host.control.setActive(json.id, true);
      const viaForm = await fetch(`${t.url}/hooks/form?${query}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: names.map((k) => `${k}=${k}-value`).join("&"),
      });
      expect(await viaForm.json()).toEqual({
        q: expected((k) => `${k}-value`),
        b: expected((k) => `${k}-value`),
      });
      const viaJson = await fetch(`${t.url}/hooks/json`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(record((k) => `${k}-value`)),
      });
      expect(await viaJson.json()).toEqual(expected((k) => `${k}-value`));
    });

    it("keeps e-mail headers named __proto__ and constructor as own string keys of the run payload", async () => {
      await t.close();
      t = await startTestHost({ SWITCHYARD_SMTP_DOMAIN: "flows.test" });
      const lower = names.map((k) => k.toLowerCase());
      const flow = {
        nodes: [
          { id: "mail", type: "trigger.email", config: { localPart: "inbox" } },
          {
            id: "pick",
            type: "data.set",
            config: {
              fields: [
                {
                  name: "h",
                  value: typesOf("item.headers").replace(JSON.stringify(names), JSON.stringify(lower)),
                },
              ],
              keepOnlySet: true,
            },
          },
        ],
        edges: [{ from: { node: "mail", port: "main" }, to: { node: "pick", port: "main" } }],
      };
      const { id } = await t.host.flows.create({ name: "Inbox", definition: flow });
      await t.host.control.setActive(id, true);
      const transport = nodemailer.createTransport({
        host: "127.0.0.1",
        port: t.host.services.smtpPort(),
        secure: false,
        ignoreTLS: true,
      });
      await transport.sendMail({
        from: "ada@example.com",
        to: "inbox+__proto__@flows.test",
        subject: "keys",
        text: "x",
        headers: lower.map((k) => ({ key: k, value: `${k}-value` })),
      });
      let runs = await t.host.runs.list({ flowId: id });
      for (let i = 0; i < 500 && runs.runs.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        runs = await t.host.runs.list({ flowId: id });
      }
      const run = await waitForRun(t.host, runs.runs[0]!.id);
      const payload = JSON.parse(run.triggerPayload) as { headers: Record<string, string>; tag: string };
      for (const k of lower)
        expect(Object.getOwnPropertyDescriptor(payload.headers, k)?.value).toBe(`${k}-value`);
      expect(payload.tag).toBe("__proto__");
      expect(JSON.parse(run.output!)).toEqual([{ json: { h: lower.map((k) => `${k}=${k}-value:string`) } }]);
    });
  });

  it("gives a REST-API run payload with those keys their string values", async () => {
    const api = await startApiHost();
    try {
      const created = await api.api("POST", "/flows", {
        body: {
          name: "rest",
          definition: {
            nodes: [
              { id: "start", type: "trigger.manual" },
              {
                id: "pick",
                type: "data.set",
                config: { fields: [{ name: "t", value: typesOf("item") }], keepOnlySet: true },
              },
            ],
            edges: [{ from: { node: "start" }, to: { node: "pick" } }],
          },
        },
      });
      const res = await api.api("POST", `/flows/${created.json.flow.id}/runs`, {
        raw: `{"wait": true, "payload": ${JSON.stringify(record((k) => `${k}-value`))}}`,
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(200);
      expect(res.json.output).toEqual([{ json: { t: expected((k) => `${k}-value`) } }]);
    } finally {
      await api.close();
    }
  });
});
