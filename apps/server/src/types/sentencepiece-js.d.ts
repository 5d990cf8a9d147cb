// @agnai/sentencepiece-js ships no types: the part of its API the USE multilingual model uses.
declare module '@agnai/sentencepiece-js' {
  export class SentencePieceProcessor {
    /** Reads a SentencePiece `.model` file. */
    load(file: string): Promise<void>;
    encodeIds(text: string): number[];
    encodePieces(text: string): string[];
  }
}
