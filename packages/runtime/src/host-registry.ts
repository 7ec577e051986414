import type { Host } from "./host";

// Next.js bundles its own copies of modules, so the running host is shared through a global symbol.
const key = Symbol.for("switchyard.host");

export function setCurrentHost(host: Host | undefined): void {
  (globalThis as Record<symbol, unknown>)[key] = host;
}

export function getCurrentHost(): Host | undefined {
  return (globalThis as Record<symbol, unknown>)[key] as Host | undefined;
}

// The web app loads these packages at run time (not bundled by Next). The host process hands over the
// instances it runs, so they are shared — and work when the host itself runs precompiled.
const packagesKey = Symbol.for("switchyard.packages");

export type SharedPackageName = "runtime" | "nodes";

export function setSharedPackages(packages: Record<SharedPackageName, unknown>): void {
  (globalThis as Record<symbol, unknown>)[packagesKey] = packages;
}

export function getSharedPackage<T>(name: SharedPackageName): T | undefined {
  return ((globalThis as Record<symbol, unknown>)[packagesKey] as Record<SharedPackageName, T> | undefined)?.[
    name
  ];
}
