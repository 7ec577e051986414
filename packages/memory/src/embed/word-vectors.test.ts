import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../__tests__/temp-memory";
import { createBlendedEmbedder } from "./blend";
import { createDefaultEmbedder } from "./default";
import { dot } from "./embedder";
import { createHashingEmbedder } from "./hashing";
import { defaultWordVectorsPath, loadWordVectors, wordVectorLoads } from "./word-vector-asset";
import { createWordVectorEmbedder } from "./word-vectors";

const cos = async (e: { embed(t: string[]): Promise<Float32Array[]> }, a: string, b: string) => {
  const [x, y] = await e.embed([a, b]);
  return dot(x!, y!);
};

describe("word-vector embedder", () => {
  it("reads the committed asset: 50 000 frequent lowercase words × 100 int8 dimensions", () => {
    const t = loadWordVectors();
    expect([t.count, t.dims, t.vectors.length]).toEqual([50_000, 100, 5_000_000]);
    expect(t.index.get("the")).toBe(0);
    expect(t.index.has("refund")).toBe(true);
    expect(t.index.has("The")).toBe(false);
  });

  it("does not read the asset until the first text is embedded, and reads it once", async () => {
    const path = join(tempDir(), "copy.bin");
    copyFileSync(defaultWordVectorsPath(), path);
    const before = wordVectorLoads();
    const e = createWordVectorEmbedder({ path });
    expect(wordVectorLoads()).toBe(before);
    await e.embed(["invoice"]);
    await e.embed(["payroll"]);
    expect(wordVectorLoads()).toBe(before + 1);
  });

  it("refuses a file that is not a word-vector asset", async () => {
    const path = join(tempDir(), "junk.bin");
    writeFileSync(path, "definitely not vectors, just text");
    await expect(createWordVectorEmbedder({ path }).embed(["x"])).rejects.toThrow(
      "word-vectors.bin: not a Switchyard word-vector file (bad magic)",
    );
  });

  it("is deterministic and unit-length; text with no known words gives a zero vector", async () => {
    const e = createWordVectorEmbedder();
    const [a, b, none] = await e.embed([
      "Stripe payouts on Tuesday",
      "Stripe payouts on Tuesday",
      "zzqx 12345",
    ]);
    expect(a!.length).toBe(100);
    expect([...a!]).toEqual([...b!]);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(dot(none!, none!)).toBe(0);
  });

  it("scores paraphrases above unrelated texts, where word hashing sees nothing in common", async () => {
    const e = createWordVectorEmbedder();
    expect(await cos(e, "refund", "money back")).toBeGreaterThan(
      await cos(e, "refund", "wedding invitations"),
    );
    expect(await cos(e, "refund", "money back")).toBeGreaterThan(
      await cos(e, "refund", "guest wifi password"),
    );
    const q = "who can okay giving money back";
    expect(await cos(e, q, "Refunds above $200 need a second approver")).toBeGreaterThan(
      (await cos(e, q, "The Epson printer needs a nozzle check every Monday")) + 0.05,
    );
    expect(await cos(e, "when do staff get paid", "Payroll runs every other Friday")).toBeGreaterThan(
      (await cos(e, "when do staff get paid", "Guest wifi password is on the fridge")) + 0.2,
    );
    expect(Math.abs(await cos(createHashingEmbedder(), "refund", "money back"))).toBeLessThan(0.05);
  });
});

describe("default (blended) embedder", () => {
  it("keeps the meaning signal of word vectors and the fragment signal of hashing", async () => {
    const e = createDefaultEmbedder();
    expect(e.dimensions).toBe(484);
    expect(await cos(e, "refund", "money back")).toBeGreaterThan(
      await cos(e, "refund", "wedding invitations"),
    );
    expect(await cos(e, "laminat", "laminator pouches")).toBeGreaterThan(
      (await cos(e, "laminat", "guest wifi password")) + 0.1,
    );
    const [a, b] = await e.embed(["Refunds need a second approver", "Refunds need a second approver"]);
    expect([...a!]).toEqual([...b!]);
  });

  it("makes the blended cosine the weighted mean of the parts' cosines", async () => {
    const w = createWordVectorEmbedder();
    const h = createHashingEmbedder();
    const blend = createBlendedEmbedder([
      { embedder: w, weight: 0.25 },
      { embedder: h, weight: 0.75 },
    ]);
    const [a, b] = ["late payment reminder", "invoice overdue notice"];
    expect(await cos(blend, a, b)).toBeCloseTo(0.25 * (await cos(w, a, b)) + 0.75 * (await cos(h, a, b)), 5);
    expect(blend.id).toBe("blend(glove100-sif-v1@100*0.25+hashing-v1@384*0.75)@484");
    expect(() => createBlendedEmbedder([{ embedder: h, weight: 0 }])).toThrow(
      "weight of hashing-v1@384 must be > 0",
    );
  });
});
