/**
 * A link's QR codes over HTTP, on both databases, against the simulator as Daraja: its own as SVG
 * and PNG, which read back as the link's address on the origin the request came to (and its
 * proxy's, trusted); who may fetch them; and M-PESA's Dynamic QR, made for a fixed amount and
 * refused in our words when it cannot be made or M-PESA will not make it.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { beforeEach, describe, expect, it } from 'vitest';
import { addStaff, send, signedIn, STAFF } from '../../test/operator-session.ts';
import { DIALECTS } from '../../test/test-db.ts';
import { useApiWithSimulator } from '../../test/world.ts';

/** The text of the QR code in a PNG (jsqr is CommonJS: Node hands its exports as the default). */
function readPng(bytes: Buffer): string | undefined {
  const image = PNG.sync.read(bytes);
  return jsQR.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

/** The dark modules of an SVG drawn by `qrcode` (its path: `M<x> <y+0.5>h<n>`, then relative moves). */
function svgModules(svg: string): Set<string> {
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, op, a, b] of path.matchAll(/([Mmh])(\d+(?:\.\d+)?)(?:\s(\d+(?:\.\d+)?))?/g)) {
    if (op === 'M') [x, y] = [Number(a), Math.floor(Number(b))];
    else if (op === 'm') [x, y] = [x + Number(a), y + Math.floor(Number(b ?? 0))];
    else for (let i = 0; i < Number(a); i++) dark.add(`${x++},${y}`);
  }
  return dark;
}

