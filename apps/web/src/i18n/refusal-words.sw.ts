import {
  DESCRIPTION_MAX_LENGTH,
  MAX_AMOUNT,
  MIN_AMOUNT,
  REFERENCE_MAX_LENGTH,
  REFUND_REASON_MAX_LENGTH,
  SEARCH_MAX_LENGTH,
} from '@mpesa/shared';
import type { RefusalWords } from './refusal-words.en';

/** "sekunde 45", "dakika 2", "saa 1": a wait in Kiswahili. */
function duration(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `saa ${seconds / 3600}`;
  if (seconds >= 60 && seconds % 60 === 0) return `dakika ${seconds / 60}`;
  return `sekunde ${seconds}`;
}

/** A field the API found wrong, in Kiswahili (the payment form's and the history's filters). */
const INVALID_FIELD: Readonly<Record<string, string>> = {
  phoneNumber: 'Tafadhali weka nambari sahihi ya simu ya Kenya',
  amount: `Tafadhali weka kiasi sahihi: shilingi nzima, kuanzia ${MIN_AMOUNT} hadi ${MAX_AMOUNT.toLocaleString('en-KE')} KES.`,
  reference: `Kumbukumbu ni ndefu mno: isizidi herufi ${REFERENCE_MAX_LENGTH}.`,
  description: `Maelezo ni marefu mno: yasizidi herufi ${DESCRIPTION_MAX_LENGTH}.`,
  from: 'Tarehe za kuchuja si sahihi: "Kuanzia" isiwe baada ya "Hadi".',
  to: 'Tarehe za kuchuja si sahihi: "Kuanzia" isiwe baada ya "Hadi".',
  q: `Utafutaji ni mrefu mno: usizidi herufi ${SEARCH_MAX_LENGTH}.`,
  status: 'Hali iliyochaguliwa si sahihi.',
  channel: 'Njia ya malipo iliyochaguliwa si sahihi.',
  reason: `Tafadhali andika sababu ya kurudisha pesa: herufi 2 hadi ${REFUND_REASON_MAX_LENGTH}.`,
  url: 'URL si sahihi au ni ndefu mno: iandike kamili, kama https://shop.example/mpesa-events.',
  events: 'Chagua angalau tukio moja la kutumwa.',
  receipt:
    'Tafadhali weka risiti ya M-PESA kutoka kwenye SMS, kama UAB1C2D3E4 (herufi na tarakimu 10)',
};

const wait = (retryAfterS: number | undefined, fallback: string) =>
  retryAfterS === undefined ? fallback : `baada ya ${duration(retryAfterS)}`;

