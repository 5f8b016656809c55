// Renders message content and channel descriptions to HTML. (First version: plain markdown via
// `marked`; mentions and linkifiers are added by the messaging work.)
import { marked } from 'marked';
import type { Store } from '../../store/store.js';

export function renderMarkdown(_store: Store, content: string): string {
  return (marked.parse(content, { async: false, gfm: true, breaks: true }) as string).trim();
}
