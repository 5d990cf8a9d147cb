import { describe, expect, it } from 'vitest';
import { repairedByteOrder, vectorBytes, vectorFromBytes } from './vector-bytes.js';

const unit = Float32Array.from([0.6, 0, -0.8, 0]);

/** The bytes a big-endian host wrote when it stored a Float32Array's own buffer. */
function bigEndian(vector: Float32Array): Uint8Array {
  const out = new Uint8Array(vector.length * 4);
  const view = new DataView(out.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, false));
  return out;
}

describe('vector bytes', () => {
  it('stores little-endian float32 whatever the host, and reads it back', () => {
    const bytes = vectorBytes(Float32Array.from([1, -2.5]));
    expect([...bytes]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0]);
    expect([...vectorFromBytes(bytes)]).toEqual([1, -2.5]);
    // Driver buffers need not start on a 4-byte boundary.
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect([...vectorFromBytes(shifted.subarray(1))]).toEqual([1, -2.5]);
  });

  it('repairs a unit vector written in big-endian order, and leaves right or unknown bytes alone', () => {
    const repaired = repairedByteOrder(bigEndian(unit));
    expect(repaired && [...vectorFromBytes(repaired)].map((x) => Math.round(x * 10) / 10)).toEqual([0.6, 0, -0.8, 0]);
    expect(repairedByteOrder(vectorBytes(unit))).toBeNull();
    // An empty text's vector is all zeros in either order.
    expect(repairedByteOrder(vectorBytes(new Float32Array(4)))).toBeNull();
    expect(repairedByteOrder(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});
