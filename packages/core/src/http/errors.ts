import { messages } from '../messages.js';

/**
 * The message to show for a failed mutation (spec §8): the response text parsed as JSON and its
 * `error` field used, else the raw text, else the fallback.
 */
export function errorMessageFrom(text: string | null | undefined, fallback: string): string {
  if (text == null || text.trim() === '') return fallback;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') {
      const { error } = parsed as { error?: unknown };
      if (typeof error === 'string' && error !== '') return error;
    }
  } catch {
    // Not JSON: the text itself is the message.
  }
  return text;
}

/** The error text of the default data query: '404: Not Found' (spec §8). */
export function statusErrorMessage(status: number, text: string): string {
  return messages.common.statusError(status, text);
}

/** Body of every API error response. `issues` lists field problems of an invalid request. */
export interface ApiErrorBody {
  error: string;
  issues?: { path: string; message: string }[];
}
