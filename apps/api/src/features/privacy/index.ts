export { hideTraces } from './phone-retention.repository.ts';
export { maskFor, startPhoneRetention } from './phone-retention.ts';
