// Attachments through real HTTP on both engines: a PDF, a PNG and a JPEG uploaded (201 with the
// stored facts, the SHA-256 the service computed, Location), listed in order, downloaded byte for byte
// with a Content-Disposition whose name is made safe, removed (204, then 404); another account's invoice
// is 404 everywhere, a missing scope 403; refusals (a text renamed .pdf, a GIF declared PNG, 11 MiB, no
// file, a long note, the 101st file) change nothing; an Idempotency-Key replays the same file and refuses
// another; a removed draft invoice takes its files with it.
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareInvoiceCounts } from '../../src/db/invoice-counts.js';
import { createHandlers } from '../../src/operations/index.js';
import { engines, useTestDatabase } from '../support/databases.js';
import { createAccount, type TestAccount } from '../support/fixtures.js';
import { accountCalls } from '../http/support/account-calls.js';
import { capturingLogger, startTestService, token, type TestService } from '../http/support/service.js';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

/** A minimal PDF: header, one empty object, trailer. */
const pdf = bytes('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
/** A 1x1 PNG. */
const png = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
/** A 1x1 JPEG (SOI, JFIF APP0, tables, frame, scan, EOI). */
const jpeg = new Uint8Array(
  Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
);
/** A 1x1 GIF. */
const gif = new Uint8Array(Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAACAkQBADs=', 'base64'));

const sha256 = (content: Uint8Array): string => createHash('sha256').update(content).digest('hex');

interface AttachmentBody {
  id: number;
  invoice_id: number;
  file_name: string;
  media_type: string;
  size: number;
  sha256: string;
  note: string;
  created_at: string;
}

describe.each(engines)('attachments on %s', (engine) => {
  const database = useTestDatabase(engine, { name: 'attachments' });
  const captured = capturingLogger();
  let service: TestService;
  let account: TestAccount;
  let other: TestAccount;
  let bearer: string;
  let otherBearer: string;

  beforeAll(async () => {
    account = await createAccount(database(), { clients: 1 });
    other = await createAccount(database(), { clients: 1 });
    bearer = await token({ accountId: account.accountId, clientId: `attachments-${randomUUID()}` });
    otherBearer = await token({ accountId: other.accountId, clientId: `attachments-${randomUUID()}` });
    service = await startTestService({ database: database(), handlers: createHandlers(), logger: captured.logger, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(() => service?.close());

  const { call, newInvoice } = accountCalls(
    () => service.url,
    () => bearer,
    () => account,
  );
  const path = (invoiceId: number, attachmentId?: number) => `/api/v1/invoices/${invoiceId}/attachments${attachmentId === undefined ? '' : `/${attachmentId}`}`;

  interface Upload {
    content?: Uint8Array;
    name?: string;
    type?: string;
    note?: string;
    headers?: Record<string, string>;
    as?: string;
  }
  const upload = (invoiceId: number, { content, name = 'file.pdf', type = 'application/pdf', note, headers = {}, as = bearer }: Upload) => {
    const form = new FormData();
    if (content !== undefined) form.append('file', new File([content], name, { type }));
    if (note !== undefined) form.append('note', note);
    return fetch(`${service.url}${path(invoiceId)}`, { method: 'POST', headers: { authorization: `Bearer ${as}`, ...headers }, body: form });
  };
  const uploaded = async (invoiceId: number, options: Upload): Promise<AttachmentBody> => {
    const response = await upload(invoiceId, options);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { attachment: AttachmentBody }).attachment;
  };
  const listed = async (invoiceId: number): Promise<AttachmentBody[]> => {
    const response = await call('GET', path(invoiceId));
    expect(response.status).toBe(200);
    return ((await response.json()) as { attachments: AttachmentBody[] }).attachments;
  };
  const storedRows = async (invoiceId?: number): Promise<number> => {
    const db = database().db;
    const query = db.selectFrom('invoice_attachments').select((eb) => eb.fn.countAll<string>().as('count'));
    const row = await (invoiceId === undefined ? query : query.where('invoice_id', '=', invoiceId)).executeTakeFirstOrThrow();
    return Number(row.count);
  };
  const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as Record<string, unknown>) });

  it('stores a PDF, a PNG and a JPEG: 201 with the facts, the SHA-256 of the bytes and Location; listed oldest first', async () => {
    const invoiceId = await newInvoice();
    const requestId = `attach-${randomUUID()}`;
    const response = await upload(invoiceId, { content: pdf, name: 'signed-order.pdf', note: 'Signed on 2026-03-01.', headers: { 'x-request-id': requestId } });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    expect(response.headers.get('ratelimit')).not.toBeNull();
    const { attachment } = (await response.json()) as { attachment: AttachmentBody };
    expect(attachment).toEqual({
      id: expect.any(Number),
      invoice_id: invoiceId,
      file_name: 'signed-order.pdf',
      media_type: 'application/pdf',
      size: pdf.length,
      sha256: sha256(pdf),
      note: 'Signed on 2026-03-01.',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(response.headers.get('location')).toBe(path(invoiceId, attachment.id));
    await expect
      .poll(() => captured.lines().find((line) => line.requestId === requestId && line.msg === 'request completed'))
      .toMatchObject({ req: { method: 'POST' }, res: { status: 201 } });

    const second = await uploaded(invoiceId, { content: png, name: 'delivery-note.png', type: 'image/png' });
    const third = await uploaded(invoiceId, { content: jpeg, name: 'receipt.jpg', type: 'image/jpeg' });
    expect([second, third].map((each) => [each.media_type, each.size, each.sha256, each.note])).toEqual([
      ['image/png', png.length, sha256(png), ''],
      ['image/jpeg', jpeg.length, sha256(jpeg), ''],
    ]);
    // Another invoice's file is not in this list.
    const elsewhere = await newInvoice();
    await uploaded(elsewhere, { content: pdf });
    expect(await listed(invoiceId)).toEqual([attachment, second, third]);
    expect((await listed(await newInvoice())).length).toBe(0);
  });

  it('attaches to an invoice in any status', async () => {
    const sent = await newInvoice('sent');
    expect((await uploaded(sent, { content: png, name: 'proof.png', type: 'image/png' })).invoice_id).toBe(sent);
  });

  /**
   * A multipart body written by hand, the file part's Content-Disposition parameters as given: a
   * browser's FormData would percent-encode a quote in a name before the service saw it.
   */
  const rawUpload = (invoiceId: number, dispositionParameters: string, content: Uint8Array, type: string) => {
    const boundary = `----attachments-${randomUUID()}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${dispositionParameters}\r\nContent-Type: ${type}\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head, 'utf8'), content, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
    return fetch(`${service.url}${path(invoiceId)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
  };

  it('answers the bytes exactly, with their media type and the name made safe in Content-Disposition', async () => {
    const invoiceId = await newInvoice();
    for (const [content, type, parameters, stored, disposition] of [
      // The multipart reader keeps a name's last path segment (busboy without preservePath); the quote stays.
      [pdf, 'application/pdf', 'filename="../../x\\".pdf"', 'x".pdf', `attachment; filename=x_.pdf; filename*=UTF-8''x%22.pdf`],
      [
        png,
        'image/png',
        'filename="Lieferschein März ✓.png"',
        'Lieferschein März ✓.png',
        `attachment; filename="Lieferschein M_rz _.png"; filename*=UTF-8''Lieferschein%20M%C3%A4rz%20%E2%9C%93.png`,
      ],
      [jpeg, 'image/jpeg', 'filename="receipt.jpg"', 'receipt.jpg', 'attachment; filename=receipt.jpg'],
    ] as const) {
      const response = await rawUpload(invoiceId, parameters, content, type);
      expect(response.status).toBe(201);
      const { attachment } = (await response.json()) as { attachment: AttachmentBody };
      expect(attachment.file_name).toBe(stored);
      const download = await call('GET', path(invoiceId, attachment.id));
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe(type);
      expect(download.headers.get('content-disposition')).toBe(disposition);
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(content);
    }
  });

  it('makes a stored name with directories and control characters safe for the download', async () => {
    const invoiceId = await newInvoice();
    // Written by SQL: names the multipart reader would already have cut to their last segment.
    const row = await database()
      .db.insertInto('invoice_attachments')
      .values({
        account_id: account.accountId,
        invoice_id: invoiceId,
        file_name: '..\\..\\evil\u0007\r\nSet-Cookie: x=1.pdf',
        media_type: 'application/pdf',
        size: pdf.length,
        sha256: sha256(pdf),
        note: '',
        content: pdf,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const download = await call('GET', path(invoiceId, row.id));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="evilSet-Cookie: x=1.pdf"');
    expect(download.headers.get('set-cookie')).toBeNull();
  });

  it('removes one with 204: it is 404 after, and the list shrinks', async () => {
    const invoiceId = await newInvoice();
    const kept = await uploaded(invoiceId, { content: pdf });
    const removed = await uploaded(invoiceId, { content: png, type: 'image/png', name: 'x.png' });
    const answer = await call('DELETE', path(invoiceId, removed.id));
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
    expect(await errorOf(await call('GET', path(invoiceId, removed.id)))).toEqual({
      status: 404,
      error: 'not_found',
      message: `Attachment ${removed.id} of invoice ${invoiceId} not found.`,
    });
    expect((await call('DELETE', path(invoiceId, removed.id))).status).toBe(404);
    expect(await listed(invoiceId)).toEqual([kept]);
    // An attachment is found only under its own invoice.
    expect((await call('GET', path(await newInvoice(), kept.id))).status).toBe(404);
  });

  it("is 404 on all four for another account's invoice, and changes nothing", async () => {
    const invoiceId = await newInvoice();
    const stored = await uploaded(invoiceId, { content: pdf });
    const before = await storedRows();
    expect(await errorOf(await upload(invoiceId, { content: pdf, as: otherBearer }))).toEqual({
      status: 404,
      error: 'not_found',
      message: `Invoice ${invoiceId} not found.`,
    });
    for (const [method, at] of [
      ['GET', path(invoiceId)],
      ['GET', path(invoiceId, stored.id)],
      ['DELETE', path(invoiceId, stored.id)],
    ] as const) {
      expect(await errorOf(await call(method, at, undefined, {}, otherBearer))).toEqual({
        status: 404,
        error: 'not_found',
        message: `Invoice ${invoiceId} not found.`,
      });
    }
    expect(await storedRows()).toBe(before);
    expect(await listed(invoiceId)).toEqual([stored]);
  });

  it('asks invoices:write to upload and remove, invoices:read to list and download (403)', async () => {
    const invoiceId = await newInvoice();
    const stored = await uploaded(invoiceId, { content: pdf });
    const readOnly = await token({ accountId: account.accountId, clientId: `attachments-read-${randomUUID()}`, scopes: ['invoices:read'] });
    const writeOnly = await token({ accountId: account.accountId, clientId: `attachments-write-${randomUUID()}`, scopes: ['invoices:write'] });
    const refused = await upload(invoiceId, { content: pdf, as: readOnly });
    expect(await errorOf(refused)).toEqual({
      status: 403,
      error: 'forbidden',
      message: "Your permissions to attach a file to an invoice are insufficient: the token needs the scope 'invoices:write'.",
    });
    expect((await call('DELETE', path(invoiceId, stored.id), undefined, {}, readOnly)).status).toBe(403);
    expect((await call('GET', path(invoiceId), undefined, {}, writeOnly)).status).toBe(403);
    expect((await call('GET', path(invoiceId, stored.id), undefined, {}, writeOnly)).status).toBe(403);
    expect(await listed(invoiceId)).toEqual([stored]);
  });

  describe('refuses bad input with the documented 4xx, storing nothing', () => {
    let invoiceId: number;
    let before: number;
    beforeAll(async () => {
      invoiceId = await newInvoice();
      before = await storedRows();
    });
    afterAll(async () => {
      expect(await storedRows()).toBe(before);
    });

    it('a text renamed .pdf and declared application/pdf: 415 in the words of the spec example', async () => {
      expect(await errorOf(await upload(invoiceId, { content: bytes('just some text, not a PDF\n'), name: 'invoice.pdf' }))).toEqual({
        status: 415,
        error: 'unsupported_media_type',
        message: "The file 'file' is declared application/pdf, but its bytes are not a PDF; it must be application/pdf, image/png or image/jpeg.",
        details: { field: 'file', issue: 'must be application/pdf, image/png or image/jpeg' },
      });
    });

    it('a GIF declared image/png, and a file shorter than its signature: 415', async () => {
      expect(await errorOf(await upload(invoiceId, { content: gif, name: 'picture.png', type: 'image/png' }))).toMatchObject({
        status: 415,
        message: "The file 'file' is declared image/png, but its bytes are not a PNG; it must be application/pdf, image/png or image/jpeg.",
      });
      expect((await upload(invoiceId, { content: bytes('%PD'), name: 'short.pdf' })).status).toBe(415);
    });

    it('a type the part does not take: 415', async () => {
      expect(await errorOf(await upload(invoiceId, { content: gif, name: 'picture.gif', type: 'image/gif' }))).toMatchObject({
        status: 415,
        details: { field: 'file' },
      });
    });

    it('an 11 MiB PDF: 413', async () => {
      const large = new Uint8Array(11 * 1024 * 1024);
      large.set(pdf);
      expect(await errorOf(await upload(invoiceId, { content: large, name: 'large.pdf' }))).toEqual({
        status: 413,
        error: 'payload_too_large',
        message: "The file 'file' is larger than 10 MiB.",
        details: { field: 'file', issue: 'must be at most 10485760 bytes' },
      });
    });

    it('no file: 400 naming it', async () => {
      expect(await errorOf(await upload(invoiceId, { note: 'the file is missing' }))).toEqual({
        status: 400,
        error: 'invalid_request',
        message: "Missing required parameter 'file'.",
        details: { field: 'file', issue: 'is required' },
      });
    });

    it('a note over 500 characters: 400 naming it', async () => {
      expect(await errorOf(await upload(invoiceId, { content: pdf, note: 'n'.repeat(501) }))).toMatchObject({
        status: 400,
        error: 'invalid_request',
        details: { field: 'note' },
      });
    });

    it('a file name over 255 characters: 400', async () => {
      expect(await errorOf(await upload(invoiceId, { content: pdf, name: `${'n'.repeat(252)}.pdf` }))).toMatchObject({
        status: 400,
        details: { field: 'file', issue: 'must have a filename of 1 to 255 characters' },
      });
    });

    it('a bad attachment id: 400', async () => {
      expect(await errorOf(await call('GET', `${path(invoiceId)}/01`))).toMatchObject({ status: 400, details: { field: 'attachment_id' } });
    });
  });

  it('keeps at most 100 files per invoice: the 101st is 409 and stored nothing', async () => {
    const invoiceId = await newInvoice();
    // The hundred by SQL: a hundred uploads would only slow the test down.
    await database()
      .db.insertInto('invoice_attachments')
      .values(
        Array.from({ length: 100 }, (_, index) => ({
          account_id: account.accountId,
          invoice_id: invoiceId,
          file_name: `page-${index}.pdf`,
          media_type: 'application/pdf' as const,
          size: pdf.length,
          sha256: sha256(pdf),
          note: '',
          content: pdf,
        })),
      )
      .execute();
    expect(await errorOf(await upload(invoiceId, { content: pdf }))).toEqual({
      status: 409,
      error: 'conflict',
      message: `Invoice ${invoiceId} already keeps 100 attachments, the most an invoice can keep; remove one before attaching another.`,
    });
    expect(await storedRows(invoiceId)).toBe(100);
    expect((await listed(invoiceId)).length).toBe(100);
  });

  it('replays an upload under the same Idempotency-Key and file, storing nothing; another file under it is 422', async () => {
    const invoiceId = await newInvoice();
    const key = randomUUID();
    const first = await upload(invoiceId, { content: pdf, name: 'order.pdf', note: 'first', headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    expect(await storedRows(invoiceId)).toBe(1);

    const replay = await upload(invoiceId, { content: pdf, name: 'order.pdf', note: 'first', headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('location')).toBe(first.headers.get('location'));
    expect(await replay.text()).toBe(firstBody);

    // The first: same name, type, size and note, only one byte differs; then another type, another name.
    const otherBytes = pdf.slice();
    otherBytes[otherBytes.length - 2] = 0x41;
    const sameAsFirst = { content: pdf, name: 'order.pdf', note: 'first', headers: { 'idempotency-key': key } };
    for (const changed of [
      { ...sameAsFirst, content: otherBytes },
      { ...sameAsFirst, content: png, type: 'image/png' },
      { ...sameAsFirst, name: 'renamed.pdf' },
    ]) {
      expect(await errorOf(await upload(invoiceId, changed))).toMatchObject({
        status: 422,
        error: 'idempotency_key_reused',
      });
    }
    expect(await storedRows(invoiceId)).toBe(1);
  });

  it('removes the files of a draft invoice with it; the kept totals stay right', async () => {
    const invoiceId = await newInvoice();
    await uploaded(invoiceId, { content: pdf });
    await uploaded(invoiceId, { content: jpeg, type: 'image/jpeg', name: 'r.jpg' });
    expect(await storedRows(invoiceId)).toBe(2);
    expect((await call('DELETE', `/api/v1/invoices/${invoiceId}`)).status).toBe(204);
    expect(await storedRows(invoiceId)).toBe(0);
    expect((await call('GET', path(invoiceId))).status).toBe(404);
    expect((await compareInvoiceCounts(database().db)).differences).toEqual([]);
    // The bytes are gone from the table, not only hidden.
    const left = await sql<{ count: string }>`select count(*)::text as count from invoice_attachments where invoice_id = ${invoiceId}`.execute(database().db);
    expect(left.rows[0]?.count).toBe('0');
  });
});
