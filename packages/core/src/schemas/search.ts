import { z } from 'zod';
import { SEARCH_LIMIT, SEARCH_MAX_LIMIT, SEARCH_MIN_CHARS } from '../constants.js';
import { SearchResultType } from '../enums.js';
import { messages } from '../messages.js';
import { Id } from './common.js';

export const SearchInput = z.object({
  query: z
    .string({ error: messages.search.minChars })
    .trim()
    .min(SEARCH_MIN_CHARS, { error: messages.search.minChars })
    .max(200),
  limit: z.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_LIMIT),
});
export type SearchInput = z.infer<typeof SearchInput>;

export const SearchResult = z.object({
  type: SearchResultType,
  id: Id,
  title: z.string(),
  subtitle: z.string().optional(),
  url: z.string(),
});
export type SearchResult = z.infer<typeof SearchResult>;
