import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTemplates, defaultTemplatesDir } from "../../templates";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await t.cleanup();
});

describe("flow templates", () => {
  it("lists every file in examples/flows with its name, description, size and trigger", async () => {
    const list = await t.caller.template.list();
    expect(list.map((x) => [x.id, x.name, x.nodeCount, x.triggerType, x.problem])).toEqual([
      ["hello-webhook", "Hello webhook", 3, "trigger.webhook", null],
      ["order-triage", "Order triage", 4, "trigger.manual", null],
      ["support-inbox", "Support inbox", 3, "trigger.email", null],
      ["weekday-digest", "Weekday digest", 2, "trigger.cron", null],
    ]);
    expect(list[1]!.description).toMatch(/^Run it with a payload like/);
  });

  it("creates an inactive flow from a template with the file's nodes and edges", async () => {
    const { id, name } = await t.caller.template.use({ id: "order-triage" });
    expect(name).toBe("Order triage");
    const got = await t.caller.flow.get({ id });
    const file = JSON.parse(readFileSync(path.join(defaultTemplatesDir, "order-triage.json"), "utf8"));
    expect(got.flow.active).toBe(false);
    expect((got.version.definition as { nodes: { id: string }[] }).nodes.map((n) => n.id)).toEqual(
      file.nodes.map((n: { id: string }) => n.id),
    );
    expect((got.version.definition as { edges: unknown[] }).edges).toHaveLength(file.edges.length);
  });

  it("refuses an unknown template and a path instead of an id, writing nothing", async () => {
    await expect(t.caller.template.use({ id: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'no template "nope"',
    });
    await expect(t.caller.template.use({ id: "../../package" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await t.host.db.prisma.flow.count()).toBe(0);
  });

  it("lists a broken file with the reason instead of hiding it, and will not create from it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "templates-"));
    try {
      writeFileSync(path.join(dir, "broken.json"), '{"nodes": [');
      writeFileSync(
        path.join(dir, "no-trigger.json"),
        JSON.stringify({ name: "No trigger", nodes: [{ id: "a", type: "flow.noop" }], edges: [] }),
      );
      const templates = createTemplates({ dir, registry: t.host.services.registry, checks: () => ({}) });
      const list = templates.list();
      expect(list.map((x) => x.id)).toEqual(["broken", "no-trigger"]);
      expect(list[0]!.problem).toMatch(/^examples\/flows\/broken\.json cannot be read: /);
      expect(list[1]!.problem).toBe(
        "examples/flows/no-trigger.json has problems: : the flow has no trigger node",
      );
      expect(templates.get("no-trigger")?.definition).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
