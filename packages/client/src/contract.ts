// `@invoice-api/client/contract`: the API's types (`Invoice`, `SearchCriterion`, `components`, ...)
// and the tables generated from the spec (`searchRules`, `operationTable`), so that a project with
// only the client package installed has them too. In the packed build this is the contract's browser
// face, bundled into the tarball (scripts/build.mjs); in the workspace it is the contract package.
export * from '@invoice-api/contract';
