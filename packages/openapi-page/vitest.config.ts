import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'openapi-page', environment: 'node' } });
