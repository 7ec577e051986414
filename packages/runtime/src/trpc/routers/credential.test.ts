import { listAudit } from "../../index";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

const TOKEN = "tok-very-secret-4f9a1c";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await t.cleanup();
});

async function codeAndMessage(p: Promise<unknown>) {
  try {
    await p;
    return { code: "OK", message: "" };
  } catch (e) {
    const err = e as { code?: string; message: string; cause?: { issues?: { path: (string | number)[] }[] } };
    return { code: err.code, message: err.message, paths: err.cause?.issues?.map((i) => i.path.join(".")) };
  }
}

describe("credential router", () => {
  it("describes every credential type's form from its zod schema", async () => {
    const types = await t.caller.credential.types();
    expect(types.map((x) => x.type)).toEqual([
      "httpHeader",
      "httpBearer",
      "httpBasic",
      "smtp",
      "webhookSecret",
      "llmProvider",
      "postgres",
      "mysql",
      "redis",
      "nats",
      "imap",
      "mqtt",
      "amqp",
    ]);
    const pg = types.find((x) => x.type === "postgres")!;
    expect(pg.fields.map((f) => [f.name, f.required, f.masked])).toEqual([
      ["host", true, false],
      ["port", true, false],
      ["database", true, false],
      ["user", true, false],
      ["password", false, true],
      ["ssl", false, false],
      ["allowedHosts", true, false],
    ]);
    // Broker credentials: the port has the broker's default, the password is masked.
    const amqp = types.find((x) => x.type === "amqp")!;
    expect(amqp.fields.map((f) => [f.name, f.required])).toEqual([
      ["host", true],
      ["port", false],
      ["secure", false],
      ["vhost", false],
      ["user", true],
      ["password", true],
      ["allowedHosts", true],
    ]);
    expect(amqp.fields.find((f) => f.name === "port")).toMatchObject({ default: "5672" });
    expect(amqp.fields.find((f) => f.name === "password")?.masked).toBe(true);
    expect(types.find((x) => x.type === "mqtt")?.fields.map((f) => [f.name, f.required])).toEqual([
      ["host", true],
      ["port", false],
      ["secure", false],
      ["user", false],
      ["password", false],
      ["clientIdPrefix", false],
      ["allowedHosts", true],
    ]);
    const smtp = types.find((x) => x.type === "smtp")!;
    expect(smtp.fields.map((f) => [f.name, f.required])).toEqual([
      ["host", true],
      ["port", true],
      ["secure", false],
      ["user", false],
      ["pass", false],
      ["from", true],
      ["allowedHosts", true],
    ]);
    expect(smtp.fields.find((f) => f.name === "secure")).toMatchObject({
      options: ["true", "false"],
      default: "false",
    });
    expect(smtp.fields.find((f) => f.name === "pass")?.masked).toBe(true);
    expect(smtp.fields.find((f) => f.name === "host")?.masked).toBe(false);
    expect(types.find((x) => x.type === "httpBearer")?.fields).toEqual([
      { name: "token", required: true, masked: true, minLength: 1 },
      { name: "allowedHosts", required: true, masked: false },
    ]);
    expect(types.find((x) => x.type === "webhookSecret")?.fields.map((f) => f.name)).toEqual(["secret"]);
  });

  it("lets an editor store a credential and lists which fields are set, never the values", async () => {
    const editor = await t.as("editor");
    const created = await editor.caller.credential.create({
      name: "CRM",
      type: "httpBearer",
      data: { token: TOKEN, allowedHosts: "crm.example.com" },
    });
    expect(JSON.stringify(created)).not.toContain(TOKEN);
    const list = await t.caller.credential.list();
    expect(list).toEqual([
      {
        id: created.id,
        name: "CRM",
        type: "httpBearer",
        label: "Bearer token",
        fields: ["token", "allowedHosts"],
        allowedHosts: ["crm.example.com"],
        updatedAt: expect.any(Date),
      },
    ]);
    expect(JSON.stringify(list)).not.toContain(TOKEN);
    // The value is really stored, encrypted, for the nodes that need it.
    expect((await t.host.services.vault.reader.get(created.id)).data).toEqual({
      token: TOKEN,
      allowedHosts: "crm.example.com",
    });
    const { entries } = await listAudit(t.host, { action: "credential.created" });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: editor.user.id,
      target: created.id,
      details: { name: "CRM", type: "httpBearer" },
    });
    expect(JSON.stringify(entries)).not.toContain(TOKEN);
  });

  it("refuses viewers and anonymous callers, writing nothing", async () => {
    const viewer = await t.as("viewer");
    expect(
      await codeAndMessage(
        viewer.caller.credential.create({ name: "x", type: "httpBearer", data: { token: TOKEN } }),
      ),
    ).toEqual({
      code: "FORBIDDEN",
      message: "only owners and editors can do this",
    });
    expect((await codeAndMessage(t.anonymous.credential.list())).code).toBe("UNAUTHORIZED");
    expect(await t.caller.credential.list()).toEqual([]);
  });

  it("rejects incomplete, unknown and duplicate credentials with the field named, writing nothing", async () => {
    expect(
      await codeAndMessage(t.caller.credential.create({ name: "a", type: "httpBearer", data: {} })),
    ).toEqual({
      code: "BAD_REQUEST",
      message:
        "the Bearer token credential is invalid: token: Invalid input: expected string, received undefined",
      paths: ["data.token", "data.allowedHosts"],
    });
    expect(
      await codeAndMessage(
        t.caller.credential.create({ name: "a", type: "httpBearer", data: { token: "x", allowedHosts: "" } }),
      ),
    ).toEqual({
      code: "BAD_REQUEST",
      message:
        "the Bearer token credential is invalid: allowedHosts: list the hosts this credential may be sent to, e.g. api.example.com or *.example.com",
      paths: ["data.allowedHosts"],
    });
    expect(
      await codeAndMessage(
        t.caller.credential.create({
          name: "a",
          type: "httpBearer",
          data: { token: "x", extra: "y", allowedHosts: "x.test" },
        }),
      ),
    ).toEqual({
      code: "BAD_REQUEST",
      message: "a Bearer token credential has no field extra",
      paths: ["data.extra"],
    });
    expect(
      await codeAndMessage(
        t.caller.credential.create({
          name: "m",
          type: "smtp",
          data: { host: "mail", port: "25x", from: "a@b.c", allowedHosts: "mail" },
        }),
      ),
    ).toMatchObject({ code: "BAD_REQUEST", paths: ["data.port"] });
    const badType = await codeAndMessage(
      t.caller.credential.create({ name: "a", type: "ssh" as "httpBearer", data: { token: "x" } }),
    );
    expect(badType).toMatchObject({ code: "BAD_REQUEST", paths: ["type"] });
    expect(
      await codeAndMessage(
        t.caller.credential.create({ name: "  ", type: "httpBearer", data: { token: "x" } }),
      ),
    ).toMatchObject({ code: "BAD_REQUEST", paths: ["name"] });
    expect(await t.caller.credential.list()).toEqual([]);

    await t.caller.credential.create({
      name: "dup",
      type: "httpBearer",
      data: { token: "one", allowedHosts: "x.test" },
    });
    expect(
      await codeAndMessage(
        t.caller.credential.create({ name: "dup", type: "webhookSecret", data: { secret: "two" } }),
      ),
    ).toEqual({
      code: "CONFLICT",
      message: 'a credential named "dup" already exists',
    });
    expect((await t.caller.credential.list()).map((c) => c.type)).toEqual(["httpBearer"]);
    expect((await listAudit(t.host, { action: "credential.created" })).entries).toHaveLength(1);
  });

  it("lets only owners delete, and audits it", async () => {
    const { id } = await t.caller.credential.create({
      name: "Hook",
      type: "webhookSecret",
      data: { secret: "s3cr3t" },
    });
    const editor = await t.as("editor");
    expect(await codeAndMessage(editor.caller.credential.delete({ id }))).toEqual({
      code: "FORBIDDEN",
      message: "only owners can do this",
    });
    expect(await codeAndMessage(t.caller.credential.delete({ id: "nope" }))).toEqual({
      code: "NOT_FOUND",
      message: "credential not found",
    });
    expect(await t.caller.credential.list()).toHaveLength(1);
    await t.caller.credential.delete({ id });
    expect(await t.caller.credential.list()).toEqual([]);
    const { entries } = await listAudit(t.host, { action: "credential.deleted" });
    expect(entries[0]).toMatchObject({
      actorId: t.ownerUser.id,
      target: id,
      details: { name: "Hook", type: "webhookSecret" },
    });
  });

  it("refuses to delete the LLM provider's key while Settings › Models uses it", async () => {
    const { id } = await t.caller.credential.create({
      name: "OpenAI",
      type: "llmProvider",
      data: { apiKey: "sk-abc", allowedHosts: "127.0.0.1" },
    });
    await t.caller.settings.llm.set({
      baseUrl: "http://127.0.0.1:9/v1",
      credentialId: id,
      models: { default: "m" },
    });
    expect(await codeAndMessage(t.caller.credential.delete({ id }))).toEqual({
      code: "CONFLICT",
      message:
        '"OpenAI" is the LLM provider\'s key in Settings › Models; choose another credential there first',
    });
    expect(await t.caller.credential.list()).toHaveLength(1);
  });

  it("lets the owner change where a credential may be sent, keeping its secret, and audits it", async () => {
    const { id } = await t.caller.credential.create({
      name: "CRM",
      type: "httpBearer",
      data: { token: TOKEN, allowedHosts: "crm.example.com" },
    });
    expect(
      await t.caller.credential.setAllowedHosts({ id, allowedHosts: "crm.example.com, *.crm.example.org" }),
    ).toEqual({
      id,
      allowedHosts: ["crm.example.com", "*.crm.example.org"],
    });
    expect((await t.host.services.vault.reader.get(id)).data).toEqual({
      token: TOKEN,
      allowedHosts: "crm.example.com, *.crm.example.org",
    });
    expect((await listAudit(t.host, { action: "credential.hosts.updated" })).entries[0]).toMatchObject({
      actorId: t.ownerUser.id,
      target: id,
      details: { name: "CRM", allowedHosts: ["crm.example.com", "*.crm.example.org"] },
    });
    expect(
      await codeAndMessage(t.caller.credential.setAllowedHosts({ id, allowedHosts: "https://x.test/" })),
    ).toEqual({
      code: "BAD_REQUEST",
      message: 'allowedHosts: "https://x.test/" is not a host name (no scheme, path or user)',
      paths: ["data.allowedHosts"],
    });
  });

  it("refuses an editor who would widen a credential's hosts to send its secret elsewhere", async () => {
    const { id } = await t.caller.credential.create({
      name: "CRM",
      type: "httpBearer",
      data: { token: TOKEN, allowedHosts: "crm.example.com" },
    });
    const editor = await t.as("editor");
    // Even a credential the editor created: its hosts are what keeps its secret where it was meant to go.
    const own = await editor.caller.credential.create({
      name: "Editor's",
      type: "httpBearer",
      data: { token: "editor-token", allowedHosts: "api.example.com" },
    });
    const viewer = await t.as("viewer");
    for (const [who, target] of [
      [editor, id],
      [editor, own.id],
      [viewer, id],
    ] as const)
      expect(
        await codeAndMessage(
          who.caller.credential.setAllowedHosts({ id: target, allowedHosts: "evil.test" }),
        ),
      ).toMatchObject({ code: "FORBIDDEN" });
    expect((await t.host.services.vault.reader.get(id)).data).toEqual({
      token: TOKEN,
      allowedHosts: "crm.example.com",
    });
    expect((await t.host.services.vault.reader.get(own.id)).data.allowedHosts).toBe("api.example.com");
    expect((await listAudit(t.host, { action: "credential.hosts.updated" })).entries).toEqual([]);
  });
});
