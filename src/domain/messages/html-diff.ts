// content_html_diff of the edit history: the differences between two renderings of a message,
// as HTML that still renders. A word-level diff: text that was added is wrapped in
// <span class="highlight_text_inserted">, text that went in <span class="highlight_text_deleted">;
// tags are kept from the new version (the old version's tags are dropped), so the result has the
// new structure. The real server diffs characters with diff-match-patch; the classes, the <div>
// around the result and the markup it keeps are the same, the exact cut between words may differ.

/** Tags, runs of whitespace and words: the units compared. */
const tokenize = (html: string): string[] => html.match(/<[^>]*>|\s+|[^<\s]+/g) ?? [];
const isTag = (token: string) => token.startsWith('<');

/**
 * Token pairs one request may compare, over all the diffs it makes (a message's history has one
 * per content edit, and edits are not limited): past it, a diff says everything changed.
 */
const MAX_CELLS = 4_000_000;

/** What is left of a request's comparisons; one per request, shared by its diffs. */
export type DiffBudget = { cells: number };
export const newDiffBudget = (): DiffBudget => ({ cells: MAX_CELLS });

type Op = { kind: 'same' | 'ins' | 'del'; token: string };

function diffTokens(a: string[], b: string[], budget: DiffBudget): Op[] {
  const cells = a.length * b.length;
  if (cells > budget.cells) {
    return [
      ...b.map((token) => ({ kind: 'ins' as const, token })),
      ...a.map((token) => ({ kind: 'del' as const, token })),
    ];
  }
  budget.cells -= cells;
  // Longest common subsequence, from the end, so that the walk below goes forwards.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: 'same', token: a[i] });
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i * width + j + 1] >= lcs[(i + 1) * width + j]))
      ops.push({ kind: 'ins', token: b[j++] });
    else ops.push({ kind: 'del', token: a[i++] });
  }
  return ops;
}

export function htmlDiff(before: string, after: string, budget: DiffBudget = newDiffBudget()): string {
  let out = '';
  let open: 'ins' | 'del' | null = null;
  const close = () => {
    if (open) out += '</span>';
    open = null;
  };
  for (const { kind, token } of diffTokens(tokenize(before), tokenize(after), budget)) {
    if (isTag(token)) {
      close();
      if (kind !== 'del') out += token;
      continue;
    }
    if (kind === 'same') {
      close();
      out += token;
      continue;
    }
    if (open !== kind) {
      close();
      out += `<span class="${kind === 'ins' ? 'highlight_text_inserted' : 'highlight_text_deleted'}">`;
      open = kind;
    }
    out += token;
  }
  close();
  return `<div>${out}</div>`;
}
