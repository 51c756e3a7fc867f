import { messages, SEARCH_RESULT_TYPES, type SearchResult, type SearchResultType } from '@wellrest/core';

export interface SearchResultGroup {
  type: SearchResultType;
  heading: string;
  results: SearchResult[];
}

/** Results under Patients, Bookings, Physicians and Referrals, in that order; empty groups left out. */
export function groupSearchResults(results: readonly SearchResult[]): SearchResultGroup[] {
  return SEARCH_RESULT_TYPES.map((type) => ({
    type,
    heading: messages.search.groups[type],
    results: results.filter((result) => result.type === type),
  })).filter((group) => group.results.length > 0);
}
