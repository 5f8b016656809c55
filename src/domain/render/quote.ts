// Quoting a message in Markdown, as the notification bot's reminders and moderation reports do.

/** A fence that does not occur in `content`, so the quoted message cannot end the quote early. */
export function unusedFence(content: string): string {
  let fence = '```';
  while (content.includes(fence)) fence += '`';
  return fence;
}
