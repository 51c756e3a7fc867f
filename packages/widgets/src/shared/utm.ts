/** The host page's campaign parameters, stored with a submission so partners see what brought it. */
export interface UtmParams {
  source?: string;
  medium?: string;
  campaign?: string;
  term?: string;
  content?: string;
}

const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
const UTM_MAX_LENGTH = 200;

/** `utm_*` parameters of a URL's query (the host page's, by default); undefined when there are none. */
export function captureUtm(search: string = globalThis.location?.search ?? ''): UtmParams | undefined {
  const query = new URLSearchParams(search);
  const utm: UtmParams = {};
  for (const key of UTM_KEYS) {
    const value = query.get(`utm_${key}`)?.trim();
    if (value) utm[key] = value.slice(0, UTM_MAX_LENGTH);
  }
  return Object.keys(utm).length > 0 ? utm : undefined;
}
