// Derives the search rules the service needs from the plain JSON Schema of the bundled spec, at
// generate time: the searchable fields with their operators and value type (SearchCriterion's
// `oneOf`, one schema per field), the `like`/`in`/`between` bounds, each value type's own facts
// (statuses, currency pattern, timestamp pattern…), the sort fields, defaults and limit/offset
// bounds (InvoiceSearchRequest). The schema is what Prism, the validator and other tools enforce;
// the service reads the same facts from here, so no fact is typed twice. Any inconsistency in the
// spec (a field missing from SearchableField, two `in` branches with different bounds…) fails the
// generation with a message naming it.

const schemaPrefix = '#/components/schemas/';

/**
 * Which named value schema a field's values use, and the name the service knows that value type
 * by. A field whose values use another schema fails the generation: the service would not know
 * how to read its values.
 */
const valueTypeBySchema = {
  SearchInteger: 'integer',
  SearchNumber: 'number',
  SearchDate: 'date',
  SearchDateTime: 'date-time',
  InvoiceStatus: 'status',
  CurrencyCode: 'currency',
  SearchText: 'string',
};

class SearchRulesError extends Error {
  constructor(message) {
    super(`search rules: ${message}`);
  }
}

function refName(node, where) {
  const ref = node?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith(schemaPrefix)) throw new SearchRulesError(`${where} must be a $ref to a named schema`);
  return ref.slice(schemaPrefix.length);
}

function named(schemas, name) {
  const schema = schemas[name];
  if (schema === undefined) throw new SearchRulesError(`schema ${name} is missing`);
  return schema;
}

function resolve(schemas, node) {
  return node?.$ref === undefined ? node : named(schemas, refName(node, 'a reference'));
}

function operatorsOf(branch, where) {
  const operator = branch.properties?.operator;
  if (operator?.const !== undefined) return [operator.const];
  if (Array.isArray(operator?.enum)) return operator.enum;
  throw new SearchRulesError(`${where}: operator needs a const or an enum`);
}

function bounds(node, keys, where) {
  const found = {};
  for (const key of keys) {
    if (typeof node[key] !== 'number') throw new SearchRulesError(`${where} needs ${key}`);
    found[key] = node[key];
  }
  return found;
}

/** Keeps one value per kind of bound, failing when two fields disagree (the service has one rule per operator). */
function agree(collected, operator, found, where) {
  const known = collected[operator];
  if (known !== undefined && JSON.stringify(known) !== JSON.stringify(found)) {
    throw new SearchRulesError(`${where}: ${operator} bounds ${JSON.stringify(found)} differ from another field's ${JSON.stringify(known)}`);
  }
  collected[operator] = found;
}

/** One field's schema: its name (the `field` const), operators, value type; bounds go into `valueRules`. */
function fieldRule(schemas, name, valueRules) {
  const schema = named(schemas, name);
  const field = schema.properties?.field?.const;
  if (typeof field !== 'string') throw new SearchRulesError(`${name}.properties.field needs a const`);
  const operators = operatorsOf(schema, name);
  const branches = schema.oneOf ?? [];
  if (branches.length === 0) throw new SearchRulesError(`${name} needs one oneOf branch per operator shape`);
  const branchOperators = [];
  const valueSchemas = new Set();
  for (const [index, branch] of branches.entries()) {
    const where = `${name}.oneOf[${index}]`;
    const ofBranch = operatorsOf(branch, where);
    branchOperators.push(...ofBranch);
    const value = branch.properties?.value;
    if (value === undefined) throw new SearchRulesError(`${where} needs a value schema`);
    if (ofBranch.length === 1 && (ofBranch[0] === 'in' || ofBranch[0] === 'between')) {
      if (value.type !== 'array') throw new SearchRulesError(`${where}: the value of ${ofBranch[0]} must be an array`);
      agree(valueRules, ofBranch[0], bounds(value, ['minItems', 'maxItems'], where), where);
      valueSchemas.add(refName(value.items, `${where}.value.items`));
    } else if (ofBranch.length === 1 && ofBranch[0] === 'like') {
      agree(valueRules, 'like', bounds(resolve(schemas, value), ['minLength', 'maxLength'], where), where);
    } else {
      valueSchemas.add(refName(value, `${where}.value`));
    }
  }
  if (JSON.stringify([...branchOperators].sort()) !== JSON.stringify([...operators].sort())) {
    throw new SearchRulesError(`${name}: the branches' operators ${branchOperators.join(' ')} differ from its operator enum ${operators.join(' ')}`);
  }
  if (valueSchemas.size !== 1) throw new SearchRulesError(`${name}: every operator must compare values of one schema, found ${[...valueSchemas].join(', ')}`);
  const [valueSchema] = valueSchemas;
  const type = valueTypeBySchema[valueSchema];
  if (type === undefined) throw new SearchRulesError(`${name}: value schema ${valueSchema} is not one of ${Object.keys(valueTypeBySchema).join(', ')}`);
  return { field, rule: { type, operators } };
}

