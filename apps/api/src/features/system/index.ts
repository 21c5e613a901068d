export { openApiRoutes, registerOpenApi } from './openapi.ts';
export { systemRoutes } from './system.routes.ts';
