export * from "./loader";
export * from "./rules";
export * from "./schema";
