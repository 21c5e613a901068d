export { c2bConfirmationCallback } from './c2b-confirmation.callback.ts';
export { c2bEventPayload } from './c2b-payments.service.ts';
export { C2bRegistrationError, registerC2b, startC2bRegistration } from './c2b-registration.ts';
export { c2bValidationCallback } from './c2b-validation.callback.ts';
export { receiptCheckRoutes } from './receipt-checks.routes.ts';
export { receiptStatusCallback } from './receipt-status.callback.ts';
