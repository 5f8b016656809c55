// The web app's narrow URLs (the fragment after /#narrow/), as the real server writes them in
// rendered channel, topic and message links.

/** Text that every step below leaves as it is (ASCII letters, digits, "_", "-", "~"). */
const UNCHANGED = /^[\w~-]*$/;

/** The web app's hash encoding: URI-encode, then "." for "%" (and "%2E" for "."). */
function encodeHashComponent(text: string): string {
  // Most channel names and topics: no three passes (every channel message sent links to itself).
  if (UNCHANGED.test(text)) return text;
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

/** "3-Verona": the channel's ID, then its name with spaces as dashes. */
function channelSlug(streamId: number, name: string): string {
  return `${streamId}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

export function channelUrl(streamId: number, name: string): string {
  return `/#narrow/channel/${channelSlug(streamId, name)}`;
}

export function topicUrl(streamId: number, name: string, topic: string): string {
  return `${channelUrl(streamId, name)}/topic/${encodeHashComponent(topic)}`;
}

export function messageUrl(streamId: number, name: string, topic: string, messageId: number): string {
  return `${topicUrl(streamId, name, topic)}/near/${messageId}`;
}

/** A channel message's link naming the channel by ID alone, for someone who may not see its name. */
export function messageUrlByChannelId(streamId: number, topic: string, messageId: number): string {
  return `/#narrow/channel/${streamId}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
}

/** Link to a direct message: the conversation of its participants, near the message. */
export function directMessageUrl(participantIds: number[], messageId: number): string {
  return `/#narrow/dm/${[...participantIds].sort((a, b) => a - b).join(',')}-dm/near/${messageId}`;
}
