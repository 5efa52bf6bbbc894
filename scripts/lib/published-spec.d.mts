// Types for published-spec.mjs, so the contract package's tests can import it.
export interface JsonSchemaNode {
  [keyword: string]: unknown;
  properties?: Record<string, JsonSchemaNode>;
}

export interface PublishedDocument {
  [key: string]: unknown;
  components: { schemas: Record<string, JsonSchemaNode> };
}

export declare function publishedSpec(strict: object): PublishedDocument;
export declare function writePublishedSpec(strict: object, outDir: string): PublishedDocument;
/** The sentence a deprecated node's description ends with in the published spec (and in /docs). */
export declare function deprecationSentence(notice: { since: string; sunset: string }): string;
