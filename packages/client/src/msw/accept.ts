// Which of a documented answer's media types a request's Accept header prefers (RFC 9110 12.5.1): the
// highest `q` of the most specific range matching each type (`text/csv` over `text/*` over `*/*`),
// ties and a missing header going to the spec's order. A header that accepts none of them gets the
// spec's first as well: the spec documents no 406, and a mock that answers is more use than one that
// refuses.
import type { MediaFacts } from './answer-table.js';

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function ranges(accept: string): Range[] {
  return accept.split(',').flatMap((entry) => {
    const [range, ...parameters] = entry.split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (type === undefined || type === '' || subtype === undefined) return [];
    const qParameter = parameters.map((parameter) => parameter.trim().toLowerCase()).find((parameter) => parameter.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    return [{ type, subtype, q: Number.isFinite(q) ? q : 0 }];
  });
}

/** The `q` the header gives a media type: that of its most specific matching range; 0 when none matches. */
function quality(mediaType: string, accepted: readonly Range[]): number {
  const [type, subtype] = mediaType.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of accepted) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (best === undefined || specificity > best.specificity)) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

export function negotiatedMedia(media: readonly MediaFacts[], accept: string | null): MediaFacts | undefined {
  const accepted = ranges(accept ?? '');
  if (accepted.length === 0) return media[0];
  let chosen: { media: MediaFacts; q: number } | undefined;
  for (const candidate of media) {
    const q = quality(candidate.mediaType, accepted);
    if (q > 0 && (chosen === undefined || q > chosen.q)) chosen = { media: candidate, q };
  }
  return chosen?.media ?? media[0];
}
