import type { Middleware } from 'koa';
import type { AppAbility, AppContextExtension, AppState } from './context.js';
import { forbidden, unauthorized } from './errors.js';

type Action = Parameters<AppAbility['can']>[0];
type Subject = Parameters<AppAbility['can']>[1];

/** What a route asks of its caller, as declared by the access middleware in its chain. */
export type AccessRequirement = { kind: 'signed-in' } | { kind: 'ability'; action: Action; subject: Subject };

// Lets tests and documentation read each route's access rule off its middleware chain, so a route
// added anywhere is covered by the permission matrix without being listed twice.
const requirements = new WeakMap<object, AccessRequirement>();

/** Lets the request through only for a signed-in user. */
export const authenticated: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  if (!ctx.state.user) throw unauthorized();
  await next();
};
requirements.set(authenticated, { kind: 'signed-in' });

/** Lets the request through only when the signed-in user's ability allows `action` on `subject`. */
export function can(action: Action, subject: Subject): Middleware<AppState, AppContextExtension> {
  const middleware: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
    // Named before the check, so a refusal of patient data can be recorded (audit/denied.ts).
    if (typeof subject === 'string') ctx.state.access = { action, subject };
    const { user, ability } = ctx.state;
    if (!user || !ability) throw unauthorized();
    if (!ability.can(action, subject)) throw forbidden();
    await next();
  };
  requirements.set(middleware, { kind: 'ability', action, subject });
  return middleware;
}

/** The access rules a route's middleware chain declares; none means the route is public. */
export function accessRequirements(chain: readonly unknown[]): AccessRequirement[] {
  const found: AccessRequirement[] = [];
  for (const middleware of chain) {
    if (typeof middleware !== 'function') continue;
    const requirement = requirements.get(middleware);
    if (requirement) found.push(requirement);
  }
  return found;
}
