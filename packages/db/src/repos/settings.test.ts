import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databases, type TestDatabase } from "../__tests__/databases";
import { createSettingsRepo } from "./settings";

describe.each(databases)("settings repository on %s", (_kind, open) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    await db.cleanup();
  });

  it("never overwrites a value a person set with a first-start default", async () => {
    const settings = createSettingsRepo(db.prisma);
    await settings.set("policy.ceilings", { email: "write" });
    expect(await settings.setDefault("policy.ceilings", { email: "read_only" })).toBe(false);
    expect(await settings.get("policy.ceilings")).toEqual({ email: "write" });
    expect(await settings.setDefault("other", 1)).toBe(true);
    expect(await settings.get("other")).toBe(1);
  });
});
