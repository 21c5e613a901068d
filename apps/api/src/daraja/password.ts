/** Daraja's STK Password: base64 of shortcode, passkey and timestamp, concatenated (PROTOCOL.md §3.1). */
export function stkPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`, 'utf8').toString('base64');
}
