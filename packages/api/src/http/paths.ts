/** True for the JSON API's paths, which never fall back to the console's index.html. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** True for the read-only FHIR R4 API's paths: data too, answered in FHIR's own formats. */
export function isFhirPath(path: string): boolean {
  return path === '/fhir' || path.startsWith('/fhir/');
}
