// How the service checks a request and words its refusals, as pure functions without Node APIs: the
// service's middleware and the client's MSW handlers both use them, so a mock refuses what the service
// refuses, in the same words.
export {
  authRealm,
  bareChallenge,
  bearerToken,
  insufficientScopeChallenge,
  insufficientScopeMessage,
  invalidTokenChallenge,
  missingTokenMessage,
  tokenFailures,
  type TokenFailure,
} from './bearer.js';
export {
  decodedSegment,
  describeJsonValue,
  firstNulCharacter,
  jsonErrorPosition,
  malformedJsonMessage,
  notAnObjectIssue,
  notAnObjectProblem,
  nulCharacterProblem,
  parsePathId,
  pathIdProblem,
} from './body-problems.js';
export {
  bodyNotUtf8,
  bodyTooLarge,
  describeBytes,
  fieldTooLarge,
  fileNotWhatItClaims,
  fileTooLarge,
  oneOfMediaTypes,
  tooManyParts,
  unsupportedBodyType,
  wrongFileType,
  type MediaRefusal,
} from './media-refusals.js';
export { fileSignatureOf, matchesSignature, signatureLength } from './file-signatures.js';
export { entityTagListProblem, ifMatchHeader, ifNoneMatchHeader, noneMatchNames, opaqueTag, parseEntityTagList, type EntityTagList } from './entity-tags.js';
export { checkCriterion, isSearchableField, type CriterionProblem, type ParsedCriterion } from './criteria.js';
export { firstSearchProblem, locateProblems, searchBodyProblem, searchRequestProblem, type LocatedProblem, type SearchProblem } from './search-problems.js';
export { valueTypes, type SearchValue, type ValueType } from './value-types.js';
export { fieldName, requestProblem, type ProblemOperation, type RequestProblem, type ValidatorProblem } from './validator-problems.js';
