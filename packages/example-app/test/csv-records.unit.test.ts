// How the export counts the invoices of a CSV answer as its chunks arrive (src/csv-records.ts).
import { describe, expect, it } from 'vitest';
import { csvRecordCounter } from '../src/csv-records.js';

function count(...chunks: string[]): number {
  const counter = csvRecordCounter();
  for (const chunk of chunks) counter.push(new TextEncoder().encode(chunk));
  return counter.records();
}

describe('csvRecordCounter', () => {
  it('counts CRLF-ended records, the header included', () => {
    expect(count('id,name\r\n1,a\r\n2,b\r\n')).toBe(3);
    expect(count('id,name\r\n')).toBe(1);
    expect(count('')).toBe(0);
  });

  it('counts a last record without a line break', () => {
    expect(count('id,name\r\n1,a')).toBe(2);
  });

  it('keeps a line break inside quotes in its field, escaped quotes included', () => {
    expect(count('id,description\r\n1,"two\r\nlines"\r\n2,"a ""quoted"" word, and\nmore"\r\n')).toBe(3);
  });

  it('reads across chunks, wherever they split (inside quotes, between CR and LF, inside a UTF-8 character)', () => {
    const text = 'id,description\r\n1,"Zürich,\r\nBahnhofstrasse"\r\n2,plain\r\n';
    const bytes = new TextEncoder().encode(text);
    for (let split = 0; split <= bytes.length; split += 1) {
      const counter = csvRecordCounter();
      counter.push(bytes.subarray(0, split));
      counter.push(bytes.subarray(split));
      expect(counter.records()).toBe(3);
    }
  });
});
