import { createRequire } from 'node:module';
import { cleanTag, tagKey } from '@linkwise/contract';
import { cosine, type Embedder } from '../ml/embedder.js';
import { abbreviationFloor, MEANING_THRESHOLDS, type TagVectorCache } from '../ml/tag-vectors.js';
import type { PageFacts } from '../pages/extractor.js';
import { MAX_TAGS, mergeTags, STOPWORDS } from './understanding.js';

/** Phrases embedded per page: the cost of tagging is this many short texts through the model. */
export const MAX_CANDIDATES = 16;
/** Words of the readable text read for phrases (the opening carries the topic). */
const BODY_WORDS = 1500;
/** Relevance to the page's vector vs how often and where the phrase occurs (bench/tag-quality.ts). */
const MEANING_WEIGHT = 0.7;
/** MMR: relevance vs unlike the tags already chosen. */
const DIVERSITY = 0.3;
/** Below this combined score a phrase is not a tag, so a thin page gets fewer than five. */
const MIN_SCORE = 0.3;

// Words that occur on any page but never name its topic, on top of the language's stop words.
const GENERIC = new Set(
  `million millions billion billions percent thing things lot lots part kind number numbers example end fact
  company companies firm business businesses people person group way ways world year years month months week
  today yesterday tomorrow time times day days team place point case home work something everything someone
  anything nothing cent per mr ms mrs dr inc ltd llc co corp etc`.split(/\s+/),
);

/**
 * Stop words of other languages, by ISO 639-1 code (stopwords-iso). English keeps the project's own
 * list: stopwords-iso's English one also drops topic words (computer, research, system, test).
 */
const LISTS = createRequire(import.meta.url)('stopwords-iso') as Record<string, readonly string[] | undefined>;

/** The project's list (English and web words), the page's language, Russian and Ukrainian for Cyrillic text. */
function stopSet(facts: PageFacts, sample: string): Set<string> {
  const langs = new Set([facts.lang ?? '']);
  if (/[\u0400-\u04FF]{3}/.test(sample)) ['ru', 'uk'].forEach((l) => langs.add(l));
  const out = new Set<string>(STOPWORDS);
  for (const lang of langs) if (lang !== 'en') for (const w of LISTS[lang] ?? []) out.add(w);
  return out;
}

// A form's actions ("Log In", "Sign up", "Continue with Google"): a sign-in page's title and
// buttons, never its topic (left in, "Log" and "Continue" became tags). Read as clause breaks.
const FORM_ACTIONS = /\b(?:log|sign)[\s-](?:in|on|out|up)\b|\bcontinue with\b/giu;

const TITLE_WEIGHT = 3;
const CLAUSE = /[.,;:!?()[\]{}"“”„«»|/\\–—•·…\n\r\t]+|\s-\s/;
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}'’+#.&-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu;

interface Candidate {
  key: string;
  words: string[];
  /** Occurrences weighted by where they are (title, description, text). */
  score: number;
  occurrences: number;
  forms: Map<string, number>;
}

const isAcronym = (w: string) => /^\p{Lu}[\p{Lu}\p{N}]+$/u.test(w);
const isCapitalised = (w: string) => /^[\p{Lu}\p{N}]/u.test(w) || /\p{Lu}/u.test(w.slice(1));

/**
 * Whether words written as in running text read as one name or one noun phrase: all capitalised
 * ("Bob Dylan", "Amazon Echo"), all lower case ("heart rate"), or an acronym before lower-case words
 * ("AI certifications"). A name running into other words ("Justin Bieber coldly", "rival Amazon
 * Echo") is not a phrase.
 */
function phraseShaped(words: string[]): boolean {
  const caps = words.map(isCapitalised);
  if (caps.every(Boolean) || caps.every((c) => !c)) return true;
  const lead = words.findIndex((w, i) => !caps[i] && i > 0);
  return lead > 0 && words.slice(0, lead).every(isAcronym) && caps.slice(lead).every((c) => !c);
}

/** The title without the site's name: "Bob Dylan - Wikipedia" → "Bob Dylan" (its longest part). */
function titleTopic(title: string): string {
  return title.split(/\s[|–—-]\s/).reduce((a, b) => (b.length > a.length ? b : a), '');
}

