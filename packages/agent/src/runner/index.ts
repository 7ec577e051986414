export * from "./create-agent-runner";
export * from "./retrieval-only";
export * from "./semaphore";
export * from "./turn";
