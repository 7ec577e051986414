export * from "./agent-loop";
export * from "./delegate-tools";
export * from "./tool-dispatch";
export * from "./trace";
export * from "./limit";
