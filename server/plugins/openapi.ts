import type { RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { PUBLIC_ROUTE } from './auth';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { VERSION_LABEL } from '../../schema/constants';

/**
 * Route schemas are zod schemas: Fastify validates requests with them (a mismatch is 422
 * validation_failed, see plugins/errors.ts) and the OpenAPI document at /api/docs is generated
 * from the same schemas, so the docs cannot drift from what the server accepts.
 */
export const openapiPlugin = fp(async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every route as registered (server/openapi.int.test.ts checks each is in the document), and
  // those anonymous callers may use (PUBLIC_ROUTE) marked so: signing in is optional there.
  const routes: RouteOptions[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    routes.push(route);
    if ((route.config as { public?: boolean } | undefined)?.public && route.schema && !route.schema.hide)
      route.schema = { ...route.schema, security: [{}, { session: [] }, { bearer: [] }] } as typeof route.schema;
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Страницы API',
        version: VERSION_LABEL,
        description:
          'Pages, blocks, comments, sharing, workspaces, notifications, files, users and sign-in. Every JSON answer is the envelope { data, included, meta, errors }; see docs/api.md.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'sid' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ session: [] }, { bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs', { ...PUBLIC_ROUTE, schema: { hide: true } }, async () => app.swagger());
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes registered after the OpenAPI plugin, as registered. */
    routeTable: readonly RouteOptions[];
  }
}
