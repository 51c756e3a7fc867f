import Router from '@koa/router';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import { type AppContext, type AppContextExtension, type AppState, dbOf } from '../../http/context.js';
import { listBookingRequests } from './store.js';

// Requests from the booking widget, for schedulers: each names its pending booking, if one was made.

async function getBookingRequests(ctx: AppContext): Promise<void> {
  const db = dbOf(ctx);
  const requests = await listBookingRequests(db);
  await audit(db, ctx, {
    action: 'booking_request.list',
    outcome: 'success',
    entityType: 'booking_request',
    details: { count: requests.length },
  });
  ctx.body = requests;
}

export function bookingRequestRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/booking-requests', can('create', 'Booking'), getBookingRequests);
  return router;
}
