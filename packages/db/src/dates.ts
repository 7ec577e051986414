let lastMs = Number.NaN;
let lastText = "";

/**
 * The text format Prisma's SQLite adapter writes for DateTime; raw SQL must match it so ordering works.
 * A run's rows are stamped many times within the same millisecond, so the last conversion is reused.
 */
export function sqlDate(d: Date | number = Date.now()): string {
  const ms = typeof d === "number" ? d : d.getTime();
  if (ms === lastMs) return lastText;
  const text = new Date(ms).toISOString().replace("Z", "+00:00");
  lastMs = ms;
  lastText = text;
  return text;
}
