/**
 * A Result can overtake the recording of the ids it is matched by: Daraja answers a request with
 * its acknowledgement (docs/daraja-protocol.md §M1.1) and posts the Result later (§M1.3), but the
 * Result may arrive while the request's writer is still saving the acknowledgement's ids (a fast
 * Daraja, a slow database). What a Result is about is therefore looked for a few times, this far
 * apart (about 2 s in all), before the Result is taken for an orphan.
 */
export const OVERTAKEN_LOOKUP = { lookups: 10, gapMs: 200 } as const;

/** `find`'s answer, asked again until it finds something or the lookups are spent. */
export async function lookUpOvertaken<T>(
  find: () => Promise<T | undefined>,
  pace: { lookups: number; gapMs: number } = OVERTAKEN_LOOKUP,
): Promise<T | undefined> {
  for (let attempt = 1; ; attempt++) {
    const found = await find();
    if (found !== undefined || attempt >= pace.lookups) return found;
    await new Promise((resolve) => setTimeout(resolve, pace.gapMs));
  }
}
