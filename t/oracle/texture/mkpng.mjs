// mkpng.mjs [DIR]: write the PNG files the texture oracle models use into DIR (default: .);
// deterministic, so the committed files are its output.  Color types 0 (gray), 2 (RGB),
// 3 (palette with tRNS), 4 (gray+alpha), 6 (RGBA); depths 8 and 16; an sRGB chunk; a 3x4 grid
// of cube faces; six separate faces; a non-square image
import fs from 'node:fs';
import zlib from 'node:zlib';

// CRC-32 of a byte array (the PNG chunk checksum)
function crc32(buf) {
  let c, crc = 0xffffffff;
  for (const b of buf) {
    c = (crc ^ b) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// one chunk: length, type, data, CRC
function chunk(type, data) {
  const len = Buffer.alloc(4), crc = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

// a PNG file from rows of samples (numbers per channel); extra: more chunks before IDAT
function png(w, h, ctype, depth, sample, extra = []) {
  const nch = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype], bps = depth / 8;
  const raw = Buffer.alloc(h * (1 + w * nch * bps));
  let p = 0;
  for (let r = 0; r < h; r++) {
    raw[p++] = 0;
    for (let c = 0; c < w; c++)
      for (let k = 0; k < nch; k++) {
        const v = sample(r, c, k);
        if (bps === 2) raw[p++] = v >> 8;
        raw[p++] = v & 0xff;
      }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = depth, ihdr[9] = ctype;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr),
    ...extra, chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const dir = process.argv[2] || '.';
const put = (name, buf) => fs.writeFileSync(`${dir}/${name}`, buf);
// a deterministic pattern: every pixel and channel distinct enough to catch flips and swaps
const pat = (r, c, k, s = 0) => (r * 37 + c * 11 + k * 71 + s * 53) & 0xff;

put('rgb.png', png(6, 4, 2, 8, pat));
put('rgba.png', png(5, 3, 6, 8, (r, c, k) => (k === 3 ? (r * 90 + c * 40) & 0xff : pat(r, c, k))));
put('gray.png', png(4, 4, 0, 8, (r, c) => pat(r, c, 0)));
put('graya.png', png(4, 3, 4, 8, (r, c, k) => pat(r, c, k * 3)));
put('rgb16.png', png(3, 3, 2, 16, (r, c, k) => pat(r, c, k) * 257 + 13 * c));
const plte = Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 99, 199]);
put('palette.png', png(4, 2, 3, 8, (r, c) => (r * 4 + c) % 4,
                       [chunk('PLTE', plte), chunk('tRNS', Buffer.from([255, 128]))]));
put('srgb.png', png(3, 3, 2, 8, pat, [chunk('sRGB', Buffer.from([0]))]));
put('square.png', png(4, 4, 2, 8, pat));
// a 3x4 grid of 3x3 cells, each cell a flat color naming its index
const cell = (r, c) => Math.floor(r / 3) * 4 + Math.floor(c / 3);
put('grid.png', png(12, 9, 2, 8, (r, c, k) => cell(r, c) * 20 + k));
for (const [i, f] of ['right', 'left', 'up', 'down', 'front', 'back'].entries())
  put(`${f}.png`, png(3, 3, 2, 8, (r, c, k) => pat(r, c, k, i + 1)));
put('nonsquare.png', png(4, 3, 2, 8, pat));
