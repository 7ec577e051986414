import { getSharedPackage } from "@switchyard/runtime/host-registry";

type TrpcPackage = typeof import("@switchyard/runtime/trpc");

/**
 * The runtime's tRPC module, loaded at run time, not bundled: the host process (`switchyard start`) hands
 * over the instance it runs, so this route serves the same router, host and event trackers as the rest
 * of the process, and the bundle carries no runtime code (Prisma, the node sandbox's wasm).
 */
let trpc: Promise<TrpcPackage> | undefined;
export function loadTrpc(): Promise<TrpcPackage> {
  const shared = getSharedPackage<TrpcPackage>("trpc");
  trpc ??= shared
    ? Promise.resolve(shared)
    : import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@switchyard/runtime/trpc");
  return trpc;
}
