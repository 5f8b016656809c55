// The indexed view over a state array: lookups by key, unique indexes and groups stay right
// through every change, and a group lists its rows in the order all() does while their group
// key stays the same (a channel's subscribers, a topic's messages).
import { describe, expect, it } from 'vitest';
import { Collection, type RowChange } from '../../src/store/collection.js';

interface Row {
  id: number;
  email: string;
  team: string | null;
  color: string;
}

function collection(rows: Row[]) {
  const changes: RowChange[] = [];
  const c = new Collection<Row>(
    rows,
    { key: (r) => r.id, unique: { email: (r) => r.email }, groups: { team: (r) => r.team } },
    (ch) => changes.push(ch),
  );
  return { c, changes };
}

const ids = (rows: Iterable<Row>) => [...rows].map((r) => r.id);
const rows = (): Row[] => [
  { id: 1, email: 'a@x', team: 'red', color: '#1' },
  { id: 2, email: 'b@x', team: 'red', color: '#2' },
  { id: 3, email: 'c@x', team: 'red', color: '#3' },
  { id: 4, email: 'd@x', team: 'blue', color: '#4' },
];

describe('Collection', () => {
  it('keeps a row where it was in its group when an update leaves its group key alone', () => {
    const { c, changes } = collection(rows());
    c.update(c.get(1)!, { color: '#9' });
    expect(ids(c.group('team', 'red'))).toEqual([1, 2, 3]);
    expect(ids(c.group('team', 'red'))).toEqual(ids(c.filter((r) => r.team === 'red')));
    expect(c.get(1)!.color).toBe('#9');
    expect(c.updatesOf(c.get(1)!)).toBe(1);
    expect(changes).toEqual([{ t: 'update', key: 1, patch: { color: '#9' } }]);
  });

  it('moves a row to the end of its new group, and out of every group for a null key', () => {
    const { c } = collection(rows());
    c.update(c.get(2)!, { team: 'blue' });
    expect(ids(c.group('team', 'red'))).toEqual([1, 3]);
    expect(ids(c.group('team', 'blue'))).toEqual([4, 2]);
    c.update(c.get(4)!, { team: null });
    expect(ids(c.group('team', 'blue'))).toEqual([2]);
    c.update(c.get(1)!, { team: 'green' });
    c.update(c.get(3)!, { team: 'green' });
    expect(c.group('team', 'red').size).toBe(0);
    expect(ids(c.group('team', 'green'))).toEqual([1, 3]);
  });

  it('follows a changed unique key and forgets the old one', () => {
    const { c } = collection(rows());
    c.update(c.get(3)!, { email: 'new@x' });
    expect(c.by('email', 'c@x')).toBeUndefined();
    expect(c.by('email', 'new@x')?.id).toBe(3);
    expect(c.by('email', 'a@x')?.id).toBe(1);
  });

  it('replays a logged update as update() made it', () => {
    const { c } = collection(rows());
    expect(c.replay({ t: 'update', key: 1, patch: { color: '#7', email: 'z@x' } })).toBe(true);
    expect(ids(c.group('team', 'red'))).toEqual([1, 2, 3]);
    expect(c.by('email', 'z@x')?.color).toBe('#7');
    expect(c.replay({ t: 'update', key: 99, patch: { color: '#7' } })).toBe(false);
  });

  it('drops removed rows from every index', () => {
    const { c } = collection(rows());
    c.remove(c.get(2)!);
    c.removeWhere((r) => r.team === 'blue');
    expect(ids(c.all())).toEqual([1, 3]);
    expect(ids(c.group('team', 'red'))).toEqual([1, 3]);
    expect(c.group('team', 'blue').size).toBe(0);
    expect(c.by('email', 'b@x')).toBeUndefined();
  });
});
