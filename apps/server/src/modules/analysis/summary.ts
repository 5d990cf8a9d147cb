import { cosine, normalize, type Embedder } from '../ml/embedder.js';
import type { PageFacts } from '../pages/extractor.js';

/** The AI description's bound, as before the extractive summary. */
export const SUMMARY_CHARS = 300;
/** Sentences of the lead that are split and filtered; only the opening of a page is summarised. */
const LEAD_SENTENCES = 30;
/** Sentences embedded per page: the cost of the summary is bounded whatever the page's length. */
export const MAX_CANDIDATES = 8;
/** The text scanned for the lead (the extractor keeps up to 100,000 characters). */
const LEAD_CHARS = 6000;
const MIN_CHARS = 40;
const MIN_WORDS = 6;
const DESCRIPTION_MIN_CHARS = 20;
const DESCRIPTION_MIN_WORDS = 4;

/**
 * Abbreviations ICU's sentence rules break after ("Dr. Smith", "Jan. 5", "Calif., company"): a
 * segment ending in one is joined to the next.
 */
const ABBREVIATION =
  /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|st|sr|jr|mt|vs|etc|no|nr|inc|ltd|co|corp|gen|gov|sen|rep|lt|col|capt|sgt|fig|figs|vol|pp|p|ed|eds|approx|dept|est|ave|blvd|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|calif|mass|wash|fla|ill|tex|ariz|reg|trib|sra|sr|ca|cf|al|ibid|bzw|usw|ggf|vgl|z\.b|d\.h|e\.g|i\.e|a\.k\.a|u\.s|u\.k|\p{Lu})\.$/iu;

/**
 * What a page repeats around its content in every language of the corpus: cookie and consent
 * notices, subscription and sharing prompts, credits, bylines, navigation.
 */
const BOILERPLATE = new RegExp(
  [
    'cookie',
    'subscri(?:be|ption)',
    'newsletter',
    'sign(?:ing)? (?:up|in)\\b',
    'log(?:ging)? ?in\\b',
    'create an account',
    '\\bshare (?:this|on|via)\\b',
    '\\bfollow us\\b',
    'all rights reserved',
    '©',
    'click (?:here|image)',
    '\\bread (?:more|the full)\\b',
    'advertisement',
    'image (?:source|credit|caption)',
    'getty images',
    'shutterstock',
    'adobe stock',
    '\\bcredit:',
    '\\bphoto(?:graph)?:',
    'skip to',
    'originally appeared',
    'javascript',
    'your browser',
    'editorially independent',
    'affiliate',
    'may (?:make|earn) (?:money|a commission)',
    'opens? in a new (?:tab|window)',
    'privacy policy',
    'terms of (?:use|service)',
    'download (?:the )?app',
    '\\bpodcast app\\b',
    'view all',
    'latest commit',
    'non-commercial use',
    'now playing',
    'watch this:',
    'you may also like',
    // A player's elapsed and total time ("00:00|54:01").
    '\\d:\\d{2}\\s*\\|\\s*\\d',
    '<\\/?[a-z]+[\\s>]',
    'https?:\\/\\/',
    'www\\.',
    '\\S+@\\S+\\.\\w',
    // French, Spanish, Italian, German, Portuguese, Russian and Ukrainian consent and sharing prompts.
    'abonne',
    'suscr[ií]b',
    'iscriviti',
    'abonnieren',
    'inscreva',
    'compartir',
    'partager',
    'condividi',
    'teilen',
    'подпис',
    'поделит',
    'реклама',
    'підпис',
  ].join('|'),
  'iu',
);

/** "By Jane Doe", "Posted by", "Updated: Dec 18, 2020": who wrote it and when, not what it says. */
const BYLINE = /^(?:by|por|par|von|di|posted|published|updated|written|автор)\b/iu;
/** "Robert Erkoreka - 09.12.2021": an author and a date inside a run of teasers. */
const DATED_BYLINE = /\s[-–—|]\s*\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/u;
const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/** A date (and time) a sentence starts with, from a dateline or a byline: removed, the rest kept. */
const LEADING_DATE = new RegExp(
  `^(?:(?:${MONTH}\\s+\\d{1,2},?\\s+\\d{4}|\\d{1,2}\\s+${MONTH},?\\s+\\d{4}|\\d{1,2}[./-]\\d{1,2}[./-]\\d{2,4})` +
    `(?:,?\\s+\\d{1,2}[:.]\\d{2}\\s*(?:[ap]\\.?m\\.?)?(?:\\s+[A-Z]{2,4})?)?[\\s,|–—-]*)`,
  'iu',
);

