/**
 * A small classifier over page vectors: multinomial logistic regression (softmax, L2-regularised)
 * trained on the labelled example pages of category-examples.json, one per default category and
 * `Other`. It is trained offline for a given model (scripts/train-category-head.ts) because
 * embedding the examples takes about a minute; the result ships as category-head.data.ts.
 */

export interface CategoryHeadData {
  /** The embedding model whose page vectors the head reads (`LocalModelSpec.id`). */
  modelId: string;
  /** sha256 of the examples (their JSON, not the file's layout) it was trained on: a test checks it is current. */
  examplesSha256: string;
  /** The L2 weight the head was trained with (per example, on the mean loss). */
  l2: number;
  classes: string[];
  dimensions: number;
  /** classes × dimensions float32 weights, little-endian, base64. */
  weights: string;
  bias: number[];
}

export class CategoryHead {
  readonly classes: readonly string[];
  private readonly weights: Float32Array;

  constructor(readonly data: CategoryHeadData) {
    this.classes = data.classes;
    const bytes = Buffer.from(data.weights, 'base64');
    if (bytes.length !== data.classes.length * data.dimensions * 4 || data.bias.length !== data.classes.length)
      throw new Error('category head: weights do not match its classes and dimensions');
    this.weights = new Float32Array(data.classes.length * data.dimensions);
    for (let i = 0; i < this.weights.length; i++) this.weights[i] = bytes.readFloatLE(i * 4);
  }

  get dimensions(): number {
    return this.data.dimensions;
  }

  /** The probability of each class for a page vector of the head's model. */
  probabilities(vector: Float32Array): Map<string, number> {
    const d = this.data.dimensions;
    if (vector.length !== d) throw new Error(`category head reads ${d} dimensions, got ${vector.length}`);
    const logits = this.classes.map((_, c) => {
      let sum = this.data.bias[c]!;
      for (let i = 0, at = c * d; i < d; i++, at++) sum += this.weights[at]! * vector[i]!;
      return sum;
    });
    return new Map(softmax(logits).map((p, c) => [this.classes[c]!, p]));
  }
}

function softmax(logits: number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((l) => Math.exp(l - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

export interface TrainOptions {
  /** L2 weight on the mean cross-entropy (the bias is not regularised). */
  l2: number;
  iterations: number;
}

/** How the shipped head is trained (chosen on the labelled pages, decision 0024). */
export const CATEGORY_HEAD_TRAINING: TrainOptions = { l2: 2e-4, iterations: 300 };

/**
 * Fits the head by full-batch gradient descent with Nesterov momentum on the convex softmax loss,
 * with a fixed step from the loss's smoothness bound: the same examples in the same order always
 * give the same head.
 */
export function trainCategoryHead(
  vectors: readonly Float32Array[],
  labels: readonly string[],
  classes: readonly string[],
  { l2, iterations }: TrainOptions,
): { weights: Float32Array; bias: Float64Array; loss: number } {
  const n = vectors.length;
  const k = classes.length;
  const d = vectors[0]?.length ?? 0;
  if (!n || labels.length !== n) throw new Error('category head: one label per example is needed');
  const target = labels.map((label) => {
    const c = classes.indexOf(label);
    if (c < 0) throw new Error(`category head: unknown class ${label}`);
    return c;
  });
  // Softmax cross-entropy is (1/2)·λmax(XᵀX/n)-smooth in each class's weights; the bias is a feature of 1.
  const step = 1 / (0.5 * (largestEigenvalue(vectors) / n + 1) + l2);
  const size = k * (d + 1);
  let x = new Float64Array(size);
  let previous = new Float64Array(size);
  const gradient = new Float64Array(size);
  const at = (c: number, i: number) => c * (d + 1) + i; // i = d is the bias
  const lossAndGradient = (w: Float64Array): number => {
    gradient.fill(0);
    let loss = 0;
    const logits = new Float64Array(k);
    for (let e = 0; e < n; e++) {
      const v = vectors[e]!;
      let max = -Infinity;
      for (let c = 0; c < k; c++) {
        let sum = w[at(c, d)]!;
        const base = at(c, 0);
        for (let i = 0; i < d; i++) sum += w[base + i]! * v[i]!;
        logits[c] = sum;
        if (sum > max) max = sum;
      }
      let total = 0;
      for (let c = 0; c < k; c++) total += Math.exp(logits[c]! - max);
      loss += Math.log(total) + max - logits[target[e]!]!;
      for (let c = 0; c < k; c++) {
        const g = (Math.exp(logits[c]! - max) / total - (c === target[e] ? 1 : 0)) / n;
        const base = at(c, 0);
        for (let i = 0; i < d; i++) gradient[base + i]! += g * v[i]!;
        gradient[at(c, d)]! += g;
      }
    }
    loss /= n;
    for (let c = 0; c < k; c++)
      for (let i = 0; i < d; i++) {
        const wi = w[at(c, i)]!;
        loss += 0.5 * l2 * wi * wi;
        gradient[at(c, i)]! += l2 * wi;
      }
    return loss;
  };
  let loss = 0;
  const y = new Float64Array(size);
  for (let t = 1; t <= iterations; t++) {
    const momentum = (t - 1) / (t + 2);
    for (let j = 0; j < size; j++) y[j] = x[j]! + momentum * (x[j]! - previous[j]!);
    loss = lossAndGradient(y);
    previous = x;
    x = new Float64Array(size);
    for (let j = 0; j < size; j++) x[j] = y[j]! - step * gradient[j]!;
  }
  loss = lossAndGradient(x);
  const weights = new Float32Array(k * d);
  const bias = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    for (let i = 0; i < d; i++) weights[c * d + i] = x[at(c, i)]!;
    bias[c] = x[at(c, d)]!;
  }
  return { weights, bias, loss };
}

/** λmax of XᵀX by power iteration from a fixed start (deterministic). */
function largestEigenvalue(vectors: readonly Float32Array[]): number {
  const d = vectors[0]!.length;
  let u = new Float64Array(d).fill(1 / Math.sqrt(d));
  let value = 0;
  for (let round = 0; round < 50; round++) {
    const next = new Float64Array(d);
    for (const v of vectors) {
      let dot = 0;
      for (let i = 0; i < d; i++) dot += v[i]! * u[i]!;
      for (let i = 0; i < d; i++) next[i]! += dot * v[i]!;
    }
    let norm = 0;
    for (const x of next) norm += x * x;
    value = Math.sqrt(norm);
    for (let i = 0; i < d; i++) next[i]! /= value;
    u = next;
  }
  return value;
}
