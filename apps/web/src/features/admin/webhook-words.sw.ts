import type { WebhookWords } from './webhook-words.en';

export const sw: WebhookWords = {
  title: 'Webhooks',
  intro:
    'Webhooks huarifu mifumo ya duka lenyewe (oda, hesabu, ujumbe kwa wateja) kuhusu kila malipo yanapotokea. Kila tukio hutumwa kwa kila anwani inayolitaka, likiwa limesainiwa kwa siri ya anwani hiyo, na hujaribiwa tena kwa siku tatu hadi anwani ijibu.',
  loading: 'Inapakia anwani...',
  empty: 'Bado hakuna anwani.',
  events: {
    'payment.succeeded': 'Malipo yamefanikiwa',
    'payment.failed': 'Malipo yameshindwa',
    'payment.cancelled': 'Mlipaji ameghairi malipo',
    'payment.timed_out': 'Mlipaji hakujibu kwa wakati',
    'payment.unknown': 'M-PESA haikutoa matokeo (angalia taarifa ya akaunti)',
    'payment.flagged': 'Malipo yanahitaji ukaguzi',
    'payment.refunded': 'Pesa za malipo zimerudishwa',
    'payment.received': 'Malipo ya till au paybill yamefika',
    'payout.succeeded': 'Malipo kwa mpokeaji yamelipwa',
    'payout.failed': 'Malipo kwa mpokeaji yameshindwa',
    'link.paid': 'Kiungo cha malipo kimelipwa',
    'webhook.test': 'Tukio la majaribio',
  },

  form: {
    addTitle: 'Ongeza anwani',
    editTitle: 'Badilisha anwani hii',
    urlLabel: 'URL',
    urlHint: 'Mahali matukio yanapotumwa, k.m. https://shop.example/mpesa-events.',
    missingUrl: 'Andika URL ambayo matukio yatatumwa.',
    eventsLegend: 'Matukio inayotumiwa',
    missingEvents: 'Chagua angalau tukio moja.',
    addSubmit: 'Ongeza anwani',
    save: 'Hifadhi mabadiliko',
    cancel: 'Ghairi',
    useSimulator: 'Tumia kipokezi cha simulator',
    simulatorHint:
      'Hali ya simulator: simulator huhifadhi inachopokea na kukionyesha kwenye ukurasa wake, chini ya “Webhooks received”.',
  },

  secret: {
    madeTitle: 'Siri ya kusaini ya anwani hii',
    rotatedTitle: 'Siri mpya ya kusaini ya anwani hii',
    text: 'Ipe mfumo unaopokea matukio: huikagua sahihi ya kila tukio kwayo. Inakili sasa: haitaonyeshwa tena.',
    copy: 'Nakili siri',
  },

  endpoint: {
    label: (url) => `Anwani ${url}`,
    eventsLabel: 'Matukio',
    secretLabel: 'Siri inaanza na',
    on: 'Imewashwa: matukio yanatumwa kwake.',
    offByOwner: (when) => `Ilizimwa ${when}: hakuna kinachotumwa kwake.`,
    offFailing: (when, since) =>
      `Ilizimwa ${when} kwa sababu kila utumaji ulishindwa kwa siku tatu (tangu ${since}). Rekebisha mfumo unaopokea, washa anwani, kisha utume tena yaliyoshindwa.`,
    failing: (since) =>
      `Inashindwa tangu ${since}: utumaji unajaribiwa tena. Baada ya siku tatu za kushindwa anwani huzimwa.`,
    edit: 'Badilisha',
    turnOff: 'Zima',
    turnOn: 'Washa',
    rotate: 'Siri mpya',
    rotateQuestion:
      'Tengeneza siri mpya? Ya zamani haitasaini tena: mfumo unaopokea unahitaji hii mpya.',
    rotateYes: 'Tengeneza siri mpya',
    remove: 'Ondoa',
    removeQuestion: (url) =>
      `Ondoa anwani ${url}? Hakuna kitakachotumwa kwake tena, na utumaji wake utasahaulika.`,
    removeYes: 'Ondoa anwani',
    sendTest: 'Tuma tukio la majaribio',
    testSent: 'Tukio la majaribio linatumwa: litaonekana kwenye utumaji hapa chini.',
    resendFailed: 'Tuma tena yote yaliyoshindwa',
    resentFailed: (count) =>
      count === 0
        ? 'Hakuna utumaji ulioachwa: hakuna cha kutuma tena.'
        : count === 1
          ? 'Utumaji mmoja unatumwa tena.'
          : `Utumaji ${count} unatumwa tena.`,
    of: (action, url) => `${action}: ${url}`,
  },

  deliveries: {
    title: 'Utumaji',
    columns: {
      when: 'Lini',
      event: 'Tukio',
      status: 'Hali ya HTTP',
      took: 'Muda uliochukua',
      answer: 'Jibu',
      attempts: 'Majaribio',
      state: 'Hali',
      action: 'Tuma tena',
    },
    loading: 'Inapakia utumaji...',
    empty: 'Bado hakuna kilichotumwa. Tuma tukio la majaribio ili uone mmoja.',
    showOlder: 'Onyesha za zamani',
    noAnswer: 'Hakuna jibu',
    notYet: 'Bado haijajaribiwa',
    ms: (ms) => `ms ${ms}`,
    states: {
      pending: 'Inasubiri kutumwa',
      retrying: 'Imeshindwa: itajaribiwa tena',
      delivered: 'Imefika',
      failed: 'Imeachwa',
    },
    nextAt: (when) => `Jaribio lijalo ${when}`,
    resend: 'Tuma tena',
    resendOf: (event) => `Tuma tena ${event}`,
    resent: 'Imetumwa tena: jaribio lake jipya litaonekana hapa baada ya muda mfupi.',
  },
};
