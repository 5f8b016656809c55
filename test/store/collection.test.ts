// The indexed view over a state array: lookups by key, unique indexes and groups stay right
// through every change, and a group lists its rows in the order all() does while their group
// key stays the same (a channel's subscribers, a topic's messages); a multi-group lists its rows
// in that order always, even a row that joins a key late (a message starred from history).
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

const ids = (rows: Iterable<{ id: number }>) => [...rows].map((r) => r.id);
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

interface Tagged {
  id: number;
  tags: Record<string, true>;
}

/** A collection of rows tagged with keys, indexed by tag as messages are by the users with flags. */
function tagged(rows: Tagged[]) {
  const changes: RowChange[] = [];
  const c = new Collection<Tagged>(rows, { key: (r) => r.id, multiGroups: { tag: (r) => Object.keys(r.tags) } }, (ch) =>
    changes.push(ch),
  );
  return { c, changes };
}
const tags = (...names: string[]): Record<string, true> => Object.fromEntries(names.map((n) => [n, true]));
const taggedRows = (): Tagged[] => [
  { id: 1, tags: tags('a', 'b') },
  { id: 2, tags: tags('b') },
  { id: 3, tags: tags('a') },
  { id: 4, tags: tags('a', 'b', 'c') },
];
/** Each tag's rows as a walk over all() finds them: what every multi-group must equal. */
const walked = (c: Collection<Tagged>, tag: string) => ids(c.filter((r) => tag in r.tags));
const expectIndexed = (c: Collection<Tagged>) => {
  for (const tag of ['a', 'b', 'c', 'd']) expect(ids(c.multiGroup('tag', tag)), tag).toEqual(walked(c, tag));
};

describe('Collection multi-groups', () => {
  it('lists a row under each of its keys, in all() order, from the start and after inserts', () => {
    const { c } = tagged(taggedRows());
    expect(ids(c.multiGroup('tag', 'a'))).toEqual([1, 3, 4]);
    expect(ids(c.multiGroup('tag', 'b'))).toEqual([1, 2, 4]);
    expect(c.multiGroup('tag', 'd')).toEqual([]);
    c.insert({ id: 5, tags: tags('d', 'a') });
    expect(ids(c.multiGroup('tag', 'a'))).toEqual([1, 3, 4, 5]);
    expect(ids(c.multiGroup('tag', 'd'))).toEqual([5]);
    expectIndexed(c);
  });

  it('puts a row that gains a key later where all() has it, and drops it from a key it loses', () => {
    const { c, changes } = tagged(taggedRows());
    // A whole new tags object, as the store replaces a message's flags.
    c.update(c.get(2)!, { tags: tags('b', 'a', 'c') });
    expect(ids(c.multiGroup('tag', 'a'))).toEqual([1, 2, 3, 4]);
    expect(ids(c.multiGroup('tag', 'c'))).toEqual([2, 4]);
    c.update(c.get(1)!, { tags: tags('b') });
    expect(ids(c.multiGroup('tag', 'a'))).toEqual([2, 3, 4]);
    c.update(c.get(4)!, { tags: {} });
    expect(ids(c.multiGroup('tag', 'c'))).toEqual([2]);
    // The same keys in another order, and an update leaving the keys alone, move nothing.
    c.update(c.get(2)!, { tags: tags('c', 'a', 'b') });
    c.update(c.get(3)!, { tags: tags('a') });
    expect(ids(c.multiGroup('tag', 'a'))).toEqual([2, 3]);
    expectIndexed(c);
    expect(changes).toHaveLength(5);
  });

  it('drops removed rows, one by one and many at once', () => {
    const { c } = tagged(taggedRows());
    for (let id = 5; id <= 30; id++) c.insert({ id, tags: tags(id % 2 ? 'a' : 'b', 'c') });
    c.remove(c.get(3)!);
    expect(ids(c.multiGroup('tag', 'a')).slice(0, 3)).toEqual([1, 4, 5]);
    c.removeWhere((r) => r.id === 1);
    expect(c.removeWhere((r) => r.id > 10 && r.id < 25)).toHaveLength(14);
    expect(ids(c.multiGroup('tag', 'c'))).toEqual([4, 5, 6, 7, 8, 9, 10, 25, 26, 27, 28, 29, 30]);
    expectIndexed(c);
    c.removeWhere(() => true);
    expect(c.multiGroup('tag', 'c')).toEqual([]);
    expectIndexed(c);
  });

  it('is built on its first read: the same lists whether read before the changes or only after', () => {
    const change = (c: Collection<Tagged>) => {
      c.insert({ id: 5, tags: tags('a', 'd') });
      c.update(c.get(2)!, { tags: tags('a', 'c') });
      c.update(c.get(4)!, { tags: tags('d') });
      for (let id = 6; id <= 20; id++) c.insert({ id, tags: tags('b') });
      c.removeWhere((r) => r.id > 8 && r.id < 19);
      c.remove(c.get(1)!);
    };
    const readFirst = tagged(taggedRows());
    expect(ids(readFirst.c.multiGroup('tag', 'a'))).toEqual([1, 3, 4]);
    change(readFirst.c);
    const readAfter = tagged(taggedRows());
    change(readAfter.c);
    for (const tag of ['a', 'b', 'c', 'd'])
      expect(ids(readAfter.c.multiGroup('tag', tag)), tag).toEqual(ids(readFirst.c.multiGroup('tag', tag)));
    expectIndexed(readFirst.c);
    expectIndexed(readAfter.c);
    expect(ids(readAfter.c.multiGroup('tag', 'a'))).toEqual([2, 3, 5]);
  });

  it('works keys out again only for an update of the fields they are read from, when those are declared', () => {
    let calls = 0;
    const c = new Collection<Tagged & { note?: string }>(
      taggedRows(),
      {
        key: (r) => r.id,
        multiGroups: { tag: (r) => (calls++, Object.keys(r.tags)) },
        multiGroupFields: ['tags'],
      },
      () => {},
    );
    expect(ids(c.multiGroup('tag', 'a'))).toEqual([1, 3, 4]);
    const built = calls;
    c.update(c.get(1)!, { note: 'a reaction' });
    expect(calls).toBe(built);
    c.update(c.get(2)!, { tags: tags('a') });
    expect(calls).toBe(built + 2);
    expect(ids(c.multiGroup('tag', 'a'))).toEqual([1, 2, 3, 4]);
  });

  it('replays logged inserts, updates and removals as the live changes made them', () => {
    const live = tagged(taggedRows());
    live.c.insert({ id: 5, tags: tags('b') });
    live.c.update(live.c.get(3)!, { tags: tags('a', 'b', 'd') });
    live.c.remove(live.c.get(1)!);
    const replayed = tagged(taggedRows());
    for (const change of structuredClone(live.changes)) expect(replayed.c.replay(change)).toBe(true);
    for (const tag of ['a', 'b', 'c', 'd']) {
      expect(ids(replayed.c.multiGroup('tag', tag)), tag).toEqual(ids(live.c.multiGroup('tag', tag)));
    }
    expect(ids(replayed.c.multiGroup('tag', 'b'))).toEqual([2, 3, 4, 5]);
    expectIndexed(replayed.c);
  });
});
