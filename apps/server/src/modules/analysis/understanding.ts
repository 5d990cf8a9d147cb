import { cleanTag, DEFAULT_CATEGORIES, tagKey } from '@linkwise/contract';
import type { PageFacts } from '../pages/extractor.js';

/** What analysis proposes for a link. */
export interface Understanding {
  category: string;
  /** A second category that fits almost as well (offline only), offered beside the first; null when none does. */
  otherCategory: string | null;
  /** At most 5, normalised, the user's existing spelling when a tag already exists. */
  tags: string[];
  isReadLater: boolean;
  /** One or two sentences (summary.ts without an LLM); null when the page says nothing usable. */
  aiDescription: string | null;
}

/** What the user already has: preferred over anything new (tag sprawl is the top complaint). */
export interface UserVocabulary {
  categories: string[];
  tags: string[];
}

export interface UnderstandInput {
  facts: PageFacts;
  vocabulary: UserVocabulary;
}

export const MAX_TAGS = 5;
/** About 8 minutes at 230 words a minute: long enough to be worth saving for later. */
export const READ_LATER_WORDS = 1800;

export function readLaterSuggestion(facts: PageFacts): boolean {
  return facts.text.split(/\s+/).length >= READ_LATER_WORDS;
}

/** Tags are compared by key; an existing spelling wins; at most MAX_TAGS. */
export function mergeTags(proposed: string[], existing: string[]): string[] {
  const known = new Map(existing.map((t) => [tagKey(t), t]));
  const out = new Map<string, string>();
  for (const raw of proposed) {
    const tag = cleanTag(raw);
    const key = tagKey(tag);
    if (!tag || out.has(key)) continue;
    out.set(key, known.get(key) ?? tag);
    if (out.size === MAX_TAGS) break;
  }
  return [...out.values()];
}

/** A proposed category matched to the user's own or a default one when it differs only in case. */
export function matchCategory(proposed: string, userCategories: string[]): string {
  const key = proposed.trim().toLocaleLowerCase('en-US');
  const all = [...userCategories, ...DEFAULT_CATEGORIES];
  return all.find((c) => c.toLocaleLowerCase('en-US') === key) ?? proposed.trim();
}

// Keyword extraction: common words in the languages of the corpus that never make a useful tag.
export const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each even every few for from further get gets got had has have
having he her here hers him his how however i if in into is it its itself just like made make many may me might more
most much must my new no nor not now of off on once one only or other our out over own per said same says she should
since so some still such than that the their them then there these they this those through to too two under until up
upon us use used using very via was way we well were what when where which while who whom why will with within without
would yet you your yours year years time first last back people says say according including told take today week
its it's i'm we're you're they're don't can't won't isn't i've that's there's here's let's what's who's ago day days
le la les de des du un une et en est pour que qui dans sur pas par au aux ce il elle el los las del y con por para
una es al lo se su como más mas o der die das und ist nicht mit von zu den auf für sich dem ein eine
и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от меня еще
нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас нибудь опять уж вам ведь там потом
себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам чтоб без будто чего раз тоже себе под
будет ж тогда кто этот того потому этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда
зачем всех никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего них какая много
разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда конечно всю между
http https www com html news read share click subscribe newsletter cookie cookies privacy policy terms sign login
menu search home page comments comment reply posted related advertisement video photo image images`.split(/\s+/),
);

const WORD = /[\p{L}][\p{L}\p{N}'’+#.-]*[\p{L}\p{N}+#]|[\p{L}]{2,}/gu;

function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.replace(/[’']s$/, ''));
}

/**
 * Keyword tags: words and two-word phrases scored by frequency, with title words counting most;
 * the user's existing tags that the page mentions come first.
 */
export function keywordTags(facts: PageFacts, existingTags: string[]): string[] {
  const title = facts.title ?? '';
  const description = facts.description ?? '';
  const body = facts.text.split(/\s+/).slice(0, 1500).join(' ');
  const mentioned = mentionedTags([title, description, body].join(' '), existingTags);

  const scores = new Map<string, number>();
  const spelling = new Map<string, Map<string, number>>();
  const add = (text: string, weight: number) => {
    const list = words(text);
    list.forEach((word, i) => {
      const key = word.toLocaleLowerCase('en-US');
      if (key.length < 3 || STOPWORDS.has(key) || /^\d/.test(key)) return;
      scores.set(key, (scores.get(key) ?? 0) + weight);
      const forms = spelling.get(key) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      spelling.set(key, forms);
      const next = list[i + 1];
      const nextKey = next?.toLocaleLowerCase('en-US');
      if (next && nextKey && nextKey.length >= 3 && !STOPWORDS.has(nextKey) && !/^\d/.test(nextKey)) {
        const pair = `${key} ${nextKey}`;
        scores.set(pair, (scores.get(pair) ?? 0) + weight * 0.75);
        const pairForms = spelling.get(pair) ?? new Map<string, number>();
        pairForms.set(`${word} ${next}`, (pairForms.get(`${word} ${next}`) ?? 0) + 1);
        spelling.set(pair, pairForms);
      }
    });
  };
  add(title, 4);
  add(description, 2);
  add(body, 1);

  const ranked = [...scores.entries()]
    .filter(([key, score]) => score >= 3 && (!key.includes(' ') || score >= 5))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const chosen: string[] = [];
  for (const [key] of ranked) {
    // A word already covered by a chosen phrase (or the reverse) adds nothing.
    if (chosen.some((c) => c.includes(key) || key.includes(c))) continue;
    chosen.push(key);
    if (chosen.length === MAX_TAGS) break;
  }
  const display = chosen.map((key) => {
    const forms = [...(spelling.get(key)?.entries() ?? [])].sort((a, b) => b[1] - a[1]);
    const form = forms[0]?.[0] ?? key;
    // Proper nouns and acronyms keep their case (HackerRank, AMD); ordinary words are lower case.
    return /\p{Lu}/u.test(form.slice(1)) || (/^\p{Lu}/u.test(form) && forms.every(([f]) => /^\p{Lu}/u.test(f)))
      ? form
      : key;
  });
  return mergeTags([...mentioned, ...display], existingTags);
}

/** The user's tags that `text` contains as whole words, in the user's order. */
export function mentionedTags(text: string, existingTags: string[]): string[] {
  const haystack = ` ${text.toLocaleLowerCase('en-US')} `;
  return existingTags.filter((t) => {
    const key = tagKey(t);
    return key.length >= 2 && new RegExp(`[^\\p{L}\\p{N}]${escapeRegExp(key)}[^\\p{L}\\p{N}]`, 'u').test(haystack);
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
