import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import {
  codeOfTrpc,
  type ErrorCode,
  type ErrorDetails,
  errorCodeOf,
  invalidRequest,
  type Problem,
  statusOf,
} from "../../errors/codes";

/** Where a REST procedure's input fields come from: path parameters, else the query (GET, DELETE) or the body. */
export interface InputPlaces {
  params: readonly string[];
  rest: "query" | "body";
}

/** Every zod issue with its full path, prefixed with where the value was sent (params, query, body). */
export function inputProblems(e: ZodError, places: InputPlaces): Problem[] {
  return e.issues.flatMap((issue): Problem[] => {
    const [first, ...more] = issue.path.map(String);
    const place = first !== undefined && places.params.includes(first) ? "params" : places.rest;
    // A typo like `?flowid=` must not silently list everything: each unknown parameter is named.
    if (issue.code === "unrecognized_keys" && issue.path.length === 0 && place === "query")
      return issue.keys.map((k) => ({ path: `query.${k}`, message: `unknown query parameter '${k}'` }));
    return [
      { path: [place, first, ...more].filter((p) => p !== undefined).join("."), message: issue.message },
    ];
  });
}

export interface RestError {
  status: number;
  code: ErrorCode;
  body: { error: { code: ErrorCode; message: string; details?: ErrorDetails } };
}

const internalMessage = "internal error; the server log has the details";

/**
 * The REST answer for anything a procedure (or the request around it) threw: the error's own code
 * from the one list, zod problems with their places, else the code of the tRPC error. `internal` never
 * carries the error's message: that is for the log.
 */
export function restError(e: unknown, places: InputPlaces): RestError {
  const cause = e instanceof TRPCError && e.cause ? e.cause : e;
  let code: ErrorCode;
  let message: string;
  let details: ErrorDetails | undefined;
  // Only a refused input is the caller's mistake; an output that fails its schema is our bug (internal).
  if (cause instanceof ZodError && e instanceof TRPCError && e.code === "BAD_REQUEST") {
    const err = invalidRequest(inputProblems(cause, places));
    ({ errorCode: code, message, details } = err);
  } else if (errorCodeOf(cause)) {
    code = errorCodeOf(cause)!;
    message = (cause as Error).message;
    details = (cause as { details?: ErrorDetails }).details;
  } else if (e instanceof TRPCError) {
    code = codeOfTrpc(e.code);
    message = e.message;
  } else {
    code = "internal";
    message = internalMessage;
  }
  if (code === "internal") message = internalMessage;
  return {
    status: statusOf(code),
    code,
    body: { error: { code, message, ...(details === undefined ? {} : { details }) } },
  };
}
