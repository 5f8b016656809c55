// The lenient times the global time syntax took before feature level 503, when the server read
// them with python-dateutil's parser (and the organization-independent zone abbreviations of its
// `common_timezones`), then, failing that, as a UNIX timestamp. This follows dateutil's default
// parse (month before day, no fuzzy matching) for what people write: `2017-06-05 22:30`,
// `Jun 5th 2017, 10:30PM`, `31 Dec 2017 5:30 am IST`, `12/31/2017`, `Tue, 06 Jun 2017 10:30:00
// +0000`, `20170605`, `10:30` (today), `1496701800`. Not imitated (taken as no time): dateutil's
// hour/minute/second words (`10h30`, `5 minutes`), `Jan of 2017`, and its fuzzy corners.
import { Ymd } from './lenient-ymd.js';
import { daysInMonth, fromEpoch, validFields, type ParsedTime } from './time-values.js';

/** zerver/lib/timezone.py `common_timezones`: abbreviation -> seconds east of UTC. */
const COMMON_TIMEZONES: Readonly<Record<string, number>> = {
  SST: -39600, HST: -36000, AKST: -32400, HDT: -32400, AKDT: -28800, PST: -28800, MST: -25200,
  PDT: -25200, CST: -21600, MDT: -21600, CDT: -18000, EST: -18000, AST: -14400, EDT: -14400,
  NST: -12600, ADT: -10800, NDT: -9000, GMT: 0, UTC: 0, WET: 0, BST: 3600, CET: 3600, MET: 3600,
  WAT: 3600, WEST: 3600, CAT: 7200, CEST: 7200, EET: 7200, MEST: 7200, SAST: 7200, EAT: 10800,
  EEST: 10800, IDT: 10800, MSK: 10800, PKT: 18000, IST: 19800, WIB: 25200, AWST: 28800,
  HKT: 28800, WITA: 28800, JST: 32400, KST: 32400, WIT: 32400, ACST: 34200, AEST: 36000,
  ChST: 36000, ACDT: 37800, AEDT: 39600, NZST: 43200, NZDT: 46800,
}; // prettier-ignore

// dateutil's parserinfo word lists (compared lower-cased).
const JUMP = new Set([
  ' ',
  '.',
  ',',
  ';',
  '-',
  '/',
  "'",
  'at',
  'on',
  'and',
  'ad',
  'm',
  't',
  'of',
  'st',
  'nd',
  'rd',
  'th',
]);
const MONTHS = ['jan january', 'feb february', 'mar march', 'apr april', 'may', 'jun june', 'jul july',
  'aug august', 'sep sept september', 'oct october', 'nov november', 'dec december'].map((w) => w.split(' ')); // prettier-ignore
const WEEKDAYS = ['mon monday', 'tue tuesday', 'wed wednesday', 'thu thursday', 'fri friday', 'sat saturday', 'sun sunday'].map((w) => w.split(' ')); // prettier-ignore
const UTC_ZONES = new Set(['UTC', 'GMT', 'Z', 'z']);

const indexIn = (table: string[][], word: string) => table.findIndex((names) => names.includes(word.toLowerCase()));
const monthOf = (w: string) => (indexIn(MONTHS, w) < 0 ? null : indexIn(MONTHS, w) + 1);
const ampmOf = (w: string) => ({ am: 0, a: 0, pm: 1, p: 1 })[w.toLowerCase()] ?? null;
const isJump = (w: string | undefined) => w !== undefined && JUMP.has(w.toLowerCase());
const isNumber = (w: string | undefined) => w !== undefined && /^(\d+(\.\d*)?|\.\d+)$/.test(w);

