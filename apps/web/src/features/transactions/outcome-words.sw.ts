import type { EventContext, OutcomeWords, Said } from './outcome-words.en';

const PAID = 'Umelipa. M-PESA itakutumia ujumbe wa uthibitisho.';
const NO_MONEY = 'hakuna pesa iliyotoka';
const NOT_SET_UP: Said = {
  payer: `Akaunti ya M-PESA ya biashara haijawekwa kupokea malipo ya aina hii, kwa hiyo ${NO_MONEY}. Tafadhali iambie biashara.`,
  merchant:
    'Akaunti ya M-PESA ya duka haijawekwa kupokea malipo ya aina hii (mipangilio ya till au paybill). Iangalie na Safaricom.',
};
const CHECKING = 'Biashara inakagua malipo haya.';

const told = (c: EventContext) =>
  c.asked ? 'Tuliuliza M-PESA kuhusu malipo haya' : 'M-PESA ilituambia';
const withReceipt = (c: EventContext) => (c.receipt ? `, risiti ${c.receipt}` : '');
const both = (say: (c: EventContext) => string) => ({ payer: say, merchant: say });

export const sw: OutcomeWords = {
  codes: {
    '0': { payer: PAID, merchant: 'Mteja amelipa. M-PESA imemtumia ujumbe wa uthibitisho.' },
    '1': {
      payer: `Salio lako la M-PESA halikutosha kwa malipo haya, kwa hiyo ${NO_MONEY}. Weka pesa, kisha ujaribu tena.`,
      merchant: 'Salio la M-PESA la mteja halikutosha kwa malipo haya.',
    },
    '2': {
      payer: `M-PESA imekataa kiasi hiki: ni chini ya kiasi cha chini kinachoruhusiwa na M-PESA. Hakuna pesa iliyotoka.`,
      merchant: 'Kiasi ni chini ya kiasi cha chini kinachoruhusiwa na M-PESA.',
    },
    '3': {
      payer: `M-PESA imekataa kiasi hiki: ni zaidi ya kiasi cha juu cha malipo moja ya M-PESA. Hakuna pesa iliyotoka.`,
      merchant: 'Kiasi ni zaidi ya kiasi cha juu cha malipo moja ya M-PESA.',
    },
    '4': {
      payer: `Malipo haya yangezidi kikomo chako cha M-PESA cha siku, kwa hiyo ${NO_MONEY}.`,
      merchant: 'Malipo haya yangezidi kikomo cha M-PESA cha siku cha mteja.',
    },
    '8': {
      payer: `Akaunti ya M-PESA ya biashara haiwezi kupokea pesa zaidi kwa sasa, kwa hiyo ${NO_MONEY}.`,
      merchant:
        'Akaunti ya M-PESA ya duka haiwezi kupokea pesa zaidi kwa sasa. Angalia vikomo vyake na Safaricom.',
    },
    '17': {
      payer: `M-PESA imekataa kwa sababu kiasi hichohicho kilitumwa kutoka simu hii chini ya dakika 2 zilizopita. Hakuna pesa iliyotoka. Subiri dakika 2, kisha ujaribu tena.`,
      merchant:
        'Kiasi hichohicho kilitumwa kutoka simu hii chini ya dakika 2 kabla, kwa hiyo M-PESA ilikataa ikidhani ni marudio.',
    },
    '1001': {
      payer: `Ombi lingine la M-PESA lilikuwa wazi kwenye simu yako, kwa hiyo ${NO_MONEY}. Limalize au ulighairi, kisha ujaribu tena.`,
      merchant: 'Ombi lingine la M-PESA lilikuwa wazi kwenye simu ya mteja.',
    },
    '1019': {
      payer: `Ombi kwenye simu yako liliisha muda kabla ya kujibiwa, kwa hiyo ${NO_MONEY}. Jaribu tena na ulijibu ndani ya takriban dakika moja.`,
      merchant: 'Ombi liliisha muda kwenye simu ya mteja kabla ya kujibiwa.',
    },
    '1025': {
      payer: `M-PESA haikuweza kuonyesha ombi kwenye simu yako, kwa hiyo ${NO_MONEY}. Jaribu tena ukiwa na kumbukumbu fupi zaidi.`,
      merchant:
        'M-PESA haikuweza kuonyesha ombi kwenye simu ya mteja; kumbukumbu fupi zaidi inaweza kusaidia.',
    },
    '1032': {
      payer: `Umeghairi ombi kwenye simu yako, kwa hiyo ${NO_MONEY}.`,
      merchant: 'Mteja alighairi ombi kwenye simu yake.',
    },
    '1037': {
      payer: `Simu yako haikupatikana, au ombi halikujibiwa kwa wakati, kwa hiyo ${NO_MONEY}. Hakikisha simu imewashwa na ina mtandao, kisha ujaribu tena.`,
      merchant: 'Simu ya mteja haikupatikana, au ombi halikujibiwa kwa wakati.',
    },
    '2001': {
      payer: `PIN ya M-PESA haikuwa sahihi, kwa hiyo ${NO_MONEY}. Jaribu tena ukitumia PIN yako ya M-PESA.`,
      merchant: 'Mteja aliweka PIN ya M-PESA isiyo sahihi.',
    },
    '2028': NOT_SET_UP,
    '8006': {
      payer: `PIN yako ya M-PESA imefungwa, kwa hiyo ${NO_MONEY}. Wasiliana na Safaricom ili uifungue, kisha ujaribu tena.`,
      merchant: 'PIN ya M-PESA ya mteja imefungwa; Safaricom inaweza kuifungua.',
    },
    SFC_IC0003: NOT_SET_UP,
  },
  paidNoReceipt:
    'Umelipa. Nambari ya risiti iko kwenye ujumbe wa uthibitisho ambao M-PESA imetuma kwenye simu yako.',
  statuses: {
    success: {
      payer: PAID,
      merchant: 'Mteja amelipa. M-PESA imemtumia ujumbe wa uthibitisho.',
    },
    failed: {
      payer: `M-PESA haikukamilisha malipo haya, kwa hiyo ${NO_MONEY}. Unaweza kujaribu tena.`,
      merchant: 'M-PESA haikukamilisha malipo haya. Hakuna pesa iliyotoka.',
    },
    cancelled: {
      payer: `Malipo yameghairiwa, kwa hiyo ${NO_MONEY}.`,
      merchant: 'Mteja alighairi ombi. Hakuna pesa iliyotoka.',
    },
    timeout: {
      payer: `Ombi kwenye simu yako halikujibiwa kwa wakati, kwa hiyo ${NO_MONEY}. Unaweza kujaribu tena.`,
      merchant: 'Mteja hakujibu ombi kwa wakati. Hakuna pesa iliyotoka.',
    },
    unknown: {
      payer:
        'M-PESA haikutuambia kama malipo haya yalifanikiwa. Angalia jumbe zako za M-PESA kabla ya kulipa tena.',
      merchant:
        'M-PESA haikusema kama malipo haya yalifanikiwa. Angalia taarifa ya M-PESA kwa kiasi hiki kutoka simu hii kabla ya kudai pesa tena.',
    },
    refunded: {
      payer: 'Malipo haya yamerudishwa: pesa zimerudi kwenye M-PESA yako.',
      merchant: 'Malipo haya yamerudishwa: M-PESA ilimrudishia mteja pesa.',
    },
  },
  merchantPending: 'Inasubiri mteja ajibu ombi la M-PESA kwenye simu yake.',
  results: {
    pending: 'bado yanasubiri',
    success: 'yamelipwa',
    failed: 'hayakulipwa',
    cancelled: 'mteja ameyaghairi',
    timeout: 'ombi halikujibiwa kwa wakati',
    unknown: 'matokeo hayajulikani',
    refunded: 'yamerudishwa',
  },
  events: {
    saved: {
      payer: () => 'Ombi lako la malipo lilihifadhiwa.',
      merchant: () => 'Ombi la malipo lilihifadhiwa kabla ya kutumwa kwa M-PESA.',
    },
    accepted: {
      payer: () =>
        'M-PESA ilipokea ombi la malipo na kutuma ujumbe wa kuweka PIN kwenye simu yako.',
      merchant: () =>
        'M-PESA ilipokea ombi la malipo na kutuma ujumbe wa kuweka PIN kwenye simu ya mteja.',
    },
    push_unknown: {
      payer: () => 'M-PESA haikuthibitisha ombi; huenda ombi bado likafika kwenye simu yako.',
      merchant: () =>
        'M-PESA haikuthibitisha ombi la malipo. Huenda ombi lilifika kwenye simu ya mteja; malipo haya yatajisasisha yenyewe.',
    },
    push_failed: {
      payer: () => `M-PESA haikutuma ombi kwenye simu yako, kwa hiyo ${NO_MONEY}.`,
      merchant: () =>
        `M-PESA ilikataa ombi la malipo, kwa hiyo hakuna ombi lililotumwa na ${NO_MONEY}.`,
    },
    flagged: {
      payer: () => CHECKING,
      merchant: () =>
        'Yamewekwa kando ili mtu ayakague: ujumbe wa M-PESA haukubaliani na malipo haya.',
    },
    applied: both((c) => `${told(c)}: ${c.result}${withReceipt(c)}.`),
    settled_unknown: both(
      (c) =>
        `${told(c)}: ${c.result}${withReceipt(c)}. Hili linamaliza matokeo yaliyokuwa hayajulikani.`,
    ),
    lifted: both(
      (c) =>
        `${told(c)}: ${c.result}${withReceipt(c)}. Hili linachukua nafasi ya matokeo ya awali.`,
    ),
    lifted_flagged: {
      payer: (c) => `${told(c)}: ${c.result}. ${CHECKING}`,
      merchant: (c) =>
        `${told(c)}: ${c.result}${withReceipt(c)}, kinyume na ujumbe wa awali. Yamewekwa kando ili mtu ayakague.`,
    },
    lifted_under_review: {
      payer: (c) => `${told(c)}: ${c.result}. ${CHECKING}`,
      merchant: (c) =>
        `${told(c)}: ${c.result}${withReceipt(c)}. Malipo yanabaki kando hadi mtu ayakague.`,
    },
    receipt_added: both((c) => `${told(c)}: risiti${c.receipt ? ` ni ${c.receipt}` : ''}.`),
    not_applied_under_review: {
      payer: (c) => `${told(c)}: ${c.result}. ${CHECKING}`,
      merchant: (c) => `${told(c)}: ${c.result}. Halikutumika kwa sababu mtu anakagua malipo haya.`,
    },
    duplicate: both((c) =>
      c.asked
        ? 'Tuliuliza M-PESA tena: jibu lilelile, hakuna kilichobadilika.'
        : 'M-PESA ilituambia jambo lilelile tena: hakuna kilichobadilika.',
    ),
    ignored: {
      payer: () => 'M-PESA ilituma ujumbe mwingine kuhusu malipo haya. Haukubadilisha chochote.',
      merchant: (c) =>
        `${told(c)}: ${c.result}. Hakuna kilichobadilika: matokeo ya malipo haya yalikuwa yamekwisha kuthibitishwa.`,
    },
    gave_up: both(() => 'Tuliacha kuuliza M-PESA: matokeo hayajulikani.'),
    flag_cleared: {
      payer: (c) => `Biashara ilikagua malipo haya: ${c.status}.`,
      merchant: (c) => `${c.who ?? 'Mtu'} alikagua malipo haya: ${c.status}.`,
    },
    unknown_settled: {
      payer: (c) => `Biashara iliamua malipo haya kwa taarifa yake ya M-PESA: ${c.result}.`,
      merchant: (c) =>
        `${c.who ?? 'Mtu'} aliamua matokeo yasiyojulikana kwa taarifa ya M-PESA: ${c.result}.`,
    },
    c2b_confirmed: {
      payer: (c) => `Ulilipa kupitia menyu ya M-PESA kwenye simu yako${withReceipt(c)}.`,
      merchant: (c) =>
        `Mteja alilipa kupitia menyu ya M-PESA kwenye simu yake (till au paybill)${withReceipt(c)}.`,
    },
    c2b_found: {
      payer: (c) => `M-PESA ilithibitisha malipo yako${withReceipt(c)}.`,
      merchant: (c) =>
        `Tuliuliza M-PESA kuhusu risiti ya SMS: inayajua malipo haya${withReceipt(c)}, sasa yako kwenye historia.`,
    },
    refund_requested: {
      payer: () => 'Biashara iliomba M-PESA ikurudishie pesa za malipo haya.',
      merchant: (c) =>
        `${c.who ?? 'Mmiliki'} aliomba kurudisha pesa: ombi limetumwa kwa M-PESA, linasubiri jibu.`,
    },
    refunded: {
      payer: (c) => `Pesa zimerudi kwenye M-PESA yako${withReceipt(c)}.`,
      merchant: (c) => `M-PESA ilimrudishia mteja pesa${withReceipt(c)}.`,
    },
    refund_failed: {
      payer: () => 'Kurudisha pesa hakukufanikiwa, kwa hiyo pesa bado hazijarudi.',
      merchant: () => 'Kurudisha pesa hakukufanikiwa: pesa zimebaki kwa duka. Unaweza kuomba tena.',
    },
    other: both((c) => `Imerekodiwa: ${c.result}.`),
  },
};
