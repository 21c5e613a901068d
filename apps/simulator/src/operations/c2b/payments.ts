/**
 * A C2B payment from the moment the customer pays to its end (docs/daraja-protocol.md §M3.6), the
 * same whether Daraja's simulate or the virtual phone's menu made it:
 *
 * 1. A wallet that cannot pay ends it at once: no validation, no confirmation, nothing moves.
 * 2. With external validation turned on for a registered shortcode, the validation request goes to
 *    the ValidationURL, and the simulator waits its time for the answer: 0 accepts, any other
 *    code rejects (cancelled), no usable answer leaves it to the registered ResponseType.
 * 3. Completed, the money moves from the wallet to the shortcode's collection account, and the
 *    confirmation goes to the ConfirmationURL (any 2xx taken, no retry).
 *
 * A shortcode with no URLs registered is paid all the same, with nothing sent: M-PESA completes a
 * payment when no URLs are registered (§M3.4). Each step changes the payment before anything is
 * sent, so that SIM_STATE holds it and a restart carries it on (`resume`).
 */
import { deliverCallback, type DeliveryFault } from '../../callbacks.ts';
import { RESULT_CODES } from '../../catalogue.ts';
import { mpesaReceiptNumber, requestId } from '../../ids.ts';
import { collectionAccount } from '../../money/accounts.ts';
import { darajaAmount } from '../../money/amounts.ts';
import type { MoveRequest } from '../../money/ledger.schema.ts';
import type { C2bBook, C2bContext } from './c2b-book.ts';
import type { C2bPayment } from './c2b-kept.ts';
import { notificationBody, verdict, type Verdict } from './notification.ts';
import type { SimulateRequest } from './validation.ts';

/** The name C2B registers its outcomes under (PUT /_sim/numbers/:phone/next `api`). */
export const C2B_API = 'c2b';
/** The outcome that does not wait for the merchant's validation answer. */
export const MERCHANT_SILENT = 'no-answer';

export class C2bPayments {
  readonly #book: C2bBook;
  readonly #context: C2bContext;

  constructor(book: C2bBook, context: C2bContext) {
    this.#book = book;
    this.#context = context;
  }

  /** The customer pays: the payment as it stands once the first step is taken. */
  pay(request: SimulateRequest, via: C2bPayment['via']): C2bPayment {
    const { clock, config, ledger, outcomes } = this.#context;
    const now = clock.now();
    const shortcode = this.#book.shortcode(request.shortCode);
    const forced = outcomes.take(C2B_API, request.msisdn);
    let transId = mpesaReceiptNumber(now);
    while (ledger.byReceipt(transId) || this.#book.payment(transId))
      transId = mpesaReceiptNumber(now);
    const payment: C2bPayment = {
      transId,
      originatorConversationId: requestId(),
      shortcode: request.shortCode,
      commandId: request.commandId,
      amount: request.amount * 100,
      msisdn: request.msisdn,
      billRefNumber: request.billRefNumber,
      at: now.toISOString(),
      via,
      registration: shortcode?.registration ?? null,
      validate: shortcode?.externalValidation ?? false,
      validationTimeoutMs: shortcode?.validationTimeoutMs ?? config.c2bValidationTimeoutMs,
      merchantSilent: forced?.resultCode === MERCHANT_SILENT,
      fault: forced?.fault ?? {},
      stage: 'validating',
      validation: { state: null, resultCode: null, decidedBy: null },
      thirdPartyTransId: '',
      confirmation: null,
      orgAccountBalance: null,
      reason: null,
    };
    const refused =
      forced?.resultCode === '1'
        ? `${RESULT_CODES['1']} (the number's chosen outcome)`
        : ledger.check(this.#movement(payment))?.message;
    if (refused) {
      Object.assign(payment, { stage: 'failed', reason: refused });
      this.#book.add(payment);
    } else if (payment.registration && payment.validate) {
      payment.validation.state = 'waiting';
      this.#book.add(payment);
      void this.#validate(payment);
    } else {
      this.#book.add(payment);
      this.#complete(payment);
    }
    return payment;
  }

  /**
   * Carries on the payments a restart found in flight: a validation not sent yet is sent; one
   * whose answer the restart lost is left to ResponseType, as an answer that never came; a
   * confirmation owed is delivered, at once.
   */
  resume(): void {
    for (const payment of this.#book.payments().reverse()) {
      if (payment.stage === 'validating') {
        if (payment.validation.state === null || payment.validation.state === 'waiting') {
          void this.#validate(payment);
        } else this.#decide(payment, { kind: 'none' });
      } else if (payment.stage === 'confirming') {
        const { delayMs: _delayMs, ...fault } = payment.fault;
        void this.#confirm(payment, fault);
      }
    }
  }

  /** The ledger's movement: the wallet pays the paybill's utility or the till's merchant account. */
  #movement(payment: C2bPayment): MoveRequest {
    const till = payment.commandId === 'CustomerBuyGoodsOnline';
    const payee = this.#context.ledger.shortcode(payment.shortcode, till ? 'till' : 'paybill');
    return {
      kind: 'c2b',
      amount: payment.amount,
      from: { msisdn: payment.msisdn },
      to: { shortcode: payee.shortcode, account: collectionAccount(payee.kind) },
      receipt: payment.transId,
      originatorConversationId: payment.originatorConversationId,
      ...(payment.billRefNumber !== '' && { reference: payment.billRefNumber }),
    };
  }

  #name(payment: C2bPayment): string {
    return this.#context.ledger.wallet(payment.msisdn).name;
  }

