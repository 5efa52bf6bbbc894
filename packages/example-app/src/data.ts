// The app's data layer, DOM-free: one TanStack QueryClient and the client's generated query options
// (`@invoice-api/client/query`). The views observe these queries; a write goes through its generated
// mutation, whose onSuccess invalidates the reads the spec says it makes stale, so an open list
// refetches and redraws without a page reload. Runs the same in the page and in Node (unit tests).
// Files (an invoice's PDF, an attachment, the CSV export) are read with the client directly, not
// through a query: a download is a one-off action, and its bytes have no business in the cache.
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { expectOk, type ApiClient, type RequestBody } from '@invoice-api/client';
import { createQueryOptions, type MutationVariables } from '@invoice-api/client/query';
import type { components, Delivery, InvoiceSearchRequest } from '@invoice-api/contract';
import type { UploadProgress } from './xhr-fetch.js';

/** What the invoice list asks for: the first page's request (the pages after it go on by cursor). */
export type InvoiceQuery = Omit<InvoiceSearchRequest, 'cursor' | 'offset'>;

/** An invoice's attached file as the API describes it (its bytes are read apart). */
export type Attachment = components['schemas']['Attachment'];

/** What an export asks for: a search's criteria and order, without paging. */
export type InvoiceExport = RequestBody<'exportInvoices'>;

/** The deliveries the page keeps in view: one request, the API's largest page. */
export const deliveryListQuery = { query: { limit: 1000 } } as const;

/**
 * A client for one upload that reports how much of it has been sent (the page's: ./xhr-fetch.ts).
 * Without one (Node, the unit tests) an upload goes through the app's client and reports nothing.
 */
export type UploadClient = (onProgress: (progress: UploadProgress) => void) => ApiClient;

export function createAppData(api: ApiClient, uploadClient?: UploadClient) {
  const queryClient = new QueryClient({
    defaultOptions: {
      // The page shows every failure at once, in the API's words: retrying would only delay it.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  const queries = createQueryOptions(api);

  return {
    queryClient,
    queries,
    /** The invoice search as an infinite list by cursor: `fetchNextPage()` loads the page after the last. */
    invoiceList(query: InvoiceQuery) {
      return new InfiniteQueryObserver(queryClient, queries.searchInvoicesInfiniteOptions({ body: query }));
    },
    /** Points an open invoice list at another search (criteria, sort, page size). */
    searchOptions(query: InvoiceQuery) {
      return queries.searchInvoicesInfiniteOptions({ body: query });
    },
    /** One invoice, read with getInvoice (cached under its key, so a write to it invalidates it). */
    invoice(invoiceId: number) {
      return queryClient.fetchQuery(queries.getInvoiceOptions({ path: { invoice_id: invoiceId } }));
    },
    companyClients() {
      return queryClient.fetchQuery(queries.listCompanyClientsOptions());
    },
    /** The account's deliveries, read once. */
    deliveries() {
      return queryClient.fetchQuery(queries.listDeliveriesOptions(deliveryListQuery));
    },
    /**
     * The account's deliveries, observed once read: refetched when a delivery write invalidates them.
     * It starts from what `deliveries()` read (no second read when it subscribes).
     */
    deliveryList() {
      return new QueryObserver(queryClient, { ...queries.listDeliveriesOptions(deliveryListQuery), refetchOnMount: false });
    },
    createDelivery(variables: MutationVariables['createDelivery']): Promise<{ delivery: Delivery }> {
      return new MutationObserver(queryClient, queries.createDeliveryMutation()).mutate(variables);
    },
    issueDelivery(variables: MutationVariables['issueDelivery']): Promise<Delivery> {
      return new MutationObserver(queryClient, queries.issueDeliveryMutation()).mutate(variables);
    },
    /** The invoice as a PDF (a Blob of application/pdf). */
    async invoicePdf(invoiceId: number): Promise<Blob> {
      // No If-None-Match is sent (the browser's cache answers its own), so no 304 comes without a body.
      const pdf = await expectOk(api.getInvoicePdf(invoiceId));
      if (pdf === undefined) throw new Error(`The PDF of invoice ${invoiceId} came without a body.`);
      return pdf;
    },
    /** Every invoice that meets a search's criteria, in its order, as CSV bytes unread (large exports stay out of memory until saved). */
    exportInvoices(body: InvoiceExport): Promise<ReadableStream<Uint8Array>> {
      return expectOk(api.exportInvoices(body, { stream: true }));
    },
    /** One invoice's attachments, read (the list's query, which the attachment writes invalidate). */
    attachments(invoiceId: number) {
      return queryClient.fetchQuery(queries.listInvoiceAttachmentsOptions({ path: { invoice_id: invoiceId } }));
    },
    /** One invoice's attachments, observed once read: refetched when an upload or a removal invalidates them. */
    attachmentList(invoiceId: number) {
      return new QueryObserver(queryClient, { ...queries.listInvoiceAttachmentsOptions({ path: { invoice_id: invoiceId } }), refetchOnMount: false });
    },
    /** An attachment's bytes, as a Blob of its media type. */
    attachmentFile(attachment: Pick<Attachment, 'invoice_id' | 'id'>): Promise<Blob> {
      return expectOk(api.getInvoiceAttachment(attachment.invoice_id, attachment.id));
    },
    /**
     * Attaches a file (the generated mutation: its onSuccess invalidates the invoice's attachment list),
     * telling `onProgress` how much of it has been sent where the page's client can.
     */
    uploadAttachment(
      variables: MutationVariables['uploadInvoiceAttachment'],
      onProgress: (progress: UploadProgress) => void,
    ): Promise<{ attachment: Attachment }> {
      const uploader = uploadClient ? createQueryOptions(uploadClient(onProgress)) : queries;
      return new MutationObserver(queryClient, uploader.uploadInvoiceAttachmentMutation()).mutate(variables);
    },
    removeAttachment(variables: MutationVariables['deleteInvoiceAttachment']): Promise<void> {
      return new MutationObserver(queryClient, queries.deleteInvoiceAttachmentMutation()).mutate(variables);
    },
  };
}

export type AppData = ReturnType<typeof createAppData>;
