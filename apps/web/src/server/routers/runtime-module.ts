import { getSharedPackage } from "@switchyard/runtime/host-registry";

type RuntimePackage = typeof import("@switchyard/runtime");

/**
 * The runtime package is loaded at run time, not bundled: bundling its index drags in the nodes
 * package (whose sandbox resolves a wasm file through `import.meta.url`) and Prisma a second time.
 * The host process already holds this module, so the import shares its instance.
 */
let runtime: Promise<RuntimePackage> | undefined;
export function loadRuntime(): Promise<RuntimePackage> {
  // The host process (precompiled or not) shares the instance it runs; tests load the package themselves.
  const shared = getSharedPackage<RuntimePackage>("runtime");
  runtime ??= shared
    ? Promise.resolve(shared)
    : import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@switchyard/runtime");
  return runtime;
}
