// What a user does on the example app and what they read back, in one place for both targets.
import type { Download, Locator, Page } from 'playwright-core';

/** A file a test hands to the page's file input. */
export interface FileToUpload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** One attachment row as shown. */
export interface AttachmentRow {
  fileName: string;
  mediaType: string;
  size: string;
  note: string;
}

/** A download's bytes (Playwright keeps the file until the browser context closes). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export class ExampleAppPage {
  constructor(readonly page: Page) {}

  get summary(): Locator {
    return this.page.locator('.summary');
  }

  get problem(): Locator {
    return this.page.getByRole('alert', { name: 'Problem' });
  }

  get statusLine(): Locator {
    return this.page.getByRole('status');
  }

  get detail(): Locator {
    return this.page.getByRole('region', { name: 'Invoice detail' });
  }

  get delivery(): Locator {
    return this.page.locator('.delivery');
  }

  /** Opens the app and waits until its first search has been answered and drawn. */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.waitForFunction(() => document.body.dataset.ready === 'true');
  }

  /** Waits until no call of the app is in flight. */
  async idle(): Promise<void> {
    await this.page.waitForFunction(() => !document.body.hasAttribute('aria-busy'));
  }

  async addCriterion(field: string, operator: string, value: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Add criterion' }).click();
    const position = await this.page.locator('.criterion').count();
    await this.page.getByLabel(`Field ${position}`, { exact: true }).selectOption(field);
    await this.page.getByLabel(`Operator ${position}`, { exact: true }).selectOption(operator);
    await this.page.getByLabel(`Value ${position}`, { exact: true }).fill(value);
  }

  async search(): Promise<void> {
    await this.page.getByRole('button', { name: 'Search', exact: true }).click();
    await this.idle();
  }

  /** Clicks a column header: ascending first, descending on the second click. */
  async sortBy(column: string): Promise<void> {
    await this.page
      .getByRole('columnheader', { name: new RegExp(`^${column}`) })
      .getByRole('button')
      .click();
    await this.idle();
  }

  async sortState(column: string): Promise<string | null> {
    return this.page.getByRole('columnheader', { name: new RegExp(`^${column}`) }).getAttribute('aria-sort');
  }

  /** "Load more": the invoice list fetches the page after its last, by cursor. */
  async loadMore(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Load more' }).click();
    await this.idle();
  }

  /** "2 pages loaded" */
  async loadedLabel(): Promise<string> {
    return (await this.page.getByRole('navigation', { name: 'Pages' }).locator('span').innerText()).trim();
  }

  async canLoadMore(): Promise<boolean> {
    return this.page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Load more' }).isEnabled();
  }

  /** The deliveries list's line, e.g. "12 deliveries: 3 drafts, 9 issued". */
  get deliveriesSummary(): Locator {
    return this.page.locator('.deliveries-summary');
  }

  /** The delivery numbers of the latest deliveries shown, newest first. */
  async latestDeliveries(): Promise<string[]> {
    return this.page.locator('table.deliveries td[data-field="delivery_nr"]').allInnerTexts();
  }

  /** The text of one column for every row shown, top to bottom. */
  async column(field: string): Promise<string[]> {
    return this.page.locator(`table.invoices td[data-field="${field}"]`).allInnerTexts();
  }

  /** Clicks the invoice's number (its first row: the stateless MSW handlers answer every page alike). */
  async openInvoice(invoiceNumber: string): Promise<void> {
    await this.page.getByRole('button', { name: invoiceNumber, exact: true }).first().click();
    await this.idle();
  }

  /** The detail's rows as shown: term -> value. */
  async detailRows(): Promise<Record<string, string>> {
    const terms = await this.detail.locator('dt').allInnerTexts();
    const values = await this.detail.locator('dd').allInnerTexts();
    return Object.fromEntries(terms.map((term, index) => [term, values[index] ?? '']));
  }

  async fillDeliveryLine(position: number, itemId: number, quantity: number, unitPrice: number): Promise<void> {
    await this.page.getByLabel(`Item id ${position}`, { exact: true }).fill(String(itemId));
    await this.page.getByLabel(`Quantity ${position}`, { exact: true }).fill(String(quantity));
    await this.page.getByLabel(`Unit price ${position}`, { exact: true }).fill(String(unitPrice));
  }

  async contactOptions(): Promise<string[]> {
    return this.page.getByLabel('Contact').locator('option').allInnerTexts();
  }

  async createDraft(): Promise<void> {
    await this.page.getByRole('button', { name: 'Create draft' }).click();
    await this.idle();
  }

  async issueDelivery(): Promise<void> {
    await this.page.getByRole('button', { name: 'Issue delivery' }).click();
    await this.idle();
  }

  /** Clicks a button that saves a file, and waits for the download it starts and for the page to be idle. */
  private async download(button: Locator): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), button.click()]);
    await this.idle();
    return download;
  }

  /** "Download PDF" on the open invoice. */
  async downloadPdf(): Promise<Download> {
    return this.download(this.detail.getByRole('button', { name: 'Download PDF' }));
  }

  /** "Export CSV" of the search the list shows. */
  async exportCsv(): Promise<Download> {
    return this.download(this.page.getByRole('button', { name: 'Export CSV' }));
  }

  get attachments(): Locator {
    return this.detail.getByRole('region', { name: 'Attachments' });
  }

  /** "2 attachments", "No attachments." */
  get attachmentsSummary(): Locator {
    return this.attachments.locator('.attachments-summary');
  }

  async attachmentRows(): Promise<AttachmentRow[]> {
    const rows = this.attachments.locator('table.attachment-list tbody tr');
    const shown: AttachmentRow[] = [];
    for (const row of await rows.all()) {
      const cell = (field: string) => row.locator(`td[data-field="${field}"]`).innerText();
      shown.push({ fileName: await cell('file_name'), mediaType: await cell('media_type'), size: await cell('size'), note: await cell('note') });
    }
    return shown;
  }

  /** Chooses a file (and a note) in the upload form and sends it. */
  async uploadAttachment(file: FileToUpload, note = ''): Promise<void> {
    await this.attachments.getByLabel('File', { exact: true }).setInputFiles(file);
    await this.attachments.getByLabel('Note', { exact: true }).fill(note);
    await this.attachments.getByRole('button', { name: 'Upload' }).click();
    await this.idle();
  }

  /** The upload's progress as shown: the bar's value and its label ("100%"). */
  async uploadProgress(): Promise<{ value: number; label: string }> {
    const bar = this.attachments.getByRole('progressbar', { name: 'Upload progress' });
    return { value: Number(await bar.getAttribute('value')), label: await this.attachments.locator('.upload-percent').innerText() };
  }

  /** Clicks an attachment's name: the page reads its bytes and saves them under that name. */
  async downloadAttachment(fileName: string): Promise<Download> {
    return this.download(this.attachments.getByRole('button', { name: fileName, exact: true }));
  }

  async removeAttachment(fileName: string): Promise<void> {
    await this.attachments.getByRole('button', { name: `Remove ${fileName}`, exact: true }).click();
    await this.idle();
  }
}
