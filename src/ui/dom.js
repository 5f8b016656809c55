// Small DOM and formatting helpers for the inspector. Everything is built with createElement and
// text nodes (never innerHTML), so that request data cannot inject markup into the page.

/**
 * h('button', { class: 'x', type: 'button', onclick: fn, 'aria-pressed': 'false' }, 'text', child)
 * Props starting with "on" are listeners; null/false props and children are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A table whose cells carry their column label, so narrow screens can stack them. */
export function table(caption, columns, rows, opts = {}) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: `data-table ${opts.class ?? ''}` },
      caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((cell, i) =>
              h(
                i === 0 ? 'th' : 'td',
                { scope: i === 0 ? 'row' : null, 'data-label': columns[i] },
                h('span', { class: 'cell' }, cell),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

const pad = (n, width = 2) => String(n).padStart(width, '0');

/** 23:59:07 (local time). */
export function clockTime(ms) {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** Nov 21, 2026, 11:59:07 PM (local time, the browser's format). */
export const longTime = (ms) => dateTime.format(new Date(ms));

/** "in 59 min", "3 h ago": `ms` relative to `nowMs`. */
export function relative(ms, nowMs) {
  const diff = ms - nowMs;
  const abs = Math.abs(diff) / 1000;
  const text =
    abs < 60
      ? `${Math.round(abs)} s`
      : abs < 3600
        ? `${Math.round(abs / 60)} min`
        : abs < 172800
          ? `${Math.round(abs / 360) / 10} h`
          : `${Math.round(abs / 8640) / 10} days`;
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}

/** Signed duration such as "+1 d 2 h 3 min" (for the clock's offset). */
export function duration(ms) {
  const sign = ms < 0 ? '−' : '+';
  let s = Math.round(Math.abs(ms) / 1000);
  const parts = [];
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ]) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)} ${unit}`);
      s %= size;
    }
  }
  return parts.length ? sign + parts.join(' ') : '0 s';
}

/** Pretty JSON for display. */
export const json = (value) => JSON.stringify(value, null, 2) ?? 'undefined';

/** Debounces `fn` by `ms`. */
export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** A short message in the page's status region (errors are announced assertively). */
export function toast(text, kind = 'info') {
  const region = document.getElementById(kind === 'error' ? 'alerts' : 'toasts');
  const item = h('p', { class: `toast toast-${kind}` }, text);
  region.append(item);
  // A burst of actions leaves only the latest few on screen.
  while (region.children.length > 3) region.firstElementChild.remove();
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 3000);
}
