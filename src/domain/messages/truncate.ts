// The real server's truncation of text it shortens rather than refuses (a draft's topic, the
// snippet a report quotes): the start, then a marker, within `max` characters in all.
export function truncate(text: string, max: number, marker: string): string {
  return text.length <= max ? text : text.slice(0, max - marker.length) + marker;
}
