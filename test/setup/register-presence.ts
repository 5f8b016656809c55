// Which fields a 10.2 server's POST /register answer has, for which fetch_event_types. Most rules
// are read from the reference description's own wording ("Present if `realm` is present in
// `fetch_event_types`"); the few fields whose description states no rule, or states less than the
// server does, get theirs from the table below, written from fetch_initial_state_data in the real
// server's zerver/lib/events.py at 10.2 (facts only).

export interface PresenceRule {
  /** Sections that must all be wanted (by fetch_event_types, else event_types, else all). */
  sections: string[];
  /** Absent when the client declared this capability. */
  unlessCapability?: string;
  /** Absent when `user_topic` is wanted too and the client named its sections. */
  unlessUserTopic?: boolean;
  /** May be absent even when wanted (the demo organization's deletion date). */
  optional?: boolean;
}

/** The 10.2 server's rules the description's wording does not give (or gives only in part). */
const EXPLICIT: Record<string, PresenceRule> = {
  queue_id: { sections: [] },
  last_event_id: { sections: [] },
  zulip_feature_level: { sections: [] },
  zulip_version: { sections: [] },
  zulip_merge_base: { sections: [] },
  drafts: { sections: ['drafts'] },
  demo_organization_scheduled_deletion_date: { sections: ['realm'], optional: true },
  // `want("muted_topics") and (event_types is None or not want("user_topic"))`.
  muted_topics: { sections: ['muted_topics'], unlessUserTopic: true },
};

/** Rules by field: the explicit table, else the description's wording, else (realm_* / server_*) the realm section. */
export function presenceRules(fields: Record<string, any>): Map<string, PresenceRule> {
  const rules = new Map<string, PresenceRule>();
  for (const [name, schema] of Object.entries(fields)) {
    if (['result', 'msg', 'ignored_parameters_unsupported'].includes(name)) continue;
    const text = String(schema?.description ?? '').replace(/\s+/g, ' ');
    const both = text.match(/Present if `(\w+)` and `(\w+)` are both present in `(?:fetch_)?event_types`/);
    const one = text.match(/Present if `(\w+)` is present in `fetch_event_types`/);
    let rule: PresenceRule | undefined = EXPLICIT[name];
    if (!rule && both) rule = { sections: [both[1], both[2]] };
    if (!rule && one) rule = { sections: [one[1]] };
    if (rule && !EXPLICIT[name] && /did not include `user_settings_object`/.test(text))
      rule.unlessCapability = 'user_settings_object';
    if (!rule && /^(realm|server)_/.test(name)) rule = { sections: ['realm'] };
    if (rule) rules.set(name, rule);
  }
  return rules;
}

/** Where a rule's condition holds for a request's parameters. */
function expected(rule: PresenceRule, params: Record<string, any>): boolean {
  const named: string[] | null = params.fetch_event_types ?? params.event_types ?? null;
  const want = (section: string) => named === null || named.includes(section);
  if (!rule.sections.every(want)) return false;
  if (rule.unlessCapability && params.client_capabilities?.[rule.unlessCapability] === true) return false;
  if (rule.unlessUserTopic && named !== null && want('user_topic')) return false;
  return true;
}

const condition = (rule: PresenceRule) =>
  `${rule.sections.join(' + ') || 'always'}${rule.unlessCapability ? `, without ${rule.unlessCapability}` : ''}${rule.unlessUserTopic ? ', and user_topic not named' : ''}`;

/** Fields the answer has that 10.2 would leave out, and fields it lacks that 10.2 would send. */
export function presenceProblems(
  rules: Map<string, PresenceRule>,
  body: Record<string, unknown>,
  params: Record<string, any>,
): string[] {
  const problems: string[] = [];
  for (const [name, rule] of rules) {
    const want = expected(rule, params);
    if (want && !rule.optional && !(name in body))
      problems.push(`/${name}: missing (10.2 sends it when: ${condition(rule)})`);
    if (!want && name in body) problems.push(`/${name}: present (10.2 sends it only when: ${condition(rule)})`);
  }
  return problems;
}
