/** What the simulator's description (openapi.ts) says of one route: schemas for the description only. */
import type { z } from 'zod';

export interface RouteDocs {
  summary: string;
  description?: string;
  tags: [string];
  querystring?: z.ZodType;
  headers?: z.ZodType;
  body?: z.ZodType;
  response: Record<
    number,
    z.ZodType | { description: string; content?: Record<string, { schema: z.ZodType }> }
  >;
}
