import { describe, expect, it } from 'vitest';
import { messages } from '../messages.js';
import { errorMessageFrom, statusErrorMessage } from './errors.js';

describe('errorMessageFrom', () => {
  const fallback = messages.reduction.failed.description;

  it("uses the JSON body's error field", () => {
    expect(errorMessageFrom('{"error":"Kit is not free"}', fallback)).toBe('Kit is not free');
  });

  it('uses the raw text when it is not JSON or has no error field', () => {
    expect(errorMessageFrom('Gateway timeout', fallback)).toBe('Gateway timeout');
    expect(errorMessageFrom('{"message":"x"}', fallback)).toBe('{"message":"x"}');
    expect(errorMessageFrom('[1,2]', fallback)).toBe('[1,2]');
  });

  it('falls back when there is no text', () => {
    expect(errorMessageFrom('', fallback)).toBe('Failed to reduce test. Please try again.');
    expect(errorMessageFrom(undefined, fallback)).toBe(fallback);
    expect(errorMessageFrom(null, fallback)).toBe(fallback);
  });
});

describe('statusErrorMessage', () => {
  it('is the status, a colon, a space and the text', () => {
    expect(statusErrorMessage(404, 'Not Found')).toBe('404: Not Found');
  });
});
