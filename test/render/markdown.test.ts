// The Markdown renderer: marked plus the chat's own syntax (mentions, channel links, linkifiers).
import { beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';
import { renderMarkdown, renderMessage } from '../../src/domain/render/markdown.js';
import { expandUrlTemplate } from '../../src/domain/render/linkifiers.js';

let store: Store;
beforeEach(() => {
  store = new Store(readStateFile(defaultFixturePath()));
});

const user = (email: string) => store.users.by('email', email)!;
const hamlet = () => user('hamlet@zulip.com');
const html = (content: string) => renderMarkdown(store, content, hamlet());

describe('Markdown', () => {
  it('renders paragraphs, emphasis, code, links and line breaks', () => {
    expect(html('Hello **world**, *really*')).toBe('<p>Hello <strong>world</strong>, <em>really</em></p>');
    expect(html('Run `npm test`')).toBe('<p>Run <code>npm test</code></p>');
    expect(html('See [the site](https://zulip.com) and https://example.com')).toBe(
      '<p>See <a href="https://zulip.com">the site</a> and <a href="https://example.com">https://example.com</a></p>',
    );
    expect(html('one\ntwo\n\nthree')).toBe('<p>one<br>two</p>\n<p>three</p>');
    expect(html('```\ncode @**King Hamlet** #123\n```')).toBe(
      '<div class="codehilite"><pre><span></span><code>code @**King Hamlet** #123\n</code></pre></div>',
    );
  });

  it('shows raw HTML as text', () => {
    expect(html('<b>bold</b> <script>alert(1)</script>')).toBe(
      '<p>&lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });
});

describe('mentions', () => {
  it('renders user mentions by name, by name and ID, and by ID, and records them', () => {
    const r = renderMessage(store, '@**Othello, the Moor of Venice** @**Iago|2** @**|3**', hamlet());
    expect(r.html).toBe(
      '<p><span class="user-mention" data-user-id="5">@Othello, the Moor of Venice</span> ' +
        '<span class="user-mention" data-user-id="2">@Iago</span> <span class="user-mention" data-user-id="3">@Shiva</span></p>',
    );
    expect([...r.mentionedUserIds].sort()).toEqual([2, 3, 5]);
  });

  it('renders silent mentions without notifying', () => {
    const r = renderMessage(store, '@_**Iago** and @_**all**', hamlet());
    expect(r.html).toBe(
      '<p><span class="user-mention silent" data-user-id="2">Iago</span> and ' +
        '<span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>',
    );
    expect(r.mentionedUserIds.size).toBe(0);
    expect(r.mentionsChannelWildcard).toBe(false);
  });

  it('renders wildcard mentions and records which kind', () => {
    for (const w of ['all', 'everyone', 'channel', 'stream']) {
      const r = renderMessage(store, `@**${w}**`, hamlet());
      expect(r.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${w}</span></p>`);
      expect([r.mentionsChannelWildcard, r.mentionsTopicWildcard]).toEqual([true, false]);
    }
    const topic = renderMessage(store, '@**topic**', hamlet());
    expect(topic.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect([topic.mentionsChannelWildcard, topic.mentionsTopicWildcard]).toEqual([false, true]);
  });

  it('renders user group mentions', () => {
    const r = renderMessage(store, 'ping @*hamletcharacters*', hamlet());
    expect(r.html).toBe('<p>ping <span class="user-group-mention" data-user-group-id="9">@hamletcharacters</span></p>');
    expect([...r.mentionedGroupIds]).toEqual([9]);
  });

  it('leaves unknown, mismatched and mid-word mentions as Markdown', () => {
    const r = renderMessage(store, '@**Nobody** @**Iago|3** mail@**Iago**', hamlet());
    expect(r.html).toBe('<p>@<strong>Nobody</strong> @<strong>Iago|3</strong> mail@<strong>Iago</strong></p>');
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it('does not resolve an ambiguous name', () => {
    store.users.update(user('cordelia@zulip.com'), { full_name: 'Iago' });
    expect(html('@**Iago**')).toBe('<p>@<strong>Iago</strong></p>');
    expect(html('@**Iago|2**')).toBe('<p><span class="user-mention" data-user-id="2">@Iago</span></p>');
  });
});

describe('channel links', () => {
  it('links channels, topics and messages', () => {
    expect(html('#**Verona**')).toBe(
      '<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-Verona">#Verona</a></p>',
    );
    expect(html('#**Verona>greetings**')).toBe(
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic/greetings">#Verona &gt; greetings</a></p>',
    );
    expect(html('#**Verona>greetings@7**')).toBe(
      '<p><a class="message-link" href="/#narrow/channel/3-Verona/topic/greetings/near/7">#Verona &gt; greetings @ 💬</a></p>',
    );
    expect(html('#**core team**')).toBe(
      '<p><a class="stream" data-stream-id="6" href="/#narrow/channel/6-core-team">#core team</a></p>',
    );
  });

  it('leaves unknown channels, and private ones the author cannot see, as text', () => {
    expect(html('#**Atlantis**')).toBe('<p>#<strong>Atlantis</strong></p>');
    expect(renderMarkdown(store, '#**core team**', user('othello@zulip.com'))).toBe(
      '<p>#<strong>core team</strong></p>',
    );
    // Without an author (channel descriptions), only public channels link.
    expect(renderMarkdown(store, '#**core team** #**Verona**')).toBe(
      '<p>#<strong>core team</strong> <a class="stream" data-stream-id="3" href="/#narrow/channel/3-Verona">#Verona</a></p>',
    );
  });
});

describe('linkifiers', () => {
  it("applies the organization's linkifiers to whole words, not in code or links", () => {
    expect(html('Fixes #123 and RT42.')).toBe(
      '<p>Fixes <a href="https://github.com/zulip/zulip/issues/123">#123</a> and ' +
        '<a href="https://rt.example.com/ticket/42">RT42</a>.</p>',
    );
    expect(html('abc#123 #123abc `#123` [#123](https://x.org)')).toBe(
      '<p>abc#123 #123abc <code>#123</code> <a href="https://x.org">#123</a></p>',
    );
  });

  it('applies them in their order: the first that matches wins', () => {
    store.linkifiers.insert({
      id: 10,
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://second.example/{id}',
      example_input: null,
      reverse_template: null,
      alternative_url_templates: [],
    });
    expect(html('#7')).toBe('<p><a href="https://github.com/zulip/zulip/issues/7">#7</a></p>');
    store.linkifiers.remove(store.linkifiers.get(1)!);
    expect(html('#7')).toBe('<p><a href="https://second.example/7">#7</a></p>');
  });

  it('expands RFC 6570 templates with percent-encoding', () => {
    expect(expandUrlTemplate('https://x.org/{id}', { id: 'a b/c' })).toBe('https://x.org/a%20b%2Fc');
    expect(expandUrlTemplate('https://x.org/{+path}', { path: 'a/b' })).toBe('https://x.org/a/b');
    store.linkifiers.insert({
      id: 11,
      pattern: 'PR (?P<repo>[a-z]+)/(?P<num>[0-9]+)',
      url_template: 'https://git.example/{repo}/pull/{num}',
      example_input: null,
      reverse_template: null,
      alternative_url_templates: [],
    });
    expect(html('see PR web/12')).toBe('<p>see <a href="https://git.example/web/pull/12">PR web/12</a></p>');
  });
});

describe('quotes, spoilers and code blocks', () => {
  it('renders ```quote and > quotes as blockquotes whose mentions are silent', () => {
    const r = renderMessage(
      store,
      '```quote\nHi @**Iago** and @**all**\n```\n> @**Othello, the Moor of Venice** said so',
      hamlet(),
    );
    expect(r.html).toBe(
      '<blockquote>\n<p>Hi <span class="user-mention silent" data-user-id="2">Iago</span> and ' +
        '<span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>\n' +
        '<blockquote>\n<p><span class="user-mention silent" data-user-id="5">Othello, the Moor of Venice</span> said so</p>\n</blockquote>',
    );
    expect(r.mentionedUserIds.size).toBe(0);
    expect(r.mentionsChannelWildcard).toBe(false);
  });

  it('renders ```spoiler blocks with their header', () => {
    expect(html('```spoiler **Plot**\nThe butler did it.\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n' +
        '<p><strong>Plot</strong></p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>The butler did it.</p>\n</div></div>',
    );
  });

  it('renders other fenced code as a code block, language noted', () => {
    expect(html('```py\nprint("<hi>")\n```')).toBe(
      '<div class="codehilite" data-code-language="py"><pre><span></span><code>print(&quot;&lt;hi&gt;&quot;)\n</code></pre></div>',
    );
  });
});
