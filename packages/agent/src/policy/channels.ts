/** Safe channel ceilings seeded on first start (spec/POLICY.md). The settings page edits them. */
import type { PermissionLevel } from "./permission";

/**
 * `subflow` is deliberately absent: a sub-flow inherits its parent run's channel (see
 * `effectiveChannel`); if one still arrives as `subflow`, the missing entry fails safe to read_only.
 */
export const DEFAULT_CHANNEL_CEILINGS: Readonly<Record<string, PermissionLevel>> = Object.freeze({
  email: "read_only",
  webhook: "read_only",
  // An error run carries data from a failed run, which may have come from a hostile sender.
  error: "read_only",
  cron: "write",
  api: "write",
  manual: "execute",
});

/** The channel whose ceiling applies: a sub-flow run uses its parent's channel. */
export function effectiveChannel(channel: string, parentChannel?: string): string {
  return channel === "subflow" && parentChannel ? parentChannel : channel;
}
