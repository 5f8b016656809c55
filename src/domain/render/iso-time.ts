// The ISO 8601 times the global time syntax takes from feature level 503: the forms Python's
// `datetime.fromisoformat` reads (3.11 and later), the standard library's ISO parser the server
// moved to when it dropped its lenient date parser. A date `YYYY-MM-DD` or `YYYYMMDD`, or an ISO
// week date (`YYYY-Www[-D]`, `YYYYWww[D]`); then, after any one character, a time `HH[:MM[:SS]]`
// or `HHMM[SS]` with a fraction after `.` or `,`; then `Z` or an offset `±HH[[:]MM[[:]SS[.f]]]`.
import { addDays, daysInMonth, validFields, type ParsedTime } from './time-values.js';

const DIGITS = /^\d+$/;
const int = (s: string) => (DIGITS.test(s) ? Number(s) : NaN);

/** Where the date ends: Python's rule for finding the separator between date and time. */
function dateLength(s: string): number | null {
  if (s.length === 7) return 7;
  if (s[4] === '-') {
    if (s[5] !== 'W') return 10;
    if (s.length > 8 && s[8] === '-') {
      if (s.length === 9) return null;
      return s.length > 10 && /\d/.test(s[10]) ? 8 : 10;
    }
    return 8;
  }
  if (s[4] !== 'W') return 8;
  let i = 7;
  while (i < s.length && /\d/.test(s[i])) i++;
  if (i < 9) return i;
  return i % 2 === 0 ? 7 : 8;
}

type Fields = Pick<ParsedTime, 'year' | 'month' | 'day'>;

function parseDate(d: string): Fields | null {
  const year = int(d.slice(0, 4));
  const dashed = d[4] === '-';
  let pos = dashed ? 5 : 4;
  if (d[pos] === 'W') {
    const week = int(d.slice(pos + 1, pos + 3));
    pos += 3;
    let weekday = 1;
    if (d.length > pos) {
      if ((d[pos] === '-') !== dashed) return null;
      weekday = int(d.slice(pos + (dashed ? 1 : 0)));
    }
    return isoWeekDate(year, week, weekday);
  }
  const month = int(d.slice(pos, pos + 2));
  pos += 2;
  if ((d[pos] === '-') !== dashed) return null;
  const day = int(d.slice(pos + (dashed ? 1 : 0)));
  if (d.length !== pos + (dashed ? 3 : 2)) return null;
  return { year, month, day };
}

/** The calendar date of day `weekday` (1-7) of ISO week `week` of `year`. */
function isoWeekDate(year: number, week: number, weekday: number): Fields | null {
  if (!(year >= 1 && year <= 9999) || !(weekday >= 1 && weekday <= 7) || !(week >= 1 && week <= 53)) return null;
  const jan4 = new Date(0);
  jan4.setUTCFullYear(year, 0, 4);
  const weekOneMonday = new Date(jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * 86_400_000);
  if (week === 53) {
    // Only a year starting on a Thursday (or a leap year on a Wednesday) has 53 weeks.
    const jan1 = (jan4.getUTCDay() + 4) % 7;
    if (!(jan1 === 4 || (jan1 === 3 && daysInMonth(year, 2) === 29))) return null;
  }
  const day = new Date(weekOneMonday.getTime() + ((week - 1) * 7 + weekday - 1) * 86_400_000);
  return { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() };
}

type Clock = Pick<ParsedTime, 'hour' | 'minute' | 'second' | 'micro'>;

/** `HH[:?MM[:?SS[{.,}fff...]]]`, the colons used throughout or not at all. */
function parseClock(s: string): Clock | null {
  const parts = [0, 0, 0];
  let pos = 0;
  let colons = false;
  for (let i = 0; i < 3; i++) {
    if (s.length - pos < 2) return null;
    parts[i] = int(s.slice(pos, pos + 2));
    pos += 2;
    const next = s[pos];
    if (i === 0) colons = next === ':';
    if (next === undefined || i === 2) break;
    if (colons && next !== ':') return null;
    if (colons) pos++;
  }
  let micro = 0;
  if (pos < s.length) {
    if (s[pos] !== '.' && s[pos] !== ',') return null;
    const fraction = s.slice(pos + 1);
    // Any number of digits; the first six count.
    if (!DIGITS.test(fraction)) return null;
    micro = Number(fraction.slice(0, 6).padEnd(6, '0'));
  }
  const [hour, minute, second] = parts;
  return [hour, minute, second].some(Number.isNaN) ? null : { hour, minute, second, micro };
}

function parseTime(t: string): (Clock & { offsetSeconds: number | null }) | null {
  if (t.length < 2) return null;
  const signAt = [t.indexOf('-'), t.indexOf('+'), t.indexOf('Z')].find((i) => i >= 0) ?? -1;
  const clock = parseClock(signAt >= 0 ? t.slice(0, signAt) : t);
  if (!clock) return null;
  if (signAt < 0) return { ...clock, offsetSeconds: null };
  if (signAt === t.length - 1 && t[signAt] === 'Z') return { ...clock, offsetSeconds: 0 };
  const zone = t.slice(signAt + 1);
  if (t[signAt] === 'Z' || [0, 1, 3].includes(zone.length)) return null;
  const z = parseClock(zone);
  if (!z) return null;
  const offset = z.hour * 3600 + z.minute * 60 + z.second + z.micro / 1e6;
  return { ...clock, offsetSeconds: t[signAt] === '-' ? -offset : offset };
}

/** The time an ISO 8601 text names, as the server from level 503 reads it; null if it is none. */
export function parseIsoTime(text: string): ParsedTime | null {
  if (text.length < 7) return null;
  const end = dateLength(text);
  if (end === null) return null;
  const date = parseDate(text.slice(0, end));
  if (!date) return null;
  const timeText = text.slice(end + 1);
  const time = timeText ? parseTime(timeText) : { hour: 0, minute: 0, second: 0, micro: 0, offsetSeconds: null };
  if (!time) return null;
  // 24:00 (nothing after it) is midnight at the end of the day.
  const endOfDay = time.hour === 24 && time.minute === 0 && time.second === 0 && time.micro === 0;
  const parsed = { ...date, ...time, hour: endOfDay ? 0 : time.hour };
  if (!validFields(parsed)) return null;
  return endOfDay ? addDays(parsed, 1) : parsed;
}
