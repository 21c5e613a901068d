/**
 * A link's own QR code (docs/decisions/009-qr-codes.md): its full address, drawn by the `qrcode`
 * package as SVG (the Links screen shows and prints it) and as PNG (to download and send). Level M
 * keeps the code readable with 15% of it smudged or folded, as a printed card gets; the margin is
 * the four modules of quiet zone the QR standard asks for.
 */
import QRCode from 'qrcode';

const DRAWN = { errorCorrectionLevel: 'M', margin: 4 } as const;
/** Pixels per module of the PNG: a 33-module code with its margin is 328 px square. */
const PNG_SCALE = 8;

/** The address a link is paid at, as the web app routes it (apps/web/src/lib/paths.ts `pay`). */
export const linkAddress = (origin: string, code: string) =>
  `${origin}/pay/${encodeURIComponent(code)}`;

export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { ...DRAWN, type: 'svg' });
}

export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { ...DRAWN, type: 'png', scale: PNG_SCALE });
}
