/**
 * The contracts several packages (and the browser) read, defined once. zod only: importing this never
 * pulls the engine, the runtime or Node built-ins into a bundle. Subpaths (`@switchyard/contracts/flow`,
 * `/runs`, `/triggers`, `/catalogue`, `/credentials`, `/cap`, `/placeholder`) load one part.
 */
export * from "./cap";
export * from "./catalogue";
export * from "./flow";
export * from "./runs";
export * from "./triggers";
export * from "./credentials";
export * from "./placeholder";