function segmenter(lang: string | null): Intl.Segmenter {
  const locale = lang && Intl.Segmenter.supportedLocalesOf([lang]).length > 0 ? lang : 'en';
  return new Intl.Segmenter(locale, { granularity: 'sentence' });
}

/**
 * The lead's sentences in page order: ICU's sentence rules (decimals, "U.S.", non-Latin
 * punctuation), joined back after abbreviations, and split where the extractor glued two
 * paragraphs together ("…the intro.See acast.com").
 */
export function splitSentences(text: string, lang: string | null = null, limit = LEAD_SENTENCES): string[] {
  const lead = text
    .slice(0, LEAD_CHARS)
    .replace(/(\p{Ll}{2}[.!?]["”’)]?)(?=\p{Lu}[\p{Ll}\s])/gu, '$1 ')
    // A teaser's link glued to the story ("…phishing prevention… more Email security startup…").
    .replace(/(…|\.\.\.)\s*more\s+(?=\p{Lu})/gu, '$1\n')
    // A heading glued to the next paragraph ("…не подозревалиКак телефон"); Latin script is left
    // alone, where such case changes are names (YouTube, JavaScript).
    .replace(/([\p{Script=Cyrillic}\p{Script=Greek}]\p{Ll})(?=\p{Lu}\p{Ll})/gu, '$1\n');
  const out: string[] = [];
  let pending = '';
  for (const { segment } of segmenter(lang).segment(lead)) {
    const piece = segment.trim();
    if (!piece) continue;
    if (pending && (ABBREVIATION.test(pending) || /^[\p{Ll}\d]/u.test(piece))) {
      pending = `${pending} ${piece}`;
      continue;
    }
    if (pending) out.push(pending);
    if (out.length >= limit) return out;
    pending = piece;
  }
  if (pending && out.length < limit) out.push(pending);
  return out;
}

/** A sentence worth showing as the page's summary, cleaned; null for boilerplate and fragments. */
export function candidateSentence(raw: string, description = false): string | null {
  const sentence = raw
    // A picture's credit before the sentence ("(Image credit: Getty Images/…) Dell has announced…").
    .replace(/\((?:image|photo|picture|credit|source)[^()]{0,120}\)\s*/giu, '')
    .replace(LEADING_DATE, '')
    // A photographer's credit glued to the sentence ("David Unwin/StuffOrphee Mickalad is…").
    .replace(/^(?:\p{Lu}[\p{L}'’-]+ ){1,3}\p{Lu}[\p{L}'’-]*\/(?:\p{Lu}\p{Ll}+|\p{Lu}{2,})(?=\p{Lu}|\s)\s*/u, '')
    // A link's label glued to the sentence after it ("Learn More Forter, a security company…").
    .replace(/^(?:learn|read|see) more\s+(?=\p{Lu})/iu, '')
    // A list number glued to the end ("…пересматриваешь).1.").
    .replace(/([.!?)»”])\d{1,2}\.$/u, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  // A description is written to be short; the text's short sentences are mostly captions and asides.
  if (sentence.length < (description ? DESCRIPTION_MIN_CHARS : MIN_CHARS) || sentence.length > SUMMARY_CHARS) {
    return null;
  }
  if (sentence.split(' ').length < (description ? DESCRIPTION_MIN_WORDS : MIN_WORDS)) return null;
  if (BOILERPLATE.test(sentence) || BYLINE.test(sentence) || DATED_BYLINE.test(sentence)) return null;
  // A caption's credit runs into it ("Image: Getty Google just won…", "Courtesy Ikea At first…"),
  // and a line of a podcast's or a feed's furniture is held together by bullets.
  if (/^(?:image|photo|picture|illustration|credit|courtesy|source)\b:?\s/iu.test(sentence) || /\s•\s/u.test(sentence))
    return null;
  // Emoji mark headings and reactions, and a run of capitalised words is a menu or a headline.
  if (/\p{Extended_Pictographic}/u.test(sentence) || /(?:^|\s)(?:\p{Lu}[\p{L}'’]*\s+){6}/u.test(sentence)) return null;
  // A teaser cut short ("…la gran noticia de esta primavera en...") or, in the text, a heading
  // (descriptions often lack the final stop; one cut mid-word is caught by descriptionCandidate).
  if (/(?:\.\.\.|…|\[…\]|\[\.\.\.\])$/u.test(sentence) || (!description && !/[.!?。！？»"”’)]$/u.test(sentence)))
    return null;
  // Blocks the extractor ran together (a caption, a byline and the lead: "…likedBy Will SmaleBusiness
  // reporter") show as a lower-case letter glued to a capital; a brand name has one such join at most.
  if ((sentence.match(/\p{Ll}\p{Lu}/gu)?.length ?? 0) >= 2) return null;
  // Code quoted in the text ("module.exports = { plugins: [ new …") is not a summary.
  if ((sentence.match(/[{}[\]=;<>]/g)?.length ?? 0) >= 3) return null;
  // Lists of dates, prices and counters are mostly not letters.
  const letters = sentence.match(/\p{L}/gu)?.length ?? 0;
  if (letters / sentence.length < 0.6) return null;
  return sentence;
}

/**
 * The description's first one or two sentences that pass the same filter (shorter ones allowed: a
 * description is written to be short), or null when none does.
 */
export function descriptionCandidate(facts: PageFacts): string | null {
  if (!facts.description) return null;
  const kept: string[] = [];
  for (const raw of splitSentences(facts.description, facts.lang, 4)) {
    const sentence = candidateSentence(raw, true);
    if (!sentence) continue;
    if (kept.length > 0 && kept.join(' ').length + 1 + sentence.length > SUMMARY_CHARS) break;
    kept.push(sentence);
    if (kept.length === 2) break;
  }
  const out = kept.join(' ');
  // Cut off by the site at a length ("…led by Scal"): the text goes on where it stops.
  const at = out ? facts.text.indexOf(out) : -1;
  const cut = at >= 0 && /\p{L}/u.test(facts.text.charAt(at + out.length));
  return out && !cut ? out : null;
}

/** The description's first one or two sentences, as they are, within the bound. */
function descriptionLead(description: string | null, lang: string | null): string | null {
  if (!description) return null;
  let out = '';
  for (const sentence of splitSentences(description, lang, 2)) {
    if (out && out.length + 1 + sentence.length > SUMMARY_CHARS) break;
    out = out ? `${out} ${sentence}` : sentence;
  }
  if (out.length > SUMMARY_CHARS) out = `${out.slice(0, SUMMARY_CHARS - 1).replace(/\s+\S*$/, '')}…`;
  return out || null;
}

/**
 * A page without readable text (a post, a video) is its description: its opening, links removed,
 * unless it is mostly not words (prices, codes).
 */
function looseDescription(description: string | null, lang: string | null): string | null {
  const lead = descriptionLead(description?.replace(/https?:\/\/\S+/g, '').trim() ?? null, lang);
  if (!lead) return null;
  // A heading of a few words ("Funding Snapshot:") says nothing the title does not.
  if (lead.split(/\s+/).length < DESCRIPTION_MIN_WORDS || /:$/u.test(lead)) return null;
  const letters = lead.match(/\p{L}/gu)?.length ?? 0;
  return letters / lead.length >= 0.6 ? lead : null;
}

/** Weight of the lead-position prior: the first sentence gets all of it, the last candidate almost none. */
const POSITION_WEIGHT = 0.1;
/** A second sentence must score this close to the first to be added (a weak one dilutes the summary). */
const SECOND_MARGIN = 0.12;
/** How much a second sentence that repeats the first is held back. */
const REDUNDANCY_WEIGHT = 0.5;
/** The page's own description wins unless a lead sentence represents the page clearly better. */
const DESCRIPTION_MARGIN = 0.05;
/** Fewer lead sentences than this: the page vector alone judges them. */
const MIN_CENTROID = 3;

/** One candidate's score, for the summary's choice and for the bench's trace. */
export interface ScoredSentence {
  text: string;
  /** Cosine to the page vector and to the candidates' centroid, averaged. */
  meaning: number;
  score: number;
  fromDescription: boolean;
}

/**
 * The candidates of a page, scored: the lead's sentences (at most MAX_CANDIDATES, in page order)
 * and the description's opening (last, when usable). Empty when the page has no usable sentence.
 */
export async function scoreSentences(
  facts: PageFacts,
  pageVector: Float32Array,
  embedder: Embedder,
): Promise<{ sentences: ScoredSentence[]; vectors: Float32Array[] }> {
  const lead = splitSentences(facts.text, facts.lang)
    .map((s) => candidateSentence(s))
    .filter((s): s is string => s !== null)
    .filter((s, i, all) => all.indexOf(s) === i)
    .slice(0, MAX_CANDIDATES);
  const description = descriptionCandidate(facts);
  const texts = description && !lead.includes(description) ? [...lead, description] : lead;
  if (texts.length === 0) return { sentences: [], vectors: [] };

  // Similar lengths share a batch, so little of each batch is padding.
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const embedded = await embedder.embed(order.map((i) => texts[i]!));
  const vectors: Float32Array[] = [];
  order.forEach((i, k) => (vectors[i] = embedded[k]!));

  // The centroid of what the page says: the lead's sentences (the description only when it is alone).
  const body = lead.length > 0 ? vectors.slice(0, lead.length) : vectors;
  const centroid = new Float32Array(vectors[0]!.length);
  for (const v of body) for (let d = 0; d < v.length; d++) centroid[d]! += v[d]!;
  normalize(centroid);
  // The page vector is of the same model unless the offline model switched between the two calls;
  // a centroid of one or two sentences is mostly those sentences themselves.
  const withPage = pageVector.length === centroid.length;
  const withCentroid = body.length >= MIN_CENTROID || !withPage;
  const sentences = texts.map((text, i) => {
    const v = vectors[i]!;
    const toPage = withPage ? cosine(v, pageVector) : 0;
    const meaning = withCentroid ? (withPage ? (toPage + cosine(v, centroid)) / 2 : cosine(v, centroid)) : toPage;
    const fromDescription = i >= lead.length;
    const position = fromDescription ? 0 : i;
    return { text, meaning, score: meaning + POSITION_WEIGHT * (1 - position / MAX_CANDIDATES), fromDescription };
  });
  return { sentences, vectors };
}

/**
 * The AI description without an LLM: the page's description when it represents the page as well as
 * its best lead sentence, otherwise the one or two lead sentences that best represent the page, in
 * page order, at most SUMMARY_CHARS. Scores: similarity to the page's vector (`pageVector`, of the
 * same embedder) and to the centroid of the lead, plus a prior for coming early. Null when the page
 * has no usable sentence.
 */
export async function extractiveSummary(
  facts: PageFacts,
  pageVector: Float32Array,
  embedder: Embedder,
): Promise<string | null> {
  const { sentences, vectors } = await scoreSentences(facts, pageVector, embedder);
  const lead = sentences.filter((s) => !s.fromDescription);
  const description = sentences.find((s) => s.fromDescription);
  if (lead.length === 0) return description?.text ?? looseDescription(facts.description, facts.lang);
  const best = lead.reduce((top, s, i) => (s.score > lead[top]!.score ? i : top), 0);
  if (description && description.score >= lead[best]!.score - DESCRIPTION_MARGIN) return description.text;

  let second = -1;
  let secondScore = -Infinity;
  lead.forEach((s, i) => {
    if (i === best || lead[best]!.text.length + 1 + s.text.length > SUMMARY_CHARS) return;
    const adjusted = s.score - REDUNDANCY_WEIGHT * Math.max(0, cosine(vectors[i]!, vectors[best]!) - 0.5);
    if (adjusted > secondScore) [second, secondScore] = [i, adjusted];
  });
  const chosen = second >= 0 && secondScore >= lead[best]!.score - SECOND_MARGIN ? [best, second] : [best];
  return chosen
    .sort((a, b) => a - b)
    .map((i) => lead[i]!.text)
    .join(' ');
}
