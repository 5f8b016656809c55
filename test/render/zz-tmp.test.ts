import { test } from 'vitest';
import { Store } from '../../src/store/store.js';
import { readStateFile, defaultFixturePath } from '../../src/store/fixture.js';
import { renderMessage } from '../../src/domain/render/markdown.js';
test('x', () => {
  const store = new Store(readStateFile(defaultFixturePath()));
  for (const c of ['@**King Hamlet** can you look at #123?', 'Hi @_**Shiva|3** and @**all** and @**topic**, see #**Verona** and #**Verona>test** #**Verona>test@5**',
    '`#123` and [#123](http://x) abc#123 RT55 (#9)', '<b>bold</b> **x** @**Nobody** @*hamletcharacters*', 'line1\nline2\n\n```\ncode @**King Hamlet**\n```', 'mail@**King Hamlet** x', '**#123**, #**core team**, https://zulip.com/#123']) {
    const r = renderMessage(store, c, store.users.get(4)!);
    console.log(r.html, [...r.mentionedUserIds], [...r.mentionedGroupIds], r.mentionsChannelWildcard, r.mentionsTopicWildcard);
  }
});
