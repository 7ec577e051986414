import { readFileSync } from "node:fs";
import wabt from "wabt";
import { describe, expect, it } from "vitest";
import { HAMMING_WASM_BASE64 } from "./hamming-kernel";

describe("the Hamming kernel", () => {
  it("ships exactly what hamming.wat compiles to", async () => {
    const source = readFileSync(new URL("./hamming.wat", import.meta.url), "utf8");
    const module = (await wabt()).parseWat("hamming.wat", source);
    module.validate();
    const { buffer } = module.toBinary({});
    expect(Buffer.from(buffer).toString("base64")).toBe(HAMMING_WASM_BASE64);
  });
});
