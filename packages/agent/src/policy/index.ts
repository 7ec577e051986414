export * from "./agent-session";
export * from "./boundary";
export * from "./channels";
export * from "./permission";
export * from "./session";