/**
 * dateutil's lexer: runs of letters, numbers, each space, each other character. A number keeps
 * one decimal point or comma (as a point); with more, or one at its end, they are tokens apart.
 */
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(/\p{L}+|\d[\d.,]*|\s|./gu)) {
    if (/^\s$/.test(run)) out.push(' ');
    else if (!/^\d/.test(run) || (/^\d+([.,]\d+)?$/.test(run) && !/^\d,/.test(run))) out.push(run.replace(',', '.'));
    else out.push(...run.split(/([.,])/).filter((part) => part !== ''));
  }
  return out;
}

interface Result {
  hour: number | null;
  minute: number | null;
  second: number | null;
  micro: number | null;
  weekday: number | null;
  ampm: number | null;
  tzname: string | null;
  tzoffset: number | null;
}

/** Seconds and microseconds of `12.5` as dateutil's `_parsems` reads them. */
function secondsAndMicro(s: string): [number, number] {
  const [whole, fraction] = s.split('.');
  return [Number(whole), fraction === undefined ? 0 : Number(fraction.padEnd(6, '0').slice(0, 6))];
}

function parseTokens(l: string[], ymd: Ymd): Result {
  const res: Result = {
    hour: null, minute: null, second: null, micro: null, weekday: null, ampm: null, tzname: null, tzoffset: null,
  }; // prettier-ignore
  let i = 0;
  while (i < l.length) {
    const tok = l[i];
    if (/^(nan|inf|infinity)$/i.test(tok)) throw new Error('not a finite number');
    if (isNumber(tok)) {
      i = numericToken(l, i, ymd, res);
    } else if (indexIn(WEEKDAYS, tok) >= 0) {
      res.weekday = indexIn(WEEKDAYS, tok);
    } else if (monthOf(tok) !== null) {
      ymd.add(monthOf(tok)!, 'M');
      if (l[i + 1] === '-' || l[i + 1] === '/') {
        const sep = l[i + 1];
        ymd.add(needed(l[i + 2]));
        if (l[i + 3] === sep) {
          ymd.add(needed(l[i + 4]));
          i += 2;
        }
        i += 2;
      }
    } else if (ampmOf(tok) !== null) {
      if (res.hour === null || res.hour < 0 || res.hour > 12) throw new Error('AM or PM without a 12-hour clock');
      const pm = ampmOf(tok)!;
      if (res.hour < 12 && pm === 1) res.hour += 12;
      else if (res.hour === 12 && pm === 0) res.hour = 0;
      res.ampm = pm;
    } else if (res.hour !== null && res.tzname === null && res.tzoffset === null && couldBeZone(tok)) {
      res.tzname = tok;
      res.tzoffset = UTC_ZONES.has(tok) ? 0 : null;
      // `GMT+3` means "my time +3 is GMT": the sign turns, and the name is not the zone.
      if (l[i + 1] === '+' || l[i + 1] === '-') {
        l[i + 1] = l[i + 1] === '+' ? '-' : '+';
        res.tzoffset = null;
        if (UTC_ZONES.has(tok)) res.tzname = null;
      }
    } else if (res.hour !== null && (tok === '+' || tok === '-')) {
      i = numericZone(l, i, res);
    } else if (!isJump(tok)) {
      throw new Error('unknown word');
    }
    i++;
  }
  return res;
}

const needed = (tok: string | undefined): string => {
  if (tok === undefined || !/^\d+$/.test(tok)) throw new Error('missing date part');
  return tok;
};

const couldBeZone = (tok: string) => tok.length <= 5 && (/^[A-Z]+$/.test(tok) || UTC_ZONES.has(tok));

/** `+0530`, `-03:00`, `+3` after a time. */
function numericZone(l: string[], i: number, res: Result): number {
  const sign = l[i] === '+' ? 1 : -1;
  const next = needed(l[i + 1]);
  let hours: number;
  let minutes: number;
  if (next.length === 4) [hours, minutes] = [Number(next.slice(0, 2)), Number(next.slice(2))];
  else if (l[i + 2] === ':') {
    [hours, minutes] = [Number(next), Number(needed(l[i + 3]))];
    i += 2;
  } else if (next.length <= 2) [hours, minutes] = [Number(next), 0];
  else throw new Error('bad zone');
  res.tzoffset = sign * (hours * 3600 + minutes * 60);
  return i + 1;
}

