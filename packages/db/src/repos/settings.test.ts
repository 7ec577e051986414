import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDatabase } from "../__tests__/temp-db";
import { createSettingsRepo } from "./settings";

let db: ReturnType<typeof tempDatabase>;
beforeEach(() => {
  db = tempDatabase();
});
afterEach(async () => {
  await db.cleanup();
});

describe("settings repository", () => {
  it("never overwrites a value a person set with a first-start default", async () => {
    const settings = createSettingsRepo(db.prisma);
    await settings.set("policy.ceilings", { email: "write" });
    expect(await settings.setDefault("policy.ceilings", { email: "read_only" })).toBe(false);
    expect(await settings.get("policy.ceilings")).toEqual({ email: "write" });
    expect(await settings.setDefault("other", 1)).toBe(true);
    expect(await settings.get("other")).toBe(1);
  });
});
