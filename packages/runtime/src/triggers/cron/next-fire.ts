/**
 * Fire-time computation with explicit daylight-saving rules — the one piece of cron we keep, because
 * node-cron 4.6.0 provably lacks it: its matcher (and so schedule() and getNextRuns()) skips a wall
 * time that falls into a spring-forward gap (a daily 02:30 Europe/Berlin job does not run at all on
 * 2025-03-30), runs a repeated wall time at its SECOND occurrence, and pauses hourly and sub-hourly
 * schedules for the repeated hour (America/New_York "*\/30" fires 05:00Z, 05:30Z, then 07:00Z on
 * 2025-11-02). It also reads the wall clock only (`new Date()`), so it cannot run on an injected
 * clock. Wall-clock matches come from node-cron (expression.ts); this module turns them into
 * instants one UTC-offset segment at a time (the offset is constant between two transitions):
 *
 * - Spring forward (a gap, e.g. 02:00–02:59 does not exist in Europe/Berlin on the last Sunday of
 *   March): a schedule whose hour field is not "*" and that matches any wall time inside the gap fires
 *   ONCE at the first valid instant after the gap (03:00 local), never at the shifted 03:30 and never
 *   twice even if it also matches 03:00. A schedule whose hour field is "*" simply has no matches in
 *   the missing hour and keeps its rhythm by elapsed time ("0 * * * *" fires at 01:00 and then 03:00
 *   local, one hour apart; "30 * * * *" fires at 01:30 and 03:30).
 * - Fall back (a repeat, e.g. 02:00–02:59 happens twice on the last Sunday of October): a schedule whose
 *   hour field is not "*" fires a repeated wall time only on its FIRST occurrence. A schedule whose
 *   hour field is "*" fires in both passes, so hourly and minutely schedules keep firing by elapsed
 *   time ("0 * * * *" fires at 02:00 summer time and again one hour later at 02:00 winter time).
 */
import type { CompiledSchedule } from "./expression";

/** Enough for a century of transitions; only reached by schedules that never match. */
const MAX_SEGMENTS = 250;
/** Longer than any DST shift, so a repeated hour before `after` is always seen. */
const REPEAT_LOOKBACK_MS = 6 * 3_600_000;

/** The first fire instant (ms) strictly after `after`, or undefined when the schedule never fires again. */
export function nextFire(schedule: CompiledSchedule, after: number): number | undefined {
  const tz = schedule.timezone;
  let at = Math.floor(after / 1000) * 1000 + 1000;
  let fromWall = schedule.everyHour ? undefined : endOfRepeatedWall(at, tz);
  for (let i = 0; i < MAX_SEGMENTS; i++) {
    const offset = offsetAt(at, tz);
    const wall = schedule.wallAtOrAfter(Math.max(fromWall ?? at + offset, at + offset));
    if (wall === undefined) return undefined;
    const candidate = wall - offset;
    const change = firstTransition(at, candidate, tz);
    if (change === undefined) return candidate;
    const newOffset = offsetAt(change, tz);
    if (newOffset > offset) {
      // Gap: walls in [change+offset, change+newOffset) do not exist today.
      if (!schedule.everyHour && wall < change + newOffset) return change;
      fromWall = change + newOffset;
    } else {
      // Repeat: walls in [change+newOffset, change+offset) come round a second time.
      fromWall = schedule.everyHour ? change + newOffset : change + offset;
    }
    at = change;
  }
  return undefined;
}

/**
 * When `at` lies in the second pass of a repeated hour, the wall time at which that repeat ends
 * (so wall-clock schedules do not fire the repeat); otherwise undefined.
 */
function endOfRepeatedWall(at: number, tz: string): number | undefined {
  const change = firstTransition(at - REPEAT_LOOKBACK_MS, at, tz);
  if (change === undefined) return undefined;
  const before = offsetAt(change - 1000, tz);
  const after = offsetAt(change, tz);
  if (after >= before) return undefined;
  const repeatEnd = change + before;
  return at + after < repeatEnd ? repeatEnd : undefined;
}

/**
 * The latest fire instant in (notBefore, at], or undefined. Widens a look-back window geometrically so
 * a secondly schedule costs a few dozen steps and a monthly one a few dozen widenings.
 */
export function latestFireAtOrBefore(
  schedule: CompiledSchedule,
  at: number,
  notBefore: number,
): number | undefined {
  for (let window = 60_000; ; window *= 4) {
    const start = Math.max(at - window, notBefore);
    let fire = nextFire(schedule, start);
    if (fire !== undefined && fire <= at) {
      for (;;) {
        const following = nextFire(schedule, fire);
        if (following === undefined || following > at) return fire;
        fire = following;
      }
    }
    if (start === notBefore) return undefined;
  }
}

/** The next `count` fire instants strictly after `after`. */
export function nextFires(schedule: CompiledSchedule, after: number, count: number): number[] {
  const out: number[] = [];
  let from = after;
  while (out.length < count) {
    const fire = nextFire(schedule, from);
    if (fire === undefined) break;
    out.push(fire);
    from = fire;
  }
  return out;
}

// Time-zone arithmetic on Intl, on whole seconds (cron has no finer resolution).

const formatters = new Map<string, Intl.DateTimeFormat>();
const DAY_MS = 86_400_000;

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
function offsetAt(instant: number, timezone: string): number {
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
function firstTransition(from: number, to: number, timezone: string): number | undefined {
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
