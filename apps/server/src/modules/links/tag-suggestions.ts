import type { TagMergeSuggestion, TagSummary } from '@linkwise/contract';

/** Spelling variants compare equal: case, separators and a plural ending are ignored. */
export function spellingKey(name: string): string {
  const bare = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en-US')
    .replace(/[^\p{L}\p{N}+#]/gu, '');
  if (bare.length > 4 && bare.endsWith('ies')) return `${bare.slice(0, -3)}y`;
  if (bare.length > 3 && bare.endsWith('s') && !bare.endsWith('ss')) return bare.slice(0, -1);
  return bare;
}

/** Levenshtein distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/** The tag both should become: the more used, then the shorter, then the first alphabetically. */
export function keeper(a: TagSummary, b: TagSummary): [TagSummary, TagSummary] {
  const order = b.count - a.count || a.name.length - b.name.length || a.name.localeCompare(b.name);
  return order <= 0 ? [a, b] : [b, a];
}

/**
 * Pairs of tags that are spellings of one word ("Tutorial", "tutorials", "java-script"/"JavaScript",
 * one typo apart in words of 6+ letters). A variant is suggested once; one tag can absorb several.
 */
export function spellingSuggestions(tags: readonly TagSummary[], limit = 50): TagMergeSuggestion[] {
  const out: TagMergeSuggestion[] = [];
  const used = new Set<string>();
  // Candidates share their first letter (equal keys do, and a typo is looked for only after it):
  // comparing within those groups keeps a library of thousands of tags from being compared pairwise.
  const groups = new Map<string, { tag: TagSummary; key: string }[]>();
  for (const tag of tags) {
    const key = spellingKey(tag.name);
    if (!key) continue;
    const group = groups.get(key[0]!) ?? [];
    group.push({ tag, key });
    groups.set(key[0]!, group);
  }
  const order = new Map(tags.map((t, i) => [t.id, i]));
  const found: { at: number; suggestion: TagMergeSuggestion }[] = [];
  for (const keyed of groups.values()) {
    for (let i = 0; i < keyed.length; i++) {
      for (let j = i + 1; j < keyed.length; j++) {
        const a = keyed[i]!;
        const b = keyed[j]!;
        if (used.has(a.tag.id) || used.has(b.tag.id)) continue;
        const close =
          a.key === b.key || (Math.min(a.key.length, b.key.length) >= 6 && editDistance(a.key, b.key, 1) <= 1);
        if (!close) continue;
        const [into, from] = keeper(a.tag, b.tag);
        used.add(from.id);
        found.push({
          at:
            Math.min(order.get(a.tag.id)!, order.get(b.tag.id)!) * tags.length +
            Math.max(order.get(a.tag.id)!, order.get(b.tag.id)!),
          suggestion: { from: from.name, into: into.name, why: 'spelling' },
        });
      }
    }
  }
  // In the order of the list given (most used first), as many as asked.
  for (const { suggestion } of found.sort((x, y) => x.at - y.at).slice(0, limit)) out.push(suggestion);
  return out;
}
