import { NotFoundError } from "@switchyard/db";
import { describe, expect, it } from "vitest";
import { AuthError } from "../auth/errors";
import { RunControlError } from "../runs/control";
import { CredentialError } from "../secrets/vault";
import { codeOfTrpc, errorCodeOf, errorCodes, HostError, statusOf, trpcCodeOf } from "./codes";

describe("the error-code list", () => {
  it("gives every code a client or server error status", () => {
    for (const [code, entry] of Object.entries(errorCodes)) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
    }
    expect(statusOf("invalid_flow")).toBe(400);
    expect(statusOf("host_not_allowed")).toBe(421);
    expect(trpcCodeOf("conflict")).toBe("CONFLICT");
  });

  it("reads a tRPC code back as the first code of the list that has it", () => {
    expect(codeOfTrpc("BAD_REQUEST")).toBe("invalid_request");
    expect(codeOfTrpc("FORBIDDEN")).toBe("forbidden");
    expect(codeOfTrpc("CLIENT_CLOSED_REQUEST")).toBe("internal");
  });

  it("reads the code each host error carries, from whichever package threw it", () => {
    expect(errorCodeOf(new HostError("conflict", "x"))).toBe("conflict");
    expect(errorCodeOf(new RunControlError("bad_request", "x"))).toBe("invalid_request");
    expect(errorCodeOf(new RunControlError("not_found", "x"))).toBe("not_found");
    expect(errorCodeOf(new NotFoundError("flow f not found"))).toBe("not_found");
    expect(errorCodeOf(new CredentialError("bad"))).toBe("invalid_request");
    expect(errorCodeOf(new AuthError("email_taken", "taken"))).toBe("conflict");
    expect(errorCodeOf(new AuthError("throttled", "slow down"))).toBe("rate_limited");
    expect(errorCodeOf(new AuthError("invalid_credentials", "wrong"))).toBe("unauthorized");
    // A wrong current password in a form is that field's mistake, not "you are signed out".
    expect(errorCodeOf(new AuthError("invalid_credentials", "wrong", "current"))).toBe("invalid_request");
  });

  it("reads no code from an error that declares none or one outside the list", () => {
    expect(errorCodeOf(new Error("boom"))).toBeUndefined();
    expect(errorCodeOf(Object.assign(new Error("x"), { errorCode: "teapot" }))).toBeUndefined();
    expect(errorCodeOf({ errorCode: "not_found" })).toBeUndefined();
  });
});
