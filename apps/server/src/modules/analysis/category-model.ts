import { cosine, DEFAULT_CALIBRATION, type Embedder } from '../ml/embedder.js';
import type { PageFacts } from '../pages/extractor.js';
import { CategoryHead, type CategoryHeadData } from './category-head.js';
import { pagePriors, type DefaultCategory, type PriorStrength } from './category-priors.js';

/**
 * What each default category holds, in a sentence: zero-shot from descriptions. Measured against the
 * anchors (decision 0015) they lose on every label set, alone or mixed in, so their weight is 0; they
 * stay for the benchmark that measures them and for a model that reads them better.
 */
export const CATEGORY_DESCRIPTIONS: Record<DefaultCategory, string> = {
  Development:
    'Development: software development and programming: source code, libraries, frameworks, APIs, developer tools and engineering practice.',
  Design:
    'Design: graphic, visual, product and user-interface design: typography, colour, layouts, illustration and design tools.',
  Marketing: 'Marketing: advertising, brands, social media, SEO, content and email marketing, audiences and campaigns.',
  Research: 'Research: scientific and academic research: studies, papers, experiments, data and findings.',
  News: 'News: current events, politics, government, courts, crime and local or world news reports.',
  Recipes: 'Recipes: cooking, ingredients and dishes to make at home: recipes, baking, meals and food.',
  Tutorials: 'Tutorials: step-by-step guides, how-tos, lessons and courses that teach how to do or build something.',
  Business: 'Business: companies, startups, funding, investors, markets, finance, management, jobs and the workplace.',
  Entertainment: 'Entertainment: movies, TV, music, celebrities, video games, sports, podcasts and pop culture.',
  Education: 'Education: schools, universities, students, teachers, learning, degrees and reference knowledge.',
  Technology:
    "Technology: gadgets, devices, computers, hardware, the internet, AI, cloud, cybersecurity and tech companies' products.",
};

/** How close the runner-up must score to the best to be offered beside it (chosen on `labels`, decision 0024). */
export const ALTERNATIVE_MARGIN = 0.1;

/**
 * Short anchor phrases per default category (ARCHITECTURE §4 used 4–5; more phrases cover more of
 * what a category means), scored by the mean of the top-2 cosines. `Other` has none: it is what a
 * page gets when no category is close enough.
 */
