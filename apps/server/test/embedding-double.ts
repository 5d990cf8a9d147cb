import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Topic words of the double's models: a text's vector counts its words per topic, so which link a
 * query finds "by meaning" is decided here, not by a real model. Matching is by word prefix.
 */
export const TOPICS: string[][] = [
  ['pasta', 'noodle', 'italian', 'flour', 'dough', 'recipe', 'cook'],
  ['mars', 'rover', 'nasa', 'planet', 'spacecraft', 'rocket', 'orbit'],
  ['index', 'fund', 'invest', 'portfolio', 'stock', 'retirement'],
  ['puppy', 'dog', 'canine', 'obedience', 'pet'],
];

/** One scripted answer: a status, a hang, or vectors of the wrong size or count. */
export interface EmbeddingStep {
  status?: number;
  hang?: boolean;
  dims?: number;
  dropOne?: boolean;
}

export interface EmbeddingRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The texts asked for, whichever wire format carried them. */
  inputs: string[];
  /** The model named by the request (`models/` prefix removed). */
  model: string;
}

/**
 * A local server speaking OpenAI `POST /v1/embeddings` and Gemini
 * `POST /v1beta/models/{model}:batchEmbedContents`. Vectors are topic counts (`TOPICS`), placed in
 * an order that depends on the model, so two models' vectors do not agree; their length is the
 * requested `dimensions`/`outputDimensionality`, else `dims[model]`, else 8. Scripted steps are
 * taken one per request (the last one repeats); `failing` makes every request of a model answer 500.
 */
export class EmbeddingDouble {
  server!: Server;
  url = '';
  steps: EmbeddingStep[] = [];
  requests: EmbeddingRequest[] = [];
  dims: Record<string, number> = {};
  failing = new Set<string>();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}') as Record<string, unknown>;
        const gemini = req.url?.includes(':batchEmbedContents') ?? false;
        const request = gemini ? readGemini(req, body) : readOpenAi(req, body);
        this.requests.push(request);
        const step = this.steps.length > 1 ? this.steps.shift()! : (this.steps[0] ?? {});
        if (step.hang) return; // never answers: the client's timeout must fire
        res.setHeader('content-type', 'application/json');
        const status = this.failing.has(request.model) ? 500 : (step.status ?? 200);
        if (status !== 200) {
          res.statusCode = status;
          return res.end(JSON.stringify({ error: { message: 'scripted failure', code: status, status: 'ERROR' } }));
        }
        const wanted =
          (gemini ? geminiDims(body) : (body.dimensions as number | undefined)) ?? this.dims[request.model];
        const dims = step.dims ?? wanted ?? 8;
        let vectors = request.inputs.map((text) => topicVector(text, request.model, dims));
        if (step.dropOne) vectors = vectors.slice(1);
        if (gemini) return res.end(JSON.stringify({ embeddings: vectors.map((values) => ({ values })) }));
        // Listed in reverse: clients must order by `index`, not by position.
        const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse();
        res.end(
          JSON.stringify({ object: 'list', data, model: request.model, usage: { prompt_tokens: 1, total_tokens: 1 } }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.steps = [];
    this.requests = [];
    this.failing.clear();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function readOpenAi(req: IncomingMessage, body: Record<string, unknown>): EmbeddingRequest {
  const input = body.input;
  return {
    path: req.url ?? '',
    headers: req.headers,
    body,
    inputs: Array.isArray(input) ? (input as string[]) : [String(input)],
    model: String(body.model),
  };
}

interface GeminiRequestItem {
  model?: string;
  content?: { parts?: { text?: string }[] };
  outputDimensionality?: number;
}

function readGemini(req: IncomingMessage, body: Record<string, unknown>): EmbeddingRequest {
  const items = (body.requests ?? []) as GeminiRequestItem[];
  const model = /models\/([^:]+):batchEmbedContents/.exec(req.url ?? '')?.[1] ?? '';
  return {
    path: req.url ?? '',
    headers: req.headers,
    body,
    inputs: items.map((r) => (r.content?.parts ?? []).map((p) => p.text ?? '').join('')),
    model,
  };
}

function geminiDims(body: Record<string, unknown>): number | undefined {
  return ((body.requests ?? []) as GeminiRequestItem[])[0]?.outputDimensionality;
}

/** Word counts per topic, the topics placed by a model-dependent rotation; a little scale so normalising matters. */
export function topicVector(text: string, model: string, dims: number): number[] {
  const vector = new Array<number>(dims).fill(0);
  const shift = [...model].reduce((sum, c) => sum + c.charCodeAt(0), 0) % dims;
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const topic = TOPICS.findIndex((words) => words.some((w) => word.startsWith(w)));
    if (topic >= 0) vector[(topic + shift) % dims]! += 3;
  }
  return vector;
}
