/**
 * `npm run db:seed -- --count <n> [--days 180] [--seed <n>] [--append]`: fills the app's database
 * (the app's own settings: DATABASE_URL, DATABASE_SCHEMA, DATA_DIR) with made-up payments, to try
 * the history at scale. A database that already has payments is refused unless --append says so,
 * and MPESA_ENV=production is refused outright: made-up payments must never mix with real ones.
 */
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';

const LIMITS = {
  count: { min: 1, max: 10_000_000 },
  days: { min: 1, max: 3650 },
  seed: { min: 0, max: 2 ** 32 - 1 },
} as const;

const USAGE = [
  'Usage: npm run db:seed -- --count <payments> [--days <days>] [--seed <number>] [--append]',
  '',
  `  --count   how many payments to add (${LIMITS.count.min} to ${LIMITS.count.max.toLocaleString('en-US')})`,
  `  --days    spread over this many days before now (default 180, at most ${LIMITS.days.max})`,
  '  --seed    a whole number that fixes the random choices (default: a random one, printed)',
  '  --append  add to a database that already has payments',
].join('\n');

function usage(): never {
  console.error(USAGE);
  process.exit(2);
}

function wholeNumber(value: string | undefined, name: keyof typeof LIMITS): number | undefined {
  if (value === undefined) return undefined;
  const { min, max } = LIMITS[name];
  const number = /^[0-9]{1,15}$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) {
    console.error(`--${name} must be a whole number from ${min} to ${max}, not "${value}".`);
    usage();
  }
  return number;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      count: { type: 'string' },
      days: { type: 'string' },
      seed: { type: 'string' },
      append: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
} catch (error) {
  console.error((error as Error).message);
  usage();
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const count = wholeNumber(values.count, 'count') ?? usage();
const days = wholeNumber(values.days, 'days') ?? 180;
const seed = wholeNumber(values.seed, 'seed') ?? randomInt(LIMITS.seed.max);

// The app's modules load once the arguments are read: a usage error answers without them (0.1
// instead of 0.8 s of CPU, and the tests try eleven at once).
const [{ loadConfigOrExit }, { migrateToLatest, openConfiguredDb }, { SeedError, seedDatabase }] =
  await Promise.all([import('../config.ts'), import('../db/create-db.ts'), import('./seed.ts')]);

const config = loadConfigOrExit();
if (config.mpesa.env === 'production') {
  console.error(
    'Refusing to seed: MPESA_ENV=production. Made-up payments must never mix with real ones.',
  );
  process.exit(1);
}

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const database = openConfiguredDb(config, 1);
const target =
  database.dialect === 'postgres'
    ? `PostgreSQL${config.databaseSchema ? ` (schema ${config.databaseSchema})` : ''}`
    : `SQLite ${config.databaseUrl}`;
try {
  await migrateToLatest(database);
  let started = performance.now();
  const step = Math.ceil(count / 10);
  let shown = 0;
  const result = await seedDatabase(database, {
    count,
    days,
    seed,
    now: new Date(),
    append: values.append,
    reconcile: config.reconcile,
    onStart() {
      console.log(
        `Seeding ${number(count)} payments over the last ${days} days into ${target}, seed ${seed}…`,
      );
      started = performance.now();
    },
    onProgress(done) {
      if (done < shown + step && done < count) return;
      shown = done;
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `  ${number(done).padStart(12)} payments  ${String(Math.floor((done / count) * 100)).padStart(3)}%  ${seconds.toFixed(1).padStart(6)} s  ${number(done / seconds)}/s`,
      );
    },
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `Seeded ${number(result.payments)} payments and ${number(result.events)} events in ` +
      `${seconds.toFixed(1)} s: ${number(result.payments / seconds)} payments/s ` +
      `(${number((result.payments + result.events) / seconds)} rows/s).` +
      (result.existing > 0 ? ` The database had ${number(result.existing)} before.` : ''),
  );
} catch (error) {
  console.error(error instanceof SeedError ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.db.destroy();
}
