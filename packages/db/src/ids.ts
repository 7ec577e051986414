import { randomBytes } from "node:crypto";

let lastMs = 0;
let counter = 0;

/**
 * UUIDv7 with a 12-bit per-millisecond counter (RFC 9562, method 1): ids sort by creation, even for
 * several made in the same millisecond, so "ORDER BY id" is admission order (FIFO) within a process.
 */
export function newId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      ms = ++lastMs;
      counter = 0;
    }
  } else {
    counter = randomBytes(2).readUInt16BE() & 0x3ff; // random start, leaves room to count up
  }
  lastMs = ms;
  const b = randomBytes(16);
  const t = BigInt(ms);
  for (let i = 0; i < 6; i++) b[i] = Number((t >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
