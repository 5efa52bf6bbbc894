// The query string of a call, each parameter written by its own `style` and `explode` as the spec
// declares them (the operation table's `queryParams`, carried by each generated function), rather than
// by one rule for every parameter (openapi-fetch's serializer takes one style for all arrays and one for
// all objects). What each style writes is the OpenAPI style table (3.0.4/3.1.1, "Style Examples"), for
// `color` = blue / [blue, black] / { R: 100, G: 200 }:
//   form, explode         color=blue   color=blue&color=black
//   form                  color=blue   color=blue,black
//   spaceDelimited                     color=blue%20black
//   pipeDelimited                      color=blue%7Cblack
//   deepObject                                                  color%5BR%5D=100&color%5BG%5D=200
// Names and values are percent-encoded as RFC 6570 does for form expansion: everything but the
// unreserved characters (A-Z a-z 0-9 - . _ ~), so a comma or `&` inside a value cannot pass for a
// delimiter; the delimiters themselves are encoded where the table does (the brackets of deepObject,
// the pipe and the space), the comma of `form` is not. A decoder that splits on `&` and `=` first and
// then decodes (URLSearchParams, Express's qs) reads `filter[color]=red` from the deepObject.

/** How one query parameter is written: the operation table's `style` and `explode` (OpenAPI's defaults applied). */
export type QueryStyle = readonly [style: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject', explode: boolean];

/** A query object's serializer, for openapi-fetch's `querySerializer`. */
export type QuerySerializer = (query: Record<string, unknown>) => string;

/** Percent-encodes all but RFC 3986's unreserved characters (encodeURIComponent leaves `!'()*` as they are). */
export function encodeUnreserved(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

function scalarText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  throw new TypeError(`query parameter ${name}: ${JSON.stringify(value)} is not a value a query can carry (nested arrays and objects have no query style)`);
}

const pair = (name: string, text: string) => `${encodeUnreserved(name)}=${text}`;

/** Joiners of the styles that write an array into one value; `form`'s comma stays as it is. */
const joiners = { form: ',', spaceDelimited: '%20', pipeDelimited: '%7C', deepObject: ',' } as const;

function serializeOne(name: string, value: unknown, [style, explode]: QueryStyle): string[] {
  if (Array.isArray(value)) {
    const texts = value.filter((item) => item !== undefined && item !== null).map((item) => encodeUnreserved(scalarText(name, item)));
    if (texts.length === 0) return [];
    return explode && style === 'form' ? texts.map((text) => pair(name, text)) : [pair(name, texts.join(joiners[style]))];
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined && member !== null);
    if (style === 'deepObject') return entries.map(([key, member]) => pair(`${name}[${key}]`, encodeUnreserved(scalarText(`${name}[${key}]`, member))));
    if (explode) return entries.map(([key, member]) => pair(key, encodeUnreserved(scalarText(key, member))));
    const flat = entries.flatMap(([key, member]) => [encodeUnreserved(key), encodeUnreserved(scalarText(name, member))]);
    return flat.length === 0 ? [] : [pair(name, flat.join(joiners[style]))];
  }
  return [pair(name, encodeUnreserved(scalarText(name, value)))];
}

/** OpenAPI's default for a query parameter the table does not name (the types let none through). */
const defaultStyle: QueryStyle = ['form', true];
const defaultObjectStyle: QueryStyle = ['deepObject', true];

/**
 * A serializer for one operation's query, made once per operation from its parameters' styles. The
 * parameters are written in the order the caller's object lists them (as openapi-fetch does); absent,
 * null and empty-array values are left out.
 */
export function querySerializer(styles: { readonly [name: string]: QueryStyle }): QuerySerializer {
  return (query) => {
    const parts: string[] = [];
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      const style = styles[name] ?? (typeof value === 'object' && !Array.isArray(value) ? defaultObjectStyle : defaultStyle);
      parts.push(...serializeOne(name, value, style));
    }
    return parts.join('&');
  };
}
