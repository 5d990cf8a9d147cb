import Assembler from 'stream-json/assembler.js';
import { parser } from 'stream-json';
import chain from 'stream-chain';
import { Readable } from 'node:stream';
import { ImportFileError, utf8Chunks } from './record.js';

export type JsonPath = (string | number)[];

interface Token {
  name: string;
  value?: unknown;
}

/**
 * Streams a JSON document and yields, in document order, each value whose path `wanted` accepts
 * (`["links", 3]`, `["collections", 0, "name"]`), assembled on its own: only that value is ever
 * in memory, never the whole document. Bytes must be UTF-8.
 */
export async function* pickJson(
  chunks: AsyncIterable<Buffer | string>,
  wanted: (path: JsonPath) => boolean,
): AsyncGenerator<{ path: JsonPath; value: unknown }> {
  const tokens = chain([Readable.from(utf8Chunks(chunks)), parser({ packValues: true, streamValues: false })]);
  // For each open container: the key or index of the value being read in it.
  const path: JsonPath = [];
  const kinds: ('object' | 'array')[] = [];
  let assembler: Assembler | null = null;
  let depth = 0;
  let at: JsonPath = [];
  const startValue = () => {
    const kind = kinds.at(-1);
    if (kind === 'array') path[path.length - 1] = (path.at(-1) as number) + 1;
  };
  try {
    for await (const token of tokens as AsyncIterable<Token>) {
      if (assembler) {
        assembler.consume(token as never);
        if (token.name === 'startObject' || token.name === 'startArray') depth += 1;
        if (token.name === 'endObject' || token.name === 'endArray') depth -= 1;
        if (depth === 0) {
          yield { path: at, value: assembler.current };
          assembler = null;
        }
        continue;
      }
      switch (token.name) {
        case 'keyValue':
          path[path.length - 1] = token.value as string;
          continue;
        case 'endObject':
        case 'endArray':
          kinds.pop();
          path.pop();
          continue;
        case 'startObject':
        case 'startArray':
        case 'stringValue':
        case 'numberValue':
        case 'nullValue':
        case 'trueValue':
        case 'falseValue':
          break;
        default:
          continue;
      }
      startValue();
      if (wanted(path)) {
        at = [...path];
        assembler = new Assembler();
        assembler.consume(token as never);
        if (token.name === 'startObject' || token.name === 'startArray') depth = 1;
        else {
          yield { path: at, value: assembler.current };
          assembler = null;
        }
        continue;
      }
      if (token.name === 'startObject') {
        kinds.push('object');
        path.push('');
      } else if (token.name === 'startArray') {
        kinds.push('array');
        path.push(-1);
      }
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError('The file is not valid JSON (it may be cut short).');
  }
}
