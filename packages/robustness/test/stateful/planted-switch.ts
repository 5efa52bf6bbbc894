// Which planted bug is on (planted-bugs.ts). A module of its own, importing nothing: the fingerprint
// mock of planted-bugs.test.ts reads it while the service's modules are still loading.
export type PlantedBug =
  | 'search total off by one after a status change'
  | 'replay ignores the body'
  | 'update allowed on an issued delivery'
  | 'removal allowed on an invoice that left draft';

export const planted: { bug: PlantedBug | undefined } = { bug: undefined };
