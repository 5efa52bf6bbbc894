// Text gathered as UTF-8 chunks of about a socket write each, written straight into Buffers: a
// streamed answer made of many short strings (the export's records) then costs one encoding per
// string and no joined string in between, and what waits to be sent lies outside the JavaScript heap.

/** Bytes per chunk: a few socket writes' worth, small enough that a batch's chunks are a few dozen. */
export const chunkBytes = 64 * 1024;

/** A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4). */
const maxBytesPerCodeUnit = 3;

export class Utf8Chunks {
  readonly #done: Buffer[] = [];
  #chunk: Buffer | undefined;
  #used = 0;

  /** Appends `text`; a text longer than a chunk gets a chunk of its own size. */
  add(text: string): void {
    const room = text.length * maxBytesPerCodeUnit;
    if (this.#chunk === undefined || this.#used + room > this.#chunk.length) {
      this.#close();
      this.#chunk = Buffer.allocUnsafe(Math.max(chunkBytes, room));
    }
    this.#used += this.#chunk.write(text, this.#used, 'utf8');
  }

  /** The chunks gathered so far, each holding only written bytes; the next text starts a new chunk. */
  take(): Buffer[] {
    this.#close();
    return this.#done.splice(0);
  }

  #close(): void {
    if (this.#chunk !== undefined && this.#used > 0) this.#done.push(this.#chunk.subarray(0, this.#used));
    this.#chunk = undefined;
    this.#used = 0;
  }
}
