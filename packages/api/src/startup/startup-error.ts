/**
 * A start-up failure an operator can act on: the setting at fault and one line saying what is wrong
 * and what to do. The server prints it as one line and exits non-zero (see server.ts).
 */
export class StartupError extends Error {
  override name = 'StartupError';
  constructor(
    readonly variable: string,
    detail: string,
    readonly exitCode = 1,
  ) {
    super(`${variable}: ${detail}`);
  }
}
