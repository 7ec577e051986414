import { randomBytes } from "node:crypto";

let lastMs = 0;
let counter = 0;
// Random bytes drawn 4 KiB at a time: one syscall per 256 ids instead of one per id.
let pool = Buffer.alloc(0);
let poolAt = 0;
function random10(): Buffer {
  if (poolAt + 10 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  poolAt += 10;
  return pool.subarray(poolAt - 10, poolAt);
}

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
    counter = random10().readUInt16BE() & 0x3ff; // random start, leaves room to count up
  }
  lastMs = ms;
  const b = Buffer.allocUnsafe(16);
  random10().copy(b, 6);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
