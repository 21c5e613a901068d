/**
 * The ledger's accounts: each business shortcode's and each customer's wallet, each known from its
 * first use with the defaults of accounts.ts, or as the control API set it. The ledger (ledger.ts)
 * moves money between them; this finds them and says why one cannot take part.
 */
import type { SimulatorConfig } from '../config.ts';
import {
  CHARGES_ACCOUNT,
  DEFAULT_ACCOUNTS,
  DEFAULT_WALLET_BALANCE,
  MSISDN,
  SHORTCODE,
  customerName,
  defaultShortcodeName,
  type AccountName,
  type ShortcodeKind,
} from './accounts.ts';
import type { Cents } from './amounts.ts';
import {
  refusal,
  type Refusal,
  type ShortcodeBook,
  type Side,
  type Wallet,
} from './ledger.schema.ts';
import { accountParty, walletParty, type Party } from './rules.ts';

/** What a shortcode's settings can change (PUT /_sim/ledger/shortcodes/:shortcode). */
export interface ShortcodeChange {
  kind?: ShortcodeKind;
  name?: string;
  /** By Daraja's account names; only the Charges Paid Account may be set below zero. */
  balances?: Record<string, Cents>;
}

/** What a wallet's settings can change (PUT /_sim/ledger/wallets/:msisdn). */
export type WalletChange = Partial<Pick<Wallet, 'balance' | 'name' | 'registered'>>;

export class AccountBook {
  readonly shortcodes = new Map<string, ShortcodeBook>();
  readonly wallets = new Map<string, Wallet>();
  /** The simulator's own STK shortcode: a paybill named SIM_BUSINESS_NAME, known from the start. */
  readonly #home: Pick<SimulatorConfig, 'shortcode' | 'businessName'>;
  readonly #today: () => string;
  readonly #changed: () => void;

  constructor(
    home: Pick<SimulatorConfig, 'shortcode' | 'businessName'>,
    today: () => string,
    changed: () => void,
  ) {
    this.#home = home;
    this.#today = today;
    this.#changed = changed;
    this.clear();
  }

  shortcode(code: string, kind: ShortcodeKind): ShortcodeBook {
    return this.shortcodes.get(code) ?? this.#addShortcode(code, kind);
  }

  wallet(msisdn: string): Wallet {
    return this.wallets.get(msisdn) ?? this.#addWallet(msisdn);
  }

  /** One side of a movement, found (or known from now on), or why it cannot take part. */
  party(side: Side): Party | Refusal {
    if ('msisdn' in side) {
      if (!MSISDN.test(side.msisdn)) {
        return refusal(
          'invalid-party',
          `${side.msisdn} is not a customer's number (2547… or 2541…).`,
        );
      }
      return walletParty(this.wallet(side.msisdn));
    }
    if (!SHORTCODE.test(side.shortcode)) {
      return refusal('invalid-party', `${side.shortcode} is not a shortcode (5 to 7 digits).`);
    }
    // A shortcode first met through its Merchant Account is a till; any other, a paybill.
    const book = this.shortcode(
      side.shortcode,
      side.account === 'Merchant Account' ? 'till' : 'paybill',
    );
    if (book.accounts[side.account] === undefined) {
      return refusal(
        'no-such-account',
        `${book.shortcode} is a ${book.kind}: it has no ${side.account}.`,
      );
    }
    return accountParty(book, side.account);
  }

  /** Sets a shortcode's kind, name or balances; a balance for an account its kind lacks is refused. */
  setShortcode(code: string, change: ShortcodeChange): ShortcodeBook | { error: string } {
    const known = this.shortcodes.get(code);
    const kind = change.kind ?? known?.kind ?? 'paybill';
    // A shortcode that changes kind starts again with the new kind's accounts.
    const accounts = { ...(known?.kind === kind ? known.accounts : DEFAULT_ACCOUNTS[kind]) };
    for (const [name, cents] of Object.entries(change.balances ?? {})) {
      // Own keys only: `toString` is in every object, and is no account (nor is `__proto__`).
      if (!Object.hasOwn(accounts, name)) {
        return {
          error: `A ${kind} has no ${name}: its accounts are ${Object.keys(accounts).join(', ')}`,
        };
      }
      if (cents < 0 && name !== CHARGES_ACCOUNT) {
        return { error: `${name} cannot be set below 0.00: only the ${CHARGES_ACCOUNT} can` };
      }
      accounts[name as AccountName] = cents;
    }
    const book = this.shortcode(code, kind);
    Object.assign(book, { kind, accounts, name: change.name ?? book.name });
    this.#changed();
    return book;
  }

  setWallet(msisdn: string, change: WalletChange): Wallet {
    const wallet = Object.assign(this.wallet(msisdn), change);
    this.#changed();
    return wallet;
  }

  /** Forgets every account; the simulator's own shortcode is known again. */
  clear(): void {
    this.shortcodes.clear();
    this.wallets.clear();
    this.#addShortcode(this.#home.shortcode, 'paybill').name = this.#home.businessName;
  }

  /** Carries on from SIM_STATE; the simulator's own shortcode takes SIM_BUSINESS_NAME as it is now. */
  restore(shortcodes: ShortcodeBook[], wallets: Wallet[]): void {
    this.clear();
    for (const book of shortcodes) this.shortcodes.set(book.shortcode, book);
    for (const wallet of wallets) this.wallets.set(wallet.msisdn, wallet);
    const home = this.shortcodes.get(this.#home.shortcode);
    if (home) home.name = this.#home.businessName;
  }

  #addShortcode(code: string, kind: ShortcodeKind): ShortcodeBook {
    const book = {
      shortcode: code,
      kind,
      name: defaultShortcodeName(code),
      accounts: { ...DEFAULT_ACCOUNTS[kind] },
    };
    this.shortcodes.set(code, book);
    this.#changed();
    return book;
  }

  #addWallet(msisdn: string): Wallet {
    const wallet: Wallet = {
      msisdn,
      name: customerName(msisdn),
      registered: true,
      balance: DEFAULT_WALLET_BALANCE,
      day: this.#today(),
      inToday: 0,
      outToday: 0,
    };
    this.wallets.set(msisdn, wallet);
    this.#changed();
    return wallet;
  }
}
