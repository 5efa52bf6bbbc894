import { describe, expect, it } from 'vitest';
import { chunkBytes, Utf8Chunks } from '../../src/export/utf8-chunks.js';

/** Texts of every width UTF-8 has: ASCII, two-byte, three-byte and four-byte (a surrogate pair). */
const samples = ['invoice,1250.50,CHF\r\n', 'Müller & Söhne,', 'コンサルティング,', '🚚 delivery 🧾,'];

function gather(texts: readonly string[]): Buffer[] {
  const chunks = new Utf8Chunks();
  for (const text of texts) chunks.add(text);
  return chunks.take();
}

describe('Utf8Chunks', () => {
  it('gives back exactly the UTF-8 of the texts added, in order, across many chunks', () => {
    const texts = Array.from({ length: 20_000 }, (_, index) => `${index}:${samples[index % samples.length]}`);
    const chunks = gather(texts);
    expect(chunks.length).toBeGreaterThan(3);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(texts.join(''));
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(texts.join(''), 'utf8'));
  });

  it('keeps each chunk within chunkBytes and cuts no text in two', () => {
    const texts = Array.from({ length: 10_000 }, (_, index) => `${samples[index % samples.length]}${index}\r\n`);
    const chunks = gather(texts);
    for (const chunk of chunks) {
      expect(chunk.length).toBeGreaterThan(0);
      expect(chunk.length).toBeLessThanOrEqual(chunkBytes);
      // Every chunk ends where a text ended: it decodes on its own, with no broken character.
      expect(chunk.toString('utf8')).not.toContain('\uFFFD');
      expect(chunk.toString('utf8').endsWith('\r\n')).toBe(true);
    }
  });

  it('puts a text longer than a chunk whole into a larger chunk, after the chunk before it', () => {
    const long = 'ü'.repeat(chunkBytes);
    const texts = ['before,', long, ',after'];
    const decoded = gather(texts).map((chunk) => chunk.toString('utf8'));
    expect(decoded[0]).toBe('before,');
    expect(decoded[1]?.startsWith(long)).toBe(true);
    expect(decoded.join('')).toBe(texts.join(''));
  });

  it('starts afresh after take, and gives nothing when nothing was added', () => {
    const chunks = new Utf8Chunks();
    expect(chunks.take()).toEqual([]);
    chunks.add('first');
    expect(chunks.take().map(String)).toEqual(['first']);
    chunks.add('second');
    expect(chunks.take().map(String)).toEqual(['second']);
  });
});
