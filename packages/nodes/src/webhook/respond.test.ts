import type { WebhookResponder } from "@switchyard/engine";
import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { respondNode } from "./respond";
import { executeNode } from "../__tests__/execute-node";

function responder() {
  const sent: Parameters<WebhookResponder["respond"]>[0][] = [];
  return { webhook: { respond: (r) => sent.push(r) } as WebhookResponder, sent };
}

describe("webhook.respond", () => {
  it("sends the configured status, headers and body and passes items on", async () => {
    const { webhook, sent } = responder();
    const input = items({ id: 1 });
    const config = { status: 201, headers: { "x-id": "1" }, body: { ok: true } };
    expect(await executeNode(respondNode, { config: config, input, ctx: fakeCtx({ webhook }) })).toEqual({
      items: input,
    });
    expect(sent).toEqual([{ status: 201, headers: { "x-id": "1" }, body: { ok: true } }]);
  });

  it("answers with the first item's JSON when no body is given", async () => {
    const { webhook, sent } = responder();
    await executeNode(respondNode, { config: {}, input: items({ id: 7 }), ctx: fakeCtx({ webhook }) });
    expect(sent).toEqual([{ status: 200, headers: {}, body: { id: 7 } }]);
  });

  it("fails clearly when no webhook waits for an answer", async () => {
    const err = await executeNode(respondNode, { config: {}, input: [], ctx: fakeCtx() }).catch((e) => e);
    expect(err).toMatchObject({
      code: "not_configured",
      message: "no webhook is waiting for a response (the run was not started by a sync webhook)",
    });
  });

  it("refuses cookies and security headers in its config, naming each header", async () => {
    const { webhook, sent } = responder();
    const headers = { "Set-Cookie": "sid=1", "content-security-policy": "default-src *", "x-ok": "1" };
    const err = await executeNode(respondNode, {
      config: { headers },
      input: [],
      ctx: fakeCtx({ webhook }),
    }).catch((e) => e);
    const why =
      "webhook answers are served from the app's origin, so cookies, security and framing headers are the server's";
    expect(err).toMatchObject({
      code: "config_invalid",
      message: `node "n1" field "headers.Set-Cookie": a flow cannot set the Set-Cookie header: ${why}; field "headers.content-security-policy": a flow cannot set the content-security-policy header: ${why}`,
    });
    expect(sent).toEqual([]);
  });

  it("refuses an impossible or informational (1xx) status", async () => {
    for (const status of [99, 101]) {
      const { webhook } = responder();
      const err = await executeNode(respondNode, {
        config: { status },
        input: [],
        ctx: fakeCtx({ webhook }),
      }).catch((e) => e);
      expect(err).toMatchObject({
        code: "config_invalid",
        message: `node "n1" field "status": a webhook answer's status must be 200–599: an informational (1xx) status would make the client or a proxy take the next answer on the connection for this one`,
      });
    }
  });
});
