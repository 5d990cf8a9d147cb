import { DEFAULT_CATEGORIES } from '@linkwise/contract';
import { z } from 'zod';
import { LlmError, withRetries, type LlmPolicy, type LlmProvider } from '../ml/providers/llm.js';
import type { PageFacts } from '../pages/extractor.js';
import type { LabelledNeighbour } from './category-model.js';
import type { UserVocabulary } from './understanding.js';

/** The answer we ask for; extra keys are ignored, missing optional ones defaulted. */
export const LlmAnswerSchema = z.object({
  category: z.string().trim().min(1).max(100),
  tags: z.array(z.string().trim().min(1).max(100)).max(20).default([]),
  summary: z.string().trim().max(1000).default(''),
  readLater: z.boolean().default(false),
});
export type LlmAnswer = z.infer<typeof LlmAnswerSchema>;

export const SYSTEM_PROMPT = [
  'You categorise web pages for a personal link manager.',
  'Answer with one JSON object only: {"category": string, "tags": string[], "summary": string, "readLater": boolean}.',
  "category: one of the listed categories; prefer the user's own categories; invent a new short one only if none fits.",
  'When the user filed similar links, follow how they file: their choice is what a category means to them.',
  "tags: at most 5 short lowercase topic tags; reuse the user's existing tags whenever they fit.",
  'summary: one or two plain sentences saying what the page is about.',
  'readLater: true for long reads (long articles, papers, courses), false otherwise.',
].join('\n');

/** At most this many of the user's own filing decisions go into a prompt. */
export const MAX_FILED_EXAMPLES = 5;

/** How the user filed links like this page: their own choices only, closest first. */
export interface FiledExample {
  title: string;
  category: string;
}

/**
 * The user's nearest links whose category they chose themselves (the analysis's own guesses would
 * only teach the LLM the offline model's mistakes), above the model's noise floor, closest first.
 */
export function filedExamples(neighbours: readonly LabelledNeighbour[], floor: number): FiledExample[] {
  return neighbours
    .filter((n) => n.confirmed && n.cosine > floor && n.title?.trim() && n.category.trim())
    .sort((a, b) => b.cosine - a.cosine)
    .slice(0, MAX_FILED_EXAMPLES)
    .map((n) => ({ title: oneLine(n.title ?? '', 200), category: oneLine(n.category, 100) }));
}

function oneLine(text: string, max: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}

/** What the page declares about its own kind: schema.org types, `og:type`, the publisher's section. */
function pageKind(facts: PageFacts): string | null {
  const parts = [
    ...(facts.schemaTypes ?? []).slice(0, 5).map((t) => `${oneLine(t, 60)} (schema.org)`),
    facts.ogType && `${oneLine(facts.ogType, 60)} (og:type)`,
    facts.section && `section "${oneLine(facts.section, 60)}"`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

/** The user message: page facts, the user's vocabulary and filing, bounded in size. */
export function buildPrompt(
  url: string,
  facts: PageFacts,
  vocabulary: UserVocabulary,
  filed: readonly FiledExample[] = [],
): string {
  const excerpt = facts.text.split(/\s+/).slice(0, 600).join(' ');
  const lines = [
    `URL: ${url}`,
    `Title: ${facts.title ?? ''}`,
    `Description: ${facts.description ?? ''}`,
    facts.publisher && `Publisher: ${facts.publisher}`,
    facts.lang && `Language: ${facts.lang}`,
    pageKind(facts) && `The page declares itself as: ${pageKind(facts)}`,
    `Word count: ${facts.text.split(/\s+/).filter(Boolean).length}`,
    `Default categories: ${DEFAULT_CATEGORIES.join(', ')}`,
    `User's categories: ${vocabulary.categories.slice(0, 50).join(', ') || '(none)'}`,
    `User's tags: ${vocabulary.tags.slice(0, 100).join(', ') || '(none)'}`,
    filed.length > 0 &&
      `How the user filed their most similar links:\n${filed.map((f) => `- "${f.title}" → ${f.category}`).join('\n')}`,
    `Page text (excerpt): ${excerpt}`,
  ];
  return lines.filter(Boolean).join('\n');
}

/**
 * Reads the model's answer tolerantly: code fences and chatty text around the object are ignored;
 * the first balanced JSON object is parsed and validated.
 */
export function parseAnswer(text: string): LlmAnswer {
  const unfenced = text.replace(/```(?:json)?/gi, '');
  const start = unfenced.indexOf('{');
  if (start === -1) throw new LlmError('the answer holds no JSON object', true);
  let depth = 0;
  let inString = false;
  for (let i = start; i < unfenced.length; i++) {
    const ch = unfenced[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) {
      let json: unknown;
      try {
        json = JSON.parse(unfenced.slice(start, i + 1));
      } catch {
        throw new LlmError('the answer is not valid JSON', true);
      }
      const parsed = LlmAnswerSchema.safeParse(json);
      if (!parsed.success) throw new LlmError(`the answer does not match the schema: ${parsed.error.message}`, true);
      return parsed.data;
    }
  }
  throw new LlmError('the answer holds an unfinished JSON object', true);
}

/**
 * Asks the provider under the retry policy (`withRetries`); unreadable answers are retried too.
 * Throws the last error when every attempt failed; the caller falls back to the offline path.
 */
export function askWithRetries(
  provider: LlmProvider,
  url: string,
  facts: PageFacts,
  vocabulary: UserVocabulary,
  policy: LlmPolicy,
  filed: readonly FiledExample[] = [],
): Promise<LlmAnswer> {
  const prompt = buildPrompt(url, facts, vocabulary, filed);
  return withRetries(policy, async (signal) => parseAnswer(await provider.complete(SYSTEM_PROMPT, prompt, signal)));
}
