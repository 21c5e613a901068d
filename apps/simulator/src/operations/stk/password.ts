/** base64(shortcode + passkey + timestamp), as Daraja checks it (docs/daraja-protocol.md §3.1).
 * Written here again on purpose: the simulator does not import the API's Daraja client, so each
 * checks the other. */
export function stkPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`, 'utf8').toString('base64');
}
