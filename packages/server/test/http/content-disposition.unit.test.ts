// The Content-Disposition of a file the service hands out: a user's file name never steers a save into
// another folder, never breaks the header, and survives exactly in `filename*` when it is not ASCII.
import { parse } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, safeFileName } from '../../src/http/content-disposition.js';

describe('attachmentDisposition', () => {
  it('names a plain file as it is', () => {
    expect(attachmentDisposition('INV-000042.pdf')).toBe('attachment; filename=INV-000042.pdf');
  });

  it('keeps only the last segment of a path, with either slash', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\me\\order.pdf')).toBe('order.pdf');
    expect(safeFileName('..')).toBe('file');
    expect(safeFileName(' \u0007 ')).toBe('file');
  });

  it('drops line breaks and other control characters, so no header can be added through a name', () => {
    const header = attachmentDisposition('a\r\nSet-Cookie: x.pdf');
    expect(header).not.toMatch(/[\r\n]/);
    expect(parse(header).parameters.filename).toBe('aSet-Cookie: x.pdf');
  });

  it('gives an ASCII fallback and the exact UTF-8 name for a name outside ASCII, quotes and percent signs', () => {
    const header = attachmentDisposition('Ünïcode "b" 50%.pdf');
    expect(header).toContain('filename="_n_code _b_ 50_.pdf"');
    // A reader of RFC 8187 (the library's parse, like a browser) takes the exact name from filename*.
    const parsed = parse(header);
    expect(parsed.type).toBe('attachment');
    expect(parsed.parameters.filename).toBe('Ünïcode "b" 50%.pdf');
  });
});
