// Processes shared between the sections of the smoke run. Its figures mean nothing, and every start
// costs seconds of CPU (the compiled service loads its libraries and compiles its validators) that the
// test suite pays for. With a share, a start whose entry, node options, directory and environment are
// those of a process still running gets that process instead of a new one, handed out with a stop
// that leaves it to the section that started it; a process stopped by its starter leaves the share.
// Each side is still the process its own settings describe. The quick and full runs share nothing:
// there a side must be a process that no other section's requests have warmed.
import type { RunningServer, StartOptions } from './child-process.js';

/** What makes two starts the same process: everything the child is started with. */
type StartSpecification = Pick<StartOptions, 'entry' | 'env' | 'cwd' | 'nodeArgs'>;

function keyOf(start: StartSpecification): string {
  const env = Object.entries(start.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([start.entry, start.cwd ?? '', start.nodeArgs ?? [], env]);
}

export class ServerShare {
  readonly #running = new Map<string, RunningServer>();

  /** The running process started exactly like this, lent out: its stop leaves it running. */
  borrow(start: StartSpecification): RunningServer | undefined {
    const server = this.#running.get(keyOf(start));
    return server === undefined ? undefined : { ...server, stop: async () => null };
  }

  /** Lends `server`, just started like this, to later starts until its starter stops it (with the handle returned). */
  offer(start: StartSpecification, server: RunningServer): RunningServer {
    const key = keyOf(start);
    this.#running.set(key, server);
    return {
      ...server,
      stop: () => {
        if (this.#running.get(key) === server) this.#running.delete(key);
        return server.stop();
      },
    };
  }
}
