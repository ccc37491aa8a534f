/** The reference's English message texts (reference/pleasanter-behaviour.md section 0). */
export const messages = {
  badRequest: 'Invalid request.',
  invalidJsonData: 'Invalid json data.',
  invalidRequestNaming: (what: string) => `Invalid request. ${what}`,
  unauthorized: 'Unable to authorize.',
  hasNotPermission: 'You do not have permission to perform this operation.',
  notFound: 'The specified information was not found.',
  concurrentChange: 'The item was changed by another request at the same time. Please try again.',
  invalidIpAddress: 'Invalid IP address.',
  methodNotAllowed: 'The method is not allowed for this path.',
  // Kiroku's own (CONTRACT section 1): the reference offers every operation it routes.
  operationNotAvailable: (operation: string) =>
    `The operation ${operation} of Pleasanter is not available in Kiroku.`,
  requestTooLarge: 'The request is too large.',
  internalServerError: 'An internal server error occurred.',
  created: (title: string) => `" ${title} " has been created.`,
  updated: (title: string) => `" ${title} " has been updated.`,
  deleted: (title: string) => `" ${title} " has been deleted.`,
  bulkDeleted: (siteTitle: string, count: number) =>
    `${siteTitle}: ${count} items have been deleted at once.`,
  physicallyDeleted: (count: number) => `" ${count} " items have been physically deleted`,
  /** The reference's Restored (its recycle bin's restore), counting the sites and records brought back. */
  restored: (count: number) => `" ${count} " items have been restored.`,
  bulkUpserted: (siteTitle: string, added: number, updated: number) =>
    `${siteTitle}: ${added} entries have been added and ${updated} entries updated.`,
  upsertKeyInvalid: (keys: string) => `Upsert Key is invalid.(${keys})`,
  multipleMatches: 'There are multiple records that match the condition.',
  overLimitApi: (siteId: number, limit: number) =>
    `The API limit (${limit} Requests/Day) that can be used on the site with ID ${siteId} has been exceeded.`,
  lockedRecord: (id: number, user: string, time: string) =>
    `Record ${id} has been locked by ${user} at ${time}.`,
  overLimitQuantity: (limit: number) => `Up to ${limit} files can be attached.`,
  overLimitSize: (limitMb: number) => `There is a file exceeding the max. size of ${limitMb} MB.`,
  overTotalLimitSize: (limitMb: number) => `Up to ${limitMb} MB can be attached.`,
  noFile: 'The request has no file part.',
  notMultipart: 'The request is not multipart/form-data.',
  badPartHeader: (header: string, problem: string) => `The part header ${header} is invalid: ${problem}.`,
  unreadableMultipart: 'The request content could not be interpreted as multipart/form-data.',
  fileTooLargeForJson: 'The file is larger than 4 MB: download it through /binaries/{guid}/download.',
  fileRetrieved: (name: string) => `${name} has been retrieved.`,
  duplicated: (what: string) => `Cannot be updated because ${what} is duplicated.`,
  tooLongText: (maxLength: number) => `Please enter within ${maxLength} characters.`,
  authenticated: 'You have been logged in.',
  // Kiroku's own: the reference has no login throttling, so no text of its own for it.
  loginThrottled: 'Too many failed logins for this login ID. Please try again later.',
  // Kiroku's own: the reference has no defence against login CSRF.
  crossSiteRequest:
    "Refused: the request came from another site's page. Log in from this site's own login page.",
  signedOut: 'You have been logged out.',
  apiKeyCreated: 'The API key has been created.',
  apiKeyDeleted: 'The API key has been deleted.',
} as const;
