/**
 * Time-zone arithmetic on top of Intl: the UTC offset in force at an instant and the instant at which
 * it next changes. Everything works on whole seconds (ms values that are multiples of 1000), because
 * cron has no finer resolution.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
const DAY_MS = 86_400_000;

/** Whether Intl knows this IANA time zone (e.g. "Europe/Berlin", "UTC"). */
export function isKnownTimezone(timezone: string): boolean {
  if (timezone.trim() === "") return false;
  try {
    formatterFor(timezone);
    return true;
  } catch {
    return false;
  }
}

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** Offset (local wall clock minus UTC) in ms in force at `instant`. */
export function offsetAt(instant: number, timezone: string): number {
  const t = Math.floor(instant / 1000) * 1000;
  const p: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(t)) {
    if (part.type !== "literal") p[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    p.year ?? 0,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return wall - t;
}

/**
 * The first whole-second instant in (from, to] whose offset differs from the offset at `from`, or
 * undefined when the offset is constant over the interval. Samples once a day and bisects, so two
 * transitions less than a day apart that cancel out would be missed; no IANA zone does that.
 */
export function firstTransition(from: number, to: number, timezone: string): number | undefined {
  const base = offsetAt(from, timezone);
  let lo = from;
  while (lo < to) {
    const hi = Math.min(lo + DAY_MS, to);
    if (offsetAt(hi, timezone) !== base) return bisect(lo, hi, base, timezone);
    lo = hi;
  }
  return undefined;
}

/** Narrow (lo, hi] — offset(lo) === base, offset(hi) !== base — down to the first changed second. */
function bisect(lo: number, hi: number, base: number, timezone: string): number {
  let a = lo;
  let b = hi;
  while (b - a > 1000) {
    const mid = a + Math.floor((b - a) / 2000) * 1000;
    if (offsetAt(mid, timezone) === base) a = mid;
    else b = mid;
  }
  return b;
}
