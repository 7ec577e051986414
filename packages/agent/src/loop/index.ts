export * from "./agent-loop";
export * from "./delegate-tools";
export * from "./tool-dispatch";
export * from "./trace";
export * from "./limit";
export * from "./incomplete";
export * from "./subagent-sessions";
export * from "./subagent-tools";
