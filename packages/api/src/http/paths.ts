/** True for the JSON API's paths, which never fall back to the console's index.html. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}
