// Renderings are kept per author and content while what they read is unchanged: a change to any
// of it must show in the next rendering of the same text; a change to anything else must not
// cost a new rendering.
import { beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';
import { renderMessage } from '../../src/domain/render/markdown.js';

let store: Store;
beforeEach(() => {
  store = new Store(readStateFile(defaultFixturePath()));
});

const user = (email: string) => store.users.by('email', email)!;

describe('the rendering cache', () => {
  it('gives the same result for the same text and author while nothing it reads changed', () => {
    const first = renderMessage(store, 'Hi @**Othello, the Moor of Venice**', user('hamlet@zulip.com'));
    // A new message is not something a rendering reads.
    store.messages.insert({ ...store.messages.all()[0], id: 9999 });
    expect(renderMessage(store, 'Hi @**Othello, the Moor of Venice**', user('hamlet@zulip.com'))).toBe(first);
  });

  it('a renamed user: the old mention no longer resolves, the new one does', () => {
    const text = 'Hi @**Othello, the Moor of Venice**';
    const before = renderMessage(store, text, user('hamlet@zulip.com'));
    expect(before.html).toContain('class="user-mention"');
    expect([...before.mentionedUserIds]).toEqual([5]);
    store.users.update(user('othello@zulip.com'), { full_name: 'Othello' });
    const after = renderMessage(store, text, user('hamlet@zulip.com'));
    expect(after.html).toBe('<p>Hi @<strong>Othello, the Moor of Venice</strong></p>');
    expect([...after.mentionedUserIds]).toEqual([]);
  });

  it('channel links depend on the author: a private channel links for its members only', () => {
    const text = 'See #**core team**';
    expect(renderMessage(store, text, user('iago@zulip.com')).html).toContain('class="stream"');
    expect(renderMessage(store, text, user('othello@zulip.com')).html).not.toContain('class="stream"');
    // Othello joins: the same text by him now links.
    store.subscriptions.insert({ ...store.subscriptions.all().find((s) => s.stream_id === 6)!, user_id: 5 });
    expect(renderMessage(store, text, user('othello@zulip.com')).html).toContain('class="stream"');
  });

  it('a new linkifier applies to a text rendered before', () => {
    const text = 'Ticket JIRA-7';
    expect(renderMessage(store, text).html).toBe('<p>Ticket JIRA-7</p>');
    store.linkifiers.insert({
      id: 99,
      pattern: 'JIRA-(?P<id>[0-9]+)',
      url_template: 'https://jira.example.com/{id}',
      example_input: null,
      reverse_template: null,
      alternative_url_templates: [],
    });
    expect(renderMessage(store, text).html).toBe('<p>Ticket <a href="https://jira.example.com/7">JIRA-7</a></p>');
  });

  it('a whole new state (reset, import) renders anew', () => {
    const text = 'Hi @**Othello, the Moor of Venice**';
    const before = renderMessage(store, text);
    const state = readStateFile(defaultFixturePath());
    state.users.find((u) => u.user_id === 5)!.full_name = 'Someone else';
    store.load(state);
    expect(renderMessage(store, text)).not.toBe(before);
    expect(renderMessage(store, text).html).not.toContain('user-mention');
  });
});