/** dateutil's `_parse_numeric_token`, less its hour/minute/second words. */
function numericToken(l: string[], i: number, ymd: Ymd, res: Result): number {
  const s = l[i];
  const value = Number(s);
  const next = l[i + 1];
  if (ymd.values.length === 3 && (s.length === 2 || s.length === 4) && res.hour === null && next !== ':') {
    // 20170605T22[30]
    res.hour = Number(s.slice(0, 2));
    if (s.length === 4) res.minute = Number(s.slice(2));
  } else if (s.length === 6 || (s.length > 6 && s.indexOf('.') === 6)) {
    if (ymd.values.length === 0 && !s.includes('.')) {
      // YYMMDD
      ymd.add(s.slice(0, 2));
      ymd.add(s.slice(2, 4));
      ymd.add(s.slice(4));
    } else {
      // HHMMSS[.ss]
      res.hour = Number(s.slice(0, 2));
      res.minute = Number(s.slice(2, 4));
      [res.second, res.micro] = secondsAndMicro(s.slice(4));
    }
  } else if (s.length === 8 || s.length === 12 || s.length === 14) {
    // YYYYMMDD[hhmm[ss]]
    ymd.add(s.slice(0, 4), 'Y');
    ymd.add(s.slice(4, 6));
    ymd.add(s.slice(6, 8));
    if (s.length > 8) {
      res.hour = Number(s.slice(8, 10));
      res.minute = Number(s.slice(10, 12));
      if (s.length > 12) res.second = Number(s.slice(12));
    }
  } else if (next === ':' && i + 2 < l.length) {
    // HH:MM[:SS[.ss]]
    res.hour = Math.trunc(value);
    const minutes = l[i + 2];
    if (!isNumber(minutes)) throw new Error('bad minutes');
    res.minute = Math.trunc(Number(minutes));
    if (minutes.includes('.')) res.second = Math.trunc(60 * (Number(minutes) % 1));
    if (l[i + 3] === ':' && i + 4 < l.length) {
      if (!isNumber(l[i + 4])) throw new Error('bad seconds');
      [res.second, res.micro] = secondsAndMicro(l[i + 4]);
      i += 2;
    }
    i += 2;
  } else if (next === '-' || next === '/' || next === '.') {
    // 2017-06-05, 12/31/2017, 05-Jun-2017
    ymd.add(s);
    const second = l[i + 2];
    if (second !== undefined && !isJump(second)) {
      if (/^\d+$/.test(second)) ymd.add(second);
      else if (monthOf(second) !== null) ymd.add(monthOf(second)!, 'M');
      else throw new Error('bad date');
      if (l[i + 3] === next) {
        const third = l[i + 4];
        if (third !== undefined && monthOf(third) !== null) ymd.add(monthOf(third)!, 'M');
        else ymd.add(needed(third));
        i += 2;
      }
      i += 1;
    }
    i += 1;
  } else if (next === undefined || isJump(next)) {
    const after = l[i + 2];
    if (after !== undefined && ampmOf(after) !== null) {
      // 10 pm
      res.hour = withAmpm(Math.trunc(value), ampmOf(after)!);
      i += 1;
    } else {
      ymd.add(s);
    }
    i += 1;
  } else if (ampmOf(next) !== null && value >= 0 && value < 24) {
    // 10pm
    res.hour = withAmpm(Math.trunc(value), ampmOf(next)!);
    i += 1;
  } else if (ymd.couldBeDay(value)) {
    ymd.add(s);
  } else {
    throw new Error('stray number');
  }
  return i;
}

function withAmpm(hour: number, pm: number): number {
  if (hour < 12 && pm === 1) return hour + 12;
  if (hour === 12 && pm === 0) return 0;
  return hour;
}