/** Phrases of 1–3 words with no stop word, counted with title, description and body weights. */
function candidates(facts: PageFacts, stop: Set<string>): Candidate[] {
  const found = new Map<string, Candidate>();
  const site = siteNames(facts);
  const isWord = (token: string) => {
    const key = token.toLocaleLowerCase().replace(/’/g, "'");
    // A contraction ("didn’t", "they’ll") never names a topic, whichever apostrophe the page uses.
    if (/(?:n't|'re|'ve|'ll|'d|'m)$/.test(key)) return false;
    if (stop.has(key) || GENERIC.has(key) || /^[\p{N}.,-]+$/u.test(token)) return false;
    // Two-letter words only as acronyms (AI, EU, HR).
    return key.length > 2 || /^\p{Lu}{2}$/u.test(token);
  };
  const read = (text: string, weight: number) => {
    for (const clause of text.replace(FORM_ACTIONS, '|').split(CLAUSE)) {
      const tokens = (clause.match(TOKEN) ?? []).map((t) => t.replace(/[’']s$/, ''));
      for (let i = 0; i < tokens.length; i++) {
        for (let n = 1; n <= 3 && i + n <= tokens.length; n++) {
          const words = tokens.slice(i, i + n);
          const last = words[n - 1]!;
          // A short number may end a name ("Pebble 2", "webpack 3"); every other word must be a word.
          const lastOk = isWord(last) || (n > 1 && /^\p{N}{1,2}$/u.test(last));
          if (!words.slice(0, -1).every(isWord) || !lastOk) break;
          // Titles capitalise every word, so their case says nothing about names.
          if (weight !== TITLE_WEIGHT && !phraseShaped(words)) continue;
          const key = words.join(' ').toLocaleLowerCase();
          if (site.has(key)) continue;
          const entry = found.get(key) ?? { key, words, score: 0, occurrences: 0, forms: new Map<string, number>() };
          entry.score += weight;
          entry.occurrences += 1;
          const form = words.join(' ');
          if (weight !== TITLE_WEIGHT) entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
          found.set(key, entry);
        }
      }
    }
  };
  read(titleTopic(facts.title ?? ''), TITLE_WEIGHT);
  const body = facts.text.split(/\s+/).slice(0, BODY_WORDS).join(' ');
  const description = facts.description ?? '';
  // A description that is the text's own lead would count each of its phrases twice.
  if (!body.slice(0, 3000).includes(description.slice(0, 80))) read(description, 2);
  read(body, 1);
  // A phrase written once is an accident of wording, not a topic; a single word of the title or
  // the description may still be one.
  const kept = [...found.values()].filter(
    (c) => c.occurrences >= 2 || (c.words.length === 1 && c.score >= 2 && !/(?:ly|ed)$/.test(c.key)),
  );
  // A word or phrase that only ever occurs inside one longer phrase adds nothing to it.
  return kept.filter(
    (c) => !kept.some((o) => o.words.length > c.words.length && o.score >= c.score && contains(o.key, c.key)),
  );
}

/** The site's own name (publisher, host labels): furniture on every page of the site. */
function siteNames(facts: PageFacts): Set<string> {
  const names = new Set<string>();
  if (facts.publisher) names.add(facts.publisher.toLocaleLowerCase());
  try {
    const host = new URL(facts.url ?? '').hostname.replace(/^www\./, '');
    for (const label of host.split('.').slice(0, -1)) if (label.length > 3) names.add(label.replace(/-/g, ' '));
  } catch {
    // No usable address: only the publisher is known.
  }
  return names;
}

const contains = (long: string, short: string) => ` ${long} `.includes(` ${short} `);

/** The spelling shown: a name or acronym keeps its case when the page always writes it so. */
function display(c: Candidate): string {
  const forms = [...c.forms.entries()].sort((a, b) => b[1] - a[1]);
  const form = forms[0]?.[0] ?? c.words.join(' ');
  const keepsCase =
    forms.length > 0 &&
    forms.every(([f]) => f.split(' ').every((w) => /^[\p{Lu}\p{N}]/u.test(w) || /\p{Lu}/u.test(w.slice(1))));
  return cleanTag(keepsCase || /\p{Lu}/u.test(form.replace(/^\S/u, '')) ? form : c.key);
}

/** Whether `short` (a user's tag such as "js") abbreviates `long` ("javascript"): first letter, then in order. */
export function isAbbreviation(short: string, long: string): boolean {
  const a = tagKey(short).replace(/[^\p{L}\p{N}]/gu, '');
  const b = tagKey(long).replace(/[^\p{L}\p{N}]/gu, '');
  if (a.length < 2 || a.length > 5 || b.length < a.length + 2 || a[0] !== b[0]) return false;
  let at = 0;
  for (const ch of b) if (ch === a[at]) at += 1;
  return at >= a.length;
}

/**
 * Keyphrase tags: phrases of the page's own text (its language, no translation) scored by how close
 * they are to the page's vector and how often and where they occur, diversified (MMR), at most
 * MAX_TAGS. The user's tags that are phrases of the page come first when they pass the same bar as
 * any phrase (a tag merely written somewhere on the page, "Facebook" in a share line, is not one); a
 * proposed phrase that means the same as an existing tag (the model's meaning threshold, or an
 * abbreviation of it) becomes that tag.
 */
export async function keyphraseTags(
  facts: PageFacts,
  pageVector: Float32Array,
  existingTags: string[],
  embedder: Embedder,
  tagVectors?: TagVectorCache,
): Promise<string[]> {
  const haystack = [facts.title, facts.description, facts.text.split(/\s+/).slice(0, BODY_WORDS).join(' ')].join(' ');
  const ranked = candidates(facts, stopSet(facts, haystack.slice(0, 2000))).sort(
    (a, b) => b.score - a.score || a.key.localeCompare(b.key),
  );
  // The user's tags among the page's own phrases take part even when outside the top candidates.
  const theirs = new Map(existingTags.map((t) => [tagKey(t), t]));
  const pool = [
    ...ranked.slice(0, MAX_CANDIDATES),
    ...ranked
      .slice(MAX_CANDIDATES)
      .filter((c) => theirs.has(tagKey(c.key)))
      .slice(0, MAX_TAGS),
  ];
  if (pool.length === 0) return [];

  // In the page's spelling; mergeTags shows the user's.
  const texts = pool.map(display);
  const vectors = await embedder.embed(texts);
  const top = Math.log1p(ranked[0]!.score);
  const scored = pool.map((c, i) => ({
    tag: texts[i]!,
    words: c.key.split(' '),
    vector: vectors[i]!,
    existing: theirs.has(tagKey(c.key)),
    score: MEANING_WEIGHT * cosine(vectors[i]!, pageVector) + (1 - MEANING_WEIGHT) * (Math.log1p(c.score) / top),
  }));

  // Preferred: their tags that are topics of the page (past the same bar) come first, and the rest
  // is diversified around them.
  const chosen = scored.filter((c) => c.existing && c.score >= MIN_SCORE).slice(0, MAX_TAGS);
  while (chosen.length < MAX_TAGS) {
    let best: (typeof scored)[number] | undefined;
    let bestValue = -Infinity;
    for (const c of scored) {
      if (chosen.includes(c) || c.score < MIN_SCORE) continue;
      // A phrase sharing a word with a chosen one ("Dylan", "Bob Dylan") repeats it.
      if (chosen.some((s) => s.words.some((w) => c.words.includes(w)))) continue;
      const redundancy = Math.max(0, ...chosen.map((s) => cosine(s.vector, c.vector)));
      const value = (1 - DIVERSITY) * c.score - DIVERSITY * redundancy;
      if (value > bestValue) [best, bestValue] = [c, value];
    }
    if (!best) break;
    chosen.push(best);
  }

  const proposed = await preferExisting(chosen, existingTags, embedder, tagVectors);
  return mergeTags(proposed, existingTags);
}

/** Each proposed tag replaced by the user's existing tag that means the same, when there is one. */
async function preferExisting(
  chosen: { tag: string; vector: Float32Array }[],
  existingTags: string[],
  embedder: Embedder,
  tagVectors?: TagVectorCache,
): Promise<string[]> {
  const threshold = MEANING_THRESHOLDS[embedder.modelId];
  const plain = chosen.map((c) => c.tag);
  if (!tagVectors || threshold === undefined || existingTags.length === 0 || chosen.length === 0) return plain;
  const known = await tagVectors.vectors(embedder, existingTags);
  // The model switched during the call: its vectors would not compare with the page's.
  if (!known) return plain;
  return chosen.map(({ tag, vector }) => {
    let best: string | undefined;
    let bestSimilarity = -Infinity;
    for (const [name, v] of known) {
      const similarity = cosine(v, vector);
      const bar = isAbbreviation(name, tag) ? Math.min(threshold, abbreviationFloor(embedder.modelId)) : threshold;
      if (similarity >= bar && similarity > bestSimilarity) [best, bestSimilarity] = [name, similarity];
    }
    return best ?? tag;
  });
}
