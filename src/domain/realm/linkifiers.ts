// GET /realm/linkifiers: the organization's linkifiers. The stored order is the order clients
// must apply them in (PATCH /realm/linkifiers changes it).
import type { Ctx } from '../context.js';
import type { Linkifier } from '../../store/state.js';

export function linkifiers(ctx: Ctx): Linkifier[] {
  return ctx.store.linkifiers.all().map((l) => ({ ...l, alternative_url_templates: [...l.alternative_url_templates] }));
}
