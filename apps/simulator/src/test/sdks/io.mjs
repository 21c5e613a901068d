/**
 * What every SDK script here shares: the test's input (SDK_INPUT, JSON) and the report it reads
 * back, one JSON line on stdout. Each call's outcome is kept as the SDK gave it, its error
 * included, so that the test says which call of which SDK broke.
 */

/**
 * @type {{ shortcode: string, passkey: string, phone: string, password: string,
 *   certificate: string, credential: string, receipt: string, urls: (name: string) => string }}
 */
export const input = (() => {
  const given = JSON.parse(process.env.SDK_INPUT ?? '{}');
  return { ...given, urls: (name) => `${given.receiver}/${name}` };
})();

/** A call's answer (`status`, `data`) or its error, as plain JSON. */
export async function outcome(call) {
  try {
    const answer = await call();
    return { ok: true, status: answer?.status ?? answer?.statusCode, data: answer?.data ?? answer };
  } catch (error) {
    return {
      ok: false,
      status: error?.response?.status ?? error?.statusCode,
      data: error?.response?.data ?? error?.data,
      message: String(error?.message ?? error),
    };
  }
}

/** The report: one line the test parses. */
export function report(calls) {
  console.log(JSON.stringify(calls));
}