export const CATEGORY_ANCHORS: Record<DefaultCategory, string[]> = {
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

/**
 * How the evidence is weighed (decision 0015, measured with bench/experiments/category-vectors.ts on
 * the labelled pages only). Scores are in cosine units: what a page's words say, plus what the page
 * says about itself, plus the user's history.
 */
export interface CategoryWeights {
  /**
   * Added to each default category and to `Other`: the trained head's probability for it (decision
   * 0024), when the head was trained on the page vector's model.
   */
  head: number;
  /** Share of the description's cosine in a default category's word score; the rest is its anchors'. */
  description: number;
  /** Added to a category a page's self-description points to. */
  prior: Record<PriorStrength, number>;
  /** Added to a default category at most by the user's history (two certain confirmed neighbours reach it). */
  history: number;
  /**
   * The same for a category the user created: it has no phrases saying what it holds, only its name,
   * so what the user files there is most of its meaning.
   */
  ownHistory: number;
  /** A neighbour whose category the analysis chose and the user never touched counts this much (confirmed: 1). */
  unconfirmed: number;
  /** The user's own categories win ties: reuse beats sprawl. */
  ownBonus: number;
  /** Below this fused score no category fits and the page is `Other`. */
  minScore: number;
}

export const CATEGORY_WEIGHTS: CategoryWeights = {
  head: 0.25,
  description: 0,
  prior: { strong: 0.15, moderate: 0.06, weak: 0.02 },
  history: 0.1,
  ownHistory: 0.4,
  unconfirmed: 0.3,
  ownBonus: 0.05,
  minScore: 0.15,
};

/** One of the user's links near the page: its category, its cosine, and whether the user chose that category. */
export interface LabelledNeighbour {
  category: string;
  cosine: number;
  confirmed: boolean;
  /** The link's title, for the LLM's examples of how the user files (absent where nobody reads it). */
  title?: string | null;
}

/** What classification may use beside the page's vector. */
export interface CategoryEvidence {
  /** What the page says about its own kind (and its address, for the site). */
  facts?: Pick<PageFacts, 'url' | 'ogType' | 'schemaTypes' | 'section'>;
  /** The user's nearest categorised links, in the page vector's model. */
  neighbours?: readonly LabelledNeighbour[];
}

interface Anchored {
  name: string;
  own: boolean;
  vectors: Float32Array[];
  description?: Float32Array;
}

const key = (name: string) => name.toLocaleLowerCase('en-US');

/** The head trained for the default offline model, loaded on first use (the api role never classifies). */
async function shippedHead(): Promise<CategoryHeadData> {
  return (await import('./category-head.data.js')).CATEGORY_HEAD;
}

/**
 * The category of a page vector, from three kinds of evidence fused into one score per category:
 * its words (cosine to each category's description and anchor phrases; the user's own categories by
 * their names), what the page says about itself (schema.org type, `og:type`, section, site), and the
 * user's history (their nearest links' categories, confirmed ones counting fully). Built on the
 * offline model even when a remote model makes the search vectors; classifies a page vector of
 * `embedder`'s model.
 */
export class CategoryModel {
  private defaults: Promise<Anchored[]> | undefined;
  private readonly own = new Map<string, Promise<Float32Array[]>>();
  /** The model the cached anchors were embedded with: the offline model may switch while running. */
  private anchorsModel: string | undefined;
  private head: Promise<CategoryHead | undefined> | undefined;

  constructor(
    readonly embedder: Embedder,
    private readonly weights: CategoryWeights = CATEGORY_WEIGHTS,
    private readonly loadHead: () => Promise<CategoryHeadData | undefined> = shippedHead,
  ) {}

  private defaultAnchors(): Promise<Anchored[]> {
    if (this.anchorsModel !== this.embedder.modelId) {
      this.anchorsModel = this.embedder.modelId;
      this.defaults = undefined;
      this.head = undefined;
      this.own.clear();
    }
    this.defaults ??= (async () => {
      const entries = Object.entries(CATEGORY_ANCHORS) as [DefaultCategory, string[]][];
      // Descriptions are embedded only when they take part (measured: they do not, decision 0015).
      const described = this.weights.description > 0;
      const texts = entries.flatMap(([name, phrases]) => [
        ...(described ? [CATEGORY_DESCRIPTIONS[name]] : []),
        ...phrases,
      ]);
      const vectors = await this.embedder.embed(texts);
      let at = 0;
      return entries.map(([name, phrases]) => {
        const description = described ? vectors[at++] : undefined;
        const slice = vectors.slice(at, at + phrases.length);
        at += phrases.length;
        return { name, own: false, vectors: slice, ...(description && { description }) };
      });
    })().catch((error: unknown) => {
      this.defaults = undefined; // a failed embedding is not an answer: the next call tries again
      throw error;
    });
    return this.defaults;
  }

  /** The trained head, when it reads this model's vectors (USE-lite's, or a remote model's, it does not). */
  private trainedHead(): Promise<CategoryHead | undefined> {
    this.head ??= this.loadHead().then(
      (data) => (data && data.modelId === this.embedder.modelId ? new CategoryHead(data) : undefined),
      () => undefined, // no head is the anchors' answer, never a failed analysis
    );
    return this.head;
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

  /** Each candidate's fused score, best first (the benchmark reads the runners-up). */
  async scores(
    page: Float32Array,
    userCategories: string[],
    evidence: CategoryEvidence = {},
  ): Promise<{ category: string; score: number }[]> {
    const w = this.weights;
    const defaults = await this.defaultAnchors();
    const known = new Set(defaults.map((d) => key(d.name)));
    const neighbours = evidence.neighbours ?? [];
    // A neighbour's category takes part even when it is not among the user's most used ones.
    const names = [...userCategories, ...neighbours.map((n) => n.category)];
    const ownNames = [...new Map(names.map((c) => [key(c), c])).values()]
      .filter((c) => !known.has(key(c)) && key(c) !== 'other')
      .slice(0, 200);
    const own = await Promise.all(
      ownNames.map(async (name) => ({ name, own: true, vectors: await this.ownAnchors(name) })),
    );
    const ownKeys = new Set(userCategories.map(key));
    const candidates: Anchored[] = [...defaults, ...own];
    const priors = evidence.facts
      ? pagePriors(
          evidence.facts,
          candidates.map((c) => c.name),
        )
      : [];
    // `Other` (no phrases) scores the bar below which nothing fits, raised by a page that says it
    // fits no default category (a listing of a thing for sale or rent).
    const other = priors.find((p) => key(p.category) === 'other');
    const bar = { category: 'Other', score: w.minScore + (other ? w.prior[other.strength] : 0), own: false };
    const history = this.history(neighbours);
    const head = w.head > 0 ? await this.trainedHead() : undefined;
    const probabilities = head?.dimensions === page.length ? head.probabilities(page) : undefined;
    const out: { category: string; score: number; own: boolean }[] = [];
    for (const anchored of candidates) {
      // A page vector of another model (embedded just before a switch) cannot be compared.
      if (anchored.vectors[0] && anchored.vectors[0].length !== page.length) continue;
      const top = anchored.vectors.map((v) => cosine(page, v)).sort((a, b) => b - a);
      const anchors = ((top[0] ?? 0) + (top[1] ?? top[0] ?? 0)) / 2;
      let score = anchored.description
        ? w.description * cosine(page, anchored.description) + (1 - w.description) * anchors
        : anchors;
      const k = key(anchored.name);
      if (anchored.own || ownKeys.has(k)) score += w.ownBonus;
      for (const prior of priors) if (key(prior.category) === k) score += w.prior[prior.strength];
      score += (anchored.own ? w.ownHistory : w.history) * (history.get(k) ?? 0);
      out.push({ category: anchored.name, score, own: anchored.own });
    }
    if (probabilities) {
      // The head reorders the defaults and `Other` among themselves. The best of them keeps the
      // level it had, so the head never lifts them above the user's own categories, of which it
      // knows nothing.
      const led = [...out.filter((s) => !s.own), bar];
      const level = Math.max(...led.map((s) => s.score));
      for (const s of led) s.score += w.head * (probabilities.get(s.category) ?? 0);
      const shift = Math.max(...led.map((s) => s.score)) - level;
      for (const s of led) s.score -= shift;
    }
    // Last, so that a category scoring exactly the bar still wins it (the sort is stable).
    out.push(bar);
    return out.sort((a, b) => b.score - a.score).map(({ category, score }) => ({ category, score }));
  }

  /**
   * Per category, the user's history in [0, 1]: each neighbour's cosine rescaled by the model's
   * calibration (0 at its noise floor, 1 when certain), weighted by whether the user chose the
   * category, summed, and capped where two certain confirmed neighbours agree.
   */
  private history(neighbours: readonly LabelledNeighbour[]): Map<string, number> {
    const { floor, certain } = this.embedder.calibration ?? DEFAULT_CALIBRATION;
    const votes = new Map<string, number>();
    for (const n of neighbours) {
      const closeness = Math.min(1, Math.max(0, (n.cosine - floor) / (certain - floor)));
      const vote = closeness * (n.confirmed ? 1 : this.weights.unconfirmed);
      if (vote > 0) votes.set(key(n.category), (votes.get(key(n.category)) ?? 0) + vote);
    }
    for (const [k, v] of votes) votes.set(k, Math.min(1, v / 2));
    return votes;
  }

  /**
   * The best category, and the runner-up when it is within ALTERNATIVE_MARGIN of it (`Other` is
   * never offered as one): where two categories fit, the other is one click away.
   */
  async classify(
    page: Float32Array,
    userCategories: string[],
    evidence: CategoryEvidence = {},
  ): Promise<{ category: string; score: number; alternative: string | null }> {
    // `Other` is always among the scores: below the bar it is the best.
    const [best, next] = await this.scores(page, userCategories, evidence);
    const close = next && next.category !== 'Other' && next.score > 0 && best!.score - next.score <= ALTERNATIVE_MARGIN;
    return { ...best!, alternative: close ? next.category : null };
  }
}
