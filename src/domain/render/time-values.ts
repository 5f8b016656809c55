// A point in time as the global time syntax's parsers read it (calendar fields, an optional UTC
// offset), and the `datetime` attribute the real server writes for it: the time in UTC in
// Python's isoformat, microseconds only when there are some, `Z` for `+00:00`.

export interface ParsedTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  /** Seconds east of UTC (may carry microseconds); null: no zone given, taken as UTC. */
  offsetSeconds: number | null;
}

/** Python's datetime covers years 1 to 9999; a time outside them is not a time there. */
const MIN_YEAR = 1;
const MAX_YEAR = 9999;

export function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Whether the fields make a datetime Python would build (it refuses the rest with ValueError). */
export function validFields(t: ParsedTime): boolean {
  const ints = [t.year, t.month, t.day, t.hour, t.minute, t.second, t.micro];
  if (!ints.every(Number.isInteger)) return false;
  if (t.year < MIN_YEAR || t.year > MAX_YEAR || t.month < 1 || t.month > 12) return false;
  if (t.day < 1 || t.day > daysInMonth(t.year, t.month)) return false;
  if (t.hour < 0 || t.hour > 23 || t.minute < 0 || t.minute > 59 || t.second < 0 || t.second > 59) return false;
  return t.micro >= 0 && t.micro <= 999_999 && (t.offsetSeconds === null || Math.abs(t.offsetSeconds) < 86_400);
}

/** Seconds since the epoch of a calendar time read as UTC (years below 100 included). */
function epochSeconds(t: Omit<ParsedTime, 'micro' | 'offsetSeconds'>): number {
  const d = new Date(0);
  d.setUTCFullYear(t.year, t.month - 1, t.day);
  d.setUTCHours(t.hour, t.minute, t.second, 0);
  return d.getTime() / 1000;
}

/** The UTC calendar time of `seconds` (whole) and `micro` since the epoch, or null outside 1-9999. */
export function fromEpoch(seconds: number, micro: number): ParsedTime | null {
  const d = new Date(seconds * 1000);
  const year = d.getUTCFullYear();
  if (!Number.isFinite(seconds) || year < MIN_YEAR || year > MAX_YEAR) return null;
  return {
    year,
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    micro,
    offsetSeconds: 0,
  };
}

/** Whole days added to a valid calendar date (ISO week dates, an hour of 24). */
export function addDays(t: ParsedTime, days: number): ParsedTime | null {
  const moved = fromEpoch(epochSeconds(t) + days * 86_400, t.micro);
  return moved && { ...moved, offsetSeconds: t.offsetSeconds };
}

/**
 * The `datetime` attribute for a valid time: converted to UTC when it has an offset, as it is
 * otherwise. Null when the conversion leaves Python's years (the server fails on it).
 */
export function datetimeAttribute(t: ParsedTime): string | null {
  let seconds = epochSeconds(t);
  let micro = t.micro;
  if (t.offsetSeconds !== null) {
    // Whole seconds and microseconds apart: their sum in microseconds passes 2^53.
    const offsetMicro = Math.round(t.offsetSeconds * 1e6);
    const wholeSeconds = Math.trunc(offsetMicro / 1_000_000);
    seconds -= wholeSeconds;
    micro -= offsetMicro - wholeSeconds * 1_000_000;
    if (micro < 0) [seconds, micro] = [seconds - 1, micro + 1_000_000];
    else if (micro >= 1_000_000) [seconds, micro] = [seconds + 1, micro - 1_000_000];
  }
  const utc = fromEpoch(seconds, micro);
  if (!utc) return null;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const fraction = utc.micro ? `.${p(utc.micro, 6)}` : '';
  return `${p(utc.year, 4)}-${p(utc.month)}-${p(utc.day)}T${p(utc.hour)}:${p(utc.minute)}:${p(utc.second)}${fraction}Z`;
}