export const sw: RefusalWords = {
  byCode: {
    // A field of ours named; any other keeps the API's English, which says what is wrong.
    VALIDATION_ERROR: ({ field }) => (field ? INVALID_FIELD[field] : undefined),
    INTERNAL_ERROR: () => 'Kuna hitilafu upande wetu. Tafadhali jaribu tena.',
    NOT_FOUND: () => 'Hakuna kitu kwenye anwani hii. Angalia anwani.',
    TRANSACTION_NOT_FOUND: () => 'Muamala haukupatikana',
    REFUND_NOT_PAID: () =>
      'Malipo haya hayawezi kurudishwa: hayajalipwa, kwa hiyo hakuna pesa za kurudisha.',
    REFUND_FLAGGED: () =>
      'Malipo haya yamewekwa kando ili mtu ayakague: yakague kwanza kabla ya kurudisha pesa.',
    REFUND_TOO_OLD: () =>
      'Malipo haya ni ya zamani mno kurudishwa na M-PESA. Rudisha pesa kwa njia nyingine.',
    REFUNDS_NOT_SET_UP: () =>
      'Kurudisha pesa hakujawekwa kwenye seva hii: mmiliki aweke MPESA_INITIATOR_NAME na MPESA_INITIATOR_PASSWORD.',
    REFUND_EXISTS: () =>
      'Ombi la kurudisha pesa za malipo haya limekwisha tolewa. Angalia hali yake hapa chini.',
    REFUND_AMOUNT_MISMATCH: () =>
      'Kiasi hakilingani na malipo: malipo yote ndiyo yanarudishwa. Pakia upya kisha ujaribu tena.',
    RECEIPT_CHECK_NOT_FOUND: () => 'Ukaguzi huu wa risiti haukupatikana.',
    PAYOUT_NOT_FOUND: () => 'Malipo haya kwa mpokeaji hayakupatikana.',
    PAYOUT_BATCH_REFUSED: () =>
      'Faili halikupokelewa: kuna safu zenye makosa (zimeorodheshwa hapa chini). Hakuna kilichopendekezwa.',
    PAYOUT_DECIDED: () =>
      'Malipo haya hayasubiri idhini tena: yamekwisha idhinishwa au kukataliwa. Hakuna kilichobadilishwa.',
    PAYOUT_OWN_APPROVAL: () =>
      'Hakuna anayeidhinisha malipo aliyopendekeza mwenyewe: mmiliki mwingine ayaidhinishe.',
    PAYOUT_OVER_LIMIT: () => 'Kiasi kinazidi kikomo cha duka kwa malipo moja.',
    PAYOUT_DAILY_LIMIT: () => 'Malipo ya leo yangezidi kikomo cha duka kwa siku.',
    PAYOUTS_NOT_SET_UP: () =>
      'Malipo kwa wapokeaji hayajawekwa kwenye seva hii: mmiliki aweke MPESA_INITIATOR_NAME.',
    PAYOUT_NOT_CORRECTABLE: () =>
      'Malipo ambayo M-PESA haikulipa tu ndiyo yanaweza kusahihishwa, na mara moja tu.',
    LINK_NOT_FOUND: () => 'Kiungo hiki cha malipo hakipo. Angalia anwani uliyotumiwa.',
    LINK_PAID: () => 'Kiungo hiki kimekwisha lipwa. Hakuna pesa iliyotumwa.',
    LINK_BEING_PAID: () =>
      'Mtu mwingine analipa kiungo hiki sasa hivi. Kisipolipwa, kitafunguka tena baada ya dakika chache.',
    LINK_EXPIRED: () => 'Muda wa kiungo hiki umekwisha. Omba duka likutumie kiungo kipya.',
    LINK_OFF: () => 'Duka limekizima kiungo hiki. Omba duka likutumie kiungo kipya.',
    LINK_AMOUNT: () => 'Kiasi ni kidogo kuliko kiwango cha chini cha kiungo hiki.',
    LINKS_RATE_LIMITED: ({ retryAfterS }) =>
      `Umetengeneza viungo vingi mno kwa saa hii. Jaribu tena baada ya ${duration(retryAfterS ?? 60)}.`,
    LINK_CLOSED: () =>
      'Kiungo hiki hakipokei malipo tena (kimelipwa, muda wake umekwisha au kimezimwa), kwa hiyo msimbo wa QR wa M-PESA hautengenezwi.',
    MPESA_QR_NOT_SET_UP: () =>
      'Msimbo wa QR wa M-PESA haujawekwa kwenye seva hii: unahitaji till au paybill ya duka (MPESA_C2B_SHORTCODE). Msimbo wa QR wa kiungo wenyewe unafanya kazi bila hiyo.',
    MPESA_QR_NEEDS_AMOUNT: () =>
      'Msimbo wa QR wa M-PESA una kiasi kimoja kisichobadilika, na kwenye kiungo hiki mteja anachagua kiasi. Tumia msimbo wa QR wa kiungo wenyewe.',
    MPESA_QR_FAILED: () =>
      'M-PESA haikutengeneza msimbo wa QR sasa hivi. Tafadhali jaribu tena baada ya dakika chache; msimbo wa QR wa kiungo wenyewe unafanya kazi wakati huo.',
    C2B_NOT_SET_UP: () =>
      'Seva hii haipokei malipo ya till au paybill (MPESA_C2B_SHORTCODE haijawekwa).',
    REVIEW_REFUSED: () =>
      'Ukaguzi huu haukukubaliwa: malipo yamebadilika au hayahitaji ukaguzi tena. Angalia malipo tena.',
    TOO_MANY_REQUESTS: () =>
      'Maombi mengi mno kutoka mtandao wako. Tafadhali subiri dakika moja kisha ujaribu tena.',
    RATE_LIMITED: () =>
      'Maombi mengi mno ya malipo kutoka mtandao wako. Tafadhali subiri dakika moja kisha ujaribu tena.',
    PHONE_BUSY: ({ retryAfterS }) =>
      'Ombi la malipo bado linasubiri kwenye simu hii, au limeisha hivi punde na huenda ' +
      'limekwisha kulipwa. Angalia simu kwa ombi au ujumbe wa M-PESA kabla ya kulipa tena. ' +
      'Ombi jipya linaweza kutumwa ' +
      `${wait(retryAfterS, 'baada ya dakika moja')}.`,
    TOO_MANY_EXPORTS: () =>
      'Upakuaji mwingine unaendelea kwenye seva hii. Tafadhali jaribu tena baada ya sekunde chache.',
    UNAUTHENTICATED: () => 'Ingia ili uone hiki. Huenda muda wako wa kuingia umekwisha.',
    SIGN_IN_FAILED: () => 'Jina au nenosiri si sahihi.',
    TOO_MANY_SIGN_INS: ({ retryAfterS }) =>
      `Majaribio mengi mno ya kuingia yameshindwa. Tafadhali jaribu tena ${wait(retryAfterS, 'baadaye')}.`,
    CROSS_SITE_REQUEST: () =>
      'Ombi hili lilitoka kwenye ukurasa wa tovuti nyingine, kwa hiyo limekataliwa.',
    CSRF_TOKEN_INVALID: () => 'Ukurasa huu umepitwa na wakati. Pakia upya kisha ujaribu tena.',
    ROLE_NOT_ALLOWED: () => 'Jukumu lako haliruhusu hili. Muulize mmiliki.',
    FORBIDDEN: () => 'Hili haliruhusiwi.',
    OPERATOR_NOT_FOUND: () => 'Hakuna mhudumu mwenye jina hili.',
    OPERATOR_EXISTS: () => 'Tayari kuna mhudumu mwenye jina hili.',
    LAST_OWNER: () => 'Mmiliki wa mwisho hawezi kuondolewa wala kubadilishwa jukumu.',
    PASSWORD_LINK_INVALID: () =>
      'Kiungo hiki hakifanyi kazi tena: kimetumika, kimeisha muda au kimebadilishwa. Muulize mmiliki kiungo kipya.',
    API_KEY_NOT_FOUND: () => 'Hakuna ufunguo wa API wenye kitambulisho hiki.',
    WEBHOOK_ENDPOINT_NOT_FOUND: () =>
      'Hakuna anwani ya webhook yenye kitambulisho hiki: huenda imeondolewa. Pakia upya ukurasa.',
    WEBHOOK_DELIVERY_NOT_FOUND: () =>
      'Utumaji huu haupo tena: huenda anwani yake imeondolewa. Pakia upya ukurasa.',
    WEBHOOK_URL_REFUSED: () =>
      'Webhooks haziwezi kutumwa kwa URL hii: iandike kamili (https:// kwenye mfumo halisi), bila jina wala nenosiri, na kwa anwani iliyo nje ya mashine hii na ya mtandao wa ndani.',
    WEBHOOK_ENDPOINTS_LIMIT: () =>
      'Duka tayari lina anwani nyingi za webhook kadiri inavyoruhusiwa: ondoa moja kwanza, au tuma matukio zaidi kwa moja.',
    SCOPE_NOT_ALLOWED: () => 'Wigo wa ufunguo huu wa API hauruhusu hili.',
    IDEMPOTENCY_KEY_REUSED: () => 'Ombi hili lilishatumika kwa malipo mengine. Anza malipo mapya.',
    IDEMPOTENCY_KEY_IN_USE: () =>
      'Ombi hili la malipo bado linashughulikiwa. Angalia historia ya miamala kabla ya kujaribu tena.',
    MPESA_UNREACHABLE: () =>
      'Hatukuweza kufikia M-PESA, kwa hiyo hakuna ombi la malipo lililotumwa. Tafadhali jaribu tena baada ya dakika chache.',
    MPESA_INVALID_PHONE: () =>
      'M-PESA haiwezi kutuma ombi la malipo kwa nambari hii ya simu. Tafadhali iangalie kisha ujaribu tena.',
    MPESA_INVALID_AMOUNT: () =>
      'M-PESA haikukubali kiasi hiki. Tafadhali kiangalie kisha ujaribu tena.',
    MPESA_BUSY: () =>
      'M-PESA ina shughuli nyingi sasa hivi. Tafadhali jaribu tena baada ya dakika chache.',
    MPESA_REJECTED: () => 'M-PESA haikuweza kuanzisha malipo haya. Tafadhali jaribu tena baadaye.',
    MPESA_NO_ANSWER: () =>
      'M-PESA haikuthibitisha ombi la malipo. Ombi likifika kwenye simu yako bado unaweza kulikamilisha; malipo haya yatajisasisha yenyewe.',
    DATABASE_UNAVAILABLE: () =>
      'Hifadhidata yetu haijibu sasa hivi. Tafadhali jaribu tena baada ya sekunde chache.',
    SHUTTING_DOWN: () => 'Huduma inazimwa kwa muda. Tafadhali jaribu tena baada ya muda mfupi.',
  },
};
