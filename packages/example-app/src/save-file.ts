// Hands bytes the page read through the client to the browser as a download. The API's files need the
// bearer token, so a plain link to them cannot work (a link sends no Authorization header): the page
// reads them with the client, then offers the Blob under an object URL.
import { h } from './dom.js';

/**
 * How long an object URL outlives its click. The browser resolves the URL after `click()` returns, when
 * the download actually starts; revoking it at once can cancel that download (FileSaver.js waits 40 s
 * for the same reason). Revoked afterwards, the Blob's memory is freed.
 */
const revokeAfterMs = 40_000;

export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = h('a', { attrs: { href: url, download: fileName, hidden: true } });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), revokeAfterMs);
}
