import { DEFAULT_CATEGORIES } from '@linkwise/contract';
import { z } from 'zod';
import { LlmError, withRetries, type LlmPolicy, type LlmProvider } from '../ml/providers/llm.js';
import type { PageFacts } from '../pages/extractor.js';
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
  "tags: at most 5 short lowercase topic tags; reuse the user's existing tags whenever they fit.",
  'summary: one or two plain sentences saying what the page is about.',
  'readLater: true for long reads (long articles, papers, courses), false otherwise.',
].join('\n');

/** The user message: page facts and the user's vocabulary, bounded in size. */
export function buildPrompt(url: string, facts: PageFacts, vocabulary: UserVocabulary): string {
  const excerpt = facts.text.split(/\s+/).slice(0, 600).join(' ');
  const lines = [
    `URL: ${url}`,
    `Title: ${facts.title ?? ''}`,
    `Description: ${facts.description ?? ''}`,
    facts.publisher && `Publisher: ${facts.publisher}`,
    facts.lang && `Language: ${facts.lang}`,
    `Word count: ${facts.text.split(/\s+/).filter(Boolean).length}`,
    `Default categories: ${DEFAULT_CATEGORIES.join(', ')}`,
    `User's categories: ${vocabulary.categories.slice(0, 50).join(', ') || '(none)'}`,
    `User's tags: ${vocabulary.tags.slice(0, 100).join(', ') || '(none)'}`,
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
): Promise<LlmAnswer> {
  const prompt = buildPrompt(url, facts, vocabulary);
  return withRetries(policy, async (signal) => parseAnswer(await provider.complete(SYSTEM_PROMPT, prompt, signal)));
}
