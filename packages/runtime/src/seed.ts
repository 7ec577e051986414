import { DEFAULT_CHANNEL_CEILINGS } from "@switchyard/agent";
import type { FlowRepo, SettingsRepo } from "@switchyard/db";

/** The flow a new user finds on first start: a webhook that greets whoever calls it. */
export const exampleFlow = {
  nodes: [
    {
      id: "webhook",
      type: "trigger.webhook",
      typeVersion: 1,
      name: "Incoming request",
      config: { path: "hello", methods: ["POST"], responseMode: "sync" },
      position: { x: 0, y: 0 },
      onError: "stop",
    },
    {
      id: "greet",
      type: "data.set",
      typeVersion: 1,
      name: "Build greeting",
      config: {
        fields: [
          { name: "greeting", value: '="Hello, " & ($exists(item.body.name) ? item.body.name : "world")' },
        ],
        keepOnlySet: true,
      },
      position: { x: 260, y: 0 },
      onError: "stop",
    },
    {
      id: "respond",
      type: "webhook.respond",
      typeVersion: 1,
      name: "Reply",
      config: { status: 200, body: "=item" },
      position: { x: 520, y: 0 },
      onError: "stop",
    },
  ],
  edges: [
    { from: { node: "webhook", port: "main" }, to: { node: "greet", port: "main" } },
    { from: { node: "greet", port: "main" }, to: { node: "respond", port: "main" } },
  ],
  settings: { timezone: "UTC", maxRunMs: 300000, concurrency: 4 },
};

/** First start only: seeds the example flow once; deleting it later is respected. */
export async function seedFirstStart(repos: { flows: FlowRepo; settings: SettingsRepo }): Promise<boolean> {
  // spec/POLICY.md: the product never runs with an empty ceiling map (that means unrestricted).
  await repos.settings.setDefault("policy.channelCeilings", { ...DEFAULT_CHANNEL_CEILINGS });
  const firstStart = await repos.settings.setDefault("seed.exampleFlow", { at: new Date().toISOString() });
  if (!firstStart) return false;
  const { id } = await repos.flows.create({
    name: "Hello webhook (example)",
    description: 'POST JSON like {"name": "Ada"} to /hooks/hello and get a greeting back.',
    definition: exampleFlow,
  });
  // Active from the start, so `curl -X POST localhost:3000/hooks/hello` answers on a fresh install.
  await repos.flows.setActive(id, true);
  return true;
}
