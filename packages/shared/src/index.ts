export * from './constants.ts';
export * from './event-kinds.ts';
export * from './error-codes.ts';
export * from './phone.ts';
export * from './text.ts';
// payer-outcomes.ts is imported by its own path (`@mpesa/shared/payer-outcomes`): re-exported
// here, it made the bundler split the web app's first-screen chunk in two.
