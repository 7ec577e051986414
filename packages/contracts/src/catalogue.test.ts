import { describe, expect, it } from "vitest";
import { catalogueEntry } from "./catalogue";

const entry = {
  type: "logic.if",
  typeVersion: 1,
  kind: "action",
  title: "If",
  description: "Routes items",
  category: "logic",
  icon: "split",
  ports: ["true", "false"],
  inputs: ["main"],
  configSchema: { type: "object", properties: { condition: { type: "string" } } },
  example: { condition: true },
};

describe("catalogue entry", () => {
  it("accepts an entry as the nodes package publishes it", () => {
    expect(catalogueEntry.parse(entry)).toEqual(entry);
  });

  it("refuses a config schema that is not an object and an unknown kind, naming the field", () => {
    const bad = catalogueEntry.safeParse({ ...entry, kind: "widget", configSchema: true });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["kind", 'Invalid option: expected one of "action"|"trigger"'],
      ["configSchema", "expected a JSON Schema object"],
    ]);
  });
});
