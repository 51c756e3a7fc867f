import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  AUTHENTICATED_ROUTES,
  buildPath,
  findRoute,
  homeRouteFor,
  isPublicRoute,
  matchRoute,
  PUBLIC_ROUTES,
  ROUTES,
} from './routes.js';

describe('routes', () => {
  it('list every route of spec §2 once, and the patient form link page', () => {
    expect(PUBLIC_ROUTES).toHaveLength(11);
    expect(PUBLIC_ROUTES).toContain('/patient-form');
    expect(AUTHENTICATED_ROUTES).toHaveLength(43);
    expect(new Set(ROUTES).size).toBe(ROUTES.length);
    expect(ROUTES).toContain('/workflow-builder/:id');
    expect(ROUTES).toContain('/referrals/physician/:id');
    expect(ROUTES).toContain('/forms/submit/:id');
  });

  it('match paths with parameters, ignoring query, hash and a trailing slash', () => {
    expect(matchRoute('/physicians/:id', '/physicians/12')).toEqual({ id: '12' });
    expect(matchRoute('/physicians/:id', '/physicians/12/')).toEqual({ id: '12' });
    expect(matchRoute('/physicians/:id', '/physicians')).toBeNull();
    expect(matchRoute('/bookings-management', '/bookings-management?booking=3')).toEqual({});
    expect(matchRoute('/', '/')).toEqual({});
    expect(matchRoute('/', '/#top')).toEqual({});
  });

  it('find the route of a path, literal routes first', () => {
    expect(findRoute('/physicians/register')).toBe('/physicians/register');
    expect(findRoute('/physicians/31')).toBe('/physicians/:id');
    expect(findRoute('/referrals/physician/4')).toBe('/referrals/physician/:id');
    expect(findRoute('/nowhere')).toBeNull();
    expect(findRoute('/admin')).toBeNull();
  });

  it('tell public pages apart', () => {
    expect(isPublicRoute('/login')).toBe(true);
    expect(isPublicRoute('/widget?embed=1')).toBe(true);
    expect(isPublicRoute('/')).toBe(false);
    expect(isPublicRoute('/nowhere')).toBe(false);
  });

  it('build concrete paths', () => {
    expect(buildPath('/forms/builder/:id', { id: 9 })).toBe('/forms/builder/9');
    expect(() => buildPath('/forms/builder/:id', {})).toThrow('Missing route parameter id');
  });

  it('send a physician to the physician dashboard after login and anyone else home', () => {
    expect(homeRouteFor('physician')).toBe('/physician-dashboard');
    expect(homeRouteFor('scheduler')).toBe('/');
  });

  it('name the API calls of spec §7', () => {
    expect(API_PATHS.kits).toBe('/api/sleep-test-kits');
    expect(API_PATHS.extensionEligibility(5)).toBe('/api/bookings/5/extension-eligibility');
    expect(API_PATHS.initiateAgreement(5)).toBe('/api/bookings/5/initiate-agreement');
  });
});
