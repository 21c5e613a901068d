/**
 * Every bad setting at once: the settings are read one by one and each problem is kept, so that a
 * start-up that fails names them all instead of one per attempt.
 */
import { EnvSchema, type Env } from './env-schema.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
  /** One sentence per bad setting, each beginning with the setting's name. */
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('\n'));
    this.problems = Object.freeze([...list]);
  }
}

export class Problems {
  private readonly list: string[] = [];
  private readonly bad = new Set<string>();

  add(setting: string, message: string): void {
    this.bad.add(setting);
    this.list.push(message);
  }

  /**
   * A rule between settings, which holds when `holds` is true. It is judged only when each of the
   * settings was read without a problem: one that was not stands at its default here, which says
   * nothing about what was meant.
   */
  require(settings: readonly [string, ...string[]], holds: boolean, message: string): void {
    if (holds || settings.some((setting) => this.bad.has(setting))) return;
    this.add(settings[0], message);
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new ConfigError(this.list);
  }
}

/**
 * The settings in `source`, each read by its own part of the schema. A setting that cannot be read
 * is a problem, and its default stands in for it so that the rules between settings can still be
 * judged for the others.
 */
export function readSettings(source: Record<string, string | undefined>, problems: Problems): Env {
  const usable = { ...source };
  for (const [name, schema] of Object.entries(EnvSchema.shape)) {
    const parsed = schema.safeParse(source[name]);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0];
    problems.add(
      name,
      `${name} ${issue?.message ?? 'is invalid'} (got ${JSON.stringify(source[name] ?? '')})`,
    );
    delete usable[name];
  }
  return EnvSchema.parse(usable);
}
