// The CSV writing alone: RFC 4180 quoting (comma, double quote, CR, LF), CRLF records, and OWASP's
// neutralisation of text cells a spreadsheet would run as a formula; an invoice's record in the
// spec's column order, parsed back by a real CSV parser.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord, csvTextField } from '../../src/export/csv.js';
import { invoiceCsvHeader, invoiceCsvRecord, type ExportCells } from '../../src/export/invoice-csv.js';

const cells: ExportCells = [
  '42',
  'INV-000042',
  '7',
  'Acme GmbH',
  '1250.00,EUR,paid,2026-03-31,2026-03-01T09:30:00.000Z,2026-03-20T16:02:11.512Z',
  'Consulting, March',
];
const fields = ['42', 'INV-000042', '7', 'Acme GmbH', '1250.00', 'EUR', 'paid', '2026-03-31', '2026-03-01T09:30:00.000Z', '2026-03-20T16:02:11.512Z'];

describe('csvField', () => {
  it('leaves a plain field as it is, an empty one empty', () => {
    expect(csvField('Acme GmbH')).toBe('Acme GmbH');
    expect(csvField('')).toBe('');
    expect(csvField("O'Brien; ünïcødé € 日本")).toBe("O'Brien; ünïcødé € 日本");
  });

  it.each([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\r\nnext', '"line\r\nnext"'],
    ['lf\nonly', '"lf\nonly"'],
    ['cr\ronly', '"cr\ronly"'],
    ['"', '""""'],
  ])('quotes %j as %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});

describe('csvTextField', () => {
  it.each(['=', '+', '-', '@', '\t', '\r'])('neutralises a cell starting with %j by a leading quote', (start) => {
    const value = `${start}HYPERLINK("http://x","y")`;
    const written = csvTextField(value);
    expect(written.startsWith('"') ? written.slice(1, 2) : written.slice(0, 1)).toBe("'");
    expect((parse(`${written}\r\n`) as string[][])[0]?.[0]).toBe(`'${value}`);
  });

  it('leaves a formula character anywhere but first, and a leading blank or quote, alone', () => {
    expect(csvTextField('a=b')).toBe('a=b');
    expect(csvTextField('N-7')).toBe('N-7');
    expect(csvTextField(' =1')).toBe(' =1');
    expect(csvTextField("'=1")).toBe("'=1");
    expect(csvTextField('\n=1')).toBe('"\n=1"');
  });
});

describe('invoiceCsvRecord', () => {
  it('writes the header and a record in the spec column order, CRLF-ended', () => {
    expect(invoiceCsvHeader).toBe('id,invoice_number,client_id,client_name,amount,currency,status,due_date,created_at,updated_at,description\r\n');
    expect(invoiceCsvRecord(cells)).toBe(
      '42,INV-000042,7,Acme GmbH,1250.00,EUR,paid,2026-03-31,2026-03-01T09:30:00.000Z,2026-03-20T16:02:11.512Z,"Consulting, March"\r\n',
    );
    expect(csvRecord(['a', 'b'])).toBe('a,b\r\n');
  });

  it('neutralises only the text cells a user wrote, and parses back to the same values', () => {
    const tricky: ExportCells = [cells[0], '@SUM(1)', cells[2], '=Tricky Ltd', cells[4], '-1+1\r\n"quoted", ok'];
    const written = invoiceCsvHeader + invoiceCsvRecord(tricky);
    const [header, record] = parse(written) as string[][];
    expect(header).toEqual(invoiceCsvHeader.trim().split(','));
    expect(record).toEqual([...fields.slice(0, 1), "'@SUM(1)", fields[2], "'=Tricky Ltd", ...fields.slice(4), `'-1+1\r\n"quoted", ok`]);
  });
});
