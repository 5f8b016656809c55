// The empty topic ("general chat") as clients without the empty_topic_name capability see it: by
// the organization's display name for it. Used by the read endpoints and by each event queue.

/** The empty topic shown by its display name, for clients that do not handle "". */
export function renameEmpty(obj: Record<string, unknown>, fields: string[], displayName: string): void {
  for (const f of fields) if (obj[f] === '') obj[f] = displayName;
}
