/**
 * Deterministic pseudo-random text from a small-business vocabulary (xorshift, fixed seed), shared by the
 * memory benchmarks so they generate the same items and queries. One sequence per process: each bench draws
 * from it in its own order, as it did when each carried its own copy.
 */
let seed = 0x9e3779b9;
export const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
};
export const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
export const VOCAB = (
  "invoice payment customer order quote supplier paper delivery printer stock refund reminder payroll lease " +
  "insurance backup shipping label banner poster flyer menu wedding invitation proof approval deadline friday " +
  "monday thursday wholesale retail discount price increase contract meeting call email webhook flow cron " +
  "schedule report summary digest account bank reconcile tax accountant holiday closure staff intern training " +
  "safety cutter laminator ink cartridge colour profile coated uncoated courier pickup shelf notification sms"
).split(" ");
export const sentence = (n: number) => Array.from({ length: n }, () => pick(VOCAB)).join(" ");
