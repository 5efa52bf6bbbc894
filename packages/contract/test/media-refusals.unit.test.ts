import { describe, expect, it } from 'vitest';
import { bodyNotUtf8, bodyTooLarge, describeBytes, fileTooLarge, tooManyParts, unsupportedBodyType, wrongFileType } from '../src/index.js';

describe('media refusals (the words the service and the MSW handlers share)', () => {
  it('gives a limit in the largest whole unit', () => {
    expect([describeBytes(1024 * 1024), describeBytes(10 * 1024 * 1024), describeBytes(512 * 1024), describeBytes(4000)]).toEqual([
      '1 MiB',
      '10 MiB',
      '512 KiB',
      '4000 bytes',
    ]);
  });

  it('names the one media type accepted, or lists several', () => {
    expect(unsupportedBodyType(['application/json']).message).toBe('The request body must be application/json.');
    expect(unsupportedBodyType(['application/json', 'text/csv'])).toEqual({
      status: 415,
      error: 'unsupported_media_type',
      message: 'The request body must be one of application/json, text/csv.',
    });
    expect(bodyNotUtf8('text/plain').message).toBe('The request body must be text/plain in UTF-8.');
  });

  it('names the part of a multipart refusal in its details', () => {
    expect(wrongFileType('file', ['application/pdf', 'image/png'], 'text/html')).toEqual({
      status: 415,
      error: 'unsupported_media_type',
      message: "The file 'file' is text/html; it must be one of application/pdf, image/png.",
      details: { field: 'file', issue: 'must be one of application/pdf, image/png' },
    });
    expect(fileTooLarge('file', 10 * 1024 * 1024)).toMatchObject({ status: 413, details: { field: 'file', issue: 'must be at most 10485760 bytes' } });
    expect(tooManyParts(3).message).toBe('The request body has more parts than the 3 this operation takes.');
    expect(bodyTooLarge(1024 * 1024)).toEqual({ status: 413, error: 'payload_too_large', message: 'The request body is larger than 1 MiB.' });
  });
});
