import type { DEFAULT_CATEGORIES } from '@linkwise/contract';
import { cosine, type Embedder } from '../ml/embedder.js';

/**
 * Short anchor phrases per default category (ARCHITECTURE §4 used 4–5; more phrases cover more of
 * what a category means, measured in bench/RESULTS.md), scored by the mean of the top-2 cosines. `Other` has none: it is what a page gets when no category is close enough.
 */
export const CATEGORY_ANCHORS: Record<Exclude<(typeof DEFAULT_CATEGORIES)[number], 'Other'>, string[]> = {
  Development: [
    'software development and programming',
    'source code repository and open-source library',
    'writing code in JavaScript, Python or Go',
    'developer tools, APIs and frameworks',
    'software engineering and scaling backend systems',
    'programming language features and compiler',
    'new release of a JavaScript bundler or framework',
    'distributed systems, databases and message queues',
  ],
  Design: [
    'graphic design and typography',
    'user interface and user experience design',
    'web design inspiration and layouts',
    'illustration, colour and visual style',
    'product design and prototyping',
    'fonts, icons and design systems',
  ],
  Marketing: [
    'digital marketing and advertising',
    'social media marketing and audience growth',
    'SEO, content marketing and brand awareness',
    'marketing campaigns and customer engagement',
    'email marketing and conversion rates',
    'marketing technology conference for marketers',
    'audience insights and analytics for brands and TV channels',
    'get more likes and followers on Facebook',
  ],
  Research: [
    'scientific research paper and study findings',
    'academic journal article',
    'researchers discovered in a new study',
    'data analysis and experiment results',
    'climate science and environmental research',
    'a new study quantifies the problem',
  ],
  News: [
    'breaking news report',
    'politics, government and elections',
    'court ruling and police investigation',
    'world news and current events',
    'local news from the city',
    'lawmakers pass a new law and regulation',
    'workers and residents affected by a city policy',
    'officers, prosecutors and the district attorney',
    'election results and council candidates',
  ],
  Recipes: [
    'cooking recipe with ingredients',
    'how to cook a delicious dish',
    'baking bread and desserts',
    'salad, soup and dinner ideas',
    'food and kitchen recipe instructions',
  ],
  Tutorials: [
    'step-by-step tutorial',
    'how-to guide for beginners',
    'learn how to build something in this course',
    'online training course and lessons',
    'tips and instructions to get started',
    'a course to learn programming with videos',
    'tutorial with code examples',
  ],
  Business: [
    'startup raises venture capital funding',
    'company business strategy and management',
    'entrepreneurs and small business',
    'market, revenue, investors and finance',
    'hiring, jobs and the workplace',
    'company hires a new chief operating officer',
    'startup funding round led by investors',
    'recruiting and hiring software engineers',
    'venture capital firms and women founders',
    'robots and automation threaten jobs and wages',
    'partner program and sales channel',
    'startup raises millions in series B',
  ],
  Entertainment: [
    'movies, TV shows and celebrities',
    'music, musicians and concerts',
    'video games and fun',
    'podcast episode and entertainment',
    'sports, games and pop culture',
    'celebrity gossip and pop stars',
    'film review and new movie adaptation',
    'television series and streaming',
    'viral video and fans',
    'singer and songwriter',
  ],
  Education: [
    'school, university and students',
    'education and teaching',
    'learning resources for teachers',
    'online education and degrees',
    'knowledge and encyclopedia article',
  ],
  Technology: [
    'new technology gadgets and devices',
    'computer hardware, processors and smartphones',
    'cloud computing and data storage',
    'artificial intelligence and tech industry',
    'Apple, Google and Microsoft products',
    'enterprise IT, storage and cloud services',
    'cybersecurity and phishing protection',
  ],
};

/** Below this score no category fits and the page is `Other`. */
const MIN_SCORE = 0.15;
/** The user's own categories win ties: reuse beats sprawl. */
const OWN_CATEGORY_BONUS = 0.05;

interface Anchored {
  name: string;
  own: boolean;
  vectors: Float32Array[];
}

/**
 * Nearest category by anchor phrases, over the defaults plus the user's own categories. The anchors
 * and MIN_SCORE were tuned on USE-lite and hold on the offline transformer (decision 0011): build it
 * on the offline model even when a remote model makes the search vectors, and classify a page
 * vector of `embedder`'s model.
 */
export class CategoryModel {
  private defaults: Promise<Anchored[]> | undefined;
  private readonly own = new Map<string, Promise<Float32Array[]>>();
  /** The model the cached anchors were embedded with: the offline model may switch while running. */
  private anchorsModel: string | undefined;

  constructor(readonly embedder: Embedder) {}

  private defaultAnchors(): Promise<Anchored[]> {
    if (this.anchorsModel !== this.embedder.modelId) {
      this.anchorsModel = this.embedder.modelId;
      this.defaults = undefined;
      this.own.clear();
    }
    this.defaults ??= (async () => {
      const entries = Object.entries(CATEGORY_ANCHORS);
      const vectors = await this.embedder.embed(entries.flatMap(([, phrases]) => phrases));
      let at = 0;
      return entries.map(([name, phrases]) => {
        const slice = vectors.slice(at, at + phrases.length);
        at += phrases.length;
        return { name, own: false, vectors: slice };
      });
    })().catch((error: unknown) => {
      this.defaults = undefined; // a failed embedding is not an answer: the next call tries again
      throw error;
    });
    return this.defaults;
  }

  private ownAnchors(name: string): Promise<Float32Array[]> {
    let cached = this.own.get(name);
    if (!cached) {
      cached = this.embedder.embed([name, `articles about ${name}`]).catch((error: unknown) => {
        this.own.delete(name);
        throw error;
      });
      if (this.own.size > 10_000) this.own.clear();
      this.own.set(name, cached);
    }
    return cached;
  }

  async classify(page: Float32Array, userCategories: string[]): Promise<{ category: string; score: number }> {
    const defaults = await this.defaultAnchors();
    const known = new Set(defaults.map((d) => d.name.toLocaleLowerCase('en-US')));
    const own = await Promise.all(
      userCategories
        .filter((c) => !known.has(c.toLocaleLowerCase('en-US')) && c.toLocaleLowerCase('en-US') !== 'other')
        .slice(0, 200)
        .map(async (name) => ({ name, own: true, vectors: await this.ownAnchors(name) })),
    );
    const ownKeys = new Set(userCategories.map((c) => c.toLocaleLowerCase('en-US')));
    let best = { category: 'Other', score: -Infinity };
    for (const anchored of [...defaults, ...own]) {
      // A page vector of another model (embedded just before a switch) cannot be compared.
      if (anchored.vectors[0] && anchored.vectors[0].length !== page.length) continue;
      const top = anchored.vectors.map((v) => cosine(page, v)).sort((a, b) => b - a);
      let score = ((top[0] ?? 0) + (top[1] ?? top[0] ?? 0)) / 2;
      if (anchored.own || ownKeys.has(anchored.name.toLocaleLowerCase('en-US'))) score += OWN_CATEGORY_BONUS;
      if (score > best.score) best = { category: anchored.name, score };
    }
    return best.score < MIN_SCORE ? { category: 'Other', score: best.score } : best;
  }
}
