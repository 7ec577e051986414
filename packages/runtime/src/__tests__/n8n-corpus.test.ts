/**
 * Acceptance 2 of #24: every n8n corpus file whose nodes ship in this package set is imported, stored,
 * run by the real runtime (temp SQLite, real HTTP on 127.0.0.1, a real SMTP sink) and its outputs are
 * the asserted ones. The integration files run in n8n-corpus-integrations.test.ts.
 */
import type { Server } from "node:http";
import { type CorpusEntry, loadCorpus, usesIntegration } from "@switchyard/import-n8n/corpus";
import { validateFlow } from "@switchyard/engine";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fillCorpus,
  importCorpusFlow,
  runAndCheck,
  startCorpusApi,
  type TestHost,
} from "./n8n-corpus-support";
import { startTestHost } from "./test-host";

const corpus = loadCorpus();
const byName = new Map(corpus.map((e) => [e.name, e]));
const runnable = corpus.filter((e) => e.expected.start && !usesIntegration(e));

let t: TestHost;
let api: { url: string; server: Server };
let smtp: SMTPServer;
let smtpPort = 0;
const mails: { mail: ParsedMail; to: string[] }[] = [];

beforeAll(async () => {
  t = await startTestHost();
  api = await startCorpusApi();
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, cb) {
      simpleParser(stream).then((mail) => {
        mails.push({ mail, to: session.envelope.rcptTo.map((r) => r.address) });
        cb();
      }, cb);
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  smtpPort = (smtp.server.address() as { port: number }).port;
  // The corpus's HTTP and SMTP servers are on loopback, which the outbound guard refuses unless allowed.
  await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
  await t.host.services.reloadHttp();
});
afterAll(async () => {
  await new Promise<void>((r) => smtp.close(() => r()));
  api.server.close();
  await t.close();
});

/** Credentials the core corpus needs, by the type its expectation names. */
async function credentialFor(type: string) {
  if (type !== "smtp") throw new Error(`the core corpus test has no ${type} credential`);
  const cred = await t.host.services.vault.create({
    name: "Corpus SMTP",
    type: "smtp",
    data: {
      host: "127.0.0.1",
      port: String(smtpPort),
      from: "default@example.test",
      allowedHosts: "127.0.0.1",
    },
  });
  return cred.id;
}

async function importEntry(entry: CorpusEntry, n: number) {
  const credentials: Record<string, string> = {};
  for (const [name, type] of Object.entries(entry.expected.credentials ?? {}))
    credentials[name] = await credentialFor(type);
  const workflows: Record<string, string> = {};
  for (const [n8nId, file] of Object.entries(entry.expected.workflows ?? {})) {
    const sub = byName.get(file)!;
    workflows[n8nId] = (await importCorpusFlow(t, sub, sub.text, {})).id;
  }
  const hook = `n8n/${entry.name}-${n}`;
  const text = fillCorpus(entry.text, { http: api.url, hook, unique: `corpus-${entry.name}-${n}` });
  return { hook, ...(await importCorpusFlow(t, entry, text, { credentials, workflows })) };
}

describe("the n8n corpus, imported and run by the runtime", () => {
  it("runs every file whose node types ship here (and leaves none out by mistake)", () => {
    expect(runnable.map((e) => e.name)).toEqual([
      "code",
      "edit-fields",
      "execute-workflow",
      "http-request",
      "if",
      "manual-trigger",
      "merge-append",
      "merge",
      "no-op",
      "schedule-http-code-merge",
      "schedule-trigger",
      "send-email",
      "set-legacy",
      "split-out",
      "stop-and-error",
      "switch",
      "unsupported-node",
      "wait",
      "webhook-async",
      "webhook-if-set-respond",
      "webhook-respond",
    ]);
  });

  runnable.forEach((entry, n) => {
    it(`${entry.name}: imports into a valid flow that produces the asserted outputs`, async () => {
      const imported = await importEntry(entry, n);
      const problems = validateFlow(imported.flow, t.host.services.registry, t.host.services.flowChecks());
      if (entry.expected.activation === "refused") {
        expect(problems.map((p) => p.code)).toEqual(["placeholder_node"]);
        // Neither a run nor activation gets past the placeholder: the message names the node and the n8n type.
        const refused = String(entry.expected.refused).replace("__FLOW__", imported.id);
        await expect(t.host.control.startRun(imported.id, { payload: {} })).rejects.toThrow(refused);
        await expect(t.host.control.setActive(imported.id, true)).rejects.toThrow(refused);
        expect((await t.host.flows.get(imported.id))?.active).toBe(false);
        return;
      } else expect(problems).toEqual([]);
      await runAndCheck(t, imported.id, entry, imported.hook);
      const mail = entry.expected.mail as
        | { to: string[]; from: string; subject: string; text: string }
        | undefined;
      if (mail) {
        for (let i = 0; i < 400 && mails.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
        expect(mails).toHaveLength(1);
        expect(mails[0]!.to).toEqual(mail.to);
        expect(mails[0]!.mail.from?.value[0]?.address).toBe(mail.from);
        expect(mails[0]!.mail.subject).toBe(mail.subject);
        expect(mails[0]!.mail.text?.trim()).toBe(mail.text);
      }
    });
  });
});
