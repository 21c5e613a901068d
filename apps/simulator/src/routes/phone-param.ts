import { z } from 'zod';

/** 0712345678, 712345678, +254712345678 or 254712345678 → 254712345678. */
export const phoneParam = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .transform((value) =>
    value
      .replace(/^\+/, '')
      .replace(/^0(?=[17])/, '254')
      .replace(/^(?=[17]\d{8}$)/, '254'),
  )
  .pipe(z.string().regex(/^254[17]\d{8}$/, 'phone must be a Kenyan mobile number'));
