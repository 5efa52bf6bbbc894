// A small valid file of a media type, for the mocks' byte answers (a `bytes` kind in the operation
// table's responseMedia) where the spec gives no example: the MSW handlers carry it from generate
// time (generate-msw.mjs writes it into msw-answers.ts, base64) and the Prism front sends it
// (prism-front.mjs), so both mocks answer the same bytes. Built here rather than kept as blobs, so each
// is readable and checkable: a one-page PDF whose cross-reference offsets are computed, a 1x1 PNG
// with its CRCs, an empty ZIP archive. Any other type gets the 256 byte values in order: a body that
// some layer decodes as text instead of carrying as bytes comes out visibly wrong.
import { deflateSync } from 'node:zlib';

const encoder = new TextEncoder();

/** A one-page PDF (PDF 1.4) that says "Sample file": what a viewer opens without complaint. */
export function samplePdf() {
  const text = 'BT /F1 18 Tf 20 40 Td (Sample file) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  // Each cross-reference entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, space, newline.
  const entries = ['0000000000 65535 f \n', ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join('');
  body += `xref\n0 ${objects.length + 1}\n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return encoder.encode(body);
}

const crcTable = Array.from({ length: 256 }, (_, byte) => {
  let value = byte;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

/** CRC-32 (ISO 3309, as PNG and ZIP use it). */
export function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(encoder.encode(type), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

/** A 1x1 PNG, one opaque blue pixel (RGBA, 8 bits a channel). */
export function samplePng() {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, 1);
  view.setUint32(4, 1);
  header.set([8, 6, 0, 0, 0], 8);
  // One scanline: filter type 0, then the pixel.
  const pixels = deflateSync(Uint8Array.from([0, 0x25, 0x63, 0xeb, 0xff]));
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', new Uint8Array(0)),
  ];
  return concat(parts);
}

/** An empty ZIP archive: the end-of-central-directory record alone. */
export function sampleZip() {
  const record = new Uint8Array(22);
  record.set([0x50, 0x4b, 0x05, 0x06]);
  return record;
}

function concat(parts) {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** A small valid file of `mediaType` (a `bytes` kind of the operation table). */
export function sampleFile(mediaType) {
  switch (mediaType) {
    case 'application/pdf':
      return samplePdf();
    case 'image/png':
      return samplePng();
    case 'application/zip':
      return sampleZip();
    default:
      return Uint8Array.from({ length: 256 }, (_, index) => index);
  }
}
