import type { Host } from "./host";

// Next.js bundles its own copies of modules, so the running host is shared through a global symbol.
const key = Symbol.for("switchyard.host");

export function setCurrentHost(host: Host | undefined): void {
  (globalThis as Record<symbol, unknown>)[key] = host;
}

export function getCurrentHost(): Host | undefined {
  return (globalThis as Record<symbol, unknown>)[key] as Host | undefined;
}
