/**
 * Privacy: payers' numbers masked once PHONE_RETENTION_DAYS have passed.
 */
import type { Config } from '../../config.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { DbHandle } from '../../db/create-db.ts';
import type { ApiFeature } from '../feature.ts';
import { startPhoneRetention } from './phone-retention.ts';

export { hideTraces } from './phone-retention.repository.ts';
export { maskFor } from './phone-retention.ts';

interface PrivacyContext {
  config: Config;
  database: DbHandle;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** Payers' numbers masked once PHONE_RETENTION_DAYS have passed (phone-retention.ts). */
export const privacy: ApiFeature<PrivacyContext> = {
  loops: ({ config, database, log, now }) => {
    const days = config.phoneRetentionDays;
    const { db, dialect } = database;
    return days === undefined ? [] : [startPhoneRetention({ db, dialect, log, now, days })];
  },
};
