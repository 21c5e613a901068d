export * from './constants.ts';
export * from './phone.ts';
export * from './text.ts';