  async #validate(payment: C2bPayment): Promise<void> {
    const registration = payment.registration!;
    const delivered = await deliverCallback(
      {
        ids: { transId: payment.transId, notification: 'validation' },
        url: registration.validationUrl,
        body: notificationBody(payment, 'validation', this.#name(payment)),
        fault: {},
        current: this.#book.current(),
        timeoutMs: payment.validationTimeoutMs,
        saved: () => this.#book.saved?.(),
        onState: (state) => {
          payment.validation.state = state;
          this.#book.changed(payment);
        },
        onAttempt: (attempt) => this.#book.attempted(attempt),
      },
      this.#context,
    );
    if (delivered.state === 'stopped') return;
    this.#decide(payment, payment.merchantSilent ? { kind: 'none' } : verdict(delivered.answer));
  }

  /** The merchant's verdict, or, with none, the registered ResponseType (§M3.4). */
  #decide(payment: C2bPayment, said: Verdict): void {
    const validation = payment.validation;
    if (said.kind === 'none') {
      validation.decidedBy = 'response-type';
      if (payment.registration?.responseType === 'Cancelled') {
        this.#cancel(payment, 'No validation answer in time: ResponseType is Cancelled.');
      } else this.#complete(payment);
      return;
    }
    validation.decidedBy = 'merchant';
    validation.resultCode = said.resultCode;
    if (said.kind === 'reject') {
      this.#cancel(payment, `The merchant rejected it with ResultCode ${said.resultCode}.`);
      return;
    }
    payment.thirdPartyTransId = said.thirdPartyTransId;
    this.#complete(payment);
  }

  #cancel(payment: C2bPayment, reason: string): void {
    this.#context.ledger.record(this.#movement(payment), 'Cancelled');
    Object.assign(payment, { stage: 'cancelled', reason });
    this.#book.changed(payment);
  }

  /** Moves the money, then tells the confirmation URL (when one is registered). */
  #complete(payment: C2bPayment): void {
    const { ledger } = this.#context;
    const movement = this.#movement(payment);
    const moved = ledger.move(movement);
    if (!moved.ok) {
      Object.assign(payment, { stage: 'failed', reason: moved.message });
      this.#book.changed(payment);
      return;
    }
    const account = movement.to as { shortcode: string; account: string };
    const accounts: Record<string, number | undefined> = ledger.shortcode(
      account.shortcode,
    ).accounts;
    payment.orgAccountBalance = darajaAmount(accounts[account.account] ?? 0);
    if (!payment.registration) {
      payment.stage = 'completed';
      this.#book.changed(payment);
      return;
    }
    Object.assign(payment, { stage: 'confirming', confirmation: 'waiting' });
    this.#book.changed(payment);
    void this.#confirm(payment, payment.fault);
  }

  async #confirm(payment: C2bPayment, fault: DeliveryFault): Promise<void> {
    const delivered = await deliverCallback(
      {
        ids: { transId: payment.transId, notification: 'confirmation' },
        url: payment.registration!.confirmationUrl,
        body: notificationBody(payment, 'confirmation', this.#name(payment)),
        fault,
        current: this.#book.current(),
        saved: () => this.#book.saved?.(),
        onState: (state) => {
          payment.confirmation = state;
          this.#book.changed(payment);
        },
        onAttempt: (attempt) => this.#book.attempted(attempt),
      },
      this.#context,
    );
    if (delivered.state === 'stopped') return;
    payment.stage = 'completed';
    this.#book.changed(payment);
  }
}
