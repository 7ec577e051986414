import { describe, expect, it } from "vitest";
import { StepAbort } from "./step-abort";

describe("StepAbort", () => {
  it("aborts a signal that was handed out earlier, with the reason", () => {
    const a = new StepAbort();
    const signal = a.signal;
    const seen: unknown[] = [];
    signal.addEventListener("abort", () => seen.push(signal.reason));
    a.abort("timeout");
    expect(signal.aborted).toBe(true);
    expect(seen).toEqual(["timeout"]);
  });

  it("hands out an already aborted signal when it is first read after the abort", () => {
    const a = new StepAbort();
    a.abort("cancelled");
    expect(a.aborted).toBe(true);
    expect(a.signal.aborted).toBe(true);
    expect(a.signal.reason).toBe("cancelled");
  });

  it("keeps the first reason when aborted twice", () => {
    const a = new StepAbort();
    a.abort("first");
    a.abort("second");
    expect(a.reason).toBe("first");
    expect(a.signal.reason).toBe("first");
  });
});
