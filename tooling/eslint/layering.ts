/**
 * Which part of the project may import which, as ESLint's `no-restricted-imports` settings, one per
 * folder. Each pattern matches the import as written: a relative path that climbs into another app
 * (`../../api/src/config.ts`, `../../../apps/api/…`) or that app's package name.
 *
 * - The web app and the simulator never import the API: the simulator is a Daraja of its own, written
 *   from the protocol (two implementations catch each other's mistakes), and the web app talks to
 *   the API over HTTP only, through the shared contract.
 * - The simulator never imports the web app (it is published on its own, as daraja-simulator).
 * - In the web app, `features/`, `lib/` and `i18n/` never import `app/`: `app/` is the composition
 *   (router, layout, screens) that imports the features, never the reverse.
 * - `apps/api/src/daraja/` never imports `apps/api/src/db/`: talking to Daraja and storing payments
 *   are separate layers, joined by the services.
 * - The shared packages never import an app: the apps depend on them, not the reverse.
 *
 * `import()` is not checked by `no-restricted-imports`; the code has no dynamic import across these
 * lines.
 */
import type { Linter } from 'eslint';

interface Forbidden {
  regex: string;
  message: string;
}

/** `<name>/src/…` reached by a relative path, `apps/<name>/…`, or the app's package name. */
function app(folder: string, packageName: string, message: string): Forbidden {
  const escaped = packageName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return {
    regex: `(^|/)${folder}/src(/|$)|(^|/)apps/${folder}(/|$)|^${escaped}(/|$)`,
    message,
  };
}

const API_FROM_WEB = app(
  'api',
  '@mpesa/api',
  'The web app talks to the API over HTTP only (through @mpesa/shared), never by importing it.',
);
const SIMULATOR_FROM_WEB = app(
  'simulator',
  'daraja-simulator',
  'The web app never imports the simulator: it reaches Daraja only through the API.',
);
const API_FROM_SIMULATOR = app(
  'api',
  '@mpesa/api',
  'The simulator is a Daraja of its own, written from the protocol: it never imports the API.',
);
const WEB_FROM_SIMULATOR = app(
  'web',
  '@mpesa/web',
  'The simulator is published on its own (daraja-simulator): it never imports the web app.',
);
/**
 * From `daraja/x.ts` (`../db/…`), a folder inside it (`../../db/…`), or by way of src/ (`../../src/db/…`,
 * `apps/api/src/db/…`). A folder of daraja/'s own named db/ would be refused too: better named otherwise.
 */
const DB_FROM_DARAJA: Forbidden = {
  regex: '^(\\.\\./)+db(/|$)|(^|/)src/db(/|$)',
  message:
    'daraja/ only talks to Daraja: it never imports db/ (a rule both need belongs where both can import it).',
};
/**
 * From `features/x/y.ts` (`../../app/…`), deeper (`../../../app/…`), `lib/` (`../app/…`), or by way of
 * src/ (`../src/app/…`). A folder of their own named app/ would be refused too: better named otherwise.
 */
const WEB_APP_FROM_BELOW: Forbidden = {
  regex: '^(\\.\\./)+app(/|$)|(^|/)src/app(/|$)',
  message:
    'app/ is the composition (router, layout, screens): it imports the features, never the reverse. What a feature needs from it (paths, query helpers) belongs in lib/.',
};
const APP_FROM_PACKAGE: Forbidden = {
  regex: '(^|/)apps/|^@mpesa/(api|web|e2e)(/|$)|^daraja-simulator(/|$)',
  message: 'A shared package never imports an app: the apps depend on it, not the reverse.',
};

function restrict(files: string[], patterns: Forbidden[]): Linter.Config {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

export const layering: Linter.Config[] = [
  restrict(['apps/web/**'], [API_FROM_WEB, SIMULATOR_FROM_WEB]),
  // The later settings replace the earlier ones for these files: the app-wide patterns come again.
  restrict(
    ['apps/web/src/features/**', 'apps/web/src/lib/**', 'apps/web/src/i18n/**'],
    [API_FROM_WEB, SIMULATOR_FROM_WEB, WEB_APP_FROM_BELOW],
  ),
  restrict(['apps/simulator/**'], [API_FROM_SIMULATOR, WEB_FROM_SIMULATOR]),
  restrict(['apps/api/src/daraja/**'], [DB_FROM_DARAJA]),
  restrict(['packages/**'], [APP_FROM_PACKAGE]),
];
