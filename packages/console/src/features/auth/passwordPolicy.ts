import { PASSWORD_MIN_LENGTH, passwordProblem } from '@wellrest/core';

/** The password policy as the API enforces it (core's `passwordProblem`), in one sentence. */
export const PASSWORD_POLICY_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, not your username, not a common password.`;
export const PASSWORDS_DIFFER = 'The passwords do not match';

/**
 * What is wrong with a new password and its confirmation, field by field: the policy's
 * message for the password, else a mismatch on the confirmation.
 */
export function newPasswordErrors(
  password: string,
  confirmation: string,
  username?: string,
): { password?: string; confirmation?: string } {
  const problem = passwordProblem(password, username);
  if (problem) return { password: problem };
  if (confirmation !== password) return { confirmation: PASSWORDS_DIFFER };
  return {};
}
