/**
 * `node scripts/web-budget.ts [--dist <folder>]`: the web budget. Builds the web app when its build
 * is older than its sources, prints the gzip size of what the first screen downloads (the module
 * script index.html loads, the modules it preloads, its stylesheets) and fails when the initial
 * JavaScript is over 95 kB gzipped or the CSS over 10 kB. `npm test` runs it, so CI enforces it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, buildWebIfNeeded } from './lib.ts';
import {
  WEB_BUDGET,
  describeInitialSize,
  measureInitialSize,
  overBudget,
} from '../apps/web/tooling/initial-assets.ts';

const { values } = parseArgs({ options: { dist: { type: 'string' } } });
let dist = values.dist;
if (dist === undefined) {
  await buildWebIfNeeded();
  dist = path.join(ROOT, 'apps/web/dist');
}

const size = measureInitialSize(dist);
for (const line of describeInitialSize(size)) console.log(line);
const problems = overBudget(size, WEB_BUDGET);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(
    'Web budget FAILED: load what the first screen does not need lazily (apps/web/src/app/router.tsx), ' +
      'or find what grew (docs/performance.md, "The web app").',
  );
  process.exit(1);
}
console.log('Web budget met.');
