/**
 * System: the web app's runtime facts, the load balancers' probes and the API description.
 */
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import type { ApiFeature } from '../feature.ts';

export { openApiRoutes, registerOpenApi } from './openapi.ts';

interface SystemContext {
  config: Config;
  database: DbHandle;
}

/** What the web app needs to know (`/api/config`) and the load balancers' probes (`/api/health`, `/api/ready`). */
export const system: ApiFeature<unknown, SystemContext> = {
  routes: async (api, { config, database }) => {
    const { systemRoutes } = await import('./system.routes.ts');
    await api.register(systemRoutes, { config, database });
  },
};
