// `Content-Disposition: attachment` for a file the service hands out (an invoice's PDF, an attached
// file). The name comes from a user (an upload's filename), so it is made safe here: a browser saving
// the file must not be steered into another folder, and no header may be broken by it. The header's
// syntax (RFC 6266, RFC 8187's `filename*` for names outside ASCII) is the content-disposition
// library's, which express itself uses for `res.attachment`.
import { create } from 'content-disposition';

/** What a name falls back to when nothing of it is left. */
const fallbackName = 'file';

/** The name without any directory part, control character or surrounding blanks. */
export function safeFileName(name: string): string {
  const lastSegment = name.split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const visible = lastSegment.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return visible === '' || visible === '.' || visible === '..' ? fallbackName : visible;
}

/** The ASCII `filename` for clients that do not read `filename*`: anything else becomes `_`. */
function asciiFallback(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
}

/** The header value: `attachment; filename="…"` plus `filename*` (UTF-8) when the name is not plain ASCII. */
export function attachmentDisposition(name: string): string {
  const safe = safeFileName(name);
  const fallback = asciiFallback(safe);
  return create(safe, { type: 'attachment', fallback: fallback === safe ? true : fallback });
}
