/** What "Create flow" starts from: just a manual trigger, so the flow is valid from the first save. */
export function newFlowDefinition() {
  return {
    nodes: [
      {
        id: "trigger",
        type: "trigger.manual",
        typeVersion: 1,
        name: "Manual trigger",
        config: {},
        position: { x: 0, y: 0 },
        onError: "stop",
      },
    ],
    edges: [],
    settings: { timezone: "UTC", maxRunMs: 300000, concurrency: 4 },
  };
}
