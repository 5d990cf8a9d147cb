import { deflateSync } from 'node:zlib';

/** The toolbar icon drawn in code (a white bookmark on the brand colour), so no binary sits in the tree. */
export function iconPng(size: number): Buffer {
  const samples = 4;
  const rgba = Buffer.alloc(size * size * 4);
  const inside = (x: number, y: number) => {
    // Coordinates in 0..1. Rounded square background.
    const r = 0.22;
    const dx = Math.max(r - x, 0, x - (1 - r));
    const dy = Math.max(r - y, 0, y - (1 - r));
    const bg = dx * dx + dy * dy <= r * r;
    // A bookmark ribbon with a notch at the bottom.
    const inRibbon = x >= 0.3 && x <= 0.7 && y >= 0.2 && y <= 0.82;
    const notch = y > 0.82 - (0.2 - Math.abs(x - 0.5)) * 0.9 && y <= 0.82;
    return { bg, fg: inRibbon && !notch };
  };
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const hit = inside((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          if (hit.bg) bg++;
          if (hit.bg && hit.fg) fg++;
        }
      }
      const n = samples * samples;
      const f = fg / Math.max(1, bg);
      const i = (py * size + px) * 4;
      rgba[i] = Math.round(0x4f + (0xff - 0x4f) * f);
      rgba[i + 1] = Math.round(0x46 + (0xff - 0x46) * f);
      rgba[i + 2] = Math.round(0xe5 + (0xff - 0xe5) * f);
      rgba[i + 3] = Math.round((bg / n) * 255);
    }
  }
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
