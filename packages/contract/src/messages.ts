/**
 * User-facing wording fixed by the product specification. Server validation, the web app's forms
 * and the tests all import these constants so the words cannot drift apart.
 */
export const Messages = {
  invalidEmail: 'Invalid email address',
  passwordTooShort: 'Password must be at least 6 characters',
  usernameTooShort: 'Username must be at least 3 characters',
  passwordsDontMatch: "Passwords don't match",
  titleRequired: 'Title is required',
  invalidUrl: 'Please enter a valid URL',
  urlWithCredentials: 'Remove the user name and password from the address and save them as credentials instead',
  urlRequiredForAnalysis: 'Please enter a URL first',
  captchaMissing: 'reCAPTCHA verification failed. Please try again.',
  invalidCredentials: 'Invalid email or password',
  authenticationRequired: 'Authentication required',
  searchTooShort: 'Type at least 2 characters to start searching...',
  analysisFailed: 'Failed to analyze URL',
  analysisEmpty: 'URL analysis returned no data',
  searchFailed: 'Search failed. Please try again.',
  /** A Free search that found nothing: text search only; finding links by meaning is the Pro plan's. */
  searchNoResultsFree: 'No results found. Search by meaning is part of Pro.',
} as const;

/** Password rules beyond the spec's minimum: an upper bound keeps hashing cost bounded. */
export const Limits = {
  passwordMin: 6,
  passwordMax: 256,
  usernameMin: 3,
  usernameMax: 50,
  emailMax: 254,
  urlMax: 2048,
  titleMax: 500,
  descriptionMax: 5000,
  notesMax: 20000,
  categoryMax: 100,
  tagMax: 100,
  tagsPerLink: 50,
  credentialsPerLink: 20,
  credentialCiphertextMax: 16384,
  pageSizeDefault: 24,
  pageSizeMax: 100,
  searchMinLength: 2,
  searchMax: 500,
  searchLimitDefault: 50,
  searchLimitMax: 200,
  /** Links one bulk action may change. */
  bulkMax: 1000,
} as const;

/** Naming tags for a link or several: the same words wherever tags are taken. */
export const TagMessages = {
  tooMany: `A link can have at most ${Limits.tagsPerLink} tags`,
  noneNamed: 'Name at least one tag',
} as const;
