// An invoice's attachments: the list (listInvoiceAttachments, observed), each file's download
// (getInvoiceAttachment, saved under the name it was uploaded with) and removal
// (deleteInvoiceAttachment), and an upload form (a PDF, PNG or JPEG and a note) that shows how much of
// the file has been sent. Nothing here reloads the list after a write: the upload and delete
// mutations' onSuccess invalidates its key (the spec's x-invalidates), the query refetches, and the
// observer redraws.
import type { AppContext } from './app-context.js';
import type { Attachment } from './data.js';
import { h, render } from './dom.js';
import { formatSize, formatTimestamp } from './format.js';
import { saveFile } from './save-file.js';

/**
 * What the file picker offers: the three types the API takes, by extension and by media type. Only a
 * hint: the API judges the bytes (a text renamed .pdf is its 415), and the page shows its answer.
 */
const acceptedFiles = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

export interface AttachmentsView {
  element: HTMLElement;
  /** Reads the list, and observes it from then on. */
  load(): Promise<void>;
  /** Stops observing (the detail shows another invoice, or closes). */
  dispose(): void;
}

export function attachmentsView(context: AppContext, invoiceId: number): AttachmentsView {
  const summary = h('p', { attrs: { class: 'attachments-summary', 'aria-live': 'polite' } });
  const table = h('table', { attrs: { class: 'attachment-list' } });
  const fileInput = h('input', { attrs: { type: 'file', name: 'file', accept: acceptedFiles, required: true } });
  const noteInput = h('input', { attrs: { type: 'text', name: 'note' } });
  const progress = h('progress', { attrs: { max: 100, value: 0, 'aria-label': 'Upload progress' } });
  const percent = h('span', { attrs: { class: 'upload-percent' } });
  const progressLine = h('p', { attrs: { class: 'upload-progress' } }, progress, ' ', percent);
  progressLine.hidden = true;
  let unsubscribe: (() => void) | undefined;

  function showProgress(sent: number): void {
    progressLine.hidden = false;
    progress.value = sent;
    percent.textContent = `${sent}%`;
  }

  async function download(attachment: Attachment): Promise<void> {
    const file = await context.run('Downloading the attachment', (data) => data.attachmentFile(attachment));
    if (file) saveFile(file, attachment.file_name);
  }

  async function remove(attachment: Attachment): Promise<void> {
    const removed = await context.run('Removing the attachment', async (data) => {
      await data.removeAttachment({ path: { invoice_id: attachment.invoice_id, attachment_id: attachment.id } });
      return true;
    });
    if (removed) context.announce(`${attachment.file_name} removed`);
  }

  async function upload(): Promise<void> {
    const file = fileInput.files?.[0];
    if (!file) return;
    showProgress(0);
    const body = { file, ...(noteInput.value === '' ? {} : { note: noteInput.value }) };
    const uploaded = await context.run('Uploading the file', (data) =>
      data.uploadAttachment({ path: { invoice_id: invoiceId }, body }, ({ loaded, total }) =>
        showProgress(total === 0 ? 100 : Math.floor((loaded / total) * 100)),
      ),
    );
    if (!uploaded) return;
    form.reset();
    const { attachment } = uploaded;
    context.announce(`${attachment.file_name} attached (${formatSize(attachment.size)})`);
  }

  function renderAttachments(attachments: readonly Attachment[]): void {
    summary.textContent = attachments.length === 0 ? 'No attachments.' : `${attachments.length} ${attachments.length === 1 ? 'attachment' : 'attachments'}`;
    table.hidden = attachments.length === 0;
    render(
      table,
      h('thead', {}, h('tr', {}, ...['File', 'Type', 'Size', 'Note', 'Attached', ''].map((label) => h('th', { attrs: { scope: 'col' } }, label)))),
      h(
        'tbody',
        {},
        ...attachments.map((attachment) =>
          h(
            'tr',
            {},
            h(
              'td',
              { attrs: { 'data-field': 'file_name' } },
              h('button', { attrs: { type: 'button', class: 'link' }, on: { click: () => void download(attachment) } }, attachment.file_name),
            ),
            h('td', { attrs: { 'data-field': 'media_type' } }, attachment.media_type),
            h('td', { attrs: { 'data-field': 'size' } }, formatSize(attachment.size)),
            h('td', { attrs: { 'data-field': 'note' } }, attachment.note),
            h('td', { attrs: { 'data-field': 'created_at' } }, formatTimestamp(attachment.created_at)),
            h(
              'td',
              {},
              h(
                'button',
                { attrs: { type: 'button', 'aria-label': `Remove ${attachment.file_name}` }, on: { click: () => void remove(attachment) } },
                'Remove',
              ),
            ),
          ),
        ),
      ),
    );
  }

  const form = h(
    'form',
    {
      attrs: { 'aria-label': 'Attach a file' },
      on: {
        submit: (event) => {
          event.preventDefault();
          void upload();
        },
      },
    },
    h('label', {}, 'File ', fileInput),
    h('label', {}, 'Note ', noteInput),
    h('button', { attrs: { type: 'submit' } }, 'Upload'),
  );

  const element = h(
    'section',
    { attrs: { class: 'attachments', 'aria-label': 'Attachments' } },
    h('h3', {}, 'Attachments'),
    summary,
    table,
    form,
    progressLine,
  );

  return {
    element,
    async load() {
      const loaded = await context.run('Loading the attachments', (data) => data.attachments(invoiceId));
      if (!loaded) return;
      renderAttachments(loaded.attachments);
      // Observed from now on: the query is active, so an upload's or a removal's invalidation refetches it.
      unsubscribe = context.data.attachmentList(invoiceId).subscribe((result) => {
        if (result.data) renderAttachments(result.data.attachments);
      });
    },
    dispose() {
      unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}
