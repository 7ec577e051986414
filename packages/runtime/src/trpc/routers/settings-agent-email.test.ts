import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeAll(async () => {
  t = await testCaller({ seed: false });
});
afterAll(async () => {
  await t.cleanup();
});

describe("settings.agentEmail (the SMTP credential of send_email)", () => {
  it("stores an smtp credential, refuses other types and unknown ids with the reason, and clears", async () => {
    expect(await t.caller.settings.agentEmail.get()).toEqual({ email: null });
    const smtp = await t.caller.credential.create({
      name: "mail",
      type: "smtp",
      data: {
        host: "smtp.example.com",
        port: "587",
        from: "bot@example.com",
        allowedHosts: "smtp.example.com",
      },
    });
    const bearer = await t.caller.credential.create({
      name: "api",
      type: "httpBearer",
      data: { token: "t-secret", allowedHosts: "api.example.com" },
    });

    await expect(t.caller.settings.agentEmail.set({ credentialId: bearer.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: `credential ${bearer.id} is a httpBearer credential; send_email needs an smtp one`,
    });
    await expect(t.caller.settings.agentEmail.set({ credentialId: "nope" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "credential nope not found",
    });
    expect(await t.caller.settings.agentEmail.get()).toEqual({ email: null });

    await t.caller.settings.agentEmail.set({ credentialId: smtp.id, from: "Support <help@example.com>" });
    expect(await t.caller.settings.agentEmail.get()).toEqual({
      email: { credentialId: smtp.id, from: "Support <help@example.com>" },
    });
    expect(await t.host.settings.get("agents.email")).toEqual({
      credentialId: smtp.id,
      from: "Support <help@example.com>",
    });
    await t.caller.settings.agentEmail.clear();
    expect(await t.caller.settings.agentEmail.get()).toEqual({ email: null });
  });

  it("is for the owner only", async () => {
    const editor = await t.as("editor");
    await expect(editor.caller.settings.agentEmail.get()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
