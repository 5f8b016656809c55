// GET /realm/linkifiers: the organization's linkifiers. The stored order is the order clients
// must apply them in (PATCH /realm/linkifiers changes it). Servers before FL 176 sent the URL in
// Python %-format as url_format; before FL 54 the list was GET /realm/filters, as tuples.
import type { Ctx } from '../context.js';

/** `https://x/{id}` as `https://x/%(id)s`. */
const urlFormatOf = (template: string) => template.replace(/\{([A-Za-z0-9_]+)\}/g, '%($1)s');

export function linkifiers(ctx: Ctx): Array<Record<string, unknown>> {
  const legacy = ctx.hasField('Linkifier', 'url_format');
  return ctx.store.linkifiers.all().map((l) => ({
    ...l,
    alternative_url_templates: [...l.alternative_url_templates],
    ...(legacy ? { url_format: urlFormatOf(l.url_template) } : {}),
  }));
}

export function realmFilters(ctx: Ctx): { filters: Array<[string, string, number]> } {
  return { filters: ctx.store.linkifiers.all().map((l) => [l.pattern, urlFormatOf(l.url_template), l.id]) };
}
