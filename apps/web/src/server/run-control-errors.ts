import { TRPCError } from "@trpc/server";

const codes = { not_found: "NOT_FOUND", bad_request: "BAD_REQUEST", conflict: "CONFLICT" } as const;

/** RunControlError from the runtime → the matching tRPC code (matched by name: no runtime import in the bundle). */
export function fromRunControl(e: unknown): unknown {
  if (e instanceof Error && e.name === "RunControlError") {
    const code = codes[(e as Error & { code: keyof typeof codes }).code] ?? "BAD_REQUEST";
    return new TRPCError({ code, message: e.message });
  }
  return e;
}
