import { afterEach, describe, expect, it } from 'vitest';
import { darajaTimestamp, eatTimestampToIso } from './time.ts';
import { stkPassword } from './password.ts';

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

describe('darajaTimestamp', () => {
  it('is Nairobi time whatever time zone the server runs in', () => {
    const instant = new Date('2026-01-31T22:30:05.000Z'); // 01:30:05 on 1 February in Nairobi
    for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo', 'Africa/Nairobi']) {
      process.env.TZ = zone;
      expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(
        zone === 'UTC'
          ? 0
          : zone === 'America/Los_Angeles'
            ? 480
            : zone === 'Asia/Tokyo'
              ? -540
              : -180,
      );
      expect(darajaTimestamp(instant)).toBe('20260201013005');
    }
  });

  it('pads every part to YYYYMMDDHHmmss', () => {
    expect(darajaTimestamp(new Date('2016-02-16T13:56:27Z'))).toBe('20160216165627');
  });
});

describe('eatTimestampToIso', () => {
  it('reads the callback TransactionDate as Nairobi time, number or text', () => {
    expect(eatTimestampToIso(20191219102115)).toBe('2019-12-19T07:21:15.000Z');
    expect(eatTimestampToIso('20260614193604')).toBe('2026-06-14T16:36:04.000Z');
  });

  it('gives null for anything that is not a real date', () => {
    expect(eatTimestampToIso(20240231120000)).toBeNull();
    expect(eatTimestampToIso('2024')).toBeNull();
    expect(eatTimestampToIso(1.5)).toBeNull();
  });
});

describe('stkPassword', () => {
  it('matches the worked example from the Daraja documentation', () => {
    expect(
      stkPassword(
        '174379',
        'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
        '20160216165627',
      ),
    ).toBe(
      'MTc0Mzc5YmZiMjc5ZjlhYTliZGJjZjE1OGU5N2RkNzFhNDY3Y2QyZTBjODkzMDU5YjEwZjc4ZTZiNzJhZGExZWQyYzkxOTIwMTYwMjE2MTY1NjI3',
    );
  });
});
