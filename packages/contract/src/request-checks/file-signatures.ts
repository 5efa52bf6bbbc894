// What a file's first bytes must be for the media type its part declares ("magic numbers"), so an
// upload is taken by what it is and not by what its name or Content-Type claims: a text renamed
// `.pdf` and declared application/pdf is refused. The service's multipart reader checks the first
// bytes as the file streams in (packages/server/src/http/multipart-body.ts) and the client's MSW
// handlers check the same bytes (packages/client/src/msw/request-body.ts), both with this table; which
// types a part takes is the spec's `encoding.contentType`, so nothing here decides what is accepted.
// A declared type without a known signature is not checked. Pure: no Node API, it runs in a browser.

interface FileSignature {
  /** The bytes the file starts with. */
  bytes: readonly number[];
  /** How a person names such a file: "its bytes are not a PDF". */
  label: string;
}

const ascii = (text: string): number[] => Array.from(text, (character) => character.charCodeAt(0));

/** The signatures known, by media type (lower case, without parameters). */
const signatures: Readonly<Record<string, FileSignature>> = {
  // ISO 32000: a PDF starts with its header, `%PDF-` and the version.
  'application/pdf': { bytes: ascii('%PDF-'), label: 'PDF' },
  // PNG (RFC 2083): the eight-byte signature `\x89PNG\r\n\x1a\n`.
  'image/png': { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], label: 'PNG' },
  // JPEG (JFIF, Exif, raw): the SOI marker and the first byte of the next marker.
  'image/jpeg': { bytes: [0xff, 0xd8, 0xff], label: 'JPEG' },
};

/** How many first bytes of a file the check needs at most: read this many, then call `matchesSignature`. */
export const signatureLength = Math.max(...Object.values(signatures).map((signature) => signature.bytes.length));

/** The signature of `mediaType`, or undefined when none is known (such a file is not checked). */
export function fileSignatureOf(mediaType: string): { label: string; length: number } | undefined {
  const signature = Object.hasOwn(signatures, mediaType) ? signatures[mediaType] : undefined;
  return signature === undefined ? undefined : { label: signature.label, length: signature.bytes.length };
}

/**
 * True when `firstBytes` (the file's first bytes, at least as many as the signature has, or the whole
 * file when it is shorter) start as `mediaType` requires, or when no signature is known for it. A file
 * shorter than its signature does not match.
 */
export function matchesSignature(mediaType: string, firstBytes: Uint8Array): boolean {
  const signature = Object.hasOwn(signatures, mediaType) ? signatures[mediaType] : undefined;
  if (signature === undefined) return true;
  if (firstBytes.length < signature.bytes.length) return false;
  return signature.bytes.every((byte, index) => firstBytes[index] === byte);
}
