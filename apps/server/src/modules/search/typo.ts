/**
 * Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring letters each cost 1 (a swap is the most common typo, and plain Levenshtein charges
 * it 2). Gives up with Infinity as soon as every alignment exceeds `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return Infinity;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return Infinity;
    prev2 = prev;
    prev = row;
  }
  const d = prev[b.length]!;
  return d > max ? Infinity : d;
}

/** Edits forgiven in a word: none under 4 letters (too many near neighbours), 1 up to 7, then 2. */
export function allowedEdits(word: string): number {
  if (word.length < 4) return 0;
  return word.length < 8 ? 1 : 2;
}

/**
 * Indexed terms (stems, as the porter tokenizer stored them) that `word` is probably a misspelling
 * of, closest first. A stem is shorter than its word ("connection" → "connect"), so the word is also
 * compared with the stem after dropping up to 3 trailing letters (the suffixes stemming removes).
 */
export function closeTerms(word: string, indexed: readonly string[], max = 3): string[] {
  const allowed = allowedEdits(word);
  if (allowed === 0) return [];
  const scored: { term: string; d: number }[] = [];
  for (const term of indexed) {
    if (term === word || term.length < 3) continue;
    let best = Infinity;
    for (let cut = Math.max(3, word.length - 3); cut <= word.length; cut++) {
      // The whole word against the term; a shortened word only against a stem of about its length.
      if (cut < word.length && Math.abs(cut - term.length) > 1) continue;
      best = Math.min(best, editDistance(word.slice(0, cut), term, allowed));
    }
    if (best <= allowed) scored.push({ term, d: best });
  }
  return scored
    .sort((a, b) => a.d - b.d || Math.abs(a.term.length - word.length) - Math.abs(b.term.length - word.length))
    .slice(0, max)
    .map((s) => s.term);
}
