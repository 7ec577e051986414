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
// instances it runs, so the web's tRPC route serves the host's own router — also when the host runs
// precompiled, where no separate module file exists to import.
const packagesKey = Symbol.for("switchyard.packages");

export type SharedPackageName = "trpc";

export function setSharedPackages(packages: Record<SharedPackageName, unknown>): void {
  (globalThis as Record<symbol, unknown>)[packagesKey] = packages;
}

export function getSharedPackage<T>(name: SharedPackageName): T | undefined {
  return ((globalThis as Record<symbol, unknown>)[packagesKey] as Record<SharedPackageName, T> | undefined)?.[
    name
  ];
}
