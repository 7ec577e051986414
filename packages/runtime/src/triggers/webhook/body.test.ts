import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@switchyard/engine";
import { HttpInputError, parseBody } from "./body";

const jsonReq = { headers: { "content-type": "application/json" } } as IncomingMessage;
const parse = (text: string) => parseBody(jsonReq, Buffer.from(text), "json");
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("JSON body depth", () => {
  it(`accepts a body nesting exactly ${MAX_JSON_DEPTH} levels`, () => {
    expect(() => parse(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parse(`[${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}]`)).not.toThrow();
  });

  it("refuses one level more with 400 body_too_deep, naming the limit and the byte where it was passed", () => {
    const text = nested(MAX_JSON_DEPTH + 1);
    let error: unknown;
    try {
      parse(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpInputError);
    expect(error).toMatchObject({
      status: 400,
      code: "body_too_deep",
      message: `JSON body nests deeper than ${MAX_JSON_DEPTH} levels (at byte ${5 * MAX_JSON_DEPTH}); send it flatter`,
    });
  });
});