for (const dialect of DIALECTS) {
  describe(`payment links' QR codes (${dialect})`, () => {
    const world = useApiWithSimulator(dialect, { env: { BUSINESS_NAME: 'Duka la Mama' } });
    let cashier: string;

    beforeEach(async () => {
      await addStaff(world.database, new Date());
      cashier = await signedIn(world.app, STAFF.cashier);
    });

    const aLink = async (payload: Record<string, unknown> = {}) => {
      const made = await send(
        world.app,
        {
          method: 'POST',
          url: '/api/links',
          payload: {
            amount: 1500,
            purpose: 'Kitenge dress',
            reference: 'ORDER-77',
            oneOnly: true,
            ...payload,
          },
        },
        cashier,
      );
      expect(made.statusCode, made.body).toBe(201);
      return made.json() as { id: string; code: string };
    };
    const get = (url: string, session = cashier, headers: Record<string, string> = {}) =>
      send(world.app, { method: 'GET', url }, session, { headers });
    const mpesaQr = (id: string, session = cashier) =>
      send(world.app, { method: 'POST', url: `/api/links/${id}/mpesa-qr`, payload: {} }, session);

    it('draws the link’s address as SVG and PNG, read back from the PNG', async () => {
      const link = await aLink();
      const address = `http://shop.example/pay/${link.code}`;
      const host = { host: 'shop.example' };

      const png = await get(`/api/links/${link.id}/qr.png`, cashier, host);
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.headers['content-disposition']).toBe(`inline; filename="pay-${link.code}.png"`);
      expect(readPng(png.rawPayload)).toBe(address);

      const svg = await get(`/api/links/${link.id}/qr.svg`, cashier, host);
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(svg.body).toMatch(
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1"/,
      );
      // The SVG's dark modules are exactly those of the address's code, four modules in.
      const { modules } = QRCode.create(address, { errorCorrectionLevel: 'M' });
      const expected = new Set<string>();
      for (let row = 0; row < modules.size; row++) {
        for (let column = 0; column < modules.size; column++) {
          if (modules.get(row, column)) expected.add(`${column + 4},${row + 4}`);
        }
      }
      expect(svgModules(svg.body)).toEqual(expected);
    });

    it('a viewer fetches them, a stranger does not; a link that is none is not found', async () => {
      const link = await aLink();
      const viewer = await signedIn(world.app, STAFF.viewer);
      expect((await get(`/api/links/${link.id}/qr.svg`, viewer)).statusCode).toBe(200);
      const stranger = await world.app.inject({ url: `/api/links/${link.id}/qr.png` });
      expect([stranger.statusCode, stranger.json().code]).toEqual([401, 'UNAUTHENTICATED']);
      const none = await get('/api/links/no-such-link/qr.png');
      expect([none.statusCode, none.json().code]).toEqual([404, 'LINK_NOT_FOUND']);
    });

    it('behind a trusted proxy, the address is the proxy’s', async () => {
      await world.rebuild({ BUSINESS_NAME: 'Duka la Mama', TRUST_PROXY: '1' });
      cashier = await signedIn(world.app, STAFF.cashier);
      const link = await aLink();
      const png = await get(`/api/links/${link.id}/qr.png`, cashier, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'pay.duka.example',
      });
      expect(readPng(png.rawPayload)).toBe(`https://pay.duka.example/pay/${link.code}`);
    });

    it('M-PESA’s QR code pays the till or paybill the link’s amount with its reference', async () => {
      const link = await aLink();
      const answer = await mpesaQr(link.id);
      expect(answer.statusCode, answer.body).toBe(200);
      const { data } = answer.json();
      expect(data).toMatchObject({
        trxCode: 'PB',
        shortcode: '600100',
        amount: 1500,
        reference: 'ORDER-77',
        merchantName: 'Duka la Mama',
      });
      // The simulator's code holds the request as JSON (docs/daraja/b2b-and-qr.md §M8.2).
      expect(JSON.parse(readPng(Buffer.from(data.png, 'base64')) ?? '{}')).toEqual({
        simulator: 'daraja-simulator',
        TrxCode: 'PB',
        CPI: '600100',
        Amount: 1500,
        RefNo: 'ORDER-77',
        MerchantName: 'Duka la Mama',
      });
    });

    it('M-PESA’s QR code is asked of M-PESA once for the same till, amount and reference', async () => {
      const asked = async () => {
        const log = await fetch(`${world.simulator.url}/_sim/log?kind=request&limit=500`);
        const { entries } = (await log.json()) as { entries: { path: string }[] };
        return entries.filter((entry) => entry.path.includes('/qrcode/')).length;
      };
      const before = await asked();
      const link = await aLink();
      const first = (await mpesaQr(link.id)).json().data;
      expect((await mpesaQr(link.id)).json().data).toEqual(first);
      expect(await asked()).toBe(before + 1);
      // Another reference is another code.
      const other = await aLink({ reference: 'ORDER-78' });
      expect((await mpesaQr(other.id)).json().data.reference).toBe('ORDER-78');
      expect(await asked()).toBe(before + 2);
      // A closed link is refused, though its code was made before.
      await send(world.app, { method: 'POST', url: `/api/links/${link.id}/off` }, cashier);
      expect((await mpesaQr(link.id)).json().code).toBe('LINK_CLOSED');
    });

    it('M-PESA’s QR code is a till’s when the shop’s prompts are buy goods', async () => {
      await world.rebuild({ MPESA_TRANSACTION_TYPE: 'CustomerBuyGoodsOnline' });
      cashier = await signedIn(world.app, STAFF.cashier);
      const answer = await mpesaQr((await aLink()).id);
      expect(answer.json().data).toMatchObject({ trxCode: 'BG', shortcode: '600100' });
    });

    it('M-PESA’s QR code is refused in our words when it cannot be made', async () => {
      const chosen = await aLink({ amount: undefined, minAmount: 100 });
      const needs = await mpesaQr(chosen.id);
      expect([needs.statusCode, needs.json().code]).toEqual([409, 'MPESA_QR_NEEDS_AMOUNT']);

      const off = await aLink();
      await send(world.app, { method: 'POST', url: `/api/links/${off.id}/off` }, cashier);
      const closed = await mpesaQr(off.id);
      expect([closed.statusCode, closed.json().code]).toEqual([409, 'LINK_CLOSED']);

      const none = await mpesaQr('no-such-link');
      expect([none.statusCode, none.json().code]).toEqual([404, 'LINK_NOT_FOUND']);

      const viewer = await signedIn(world.app, STAFF.viewer);
      expect((await mpesaQr(off.id, viewer)).statusCode).toBe(403);

      // M-PESA refuses (the simulator's fault rule): a sentence, never a 500.
      const link = await aLink();
      const faults = `${world.simulator.url}/_sim/faults`;
      await fetch(faults, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          seed: 1,
          rules: [{ operation: 'qrcode', probability: 1, error: 'quota' }],
        }),
      });
      try {
        const refused = await mpesaQr(link.id);
        expect([refused.statusCode, refused.json().code]).toEqual([502, 'MPESA_QR_FAILED']);
        expect(refused.json().message).toMatch(/^M-PESA did not make the QR code/);
      } finally {
        await fetch(faults, { method: 'DELETE' });
      }
    });

    it('M-PESA’s QR code is refused where no till or paybill is set up', async () => {
      await world.rebuild({
        MPESA_ENV: 'sandbox',
        MPESA_CONSUMER_KEY: 'key',
        MPESA_CONSUMER_SECRET: 'secret',
        MPESA_CALLBACK_URL: 'https://shop.example',
      });
      cashier = await signedIn(world.app, STAFF.cashier);
      const answer = await mpesaQr((await aLink()).id);
      expect([answer.statusCode, answer.json().code]).toEqual([409, 'MPESA_QR_NOT_SET_UP']);
    });
  });
}
