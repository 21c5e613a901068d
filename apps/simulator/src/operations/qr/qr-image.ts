/**
 * The QR code itself: what it says, and its PNG (docs/daraja-protocol.md §M8.2).
 *
 * What a real M-PESA QR code holds is not published. Rather than imitate a format it cannot
 * check, the simulator's code says what was asked in plain JSON, marked as the simulator's, so
 * that any phone's scanner shows it and a test can read it back.
 */
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import type { QrRequest } from './validation.ts';

/** The quiet zone around the code, in modules: the four the QR standard asks for. */
const MARGIN = 4;

/** What the code says when scanned. */
export function qrText(request: QrRequest): string {
  return JSON.stringify({
    simulator: 'daraja-simulator',
    TrxCode: request.trxCode,
    CPI: request.cpi,
    Amount: request.amount,
    RefNo: request.refNo,
    MerchantName: request.merchantName,
  });
}

/**
 * The code as a PNG exactly `size` pixels square, or undefined when `size` is too small to give
 * each module and its quiet zone a pixel. Every module has the same whole number of pixels (a
 * scanner misreads modules of uneven widths), and the pixels left over widen the white border.
 * Drawn here: the library's own PNG comes out a pixel short at some sizes.
 */
export function qrPng(text: string, size: number): Buffer | undefined {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.floor(size / (modules.size + 2 * MARGIN));
  if (scale < 1) return undefined;
  const offset = Math.floor((size - scale * modules.size) / 2);
  const module = (pixel: number) => Math.floor((pixel - offset) / scale);
  const inside = (at: number) => at >= 0 && at < modules.size;
  // One byte a pixel, grey: 0 for a dark module, 255 for light ones and the border.
  const png = new PNG({ width: size, height: size, colorType: 0, inputHasAlpha: false });
  for (let y = 0; y < size; y++) {
    const row = module(y);
    for (let x = 0; x < size; x++) {
      const column = module(x);
      const dark = inside(row) && inside(column) && modules.get(row, column) === 1;
      png.data[y * size + x] = dark ? 0 : 255;
    }
  }
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
}
