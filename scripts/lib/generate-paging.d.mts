// Types for generate-paging.mjs, for the client package's tests.
export interface PagingEntry {
  request: 'body' | 'query';
  items: string;
  limit: { name: string; default: number; maximum?: number };
  offset: string | null;
  cursor: { request: string; response: readonly string[] } | null;
  hasMore: readonly string[] | null;
  total: readonly string[] | null;
}
export declare function pagingTable(spec: unknown): Record<string, PagingEntry>;
export declare function clientPagingModule(spec: unknown, header: string): string;
