export * from "./handoff";
export * from "./run-message";
export * from "./system-prompt";