/** The facts of each value type the service checks values with. */
function valueTypes(schemas) {
  const schema = (type) =>
    named(
      schemas,
      Object.keys(valueTypeBySchema).find((name) => valueTypeBySchema[name] === type),
    );
  const facts = (type, keys) => bounds(schema(type), keys, `the ${type} value schema`);
  const text = (type, key) => {
    const value = schema(type)[key];
    if (typeof value !== 'string') throw new SearchRulesError(`the ${type} value schema needs ${key}`);
    return value;
  };
  const statuses = schema('status').enum;
  if (!Array.isArray(statuses) || statuses.length === 0) throw new SearchRulesError('the status value schema needs an enum');
  if (schema('date').format !== 'date') throw new SearchRulesError('the date value schema needs format: date');
  return {
    integer: facts('integer', ['minimum', 'maximum']),
    number: facts('number', ['minimum', 'maximum']),
    date: { format: 'date' },
    'date-time': { pattern: text('date-time', 'pattern') },
    status: { enum: statuses },
    currency: { pattern: text('currency', 'pattern') },
    string: facts('string', ['maxLength']),
  };
}

/**
 * How a cursor carries each sort field's value: the JSON type (and date format) of that property in
 * the search result's item schema, so a cursor's value can be checked before it reaches the database.
 */
function sortValueTypes(schemas, sortFields) {
  const result = named(schemas, 'InvoiceSearchResult');
  const item = resolve(schemas, result.properties?.data?.items);
  const types = {};
  for (const field of sortFields) {
    const property = resolve(schemas, item?.properties?.[field]);
    if (property === undefined) throw new SearchRulesError(`sort field ${field} is not a property of the search result's items`);
    const type = property.type === 'string' && (property.format === 'date' || property.format === 'date-time') ? property.format : property.type;
    if (!['integer', 'number', 'string', 'date', 'date-time'].includes(type)) {
      throw new SearchRulesError(`sort field ${field} has type ${JSON.stringify(property.type)}, which a cursor cannot carry`);
    }
    types[field] = type;
  }
  return types;
}

/** @param {{components: {schemas: Record<string, any>}}} spec the bundled spec */
export function searchRules(spec) {
  const { schemas } = spec.components;
  const criterion = named(schemas, 'SearchCriterion');
  const request = named(schemas, 'InvoiceSearchRequest');
  const valueRules = {};
  const fields = {};
  for (const [index, branch] of (criterion.oneOf ?? []).entries()) {
    const { field, rule } = fieldRule(schemas, refName(branch, `SearchCriterion.oneOf[${index}]`), valueRules);
    if (fields[field] !== undefined) throw new SearchRulesError(`field ${field} has two schemas`);
    fields[field] = rule;
  }
  const searchable = named(schemas, 'SearchableField').enum ?? [];
  if (JSON.stringify(Object.keys(fields).sort()) !== JSON.stringify([...searchable].sort())) {
    throw new SearchRulesError(`SearchCriterion's fields ${Object.keys(fields).join(', ')} differ from SearchableField ${searchable.join(', ')}`);
  }
  const operators = named(schemas, 'SearchOperator').enum ?? [];
  for (const [field, rule] of Object.entries(fields)) {
    const unknown = rule.operators.filter((operator) => !operators.includes(operator));
    if (unknown.length > 0) throw new SearchRulesError(`${field} allows ${unknown.join(' ')}, which SearchOperator lacks`);
  }
  for (const operator of ['like', 'in', 'between']) {
    if (valueRules[operator] === undefined) throw new SearchRulesError(`no field takes ${operator}: its bounds are unknown`);
  }
  const { properties } = request;
  const sortField = named(schemas, refName(properties.order_by, 'InvoiceSearchRequest.order_by'));
  return {
    /** The request body schema these rules read: an operation whose body is this schema is a search. */
    requestSchema: 'InvoiceSearchRequest',
    criteriaBodies: criteriaBodies(schemas, Object.keys(properties)),
    fields,
    valueRules,
    valueTypes: valueTypes(schemas),
    operators,
    sortFields: sortField.enum,
    sortValueTypes: sortValueTypes(schemas, sortField.enum),
    directions: properties.order_direction.enum,
    properties: Object.keys(properties),
    limit: bounds(properties.limit, ['minimum', 'maximum'], 'InvoiceSearchRequest.limit'),
    offset: bounds(properties.offset, ['minimum', 'maximum'], 'InvoiceSearchRequest.offset'),
    maxCriteria: properties.criteria.maxItems,
    cursor: bounds(properties.cursor, ['minLength', 'maxLength'], 'InvoiceSearchRequest.cursor'),
    defaults: {
      limit: properties.limit.default,
      offset: properties.offset.default,
      order_by: sortField.default,
      order_direction: properties.order_direction.default,
    },
  };
}

/**
 * Every request body schema whose `criteria` are SearchCriterion items (the search's, the export's),
 * with its top-level properties: the search's rules and words apply to each, for the properties it
 * has. A body that names a property the search does not have would need rules of its own: refused.
 */
function criteriaBodies(schemas, searchProperties) {
  const bodies = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const items = schema?.properties?.criteria?.items;
    if (items?.$ref !== `${schemaPrefix}SearchCriterion`) continue;
    const properties = Object.keys(schema.properties);
    const unknown = properties.filter((property) => !searchProperties.includes(property));
    if (unknown.length > 0) throw new SearchRulesError(`${name} takes search criteria but also ${unknown.join(', ')}, which the search rules do not cover`);
    bodies[name] = properties;
  }
  return bodies;
}

/** The generated TypeScript module; `header` is the generator's "do not edit" line. */
export function searchRulesModule(spec, header) {
  return `${header}
/**
 * The search rules, derived from the spec's JSON Schema (SearchCriterion, InvoiceSearchRequest):
 * fields with their value type and operators, the bounds of like/in/between, each value type's
 * facts, sortable fields (and how a cursor carries their values), directions, limit/offset/cursor
 * bounds and defaults.
 */
export const searchRules = ${JSON.stringify(searchRules(spec), null, 2)} as const;
`;
}
