// What a bot's successful (2xx) answer asks the server to post, read as the real server reads it
// (process_success_response and each format's process_success): Zulip's format posts `content`
// (or the older `response_string`) unless `response_not_required`; Slack's posts `text`. The JSON
// string "" (zulip_botserver before 2021-05) and blank content post nothing; text that is not JSON,
// or JSON that is not an object, is a failure with the real server's wording.
import { pyStr } from './py-text.js';

export interface Reply {
  content: string;
  /** Zulip's format: a widget the message should carry (as given: a JSON text). */
  widgetContent?: unknown;
}

/** A 2xx answer the server cannot use: the bot fails with this text. */
export class AnswerError extends Error {}

/** Python's truth value of a JSON value. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return !!value;
}

function genericReply(json: Record<string, unknown>): Reply | null {
  if (truthy(json.response_not_required)) return null;
  if ('response_string' in json) return { content: pyStr(json.response_string) };
  if ('content' in json)
    return {
      content: pyStr(json.content),
      ...('widget_content' in json ? { widgetContent: json.widget_content } : {}),
    };
  return null;
}

function slackReply(json: Record<string, unknown>): Reply | null {
  // Slack's text is taken as it is; the real server's worker fails on a text that is not a string, posting nothing.
  return typeof json.text === 'string' ? { content: json.text } : null;
}

/** The reply a 2xx answer asks for (null: none). Throws AnswerError for an answer that is not usable. */
export function replyOf(slack: boolean, text: string): Reply | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AnswerError('Invalid JSON in response');
  }
  if (json === '') return null;
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new AnswerError('Invalid response format');
  const reply = slack ? slackReply(json as Record<string, unknown>) : genericReply(json as Record<string, unknown>);
  if (!reply || reply.content.trim() === '') return null;
  return reply;
}

/**
 * The real server's check of a widget's JSON text before posting (check_message). The mock keeps
 * no widgets (submessages): a valid widget's message is posted with its content only.
 */
export function checkWidgetContent(widget: unknown): void {
  if (widget === undefined || widget === null) return;
  try {
    JSON.parse(String(widget));
  } catch {
    throw new AnswerError('Widgets: API programmer sent invalid JSON content');
  }
}
