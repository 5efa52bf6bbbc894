/** The API reference page (Redoc and the bundled spec inlined; needs no network). */
export declare function renderDocsHtml(published?: object): string;
