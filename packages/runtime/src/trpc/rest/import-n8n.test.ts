import { loadCorpus } from "@switchyard/import-n8n/corpus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHost, conforms, startApiHost } from "./__tests__/harness";

let t: ApiHost;
beforeAll(async () => {
  t = await startApiHost();
});
afterAll(async () => {
  await t.close();
});

const corpus = new Map(loadCorpus().map((e) => [e.name, e.text]));
const placeholderMessage =
  'node "slack" is a placeholder for the n8n node type "n8n-nodes-base.slack", which could not be imported: replace or remove it before activating';

describe("POST /api/v1/flows/import/n8n", () => {
  it("stores an n8n workflow as an inactive flow and answers with the report", async () => {
    const res = await t.api("POST", "/flows/import/n8n", {
      body: { workflow: JSON.parse(corpus.get("if")!) },
    });
    expect(res.status).toBe(201);
    const body = conforms("importN8nFlow", res);
    expect(body.flow).toMatchObject({ name: "If", active: false, currentVersion: 1 });
    expect(body.report.nodes.map((n: { n8nName: string; type: string }) => [n.n8nName, n.type])).toEqual([
      ["When clicking ‘Test workflow’", "trigger.manual"],
      ["Big order?", "logic.if"],
      ["High", "data.set"],
      ["Normal", "data.set"],
    ]);
    expect(body.problems).toEqual([]);
    const got = await t.api("GET", `/flows/${body.flow.id}`);
    expect(conforms("getFlow", got).definition.nodes[1]).toMatchObject({
      id: "big_order",
      name: "Big order?",
      position: { x: 220, y: 0 },
      config: { condition: '=(item.total > 100) and (item.status = "paid")' },
    });
    const activated = await t.api("POST", `/flows/${body.flow.id}/activate`);
    expect(activated.status).toBe(200);
  });

  it("keeps a workflow with an unsupported node as a draft whose activation is refused, naming the node and n8n type", async () => {
    const res = await t.api("POST", "/flows/import/n8n", {
      body: { workflow: corpus.get("unsupported-node") },
    });
    expect(res.status).toBe(201);
    const body = conforms("importN8nFlow", res);
    expect(body.report.problems).toEqual([
      {
        code: "unsupported_node",
        node: "Slack",
        message: "Switchyard has no equivalent of n8n-nodes-base.slack; kept as a placeholder",
      },
    ]);
    expect(body.problems).toEqual([
      { code: "placeholder_node", nodeId: "slack", message: placeholderMessage },
    ]);
    expect(body.definition.nodes[1]).toMatchObject({
      type: "import.placeholder",
      config: { source: "n8n", originalType: "n8n-nodes-base.slack", parameters: { channel: "#alerts" } },
    });
    const activated = await t.api("POST", `/flows/${body.flow.id}/activate`);
    expect(activated.status).toBe(400);
    expect(activated.json).toMatchObject({
      error: {
        code: "invalid_flow",
        message: "cannot activate: version 1 has 1 problem",
        details: {
          problems: [{ path: "definition.nodes.1", code: "placeholder_node", message: placeholderMessage }],
        },
      },
    });
  });

  it("refuses a file that is not an n8n workflow, naming the place, and stores nothing", async () => {
    const before = conforms("listFlows", await t.api("GET", "/flows")).flows.length;
    const res = await t.api("POST", "/flows/import/n8n", { body: { workflow: { nodes: [{ name: "A" }] } } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      error: {
        code: "invalid_request",
        message: "not an n8n workflow: nodes.0.type: Invalid input: expected string, received undefined",
        details: { problems: [{ path: "body.workflow.nodes.0.type" }] },
      },
    });
    const text = await t.api("POST", "/flows/import/n8n", { body: { workflow: "{ nope" } });
    expect(text.status).toBe(400);
    expect(text.json.error.message).toMatch(/^not valid JSON: /);
    expect(conforms("listFlows", await t.api("GET", "/flows")).flows.length).toBe(before);
  });
});
