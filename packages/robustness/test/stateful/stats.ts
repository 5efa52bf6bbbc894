// Figures of the runs of one process: how many sequences and commands ran, which operations and
// links they reached, how many sequences failed. The long run prints them.
export const stats = {
  sequences: 0,
  commands: 0,
  failures: 0,
  operations: new Set<string>(),
  links: new Set<string>(),
};

export function resetStats(): void {
  stats.sequences = 0;
  stats.commands = 0;
  stats.failures = 0;
  stats.operations.clear();
  stats.links.clear();
}
