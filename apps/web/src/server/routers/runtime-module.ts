type RuntimePackage = typeof import("@switchyard/runtime");

/**
 * The runtime package is loaded at run time, not bundled: bundling its index drags in the nodes
 * package (whose sandbox resolves a wasm file through `import.meta.url`) and Prisma a second time.
 * The host process already holds this module, so the import shares its instance.
 */
let runtime: Promise<RuntimePackage> | undefined;
export function loadRuntime(): Promise<RuntimePackage> {
  runtime ??= import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@switchyard/runtime");
  return runtime;
}
