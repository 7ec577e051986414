import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databases, type TestDatabase } from "../__tests__/databases";
import { createFlowRepo } from "./flows";

const def = (name: string) => ({ nodes: [{ id: "t", type: "trigger.manual", name }], edges: [] });

describe.each(databases)("flow repository on %s", (_kind, open) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    await db.cleanup();
  });

  it("stores each save as a new immutable version and keeps the old ones", async () => {
    const flows = createFlowRepo(db.prisma);
    const { id } = await flows.create({ name: "Orders", definition: def("v1") });
    await flows.saveVersion(id, def("v2"));
    expect((await flows.get(id))?.currentVersion).toBe(2);
    expect((await flows.getVersion(id, 1))?.definition).toEqual(def("v1"));
    expect((await flows.getVersion(id))?.definition).toEqual(def("v2"));
    expect((await flows.listVersions(id)).map((v) => v.version)).toEqual([2, 1]);
  });

  it("pins the current version on activation and clears it on deactivation", async () => {
    const flows = createFlowRepo(db.prisma);
    const { id } = await flows.create({ name: "A", definition: def("v1") });
    expect((await flows.setActive(id, true)).activeVersion).toBe(1);
    await flows.saveVersion(id, def("v2"));
    expect((await flows.get(id))?.activeVersion).toBe(1);
    expect((await flows.setActive(id, false)).activeVersion).toBeNull();
  });

  it("refuses to save a version of a missing flow and writes nothing", async () => {
    const flows = createFlowRepo(db.prisma);
    await expect(flows.saveVersion("nope", def("x"))).rejects.toThrow("flow nope not found");
    expect(await db.prisma.flowVersion.count()).toBe(0);
  });

  it("deletes a flow with its versions", async () => {
    const flows = createFlowRepo(db.prisma);
    const { id } = await flows.create({ name: "A", definition: def("v1") });
    await flows.delete(id);
    expect(await flows.count()).toBe(0);
    expect(await db.prisma.flowVersion.count()).toBe(0);
  });
});

describe.each(databases)("flow repository under a burst on %s", (_kind, open) => {
  it("serves 2000 concurrent lookups of one flow without exceeding a parameter limit", async () => {
    const local = await open();
    try {
      const flows = createFlowRepo(local.prisma);
      const { id } = await flows.create({ name: "Hot", definition: def("v1") });
      const got = await Promise.all(Array.from({ length: 2000 }, () => flows.getVersion(id)));
      expect(got.every((v) => v?.version === 1)).toBe(true);
      const heads = await Promise.all(Array.from({ length: 2000 }, () => flows.get(id)));
      expect(heads.every((f) => f?.id === id)).toBe(true);
    } finally {
      await local.cleanup();
    }
  });
});
