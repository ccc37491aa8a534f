/** The reference's English message texts (reference/pleasanter-behaviour.md section 0). */
export const messages = {
  badRequest: 'Invalid request.',
  invalidJsonData: 'Invalid json data.',
  unauthorized: 'Unable to authorize.',
  hasNotPermission: 'You do not have permission to perform this operation.',
  notFound: 'The specified information was not found.',
  invalidIpAddress: 'Invalid IP address.',
  methodNotAllowed: 'The method is not allowed for this path.',
  requestTooLarge: 'The request is too large.',
  internalServerError: 'An internal server error occurred.',
  created: (title: string) => `" ${title} " has been created.`,
  updated: (title: string) => `" ${title} " has been updated.`,
  deleted: (title: string) => `" ${title} " has been deleted.`,
  overLimitApi: (siteId: number, limit: number) =>
    `The API limit (${limit} Requests/Day) that can be used on the site with ID ${siteId} has been exceeded.`,
  lockedRecord: (id: number, user: string, time: string) =>
    `Record ${id} has been locked by ${user} at ${time}.`,
  overLimitQuantity: (limit: number) => `Up to ${limit} files can be attached.`,
  overLimitSize: (limitMb: number) => `There is a file exceeding the max. size of ${limitMb} MB.`,
  overTotalLimitSize: (limitMb: number) => `Up to ${limitMb} MB can be attached.`,
  noFile: 'The request has no file part.',
  notMultipart: 'The request is not multipart/form-data.',
  unreadableMultipart: 'The request content could not be interpreted as multipart/form-data.',
  fileTooLargeForJson: 'The file is larger than 4 MB: download it through /binaries/{guid}/download.',
  fileRetrieved: (name: string) => `${name} has been retrieved.`,
  duplicated: (what: string) => `Cannot be updated because ${what} is duplicated.`,
  authenticated: 'You have been logged in.',
  // Kiroku's own: the reference has no login throttling, so no text of its own for it.
  loginThrottled: 'Too many failed logins for this login ID. Please try again later.',
  signedOut: 'You have been logged out.',
  apiKeyCreated: 'The API key has been created.',
  apiKeyDeleted: 'The API key has been deleted.',
} as const;
