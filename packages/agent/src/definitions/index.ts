export * from "./agent-ref-check";
export * from "./loader";
export * from "./rules";
export * from "./schema";
