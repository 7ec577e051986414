import { describe, expect, it } from "vitest";
import { checkJsonSchema, undescribed } from "./__tests__/json-schema-check";
import { catalogue, createRegistry, nodeTypes, registry } from "./catalogue";

describe("catalogue", () => {
  const entries = catalogue();

  it("lists every shipped type once, with unique ids", () => {
    expect(entries.map((e) => e.type)).toEqual([
      "trigger.manual",
      "trigger.webhook",
      "trigger.email",
      "trigger.cron",
      "http.request",
      "data.set",
      "data.transform",
      "code",
      "logic.if",
      "logic.switch",
      "flow.merge",
      "flow.split",
      "flow.wait",
      "flow.noop",
      "flow.stop",
      "flow.call",
      "webhook.respond",
      "email.send",
      "agent",
    ]);
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(entries))).toEqual(entries);
  });

  it.each(nodeTypes.map((t) => [t.type, t] as const))(
    "%s: example parses with its zod schema",
    (_type, t) => {
      const parsed = t.config.safeParse(t.example);
      expect(parsed.error?.issues ?? []).toEqual([]);
    },
  );

  it.each(entries.map((e) => [e.type, e] as const))("%s: example conforms to its JSON Schema", (_type, e) => {
    expect(checkJsonSchema(e.configSchema, e.example)).toEqual([]);
  });

  it.each(entries.map((e) => [e.type, e] as const))(
    "%s: every config field has a description",
    (_type, e) => {
      expect(undescribed(e.configSchema)).toEqual([]);
    },
  );

  it("the JSON Schema check catches a missing required key", () => {
    const webhook = entries.find((e) => e.type === "trigger.webhook")!;
    expect(checkJsonSchema(webhook.configSchema, { methods: ["POST"] })).toEqual(["$.path: required"]);
  });

  it("the description check catches an unlabelled field", () => {
    expect(undescribed({ type: "object", properties: { a: { type: "string" } } })).toEqual(["$.a"]);
  });

  it("gives actions their inputs and triggers none", () => {
    expect(entries.find((e) => e.type === "flow.merge")?.inputs).toEqual(["a", "b"]);
    expect(entries.find((e) => e.type === "logic.if")?.inputs).toEqual(["main"]);
    expect(entries.find((e) => e.type === "trigger.cron")).toMatchObject({
      kind: "trigger",
      inputs: [],
      ports: ["main"],
    });
  });

  it("looks types up in the registry", () => {
    expect(registry.get("logic.if")?.title).toBe("If");
    expect(registry.get("nope")).toBeUndefined();
  });

  it("refuses duplicate type ids", () => {
    expect(() => createRegistry([...nodeTypes, nodeTypes[0]!])).toThrow(
      'duplicate node type "trigger.manual"',
    );
  });
});
