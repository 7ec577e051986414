/**
 * hamming.wat compiled by wabt 1.0.39 (`wat2wasm`, no debug names): 385 bytes, checked against the source by
 * hamming-kernel.test.ts. Shipped as bytes so production needs no WebAssembly toolchain.
 */
export const HAMMING_WASM_BASE64 =
  "AGFzbQEAAAABEgJgBX9/f39/AGAFf39/f38BfwMDAgABBQMBAAEHGwMGbWVtb3J5AgAEc2NhbgAAB2NvbGxlY3QAAQq7AgLWAQIIfgN/IAApAwAhBSAAKQMIIQYgACkDECEHIAApAxghCCAAKQMgIQkgACkDKCEKIAApAzAhCyAAKQM4IQwgASACQQZ0aiENAkADQCABIA1PDQEgASkDACAFhXsgASkDCCAGhXt8IAEpAxAgB4V7IAEpAxggCIV7fHwgASkDICAJhXsgASkDKCAKhXt8IAEpAzAgC4V7IAEpAzggDIV7fHx8pyEOIAMgDjsBACAEIA5BAnRqIQ8gDyAPKAIAQQFqNgIAIANBAmohAyABQcAAaiEBDAALCwthAQN/AkADQCAFIAFPDQEgAC8BACEGIAYgAkkgBiACRiADQQBKcXIEQCAGIAJGBEAgA0EBayEDCyAEIAdBAnRqIAU2AgAgB0EBaiEHCyAAQQJqIQAgBUEBaiEFDAALCyAHCw==";

// TypeScript types WebAssembly in its DOM library, which this package does not load: what this file uses.
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

export interface HammingKernel {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  /** Distances of `n` codes at `codes` to the query at `q`: u16s at `out`, counted into 513 u32s at `hist`. */
  scan(q: number, codes: number, n: number, out: number, hist: number): void;
  /** Indexes (u32s at `res`) of the `n` distances at `out` below `limit`, then of the first `ties` equal to it. */
  collect(out: number, n: number, limit: number, ties: number, res: number): number;
}

let compiled: object | undefined;

/** A kernel with its own memory (one per index: each grows on its own). Compiling is synchronous (385 bytes). */
export function createHammingKernel(): HammingKernel {
  compiled ??= new WebAssembly.Module(Buffer.from(HAMMING_WASM_BASE64, "base64"));
  return new WebAssembly.Instance(compiled).exports as HammingKernel;
}
