import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { corpusDir } from "@switchyard/import-n8n/corpus";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "./main";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-cli-n8n-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI in-process on the temp data dir (local mode: the same procedures as the REST API). */
async function sy(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { SWITCHYARD_DATA_DIR: path.join(dir, "data"), SWITCHYARD_SMTP_PORT: "0", LOG_LEVEL: "silent" },
    { stdin: Readable.from([""]), out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}
const corpus = (name: string) => path.join(corpusDir, `${name}.json`);

describe("switchyard flow import --from n8n", { timeout: 30_000 }, () => {
  it("creates the flow and prints every mapping, loss and problem", async () => {
    // The corpus file leaves its hook path as a slot; the CLI gets a finished export.
    const file = path.join(dir, "webhook-if-set-respond.json");
    writeFileSync(
      file,
      readFileSync(corpus("webhook-if-set-respond"), "utf8").replaceAll("__HOOK__", "orders/intake"),
    );
    const r = await sy(["flow", "import", "--from", "n8n", file]);
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines.slice(0, 8)).toEqual([
      'n8n workflow "Order intake": 6 nodes',
      "  Sticky Note [n8n-nodes-base.stickyNote v1] → note_6: note",
      "  Webhook [n8n-nodes-base.webhook v2] → webhook: trigger.webhook",
      "  Paid? [n8n-nodes-base.if v2.2] → paid: logic.if",
      "  Accept [n8n-nodes-base.set v3.4] → accept: data.set",
      "  Reject [n8n-nodes-base.set v3.4] → reject: data.set",
      "  Respond [n8n-nodes-base.respondToWebhook v1.1] → respond: webhook.respond",
      "losses: 0",
    ]);
    expect(lines[8]).toBe("problems to resolve before activating: 0");
    expect(lines[9]).toMatch(
      /^imported .*webhook-if-set-respond\.json as flow \S+ "Order intake" \(version 1, inactive\)$/,
    );
    expect(r.err).toBe("");
    const list = await sy(["flow", "list", "--json"]);
    expect(JSON.parse(list.out).flows.map((f: { name: string }) => f.name)).toContain("Order intake");
  });

  it("prints the problems that block activation and refuses --activate with exit 1", async () => {
    const r = await sy(["flow", "import", "--from", "n8n", "--activate", corpus("unsupported-node")]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "  Slack: Switchyard has no equivalent of n8n-nodes-base.slack; kept as a placeholder [unsupported_node]",
    );
    expect(r.err).toBe(
      [
        "1 problem blocks activation until resolved in the editor:",
        '  slack: node "slack" is a placeholder for the n8n node type "n8n-nodes-base.slack", which could not be imported: replace or remove it before activating [placeholder_node]',
      ].join("\n"),
    );
    const list = await sy(["flow", "list", "--json"]);
    const flows = JSON.parse(list.out).flows as { name: string; active: boolean }[];
    expect(flows.find((f) => f.name === "Slack alert")).toMatchObject({ active: false });
  });

  it("maps credentials with --credential and answers the report as JSON", async () => {
    const r = await sy([
      "flow",
      "import",
      "--from",
      "n8n",
      corpus("send-email"),
      "--credential",
      "Shop SMTP=cred-123",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body.report.problems).toEqual([]);
    expect(body.definition.nodes[1]).toMatchObject({
      type: "email.send",
      config: { credentialId: "cred-123" },
    });
    // The credential does not exist in this data dir: validation says so only where the engine checks it.
    expect(body.flow).toMatchObject({ name: "Send email", active: false });
  });

  it("refuses a file that is not an n8n workflow with the place named, and imports nothing", async () => {
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ nodes: "nope" }));
    // A fresh data dir starts with the seeded example flows: nothing is added to them.
    const seeded = JSON.parse((await sy(["flow", "list", "--json"])).out).flows.map(
      (f: { name: string }) => f.name,
    );
    const r = await sy(["flow", "import", "--from", "n8n", bad]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `${bad}: not an n8n workflow: nodes: Invalid input: expected array, received string; nothing imported`,
    );
    const names = JSON.parse((await sy(["flow", "list", "--json"])).out).flows.map(
      (f: { name: string }) => f.name,
    );
    expect(names).toEqual(seeded);
  });

  it("refuses an unknown source and options that need --from with exit 2", async () => {
    expect((await sy(["flow", "import", "--from", "zapier", corpus("if")])).err).toContain(
      "--from takes n8n, got 'zapier'",
    );
    const r = await sy(["flow", "import", corpus("if"), "--credential", "a=b"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--credential and --workflow only apply with --from n8n");
  });
});
