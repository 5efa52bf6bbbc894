// A `fetch` for the client that sends its request with XMLHttpRequest, for the one call whose upload
// progress the page shows (uploadInvoiceAttachment). fetch reports how much of the answer has arrived
// but not how much of the request has gone: there is no upload progress in the Fetch API, and a
// streamed request body (which would let the page count the bytes it hands over) needs HTTP/2 in
// Chromium (`duplex: 'half'`), not what a dev server or the service speaks. XMLHttpRequest has
// `upload.onprogress`.
//
// It is a transport and nothing more: the client still builds the request (base URL, bearer token,
// X-Request-Id, the Idempotency-Key it keeps for every retry of the call, the multipart body) and reads
// the answer (typed result, Error body, retries on 429/503/network failures). So the upload is the
// generated mutation like every other write, and its onSuccess invalidates the attachment list.

export interface UploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** The request body's size in bytes. */
  total: number;
}

/** Statuses whose answer has no body: a Response made with one refuses a body. */
const nullBodyStatuses: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

export function xhrFetch(onProgress: (progress: UploadProgress) => void): (request: Request) => Promise<Response> {
  return async (request) => {
    // XMLHttpRequest sends a Blob, not a Request's stream: the encoded body (the client's FormData,
    // at most 10 MiB here) is read into one. Its Content-Type, with the boundary, is among the headers.
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      xhr.responseType = 'blob';
      for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
      const bodySize = body?.size ?? 0;
      let reportedAll = false;
      const report = (loaded: number, total: number) => {
        reportedAll ||= loaded >= total;
        onProgress({ loaded, total });
      };
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) report(event.loaded, event.total);
      });
      // The whole body is sent: said once more, in case the last progress event came before its end.
      xhr.upload.addEventListener('load', () => report(bodySize, bodySize));
      xhr.addEventListener('load', () => {
        // An answer means the whole body went. Said here too for the requests that get no upload
        // events: Chromium sends none for a request a service worker answers (the MSW mode).
        if (body !== null && !reportedAll) report(bodySize, bodySize);
        const status = xhr.status;
        const answer = nullBodyStatuses.has(status) ? null : (xhr.response as Blob);
        resolve(new Response(answer, { status, statusText: xhr.statusText, headers: parseHeaders(xhr.getAllResponseHeaders()) }));
      });
      // fetch rejects a request that got no answer (refused, reset, CORS) with a TypeError: the
      // client tells network failures by it, so this one does the same.
      xhr.addEventListener('error', () => reject(new TypeError(`Failed to send ${request.method} ${request.url}`)));
      xhr.addEventListener('abort', () => reject(request.signal.reason ?? new DOMException('The upload was aborted', 'AbortError')));
      if (request.signal.aborted) {
        reject(request.signal.reason);
        return;
      }
      // The client's timeout and the caller's abort both end the request through its signal.
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  };
}
