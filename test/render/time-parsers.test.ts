// The readers of the global time syntax, form by form: ISO 8601 as Python's datetime.fromisoformat
// takes it (from FL 503), python-dateutil's default parse and UNIX timestamps (before it). Each
// case gives the `datetime` attribute the server writes, or null for no time.
import { describe, expect, it } from 'vitest';
import { parseIsoTime } from '../../src/domain/render/iso-time.js';
import { parseLenientTime, parseUnixTime } from '../../src/domain/render/lenient-time.js';
import { datetimeAttribute } from '../../src/domain/render/time-values.js';

const iso = (s: string) => {
  const t = parseIsoTime(s);
  return t && datetimeAttribute(t);
};
/** Today, for the lenient reader: 27 November 2026 (a Friday), midnight UTC. */
const TODAY = Date.UTC(2026, 10, 27);
const lenient = (s: string) => {
  const t = parseLenientTime(s, TODAY) ?? parseUnixTime(s);
  return t && datetimeAttribute(t);
};

describe('ISO 8601 (from FL 503)', () => {
  it.each([
    ['2017-06-05', '2017-06-05T00:00:00Z'],
    ['20170605', '2017-06-05T00:00:00Z'],
    ['2017-06-05T22:30', '2017-06-05T22:30:00Z'],
    ['2017-06-05 22:30:00Z', '2017-06-05T22:30:00Z'],
    ['2017-06-05x2230', '2017-06-05T22:30:00Z'],
    ['20170605T223000', '2017-06-05T22:30:00Z'],
    ['2017-06-05T22', '2017-06-05T22:00:00Z'],
    ['2017-06-05T22:30:00.5', '2017-06-05T22:30:00.500000Z'],
    ['2017-06-05T22:30:00,123456789', '2017-06-05T22:30:00.123456Z'],
    ['2017-06-05T22:30:00+05:30', '2017-06-05T17:00:00Z'],
    ['2017-06-05T22:30:00-0700', '2017-06-06T05:30:00Z'],
    ['2017-06-05T22:30:00-07', '2017-06-06T05:30:00Z'],
    ['2017-06-05T22:30:00+00:00', '2017-06-05T22:30:00Z'],
    ['2017-06-05T22:30:00+05:30:15', '2017-06-05T16:59:45Z'],
    ['2017-06-05T24:00', '2017-06-06T00:00:00Z'],
    ['2017-W01', '2017-01-02T00:00:00Z'],
    ['2017-W01-7', '2017-01-08T00:00:00Z'],
    ['2017W017', '2017-01-08T00:00:00Z'],
    ['2020-W53-5', '2021-01-01T00:00:00Z'],
    ['2024-02-29', '2024-02-29T00:00:00Z'],
  ])('%s is %s', (written, datetime) => expect(iso(written)).toBe(datetime));

  it.each([
    '1496701800',
    'Jun 5 2017',
    '2017-06',
    '2017-6-5',
    '2017-0605',
    '2017-06-05T2:30',
    '2017-06-05T22:3',
    '2017-06-05T22:30:',
    '2017-06-05T22:30+5',
    '2017-06-05T22:30Z+01:00',
    '2017-06-05T24:01',
    '2017-06-05T22:60',
    '2017-02-29',
    '2017-13-01',
    '2019-W53',
    '0001-01-01T00:00+01:00',
    ' 2017-06-05',
    '',
  ])('%j is no time', (written) => expect(iso(written)).toBeNull());
});

describe('lenient times (before FL 503)', () => {
  it.each([
    // The real server's own fixtures.
    ['Jun 5th 2017, 10:30PM', '2017-06-05T22:30:00Z'],
    ['31 Dec 2017', '2017-12-31T00:00:00Z'],
    ['31 Dec 2017 5:30 am IST', '2017-12-31T00:00:00Z'],
    ['1496701800', '2017-06-05T22:30:00Z'],
    // Month before day, two-digit years near today, names of months and days.
    ['12/31/2017', '2017-12-31T00:00:00Z'],
    ['1.2.2017', '2017-01-02T00:00:00Z'],
    ['5 June 17', '2017-06-05T00:00:00Z'],
    ['Sept 5, 2017', '2017-09-05T00:00:00Z'],
    ['Tue, 06 Jun 2017 10:30:00 +0000', '2017-06-06T10:30:00Z'],
    ['2017-06-05T22:30:00.25-07:00', '2017-06-06T05:30:00.250000Z'],
    ['20170605223000', '2017-06-05T22:30:00Z'],
    ['20170605T2230', '2017-06-05T22:30:00Z'],
    // Missing parts from today; a weekday alone is its next occurrence.
    ['10:30', '2026-11-27T10:30:00Z'],
    ['10pm', '2026-11-27T22:00:00Z'],
    ['12 am', '2026-11-27T00:00:00Z'],
    ['13pm', '2026-11-27T13:00:00Z'],
    ['June', '2026-06-27T00:00:00Z'],
    ['February 2027', '2027-02-27T00:00:00Z'],
    ['Monday 9:00', '2026-11-30T09:00:00Z'],
    ['Friday', '2026-11-27T00:00:00Z'],
    // Zones: the server's abbreviations, offsets, GMT+3 as "three hours behind GMT", unknown names ignored.
    ['9:00 PST', '2026-11-27T17:00:00Z'],
    ['9:00 Z', '2026-11-27T09:00:00Z'],
    ['9:00 GMT+3', '2026-11-27T12:00:00Z'],
    ['9:00 XYZ', '2026-11-27T09:00:00Z'],
    ['9:00 -03:00', '2026-11-27T12:00:00Z'],
    // What dateutil cannot read may still be a UNIX timestamp.
    ['12345678', '1970-05-23T21:21:18Z'],
    ['123456', '1970-01-02T10:17:36Z'],
    ['1496701800.5', '2017-06-05T22:30:00.500000Z'],
    ['1_496_701_800', '2017-06-05T22:30:00Z'],
    ['1e9', '2001-09-09T01:46:40Z'],
  ])('%s is %s', (written, datetime) => expect(lenient(written)).toBe(datetime));

  it.each([
    'invalid',
    '**hello world**',
    '<alert(1)',
    'pm',
    '13:00 pm',
    'Feb 31 2017',
    'nan',
    'inf',
    'tomorrow',
    '',
    '1e20',
  ])('%j is no time', (written) => expect(lenient(written)).toBeNull());
});
