// The year, month and day values of a lenient time as python-dateutil's parser gathers them
// (its `_ymd`): each value with what it is known to be (a month by name, a year by its digits),
// then resolved month before day, as its default parse does (lenient-time.ts).
import { daysInMonth } from './time-values.js';

/** Year, month and day values with what each is known to be (dateutil's `_ymd`). */
export class Ymd {
  values: number[] = [];
  yearAt: number | null = null;
  monthAt: number | null = null;
  centurySpecified = false;

  add(value: string | number, label?: 'Y' | 'M'): void {
    const n = typeof value === 'string' ? Math.trunc(Number(value)) : value;
    if ((typeof value === 'string' && /^\d{3,}$/.test(value)) || (typeof value === 'number' && value > 100)) {
      this.centurySpecified = true;
      if (label === 'M') throw new Error('not a month');
      label = 'Y';
    }
    if (label === 'M') {
      if (this.monthAt !== null) throw new Error('month twice');
      this.monthAt = this.values.length;
    } else if (label === 'Y') {
      if (this.yearAt !== null) throw new Error('year twice');
      this.yearAt = this.values.length;
    }
    this.values.push(n);
  }

  couldBeDay(n: number): boolean {
    if (this.monthAt === null) return n >= 1 && n <= 31;
    const month = this.values[this.monthAt];
    const year = this.yearAt === null ? 2000 : this.values[this.yearAt];
    return n >= 1 && n <= daysInMonth(year, month);
  }

  /** dateutil's resolve_ymd with dayfirst and yearfirst off. */
  resolve(): [number | null, number | null, number | null] {
    const v = this.values;
    const known = (this.yearAt !== null ? 1 : 0) + (this.monthAt !== null ? 1 : 0);
    if ((v.length === known && known > 0) || (v.length === 3 && known === 2)) {
      const dayAt = [0, 1, 2].find((i) => i !== this.yearAt && i !== this.monthAt);
      const at = (i: number | null | undefined) => (i === null || i === undefined || i >= v.length ? null : v[i]);
      return [at(this.yearAt), at(this.monthAt), v.length === 3 ? at(dayAt) : null];
    }
    if (v.length > 3) throw new Error('too many date values');
    const m = this.monthAt;
    if (v.length === 1 || (m !== null && v.length === 2)) {
      const other = m !== null ? v.at(m - 1)! : v[0];
      const month = m !== null ? v[m] : null;
      if (v.length > 1 || m === null) return other > 31 ? [other, month, null] : [null, month, other];
      return [null, month, null];
    }
    if (v.length === 2) {
      if (v[0] > 31) return [v[0], v[1], null];
      if (v[1] > 31) return [v[1], v[0], null];
      return [null, v[0], v[1]];
    }
    if (v.length === 3) {
      if (m === 0) return v[1] > 31 ? [v[1], v[0], v[2]] : [v[2], v[0], v[1]];
      if (m === 1) return v[0] > 31 ? [v[0], v[1], v[2]] : [v[2], v[1], v[0]];
      if (m === 2) return v[1] > 31 ? [v[1], v[2], v[0]] : [v[0], v[2], v[1]];
      if (v[0] > 31 || this.yearAt === 0) return [v[0], v[1], v[2]];
      if (v[0] > 12) return [v[2], v[1], v[0]];
      return [v[2], v[0], v[1]];
    }
    return [null, null, null];
  }
}
