import {
  AUTHENTICATED_ROUTES,
  buildPath,
  PRIVACY_POLICY_URL,
  PUBLIC_ROUTES,
  SET_PASSWORD_PATH,
} from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import {
  firstScreenLoaders,
  inSignedInArea,
  loadDashboardPage,
  loadLoginPage,
  loadSignedInArea,
} from './firstScreen';

describe('inSignedInArea', () => {
  it('holds for every authenticated route and no other path', () => {
    for (const pattern of AUTHENTICATED_ROUTES) {
      expect(inSignedInArea(buildPath(pattern, { id: 3 })), pattern).toBe(true);
    }
    for (const pattern of PUBLIC_ROUTES) expect(inSignedInArea(pattern), pattern).toBe(false);
    for (const path of [PRIVACY_POLICY_URL, SET_PASSWORD_PATH, '/no-such-page']) {
      expect(inSignedInArea(path), path).toBe(false);
    }
  });
});

describe('firstScreenLoaders', () => {
  it('loads the layout and the dashboard for /, the sign-in page for /login, the layout elsewhere inside', () => {
    expect(firstScreenLoaders('/')).toEqual([loadSignedInArea, loadDashboardPage]);
    expect(firstScreenLoaders('/login')).toEqual([loadLoginPage]);
    expect(firstScreenLoaders('/patients')).toEqual([loadSignedInArea]);
  });

  it('loads nothing for public forms, stand-alone pages and unknown paths', () => {
    for (const path of ['/widget', '/agreement-form', PRIVACY_POLICY_URL, SET_PASSWORD_PATH, '/nope']) {
      expect(firstScreenLoaders(path), path).toEqual([]);
    }
  });
});
