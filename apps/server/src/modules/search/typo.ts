/**
 * Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring letters each cost 1 (a swap is the most common typo, and plain Levenshtein charges
 * it 2). Gives up with Infinity as soon as every alignment exceeds `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return Infinity;
  const width = b.length + 1;
  if (scratch.length < 3 * width) scratch = new Int32Array(6 * width);
  // Three rows in one reused buffer: two back (for swaps), one back, and the current one.
  let prev2 = 0;
  let prev = width;
  let row = 2 * width;
  for (let j = 0; j < width; j++) scratch[prev + j] = j;
  for (let i = 1; i <= a.length; i++) {
    scratch[row] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(scratch[prev + j]! + 1, scratch[row + j - 1]! + 1, scratch[prev + j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        d = Math.min(d, scratch[prev2 + j - 2]! + 1);
      }
      scratch[row + j] = d;
      if (d < best) best = d;
    }
    if (best > max) return Infinity;
    [prev2, prev, row] = [prev, row, prev2];
  }
  const d = scratch[prev + b.length]!;
  return d > max ? Infinity : d;
}

/** Rows for `editDistance`, grown as needed and reused: it runs for thousands of words per typo. */
let scratch = new Int32Array(192);

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
  const shortest = Math.max(3, word.length - 3);
  const cuts: string[] = [];
  for (let cut = shortest; cut <= word.length; cut++) cuts.push(word.slice(0, cut));
  // No term outside these lengths can be within reach of the word or of one of its cuts.
  const minLength = Math.max(3, shortest - 1);
  const maxLength = word.length + allowed;
  const scored: { term: string; d: number }[] = [];
  for (const term of indexed) {
    if (term === word || term.length < minLength || term.length > maxLength) continue;
    let best = Infinity;
    for (const cut of cuts) {
      // The whole word against the term; a shortened word only against a stem of about its length.
      if (cut.length < word.length && Math.abs(cut.length - term.length) > 1) continue;
      best = Math.min(best, editDistance(cut, term, allowed));
    }
    if (best <= allowed) scored.push({ term, d: best });
  }
  return scored
    .sort((a, b) => a.d - b.d || Math.abs(a.term.length - word.length) - Math.abs(b.term.length - word.length))
    .slice(0, max)
    .map((s) => s.term);
}
