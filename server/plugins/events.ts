import fp from 'fastify-plugin';
import { eventDispatcher, type Dispatcher } from '../events/dispatcher';
import { ViewOrders } from '../repositories/databases';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tells the world what a command did (server/events/): routes hand it the command's events. */
    events: Dispatcher;
    /** The database views' orders, footers and chart groups this process keeps (cell writes keep them up to date through `events`). */
    viewOrders: ViewOrders;
  }
}

/** The events' dispatcher (after the realtime plugin: it sends through `app.realtime`). */
export const eventsPlugin = fp(async (app) => {
  const orders = new ViewOrders();
  app.decorate('viewOrders', orders);
  app.decorate('events', eventDispatcher({ db: app.db, realtime: app.realtime, orders, log: app.log }));
});
