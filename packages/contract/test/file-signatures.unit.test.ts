import { describe, expect, it } from 'vitest';
import { fileNotWhatItClaims, fileSignatureOf, matchesSignature, signatureLength } from '../src/index.js';

const bytes = (...values: Array<number | string>): Uint8Array =>
  new Uint8Array(values.flatMap((value) => (typeof value === 'number' ? [value] : Array.from(value, (character) => character.charCodeAt(0)))));

describe('file signatures (the first bytes the service and the MSW handlers check an upload by)', () => {
  it('knows a PDF, a PNG and a JPEG by their first bytes', () => {
    expect(matchesSignature('application/pdf', bytes('%PDF-1.7\n'))).toBe(true);
    expect(matchesSignature('image/png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe(true);
    expect(matchesSignature('image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(signatureLength).toBe(8);
  });

  it('refuses other bytes under those types: a text, a GIF, a PNG declared as a JPEG', () => {
    expect(matchesSignature('application/pdf', bytes('just text\n'))).toBe(false);
    expect(matchesSignature('application/pdf', bytes(' %PDF-1.7'))).toBe(false);
    expect(matchesSignature('image/png', bytes('GIF89a', 1, 0, 1, 0))).toBe(false);
    expect(matchesSignature('image/jpeg', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a))).toBe(false);
  });

  it('refuses a file shorter than its signature, an empty one included', () => {
    expect(matchesSignature('application/pdf', bytes('%PDF'))).toBe(false);
    expect(matchesSignature('image/png', bytes())).toBe(false);
    expect(matchesSignature('application/pdf', bytes('%PDF-'))).toBe(true);
  });

  it('does not check a type without a known signature', () => {
    expect(matchesSignature('text/csv', bytes())).toBe(true);
    expect(matchesSignature('application/octet-stream', bytes('anything'))).toBe(true);
    // Only own entries: a name of Object.prototype is not a media type with a signature.
    expect(matchesSignature('constructor', bytes())).toBe(true);
    expect(fileSignatureOf('toString')).toBeUndefined();
    expect(fileSignatureOf('image/png')).toEqual({ label: 'PNG', length: 8 });
  });

  it('words the refusal as the spec example FileNotWhatItClaims does', () => {
    expect(fileNotWhatItClaims('file', 'application/pdf', ['application/pdf', 'image/png', 'image/jpeg'])).toEqual({
      status: 415,
      error: 'unsupported_media_type',
      message: "The file 'file' is declared application/pdf, but its bytes are not a PDF; it must be application/pdf, image/png or image/jpeg.",
      details: { field: 'file', issue: 'must be application/pdf, image/png or image/jpeg' },
    });
    expect(fileNotWhatItClaims('scan', 'image/jpeg', ['image/png', 'image/jpeg']).message).toBe(
      "The file 'scan' is declared image/jpeg, but its bytes are not a JPEG; it must be image/png or image/jpeg.",
    );
    expect(fileNotWhatItClaims('scan', 'image/png', ['image/png']).details).toEqual({ field: 'scan', issue: 'must be image/png' });
  });
});
