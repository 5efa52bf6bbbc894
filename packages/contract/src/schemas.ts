// Short names for the spec's schemas, so that code reads `Invoice` rather than
// `components['schemas']['Invoice']`. Each is the generated type, never a copy.
import type { components } from '../generated/schema.js';

type Schemas = components['schemas'];

export type Invoice = Schemas['Invoice'];
export type Attachment = Schemas['Attachment'];
export type InvoiceCreate = Schemas['InvoiceCreate'];
export type InvoiceUpdate = Schemas['InvoiceUpdate'];
export type InvoiceStatus = Schemas['InvoiceStatus'];
export type InvoiceSearchRequest = Schemas['InvoiceSearchRequest'];
export type InvoiceSearchResult = Schemas['InvoiceSearchResult'];
export type SearchCriterion = Schemas['SearchCriterion'];
export type SearchableField = Schemas['SearchableField'];
export type SearchOperator = Schemas['SearchOperator'];
export type SortField = Schemas['SortField'];
export type Pagination = Schemas['Pagination'];
export type Delivery = Schemas['Delivery'];
export type DeliveryItem = Schemas['DeliveryItem'];
export type DeliveryItemInput = Schemas['DeliveryItemInput'];
export type DeliveryCreate = Schemas['DeliveryCreate'];
export type DeliveryUpdate = Schemas['DeliveryUpdate'];
export type DeliveryIssue = Schemas['DeliveryIssue'];
export type DeliveryStatus = Schemas['DeliveryStatus'];
export type User = Schemas['User'];
export type CompanyClient = Schemas['CompanyClient'];
export type ApiError = Schemas['Error'];
export type ErrorCode = Schemas['ErrorCode'];
export type Health = Schemas['Health'];
