import type { Host } from "@switchyard/runtime";
import { getCurrentHost } from "@switchyard/runtime/host-registry";

export class HostUnavailableError extends Error {
  override name = "HostUnavailableError";
}

/** The runtime host started by `switchyard start` in this same process. */
export function requireHost(): Host {
  const host = getCurrentHost();
  if (!host)
    throw new HostUnavailableError(
      "Switchyard runtime is not running in this process; start the app with `npm start`",
    );
  return host;
}
