import type { Host } from "../host";
import { sqliteOf } from "./test-host";

/** Lets the host's outbound guard reach the loopback brokers, as an operator's allow-list would. */
export async function allowLoopback(host: Host) {
  await host.settings.set("http.allowHosts", ["127.0.0.1"]);
  await host.services.reloadHttp();
}

/** Stores a broker credential bound to 127.0.0.1 and returns its id. */
export async function brokerCredential(host: Host, type: "mqtt" | "amqp", data: Record<string, string>) {
  const { id } = await host.services.vault.create({
    name: `${type}-${Math.random().toString(36).slice(2)}`,
    type,
    data: { host: "127.0.0.1", allowedHosts: "127.0.0.1", ...data },
  });
  return id;
}

/** A trigger → flow.noop flow. */
export const triggerFlow = (type: string, config: Record<string, unknown>) => ({
  nodes: [
    { id: "in", type, config },
    { id: "done", type: "flow.noop", config: {} },
  ],
  edges: [{ from: { node: "in", port: "main" }, to: { node: "done", port: "main" } }],
});

/** Every run of a flow's trigger payload, oldest first. */
export const payloadsOf = (host: Host, flowId: string) =>
  (
    sqliteOf(host)
      .prepare(`SELECT triggerPayload FROM "Run" WHERE flowId = ? ORDER BY createdAt, rowid`)
      .all(flowId) as { triggerPayload: string }[]
  ).map((r) => JSON.parse(r.triggerPayload) as Record<string, unknown>);

/** Polls a condition (the wait decides nothing: a test asserts after it). */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 60_000,
  /** What the failure message adds (the state the wait ended in). */
  state?: () => unknown,
) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${state ? `: ${JSON.stringify(await state())}` : ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
