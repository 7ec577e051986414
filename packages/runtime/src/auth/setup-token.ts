import { randomBytes, timingSafeEqual } from "node:crypto";
import { AuthError } from "./errors";
import { sha256 } from "./tokens";

/**
 * How a first-run setup request proves it may create the owner: a browser on this machine (`local`), or
 * the one-time token printed on the console at start, as Jupyter and Grafana do. Without it, the first
 * stranger to reach a fresh instance exposed on a network would own it.
 */
export interface SetupAccess {
  local: boolean;
  token?: string | null;
}

/** 256 random bits, kept in memory only: a new one at every start, useless once the owner exists. */
export function createSetupToken() {
  const token = randomBytes(32).toString("base64url");
  const expected = Buffer.from(sha256(token), "hex");
  return {
    token,
    /** Null when the request may set up; else the error that says what is missing. */
    problem(access: SetupAccess): AuthError | null {
      if (access.local) return null;
      if (!access.token)
        return new AuthError(
          "setup_token_required",
          "setting up from another machine needs the setup link printed on the server's console at start (…/setup?token=…)",
        );
      // Hashes have equal length, so the comparison takes the same time whatever was sent.
      const given = Buffer.from(sha256(String(access.token)), "hex");
      if (!timingSafeEqual(given, expected))
        return new AuthError(
          "setup_token_invalid",
          "the setup token is wrong; open the setup link printed on the server's console at its latest start",
        );
      return null;
    },
  };
}
