/**
 * The embeddings table's one byte format: float32, little-endian, whatever the host's order (a
 * database moves between machines; a Float32Array's own buffer is in the host's order).
 */
export function vectorBytes(vector: Float32Array): Uint8Array {
  const out = new Uint8Array(vector.length * 4);
  const view = new DataView(out.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return out;
}

/** Reads stored bytes (driver buffers need not be 4-byte aligned, hence the DataView). */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

function norm(vector: Float32Array): number {
  let sum = 0;
  for (const x of vector) sum += x * x;
  return Math.sqrt(sum);
}

/**
 * Stored vectors are unit length (or all zeros, for an empty text). Bytes that read as a unit vector
 * only when swapped were written in big-endian order (an earlier release wrote the host's order):
 * returns them in the stored format, or null when they are already right or unrecognisable.
 */
export function repairedByteOrder(bytes: Uint8Array): Uint8Array | null {
  if (bytes.byteLength % 4 !== 0 || Math.abs(norm(vectorFromBytes(bytes)) - 1) < 1e-3) return null;
  const swapped = new Uint8Array(bytes.byteLength);
  for (let i = 0; i < bytes.byteLength; i += 4) {
    swapped[i] = bytes[i + 3]!;
    swapped[i + 1] = bytes[i + 2]!;
    swapped[i + 2] = bytes[i + 1]!;
    swapped[i + 3] = bytes[i]!;
  }
  return Math.abs(norm(vectorFromBytes(swapped)) - 1) < 1e-3 ? swapped : null;
}
