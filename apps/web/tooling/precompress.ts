/**
 * Vite plugins for the production build: brotli and gzip copies of every text file, which the API
 * serves to browsers that accept them (@fastify/static's `preCompressed`), and the initial
 * download's gzip size printed at the end of the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';
import { describeInitialSize, measureInitialSize, overBudget } from './initial-assets.ts';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|txt|json|webmanifest|xml)$/;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes `file.br` and `file.gz` beside each text file, where they are smaller than the file. */
export function compressFiles(dir: string): number {
  let written = 0;
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = fs.readFileSync(file);
    const variants = {
      br: brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
      gz: gzipSync(content, { level: constants.Z_BEST_COMPRESSION }),
    };
    for (const [extension, compressed] of Object.entries(variants)) {
      // A tiny file (robots.txt) gains nothing: it is served as it is.
      if (compressed.length >= content.length) continue;
      fs.writeFileSync(`${file}.${extension}`, compressed);
      written += 1;
    }
  }
  return written;
}

/** A plugin that runs `work` on the build's output folder once Vite has written it all. */
function afterBuild(name: string, work: (outDir: string, config: ResolvedConfig) => void): Plugin {
  let config: ResolvedConfig;
  return {
    name,
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      // After Vite has copied public/ too.
      order: 'post',
      handler() {
        work(path.resolve(config.root, config.build.outDir), config);
      },
    },
  };
}

/** Brotli and gzip copies of the build's text files, made once the build is written. */
export function precompress(): Plugin {
  return afterBuild('mpesa:precompress', (outDir) => void compressFiles(outDir));
}

/** Prints what the first screen downloads, gzipped, and warns when it is over the web budget. */
export function initialSizeReport(): Plugin {
  return afterBuild('mpesa:initial-size', (outDir, config) => {
    const size = measureInitialSize(outDir);
    config.logger.info(['', ...describeInitialSize(size)].join('\n'));
    for (const problem of overBudget(size)) config.logger.warn(problem);
  });
}
