import type { Middleware } from 'koa';
import type { AppAbility, AppContextExtension, AppState } from './context.js';
import { forbidden, unauthorized } from './errors.js';

type Action = Parameters<AppAbility['can']>[0];
type Subject = Parameters<AppAbility['can']>[1];

/** Lets the request through only for a signed-in user. */
export const authenticated: Middleware<AppState, AppContextExtension> = async (ctx, next) => {
  if (!ctx.state.user) throw unauthorized();
  await next();
};

/** Lets the request through only when the signed-in user's ability allows `action` on `subject`. */
export function can(action: Action, subject: Subject): Middleware<AppState, AppContextExtension> {
  return async (ctx, next) => {
    const { user, ability } = ctx.state;
    if (!user || !ability) throw unauthorized();
    if (!ability.can(action, subject)) throw forbidden();
    await next();
  };
}
