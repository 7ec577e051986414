import { describe, expect, it } from "vitest";
import { boundedJson, rememberJson } from "./bounded-json";

function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function randomJson(r: () => number, depth: number): unknown {
  const x = r();
  if (depth > 3 || x < 0.35)
    return [0, -1.5, 'a"b', "ü😀", true, null, undefined, new Date(0)][Math.floor(r() * 8)];
  if (x < 0.55) return Array.from({ length: Math.floor(r() * 3) }, () => randomJson(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (const k of ["a", "b", "1", "json", "__proto__x"]) if (r() < 0.5) o[k] = randomJson(r, depth + 1);
  return o;
}

const randomItems = (r: () => number) =>
  Array.from({ length: Math.floor(r() * 4) }, () =>
    r() < 0.85 ? { json: randomJson(r, 1) ?? {} } : { json: {}, binary: { f: { id: "x" } } },
  );

describe("boundedJson", () => {
  it("writes exactly JSON.stringify's text for item lists, step outputs and anything else (2 000 random values)", () => {
    const r = prng(7);
    for (let i = 0; i < 2000; i++) {
      const kind = r();
      const value =
        kind < 0.4
          ? randomItems(r)
          : kind < 0.8
            ? { main: randomItems(r), error: randomItems(r) }
            : randomJson(r, 0);
      // Twice: the second answer may come from what the first remembered.
      expect(boundedJson(value).json).toBe(JSON.stringify(value) ?? "null");
      expect(boundedJson(value).json).toBe(JSON.stringify(value) ?? "null");
    }
  });

  it("reuses the text remembered for a payload instead of serialising it again", () => {
    const payload = { body: { n: 41 } };
    rememberJson(payload, '{"body":{"n":41},"seen":"remembered"}');
    expect(boundedJson({ main: [{ json: payload }] }).json).toBe(
      '{"main":[{"json":{"body":{"n":41},"seen":"remembered"}}]}',
    );
  });

  it("cuts and marks text above the limit", () => {
    const items = [{ json: { s: "x".repeat(100) } }];
    const out = boundedJson(items, 50);
    expect(out.truncated).toBe(true);
    expect(JSON.parse(out.json)).toEqual({
      __truncated: true,
      originalChars: JSON.stringify(items).length,
      preview: JSON.stringify(items).slice(0, 50),
    });
  });

  it("cuts like JSON.stringify's text would be cut, and reports the whole length unless marked atLeast (2 000 random values, small limits)", () => {
    const r = prng(11);
    for (let i = 0; i < 2000; i++) {
      const kind = r();
      const value =
        kind < 0.4
          ? randomItems(r)
          : kind < 0.8
            ? { main: randomItems(r), error: randomItems(r) }
            : randomJson(r, 0);
      const full = JSON.stringify(value) ?? "null";
      const max = 1 + Math.floor(r() * 40);
      const out = boundedJson(value, max);
      if (full.length <= max) {
        expect(out).toEqual({ json: full, truncated: false });
        continue;
      }
      const cut = JSON.parse(out.json) as { originalChars: number; atLeast?: true; preview: string };
      expect(cut.preview).toBe(full.slice(0, max));
      if (cut.atLeast) expect(cut.originalChars).toBeLessThanOrEqual(full.length);
      else expect(cut.originalChars).toBe(full.length);
      expect(cut.originalChars).toBeGreaterThan(max);
    }
  });

  it("never builds the whole text of a list whose items each repeat one large payload (items × payload), only about the limit", () => {
    const payload = { body: { list: Array.from({ length: 500 }, () => ({ c: "x".repeat(190) })) } };
    const items = Array.from({ length: 5000 }, () => ({ json: { v: payload } }));
    const out = boundedJson({ main: items });
    const cut = JSON.parse(out.json) as { originalChars: number; atLeast?: true; preview: string };
    const one = `{"json":${JSON.stringify({ v: payload })}}`.length;
    expect(cut).toMatchObject({ __truncated: true, atLeast: true });
    expect(cut.originalChars).toBeGreaterThan(4 * 1024 * 1024);
    expect(cut.originalChars).toBeLessThanOrEqual(4 * 1024 * 1024 + one + 10);
    expect(cut.preview).toBe(`{"main":[{"json":${JSON.stringify({ v: payload })}}`.slice(0, 65_536));
  });
});
