// The narrow a queue may be registered with: only message events matching every term reach the
// queue. As on the real server, events narrows support just the operators that can be checked
// on a message event alone (channel, topic, sender, is), and negation is not applied.
import { badRequest } from '../../errors.js';
import type { Event } from './queue.js';
import { readNarrowTerm, type NarrowTerm } from '../messages/narrow.js';
import { RESOLVED_TOPIC_PREFIX } from '../messages/topics.js';

const SUPPORTED = new Set(['stream', 'channel', 'topic', 'sender', 'is']);

/**
 * `senderEmail`: the sender's API email as the queue's level shows it, where that is not the
 * published `sender_email` (below feature level 163, the organization's setting decides it).
 */
export function buildMessageFilter(
  narrow: unknown[],
  senderEmail: SenderEmail = publishedSenderEmail,
): ((event: Event) => boolean) | null {
  const list = narrow.map(readNarrowTerm);
  if (!list.length) return null;
  for (const { operator } of list) {
    if (!SUPPORTED.has(operator)) throw badRequest(`Operator ${operator} not supported.`);
  }
  return (event) => list.every((term) => matches(term, event, senderEmail));
}

type SenderEmail = (message: Record<string, unknown>) => unknown;
const publishedSenderEmail: SenderEmail = (m) => m.sender_email;

const lower = (v: unknown) => String(v ?? '').toLowerCase();

function matches({ operator, operand }: NarrowTerm, event: Event, senderEmail: SenderEmail): boolean {
  const m = (event.message ?? {}) as Record<string, unknown>;
  const flags = Array.isArray(event.flags) ? (event.flags as string[]) : [];
  const isChannel = m.type === 'stream';
  switch (operator) {
    case 'stream':
    case 'channel':
      if (!isChannel) return false;
      return typeof operand === 'number' ? m.stream_id === operand : lower(operand) === lower(m.display_recipient);
    case 'topic':
      return isChannel && lower(operand) === lower(m.subject);
    case 'sender':
      return typeof operand === 'number' ? m.sender_id === operand : lower(operand) === lower(senderEmail(m));
    case 'is':
      return matchesIs(String(operand), m, flags);
    default:
      return false;
  }
}

function matchesIs(operand: string, m: Record<string, unknown>, flags: string[]): boolean {
  switch (operand) {
    case 'dm':
    case 'private':
      return m.type === 'private';
    case 'starred':
      return flags.includes('starred');
    case 'unread':
      return !flags.includes('read');
    case 'mentioned':
    case 'alerted':
      return flags.includes('mentioned') || flags.includes('wildcard_mentioned');
    case 'resolved':
      return m.type === 'stream' && String(m.subject ?? '').startsWith(RESOLVED_TOPIC_PREFIX);
    default:
      // Other `is` operands do not restrict the events a queue receives.
      return true;
  }
}
