// The formats the generated response validators call at run time, by name (`formats.date`, ...): the
// contract's table, which the service's check of its own answers uses too.
export { isDate, isDateTime, responseFormats } from '@invoice-api/contract';
export type { FormatCheck } from '@invoice-api/contract';
