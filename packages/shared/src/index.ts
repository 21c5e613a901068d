export * from './constants.ts';
export * from './phone.ts';
