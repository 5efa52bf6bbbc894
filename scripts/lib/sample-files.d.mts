// Types for sample-files.mjs, for the mocks' tests.
export declare function samplePdf(): Uint8Array<ArrayBuffer>;
export declare function samplePng(): Uint8Array<ArrayBuffer>;
export declare function sampleZip(): Uint8Array<ArrayBuffer>;
export declare function crc32(bytes: Uint8Array): number;
/** A small valid file of `mediaType` (a `bytes` kind of the operation table). */
export declare function sampleFile(mediaType: string): Uint8Array<ArrayBuffer>;
