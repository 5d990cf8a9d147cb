import { describe, expect, it } from 'vitest';
import type { PageFacts } from '../pages/extractor.js';
import { buildPrompt, filedExamples, MAX_FILED_EXAMPLES } from './llm-prompt.js';

const facts: PageFacts = {
  title: 'Lemon ricotta pancakes',
  description: 'Fluffy pancakes for a slow Sunday.',
  url: 'https://example.com/pancakes',
  favicon: null,
  image: null,
  lang: 'en',
  publisher: 'Example Kitchen',
  author: null,
  date: null,
  text: 'Whisk the ricotta with the eggs. '.repeat(10),
  schemaTypes: ['Recipe'],
  ogType: 'article',
  section: 'Breakfast',
};
const vocabulary = { categories: ['Weekend cooking'], tags: ['breakfast'] };

describe('the LLM prompt', () => {
  it('says what the page declares about its own kind', () => {
    expect(buildPrompt(facts.url!, facts, vocabulary)).toContain(
      'The page declares itself as: Recipe (schema.org), article (og:type), section "Breakfast"',
    );
    const plain = { ...facts, schemaTypes: [], ogType: null, section: null };
    expect(buildPrompt(facts.url!, plain, vocabulary)).not.toContain('declares itself');
  });

  it("takes the user's own choices above the noise floor, closest first, as one line each", () => {
    const examples = filedExamples(
      [
        { category: 'Weekend cooking', cosine: 0.5, confirmed: true, title: 'Buttermilk\n  waffles' },
        { category: 'Recipes', cosine: 0.9, confirmed: false, title: 'Crepes (filed by the analysis)' },
        { category: 'Weekend cooking', cosine: 0.7, confirmed: true, title: 'Dutch baby' },
        { category: 'Far away', cosine: 0.1, confirmed: true, title: 'Tax forms' },
        { category: 'Untitled', cosine: 0.8, confirmed: true, title: '  ' },
      ],
      0.2,
    );
    expect(examples).toEqual([
      { title: 'Dutch baby', category: 'Weekend cooking' },
      { title: 'Buttermilk waffles', category: 'Weekend cooking' },
    ]);
    const prompt = buildPrompt(facts.url!, facts, vocabulary, examples);
    expect(prompt).toContain(
      'How the user filed their most similar links:\n- "Dutch baby" → Weekend cooking\n- "Buttermilk waffles" → Weekend cooking',
    );
    expect(buildPrompt(facts.url!, facts, vocabulary)).not.toContain('How the user filed');
  });

  it('bounds the examples', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      category: 'C',
      cosine: 0.5 + i / 100,
      confirmed: true,
      title: `T${i} ${'x'.repeat(500)}`,
    }));
    const examples = filedExamples(many, 0.2);
    expect(examples).toHaveLength(MAX_FILED_EXAMPLES);
    expect(examples[0]?.title.startsWith('T19')).toBe(true);
    expect(Math.max(...examples.map((e) => e.title.length))).toBeLessThanOrEqual(200);
  });
});
