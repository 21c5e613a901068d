/**
 * The order the browser test files start in. Vitest starts the files that took longest last time
 * first; on a fresh clone it has no times, and starts the largest files first instead: the slowest
 * (role-screens.e2e.ts, a short file that runs axe on many screens) then started last
 * and ran alone on one worker for a minute at the end. Without times for every file, the files
 * below start first, slowest first (as measured on 29 November; the API reference, split into a page per route since,
 * is no longer among them), then the rest in Vitest's order.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST_FIRST = [
  'role-screens',
  'links',
  'operators',
  'phone-network',
  'history-phone',
  'payouts',
  'owner-screens',
  'phone-layout',
  'kiswahili',
  'i-have-paid',
  'refunds',
  'dev-command',
  'history',
];

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const timed = files.every((file) =>
      this.ctx.cache.getFileTestResults(
        `${file.project.name}:${path.relative(root, file.moduleId)}`,
      ),
    );
    if (timed) return sorted;
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.indexOf(path.basename(file.moduleId, '.e2e.ts'));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
