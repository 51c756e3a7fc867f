import { afterAll } from 'vitest';

// Preact runs effects after paint: requestAnimationFrame, with a 100 ms timer as a fallback that
// cancels the frame when it fires. A timer still pending when a test file ends would fire after
// the DOM environment is gone (no cancelAnimationFrame); the file waits for it first.
const AFTER_PAINT_FALLBACK_MS = 100;

afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, AFTER_PAINT_FALLBACK_MS * 2)));
