// The text of a push notification, from the message's HTML as the real server's
// get_mobile_push_content reads it (plain text, mentions kept with their @, images as
// "[image]"), then cut at 200 characters with an ellipsis (its truncate_content).
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

const MAX_PUSH_CONTENT = 200;

export function pushContent(html: string): string {
  const text = html
    .replace(/<img[^>]*>/g, '[image]')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<\/(p|li|h[1-6]|pre|blockquote|div)>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_m, name: string) => ENTITIES[name]);
  return text.replace(/\n{3,}/g, '\n\n').trim();
}

/** The real server's truncate_content: [text, whether it was cut]. */
export function truncateContent(text: string): [string, boolean] {
  const chars = [...text];
  if (chars.length <= MAX_PUSH_CONTENT) return [text, false];
  return [`${chars.slice(0, MAX_PUSH_CONTENT).join('')}…`, true];
}
