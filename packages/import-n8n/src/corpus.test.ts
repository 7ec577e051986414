import { validateFlow } from "@switchyard/engine";
import { registry } from "@switchyard/nodes";
import { describe, expect, it } from "vitest";
import { INTEGRATION_TYPES, loadCorpus } from "./corpus";
import { importN8nWorkflow } from "./import";

const corpus = loadCorpus();
const fill = (text: string) =>
  text
    .replaceAll("__HTTP__", "http://127.0.0.1:8080")
    .replaceAll("__HOOK__", "corpus/hook")
    .replaceAll("__UNIQUE__", "u1");

describe("the n8n corpus", () => {
  it("has an expectation for every file and covers every mapped n8n node type", () => {
    const types = new Set(
      corpus.flatMap((e) => (JSON.parse(e.text).nodes as { type: string }[]).map((n) => n.type)),
    );
    for (const t of [
      "webhook",
      "scheduleTrigger",
      "manualTrigger",
      "emailReadImap",
      "set",
      "if",
      "switch",
      "merge",
      "splitOut",
      "wait",
      "noOp",
      "stopAndError",
      "executeWorkflow",
      "code",
      "httpRequest",
      "respondToWebhook",
      "emailSend",
      "postgres",
      "mySql",
      "redis",
      "mqtt",
      "rabbitmq",
    ])
      expect(types).toContain(`n8n-nodes-base.${t}`);
  });

  for (const entry of corpus) {
    it(`imports ${entry.name} into the expected nodes, and a flow the engine accepts`, () => {
      const credentials = Object.fromEntries(
        Object.entries(entry.expected.credentials ?? {}).map(([name, type]) => [name, `cred-${type}`]),
      );
      const workflows = Object.fromEntries(
        Object.keys(entry.expected.workflows ?? {}).map((id) => [id, `flow-${id}`]),
      );
      const { flow, report } = importN8nWorkflow(fill(entry.text), { credentials, workflows });
      expect(Object.fromEntries(report.nodes.map((n) => [n.n8nName, n.type]))).toEqual(
        entry.expected.mapping,
      );
      expect(report.problems.map((p) => p.code)).toEqual(entry.expected.problems ?? []);
      for (const [id, config] of Object.entries(entry.expected.config ?? {}))
        expect(flow.nodes.find((n) => n.id === id)?.config).toMatchObject(config);
      if (entry.expected.notes !== undefined) expect(flow.notes).toHaveLength(entry.expected.notes);
      // Integration nodes are registered by their own packages (built in parallel): only they may be unknown here.
      const problems = validateFlow(flow, registry).filter(
        (p) =>
          !(p.code === "unknown_node_type" && INTEGRATION_TYPES.some((t) => p.message.includes(`"${t}"`))) &&
          !(p.code === "no_trigger" && flow.nodes.some((n) => n.type === "trigger.imap")),
      );
      const placeholders = flow.nodes.filter((n) => n.type === "import.placeholder").map((n) => n.id);
      expect(problems.map((p) => [p.code, p.nodeId])).toEqual(
        placeholders.map((id) => ["placeholder_node", id]),
      );
    });
  }
});