/** A two-digit year in the century that puts it within 50 years of `currentYear`. */
function fullYear(year: number, centurySpecified: boolean, currentYear: number): number {
  if (year >= 100 || centurySpecified) return year;
  let full = year + Math.floor(currentYear / 100) * 100;
  if (full >= currentYear + 50) full -= 100;
  else if (full < currentYear - 50) full += 100;
  return full;
}

/**
 * The time `text` names as dateutil read it, the missing parts taken from `today` (midnight UTC
 * of the server's current day, epoch milliseconds): `10:30` is today at 10:30. Null if none.
 */
export function parseLenientTime(text: string, today: number): ParsedTime | null {
  const ymd = new Ymd();
  let res: Result;
  let year: number | null, month: number | null, day: number | null;
  try {
    res = parseTokens(tokens(text), ymd);
    [year, month, day] = ymd.resolve();
  } catch {
    return null;
  }
  const found = [year, month, day, ...Object.values(res)].some((v) => v !== null);
  if (!found) return null;
  const now = new Date(today);
  const y = year === null ? now.getUTCFullYear() : fullYear(year, ymd.centurySpecified, now.getUTCFullYear());
  const m = month ?? now.getUTCMonth() + 1;
  // Today's day past the month's end is cut to its last day (a day given is not: `Feb 31` is none).
  let d = day ?? now.getUTCDate();
  if (day === null && m >= 1 && m <= 12 && y >= 1) d = Math.min(d, daysInMonth(y, m));
  let parsed: ParsedTime = {
    year: y,
    month: m,
    day: d,
    hour: res.hour ?? 0,
    minute: res.minute ?? 0,
    second: res.second ?? 0,
    micro: res.micro ?? 0,
    offsetSeconds: zoneOffset(res),
  };
  if (!validFields(parsed)) return null;
  if (res.weekday !== null && day === null) {
    // A weekday alone is its next occurrence (today included).
    const at = new Date(Date.UTC(2000, 0, 1));
    at.setUTCFullYear(parsed.year, parsed.month - 1, parsed.day);
    const ahead = (res.weekday - ((at.getUTCDay() + 6) % 7) + 7) % 7;
    const moved = fromEpoch(at.getTime() / 1000 + ahead * 86_400, parsed.micro);
    if (!moved) return null;
    parsed = {
      ...moved,
      hour: parsed.hour,
      minute: parsed.minute,
      second: parsed.second,
      offsetSeconds: parsed.offsetSeconds,
    };
  }
  return parsed;
}

/** dateutil's zone: a known abbreviation, an offset, UTC, or (an unknown name) none. */
function zoneOffset(res: Result): number | null {
  if (res.tzname !== null && Object.hasOwn(COMMON_TIMEZONES, res.tzname)) return COMMON_TIMEZONES[res.tzname];
  if (res.tzoffset !== null) return res.tzoffset;
  return null;
}

/**
 * A UNIX timestamp as Python's `float()` reads one (signs, `_` between digits, exponents), to
 * the microsecond; null when it is not one or falls outside years 1-9999.
 */
export function parseUnixTime(text: string): ParsedTime | null {
  const digits = String.raw`\d(?:_?\d)*`;
  const number = new RegExp(
    String.raw`^\s*[+-]?(?:${digits}(?:\.(?:${digits})?)?|\.${digits})(?:[eE][+-]?${digits})?\s*$`,
  );
  if (!number.test(text)) return null;
  const t = Number(text.trim().replace(/_/g, ''));
  if (!Number.isFinite(t)) return null;
  let seconds = Math.trunc(t);
  let micro = Math.round((t - seconds) * 1e6);
  if (micro >= 1_000_000) [seconds, micro] = [seconds + 1, micro - 1_000_000];
  else if (micro < 0) [seconds, micro] = [seconds - 1, micro + 1_000_000];
  return fromEpoch(seconds, micro);
}
